internal import LinuxSystem
public import ResponderChain

/// Turns one device's raw evdev events into `InputEvent` values, frame by frame, and hands them
/// to a `InputSink` (the dispatcher, or a `SoftwareRepeater` in front of it): the
/// decoding path shared by live devices and recording replays. Input runs one way: the decoder
/// reads nothing back from where it sends.
///
/// - Key events are held until the frame's `SYN_REPORT`, then handed on in order (value 1 down,
///   2 repeat, 0 up).
/// - A frame closed by `SYN_REPORT` **value 1** was made by the kernel, not by a person: its
///   repeats are auto-repeats, and its releases are the ones the input core synthesises when a
///   device is unplugged. Those releases become `InputEvent.cancelKey`, so
///   the presses end `cancelled`, not `ended`.
/// - `SYN_DROPPED` discards the frame in progress. For a live device (``isLive``), everything
///   up to the device's own state is discarded too: the device reads libevdev's synced state and
///   gives it to ``resynchronize(pressedKeys:time:)``. For a recording, the frame after the drop
///   is the state delta that libevdev's sync mode produced when it was recorded (what
///   ``EvemuRecorder`` writes): the keys it reports down are added to the held keys, those it
///   reports up are removed. Either way the result is an `InputEvent.resynchronize`:
///   a key found released ends `cancelled`, and a key found held gets no invented `began`.
/// - Kernel auto-repeats (value 2) are dropped when ``dropsKernelRepeats`` is set; a
///   `SoftwareRepeater` then makes the repeats instead (never both).
/// - A gamepad's hat (`EV_ABS` `ABS_HAT0X`/`ABS_HAT0Y`, -1, 0 or 1) becomes presses of its
///   `BTN_DPAD_*` keys inside the frame, the old direction released before the new one goes
///   down, so a hat flows down the same path as keys (phases, software repeat, roles). Values
///   beyond ±1 count as their sign; other axes (sticks, triggers) are not read.
@MainActor
public final class EvdevDecoder {
    /// `EV_SYN`.
    nonisolated public static let eventSync: UInt16 = 0
    /// `EV_KEY`.
    nonisolated public static let eventKey: UInt16 = 1
    /// `SYN_REPORT`.
    nonisolated public static let syncReport: UInt16 = 0
    /// `SYN_DROPPED`.
    nonisolated public static let syncDropped: UInt16 = 3
    /// `EV_ABS`.
    nonisolated public static let eventAbsolute: UInt16 = 3

    /// The device the events belong to.
    public let device: DeviceID
    /// Where the decoded input goes.
    public var sink: any InputSink
    /// Whether the events come from a live device, which resynchronizes itself after a drop;
    /// `false` for a recording, whose frame after a drop is the sync delta.
    public let isLive: Bool
    /// Whether kernel auto-repeat events (value 2) are ignored, because repeats are made in
    /// software or switched off.
    public var dropsKernelRepeats = false

    private var frame: [(code: UInt16, value: Int32)] = []
    private var dropping = false
    /// The keys down as the frames handed on say.
    private var held: [KeyCode] = []
    /// The hat's position as decoded so far (x, y: -1, 0 or 1), and as of the last frame handed
    /// on: a frame discarded by a drop goes back to the second.
    private var hat: (x: Int32, y: Int32) = (0, 0)
    private var handedHat: (x: Int32, y: Int32) = (0, 0)

