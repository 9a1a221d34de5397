public import LinuxSystem

/// A failure to reach or keep the Wayland compositor: what was being done, the errno when there is one,
/// and a message naming the thing (the variable, the socket, the global) and the fix.
public struct WaylandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done, such as `connect`, `bind` or `read`.
    public var operation: String
    /// The error number, or `Errno(rawValue: 0)` when the failure has none.
    public var errno: Errno
    /// What happened and how to fix it.
    public var message: String

    /// Creates a Wayland error.
    ///
    /// - Parameters:
    ///   - operation: What was being done.
    ///   - errno: The error number; none (`Errno(rawValue: 0)`) by default.
    ///   - message: What happened and how to fix it.
    public init(operation: String, errno: Errno = Errno(rawValue: 0), message: String) {
        self.operation = operation
        self.errno = errno
        self.message = message
    }

    /// `operation: message`.
    public var description: String { "\(operation): \(message)" }
}
