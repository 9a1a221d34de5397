internal import LinuxSystem

/// Where a Wayland client finds its compositor: the variables libwayland-client reads, passed
/// explicitly so that a test (or an app choosing a backend) need not change the process environment.
public struct WaylandEnvironment: Hashable, Sendable {
    /// `WAYLAND_DISPLAY`: the socket's name in ``runtimeDirectory`` (such as `wayland-0`), or an absolute path.
    public var display: String?
    /// `WAYLAND_SOCKET`: a connected socket's descriptor number handed over by the compositor that started
    /// the app; used before ``display`` when set.
    public var socket: String?
    /// `XDG_RUNTIME_DIR`: the directory holding the compositor's socket.
    public var runtimeDirectory: String?

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - display: `WAYLAND_DISPLAY`.
    ///   - socket: `WAYLAND_SOCKET`.
    ///   - runtimeDirectory: `XDG_RUNTIME_DIR`.
    public init(display: String?, socket: String? = nil, runtimeDirectory: String?) {
        self.display = display
        self.socket = socket
        self.runtimeDirectory = runtimeDirectory
    }

    /// The process's own `WAYLAND_DISPLAY`, `WAYLAND_SOCKET` and `XDG_RUNTIME_DIR`.
    public static var current: WaylandEnvironment {
        WaylandEnvironment(
            display: Syscalls.environment("WAYLAND_DISPLAY"), socket: Syscalls.environment("WAYLAND_SOCKET"),
            runtimeDirectory: Syscalls.environment("XDG_RUNTIME_DIR"))
    }
}
