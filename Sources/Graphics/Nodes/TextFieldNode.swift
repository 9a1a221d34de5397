public import ResponderChain

/// A text field drawn as kiosks draw them: a rounded box on the theme's surface, its label above
/// it, the text (dots when secure) or a placeholder, and a cursor while it takes the keys. A
/// `TextInputNode`: typing, editing, undo, filters and the narrator work as there.
///
/// ```swift
/// let name = TextFieldNode(label: "Your name", placeholder: "As on your card", identifier: "name",
///                          frame: Rect(x: 48, y: 200, width: 560, height: 96))
/// ```
/// The frame holds the label (its top third) and the box under it.
open class TextFieldNode: TextInputNode {
    /// The label above the box; also the accessibility label unless one is set.
    public var label: String {
        didSet { if label != oldValue { setNeedsDisplay() } }
    }
    /// What the empty box shows.
    public var placeholder: String {
        didSet { if placeholder != oldValue { setNeedsDisplay() } }
    }
    /// Its colours and font.
    public var theme: Theme {
        didSet {
            cornerRadius = theme.cornerRadius / 2
            setNeedsDisplay()
        }
    }

    /// Creates a field.
    ///
    /// - Parameters:
    ///   - label: The label above the box.
    ///   - placeholder: What the empty box shows.
    ///   - theme: Its colours and font.
    ///   - identifier: The node's name for traces.
    ///   - frame: Where, in points: the label and the box.
    public init(
        label: String, placeholder: String = "", theme: Theme = .standard, identifier: String? = nil,
        frame: Rect = .zero
    ) {
        self.label = label
        self.placeholder = placeholder
        self.theme = theme
        super.init(identifier: identifier, frame: frame)
        cornerRadius = theme.cornerRadius / 2
        focusEffect = .none
    }

    /// The label, unless set otherwise.
    open override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? label }
        set { super.accessibilityLabel = newValue }
    }

    /// The box, under the label.
    public var boxFrame: Rect {
        let labelHeight = label.isEmpty ? 0 : min(frame.height / 3, 36)
        return Rect(x: frame.minX, y: frame.minY + labelHeight, width: frame.width, height: frame.height - labelHeight)
    }

    /// The label, the box (outlined in the accent colour while focused: the field draws its own
    /// focus), the text or placeholder, and the cursor while first responder.
    open override func draw(in context: any GraphicsContext, state: DrawingState) {
        if !state.isEnabled { context.setOpacity(0.4) }
        let box = boxFrame
        let textSize = min(28, max(14, box.height * 0.42))
        if !label.isEmpty {
            let labelFrame = Rect(x: frame.minX, y: frame.minY, width: frame.width, height: box.minY - frame.minY)
            context.draw(
                label, in: labelFrame,
                style: TextStyle(font: theme.font(textSize * 0.75, .medium), color: theme.secondaryText))
        }
        let shape = Path.roundedRect(box, cornerRadius: cornerRadius)
        context.fill(shape, theme.surface)
        if state.isFocused || state.isFirstResponder {
            context.stroke(
                .roundedRect(box.insetBy(dx: 1.5, dy: 1.5), cornerRadius: max(0, cornerRadius - 1.5)), theme.accent,
                lineWidth: 3)
        } else {
            context.stroke(
                .roundedRect(box.insetBy(dx: 0.5, dy: 0.5), cornerRadius: cornerRadius), theme.outline, lineWidth: 1)
        }
        let inner = box.insetBy(dx: 16, dy: 4)
        let shown = displayText
        let style = TextStyle(font: theme.font(textSize), color: theme.text)
        if shown.isEmpty {
            if !placeholder.isEmpty {
                var faint = style
                faint.color = theme.secondaryText
                context.draw(placeholder, in: inner, style: faint)
            }
        } else {
            context.draw(shown, in: inner, style: style)
        }
        if state.isFirstResponder {
            let x = Self.caretX(
                shown, cursor: cursorPosition, in: inner, direction: context.layoutDirection,
                measure: { context.measure($0, style: style, width: nil).width })
            let height = textSize * 1.25
            context.fill(.rect(Rect(x: x - 1, y: inner.midY - height / 2, width: 2, height: height)), theme.accent)
        }
    }
}

extension TextFieldNode {
    /// Where the caret goes: after the characters before the cursor, in the text's own direction
    /// (a paragraph runs in the direction of its first strong character, as Pango lays it out),
    /// in a block aligned to the leading side of the screen's direction. English typed into a
    /// Hebrew screen's field sits at the right and its caret after its last letter, at the right;
    /// Hebrew's caret after its last letter is at the left.
    ///
    /// - Parameters:
    ///   - text: The text shown.
    ///   - cursor: The cursor's offset in characters.
    ///   - box: Where the text is drawn.
    ///   - direction: The screen's reading direction.
    ///   - measure: A text's width.
    /// - Returns: The caret's x.
    package static func caretX(
        _ text: String, cursor: Int, in box: Rect, direction: LayoutDirection, measure: (String) -> Double
    ) -> Double {
        let total = text.isEmpty ? 0 : min(measure(text), box.width)
        let before = String(text.prefix(max(0, cursor)))
        let advance = before.isEmpty ? 0 : min(measure(before), total)
        let start = direction == .rightToLeft ? box.maxX - total : box.minX
        let textDirection = firstStrongDirection(text) ?? direction
        return textDirection == .rightToLeft ? start + total - advance : start + advance
    }

    /// The direction of the first character with a strong direction: right to left for the Hebrew,
    /// Arabic, Syriac, Thaana, NKo and Samaritan blocks and their presentation forms, left to right
    /// for any other letter; `nil` when there is no letter (digits and punctuation are weak).
    package static func firstStrongDirection(_ text: String) -> LayoutDirection? {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x1_0800...0x1_0FFF, 0x1_E800...0x1_EFFF:
                if scalar.properties.isAlphabetic { return .rightToLeft }
            default:
                if scalar.properties.isAlphabetic { return .leftToRight }
            }
        }
        return nil
    }
}
