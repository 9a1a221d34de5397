/// The seven stages a key-down passes through, in order. The first stage that takes the key owns
/// the press. See <doc:DispatchOrder>.
public enum DispatchStage: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// 1. Shortcuts reserved by the embedding app.
    case reservedShortcuts
    /// 2. Key commands with ``KeyCommand/wantsPriorityOverSystemBehavior``.
    case priorityKeyCommands
    /// 3. The first responder's text input, when it is a ``TextInputResponder``.
    case textInput
    /// 4. The system behaviour (the focus system): Tab, arrows, select.
    case systemBehavior
    /// 5. Key commands, nearest to the first responder first, then global ones.
    case keyCommands
    /// 6. `pressesBegan` up the responder chain.
    case presses
    /// 7. Nobody took the key.
    case unhandled

    /// The stage's name.
    public var description: String { rawValue }
}

/// What a stage did with a key.
public enum StageOutcome: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The stage took the key and owns the press.
    case took
    /// The stage looked at the key and left it.
    case declined
    /// The stage was not consulted (for example key-command stages for a bare modifier key).
    case skipped

    /// The outcome's name.
    public var description: String { rawValue }
}

/// A responder as traces name it: its trace name and its identity.
public struct ResponderReference: Hashable, Sendable, CustomStringConvertible {
    /// ``Responder/traceName`` at the time of the record.
    public var name: String
    /// The responder's object identity.
    public var id: ObjectIdentifier

    /// Refers to a responder.
    ///
    /// - Parameter responder: The responder.
    @MainActor
    public init(_ responder: Responder) {
        name = responder.traceName
        id = ObjectIdentifier(responder)
    }

    /// Whether this reference names a responder.
    ///
    /// - Parameter responder: The responder.
    /// - Returns: `true` when it is the same object.
    public func refers(to responder: Responder) -> Bool {
        id == ObjectIdentifier(responder)
    }

    /// The name.
    public var description: String { name }
}

/// One decision the dispatcher made, delivered to trace observers.
///
/// Records arrive cause first: the input event, then each stage's decision, and only after the
/// decision of the stage that made them, the focus and first-responder changes it caused (the
/// focus system reports through the dispatcher of its window). keytrace, `TraceRecorder` and an
/// app's own log render them in this order.
public struct DispatchRecord: Sendable, CustomStringConvertible {
    /// The kinds of decision.
    public enum Kind: Sendable {
        /// An input event arrived: the raw event, the key it resolved to, and what it did to the
        /// keyboard state.
        case input(KeyEvent, Key, KeyboardState.Transition)
        /// A stage looked at a key-down.
        case stage(DispatchStage, StageOutcome, reason: String)
        /// A key command fired: the command, who declares it (`nil` for global), who performed
        /// the action, whether it fired through the priority stage, and whether it fired again
        /// on an auto-repeat of its key (a ``KeyCommand/RepeatBehavior/repeatable`` command).
        case keyCommand(
            KeyCommand, declaredBy: ResponderReference?, target: ResponderReference, priority: Bool, isRepeat: Bool)
        /// A key command matched the key but was passed over.
        case keyCommandPassedOver(KeyCommand, declaredBy: ResponderReference?, reason: String)
        /// A press phase was delivered to a responder.
        case press(Press, ResponderReference)
        /// A press phase went to a non-responder owner (a key command, the system behaviour, a
        /// reserved shortcut), or was swallowed: `owner` is the stage that took the key-down,
        /// and the reason says what happened to this phase.
        case pressOwned(Press, owner: DispatchStage, reason: String)
        /// Nobody took the key-down.
        case unhandled(Key)
        /// The first responder changed.
        case firstResponder(from: ResponderReference?, to: ResponderReference?)
        /// Focus moved: the items' names (`nil` for nothing), why, where it headed, and the groups.
        case focus(
            from: String?, to: String?, cause: FocusUpdateCause, heading: FocusHeading, fromGroup: String?,
            toGroup: String?)
        /// An environment vetoed a focus update.
        case focusVetoed(from: String?, to: String?, by: String)
        /// An input source said a device disappeared.
        case deviceRemoved(DeviceID)
        /// An input source said the app lost the keyboard.
        case keyboardLost
        /// Text arrived without key presses (a paste): how many characters, and the text input
        /// they went to (`nil`: no text input was first responder, and the text was dropped).
        case textInserted(characters: Int, into: ResponderReference?)
        /// A click or a touch went down, came up or was cancelled: the item under it (`nil` for
        /// none) and, when it came up, what it activated.
        case pointer(PointerEvent, item: String?, outcome: String?)
    }

