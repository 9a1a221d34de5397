internal import Glibc

/// The tool's few libc calls besides Wayland's: lines to standard output and error, and waiting.
enum ProcessIO {
    /// Writes a line to standard output at once (a test reading a pipe waits for it).
    static func say(_ line: String) { write(line + "\n", to: STDOUT_FILENO) }

    /// Writes `wayland-pointer: MESSAGE` to standard error.
    static func complain(_ message: String) { write("wayland-pointer: " + message + "\n", to: STDERR_FILENO) }

    /// Ends the process with `status` (`exit`).
    static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Waits `milliseconds` (`nanosleep`, resumed after a signal).
    static func sleep(milliseconds: UInt32) {
        var left = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds % 1000) * 1_000_000)
        var rest = timespec()
        while nanosleep(&left, &rest) != 0 && errno == EINTR { left = rest }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
