public import DispatchTrace
public import LinuxSystem
internal import ResponderChain

/// Buffered output to a file descriptor: events are appended as bytes and written in large
/// chunks, so that `--replay --json` is limited by formatting, not by system calls.
///
/// A write that fails (a full disk, a closed output) is kept in ``writeError``, and nothing more
/// is written after it: the caller says so and ends with a failure status, as keytrace does.
/// An output opened by path never blocks the app: a FIFO without a reader is refused when it is
/// opened, and a FIFO or device whose reader is slow keeps what it cannot take (up to
/// ``pendingLimit`` bytes) for the next ``flush()``.
public final class OutputBuffer {
    private var writer: ByteWriter
    private let descriptor: Int32
    private let limit: Int
    /// Whether the descriptor is non-blocking and may take only part of a write (a FIFO or a
    /// device opened by path).
    private let isStream: Bool
    private var ownsDescriptor = false
    /// The output as messages name it: `standard output`, or the file's name in quotes.
    public let name: String
    /// Whether appends are dropped (the live view draws instead of writing lines).
    public var isMuted = false
    /// Why writing failed, once it has; `nil` while every write succeeded. Nothing is written
    /// after a failure (a trace with a hole in it would mislead).
    public private(set) var writeError: OutputWriteError?

    /// The most bytes kept for a slow FIFO or device reader before the output is given up
    /// (4 MiB): the app never waits for its reader.
    public static let pendingLimit = 4 << 20

    /// Creates a buffer for a file descriptor. A descriptor that is not open (`keytrace >&-`) is
    /// a ``writeError`` at once.
    ///
    /// - Parameters:
    ///   - descriptor: Where to write; standard output by default.
    ///   - name: The output's name in messages; `standard output` and `standard error` for
    ///     descriptors 1 and 2 when not given.
    ///   - limit: Bytes to gather before writing.
    public init(descriptor: Int32 = 1, name: String? = nil, limit: Int = 1 << 16) {
        self.descriptor = descriptor
        self.limit = limit
        self.name =
            name
            ?? (descriptor == 1 ? "standard output" : descriptor == 2 ? "standard error" : "descriptor \(descriptor)")
        isStream = false
        writer = ByteWriter(capacity: limit + 8192)
        if !OutputCalls.isOpen(descriptor) {
            writeError = OutputWriteError(output: self.name, errno: .badFileDescriptor)
        }
    }

    /// Creates a buffer that writes a new file (an app's `--trace FILE`), replacing one that is
    /// there; the file is closed when the buffer goes away.
    ///
    /// Opening never blocks: a FIFO that no process reads is an error at once (start its reader
    /// first), and a FIFO or device stays non-blocking, so a reader that stops reading cannot stop
    /// the app (see ``pendingLimit``). Uses `open` with `O_NONBLOCK`.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - limit: Bytes to gather before writing.
    /// - Throws: ``OutputFileError`` naming the file, the reason and the fix.
    public init(path: String, limit: Int = 1 << 16) throws(OutputFileError) {
        guard !path.isEmpty else {
            throw OutputFileError(path: path, reason: "the file name is empty", fix: "name a file, such as trace.jsonl")
        }
        switch OutputCalls.openForWriting(path) {
        case .success(let opened):
            descriptor = opened.descriptor
            isStream = opened.isStream
        case .failure(let code):
            let fix: String
            let reason = code.description
            switch code {
            case .noSuchFileOrDirectory: fix = "create the folder first"
            case _ where OutputCalls.isPermissionError(code):
                fix = "choose a file in a folder you can write, such as /tmp"
            case .isDirectory: fix = "name a file inside that folder"
            case .noSuchAddressOrDevice:
                throw OutputFileError(
                    path: path, reason: "no process reads the FIFO",
                    fix: "start its reader first (such as: cat \(path) > trace.jsonl &), then the app")
            default: fix = "choose another file"
            }
            throw OutputFileError(path: path, reason: reason, fix: fix)
        }
        self.limit = limit
        name = "\"\(path)\"".escapingControlCharacters()
        writer = ByteWriter(capacity: limit + 8192)
        ownsDescriptor = true
    }

    deinit {
        flush()
        if ownsDescriptor { Syscalls.close(descriptor) }
    }

    /// Appends bytes through a closure, writing when the buffer is full.
    ///
    /// - Parameter body: Appends to the buffer.
    public func append(_ body: (inout ByteWriter) -> Void) {
        guard !isMuted, writeError == nil else { return }
        body(&writer)
        if writer.count >= limit { flush() }
    }

