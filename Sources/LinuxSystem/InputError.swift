/// A failure talking to an input device or to udev, or reading a file (a scene): the errno, what
/// was being done, the path, and what to do about it.
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error number, or `Errno(rawValue: 0)` when the failure has none.
    public var errno: Errno
    /// The operation, such as `open` or `grab`.
    public var operation: String
    /// The device path, when there is one.
    public var path: String?
    /// What happened and how to fix it.
    public var message: String

    /// Creates an input error.
    ///
    /// - Parameters:
    ///   - errno: The error number; none (`Errno(rawValue: 0)`) by default.
    ///   - operation: The operation.
    ///   - path: The device path.
    ///   - message: What happened and how to fix it.
    public init(errno: Errno = Errno(rawValue: 0), operation: String, path: String?, message: String) {
        self.errno = errno
        self.operation = operation
        self.path = path
        self.message = message
    }

    /// `operation path: message` on one line, control characters escaped: a device path or name
    /// from outside cannot reach a terminal raw.
    public var description: String {
        visibleControlCharacters("\(operation)\(path.map { " \($0)" } ?? ""): \(message)")
    }

    /// The error for a device that could not be opened, with the fix for the usual causes.
    ///
    /// - Parameters:
    ///   - path: The device path.
    ///   - errno: The error number `open` set.
    /// - Returns: The error.
    public static func opening(_ path: String, errno: Errno) -> InputError {
        let message: String
        switch errno {
        case .permissionDenied:
            message =
                "permission denied. Run as root, add your user to the input group "
                + "(sudo usermod -aG input $USER, then log in again), or run seatd (sudo seatd -g video, with "
                + "your user in the video group) so that keyboards open through libseat"
        case .noSuchFileOrDirectory:
            message = "no such device file. List keyboards with `keytrace --list-devices` or `ls /dev/input/by-id`"
        case .noSuchDevice:
            message = "the device vanished (unplugged) while it was being opened"
        default:
            message = "could not open the device (errno \(errno.rawValue))"
        }
        return InputError(errno: errno, operation: "open", path: path, message: message)
    }

    /// No keyboard was found: what was searched and what to check.
    ///
    /// - Parameter searched: How many input devices were looked at.
    /// - Returns: The error.
    public static func noKeyboards(searched: Int) -> InputError {
        InputError(
            operation: "find keyboards", path: "/dev/input",
            message: searched == 0
                ? "no input devices at all: is this a container without /dev/input? Plug a keyboard in, or use the terminal input"
                : "\(searched) input devices, none of them a keyboard (no letter keys, no arrows with select). "
                    + "Check `ls -l /dev/input/by-id` and that you may read them (root or the input group)")
    }
}
