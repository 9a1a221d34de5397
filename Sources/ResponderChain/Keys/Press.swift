/// A press's identity, stable from `began` to its `ended` or `cancelled`.
public struct PressID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// A number unique within one dispatcher, increasing with every new press.
    public var rawValue: UInt64

    /// Creates a press identifier.
    ///
    /// - Parameter rawValue: The number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Orders presses by when they began.
    public static func < (lhs: PressID, rhs: PressID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `press` followed by the number.
    public var description: String { "press" + String(rawValue) }
}

/// One physical key press, from the key going down to it coming up or being cancelled.
///
/// The counterpart of UIKit's `UIPress`. A press keeps its ``id`` for its whole life; each
/// delivery carries a copy with the current ``phase``, ``key`` (modifiers change while it is
/// held) and ``repeatCount``.
public struct Press: Hashable, Sendable, Identifiable {
    /// Where a press is in its life.
    public enum Phase: UInt8, Hashable, Sendable, CustomStringConvertible {
        /// The key went down.
        case began
        /// The modifiers or locks changed while the key was held (``Press/key`` carries the new
        /// modifiers and characters).
        case changed
        /// The key auto-repeated while it was held (``Press/repeatCount`` counts the repeats).
        /// Delivered through ``Responder/pressesChanged(_:with:)``, like ``changed``.
        case repeated
        /// The key came up.
        case ended
        /// The press was cut short: its device disappeared, a resync found it released, its
        /// responder left the tree, or the app lost the keyboard.
        case cancelled

        /// The phase's name.
        public var description: String {
            switch self {
            case .began: return "began"
            case .changed: return "changed"
            case .repeated: return "repeat"
            case .ended: return "ended"
            case .cancelled: return "cancelled"
            }
        }
    }

    /// The press's identity.
    public var id: PressID
    /// The current phase.
    public var phase: Phase
    /// The key, with the characters and modifiers current at this phase.
    public var key: Key
    /// When this phase happened, in seconds.
    public var timestamp: Double
    /// The device the key is on.
    public var device: DeviceID
    /// How many auto-repeats this press has had so far (0 at `began`).
    public var repeatCount: Int
    /// Whether the key was typed into a secure text input: the first responder was a
    /// ``TextInputResponder`` with ``TextInputResponder/isSecureTextEntry`` when it went down.
    /// Trace records of such a press never carry its key.
    public var isSecureEntry: Bool

    /// Creates a press.
    ///
    /// - Parameters:
    ///   - id: The identity.
    ///   - phase: The phase.
    ///   - key: The key.
    ///   - timestamp: The time in seconds.
    ///   - device: The device.
    ///   - repeatCount: The number of auto-repeats so far.
    ///   - isSecureEntry: Whether the key was typed into a secure text input.
    public init(
        id: PressID, phase: Phase, key: Key, timestamp: Double, device: DeviceID, repeatCount: Int = 0,
        isSecureEntry: Bool = false
    ) {
        self.id = id
        self.phase = phase
        self.key = key
        self.timestamp = timestamp
        self.device = device
        self.repeatCount = repeatCount
        self.isSecureEntry = isSecureEntry
    }
}
