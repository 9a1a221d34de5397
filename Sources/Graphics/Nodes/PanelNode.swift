public import ResponderChain

/// A container drawn as a surface: a sidebar, a card, a dialog. Its children are drawn over it.
///
/// With ``showsFocusContainment`` its outline turns the accent colour while focus is inside it
/// (a focus group's outline), and only that outline is redrawn when focus enters or leaves. With
/// a ``shadow`` it floats over the screen (a dialog's card).
open class PanelNode: FocusNode {
    /// Its colours.
    public var theme: Theme {
        didSet { setNeedsDisplay() }
    }
    /// The fill; the theme's surface by default, `nil` for none.
    public var fill: Color? {
        didSet { if fill != oldValue { setNeedsDisplay() } }
    }
    /// A shadow under it; `nil` for none.
    public var shadow: Shadow? {
        didSet {
            guard shadow != oldValue else { return }
            let reach = shadow?.reach ?? (left: 0, top: 0, right: 0, bottom: 0)
            drawingOutset = max(reach.left, reach.top, reach.right, reach.bottom)
            setNeedsDisplay()
        }
    }
    /// Whether the outline shows that focus is inside.
    public var showsFocusContainment: Bool {
        didSet {
            focusContainmentRedraw = showsFocusContainment ? .outline(width: 3) : .none
            setNeedsDisplay()
        }
    }

    /// Creates a panel.
    ///
    /// - Parameters:
    ///   - theme: Its colours.
    ///   - showsFocusContainment: Whether its outline shows focus inside it.
    ///   - identifier: The node's name for traces.
    ///   - frame: Where, in points.
    public init(
        theme: Theme = .standard, showsFocusContainment: Bool = false, identifier: String? = nil, frame: Rect = .zero
    ) {
        self.theme = theme
        self.fill = theme.surface
        self.showsFocusContainment = showsFocusContainment
        super.init(identifier: identifier, frame: frame)
        cornerRadius = theme.cornerRadius
        focusContainmentRedraw = showsFocusContainment ? .outline(width: 3) : .none
    }

    /// The surface, its shadow and its outline.
    open override func draw(in context: any GraphicsContext, state: DrawingState) {
        let shape = Path.roundedRect(frame, cornerRadius: cornerRadius)
        if let fill {
            context.withSavedState {
                if let shadow { context.setShadow(shadow) }
                context.fill(shape, fill)
            }
        }
        if showsFocusContainment {
            let inner = Path.roundedRect(frame.insetBy(dx: 1, dy: 1), cornerRadius: max(0, cornerRadius - 1))
            if state.containsFocus {
                context.stroke(inner, theme.accent, lineWidth: 2)
            } else {
                context.stroke(inner, theme.outline, lineWidth: 1)
            }
        }
    }
}
