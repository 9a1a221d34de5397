/// How an utterance takes its turn in speech-dispatcher's queue: SSIP's five priorities, each
/// with its own rule in the daemon (`SET SELF PRIORITY`).
public enum SpeechPriority: String, CaseIterable, Hashable, Sendable {
    /// Spoken at once and never interrupted: whatever else sounds is cancelled, waiting
    /// `message` and `text` are postponed, waiting `notification` and `progress` cancelled;
    /// several are spoken in order. Errors and alarms; keep them short.
    case important
    /// Spoken when no `important` or other `message` waits (it does not interrupt itself: they
    /// are spoken in order); cancels the `text`, `notification` and `progress` waiting or
    /// sounding. An announcement that must be heard.
    case message
    /// Ordinary speech, spoken when no `important` or `message` waits or sounds: one that comes
    /// while a `message` sounds is not dropped and does not cut it off, it waits for its end. It
    /// interrupts itself: a new `text` cancels the one sounding (`703 CANCELED`) and those waiting,
    /// so only the latest is heard. A focus move. (SSIP's rules; the end-to-end tests check both
    /// against speech-dispatcher 0.11.)
    case text
    /// Cancelled by anything of another priority waiting or sounding, and it interrupts itself:
    /// only the last of several is spoken. Typing echo, hints.
    case notification
    /// A series such as "45 % done": like `notification`, except that a new one is dropped
    /// while another sounds, and the daemon makes sure the last of the series is spoken.
    case progress
}

/// The id the client gives an utterance when ``SpeechDispatcherClient/speak(_:priority:language:)``
/// hands it over: the ``SpeechEvent``s about it carry it.
public struct SpeechRequestID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number, counted from 1 for each client.
    public var rawValue: UInt64

    /// Creates an id.
    ///
    /// - Parameter rawValue: The number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders ids by the time they were handed out.
    ///
    /// - Parameters:
    ///   - lhs: An id.
    ///   - rhs: Another id.
    /// - Returns: Whether `lhs` came first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#` and the number.
    public var description: String { "#\(rawValue)" }
}

/// Something that happened to an utterance: handed to the daemon and queued, begun, ended, or
/// cancelled. Every utterance gets exactly one of `ended` and `cancelled`, last.
public struct SpeechEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// The daemon queued it under its own message id (`225-<id>`).
        case queued(messageID: Int)
        /// It began to sound (`701 BEGIN`).
        case began
        /// It was spoken to its end (`702 END`).
        case ended
        /// It will not be spoken, or not to its end: ``SpeechDispatcherClient/cancel()``, a
        /// message of higher priority (`703 CANCELED`), a daemon that went away or was never
        /// there, or a full queue.
        case cancelled
    }

    /// The utterance.
    public var requestID: SpeechRequestID
    /// What happened.
    public var kind: Kind
    /// When the client learnt of it, on the loop's monotonic clock (`EventLoop.monotonicNow`), in seconds.
    public var time: Double

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - requestID: The utterance.
    ///   - kind: What happened.
    ///   - time: When, in seconds on the monotonic clock.
    public init(requestID: SpeechRequestID, kind: Kind, time: Double) {
        self.requestID = requestID
        self.kind = kind
        self.time = time
    }
}
