public import LinuxSystem

/// Why an ``Application`` could not be made or run: a code to match on, and a message that
/// names the thing and the fix. A struct, as swift-system's `Errno` is, so that a backend adds
/// codes (`extension AppError.Code { static let wayland = … }`) without breaking an app's `switch`.
public struct AppError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String

        /// A code by name.
        ///
        /// - Parameter rawValue: The name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// An input could not be opened or read, or the loop could not be made
        /// (``AppError/inputError`` has the errno, operation and path).
        public static let input = Code(rawValue: "input")

        /// The name.
        public var description: String { rawValue }
    }

    /// What kind of failure.
    public var code: Code
    /// What happened and how to fix it.
    public var message: String
    /// The input error, for ``Code/input`` when the failure was an `InputError`.
    public var inputError: InputError?

    /// An error with a code and a message.
    ///
    /// - Parameters:
    ///   - code: What kind of failure.
    ///   - message: What happened and how to fix it.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// An input that could not be opened or read.
    ///
    /// - Parameter error: The input error.
    public init(_ error: InputError) {
        self.init(code: .input, message: "\(error)")
        inputError = error
    }

    /// A source's error: an `InputError` keeps its details; any other is described.
    ///
    /// - Parameter error: The error a source threw.
    public init(_ error: any Error) {
        if let error = error as? AppError {
            self = error
        } else if let error = error as? InputError {
            self.init(error)
        } else {
            self.init(code: .input, message: "\(error)")
        }
    }

    /// The message, which names the thing and the fix.
    public var description: String { message }
}
