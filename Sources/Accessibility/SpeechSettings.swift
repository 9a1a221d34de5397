internal import ResponderChain

/// The listener's speech settings, kept between runs of an app: whether it speaks, how fast and how
/// loud.
///
/// The settings are a few lines of text, which the app layer reads from and writes to a small file
/// (in AppSpeech, `SpeechSettingsFile`); this type knows only the text:
///
/// ```
/// # speech settings, written by the app
/// speech = on
/// rate = 20
/// volume = -10
/// ```
///
/// - One `key = value` a line; blank lines and whole-line comments (`#`) are allowed; lines may end
///   with LF or CR LF; spaces and tabs around keys and values are ignored.
/// - The keys are ``knownKeys``, in any order, each at most once; a key not given keeps its value in
///   ``defaults``. Any other key is an error, which names the known keys.
/// - `speech` is `on` or `off`; `rate` and `volume` are whole numbers in ``range``, as ``Narrator`` and
///   ``SpeechOutput/apply(rate:volume:)`` take them (a rate of 0 is the voice's default; a volume of
///   100, the loudest, is speech-dispatcher's).
/// - The text is at most ``maximumSize`` bytes and ``maximumLineCount`` lines: settings are a few
///   lines, and a larger file is the wrong file.
/// - An error never quotes the text: it names the line by its number and the key by its known name, so that
///   a file that is not settings (a link planted to `/etc/shadow`) cannot be shown on a kiosk's screen
///   through the message.
///
/// ``text`` writes the format back; parsing it gives the same settings.
public struct SpeechSettings: Hashable, Sendable {
    /// What `rate` and `volume` may be: -100...100.
    public static let range: ClosedRange<Int> = -100...100
    /// The largest text read, in bytes (4 KiB).
    public static let maximumSize = 4096
    /// The most lines read.
    public static let maximumLineCount = 64
    /// The keys, in the order ``text`` writes them.
    public static let knownKeys = ["speech", "rate", "volume"]
    /// Speech off, rate 0 (the voice's default), volume 100 (speech-dispatcher's default): what an app
    /// starts with when the listener has changed nothing. Off, as AppSpeech's speech starts unless the
    /// app asks otherwise (`kiosk-example --speak`): a missing file must not make a kiosk talk; the rate and
    /// volume are a ``Narrator``'s defaults.
    public static let defaults = SpeechSettings()

    /// Whether the app speaks (`speech = on`).
    public var isEnabled: Bool
    /// How fast, in ``range``; a value outside it is clamped to it.
    public var rate: Int {
        didSet { rate = Self.clamped(rate) }
    }
    /// How loud, in ``range``; a value outside it is clamped to it.
    public var volume: Int {
        didSet { volume = Self.clamped(volume) }
    }

    /// Creates settings; a rate or volume outside ``range`` is clamped to it. The defaults are
    /// ``defaults``'.
    ///
    /// - Parameters:
    ///   - isEnabled: Whether the app speaks.
    ///   - rate: How fast, -100...100 (0: the voice's default).
    ///   - volume: How loud, -100...100 (100, the loudest: speech-dispatcher's default).
    public init(isEnabled: Bool = false, rate: Int = 0, volume: Int = 100) {
        self.isEnabled = isEnabled
        self.rate = Self.clamped(rate)
        self.volume = Self.clamped(volume)
    }

