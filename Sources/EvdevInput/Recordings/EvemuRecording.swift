internal import LinuxSystem
public import ResponderChain

/// Why an evemu recording could not be read: the file, the line and what is wrong.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name (or the name given for text that is not a file).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// What is wrong and what was expected.
    public var message: String

    /// `file:line: message`, or `file: message` for a file that could not be read (line 0), on one
    /// line with control characters escaped (`String.escapingControlCharacters(keepingNewlines:)`):
    /// a crafted file name or line cannot drive the terminal the error is printed on.
    public var description: String {
        (line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)").escapingControlCharacters()
    }
}

/// A device description and the events it sent, in the format of `evemu-record` and `evemu-play`.
///
/// ```text
/// N: kernel-vm test keyboard
/// I: 0003 1234 5678 0001
/// P: 00 00 00 00 00 00 00 00
/// B: 00 03 00 00 00 00 00 00 00
/// B: 01 fe ff ff ff ff ff ff ff
/// E: 0.000001 0001 001e 0001
/// E: 0.000001 0000 0000 0000
/// ```
/// `N:` is the name; `I:` bus, vendor, product and version in hex; `P:` eight property bytes;
/// `B:` an event type and eight bytes of its code bitmask (repeated `B:` lines of a type continue
/// the mask); `A:` absolute axis info; `E:` an event: `seconds.microseconds type code value` with
/// type and code in hex and the value in decimal. Lines starting with `#` are comments.
public struct EvemuRecording: Hashable, Sendable {
    /// One input event.
    public struct Event: Hashable, Sendable {
        /// Whole seconds of the timestamp.
        public var seconds: Int
        /// Microseconds of the timestamp, 0...999999.
        public var microseconds: Int
        /// The event type (`EV_KEY` is 1, `EV_SYN` 0).
        public var type: UInt16
        /// The event code (`KEY_A` is 30).
        public var code: UInt16
        /// The value (1 down, 0 up, 2 repeat for keys).
        public var value: Int32

        /// Creates an event.
        ///
        /// - Parameters:
        ///   - seconds: Whole seconds.
        ///   - microseconds: Microseconds.
        ///   - type: The type.
        ///   - code: The code.
        ///   - value: The value.
        public init(seconds: Int, microseconds: Int, type: UInt16, code: UInt16, value: Int32) {
            self.seconds = seconds
            self.microseconds = microseconds
            self.type = type
            self.code = code
            self.value = value
        }

        /// The timestamp in seconds.
        public var time: Double { Double(seconds) + Double(microseconds) / 1_000_000 }
    }

    /// The device name.
    public var name: String
    /// Bus type, vendor, product and version.
    public var id: (bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        get { (identity[0], identity[1], identity[2], identity[3]) }
        set { identity = [newValue.bus, newValue.vendor, newValue.product, newValue.version] }
    }
    private var identity: [UInt16] = [0, 0, 0, 0]
    /// The eight property bytes.
    public var properties: [UInt8] = Array(repeating: 0, count: 8)
    /// The code bitmask of each event type, as bytes.
    public var eventBits: [UInt16: [UInt8]] = [:]
    /// Other header lines (`A:`, `L:`, `S:`), kept as written so that writing round-trips them.
    public var otherHeaders: [String] = []
    /// The events, in order.
    public var events: [Event] = []

    /// Creates an empty recording.
    ///
    /// - Parameter name: The device name.
    public init(name: String) {
        self.name = name
    }

    /// Whether the device declares an event code.
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - code: The code.
    /// - Returns: Whether its bit is set.
    public func supports(type: UInt16, code: UInt16) -> Bool {
        guard let bits = eventBits[type], Int(code / 8) < bits.count else { return false }
        return bits[Int(code / 8)] & (1 << (code % 8)) != 0
    }

    /// Declares an event code, as `evemu-record` would list it.
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - code: The code.
    public mutating func declare(type: UInt16, code: UInt16) {
        var bits = eventBits[type] ?? []
        let byte = Int(code / 8)
        if bits.count <= byte { bits += Array(repeating: 0, count: (byte / 8 + 1) * 8 - bits.count) }
        bits[byte] |= 1 << (code % 8)
        eventBits[type] = bits
        if type != 0 { declare(type: 0, code: type) }
    }

    /// The largest event time accepted, in seconds: what an unsigned 32-bit time holds (the year
    /// 2106 as a wall-clock time). Later times are an error, so arithmetic on them never overflows.
    public static let maximumSeconds = 4_294_967_295

