/// One thing a ``Narrator`` says.
public struct Utterance: Equatable, Sendable {
    /// How an utterance stands against others, as speech-dispatcher ranks them (SSIP's priorities), so
    /// that the daemon interrupts what is stale: a new ``text`` utterance cancels a ``text`` one still
    /// speaking or waiting; a ``message`` is never cancelled by ``text``; ``important`` interrupts
    /// everything and is never cancelled; a ``notification`` is dropped when anything else speaks.
    public enum Priority: Int, Comparable, Sendable, CaseIterable {
        /// Dropped when anything else is spoken (SSIP `progress`, which speaks only the last of a
        /// run).
        case progress
        /// Spoken only when nothing else is (SSIP `notification`).
        case notification
        /// Cancelled by the next ``text`` or ``message`` (SSIP `text`): focus moves, typing echo, the key
        /// command list.
        case text
        /// Spoken whole, after what is speaking; ``text`` waits for it (SSIP `message`): announcements,
        /// a dialog presented.
        case message
        /// Interrupts everything and is never cancelled (SSIP `important`): "Speech off", a new rate.
        case important

        /// The name SSIP's `SET SELF PRIORITY` takes.
        public var ssipName: String {
            switch self {
            case .progress: return "progress"
            case .notification: return "notification"
            case .text: return "text"
            case .message: return "message"
            case .important: return "important"
            }
        }

        /// Orders by importance.
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Why it is said.
    public enum Kind: String, Sendable, CaseIterable {
        /// Focus moved: the item, and its group or dialog when focus entered one.
        case focus
        /// A dialog was presented: its title and its first item.
        case modal
        /// The app posted an announcement (`AccessibilityNotification.announcement(_:)`).
        case announcement
        /// A field's text changed: what was typed or deleted (a secure field's as "dot").
        case typing
        /// The active key commands, read aloud.
        case keyCommands
        /// The listener changed speech: on, off, rate, volume.
        case control
    }

    /// The words.
    public var text: String
    /// Why.
    public var kind: Kind
    /// How it stands against others.
    public var priority: Priority
    /// The language of the words (a BCP 47 tag), when the element set one; `nil` for the
    /// listener's.
    public var language: String?
    /// Whether the words stand for a secret: typing in a secure field (spoken "dot"). A trace shows
    /// such an utterance as `•`, as it shows the field's keys.
    public var isSecret: Bool

    /// Creates an utterance.
    ///
    /// - Parameters:
    ///   - text: The words.
    ///   - kind: Why.
    ///   - priority: How it stands against others.
    ///   - language: The language, or `nil`.
    ///   - isSecret: Whether the words stand for a secret.
    public init(_ text: String, kind: Kind, priority: Priority, language: String? = nil, isSecret: Bool = false) {
        self.text = text
        self.kind = kind
        self.priority = priority
        self.language = language
        self.isSecret = isSecret
    }
}

/// Where a ``Narrator``'s utterances go: speech-dispatcher, a trace, a test's list.
@MainActor
public protocol SpeechOutput: AnyObject {
    /// Says something (and returns at once: an output never blocks its caller).
    ///
    /// - Parameter utterance: What to say.
    func speak(_ utterance: Utterance)
    /// Stops saying anything, and drops what is waiting.
    func stopSpeaking()
    /// Applies the listener's rate and volume, each -100...100 (a rate of 0 is the voice's default; a volume of 100, the loudest, is speech-dispatcher's).
    ///
    /// - Parameters:
    ///   - rate: How fast.
    ///   - volume: How loud.
    func apply(rate: Int, volume: Int)
}
