// Every libc call of the module that is not file reading goes through here, so there is one
// place to see (and trace) what the module asks of the kernel.
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; these are plain synchronous calls.

enum Syscalls {
    static let again = EAGAIN
    static let noDevice = ENODEV

    /// Opens a path read-only, non-blocking, close-on-exec.
    ///
    /// - Returns: The descriptor, or the errno.
    static func openForReading(_ path: String) -> Result<Int32, Errno> {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        return fd >= 0 ? .success(fd) : .failure(Errno(code: Glibc.errno))
    }

    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    struct Errno: Error {
        var code: Int32
    }
}
