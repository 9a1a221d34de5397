/// How long a key is held before it repeats, and how often it repeats then.
public struct RepeatTiming: Hashable, Sendable {
    /// Seconds from the key-down to the first repeat.
    public var delay: Double
    /// Seconds between repeats.
    public var interval: Double

    /// Creates a timing.
    ///
    /// - Parameters:
    ///   - delay: Seconds before the first repeat (at least 0.01).
    ///   - interval: Seconds between repeats (at least 0.005).
    public init(delay: Double, interval: Double) {
        self.delay = max(delay, 0.01)
        self.interval = max(interval, 0.005)
    }

    /// 400 ms, then 25 repeats a second: Weston's and GNOME's defaults.
    public static let standard = RepeatTiming(delay: 0.4, interval: 0.04)

    /// The timing a Wayland compositor announces (`wl_keyboard.repeat_info`): `rate` repeats a
    /// second after `delay` milliseconds; `nil` when the rate is 0 or less, which turns repeat off.
    ///
    /// - Parameters:
    ///   - rate: Repeats per second.
    ///   - delay: Milliseconds before the first repeat.
    /// - Returns: The timing, or `nil` for no repeat.
    public static func announced(rate: Int32, delay: Int32) -> RepeatTiming? {
        guard rate > 0 else { return nil }
        return RepeatTiming(delay: Double(max(delay, 0)) / 1000, interval: 1 / Double(rate))
    }
}

/// Makes auto-repeat in software, the way xkbcommon-based compositors do: the most recently
/// pressed non-modifier key repeats while it is held; pressing another key moves the repeat to
/// that key; releasing it, a resync that finds it released, removing its device or losing the
/// keyboard stops it.
///
/// An ``InputSink`` between a source's decoder and the dispatcher (evdev keyboards without kernel
/// repeat, a Wayland seat, whose compositor only announces the rate): it watches the input it passes
/// on to ``next`` and adds `.repeat` key events when they are due. It only keeps time: the
/// owner asks ``nextDeadline`` how long it may sleep and calls ``fire(now:)`` when it wakes.
/// After a stall it delivers one repeat, not a burst. Not `Sendable`: it belongs to the event
/// loop's thread.
@MainActor
public final class SoftwareRepeater: InputSink {
    /// The timing.
    public var timing: RepeatTiming
    /// Whether keys repeat: `false` stops the key repeating now and passes input on untouched
    /// (a compositor that announced a rate of 0).
    public var isEnabled = true {
        didSet { if !isEnabled { current = nil } }
    }
    /// Where input and repeats go (the dispatcher).
    public let next: any InputSink
    /// Whether a key repeats: every key but the modifiers and locks by default; a source whose
    /// keymap moves keys (a compositor's) asks its layout what each key acts as.
    public var keyRepeats: (KeyCode) -> Bool = { !$0.isModifier }
    private var current: (key: KeyCode, device: DeviceID, next: Double)?

    /// Creates a repeater.
    ///
    /// - Parameters:
    ///   - timing: Delay and interval.
    ///   - next: Where input and repeats go.
    public init(timing: RepeatTiming, next: any InputSink) {
        self.timing = timing
        self.next = next
    }

    /// The key repeating now (or waiting for its first repeat), and its device.
    public var repeatingKey: (key: KeyCode, device: DeviceID)? {
        current.map { ($0.key, $0.device) }
    }

    /// When the next repeat is due (seconds on the events' clock), or `nil` when no key repeats:
    /// then the owner may sleep until input arrives.
    public var nextDeadline: Double? { current?.next }

    /// Notes what the input does to the repeat, then passes it on: a key-down (not a modifier or
    /// lock key) starts repeating after the delay; its key-up or cancellation, a resync that
    /// finds it released, its device going away or the keyboard being lost stop it. Text (a
    /// paste) leaves it alone.
    ///
    /// - Parameter input: The input.
    public func receive(_ input: InputEvent) {
        switch input {
        case .key(let event):
            switch event.action {
            case .down where isEnabled && keyRepeats(event.code):
                current = (event.code, event.device, event.timestamp + timing.delay)
            case .up:
                stop(event.code, on: event.device)
            default:
                break
            }
        case .cancelKey(let code, let device, _):
            stop(code, on: device)
        case .resynchronize(let device, let keys, _):
            if let current, current.device == device, !keys.contains(current.key) { self.current = nil }
        case .deviceRemoved(let device, _):
            if current?.device == device { current = nil }
        case .keyboardLost:
            current = nil
        case .text, .modifiers, .pointer, .layout, .locks:
            break  // text typed no key: a key held through a paste keeps repeating
        }
        next.receive(input)
    }

    private func stop(_ key: KeyCode, on device: DeviceID) {
        if let current, current.key == key, current.device == device { self.current = nil }
    }

    /// Delivers the repeat that is due, if any, as a `.repeat` key event.
    ///
    /// - Parameter now: The time on the events' clock.
    /// - Returns: Whether a repeat was delivered.
    @discardableResult
    public func fire(now: Double) -> Bool {
        guard let repeating = current, now >= repeating.next else { return false }
        let late = now - repeating.next
        current?.next = late > timing.interval ? now + timing.interval : repeating.next + timing.interval
        next.receive(.key(KeyEvent(repeating.key, .repeat, device: repeating.device, timestamp: now)))
        return true
    }
}
