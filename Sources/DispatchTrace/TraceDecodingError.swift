internal import ResponderChain

/// Why ``TraceEvent/init(jsonLine:)-([UInt8])`` could not read a line: which field, what it expected,
/// and what to do.
///
/// A struct with a ``code`` rather than an enum, so that new kinds of problem do not break a
/// `switch` in client code; compare ``code`` with the named codes.
public struct TraceDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A kind of problem.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String

        /// Creates a code.
        ///
        /// - Parameter rawValue: The code's name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The line is longer than ``TraceEvent/maximumLineLength``.
        public static let lineTooLong = Code(rawValue: "lineTooLong")
        /// The line is not JSON (``TraceDecodingError/column`` says where).
        public static let syntax = Code(rawValue: "syntax")
        /// The line is JSON, but not an object.
        public static let notAnObject = Code(rawValue: "notAnObject")
        /// A field the event needs is not there.
        public static let missingField = Code(rawValue: "missingField")
        /// A field has the wrong JSON type (a string where a number belongs).
        public static let wrongType = Code(rawValue: "wrongType")
        /// A field has the right type but a value the trace does not have (an unknown stage, a
        /// key code out of range).
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// The `event` field names an event this reader does not know.
        public static let unknownEvent = Code(rawValue: "unknownEvent")
        /// The `session` event's `version` is not ``TraceEvent/schemaVersion``.
        public static let unknownVersion = Code(rawValue: "unknownVersion")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// The kind of problem.
    public var code: Code
    /// The field at fault (`t`, `event`, `code` …), when it is one field's.
    public var field: String?
    /// What the field should hold (`a string`, `an integer from 0 to 65535`), when it is wrong.
    public var expected: String?
    /// The version the `session` event names, for ``Code/unknownVersion``.
    public var version: Int?
    /// The column (from 1, in bytes) of a syntax error.
    public var column: Int?
    /// The problem and the fix, in a sentence.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - field: The field at fault.
    ///   - expected: What the field should hold.
    ///   - version: The version the line names.
    ///   - column: The column of a syntax error.
    ///   - message: The problem and the fix.
    public init(
        _ code: Code, field: String? = nil, expected: String? = nil, version: Int? = nil, column: Int? = nil,
        message: String
    ) {
        self.code = code
        self.field = field
        self.expected = expected
        self.version = version
        self.column = column
        self.message = message
    }

    /// `trace line: ` and the message, on one line with control characters escaped.
    public var description: String {
        "trace line: \(message)".escapingControlCharacters()
    }
}
