/// An error number, as the C library's calls set `errno`: the one errno type of the package.
///
/// Every error that carries an errno (``InputError``, and the display, Wayland and output errors
/// of the other modules) carries an `Errno`. Compare it with a named code, not a number:
///
/// ```swift
/// if error.errno == .permissionDenied { showHelp(error.message) }
/// ```
///
/// A struct with named codes rather than an enum, as swift-system's `Errno`: a code the package does
/// not name is still an `Errno` (`Errno(rawValue: 121)`), and a new name never breaks a `switch`
/// outside the package. A failure without an errno carries `Errno(rawValue: 0)`.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C error number (positive; 0 for none).
    public var rawValue: Int32

    /// Creates an error number from the C value.
    ///
    /// - Parameter rawValue: The C error number, such as `EACCES`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The C library's words for the error (`Permission denied`); `Success` for 0.
    ///
    /// The corresponding C function is `strerror`.
    public var description: String {
        ErrnoCalls.message(rawValue)
    }

    /// The calling thread's error number, as the last failed C call left it.
    ///
    /// Read it right after the call that failed: any other call may change it.
    ///
    /// The corresponding C variable is `errno`.
    public static var current: Errno {
        Errno(rawValue: ErrnoCalls.current)
    }
}