    /// Reads a recording.
    ///
    /// - Parameters:
    ///   - text: The recording.
    ///   - file: The name errors give.
    /// - Throws: ``RecordingError`` with the line of the first malformed line.
    public init(parsing text: String, file: String = "recording.evemu") throws(RecordingError) {
        var text = text
        text.makeContiguousUTF8()
        var result: Result<EvemuRecording, RecordingError> = .failure(
            RecordingError(file: file, line: 1, message: "not UTF-8 text"))
        text.utf8.withContiguousStorageIfAvailable { bytes in
            result = Result { () throws(RecordingError) in try EvemuRecording(bytes: bytes, file: file) }
        }
        self = try result.get()
    }

    /// Reads a recording file (what `evemu-record` writes), straight from its bytes.
    ///
    /// A device name as an `N:` line holds it (and the `A:`, `L:` and `S:` lines kept as text):
    /// without surrounding spaces, tabs or carriage returns, and with each other control
    /// character (which would end or corrupt the line), and a leading mark that would join the
    /// space before it, replaced by U+FFFD. The reader and the
    /// writer both apply it, so the text survives writing.
    ///
    /// - Parameter name: The name, as read or as the kernel reported it.
    /// - Returns: The name as recordings hold it.
    public static func normalizedName(_ name: Substring) -> String {
        // Scalars, not characters: "\r" followed by a combining mark is two characters, but the
        // mark alone after "N: " would join the space into one.
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\r" }
        var scalars = name.unicodeScalars[...]
        while let first = scalars.first, isSpace(first) { scalars = scalars.dropFirst() }
        while let last = scalars.last, isSpace(last) { scalars = scalars.dropLast() }
        var result = ""
        for scalar in scalars {
            let joinsBefore =
                result.unicodeScalars.isEmpty
                && (scalar.properties.isGraphemeExtend || scalar.properties.generalCategory == .spacingMark
                    || scalar == "\u{200D}")
            let control = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            result.unicodeScalars.append(control || joinsBefore ? "\u{FFFD}" : scalar)
        }
        return result
    }

    /// The highest event type a `B:` line may name: the kernel's `EV_MAX`.
    public static let maximumEventType: UInt16 = 0x1f

    /// A recording may be at most 64 MiB: a larger regular file is refused by its size, before
    /// it is read. A FIFO, a pipe (such as the shell's `<(cat keys.evemu)`) or a device is read with
    /// the same bound, and is never waited on forever: opening does not block, and when it sends
    /// nothing for 10 seconds (a FIFO without a writer) reading stops with an error that says so.
    ///
    /// - Parameter path: The file.
    /// - Throws: ``RecordingError``: line 0 with the reason and the fix when the file cannot be
    ///   read (missing, a directory, an empty path, over 64 MiB, no data for 10 s), else the line of
    ///   the first malformed line.
    public init(contentsOfFile path: String) throws(RecordingError) {
        let bytes: [UInt8]
        switch readFileBytes(path, limit: Self.maximumSize) {
        case .success(let read): bytes = read
        case .failure(let failure):
            let reason = failure.describe(what: "recording", limit: Self.maximumSize)
            throw RecordingError(
                file: failure == .emptyPath ? "\"\"" : path, line: 0,
                message: failure.isSystemError ? "cannot read the recording: \(reason)" : reason)
        }
        var result: Result<EvemuRecording, RecordingError> = .failure(
            RecordingError(file: path, line: 0, message: "cannot read the recording"))
        bytes.withUnsafeBufferPointer { buffer in
            result = Result { () throws(RecordingError) in try EvemuRecording(bytes: buffer, file: path) }
        }
        self = try result.get()
    }

    /// The largest recording read, in bytes (64 MiB, about two million events): a larger one is
    /// refused before it is read, so a huge or endless input cannot exhaust memory.
    public static let maximumSize = 64 << 20

    /// Reads a recording from its UTF-8 bytes.
    private init(bytes: UnsafeBufferPointer<UInt8>, file: String) throws(RecordingError) {
        guard bytes.count <= Self.maximumSize else {
            throw RecordingError(
                file: file, line: 0,
                message: "the recording is \(bytes.count) bytes, over the limit of \(Self.maximumSize) bytes (64 MiB); "
                    + "record a shorter session or split the file")
        }
        self.init(name: "")
        var sawName = false
        // One event per line at most: counting lines first sizes the array once.
        var lines = 1
        for byte in bytes where byte == 10 { lines += 1 }
        events.reserveCapacity(lines)
        // Event lines are most of a recording: they are read straight from the bytes. Every other
        // line, and any event line the fast reader does not accept, takes the general path,
        // which also words the errors.
        var number = 0
        var start = 0
        while start < bytes.count || (start == bytes.count && number == 0) {
            var end = start
            while end < bytes.count && bytes[end] != 10 { end += 1 }
            number += 1
            if let event = Self.fastEvent(bytes, from: start, to: end) {
                events.append(event)
            } else {
                let line = Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                try parseLine(line, number: number, file: file, sawName: &sawName)
            }
            start = end + 1
        }
        if !sawName && events.isEmpty {
            throw RecordingError(file: file, line: 1, message: "not an evemu recording: no N: line and no E: events")
        }
    }

