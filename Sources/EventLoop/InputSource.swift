public import LinuxSystem

/// A backend that reads input on an ``EventLoop`` and hands it on as values: evdev keyboards,
/// the terminal, and later a Wayland seat or libinput's touchscreens.
///
/// A source is made with what it needs (the loop, the sink its values go to) and registered
/// with the app runtime (`KeyboardApp.add(_:)`), which starts it with the others and stops it on
/// exit. The protocol names no key, dispatcher or device type, so a backend module conforms to
/// it without linking any other backend.
@MainActor
public protocol InputSource: AnyObject {
    /// What the source reads, as the app and its trace name it: `keyboards`, `terminal`.
    var inputName: String { get }
    /// Why this input, and what it can do now (the keyboards it opened, whether the terminal
    /// reports releases), for a status line or a trace's `session` note.
    var inputNote: String? { get }
    /// Opens what the source reads and watches it on its loop; input flows from then on.
    ///
    /// - Throws: ``InputError`` when nothing could be opened, naming the thing and the fix.
    func start() throws(InputError)
    /// Closes everything the source opened; every press it began ends `cancelled`. The source
    /// may be started again.
    func stop()
}
