/// What speech-dispatcher sends a client, read from its bytes: the replies to commands and the
/// 7xx events, in the order they arrived.
///
/// SSIP's lines end in CRLF. A reply is zero or more `NNN-data` lines and one `NNN text` line,
/// all with the same code; an event is a 7xx block of the same shape (`701-<msg_id>`,
/// `701-<client_id>`, `701 BEGIN`). Events may arrive between a command and its reply, even
/// between the lines of a reply, so the parser keeps the two kinds of block apart.
///
/// The parser is pure (bytes in, values out) and bounded: a line longer than
/// ``maximumLineLength`` or a block of more than ``maximumBlockLines`` lines is an error, as is
/// every other malformed input; it never traps. After the first error it reads nothing more
/// (the connection is closed and made again).
///
/// ```swift
/// var parser = SSIPReplyParser()
/// for message in parser.consume(bytes) { handle(message) }
/// if let failure = parser.failure { close(because: failure) }
/// ```
public struct SSIPReplyParser: Sendable {
    /// The longest line read, without its CRLF, in bytes.
    public static let maximumLineLength = 4096
    /// The most lines in one reply or event block.
    public static let maximumBlockLines = 64

    /// The first error, after which the parser reads nothing more.
    public private(set) var failure: SSIPParseError?

    private var pending: [UInt8] = []
    private var replyLines: [(code: Int, text: String)] = []
    private var eventLines: [(code: Int, text: String)] = []
    private var lineNumber = 0

    /// Creates a parser at the start of a connection.
    public init() {}

    /// Reads the next bytes of the connection, in any split.
    ///
    /// - Parameter bytes: What was received.
    /// - Returns: The replies and events completed by these bytes, in order. When they hold an
    ///   error, those before it, and ``failure`` says what was wrong.
    public mutating func consume(_ bytes: some Collection<UInt8>) -> [SSIPMessage] {
        guard failure == nil else { return [] }
        var messages: [SSIPMessage] = []
        for byte in bytes {
            if byte == 0x0A {
                lineNumber += 1
                guard pending.last == 0x0D else {
                    fail("line \(lineNumber) ends in a bare LF: SSIP lines end in CRLF")
                    return messages
                }
                pending.removeLast()
                let line = pending
                pending.removeAll(keepingCapacity: true)
                if let message = read(line) { messages.append(message) }
                if failure != nil { return messages }
            } else {
                guard pending.count <= Self.maximumLineLength else {
                    fail("line \(lineNumber + 1) is longer than \(Self.maximumLineLength) bytes")
                    return messages
                }
                pending.append(byte)
            }
        }
        return messages
    }

    /// Whether a reply or an event has begun and not ended (a partial line, or lines of a block).
    public var isInsideMessage: Bool { !pending.isEmpty || !replyLines.isEmpty || !eventLines.isEmpty }

    private mutating func fail(_ message: String) {
        failure = SSIPParseError(message: message)
        pending = []
        replyLines = []
        eventLines = []
    }

