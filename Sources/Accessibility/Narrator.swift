public import ResponderChain

/// Says what happens, for a listener who cannot see the screen: VoiceOver's rules on a focus tree.
///
/// A narrator watches a window's focus system and its accessibility notifications, and hands each
/// thing to say, as an ``Utterance``, to its ``output`` (speech-dispatcher, through the app layer)
/// and to ``onUtterance``:
/// - **Focus moves** speak the new item: the group's label when focus entered another group, or
///   the group's label changed (an area showing another screen), or the dialog's title when one was
///   just presented; the item's label, its value, its role and state
///   from its traits, its position in its group ("3 of 6"), and its hint. See ``description(of:)``.
/// - **A dialog presented** (`FocusSystem.presentModal(_:)`) speaks its label, "dialog", and its
///   first item, as one utterance of priority ``Utterance/Priority/message``; also when it moved no
///   focus (presented around the focused item, or with nothing inside to focus: "Please wait,
///   dialog").
/// - **Announcements** an app posts (`Window.postAccessibilityNotification(.announcement(…))`) are
///   spoken whole, whatever has focus.
/// - **Typing** in a field echoes what went in or out; a secure field's characters are "dot".
/// - Focus moves and typing are ``Utterance/Priority/text``, so the next one interrupts a stale one;
///   announcements and dialogs are ``Utterance/Priority/message``, which focus moves do not cut off; the
///   listener's own changes ("Speech off", "Rate 20") are ``Utterance/Priority/important``.
/// - One change is spoken once: focus landing again on the item just spoken, with no dialog
///   presented, says nothing.
///
/// The listener stays in control through ``repeatLast()``, ``stopSpeaking()``,
/// ``speakKeyCommands()``, ``setEnabled(_:)``, ``adjustRate(by:)`` and ``adjustVolume(by:)``, which an
/// app binds to key commands.
///
/// ```swift
/// let narrator = Narrator(window: window, focusSystem: focusSystem, dispatcher: dispatcher)
/// narrator.output = speech            // a SpeechOutput
/// window.postAccessibilityNotification(.announcement("Checked in. Please take a seat."))
/// ```
@MainActor
public final class Narrator {
    /// The window whose notifications it speaks.
    public let window: Window
    /// The focus system whose moves it speaks.
    public let focusSystem: FocusSystem
    /// The dispatcher whose active key commands ``speakKeyCommands()`` reads, if any.
    public let dispatcher: Dispatcher?
    /// Where utterances go.
    public var output: (any SpeechOutput)? {
        didSet { output?.apply(rate: rate, volume: volume) }
    }
    /// Called with every utterance, after ``output`` (a trace, a status line, a test).
    public var onUtterance: ((Utterance) -> Void)?
    /// Whether it speaks at all (``setEnabled(_:)`` says so when it changes).
    public private(set) var isEnabled: Bool
    /// Asked at each change while speech is off: when it returns `true`, the change is still
    /// described, to ``onUtterance`` only (the output gets nothing, and ``lastUtterance`` stays), so
    /// that a trace shows what a listener would hear (the kiosk example's `--trace` returns `true`).
    /// `false` by default: speech off then costs a change nothing more.
    public var describesWhileSilent: () -> Bool = { false }
    /// How fast, -100...100 (0: the voice's default).
    public private(set) var rate = 0
    /// How loud, -100...100 (100, the default, is speech-dispatcher's default: the loudest).
    public private(set) var volume = 100
    /// The last thing said (``repeatLast()`` says it again).
    public private(set) var lastUtterance: Utterance?

    private var focusObserver: UInt64?
    private var notificationObserver: UInt64?
    /// The item the last focus utterance was about, and the dialog presented then.
    private var spokenItem: ObjectIdentifier?
    private var spokenModal: ObjectIdentifier?
    /// The declared group focus was last in, and its label then.
    private var spokenGroup: (id: ObjectIdentifier, label: String?)?