    /// Reads one line that is not a plain event line (or an event line the fast reader left).
    private mutating func parseLine(_ rawLine: Substring, number: Int, file: String, sawName: inout Bool)
        throws(RecordingError)
    {
        var line = Substring(rawLine)
        if line.last == "\r" { line = line.dropLast() }
        if let hash = line.firstIndex(of: "#"), !line.hasPrefix("N:") { line = line[..<hash] }
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty { return }
        func fail(_ message: String) -> RecordingError {
            RecordingError(file: file, line: number, message: message)
        }
        guard trimmed.count >= 2, trimmed.dropFirst().first == ":" else {
            throw fail(
                "expected a line like \"E: 0.000000 0001 001e 0001\" (N:, I:, P:, B:, A:, E:), got \"\(trimmed)\"")
        }
        let tag = trimmed.first!
        let body = trimmed.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        let fields = body.split(whereSeparator: { $0 == " " || $0 == "\t" })
        switch tag {
        case "N":
            name = Self.normalizedName(body)
            sawName = true
        case "I":
            guard fields.count == 4 else {
                throw fail("I: needs 4 hex numbers (bus vendor product version), got \(fields.count)")
            }
            var values: [UInt16] = []
            for field in fields {
                guard let value = UInt16(field, radix: 16) else {
                    throw fail("I: \"\(field)\" is not a 16-bit hex number")
                }
                values.append(value)
            }
            identity = values
        case "P":
            var bytes: [UInt8] = []
            for field in fields {
                guard let byte = UInt8(field, radix: 16) else { throw fail("P: \"\(field)\" is not a hex byte") }
                bytes.append(byte)
            }
            properties = bytes
        case "B":
            guard fields.count >= 2, let type = UInt16(fields[0], radix: 16) else {
                throw fail("B: needs an event type and bitmask bytes in hex")
            }
            // evemu writes the type as one byte; the kernel's types end at EV_MAX (0x1f).
            guard type <= Self.maximumEventType else {
                throw fail(
                    "B: event type \"\(fields[0])\" is beyond the kernel's last type EV_MAX (1f); evemu writes types as 00 to 1f"
                )
            }
            var bytes = eventBits[type] ?? []
            for field in fields.dropFirst() {
                guard let byte = UInt8(field, radix: 16) else { throw fail("B: \"\(field)\" is not a hex byte") }
                bytes.append(byte)
            }
            eventBits[type] = bytes
        case "A", "L", "S":
            // Kept as text, cleaned like a name, so that it survives writing.
            otherHeaders.append(Self.normalizedName(trimmed))
        case "E":
            guard fields.count == 4 else {
                throw fail("E: needs \"seconds.microseconds type code value\", got \(fields.count) fields")
            }
            let time = fields[0].split(separator: ".", omittingEmptySubsequences: false)
            func isDigits(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
            if fields[0].hasPrefix("-") {
                throw fail("E: time \"\(fields[0])\" is negative; evemu times count up from 0, like 12.345678")
            }
            guard time.count == 2, isDigits(time[0]), isDigits(time[1]), time[1].count <= 6 else {
                throw fail("E: \"\(fields[0])\" is not a time like 12.345678")
            }
            guard let seconds = Int(time[0]), seconds <= Self.maximumSeconds else {
                throw fail(
                    "E: time \"\(fields[0])\" is out of range: at most \(Self.maximumSeconds) seconds (a 32-bit time)")
            }
            let microseconds = (Int(time[1]) ?? 0) * [1, 100_000, 10_000, 1000, 100, 10, 1][time[1].count]
            guard let type = UInt16(fields[1], radix: 16) else { throw fail("E: type \"\(fields[1])\" is not hex") }
            guard let code = UInt16(fields[2], radix: 16) else { throw fail("E: code \"\(fields[2])\" is not hex") }
            guard let value = Int32(fields[3]) else {
                throw fail("E: value \"\(fields[3])\" is not a decimal integer")
            }
            events.append(Event(seconds: seconds, microseconds: microseconds, type: type, code: code, value: value))
        default:
            throw fail("unknown line type \"\(tag):\" (expected N:, I:, P:, B:, A:, L:, S: or E:)")
        }
    }

    /// Reads `E: <seconds>.<6 digits> <4 hex> <4 hex> <decimal>` straight from bytes; `nil` for
    /// anything else (the general reader then takes the line).
    private static func fastEvent(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Event? {
        var i = start
        guard end - start >= 20, bytes[i] == UInt8(ascii: "E"), bytes[i + 1] == UInt8(ascii: ":") else { return nil }
        i += 2
        func skipSpaces() {
            while i < end && (bytes[i] == 32 || bytes[i] == 9) { i += 1 }
        }
        func decimal(maxDigits: Int) -> (value: Int, digits: Int)? {
            var value = 0
            var digits = 0
            while i < end, bytes[i] >= 48, bytes[i] <= 57, digits < maxDigits {
                value = value * 10 + Int(bytes[i] - 48)
                digits += 1
                i += 1
            }
            return digits == 0 ? nil : (value, digits)
        }
        func hex() -> UInt16? {
            var value: UInt32 = 0
            var digits = 0
            while i < end, digits < 4 {
                let byte = bytes[i] | 0x20
                let nibble: UInt8
                if byte >= 48 && byte <= 57 {
                    nibble = byte - 48
                } else if byte >= 97 && byte <= 102 {
                    nibble = byte - 87
                } else {
                    break
                }
                value = value << 4 | UInt32(nibble)
                digits += 1
                i += 1
            }
            return digits == 0 ? nil : UInt16(value)
        }
        func separator() -> Bool {
            guard i < end, bytes[i] == 32 || bytes[i] == 9 else { return false }
            skipSpaces()
            return true
        }
        skipSpaces()
        guard let seconds = decimal(maxDigits: 10), seconds.value <= maximumSeconds, i < end,
            bytes[i] == UInt8(ascii: ".")
        else { return nil }
        i += 1
        guard let micro = decimal(maxDigits: 6), micro.digits == 6, separator(), let type = hex(), separator(),
            let code = hex(), separator()
        else { return nil }
        var negative = false
        if i < end && bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard let value = decimal(maxDigits: 10), value.value <= Int(Int32.max) else { return nil }
        skipSpaces()
        // Only a clean end or a comment; anything else goes to the general reader.
        guard i == end || bytes[i] == UInt8(ascii: "#") || (bytes[i] == 13 && i + 1 == end) else { return nil }
        return Event(
            seconds: seconds.value, microseconds: micro.value, type: type, code: code,
            value: Int32(negative ? -value.value : value.value))
    }

    /// The recording in evemu format, readable by `evemu-play`, `evemu-device` and ``init(parsing:file:)``.
    public var text: String {
        func hex(_ value: UInt16, _ width: Int) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        func byte(_ value: UInt8) -> String { hex(UInt16(value), 2) }
        var lines = [
            "# EVEMU 1.3", "N: \(Self.normalizedName(name[...]))",
            "I: " + identity.map { hex($0, 4) }.joined(separator: " "),
        ]
        lines.append("P: " + properties.map(byte).joined(separator: " "))
        for type in eventBits.keys.sorted() {
            let bits = eventBits[type]!
            var start = 0
            repeat {
                let row = bits[start..<min(start + 8, bits.count)]
                lines.append("B: \(byte(UInt8(clamping: type))) " + row.map(byte).joined(separator: " "))
                start += 8
            } while start < bits.count
        }
        lines += otherHeaders.map { Self.normalizedName($0[...]) }
        for event in events { lines.append(Self.line(for: event)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One event as an `E:` line.
    static func line(for event: Event) -> String {
        func hex4(_ value: UInt16) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        let micro = String(event.microseconds)
        let time = "\(event.seconds)." + String(repeating: "0", count: max(0, 6 - micro.count)) + micro
        return "E: \(time) \(hex4(event.type)) \(hex4(event.code)) \(event.value)"
    }

    /// The keys the device declares (`B: 01` bits), as key codes.
    public var declaredKeys: [KeyCode] {
        guard let bits = eventBits[1] else { return [] }
        var keys: [KeyCode] = []
        for (index, byte) in bits.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { keys.append(KeyCode(UInt16(index * 8 + bit))) }
        }
        return keys
    }
}
