/// Why a speech settings text could not be read: a code to match on, the line, and a message that
/// names the line and the fix.
///
/// Codes are a struct with named constants, as swift-system's `Errno` is, so that a new one breaks no
/// `switch`.
public struct SpeechSettingsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String

        /// Creates a code.
        ///
        /// - Parameter rawValue: Its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The text is larger than ``SpeechSettings/maximumSize`` bytes.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// The text has more than ``SpeechSettings/maximumLineCount`` lines.
        public static let tooManyLines = Code(rawValue: "tooManyLines")
        /// A line that is neither blank, a comment, nor `key = value`.
        public static let malformedLine = Code(rawValue: "malformedLine")
        /// A key that is not one of ``SpeechSettings/knownKeys``.
        public static let unknownKey = Code(rawValue: "unknownKey")
        /// A key given a second time.
        public static let duplicateKey = Code(rawValue: "duplicateKey")
        /// A value of the wrong kind: not `on` or `off`, not a whole number.
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// A whole number outside ``SpeechSettings/range``.
        public static let outOfRange = Code(rawValue: "outOfRange")

        /// The name.
        public var description: String { rawValue }
    }

    /// What kind of problem it is.
    public var code: Code
    /// The 1-based line at fault; 0 when the problem is the whole text (its size, its line count).
    public var line: Int
    /// What is wrong and how to fix it, starting with the line (`line 3: …`). Nothing from the input is
    /// quoted, only the line's number and known key names, so the message is one line that shows nothing
    /// of a file that is not settings.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of problem it is.
    ///   - line: The 1-based line, or 0 for the whole text.
    ///   - message: What is wrong and how to fix it.
    public init(code: Code, line: Int, message: String) {
        self.code = code
        self.line = line
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
