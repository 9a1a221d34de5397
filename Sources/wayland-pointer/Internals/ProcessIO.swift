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

    /// Waits until standard input or `display` is readable (or hung up); says which.
    static func waitForInput(display: Int32) -> (input: Bool, display: Bool) {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: display, events: Int16(POLLIN), revents: 0),
        ]
        while poll(&descriptors, 2, -1) < 0 && errno == EINTR {}
        return (descriptors[0].revents != 0, descriptors[1].revents != 0)
    }

    /// Standard input's lines, read as they come (not through stdio's buffer, which `poll` cannot see).
    final class LineReader {
        private var pending: [UInt8] = []
        private var ended = false

        /// Reads what is there: the whole lines, with a last one without newline at the end of input;
        /// `nil` when the input ended and every line was handed out.
        func read() -> [String]? {
            guard !ended else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            var count = Glibc.read(STDIN_FILENO, &chunk, chunk.count)
            while count < 0 && errno == EINTR { count = Glibc.read(STDIN_FILENO, &chunk, chunk.count) }
            if count > 0 {
                pending += chunk[..<count]
            } else {
                ended = true
                if !pending.isEmpty { pending.append(0x0A) }
            }
            var lines: [String] = []
            while let end = pending.firstIndex(of: 0x0A) {
                lines.append(String(decoding: pending[..<end], as: UTF8.self))
                pending.removeSubrange(...end)
            }
            return ended && lines.isEmpty ? nil : lines
        }
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