    /// Starts narrating a window.
    ///
    /// - Parameters:
    ///   - window: The window.
    ///   - focusSystem: Its focus system.
    ///   - dispatcher: Its dispatcher, for ``speakKeyCommands()``.
    ///   - isEnabled: Whether to speak from the start.
    ///   - rate: How fast, -100...100.
    ///   - volume: How loud, -100...100.
    public init(
        window: Window, focusSystem: FocusSystem, dispatcher: Dispatcher? = nil, isEnabled: Bool = true,
        rate: Int = 0, volume: Int = 100
    ) {
        self.window = window
        self.focusSystem = focusSystem
        self.dispatcher = dispatcher
        self.isEnabled = isEnabled
        self.rate = Self.clamped(rate)
        self.volume = Self.clamped(volume)
        spokenModal = focusSystem.modalScope.map { ObjectIdentifier($0) }
        if let item = focusSystem.focusedItem { noteGroup(of: item) }
        focusObserver = focusSystem.addObserver { [unowned self] context in self.focusMoved(context) }
        notificationObserver = window.addAccessibilityObserver { [unowned self] notification in
            self.notified(notification)
        }
    }

    isolated deinit {
        if let focusObserver { focusSystem.removeObserver(focusObserver) }
        if let notificationObserver { window.removeAccessibilityObserver(notificationObserver) }
    }

    // MARK: The listener's controls

    /// Says the last utterance again.
    public func repeatLast() {
        guard isEnabled, let lastUtterance else { return }
        output?.speak(lastUtterance)
        onUtterance?(lastUtterance)
    }

    /// Says the focused item as a focus move would (without its group): at start, or when the
    /// listener asks where they are.
    public func speakFocusedItem() {
        guard isDescribing, let item = focusSystem.focusedItem, item.isAccessibilityElement else { return }
        spokenItem = ObjectIdentifier(item)
        noteGroup(of: item)
        speak(Utterance(description(of: item), kind: .focus, priority: .text, language: item.accessibilityLanguage))
    }

    /// Stops speaking now, and drops what waits.
    public func stopSpeaking() {
        output?.stopSpeaking()
    }

    /// Reads the active key commands aloud, as the discoverability list shows them: "Key commands:
    /// Help, F1. Search, Control F."
    public func speakKeyCommands() {
        guard isDescribing else { return }
        let commands = dispatcher?.discoverableKeyCommands().flatMap(\.commands).filter(\.isEnabled) ?? []
        let list = commands.map { "\($0.title), \(Self.spokenShortcut($0.command.readableShortcut))" }
        let text = list.isEmpty ? "No key commands" : "Key commands: " + list.joined(separator: ". ")
        speak(Utterance(text, kind: .keyCommands, priority: .text))
    }

    /// Turns speech on or off, and says so ("Speech on", "Speech off": said before it goes quiet).
    ///
    /// - Parameter enabled: Whether to speak.
    public func setEnabled(_ enabled: Bool) {
        guard enabled != isEnabled else { return }
        if enabled {
            isEnabled = true
            speak(Utterance("Speech on", kind: .control, priority: .important))
            // Then where the listener is, as VoiceOver says when it comes on.
            speakFocusedItem()
        } else {
            // What waits would still be said after "Speech off" (important only postpones it).
            stopSpeaking()
            speak(Utterance("Speech off", kind: .control, priority: .important))
            isEnabled = false
        }
    }

    /// Speaks faster (a positive step) or slower, within -100...100, and says the new rate.
    ///
    /// - Parameter step: The change.
    public func adjustRate(by step: Int) {
        rate = Self.clamped(rate + step)
        output?.apply(rate: rate, volume: volume)
        speak(Utterance("Rate \(rate)", kind: .control, priority: .important))
    }

    /// Speaks louder (a positive step) or softer, within -100...100, and says the new volume.
    ///
    /// - Parameter step: The change.
    public func adjustVolume(by step: Int) {
        volume = Self.clamped(volume + step)
        output?.apply(rate: rate, volume: volume)
        speak(Utterance("Volume \(volume)", kind: .control, priority: .important))
    }

    /// Says an announcement (as posting `AccessibilityNotification.announcement(_:)` does).
    ///
    /// - Parameter text: What to say.
    public func announce(_ text: String) {
        guard !text.isEmpty else { return }
        speak(Utterance(text, kind: .announcement, priority: .message))
    }

    // MARK: What is said

