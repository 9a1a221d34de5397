public import EventLoop
internal import LinuxSystem
public import ResponderChain
public import XKBKeymap

/// The compositor's seat as the app's input: its keyboard, pointer and touch screen for one
/// window, on the app's loop, into the dispatcher.
///
/// Under a compositor (cage, sway, weston) the app cannot read `/dev/input`: the compositor owns
/// the devices and sends the focused window `wl_keyboard`, `wl_pointer` and `wl_touch` events,
/// with its own keymap, modifier state and repeat rate. This source turns them into the same
/// input the evdev keyboards give (see ``WaylandSeatDecoder`` for the rules):
///
/// - the compositor's keymap (`wl_keyboard.keymap`, at most 1 MiB of xkb v1 text) becomes the
///   dispatcher's layout, so text typed is what the compositor's layout types;
/// - `wl_keyboard.modifiers` is the truth for modifiers, locks and group;
/// - keys repeat in software (``repeater``) at the rate the compositor announces; a rate of 0
///   turns repeat off;
/// - losing keyboard focus cancels every held press; keys already down when it comes back begin
///   nothing;
/// - a left click or a tap on an item activates it, as `FocusSystem.activate(at:)` says;
///   positions go through ``mapPoint`` into the focus tree's coordinates;
/// - a keyboard, pointer or touch screen appearing or going away is reported through
///   ``onDeviceChange`` as a device added or removed; so is a whole seat (its `wl_seat` global)
///   appearing after the start, or going away: its devices are removed, their presses cancelled.
///
/// ```swift
/// let connection = try WaylandConnection(loop: app.loop)
/// let window = try WaylandWindow(connection: connection, options: .init(title: "Kiosk", appID: "kiosk"))
/// let seat = WaylandSeatSource(connection: connection, window: window, loop: app.loop,
///                              dispatcher: app.dispatcher)
/// app.setPrimaryInput(seat, fallsBackToTerminal: false)
/// ```
///
/// `KeyboardApp` (LinuxKeyboard) does this by itself when `WAYLAND_DISPLAY` is set.
@MainActor
public final class WaylandSeatSource {
    /// The connection.
    public let connection: WaylandConnection
    /// The window whose input this is.
    public let window: WaylandWindow
    /// The software repeater between the seat and the dispatcher.
    public let repeater: SoftwareRepeater
    /// The decoder the compositor's events go through.
    public let decoder: WaylandSeatDecoder
    /// Called with every change of the seat's devices (set by the runtime that starts the source).
    public var onDeviceChange: ((InputDeviceChange) -> Void)? {
        didSet { decoder.onDeviceChange = onDeviceChange }
    }

    private let loop: EventLoop
    private let dispatcher: Dispatcher
    private let core: SeatCore
    private var deadline: UInt64?

    /// Makes the source; nothing is bound until ``start()``.
    ///
    /// - Parameters:
    ///   - connection: The connection to the compositor.
    ///   - window: The window whose keyboard focus, pointer and touches are read.
    ///   - loop: The app's loop (the repeat's deadlines).
    ///   - dispatcher: Where input goes; its layout becomes the compositor's keymap.
    public init(connection: WaylandConnection, window: WaylandWindow, loop: EventLoop, dispatcher: Dispatcher) {
        self.connection = connection
        self.window = window
        self.loop = loop
        self.dispatcher = dispatcher
        repeater = SoftwareRepeater(timing: .standard, next: dispatcher)
        decoder = WaylandSeatDecoder(
            sink: repeater, repeater: repeater, clock: { Syscalls.monotonicNow() },
            makeDeviceID: { [unowned dispatcher] in dispatcher.makeDeviceID() })
        core = SeatCore(display: connection.core, window: window.core, decoder: decoder)
        decoder.onLayout = { [unowned dispatcher] layout in dispatcher.layout = layout }
        // What repeats is what the keymap makes a key: not a modifier wherever it sits.
        repeater.keyRepeats = { [unowned dispatcher] code in
            !dispatcher.logicalKeyCode(for: code).isModifier
        }
    }

    /// Maps a surface-local position (logical pixels) to the focus tree's coordinates: the
    /// identity by default; a canvas output divides by its cell size.
    public var mapPoint: (_ x: Double, _ y: Double) -> Point {
        get { decoder.mapPoint }
        set { decoder.mapPoint = newValue }
    }

    /// The compositor's keymap, once it sent one that compiled.
    public var layout: XKBKeyboardLayout? { decoder.layout }

    /// The repeat the compositor announced (`nil`: repeat off).
    public var announcedRepeat: RepeatTiming? { decoder.announcedRepeat }

    /// The devices the seat has now.
    public var devices: [InputDeviceInfo] { decoder.devices }

    /// Cancels every press and contact because the compositor went away: call it from the
    /// connection's `onDisconnect` before the app ends, so that every `began` still ends.
    public func connectionLost() {
        core.stop()
        removeDeadline()
    }

    private func removeDeadline() {
        if let deadline { loop.removeDeadline(deadline) }
        deadline = nil
    }
}

extension WaylandSeatSource: InputSource {
    /// `wayland`.
    public var inputName: String { "wayland" }

    /// The seat's name and devices, where the keymap comes from and how keys repeat.
    public var inputNote: String? {
        let seatName = connection.seatName ?? "seat"
        let kinds = devices.map { $0.name.split(separator: " ").last.map(String.init) ?? $0.name }
        let place = connection.socketPath.map { " at \($0)" } ?? ""
        guard connection.hasSeat else {
            return "the compositor\(place) offers no seat yet (no wl_seat: it has no input device); the window "
                + "is drawn, and the seat is taken when it appears"
        }
        var parts = [
            "the compositor's \(seatName)\(place): \(kinds.isEmpty ? "no device yet" : kinds.joined(separator: ", "))"
        ]
        parts.append("keymap from the compositor" + (layout.map { " (\($0.name))" } ?? ""))
        if let timing = announcedRepeat {
            parts.append("repeat \(Int((1 / timing.interval).rounded()))/s after \(Int(timing.delay * 1000)) ms")
        } else {
            parts.append("repeat off")
        }
        return parts.joined(separator: "; ")
    }

    /// Binds the seat's devices and follows them.
    ///
    /// - Throws: ``WaylandError`` when the connection is lost.
    public func start() throws {
        if let error = connection.disconnectError { throw error }
        guard !core.started else { return }
        deadline = loop.addDeadline({ [unowned repeater] in repeater.nextDeadline }) { [unowned repeater] now in
            repeater.fire(now: now)
        }
        core.start()
    }

    /// The compositor's keymap by its layouts' names (`English (US) (the compositor's keymap)`).
    public var layoutDescription: String? {
        guard let layout else { return "the compositor's keymap (not sent yet)" }
        // A keymap without layout names (wtype's) is named by where it came from alone.
        return layout.name == "compositor keymap"
            ? "the compositor's keymap" : "\(layout.name) (the compositor's keymap)"
    }

    /// Releases the seat's devices: every press and contact ends cancelled.
    public func stop() {
        core.stop()
        removeDeadline()
    }
}
