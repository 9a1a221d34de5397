/// One piece of input from a keyboard source, as a value: what a decoder produces and a
/// ``InputSink`` receives, in order.
public enum InputEvent: Hashable, Sendable {
    /// A key went down, repeated or came up.
    case key(KeyEvent)
    /// A key's press ends `cancelled` without a key-up (the kernel released it as its device
    /// went away).
    case cancelKey(KeyCode, device: DeviceID, timestamp: Double)
    /// The device reports these keys down now (after events were dropped).
    case resynchronize(device: DeviceID, pressedKeys: [KeyCode], timestamp: Double)
    /// The device went away: its presses end `cancelled`.
    case deviceRemoved(DeviceID, timestamp: Double)
    /// Every keyboard was lost (the seat was disabled, another process took the keyboards):
    /// every press ends `cancelled`.
    case keyboardLost(timestamp: Double)
}

/// Where a keyboard source's input goes: the one direction of the path from device to
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
    /// ``resynchronize(device:pressedKeys:timestamp:)``, ``deviceRemoved(_:timestamp:)`` or
    /// ``keyboardLost(timestamp:)``.
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
        }
    }
}