    /// What a focus move to `item` says, without the group or dialog it entered: its label (else
    /// its `focusDebugName`), its value, its role and state, its position among its group's
    /// accessibility elements in the tab loop ("3 of 6"), and its hint, joined by commas.
    ///
    /// - Parameter item: The item.
    /// - Returns: The words.
    public func description(of item: any FocusItem) -> String {
        var parts = [Self.nonEmpty(item.accessibilityLabel) ?? item.focusDebugName]
        let traits = item.accessibilityTraits
        if let value = Self.nonEmpty(item.accessibilityValue) { parts.append(value) }
        parts += Self.roleAndState(traits, item: item)
        if let position = position(of: item) { parts.append(position) }
        if let hint = Self.nonEmpty(item.accessibilityHint) { parts.append(hint) }
        return parts.joined(separator: ", ")
    }

    /// The words for traits: the role, then the states.
    private static func roleAndState(_ traits: AccessibilityTraits, item: any FocusItem) -> [String] {
        var words: [String] = []
        if traits.contains(.searchField) {
            words.append("search field")
        } else if traits.contains(.textField) {
            let secure = (item as? TextInputNode)?.isSecureTextEntry ?? false
            words.append(secure ? "secure text field" : "text field")
        } else if traits.contains(.button) {
            words.append("button")
        } else if traits.contains(.link) {
            words.append("link")
        } else if traits.contains(.toggle) {
            words.append("toggle")
        } else if traits.contains(.image) {
            words.append("image")
        }
        if traits.contains(.header) { words.append("heading") }
        if traits.contains(.adjustable) { words.append("adjustable") }
        if traits.contains(.selected) { words.append("selected") }
        if traits.contains(.notEnabled) { words.append("dimmed") }
        return words
    }

    /// "3 of 6" (`FocusSystem.accessibilityPosition(of:)`); `nil` when the item is alone.
    private func position(of item: any FocusItem) -> String? {
        guard let (position, count) = focusSystem.accessibilityPosition(of: item), count > 1 else { return nil }
        return "\(position) of \(count)"
    }

    /// The environment that declares the focus group an item is in to a listener: its nearest
    /// ancestor with a `focusGroupIdentifier` (automatic groups, such as a text field's own, are not
    /// groups to a listener).
    private static func declaredGroup(of item: any FocusItem) -> (any FocusEnvironment)? {
        var environment = item.parentFocusEnvironment
        while let current = environment {
            if current.focusGroupIdentifier != nil { return current }
            environment = current.parentFocusEnvironment
        }
        return nil
    }

    private func focusMoved(_ context: FocusUpdateContext) {
        let modal = focusSystem.modalScope
        let modalID = modal.map { ObjectIdentifier($0) }
        if modalID == nil { spokenModal = nil }
        let presented = modalID != nil && modalID != spokenModal
        guard let item = context.nextFocusedItem else {
            // A dialog with nothing to focus is spoken when the focus system says it came.
            spokenItem = nil
            spokenGroup = nil
            return
        }
        // A dialog presented during this update: focus is on its way into it, and is spoken there.
        if let modal, !Self.isInside(item, modal) { return }
        let itemID = ObjectIdentifier(item)
        let moved = itemID != spokenItem
        // Kept for every item, spoken or not: coming back to an item after one that says nothing is news.
        spokenItem = itemID
        // Another group, or the same area showing another screen (its label changed).
        let previousGroup = spokenGroup
        let groupLabel = noteGroup(of: item)
        let enteredGroup = spokenGroup?.id != previousGroup?.id || groupLabel != previousGroup?.label
        // A dialog whose first item says nothing is spoken when the focus system says it came.
        guard item.isAccessibilityElement, presented || moved else { return }
        if presented { spokenModal = modalID }
        // Speech off: nothing is put into words.
        guard isDescribing else { return }
        var parts: [String] = []
        if presented, let modal {
            parts += Self.dialogWords(modal)
        } else if enteredGroup, let groupLabel {
            parts.append(groupLabel)
        }
        parts.append(description(of: item))
        speak(
            Utterance(
                parts.joined(separator: ", "), kind: presented ? .modal : .focus,
                priority: presented ? .message : .text,
                language: item.accessibilityLanguage))
    }

