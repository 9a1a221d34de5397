public import LinuxSystem

/// Why a DRM display could not be opened or used: a code to match on, the device, the errno when
/// there is one, and a message naming the thing and the fix.
public struct DisplayError: Error, Hashable, Sendable, CustomStringConvertible {
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

        /// No DRM device (`/dev/dri/card*`), or not the one named.
        public static let noDevice = Code(rawValue: "no-device")
        /// The device could not be opened: no permission, and no seat manager gave it.
        public static let permission = Code(rawValue: "permission")
        /// Another program is DRM master on the device (a compositor or display manager): the
        /// mode could not be set.
        public static let notMaster = Code(rawValue: "not-master")
        /// No connected display, or not the connector or mode asked for.
        public static let noConnector = Code(rawValue: "no-connector")
        /// The driver lacks what this output needs (dumb buffers, a CRTC for the connector).
        public static let unsupported = Code(rawValue: "unsupported")
        /// A kernel call failed otherwise (buffers, the mode).
        public static let device = Code(rawValue: "device")

        /// The name.
        public var description: String { rawValue }
    }

    /// What kind of failure.
    public var code: Code
    /// The device, such as `/dev/dri/card0`, when one was concerned.
    public var path: String?
    /// The error number, or `Errno(rawValue: 0)` when the failure has none.
    public var errno: Errno
    /// What happened and how to fix it.
    public var message: String

    /// An error.
    ///
    /// - Parameters:
    ///   - code: What kind of failure.
    ///   - path: The device.
    ///   - errno: The error number; none (`Errno(rawValue: 0)`) by default.
    ///   - message: What happened and how to fix it.
    public init(code: Code, path: String? = nil, errno: Errno = Errno(rawValue: 0), message: String) {
        self.code = code
        self.path = path
        self.errno = errno
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// Another program holds the device: the message names the usual holders and the fix.
    static func notMaster(_ path: String, errno: Errno = Errno(rawValue: 0)) -> DisplayError {
        DisplayError(
            code: .notMaster, path: path, errno: errno,
            message: "another program is DRM master on \(path) (a compositor, a display manager or another "
                + "kiosk on this VT): stop it, or run the app under seatd on a VT of its own")
    }
}
