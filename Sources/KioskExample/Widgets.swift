import Graphics
import ResponderChain

// The kiosk's widgets: focus nodes with a label and a way to be drawn. Each one is an ordinary
// public-API subclass; the focus system places them by their frames, in terminal cells or in
// points. In a terminal, Rendering.swift draws them on a canvas; on a screen that shows pixels they
// draw themselves (Graphical/Widgets+Drawing.swift) once the kiosk gives them its appearance.

/// Something that runs an action when chosen: a sidebar entry, a tile, a form's button.
@MainActor final class Button: FocusNode {
    enum Look { case plain, tile, navigation }
    /// How a plain button stands out in the graphical face: filled with the brand's colour (the
    /// screen's main action), or outlined.
    enum Emphasis { case primary, secondary }
    var title: String {
        didSet { if title != oldValue { setNeedsDisplay() } }
    }
    var subtitle: String {
        didSet { if subtitle != oldValue { setNeedsDisplay() } }
    }
    let look: Look
    var emphasis = Emphasis.primary
    /// The icon drawn in the graphical face.
    var icon: Artwork.Icon?
    /// How the graphical face looks; `nil` in a terminal (nothing is drawn).
    var appearance: KioskAppearance?
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

    override func draw(in context: any GraphicsContext, state: DrawingState) {
        guard let appearance else { return }
        switch look {
        case .tile: drawTile(in: context, state: state, appearance: appearance)
        case .navigation: drawNavigation(in: context, state: state, appearance: appearance)
        case .plain: drawAction(in: context, state: state, appearance: appearance)
        }
    }
}

/// A check box: Return or Space toggles it.
@MainActor final class Checkbox: FocusNode {
    var title: String {
        didSet { if title != oldValue { setNeedsDisplay() } }
    }
    var isChecked = false {
        didSet { if isChecked != oldValue { setNeedsDisplay() } }
    }
    /// How the graphical face looks; `nil` in a terminal.
    var appearance: KioskAppearance?

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

    override func draw(in context: any GraphicsContext, state: DrawingState) {
        guard let appearance else { return }
        drawCheckbox(in: context, state: state, appearance: appearance)
    }
}

/// A labelled text field; the PIN field takes digits only (typed on the keypad or the top row).
/// Graphics' `TextFieldNode` draws it in the graphical face: the label above a rounded box.
@MainActor final class Field: TextFieldNode {
    let digitsOnly: Bool

    init(_ identifier: String, label: String, secure: Bool = false, digitsOnly: Bool = false, maximumLength: Int) {
        self.digitsOnly = digitsOnly
        super.init(label: label, identifier: identifier)
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

    /// How the graphical face looks (its theme becomes the field's); `nil` in a terminal.
    var appearance: KioskAppearance? {
        didSet { if let appearance { theme = appearance.theme } }
    }
    /// An icon at the trailing end of the box in the graphical face (the search's magnifier).
    var trailingIcon: Artwork.Icon?

    /// Nothing in a terminal (whose canvas draws the field); Graphics' field on a screen.
    override func draw(in context: any GraphicsContext, state: DrawingState) {
        guard let appearance else { return }
        super.draw(in: context, state: state)
        if let trailingIcon {
            let side = (boxFrame.height * 0.42).rounded()
            let slot = boxFrame.insetBy(dx: (boxFrame.height - side) / 2, dy: 0)
                .trailing(side, context.layoutDirection)
            context.draw(appearance.mutedIcon(trailingIcon), in: slot.centeredSquare(side), mode: .fit)
        }
    }
}

/// One row of the directory.
@MainActor final class Row: FocusNode {
    let entry: DirectoryEntry
    let index: Int
    /// Whether it is the row the directory describes (focus was on it last): drawn highlighted.
    var isCurrent = false {
        didSet { if isCurrent != oldValue { setNeedsDisplay() } }
    }
    /// How the graphical face looks; `nil` in a terminal.
    var appearance: KioskAppearance?

    init(_ entry: DirectoryEntry, index: Int) {
        self.entry = entry
        self.index = index
        super.init(identifier: "row\(index + 1)", isFocusable: true)
        acceptsFirstResponder = true
        accessibilityLabel = entry.spoken
    }

    override func draw(in context: any GraphicsContext, state: DrawingState) {
        guard let appearance else { return }
        drawRow(in: context, state: state, appearance: appearance)
    }
}
