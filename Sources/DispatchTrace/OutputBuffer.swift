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

    /// Creates a buffer that writes a new file (an app's `--trace FILE`), replacing one that is
    /// there; the file is closed when the buffer goes away.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - limit: Bytes to gather before writing.
    /// - Throws: ``OutputFileError`` naming the file, the reason and the fix.
    public convenience init(path: String, limit: Int = 1 << 16) throws(OutputFileError) {
        guard !path.isEmpty else {
            throw OutputFileError(path: path, reason: "the file name is empty", fix: "name a file, such as trace.jsonl")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            let fix: String
            switch code {
            case ENOENT: fix = "create the folder first"
            case EACCES, EPERM, EROFS: fix = "choose a file in a folder you can write, such as /tmp"
            case EISDIR: fix = "name a file inside that folder"
            default: fix = "choose another file"
            }
            throw OutputFileError(path: path, reason: String(cString: strerror(code)), fix: fix)
        }
        self.init(descriptor: descriptor, limit: limit)
        ownsDescriptor = true
    }

    private var ownsDescriptor = false

    deinit {
        flush()
        if ownsDescriptor { close(descriptor) }
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

/// Why ``OutputBuffer/init(path:limit:)`` could not open its file.
public struct OutputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong, as the system says it.
    public var reason: String
    /// What to do about it.
    public var fix: String

    /// A sentence naming the file, the reason and the fix.
    public var description: String {
        "cannot write \"\(path)\": \(reason); \(fix)"
    }
}
