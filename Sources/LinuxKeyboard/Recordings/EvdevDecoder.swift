public import ResponderChain

/// Turns one device's raw evdev events into dispatcher input, frame by frame: the decoding path
/// shared by live devices and recording replays.
///
/// - Key events are held until the frame's `SYN_REPORT`, then handed to the dispatcher in order
///   (value 1 down, 2 repeat, 0 up).
/// - A frame closed by `SYN_REPORT` **value 1** was made by the kernel, not by a person: its
///   repeats are auto-repeats, and its releases are the ones the input core synthesises when a
///   device is unplugged. Those releases become `Dispatcher.cancelKey(_:on:timestamp:)`,
///   so the presses end `cancelled`, not `ended`.
/// - `SYN_DROPPED` discards the frame in progress and everything up to the next `SYN_REPORT`; the
///   decoder then asks ``resync`` for the keys the device holds (libevdev's sync state for a live
///   device) and hands them to `Dispatcher.resynchronize(device:pressedKeys:timestamp:)`.
public final class EvdevDecoder {
    /// `EV_SYN`.
    public static let eventSync: UInt16 = 0
    /// `EV_KEY`.
    public static let eventKey: UInt16 = 1
    /// `SYN_REPORT`.
    public static let syncReport: UInt16 = 0
    /// `SYN_DROPPED`.
    public static let syncDropped: UInt16 = 3

    /// The device the events belong to.
    public let device: DeviceID
    /// The dispatcher the decoded input goes to.
    public let dispatcher: Dispatcher
    /// After a drop: the keys the device holds now, or `nil` when that cannot be known (a
    /// recording); then the held keys are left to the events that follow.
    public var resync: (() -> [KeyCode]?)?

    private var frame: [(code: UInt16, value: Int32)] = []
    private var dropping = false

    /// How many frames were decoded, and how many were discarded after drops.
    public private(set) var framesDecoded = 0
    /// How many `SYN_DROPPED` events were seen.
    public private(set) var drops = 0

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - device: The device.
    ///   - dispatcher: The dispatcher.
    public init(device: DeviceID, dispatcher: Dispatcher) {
        self.device = device
        self.dispatcher = dispatcher
        frame.reserveCapacity(16)
    }

    /// Decodes one event.
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - code: The code.
    ///   - value: The value.
    ///   - time: The event time in seconds.
    public func decode(type: UInt16, code: UInt16, value: Int32, time: Double) {
        switch type {
        case Self.eventKey where !dropping:
            if code < 0x300 { frame.append((code, value)) }
        case Self.eventSync where code == Self.syncDropped:
            drops += 1
            frame.removeAll(keepingCapacity: true)
            dropping = true
        case Self.eventSync where code == Self.syncReport:
            if dropping {
                dropping = false
                if let keys = resync?() {
                    dispatcher.resynchronize(device: device, pressedKeys: keys, timestamp: time)
                }
                frame.removeAll(keepingCapacity: true)
                return
            }
            flush(synthesized: value == 1, time: time)
        default:
            break  // EV_MSC scan codes, EV_LED, EV_REP and others carry nothing for dispatch.
        }
    }

    /// Decodes a recorded event.
    ///
    /// - Parameter event: The event.
    public func decode(_ event: EvemuRecording.Event) {
        decode(type: event.type, code: event.code, value: event.value, time: event.time)
    }

    /// The device is gone: its presses are cancelled.
    ///
    /// - Parameter time: When it went, in seconds.
    public func deviceRemoved(time: Double) {
        frame.removeAll(keepingCapacity: true)
        dispatcher.deviceRemoved(device, timestamp: time)
    }

    private func flush(synthesized: Bool, time: Double) {
        framesDecoded += 1
        for (code, value) in frame {
            let key = KeyCode(code)
            switch value {
            case 0 where synthesized:
                dispatcher.cancelKey(key, on: device, timestamp: time)
            case 0:
                dispatcher.handle(KeyEvent(key, .up, device: device, timestamp: time))
            case 1:
                dispatcher.handle(KeyEvent(key, .down, device: device, timestamp: time))
            default:
                dispatcher.handle(KeyEvent(key, .repeat, device: device, timestamp: time))
            }
        }
        frame.removeAll(keepingCapacity: true)
    }
}

extension EvemuRecording {
    /// Replays the recording through an ``EvdevDecoder`` into a dispatcher, as fast as possible.
    ///
    /// - Parameters:
    ///   - dispatcher: The dispatcher.
    ///   - device: The device the events are attributed to.
    /// - Returns: The decoder, for its counters.
    @discardableResult
    public func replay(into dispatcher: Dispatcher, device: DeviceID = DeviceID(rawValue: 1)) -> EvdevDecoder {
        let decoder = EvdevDecoder(device: device, dispatcher: dispatcher)
        for event in events { decoder.decode(event) }
        return decoder
    }
}
