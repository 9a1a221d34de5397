/// Splits a byte stream into lines with a bound: how keytrace reads an app's inspection socket,
/// and how an app reads the one request line a watcher sends.
///
/// Bytes go in as they arrive (``append(_:)``); whole lines come out (``nextLine()``), without
/// their newline. A line longer than ``maximumLength`` is an error as soon as it is longer, before
/// its end arrives, so a peer that never sends a newline cannot grow the buffer.
public struct InspectionLineReader: Sendable {
    /// The longest line, newline excluded.
    public let maximumLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline goes on: bytes before it hold none.
    private var scanned = 0

    /// A line longer than the bound.
    public struct LineTooLong: Error, Hashable, Sendable, CustomStringConvertible {
        /// The bound.
        public var maximumLength: Int

        /// What is wrong.
        public var description: String {
            "a line longer than \(maximumLength) bytes"
        }
    }

    /// Creates a reader.
    ///
    /// - Parameter maximumLength: The longest line accepted, newline excluded.
    public init(maximumLength: Int) {
        self.maximumLength = max(maximumLength, 1)
    }

    /// Bytes held that do not end a line yet.
    public var pendingCount: Int { buffer.count - start }

    /// Adds bytes that arrived.
    ///
    /// - Parameter bytes: The bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole line, without its newline; `nil` when no whole line is held.
    ///
    /// - Returns: The line, or `nil`.
    /// - Throws: ``LineTooLong`` when the line held (whole or not) is longer than the bound; the
    ///   reader is then of no further use.
    public mutating func nextLine() throws(LineTooLong) -> [UInt8]? {
        guard let end = buffer[max(scanned, start)...].firstIndex(of: UInt8(ascii: "\n")) else {
            if pendingCount > maximumLength { throw LineTooLong(maximumLength: maximumLength) }
            scanned = buffer.count
            compact()
            return nil
        }
        guard end - start <= maximumLength else { throw LineTooLong(maximumLength: maximumLength) }
        let line = Array(buffer[start..<end])
        start = end + 1
        scanned = start
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        }
        return line
    }

    /// Moves what is held to the front once most of the buffer has been read.
    private mutating func compact() {
        guard start > 0, start >= buffer.count / 2 else { return }
        buffer.removeFirst(start)
        scanned -= start
        start = 0
    }
}

/// Reads the one line a watcher sends: an ``InspectionRequest`` and nothing after it.
public struct InspectionRequestReader: Sendable {
    /// What the bytes so far amount to.
    public enum Outcome: Hashable, Sendable {
        /// No whole line yet.
        case needsMore
        /// The request (the line is complete and nothing followed it).
        case request(InspectionRequest)
        /// Bad input: the connection is to be closed.
        case failure(InspectionError)
    }

    private var lines = InspectionLineReader(maximumLength: InspectionProtocol.maximumRequestLength - 1)
    private var received: InspectionRequest?

    /// Creates a reader.
    public init() {}

    /// Reads bytes from the watcher.
    ///
    /// - Parameter bytes: What arrived.
    /// - Returns: The request once its line is whole; a failure for a malformed or over-long line,
    ///   or for anything sent after the request.
    public mutating func consume(_ bytes: some Collection<UInt8>) -> Outcome {
        if received != nil {
            return bytes.isEmpty
                ? .needsMore : .failure(InspectionError("a watcher sends one request line and nothing after it"))
        }
        lines.append(bytes)
        let line: [UInt8]?
        do { line = try lines.nextLine() } catch {
            return .failure(
                InspectionError("a request is one line of at most \(InspectionProtocol.maximumRequestLength) bytes"))
        }
        guard let line else { return .needsMore }
        let request: InspectionRequest
        do { request = try InspectionRequest(line: line) } catch { return .failure(error) }
        guard lines.pendingCount == 0 else {
            return .failure(InspectionError("a watcher sends one request line and nothing after it"))
        }
        received = request
        return .request(request)
    }
}
