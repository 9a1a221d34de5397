public import ResponderChain

/// A focusable button drawn from its state: a brand-coloured button, a large tile with an icon,
/// or plain text. Pressed shows at once on touch-down (darker), disabled is faded and cannot be
/// focused or tapped, selected is outlined; focus is the system's effect (a ring by default).
///
/// Select, Return, a tap or a click send its `FocusNode.primaryAction` up the responder chain.
///
/// ```swift
/// let pay = ButtonNode("Pay by card", icon: ImageSource(file: "card.svg"), look: .tile,
///                      identifier: "pay", frame: Rect(x: 48, y: 160, width: 320, height: 200))
/// pay.primaryAction = Action("pay")
/// ```
open class ButtonNode: FocusNode {
    /// How a button looks.
    public enum Look: Hashable, Sendable {
        /// Filled with the theme's accent, its title centred: the main action of a screen.
        case filled
        /// A large card on the theme's surface: the icon at the top, the title and subtitle under it.
        case tile
        /// Only its title, in the accent colour: a secondary action.
        case plain
    }

    /// The title. Setting it redraws the button.
    public var title: String {
        didSet { if title != oldValue { setNeedsDisplay() } }
    }
    /// A line under the title (tiles); `nil` for none.
    public var subtitle: String? {
        didSet { if subtitle != oldValue { setNeedsDisplay() } }
    }
    /// An icon: at the top of a tile, before the title otherwise.
    public var icon: ImageSource? {
        didSet { if icon != oldValue { setNeedsDisplay() } }
    }
    /// How it looks.
    public var look: Look {
        didSet { if look != oldValue { setNeedsDisplay() } }
    }
    /// Its colours and font.
    public var theme: Theme {
        didSet {
            cornerRadius = theme.cornerRadius
            setNeedsDisplay()
        }
    }
    /// The title's size in points; by default 26 on a tile and 22 otherwise.
    public var titleSize: Double? {
        didSet { if titleSize != oldValue { setNeedsDisplay() } }
    }

    /// Creates a focusable button.
    ///
    /// - Parameters:
    ///   - title: The title (also its accessibility label).
    ///   - subtitle: A line under the title.
    ///   - icon: An icon.
    ///   - look: How it looks; filled by default.
    ///   - theme: Its colours and font.
    ///   - identifier: The node's name for traces.
    ///   - frame: Where, in points (at least 44 by 44 for a finger: WCAG 2.5.5).
    public init(
        _ title: String, subtitle: String? = nil, icon: ImageSource? = nil, look: Look = .filled,
        theme: Theme = .standard, identifier: String? = nil, frame: Rect = .zero
    ) {
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.look = look
        self.theme = theme
        super.init(identifier: identifier, frame: frame, isFocusable: true)
        cornerRadius = theme.cornerRadius
    }

    /// The title, unless set otherwise.
    open override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? title }
        set { super.accessibilityLabel = newValue }
    }

    /// The subtitle, unless set otherwise.
    open override var accessibilityHint: String? {
        get { super.accessibilityHint ?? subtitle }
        set { super.accessibilityHint = newValue }
    }

    /// Draws the button from its state.
    open override func draw(in context: any GraphicsContext, state: DrawingState) {
        if !state.isEnabled { context.setOpacity(0.4) }
        let shape = Path.roundedRect(frame, cornerRadius: cornerRadius)
        let (fill, ink): (Color?, Color) =
            switch look {
            case .filled: (theme.accent, theme.onAccent)
            case .tile: (theme.surface, theme.text)
            case .plain: (nil, theme.accent)
            }
        if var fill {
            if state.isPressed { fill = fill.mixed(with: .black, by: 0.18) }
            context.fill(shape, fill)
        } else if state.isPressed {
            context.fill(shape, theme.accent.opacity(0.14))
        }
        if look == .tile { context.stroke(shape, theme.outline, lineWidth: 1) }
        if state.isSelected {
            context.stroke(
                .roundedRect(frame.insetBy(dx: 2, dy: 2), cornerRadius: max(0, cornerRadius - 2)), theme.accent,
                lineWidth: 4)
        }
        switch look {
        case .tile: drawTileContent(in: context, ink: ink)
        case .filled, .plain: drawBarContent(in: context, ink: ink, state: state)
        }
    }

    private func drawTileContent(in context: any GraphicsContext, ink: Color) {
        let padding = min(24, frame.width / 10)
        let content = frame.insetBy(dx: padding, dy: padding)
        var top = content.minY
        if let icon {
            let side = min(64, content.height / 2.5)
            let x = context.layoutDirection == .rightToLeft ? content.maxX - side : content.minX
            context.draw(icon, in: Rect(x: x, y: top, width: side, height: side), mode: .fit)
            top += side + padding / 2
        }
        let size = titleSize ?? 26
        let titleStyle = TextStyle(
            font: theme.font(size, .semibold), color: ink, verticalAlignment: .top, lineLimit: 2)
        let titleHeight = context.measure(title, style: titleStyle, width: content.width).height
        context.draw(
            title, in: Rect(x: content.minX, y: top, width: content.width, height: max(0, content.maxY - top)),
            style: titleStyle)
        top += titleHeight + 4
        if let subtitle, top < content.maxY {
            let style = TextStyle(
                font: theme.font(size * 0.7), color: theme.secondaryText, verticalAlignment: .top, lineLimit: 2)
            context.draw(
                subtitle, in: Rect(x: content.minX, y: top, width: content.width, height: content.maxY - top),
                style: style)
        }
    }

    private func drawBarContent(in context: any GraphicsContext, ink: Color, state: DrawingState) {
        let size = titleSize ?? 22
        var content = frame.insetBy(dx: min(20, frame.width / 8), dy: 4)
        if let icon {
            let side = min(size * 1.3, content.height)
            let rightToLeft = context.layoutDirection == .rightToLeft
            let x = rightToLeft ? content.maxX - side : content.minX
            context.draw(icon, in: Rect(x: x, y: content.midY - side / 2, width: side, height: side), mode: .fit)
            content.width -= side + 8
            if !rightToLeft { content.x += side + 8 }
        }
        context.draw(
            title, in: content, style: TextStyle(font: theme.font(size, .semibold), color: ink, alignment: .center))
    }
}
