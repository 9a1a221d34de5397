public import EventLoop
internal import LinuxSystem
public import ResponderChain
public import XKBKeymap

/// The compositor's seat as the app's input: its keyboard, pointer and touch screen for one
/// window, on the app's loop, into the app's input sink.
///
/// Under a compositor (cage, sway, weston) the app cannot read `/dev/input`: the compositor owns
/// the devices and sends the focused window `wl_keyboard`, `wl_pointer` and `wl_touch` events,
/// with its own keymap, modifier state and repeat rate. This source turns them into the same
/// input the evdev keyboards give (see ``WaylandSeatDecoder`` for the rules):
///
/// - the compositor's keymap (`wl_keyboard.keymap`, at most 1 MiB of xkb v1 text) becomes the
///   layout keys go through (an `InputEvent.layout` value), so text typed is what the compositor's layout types;
/// - `wl_keyboard.modifiers` is the truth for modifiers, locks and group;
/// - keys repeat in software (``repeater``) at the rate the compositor announces; a rate of 0
///   turns repeat off;
/// - losing keyboard focus cancels every held press; keys already down when it comes back begin
///   nothing;
/// - a left click or a tap on an item activates it, as `FocusSystem.activate(at:)` says;
///   positions go through ``surface`` (the window's output) into the focus tree's coordinates;
/// - a keyboard, pointer or touch screen appearing or going away is reported through
///   ``onDeviceChange`` as a device added or removed; so is a whole seat (its `wl_seat` global)
///   appearing after the start, or going away: its devices are removed, their presses cancelled.
///
/// ```swift
/// let connection = try WaylandConnection(loop: app.loop)
/// let window = try WaylandWindow(connection: connection, options: .init(title: "Kiosk", appID: "kiosk"))
/// let seat = WaylandSeatSource(connection: connection, window: window, loop: app.loop,
///                              context: app.inputContext)
/// seat.surface = output   // the window's WaylandCanvasOutput
/// app.setPrimaryInput(seat, fallsBackToTerminal: false)
/// ```
///
/// `WaylandPlatform` does this for a `KeyboardApp` when `WAYLAND_DISPLAY` is set.
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
    private let core: SeatCore
    private var deadline: EventLoop.Deadline?

    /// Makes the source; nothing is bound until ``start()``.
    ///
    /// - Parameters:
    ///   - connection: The connection to the compositor.
    ///   - window: The window whose keyboard focus, pointer and touches are read.
    ///   - loop: The app's loop (the repeat's deadlines).
    ///   - context: Where input goes (`Application.inputContext`); the compositor's keymap goes
    ///     through it as an `InputEvent.layout` value.
    public init(connection: WaylandConnection, window: WaylandWindow, loop: EventLoop, context: InputContext) {
        self.connection = connection
        self.window = window
        self.loop = loop
        repeater = SoftwareRepeater(timing: .standard, next: context.sink)
        decoder = WaylandSeatDecoder(
            sink: repeater, repeater: repeater, clock: { Syscalls.monotonicNow() },
            makeDeviceID: context.makeDeviceID)
        core = SeatCore(display: connection.core, window: window.core, decoder: decoder)
        // What repeats is what the compositor's keymap makes a key: not a modifier wherever it sits.
        repeater.keyRepeats = { [unowned decoder] code in
            guard let layout = decoder.layout else { return !code.isModifier }
            return !(layout.logicalKeyCode(for: code) ?? code).isModifier
        }
    }

    /// The output the pointer and fingers land on (the window's `WaylandCanvasOutput`): surface
    /// positions map through it to the window's coordinate space. `nil` (the default): unmapped.
    /// Held strongly: an output holds no source.
    public var surface: (any PointerSurface)? {
        didSet {
            decoder.mapPoint = { [weak self] x, y in self?.surface?.windowPoint(x: x, y: y) ?? Point(x: x, y: y) }
        }
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
        guard let layout else {
            return decoder.hasDeferredKeymap
                ? "the compositor's keymap (compiled at the keyboard's first event)"
                : "the compositor's keymap (not sent yet)"
        }
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