    /// The number of the input event this decision belongs to (1 for the first event).
    public var sequence: UInt64
    /// The input event's timestamp, in seconds.
    public var timestamp: Double
    /// The decision.
    public var kind: Kind
    /// Whether the record was made for a key typed into a secure text input (see
    /// ``TextInputResponder/isSecureTextEntry`` and ``Press/isSecureEntry``). Such a record
    /// carries ``Key/redacted`` instead of the key, key code 0 in its ``KeyEvent``, reasons that
    /// write `•` for the key, and its description writes `•` for every key and shortcut.
    public var isSecureEntry: Bool

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - sequence: The input event's number.
    ///   - timestamp: The input event's timestamp.
    ///   - kind: The decision.
    ///   - isSecureEntry: Whether it was made for a key typed into a secure text input.
    public init(sequence: UInt64, timestamp: Double, kind: Kind, isSecureEntry: Bool = false) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.kind = kind
        self.isSecureEntry = isSecureEntry
    }

    /// Marks the record secure when it was made for a key typed into a secure text input, and
    /// takes the keys out of it. Press records follow their press; the others follow `context`,
    /// whether the key being dispatched goes to a secure text input.
    mutating func redact(context: Bool) {
        switch kind {
        case .input(var event, _, let transition):
            guard context else { return }
            event.code = Key.redacted.keyCode
            kind = .input(event, .redacted, transition)
        case .press(var press, let responder):
            guard press.isSecureEntry else { return }
            press.key = .redacted
            kind = .press(press, responder)
        case .pressOwned(var press, let owner, let reason):
            guard press.isSecureEntry else { return }
            press.key = .redacted
            kind = .pressOwned(press, owner: owner, reason: reason)
        case .unhandled:
            guard context else { return }
            kind = .unhandled(.redacted)
        case .pointer(var event, let item, let outcome):
            guard context else { return }
            // An on-screen PIN pad: where the finger went and what it hit are the PIN.
            event.point = Point(x: 0, y: 0)
            kind = .pointer(event, item: item.map { _ in "•" }, outcome: outcome.map { _ in "•" })
        case .stage, .keyCommand, .keyCommandPassedOver, .firstResponder, .focus, .focusVetoed, .deviceRemoved,
            .keyboardLost, .textInserted:
            guard context else { return }
        }
        isSecureEntry = true
    }

    /// One readable line, for example `stage systemBehavior took: Tab moves focus`.
    public var description: String {
        switch kind {
        case .input(let event, let key, let transition):
            if isSecureEntry { return "key " + event.action.description + " • on " + event.device.description }
            var line = "key " + event.action.description + " " + key.description + " on " + event.device.description
            if !key.characters.isEmpty, let scalar = key.characters.unicodeScalars.first, scalar.value >= 0x20 {
                line += " characters \"" + key.characters + "\""
            }
            if transition == .ignored { line += " (ignored: does not match the keyboard state)" }
            return line
        case .stage(let stage, let outcome, let reason):
            return "stage " + stage.rawValue + " " + outcome.rawValue + (reason.isEmpty ? "" : ": " + reason)
        case .keyCommand(let command, let declarer, let target, let priority, let isRepeat):
            return "keyCommand " + command.traceLabel(secure: isSecureEntry) + " declared by "
                + (declarer?.name ?? "global commands") + " performed by " + target.name
                + (priority ? " (priority)" : "") + (isRepeat ? " (repeat)" : "")
        case .keyCommandPassedOver(let command, let declarer, let reason):
            return "keyCommand " + command.traceLabel(secure: isSecureEntry) + " on "
                + (declarer?.name ?? "global commands") + " passed over: " + reason
        case .press(let press, let responder):
            return "press " + press.phase.description + " " + keyLabel(press.key) + " to " + responder.name
                + " (" + press.id.description + ")"
        case .pressOwned(let press, _, let reason):
            return "press " + press.phase.description + " " + keyLabel(press.key) + " " + reason
                + " (" + press.id.description + ")"
        case .unhandled(let key):
            return "unhandled " + keyLabel(key)
        case .firstResponder(let from, let to):
            return "firstResponder " + (from?.name ?? "none") + " -> " + (to?.name ?? "none")
        case .focus(let from, let to, let cause, let heading, let fromGroup, let toGroup):
            let fromName: String = from ?? "none"
            let toName: String = to ?? "none"
            var line = "focus \(fromName) -> \(toName) (\(cause.rawValue)"
            if heading != .none { line += ", \(heading.rawValue)" }
            if fromGroup != toGroup {
                let fromText: String = fromGroup.map { "\"\($0)\"" } ?? "none"
                let toText: String = toGroup.map { "\"\($0)\"" } ?? "none"
                line += ", group \(fromText) -> \(toText)"
            }
            return line + ")"
        case .focusVetoed(let from, let to, let environment):
            return "focus " + (from ?? "none") + " -> " + (to ?? "none") + " vetoed by " + environment
        case .deviceRemoved(let device):
            return "device removed " + device.description
        case .keyboardLost:
            return "keyboard lost"
        case .textInserted(let count, let target):
            return "text inserted: \(count) characters "
                + (target.map { "into " + $0.name } ?? "dropped (no text input)")
        case .pointer(let event, let item, let outcome):
            let place = isSecureEntry ? "•" : event.point.description
            return "\(event.kind.rawValue) \(event.contact) \(event.phase.rawValue) at \(place) on \(item ?? "nothing")"
                + (outcome.map { ": " + $0 } ?? "")
        }
    }
}

extension DispatchRecord {
    /// The key's description, or `•` in a secure record.
    func keyLabel(_ key: Key) -> String {
        isSecureEntry ? "•" : key.description
    }
}

extension KeyCommand {
    /// The command as traces name it: its description, or `•` and its title when the key that
    /// matched it was typed into a secure text input.
    func traceLabel(secure: Bool) -> String {
        secure ? "• \"" + displayTitle + "\"" : description
    }
}

/// A subscription to a dispatcher's trace; pass it to ``Dispatcher/removeTraceObserver(_:)``.
public struct TraceObservation: Hashable, Sendable {
    let id: UInt64
}
