/// A backend that reads input and hands it on as ``InputEvent`` values: evdev keyboards, the
/// terminal, and later a Wayland seat or libinput's touchscreens.
///
/// A source is made with what it needs (its event loop, the ``InputSink`` its values go to) and
/// registered with an app runtime, which starts it with the others and follows its device
/// changes; it stops them when one fails to open. The protocol names no loop, device library or platform, so a backend
/// module conforms to it without linking any other backend.
@MainActor
public protocol InputSource: AnyObject {
    /// What the source reads, as an app and its trace name it: `keyboards`, `terminal`.
    var inputName: String { get }
    /// Why this input, and what it can do now (the keyboards it opened, whether the terminal
    /// reports releases), for a status line or a trace's `session` note.
    var inputNote: String? { get }
    /// Called with every change of the devices the source reads (set by the runtime that
    /// starts it).
    var onDeviceChange: ((InputDeviceChange) -> Void)? { get set }
    /// Opens what the source reads and watches it; input flows from then on.
    ///
    /// - Throws: An error that names the thing and the fix when nothing could be opened.
    func start() throws
    /// Closes everything the source opened; every press it began ends `cancelled`. The source
    /// may be started again.
    func stop()
    /// Whether the source opened its devices through a seat manager (libseat), which puts the
    /// VT in graphics mode: an app that draws on that VT's console switches it back to text.
    var holdsSeat: Bool { get }
    /// The layout keys go through when the source chose it (a compositor sends its own keymap),
    /// for a status line or a trace; `nil` when the app's layout is used.
    var layoutDescription: String? { get }
}

extension InputSource {
    /// `false`: the source holds no seat.
    public var holdsSeat: Bool { false }
    /// `nil`: keys go through the app's layout.
    public var layoutDescription: String? { nil }
}

/// A device an ``InputSource`` reads: a keyboard today; a pointer, a touchscreen or a gamepad
/// later.
public struct InputDeviceInfo: Hashable, Sendable {
    /// The id its events carry.
    public var id: DeviceID
    /// Its name (the kernel's, or the compositor's).
    public var name: String
    /// Its device node, when it has one.
    public var path: String?
    /// What it is and how it is read: `keyboard, repeats: kernel, grabbed`.
    public var detail: String

    /// Describes a device.
    ///
    /// - Parameters:
    ///   - id: The id its events carry.
    ///   - name: Its name.
    ///   - path: Its device node.
    ///   - detail: What it is and how it is read.
    public init(id: DeviceID, name: String, path: String?, detail: String) {
        self.id = id
        self.name = name
        self.path = path
        self.detail = detail
    }
}

/// Something that happened to the devices an ``InputSource`` reads.
public enum InputDeviceChange: Hashable, Sendable {
    /// A device was opened (at start, or when plugged in).
    case added(InputDeviceInfo)
    /// A device went away; the presses it held (`cancelledKeys`) were cancelled.
    case removed(InputDeviceInfo, cancelledKeys: [KeyCode])
    /// A device that should be read could not be opened.
    case failed(path: String, message: String)
    /// Devices plugged in later will not be seen.
    case hotPlugUnavailable(message: String)
    /// The seat was taken away (a switch to another VT or session): every press was cancelled,
    /// nothing is read until it comes back.
    case seatDisabled(cancelledKeys: [KeyCode])
    /// The seat is back; its devices are opened again.
    case seatEnabled
}