    /// One line without its CRLF: a whole message when it ends a block.
    private mutating func read(_ line: [UInt8]) -> SSIPMessage? {
        guard line.count >= 4 else {
            fail("line \(lineNumber) is too short for `NNN-` or `NNN `: \(Self.quote(line))")
            return nil
        }
        let digits = line[0..<3]
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }), line[0] != 0x30 else {
            fail("line \(lineNumber) does not begin with a three-digit code: \(Self.quote(line))")
            return nil
        }
        let code = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let separator = line[3]
        guard separator == UInt8(ascii: "-") || separator == UInt8(ascii: " ") else {
            fail("line \(lineNumber) has \(Self.quote([separator])) after its code instead of `-` or ` `")
            return nil
        }
        let body = line[4...]
        guard let text = String(validating: body, as: UTF8.self) else {
            fail("line \(lineNumber) is not UTF-8")
            return nil
        }
        let isEvent = code >= 700
        var lines = isEvent ? eventLines : replyLines
        if let first = lines.first, first.code != code {
            fail("line \(lineNumber) has code \(code) inside a block of \(first.code)")
            return nil
        }
        guard lines.count < Self.maximumBlockLines else {
            fail("a block of code \(code) has more than \(Self.maximumBlockLines) lines")
            return nil
        }
        lines.append((code, text))
        if separator == UInt8(ascii: "-") {
            if isEvent { eventLines = lines } else { replyLines = lines }
            return nil
        }
        if isEvent { eventLines = [] } else { replyLines = [] }
        let data = lines.dropLast().map(\.text)
        guard isEvent else { return .reply(SSIPReply(code: code, data: Array(data), text: text)) }
        return event(code: code, data: Array(data), text: text)
    }

    private mutating func event(code: Int, data: [String], text: String) -> SSIPMessage? {
        let kind: SSIPEvent.Kind
        switch code {
        case 700: kind = .indexMark
        case 701: kind = .began
        case 702: kind = .ended
        case 703: kind = .cancelled
        case 704: kind = .paused
        case 705: kind = .resumed
        default: kind = .other(code)
        }
        let expected = kind == .indexMark ? 3 : 2
        guard data.count == expected else {
            fail("event \(code) (\(text)) has \(data.count) data lines; it needs \(expected)")
            return nil
        }
        guard let messageID = Self.number(data[0]), let clientID = Self.number(data[1]) else {
            fail("event \(code) (\(text)) has a message or client id that is not a number: \(data[0]), \(data[1])")
            return nil
        }
        return .event(
            SSIPEvent(kind: kind, messageID: messageID, clientID: clientID, mark: expected == 3 ? data[2] : nil))
    }

    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    private static func quote(_ bytes: [UInt8]) -> String {
        let shown = bytes.prefix(40).map { byte -> String in
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + hex(byte)
        }
        return "\"" + shown.joined() + (bytes.count > 40 ? "…" : "") + "\""
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }
}

/// A malformed line from speech-dispatcher: what was wrong, and where.
public struct SSIPParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, naming the line.
    public var message: String

    /// A description naming the protocol.
    public var description: String { "malformed SSIP from speech-dispatcher: \(message)" }
}

/// One message from speech-dispatcher: a reply to a command, or an event.
public enum SSIPMessage: Hashable, Sendable {
    /// The reply to the oldest command without one.
    case reply(SSIPReply)
    /// A 7xx event about a message.
    case event(SSIPEvent)
}

/// The reply to one command: `225-12` then `225 OK MESSAGE QUEUED`.
public struct SSIPReply: Hashable, Sendable {
    /// The code: 2xx success, 3xx server error, 4xx client error, 5xx syntax error.
    public var code: Int
    /// The text of the `NNN-` lines before the last (a message id, a value returned).
    public var data: [String]
    /// The last line's text (`OK MESSAGE QUEUED`).
    public var text: String

    /// Creates a reply.
    ///
    /// - Parameters:
    ///   - code: The code.
    ///   - data: The data lines' text.
    ///   - text: The last line's text.
    public init(code: Int, data: [String] = [], text: String) {
        self.code = code
        self.data = data
        self.text = text
    }

    /// Whether the command succeeded (a 2xx code).
    public var isSuccess: Bool { (200..<300).contains(code) }
}

/// An event about one message, sent by the daemon to clients that asked (`SET SELF NOTIFICATION
/// ALL on`).
public struct SSIPEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// `700 INDEX MARK`: an SSML mark was reached; ``SSIPEvent/mark`` names it.
        case indexMark
        /// `701 BEGIN`: the message began to sound.
        case began
        /// `702 END`: it ended.
        case ended
        /// `703 CANCELED`: it was cancelled, or dropped by a message of higher priority.
        case cancelled
        /// `704 PAUSED`.
        case paused
        /// `705 RESUMED`.
        case resumed
        /// Another 7xx code, from a newer daemon.
        case other(Int)
    }

    /// What happened.
    public var kind: Kind
    /// The daemon's id of the message (what `225-<id>` returned).
    public var messageID: Int
    /// The daemon's id of the client that sent it.
    public var clientID: Int
    /// The mark's name for ``Kind/indexMark``.
    public var mark: String?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - messageID: The message's id.
    ///   - clientID: The client's id.
    ///   - mark: The mark's name, for an index mark.
    public init(kind: Kind, messageID: Int, clientID: Int, mark: String? = nil) {
        self.kind = kind
        self.messageID = messageID
        self.clientID = clientID
        self.mark = mark
    }
}
