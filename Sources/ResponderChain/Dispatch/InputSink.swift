/// One piece of input from an input source, as a value: what a decoder produces and an
/// ``InputSink`` receives, in order. Every source hands its input to the dispatcher as these
/// values: evdev keyboards, the terminal (its keys and its bracketed pastes), and the test
/// doubles alike.
///
/// Keys and text are what the dispatcher handles today. Other kinds of input (pointer, touch,
/// gamepad values) will be added as new cases, each with its device and timestamp, when the
/// dispatcher has behaviour for them: ``Dispatcher``'s ``Dispatcher/receive(_:)`` handles every
/// case, and a sink that only passes input on forwards the new ones unchanged. Code that
/// switches over `InputEvent` should expect new cases: an exhaustive `switch` stops compiling
/// until it handles them, so a sink outside this package gives its `switch` a `default` that
/// passes the value on (or ignores it).
public enum InputEvent: Hashable, Sendable {
    /// A key went down, repeated or came up.
    case key(KeyEvent)
    /// A key's press ends `cancelled` without a key-up (the kernel released it as its device
    /// went away, or the terminal reported it up without sending its release).
    case cancelKey(KeyCode, device: DeviceID, timestamp: Double)
    /// The device reports these keys down now (after events were dropped).
    case resynchronize(device: DeviceID, pressedKeys: [KeyCode], timestamp: Double)
    /// The device went away: its presses end `cancelled`.
    case deviceRemoved(DeviceID, timestamp: Double)
    /// Every keyboard was lost (the seat was disabled, another process took the keyboards):
    /// every press ends `cancelled`.
    case keyboardLost(timestamp: Double)
    /// Text that did not come from key presses: a terminal's bracketed paste, or (later) an
    /// input method's commit. It goes to the first responder when that is a
    /// ``TextInputResponder`` (``TextInputResponder/insertText(_:)``), and is dropped otherwise;
    /// the trace records how many characters went where, never the text. Text a key typed
    /// travels with its key instead, as ``KeyEvent/text``.
    case text(String, device: DeviceID, timestamp: Double)
    /// A compositor's modifiers, locks and layout group for its keymap (`wl_keyboard.modifiers`):
    /// the truth for them from now on (``Dispatcher/updateModifiers(_:device:timestamp:)``).
    case modifiers(SerializedModifiers, device: DeviceID, timestamp: Double)
    /// A pointer button or a touch contact went down, moved, came up or was cancelled: it hits
    /// the focus tree by frame, and a click or a tap activates what it lands on
    /// (``PointerActivationTracker``).
    case pointer(PointerEvent)
    /// The layout the device's keys go through from now on (a compositor sent its keymap, the
    /// terminal types on its own): the dispatcher's ``Dispatcher/layout`` becomes it.
    case layout(KeyboardLayoutChange, device: DeviceID, timestamp: Double)
    /// The locks that are on from now on (a keyboard's LEDs at start, what the console left on):
    /// ``Dispatcher/setLocks(_:)``. Lock keys pressed later toggle from here.
    case locks(LockState, device: DeviceID, timestamp: Double)
}

/// A pointer button or a touch contact, in the window's coordinate space (a source maps its
/// surface's pixels to the frames' units).
public struct PointerEvent: Hashable, Sendable {
    /// What the contact did.
    public enum Phase: String, Hashable, Sendable, CaseIterable {
        /// A button or a finger went down.
        case down
        /// It moved while down (hovering is not reported: it moves nothing).
        case move
        /// It came up.
        case up
        /// Every contact was cancelled (the compositor took the touch, the device went away).
        case cancel
    }

    /// What made it.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A mouse, touchpad or tablet button.
        case mouse
        /// A finger on a touch screen.
        case touch
    }

    /// What the contact did.
    public var phase: Phase
    /// What made it.
    public var kind: Kind
    /// The contact: a touch point's id, or ``PointerActivationTracker/pointerID`` for a button.
    public var contact: Int
    /// Where, in the window's coordinate space.
    public var point: Point
    /// The device.
    public var device: DeviceID
    /// When, in seconds.
    public var timestamp: Double

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - phase: What the contact did.
    ///   - kind: What made it.
    ///   - contact: The contact's id (``PointerActivationTracker/pointerID`` for a button).
    ///   - point: Where, in the window's coordinate space.
    ///   - device: The device.
    ///   - timestamp: When, in seconds.
    public init(
        _ phase: Phase, _ kind: Kind, contact: Int = PointerActivationTracker.pointerID, at point: Point,
        device: DeviceID = .primary, timestamp: Double
    ) {
        self.phase = phase
        self.kind = kind
        self.contact = contact
        self.point = point
        self.device = device
        self.timestamp = timestamp
    }
}

/// Where an input source's input goes: the one direction of the path from device to
/// dispatcher. A decoder hands its input to a sink; a software repeater is a sink that adds
/// repeats and passes everything on to the next one; the ``Dispatcher`` is the last.
@MainActor
public protocol InputSink: AnyObject {
    /// Takes one piece of input.
    ///
    /// - Parameter input: The input.
    func receive(_ input: InputEvent)
}

extension Dispatcher: InputSink {
    /// Dispatches the input: ``handle(_:)``, ``cancelKey(_:on:timestamp:)``,
    /// ``resynchronize(device:pressedKeys:timestamp:)``, ``deviceRemoved(_:timestamp:)``,
    /// ``keyboardLost(timestamp:)``, ``updateModifiers(_:device:timestamp:)``,
    /// ``handlePointer(_:)``, ``layout`` (a layout), ``setLocks(_:)`` (locks) or, for text,
    /// ``insertText(_:timestamp:)``.
    ///
    /// - Parameter input: The input.
    public func receive(_ input: InputEvent) {
        switch input {
        case .key(let event): handle(event)
        case .cancelKey(let code, let device, let timestamp): cancelKey(code, on: device, timestamp: timestamp)
        case .resynchronize(let device, let keys, let timestamp):
            resynchronize(device: device, pressedKeys: keys, timestamp: timestamp)
        case .deviceRemoved(let device, let timestamp): deviceRemoved(device, timestamp: timestamp)
        case .keyboardLost(let timestamp): keyboardLost(timestamp: timestamp)
        case .text(let text, _, let timestamp): insertText(text, timestamp: timestamp)
        case .modifiers(let modifiers, let device, let timestamp):
            updateModifiers(modifiers, device: device, timestamp: timestamp)
        case .pointer(let event): handlePointer(event)
        case .layout(let change, _, _): layout = change.layout
        case .locks(let locks, _, _): setLocks(locks)
        }
    }
}