    /// Reads settings from their text (see ``SpeechSettings`` for the format).
    ///
    /// Never traps, whatever the text: a problem is an error naming the line and the fix.
    ///
    /// - Parameter text: The text, as the file holds it.
    /// - Throws: ``SpeechSettingsError``: ``SpeechSettingsError/Code/tooLarge`` over ``maximumSize``
    ///   bytes, ``SpeechSettingsError/Code/tooManyLines`` over ``maximumLineCount`` lines, and per line
    ///   ``SpeechSettingsError/Code/malformedLine``, ``SpeechSettingsError/Code/unknownKey``,
    ///   ``SpeechSettingsError/Code/duplicateKey``, ``SpeechSettingsError/Code/invalidValue`` or
    ///   ``SpeechSettingsError/Code/outOfRange``.
    public init(parsing text: some StringProtocol) throws(SpeechSettingsError) {
        self = .defaults
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            guard bytes.count < Self.maximumSize else {
                throw SpeechSettingsError(
                    code: .tooLarge, line: 0,
                    message: "the text is larger than \(Self.maximumSize) bytes (4 KiB), the limit for speech "
                        + "settings: is this the right file? Speech settings are three short lines")
            }
            bytes.append(byte)
        }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.count <= Self.maximumLineCount else {
            throw SpeechSettingsError(
                code: .tooManyLines, line: Self.maximumLineCount + 1,
                message: "line \(Self.maximumLineCount + 1): more than \(Self.maximumLineCount) lines, the limit "
                    + "for speech settings: keep one `key = value` a line (\(Self.knownKeyList)) and few comments")
        }
        var seen: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            try apply(line: line, number: index + 1, seen: &seen)
        }
    }

    /// The settings as text, in the format ``init(parsing:)`` reads: a comment, then every key.
    public var text: String {
        """
        # speech settings, written by the app: speech is on or off; rate and volume are whole numbers
        # from -100 to 100 (rate 0 is the voice's default, volume 100 the loudest)
        speech = \(isEnabled ? "on" : "off")
        rate = \(rate)
        volume = \(volume)

        """
    }

    // MARK: Parsing

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let knownKeyList = "speech, rate and volume"

    private static func clamped(_ value: Int) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }

    /// Reads one line into `self`.
    private mutating func apply(line raw: ArraySlice<UInt8>, number: Int, seen: inout [String: Int])
        throws(SpeechSettingsError)
    {
        var line = raw
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        if number == 1 && line.starts(with: Self.byteOrderMark) { line.removeFirst(Self.byteOrderMark.count) }
        line = Self.trimmed(line)
        if line.isEmpty || line.first == UInt8(ascii: "#") { return }
        guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
            throw SpeechSettingsError(
                code: .malformedLine, line: number,
                message: "line \(number) is not `key = value`: write one setting a line "
                    + "(speech = on, rate = 0, volume = 0), or start a comment with #")
        }
        let keyBytes = Self.trimmed(line[..<equals])
        let value = Self.trimmed(line[(equals + 1)...])
        let key = String(decoding: keyBytes, as: UTF8.self)
        guard !keyBytes.isEmpty else {
            throw SpeechSettingsError(
                code: .malformedLine, line: number,
                message: "line \(number): a value without a key: write one of \(Self.knownKeyList) before the =")
        }
        guard Self.knownKeys.contains(key) else {
            let suggestion = Self.suggestion(for: keyBytes).map { " (did you mean \($0)?)" } ?? ""
            throw SpeechSettingsError(
                code: .unknownKey, line: number,
                message: "line \(number): an unknown key\(suggestion): the known keys are "
                    + "\(Self.knownKeyList); remove the line or correct the key")
        }
        if let first = seen[key] {
            throw SpeechSettingsError(
                code: .duplicateKey, line: number,
                message: "line \(number): \(key) is given again (first on line \(first)): keep one of the two lines")
        }
        seen[key] = number
        switch key {
        case "speech": isEnabled = try Self.switchValue(value, line: number)
        case "rate": rate = try Self.number(value, key: key, line: number)
        default: volume = try Self.number(value, key: key, line: number)
        }
    }

    private static func switchValue(_ value: ArraySlice<UInt8>, line: Int) throws(SpeechSettingsError) -> Bool {
        if value.elementsEqual("on".utf8) { return true }
        if value.elementsEqual("off".utf8) { return false }
        throw SpeechSettingsError(
            code: .invalidValue, line: line,
            message: "line \(line): speech is neither on nor off: write speech = on or speech = off")
    }

    /// A whole number in ``range``: an optional sign and decimal digits, nothing else.
    private static func number(_ value: ArraySlice<UInt8>, key: String, line: Int) throws(SpeechSettingsError)
        -> Int
    {
        var digits = value
        let isNegative = digits.first == UInt8(ascii: "-")
        if isNegative || digits.first == UInt8(ascii: "+") { digits.removeFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw SpeechSettingsError(
                code: .invalidValue, line: line,
                message: "line \(line): \(key) is not a whole number: write one from "
                    + "\(range.lowerBound) to \(range.upperBound)\(hint(key))")
        }
        // Stops growing past the range, so that no number of digits can overflow.
        var magnitude = 0
        for digit in digits where magnitude <= range.upperBound - range.lowerBound {
            magnitude = magnitude * 10 + Int(digit - UInt8(ascii: "0"))
        }
        let number = isNegative ? -magnitude : magnitude
        guard range.contains(number) else {
            throw SpeechSettingsError(
                code: .outOfRange, line: line,
                message:
                    "line \(line): \(key) is outside \(range.lowerBound)...\(range.upperBound): "
                    + "write a number from \(range.lowerBound) to \(range.upperBound)\(hint(key))")
        }
        return number
    }

    /// A key's usual value, for an error's fix.
    private static func hint(_ key: String) -> String {
        key == "rate" ? " (0 is the voice's default)" : " (100, the loudest, is speech-dispatcher's default)"
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = bytes
        while let first = result.first, first == space || first == tab { result.removeFirst() }
        while let last = result.last, last == space || last == tab { result.removeLast() }
        return result
    }

    /// The known key an unknown one was probably meant to be: the same but for case, or at most two
    /// edits away.
    private static func suggestion(for key: ArraySlice<UInt8>) -> String? {
        guard key.count <= 12 else { return nil }
        let lowered = key.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }
        let scored = knownKeys.map { ($0, editDistance(lowered, Array($0.utf8))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
