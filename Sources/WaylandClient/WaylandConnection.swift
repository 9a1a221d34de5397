public import EventLoop

/// A connection to the Wayland compositor on the app's one `EventLoop`: the display's socket is
/// watched by the loop (`wl_display_prepare_read`, `wl_display_read_events`,
/// `wl_display_dispatch_pending`), requests are flushed at the end of every batch, so an idle app
/// wakes 0 times a second.
///
/// Connecting binds the globals a window needs: `wl_compositor` (version 4 or newer), `wl_shm`
/// and `xdg_wm_base` (its pings are answered). A window needs no seat: the first `wl_seat` is bound
/// when the compositor offers one, now or later (weston offers it once it has an input device), and
/// let go when its global is removed; its capabilities are kept in ``seatCapabilities`` for the
/// input that comes later.
///
/// Each round trip at start (the registry, binding the globals, a window's first configure) waits
/// at most `timeout` seconds: a compositor that is stopped or hung, or a socket that accepts and
/// never answers, is an error naming the socket and what did not answer, not a silent hang.
///
/// ```swift
/// let loop = try EventLoop()
/// let connection = try WaylandConnection(loop: loop)
/// connection.onDisconnect = { error in print(error.message) }
/// let window = try WaylandWindow(connection: connection, options: .init(title: "Kiosk", appID: "kiosk"))
/// ```
///
/// A compositor that goes away (the socket hangs up, a read fails, a protocol error) is reported
/// once through ``onDisconnect``; after it the connection does nothing.
@MainActor
public final class WaylandConnection {
    let core: DisplayCore

    /// Connects to the compositor `environment` names and binds its globals.
    ///
    /// - Parameters:
    ///   - loop: The app's loop, which watches the display's socket.
    ///   - environment: Where the compositor is: the process's own variables by default.
    ///   - timeout: How long, in seconds, each round trip at start and a window's first configure
    ///     wait for the compositor (5 by default; 0.01 to 3600).
    /// - Throws: ``WaylandError`` naming `WAYLAND_DISPLAY` when it is unset, the socket path and
    ///   `XDG_RUNTIME_DIR` when it cannot be reached or refuses, what the path is when it is not a
    ///   socket, the global a compositor lacks, and the round trip a compositor did not answer in time.
    ///
    /// Uses `wl_display_connect`, or `wl_display_connect_to_fd` for `WAYLAND_SOCKET`.
    public init(loop: EventLoop, environment: WaylandEnvironment = .current, timeout: Double = 5)
        throws(WaylandError)
    {
        core = try DisplayCore(loop: loop, environment: environment, timeout: timeout)
    }

    isolated deinit {
        core.close()
    }

    /// The socket connected to, or `nil` for a socket handed over through `WAYLAND_SOCKET`.
    public var socketPath: String? { core.socketPath }

    /// How long, in seconds, a round trip at start and a window's first configure wait for the compositor.
    public var timeout: Double { core.timeout }

    /// Whether a seat is bound: `false` while the compositor offers no `wl_seat` global (weston
    /// with no input device); one that appears later is bound then.
    public var hasSeat: Bool { core.hasSeat }

    /// What the seat offers now: a keyboard, a pointer, touch.
    public var seatCapabilities: SeatCapabilities { core.seatCapabilities }

    /// The seat's name (`wl_seat.name`, such as `seat0`), once the compositor sent it.
    public var seatName: String? { core.seatName }

    /// Called when the seat's capabilities change: a keyboard, pointer or touch screen appeared or went away.
    public var onSeatCapabilitiesChange: ((SeatCapabilities) -> Void)? {
        get { core.onSeatCapabilitiesChange }
        set { core.onSeatCapabilitiesChange = newValue }
    }

    /// Called once when the compositor goes away (hang-up, read error, protocol error), with a
    /// message for the user. The app ends with it; the connection does nothing afterwards.
    public var onDisconnect: ((WaylandError) -> Void)? {
        get { core.onDisconnect }
        set { core.onDisconnect = newValue }
    }

    /// Why the connection was lost, or `nil` while it holds.
    public var disconnectError: WaylandError? { core.disconnectError }

    /// Sends every request and waits until the compositor has answered all of them, at most ``timeout`` seconds.
    ///
    /// - Throws: ``WaylandError`` when the connection is lost, or the compositor did not answer in
    ///   time (the connection is then lost too).
    ///
    /// Uses `wl_display.sync`, as `wl_display_roundtrip` does, with a deadline.
    public func roundtrip() throws(WaylandError) {
        try core.roundtrip()
    }

    /// Whether a flush found the socket full and the loop waits for it to take output again (tests).
    package var isWaitingForWritability: Bool { core.watchingWritability }

    /// The compositor's outputs bound (`wl_output`), in the order they came: name (version 4) and scale.
    package var outputs: [(name: String?, scale: Int)] { core.outputs.map { ($0.name, $0.scale) } }

    /// How many times the loop woke the connection for its socket (tests count idle wake-ups).
    package var socketWakeups: Int { core.wakeups }

    /// Sends the requests made so far now, rather than at the end of the loop's batch.
    ///
    /// Uses `wl_display_flush`.
    public func flush() {
        core.flush()
    }
}