    /// A dialog presented that no focus move spoke: its words, and the focused item's when it is
    /// inside.
    private func screenChanged() {
        guard let modal = focusSystem.modalScope else {
            // Dismissed with focus staying: the same dialog presented again is news.
            spokenModal = nil
            return
        }
        let modalID = ObjectIdentifier(modal)
        guard modalID != spokenModal else { return }
        spokenModal = modalID
        guard isDescribing else { return }
        var parts = Self.dialogWords(modal)
        var language = modal.accessibilityLanguage
        if let item = focusSystem.focusedItem, item.isAccessibilityElement, Self.isInside(item, modal) {
            spokenItem = ObjectIdentifier(item)
            parts.append(description(of: item))
            language = item.accessibilityLanguage ?? language
        }
        speak(Utterance(parts.joined(separator: ", "), kind: .modal, priority: .message, language: language))
    }

    /// "Check in?, dialog", with the dialog's value and hint when it has them ("Please wait,
    /// dialog, Printing your ticket").
    private static func dialogWords(_ modal: any FocusEnvironment) -> [String] {
        [Self.nonEmpty(modal.accessibilityLabel) ?? modal.focusDebugName, "dialog"]
            + [modal.accessibilityValue, modal.accessibilityHint].compactMap(Self.nonEmpty)
    }

    private static func isInside(_ item: any FocusItem, _ environment: any FocusEnvironment) -> Bool {
        var current: (any FocusEnvironment)? = item
        while let each = current {
            if each === environment { return true }
            current = each.parentFocusEnvironment
        }
        return false
    }

    /// Remembers the declared group `item` is in, and its label now; returns the label.
    @discardableResult
    private func noteGroup(of item: any FocusItem) -> String? {
        let group = Self.declaredGroup(of: item)
        let label = group.flatMap { Self.nonEmpty($0.accessibilityLabel) }
        spokenGroup = group.map { (ObjectIdentifier($0), label) }
        return label
    }

    private func notified(_ notification: AccessibilityNotification) {
        switch notification {
        case .announcement(let text):
            announce(text)
        case .textEdited(let edit):
            guard isDescribing, let text = Self.echo(edit) else { return }
            speak(Utterance(text, kind: .typing, priority: .text, isSecret: edit.isSecure))
        case .screenChanged:
            screenChanged()
        }
    }

    /// What an edit says: what went in (a space as "space"), else what went out and "deleted"; a
    /// secure field's characters as "dot".
    static func echo(_ edit: TextEdit) -> String? {
        func words(_ text: String) -> String {
            if edit.isSecure { return text.count == 1 ? "dot" : "\(text.count) dots" }
            return text == " " ? "space" : text
        }
        if !edit.inserted.isEmpty { return words(edit.inserted) }
        if !edit.removed.isEmpty { return words(edit.removed) + " deleted" }
        return nil
    }

    /// A shortcut as said: "Control F", "Up arrow", "Escape".
    static func spokenShortcut(_ shortcut: String) -> String {
        let words: [String: String] = [
            "Ctrl": "Control", "Esc": "Escape", "↑": "Up arrow", "↓": "Down arrow", "←": "Left arrow",
            "→": "Right arrow", "+": "plus",
        ]
        // `readableShortcut` joins with "+": a plus key itself ends the text as "++".
        var parts = shortcut.split(separator: "+").map(String.init)
        if shortcut.hasSuffix("++") || shortcut == "+" { parts.append("+") }
        return parts.map { words[$0] ?? $0 }.joined(separator: " ")
    }

    /// Whether a change is put into words now: speech on, or someone watching.
    private var isDescribing: Bool { isEnabled || describesWhileSilent() }

    private func speak(_ utterance: Utterance) {
        guard isEnabled else {
            // Described for a watcher only.
            if describesWhileSilent() { onUtterance?(utterance) }
            return
        }
        // "Repeat" says the last thing the app said, not the listener's own "Rate 20".
        if utterance.kind != .control { lastUtterance = utterance }
        output?.speak(utterance)
        onUtterance?(utterance)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    private static func clamped(_ value: Int) -> Int { min(max(value, -100), 100) }
}
