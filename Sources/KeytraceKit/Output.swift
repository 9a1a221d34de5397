import Glibc

/// Buffered output to a file descriptor: events are appended as bytes and written in large
/// chunks, so that `--replay --json` is limited by formatting, not by system calls.
public final class OutputBuffer {
    private var writer: ByteWriter
    private let descriptor: Int32
    private let limit: Int
    /// Whether appends are dropped (the live view draws instead of writing lines).
    public var isMuted = false

    /// Creates a buffer for a file descriptor.
    ///
    /// - Parameters:
    ///   - descriptor: Where to write; standard output by default.
    ///   - limit: Bytes to gather before writing.
    public init(descriptor: Int32 = 1, limit: Int = 1 << 16) {
        self.descriptor = descriptor
        self.limit = limit
        writer = ByteWriter(capacity: limit + 8192)
    }

    deinit {
        flush()
    }

    /// Appends bytes through a closure, writing when the buffer is full.
    ///
    /// - Parameter body: Appends to the buffer.
    public func append(_ body: (inout ByteWriter) -> Void) {
        guard !isMuted else { return }
        body(&writer)
        if writer.count >= limit { flush() }
    }

    /// Appends a line of text.
    ///
    /// - Parameter line: The line, without its newline.
    public func line(_ line: String) {
        append {
            $0.append(line)
            $0.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes what is buffered.
    public func flush() {
        guard writer.count > 0 else { return }
        writer.withBytes { buffer in
            // A closed pipe (`keytrace … | head`) ends output quietly (SIGPIPE is ignored).
            writeAll(descriptor, buffer)
        }
        writer.removeAll()
    }
}

/// Text for standard error.
public func printError(_ message: String) {
    Array((message + "\n").utf8).withUnsafeBytes { writeAll(2, $0) }
}

/// Writes every byte, retrying short writes and interruptions; gives up on any other error.
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard var next = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
        let written = write(descriptor, next, left)
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        next += written
        left -= written
    }
}
