import ResponderChain

// The kiosk's widgets: focus nodes with a label and a way to be drawn. Each one is an ordinary
// public-API subclass; the focus system places them by their frames, in terminal cells.

/// Something that runs an action when chosen: a sidebar entry, a tile, a form's button.
@MainActor final class Button: FocusNode {
    enum Look { case plain, tile, navigation }
    var title: String
    var subtitle: String
    let look: Look
    /// Run by Return (the focus system's select key) when the button is focused.
    var onChoose: () -> Void = {}

    init(_ identifier: String, _ title: String, subtitle: String = "", look: Look = .plain) {
        self.title = title
        self.subtitle = subtitle
        self.look = look
        super.init(identifier: identifier, isFocusable: true)
        acceptsFirstResponder = true
        primaryAction = "choose"
        performableActions = ["choose"]
        onAction = { [unowned self] _, _ in self.onChoose() }
    }

    /// Its title, as drawn (a navigation entry's title without the marker).
    override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? title }
        set { super.accessibilityLabel = newValue }
    }
    /// A tile's subtitle, said after the rest ("appointments").
    override var accessibilityHint: String? {
        get { super.accessibilityHint ?? (subtitle.isEmpty ? nil : subtitle) }
        set { super.accessibilityHint = newValue }
    }
}

/// A check box: Return or Space toggles it.
@MainActor final class Checkbox: FocusNode {
    let title: String
    var isChecked = false

    init(_ identifier: String, _ title: String) {
        self.title = title
        super.init(identifier: identifier, isFocusable: true)
        acceptsFirstResponder = true
        primaryAction = "toggle"
        performableActions = ["toggle"]
        onAction = { [unowned self] _, _ in self.toggle() }
        onKeyPress([.space], phases: .down) { [unowned self] _ in
            self.toggle()
            return .handled
        }
        accessibilityLabel = title
        accessibilityTraits = .toggle
    }

    /// Checked or not, and says the new state (VoiceOver says a switch's new value).
    private func toggle() {
        isChecked.toggle()
        window?.postAccessibilityNotification(.announcement(isChecked ? "checked" : "not checked"))
    }

    /// "checked" or "not checked".
    override var accessibilityValue: String? {
        get { super.accessibilityValue ?? (isChecked ? "checked" : "not checked") }
        set { super.accessibilityValue = newValue }
    }
}

/// A labelled text field; the PIN field takes digits only (typed on the keypad or the top row).
@MainActor final class Field: TextInputNode {
    let label: String
    let digitsOnly: Bool

    init(_ identifier: String, label: String, secure: Bool = false, digitsOnly: Bool = false, maximumLength: Int) {
        self.label = label
        self.digitsOnly = digitsOnly
        super.init(identifier: identifier)
        isSecureTextEntry = secure
        self.maximumLength = maximumLength
        accessibilityLabel = label
    }

    override func wantsToEdit(with key: Key) -> Bool {
        guard super.wantsToEdit(with: key) else { return false }
        // Editing keys (arrows, Backspace) type nothing printable; anything that types must be one digit.
        let typed = key.characters.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        guard digitsOnly, !typed.isEmpty else { return true }
        return typed.count == 1 && ("0"..."9").contains(Character(typed.first!))
    }

    /// A paste into the PIN field keeps its digits only.
    override func insertText(_ inserted: String) {
        super.insertText(digitsOnly ? String(inserted.filter { ("0"..."9").contains($0) }) : inserted)
    }
}

/// One row of the directory.
@MainActor final class Row: FocusNode {
    let entry: DirectoryEntry
    let index: Int

    init(_ entry: DirectoryEntry, index: Int) {
        self.entry = entry
        self.index = index
        super.init(identifier: "row\(index + 1)", isFocusable: true)
        acceptsFirstResponder = true
        accessibilityLabel = entry.spoken
    }
}