    /// Appends a line of text, with its control characters other than line feeds escaped
    /// (`String.escapingControlCharacters(keepingNewlines:)`): every text keytrace prints goes
    /// through here, so nothing from outside reaches a terminal raw.
    ///
    /// - Parameter line: The line, without its newline.
    public func line(_ line: String) {
        append {
            $0.append(line.escapingControlCharacters(keepingNewlines: true))
            $0.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes what is buffered. A failure is kept in ``writeError``; a slow FIFO or device reader
    /// leaves the rest for the next flush.
    public func flush() {
        guard writer.count > 0, writeError == nil else { return }
        let (written, stoppedBy) = writer.withBytes { Syscalls.writeAll(descriptor, $0) }
        // Any descriptor may be non-blocking (a terminal's standard output shares its open file
        // with standard input, which the terminal input makes non-blocking): a slow reader keeps
        // the rest for the next flush, up to `pendingLimit`.
        if let failure = stoppedBy, failure != .resourceTemporarilyUnavailable {
            writeError = OutputWriteError(output: name, errno: failure)
            writer.removeAll()
            return
        }
        writer.removeFirst(written)
        if writer.count > Self.pendingLimit {
            writeError = OutputWriteError(
                output: name, errno: .resourceTemporarilyUnavailable,
                reason: "its reader did not take \(writer.count) bytes (the limit is \(Self.pendingLimit))",
                fix: "read the output as it is written, or write a file instead")
            writer.removeAll()
        }
    }

    /// Writes everything buffered and reports whether all of it, and everything before, was
    /// written: call it when the output is complete. A slow FIFO or device reader is given up
    /// to two seconds to take the rest.
    ///
    /// - Throws: ``OutputWriteError`` naming the output, the reason and the fix.
    public func finish() throws(OutputWriteError) {
        flush()
        var waited = 0
        while writeError == nil, writer.count > 0, waited < 2000 {
            _ = OutputCalls.waitUntilWritable(descriptor, milliseconds: 100)
            waited += 100
            flush()
        }
        if writeError == nil && writer.count > 0 {
            writeError = OutputWriteError(
                output: name, errno: .resourceTemporarilyUnavailable,
                reason: "its reader did not take the last \(writer.count) bytes within 2 s",
                fix: "keep the reader reading until the app ends")
            writer.removeAll()
        }
        if let writeError { throw writeError }
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

    /// A sentence naming the file, the reason and the fix, on one line with control characters
    /// escaped (`String.escapingControlCharacters(keepingNewlines:)`).
    public var description: String {
        "cannot write \"\(path)\": \(reason); \(fix)".escapingControlCharacters()
    }
}

/// Why an ``OutputBuffer`` could not write: a full disk, a closed output, a reader that went away.
public struct OutputWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The output as messages name it: `standard output`, or a file's name in quotes.
    public var output: String
    /// The error number (`.noSpace` for a full disk, `.badFileDescriptor` for a closed output,
    /// `.brokenPipe` when the reader went away).
    public var errno: Errno
    /// What went wrong.
    public var reason: String
    /// What to do about it.
    public var fix: String

    /// Creates an error with the C library's reason and the usual fix for `errno`.
    ///
    /// - Parameters:
    ///   - output: The output's name.
    ///   - errno: The error number.
    ///   - reason: What went wrong; the C library's words for `errno` when `nil`.
    ///   - fix: What to do; chosen from `errno` when `nil`.
    public init(output: String, errno: Errno, reason: String? = nil, fix: String? = nil) {
        self.output = output
        self.errno = errno
        self.reason = reason ?? errno.description
        self.fix = fix ?? Self.fix(for: errno)
    }

    /// Whether the reader of a pipe went away (`keytrace … | head`): the usual end of a pipe,
    /// not worth a message.
    public var isBrokenPipe: Bool { errno == .brokenPipe }

    /// A sentence naming the output, the reason and the fix, on one line with control
    /// characters escaped.
    public var description: String {
        "cannot write to \(output): \(reason); \(fix)".escapingControlCharacters()
    }

    private static func fix(for code: Errno) -> String {
        switch code {
        case .noSpace, .diskQuotaExceeded: return "free space on that disk, or write elsewhere"
        case .fileTooLarge: return "write to a file system that takes larger files"
        case .badFileDescriptor: return "run with the output open, such as > trace.txt"
        case .brokenPipe: return "keep the reader running until the output ends"
        default: return "check the output, or write elsewhere"
        }
    }
}
