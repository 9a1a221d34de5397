public import ResponderChain

/// One line of keytrace output: what happened, when, with the scene's node ids.
///
/// The event is made of the core's own values (`KeyAction`,
/// `KeyCode`, `ModifierFlags`, `DispatchStage`,
/// `FocusUpdateCause` …); JSON lines (``writeJSON(to:)``) and plain text
/// (``plainLine``) are two renderings of it, and ``init(jsonLine:)-([UInt8])`` reads a JSON line back.
/// The JSON form is one object per line with `t` (seconds) and `event` first; docs/json-lines.md is the schema, versioned by the `session` event's `version` field
/// (``schemaVersion``).
public struct TraceEvent: Hashable, Sendable {
    /// The version of the JSON lines written, in the `session` event's `version` field.
    /// ``init(jsonLine:)-([UInt8])`` reads this version and refuses others.
    public static let schemaVersion = 1

    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// The session started: which input, scene and layout.
        case session(input: String, scene: String, layout: String, note: String?)
        /// A key event arrived (`down`, `repeat` or `up`), on the device named `device`; a key
        /// typed into a secure text input is ``Redactable/redacted``.
        case key(KeyAction, Redactable<KeyDetails>, device: String)
        /// A pipeline stage looked at a key-down, and why it did what it did.
        case stage(DispatchStage, StageOutcome, reason: String)
        /// A key command fired, on a key-down or (`isRepeat`) again on an auto-repeat. The
        /// shortcut is written as in scene files (`ctrl+f`).
        case keyCommand(
            title: String, action: Action, shortcut: Redactable<String>, declaredBy: String?, responder: String,
            priority: Bool, isRepeat: Bool)
        /// A key command matched but was passed over.
        case keyCommandPassedOver(action: Action, shortcut: Redactable<String>, declaredBy: String?, reason: String)
        /// A press phase went to a responder, or to the stage that took its key-down.
        case press(Press.Phase, key: Redactable<KeyCode>, to: PressRecipient, press: PressID)
        /// Focus moved.
        case focus(from: String?, to: String?, cause: FocusUpdateCause, fromGroup: String?, toGroup: String?)
        /// An environment vetoed a focus move.
        case focusVetoed(from: String?, to: String?, by: String)
        /// The first responder changed.
        case firstResponder(from: String?, to: String?)
        /// Nobody took a key-down.
        case unhandled(Redactable<KeyCode>)
        /// A keyboard was added or removed, the app lost the keyboard, or a device failed.
        case device(DeviceChange, name: String, path: String?, detail: String?)
        /// Text was pasted: how many characters, and the text input they went to (`nil`: dropped).
        case paste(characters: Int, responder: String?)
        /// A click or a touch went down, came up or was cancelled, and what it hit and did.
        case pointer(Pointer)
        /// Something was said to the listener (a screen reader's utterance): why (`focus`, `modal`,
        /// `announcement`, `typing`, `keyCommands`, `control`), its priority (speech-dispatcher's:
        /// `text`, `message`, `important` …) and the words; typing in a secure field is
        /// ``Redactable/redacted``, as its keys are.
        case announce(text: Redactable<String>, kind: String, priority: String)
    }

    /// A click or a touch as a `pointer` event shows it. During secure entry its position, item
    /// and outcome are ``Redactable/redacted`` (an on-screen PIN pad's items are the PIN).
    public struct Pointer: Hashable, Sendable {
        /// What the contact did: `down`, `up` or `cancel` (moves are not traced).
        public var phase: PointerEvent.Phase
        /// `mouse` or `touch`.
        public var kind: PointerEvent.Kind
        /// The contact's id (-1 for a mouse button).
        public var contact: Int
        /// Where, in the window's coordinate space.
        public var position: Redactable<Point>
        /// The device's name.
        public var device: String
        /// The item under it (`nil` for none).
        public var item: Redactable<String>?
        /// What it did when it came up or was cancelled (`nil` on `down`).
        public var outcome: Redactable<String>?

        /// Creates a pointer event's details.
        public init(
            phase: PointerEvent.Phase, kind: PointerEvent.Kind, contact: Int, position: Redactable<Point>,
            device: String, item: Redactable<String>?, outcome: Redactable<String>?
        ) {
            self.phase = phase
            self.kind = kind
            self.contact = contact
            self.position = position
            self.device = device
            self.item = item
            self.outcome = outcome
        }
    }

    /// A value a trace shows, or that it hides because it was typed into a secure text input
    /// (`DispatchRecord.isSecureEntry`): both renderings write `•` for it.
    public enum Redactable<Value: Hashable & Sendable>: Hashable, Sendable {
        /// The value.
        case value(Value)
        /// Hidden: typed into a secure text input.
        case redacted
    }

    /// A key as a `key` event shows it.
    public struct KeyDetails: Hashable, Sendable {
        /// The physical key.
        public var code: KeyCode
        /// The keysym's name, when the layout has keysyms
        /// (`KeyboardLayout.keysymName(for:in:)`).
        public var keysym: String?
        /// The characters the key types, modifiers applied.
        public var characters: String
        /// The modifiers held, Caps Lock and the keypad flag.
        public var modifierFlags: ModifierFlags

        /// Describes a key.
        ///
        /// - Parameters:
        ///   - code: The physical key.
        ///   - keysym: The keysym's name, or `nil`.
        ///   - characters: The characters typed.
        ///   - modifierFlags: The modifiers.
        public init(code: KeyCode, keysym: String?, characters: String, modifierFlags: ModifierFlags) {
            self.code = code
            self.keysym = keysym
            self.characters = characters
            self.modifierFlags = modifierFlags
        }
    }

    /// Where a press phase went.
    public enum PressRecipient: Hashable, Sendable {
        /// To a responder, by its trace name.
        case responder(String)
        /// To the stage that took the key-down (a key command, the system behaviour, a reserved
        /// shortcut), or nowhere: `reason` says what happened to this phase.
        case owner(DispatchStage, reason: String)
    }

    /// What happened to a device.
    public enum DeviceChange: String, Hashable, Sendable, CaseIterable {
        /// A keyboard was opened.
        case added
        /// A device disappeared.
        case removed
        /// A device could not be opened or read.
        case failed
        /// The app lost the keyboard (all keyboards).
        case keyboardLost
        /// Keyboards plugged in later will not be seen.
        case hotPlugUnavailable
        /// Another session took the seat.
        case seatDisabled
        /// The seat came back.
        case seatEnabled
    }

    /// Seconds: the input's clock (recorded times for a replay, 0.1 s steps for `--keys`,
    /// seconds since start for live input).
    public var t: Double
    /// What happened.
    public var kind: Kind

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - t: The time in seconds.
    ///   - kind: What happened.
    public init(t: Double, _ kind: Kind) {
        self.t = t
        self.kind = kind
    }

    /// The `event` field's value.
    public var name: String {
        switch kind {
        case .session: return "session"
        case .key: return "key"
        case .stage: return "stage"
        case .keyCommand: return "keyCommand"
        case .keyCommandPassedOver: return "keyCommandPassedOver"
        case .press: return "press"
        case .focus: return "focus"
        case .focusVetoed: return "focusVetoed"
        case .firstResponder: return "firstResponder"
        case .unhandled: return "unhandled"
        case .device: return "device"
        case .paste: return "paste"
        case .pointer: return "pointer"
        case .announce: return "announce"
        }
    }
}

extension DispatchStage {
    /// The stage's number in the pipeline, from 1 (`reservedShortcuts`) to 7 (`unhandled`).
    var number: Int {
        switch self {
        case .reservedShortcuts: return 1
        case .priorityKeyCommands: return 2
        case .textInput: return 3
        case .systemBehavior: return 4
        case .keyCommands: return 5
        case .presses: return 6
        case .unhandled: return 7
        }
    }
}
