/// What an input source is given by the app it feeds: where its input goes, and the little it may
/// read back.
///
/// Input flows one way. A source hands everything it learns to ``sink`` as ``InputEvent`` values,
/// including what used to be set on the dispatcher from outside: the layout a compositor sends
/// (``InputEvent/layout(_:device:timestamp:)``) and the locks a keyboard's LEDs show
/// (``InputEvent/locks(_:device:timestamp:)``). What it may read back is small: fresh device ids
/// and the keyboard state (the keys held and the locks, to light each keyboard's LEDs and to say
/// which presses a lost device cancelled). A source never holds the ``Dispatcher``.
///
/// ```swift
/// let keyboards = EvdevSource(loop: app.loop, context: app.inputContext)
/// ```
@MainActor
public struct InputContext {
    /// Where the source's input goes: the dispatcher, or a sink in front of it (a recorder).
    public let sink: any InputSink
    private let deviceIDs: () -> DeviceID
    private let state: () -> KeyboardState

    /// A context on a sink.
    ///
    /// - Parameters:
    ///   - sink: Where input goes.
    ///   - makeDeviceID: Hands out a device id no other device of the app has had.
    ///   - keyboardState: The keys held and the locks, as the app's input so far says.
    public init(
        sink: any InputSink, makeDeviceID: @escaping () -> DeviceID,
        keyboardState: @escaping () -> KeyboardState
    ) {
        self.sink = sink
        deviceIDs = makeDeviceID
        state = keyboardState
    }

    /// A device id no other device of the app has had (``Dispatcher/makeDeviceID()``): every
    /// source takes its ids here, so that one source's `deviceRemoved` never cancels another's
    /// presses.
    ///
    /// - Returns: A fresh id.
    public func makeDeviceID() -> DeviceID {
        deviceIDs()
    }

    /// The keys held and the locks now, as the app's input so far says (read only).
    public var keyboardState: KeyboardState { state() }
}

extension Dispatcher {
    /// The context a source feeding this dispatcher is made with: the dispatcher as its sink, its
    /// device ids and its keyboard state.
    public var inputContext: InputContext {
        InputContext(
            sink: self, makeDeviceID: { [unowned self] in self.makeDeviceID() },
            keyboardState: { [unowned self] in self.keyboardState })
    }
}

/// A keyboard layout as an input value (``InputEvent/layout(_:device:timestamp:)``): what a source
/// sends when it learns the layout its keys go through (a compositor's keymap, a terminal's own
/// typing). Two values are equal when they are the same instance.
@MainActor
public final class KeyboardLayoutChange: Hashable, Sendable {
    /// The layout keys go through from now on.
    public let layout: any KeyboardLayout

    /// A layout to send.
    ///
    /// - Parameter layout: The layout keys go through from now on.
    public init(_ layout: any KeyboardLayout) {
        self.layout = layout
    }

    /// Whether both are the same instance.
    ///
    /// - Parameters:
    ///   - lhs: A change.
    ///   - rhs: Another.
    /// - Returns: `lhs === rhs`.
    nonisolated public static func == (lhs: KeyboardLayoutChange, rhs: KeyboardLayoutChange) -> Bool {
        lhs === rhs
    }

    /// Hashes the instance's identity.
    ///
    /// - Parameter hasher: The hasher.
    nonisolated public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