    /// How many frames were decoded, and how many were discarded after drops.
    public private(set) var framesDecoded = 0
    /// How many `SYN_DROPPED` events were seen.
    public private(set) var drops = 0
    /// The keys the kernel released in its own frames (`SYN_REPORT` 1) since the last frame a
    /// person made: on an unplug, the presses those releases cancelled.
    public private(set) var keysReleasedByKernel: [KeyCode] = []

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - device: The device.
    ///   - sink: Where its input goes.
    ///   - isLive: A live device (it calls ``resynchronize(pressedKeys:time:)`` after a drop),
    ///     or a recording.
    public init(device: DeviceID, sink: any InputSink, isLive: Bool = false) {
        self.device = device
        self.sink = sink
        self.isLive = isLive
        frame.reserveCapacity(16)
        held.reserveCapacity(16)
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
        case Self.eventKey where !(dropping && isLive):
            if code < 0x300 { frame.append((code, value)) }
        case Self.eventAbsolute where !(dropping && isLive) && (code == KeyboardKind.hatX || code == KeyboardKind.hatY):
            decodeHat(axis: code, value: value)
        case Self.eventSync where code == Self.syncDropped:
            drops += 1
            frame.removeAll(keepingCapacity: true)
            hat = handedHat
            dropping = true
        case Self.eventSync where code == Self.syncReport:
            if dropping {
                // A live device's frames are discarded until its own state comes in.
                guard !isLive else { return }
                dropping = false
                hand(heldAfterDelta(), time: time)
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

    /// The device's state after a drop (libevdev's sync mode): the keys down now. Frames resume.
    ///
    /// - Parameters:
    ///   - pressedKeys: The keys the device reports down.
    ///   - time: When it was read.
    public func resynchronize(pressedKeys: [KeyCode], time: Double) {
        dropping = false
        frame.removeAll(keepingCapacity: true)
        hand(pressedKeys, time: time)
    }

    /// The `BTN_DPAD_*` key a hat position presses: `ABS_HAT0X` -1 is left, 1 right;
    /// `ABS_HAT0Y` -1 is up, 1 down; `nil` at the centre or for another axis. A value beyond ±1
    /// counts as its sign.
    ///
    /// - Parameters:
    ///   - axis: `ABS_HAT0X` (`0x10`) or `ABS_HAT0Y` (`0x11`).
    ///   - value: The axis value.
    /// - Returns: The key, or `nil`.
    nonisolated public static func hatKey(axis: UInt16, value: Int32) -> KeyCode? {
        switch (axis, value.signum()) {
        case (KeyboardKind.hatX, -1): return .dpadLeft
        case (KeyboardKind.hatX, 1): return .dpadRight
        case (KeyboardKind.hatY, -1): return .dpadUp
        case (KeyboardKind.hatY, 1): return .dpadDown
        default: return nil
        }
    }

    /// One hat axis moved: its old direction's key goes up, then the new one's goes down, both in
    /// the frame in progress.
    private func decodeHat(axis: UInt16, value: Int32) {
        let position = value.signum()
        let old = axis == KeyboardKind.hatX ? hat.x : hat.y
        guard position != old else { return }
        if axis == KeyboardKind.hatX { hat.x = position } else { hat.y = position }
        if let key = Self.hatKey(axis: axis, value: old) { frame.append((key.rawValue, 0)) }
        if let key = Self.hatKey(axis: axis, value: position) { frame.append((key.rawValue, 1)) }
    }

    /// The device is gone: its presses are cancelled.
    ///
    /// - Parameter time: When it went, in seconds.
    public func deviceRemoved(time: Double) {
        frame.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
        hat = (0, 0)
        handedHat = (0, 0)
        sink.receive(.deviceRemoved(device, timestamp: time))
    }

    private func hand(_ keys: [KeyCode], time: Double) {
        held = keys
        // The hat is where the held D-pad keys say (the device's state after a drop).
        hat.x = keys.contains(.dpadLeft) ? -1 : keys.contains(.dpadRight) ? 1 : 0
        hat.y = keys.contains(.dpadUp) ? -1 : keys.contains(.dpadDown) ? 1 : 0
        handedHat = hat
        sink.receive(.resynchronize(device: device, pressedKeys: keys, timestamp: time))
    }

    /// The held keys after applying the frame after a drop as a state delta.
    private func heldAfterDelta() -> [KeyCode] {
        var keys = Set(held)
        for (code, value) in frame {
            if value == 0 { keys.remove(KeyCode(code)) } else { keys.insert(KeyCode(code)) }
        }
        return keys.sorted()
    }

    private func flush(synthesized: Bool, time: Double) {
        framesDecoded += 1
        handedHat = hat
        if !synthesized && !keysReleasedByKernel.isEmpty { keysReleasedByKernel.removeAll() }
        for (code, value) in frame {
            let key = KeyCode(code)
            switch value {
            case 0 where synthesized:
                keysReleasedByKernel.append(key)
                held.removeAll { $0 == key }
                sink.receive(.cancelKey(key, device: device, timestamp: time))
            case 0:
                held.removeAll { $0 == key }
                sink.receive(.key(KeyEvent(key, .up, device: device, timestamp: time)))
            case 1:
                if !held.contains(key) { held.append(key) }
                sink.receive(.key(KeyEvent(key, .down, device: device, timestamp: time)))
            default:
                if dropsKernelRepeats { continue }
                sink.receive(.key(KeyEvent(key, .repeat, device: device, timestamp: time)))
            }
        }
        frame.removeAll(keepingCapacity: true)
    }
}

/// How fast a recording is replayed.
public enum ReplaySpeed: Hashable, Sendable {
    /// No waiting between events: for tests and for analysing a recording.
    case asFastAsPossible
    /// The recorded gaps between events, divided by `scale` (2 plays twice as fast).
    case recorded(scale: Double)

    /// The recorded gaps, as `evemu-play` plays them.
    public static let realTime = ReplaySpeed.recorded(scale: 1)
}

extension EvemuRecording {
    /// Replays the recording through an ``EvdevDecoder`` into a sink (a dispatcher): the decoding
    /// path of a live device (frames, kernel repeats and unplug releases, drops).
    ///
    /// - Parameters:
    ///   - sink: Where the input goes: a dispatcher, or a sink in front of it.
    ///   - device: The device the events are attributed to.
    ///   - speed: As fast as possible (the default) or at the recorded pace.
    ///   - sleep: How to wait the given number of seconds at the recorded pace; `nanosleep` by
    ///     default. Tests pass their own to check the pacing without waiting.
    /// - Returns: The decoder, for its counters.
    @MainActor
    @discardableResult
    public func replay(
        into sink: any InputSink, device: DeviceID = DeviceID(rawValue: 1), speed: ReplaySpeed = .asFastAsPossible,
        sleep: ((Double) -> Void)? = nil
    ) -> EvdevDecoder {
        let decoder = EvdevDecoder(device: device, sink: sink)
        guard case .recorded(let scale) = speed, scale > 0 else {
            for event in events { decoder.decode(event) }
            return decoder
        }
        var previous = events.first?.time ?? 0
        for event in events {
            let gap = (event.time - previous) / scale
            if gap > 0 {
                if let sleep { sleep(gap) } else { Syscalls.sleep(seconds: gap) }
            }
            previous = event.time
            decoder.decode(event)
        }
        return decoder
    }
}
