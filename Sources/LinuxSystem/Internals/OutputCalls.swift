// The libc calls of trace and report output (OutputBuffer); its writes go through
// Syscalls.writeAll, the package's one write path; close and strerror are Syscalls' too.
internal import Glibc

/// The C calls `OutputBuffer` (AppRuntime) makes beyond the shared ones of `Syscalls`: open without
/// blocking, check and wait.
package enum OutputCalls {
    /// Whether `code` says the output refused for lack of permission (`EACCES`, `EPERM`, `EROFS`).
    package static func isPermissionError(_ code: Errno) -> Bool {
        code == .permissionDenied || code == .notPermitted || code == .readOnlyFileSystem
    }

    /// Opens a file for writing without ever blocking: a FIFO without a reader fails with `ENXIO`
    /// at once instead of waiting for one. A FIFO, pipe or device stays non-blocking (`isStream`);
    /// for a regular file the flag changes nothing. Uses `open` and `fstat`.
    ///
    /// - Parameter path: The file, created when missing and emptied when it is there.
    /// - Returns: The descriptor and whether it is a stream that may not take everything at once,
    ///   or the error number (`ENXIO`, ``Errno/noSuchAddressOrDevice``, for a FIFO without a reader).
    package static func openForWriting(_ path: String) -> Result<(descriptor: Int32, isStream: Bool), Errno> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else { return .failure(.current) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = Errno.current
            close(descriptor)
            return .failure(code)
        }
        return .success((descriptor, status.st_mode & S_IFMT != S_IFREG))
    }

    /// Whether a descriptor is open. Uses `fcntl(F_GETFD)`.
    package static func isOpen(_ descriptor: Int32) -> Bool {
        fcntl(descriptor, F_GETFD) >= 0 || errno != EBADF
    }

    /// Waits until a descriptor can take more bytes, at most `milliseconds`. Uses `poll`.
    ///
    /// - Returns: Whether it can.
    package static func waitUntilWritable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&request, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }
}
