/// What a node draws from (``FocusNode/draw(in:state:)``): the states the core already knows.
///
/// - focused: keyboard, remote or gamepad focus is on it;
/// - pressed: a finger or a mouse button is down on it (shown at once on touch-down, gone when
///   the contact lifts or slides off);
/// - disabled: ``FocusNode/isEnabled`` is `false` (it cannot be focused or tapped);
/// - selected: ``FocusNode/isSelected`` (a chosen row, the current tab);
/// - containing focus: focus is on something inside it (a group's outline);
/// - first responder: it takes the keys (a text field with its cursor).
public struct DrawingState: Hashable, Sendable, CustomStringConvertible {
    /// Whether focus is on the node.
    public var isFocused: Bool
    /// Whether a finger or a button is down on it.
    public var isPressed: Bool
    /// Whether it can be used.
    public var isEnabled: Bool
    /// Whether it is selected.
    public var isSelected: Bool
    /// Whether focus is on something inside it.
    public var containsFocus: Bool
    /// Whether it is the first responder.
    public var isFirstResponder: Bool
    /// Its reading direction.
    public var layoutDirection: LayoutDirection

    /// Creates a state; every flag off, enabled, left to right unless given.
    ///
    /// - Parameters:
    ///   - isFocused: Whether focus is on the node.
    ///   - isPressed: Whether a finger or a button is down on it.
    ///   - isEnabled: Whether it can be used.
    ///   - isSelected: Whether it is selected.
    ///   - containsFocus: Whether focus is inside it.
    ///   - isFirstResponder: Whether it takes the keys.
    ///   - layoutDirection: Its reading direction.
    public init(
        isFocused: Bool = false, isPressed: Bool = false, isEnabled: Bool = true, isSelected: Bool = false,
        containsFocus: Bool = false, isFirstResponder: Bool = false, layoutDirection: LayoutDirection = .leftToRight
    ) {
        self.isFocused = isFocused
        self.isPressed = isPressed
        self.isEnabled = isEnabled
        self.isSelected = isSelected
        self.containsFocus = containsFocus
        self.isFirstResponder = isFirstResponder
        self.layoutDirection = layoutDirection
    }

    /// `normal`, or the states that are on: `focused pressed`.
    public var description: String {
        var words: [String] = []
        if isFocused { words.append("focused") }
        if isPressed { words.append("pressed") }
        if !isEnabled { words.append("disabled") }
        if isSelected { words.append("selected") }
        if containsFocus { words.append("containing focus") }
        if isFirstResponder { words.append("first responder") }
        if layoutDirection == .rightToLeft { words.append("right to left") }
        return words.isEmpty ? "normal" : words.joined(separator: " ")
    }
}

/// How the system shows that a node has focus, drawn over what the node draws (tvOS lifts a
/// focused poster; a desktop draws a ring).
public enum FocusEffect: Hashable, Sendable {
    /// The window's default (the painter's ``ring(color:width:gap:cornerRadius:)`` in its
    /// focus colour), for a focusable node.
    case automatic
    /// Nothing: the node shows focus itself, from ``DrawingState/isFocused``.
    case none
    /// A ring around the frame.
    ///
    /// - color: Its colour; `nil` for the window's focus colour.
    /// - width: Its width in points.
    /// - gap: The space between the frame and the ring.
    /// - cornerRadius: Its corners' radius, measured on the frame; `nil` follows the node's
    ///   ``FocusNode/cornerRadius``.
    case ring(color: Color? = nil, width: Double = 4, gap: Double = 3, cornerRadius: Double? = nil)
    /// The node drawn larger, about its centre, over a shadow (tvOS's lift).
    ///
    /// - scale: How much larger (1.06: 6 %).
    /// - shadow: The shadow under it.
    case lift(scale: Double = 1.06, shadow: Shadow = Shadow(offset: Point(x: 0, y: 8), radius: 16))

    /// How far beyond the frame the effect can reach on each side, for a frame of this size: what
    /// a redraw of the focused node must cover.
    ///
    /// - Parameter frame: The node's frame.
    /// - Returns: The reach in points.
    public func reach(for frame: Rect) -> (left: Double, top: Double, right: Double, bottom: Double) {
        switch self {
        case .none: return (0, 0, 0, 0)
        case .automatic: return FocusEffect.ring().reach(for: frame)
        case .ring(_, let width, let gap, _):
            let out = max(0, gap) + max(0, width) + 1
            return (out, out, out, out)
        case .lift(let scale, let shadow):
            let growX = max(0, frame.width * (scale - 1) / 2) + 1
            let growY = max(0, frame.height * (scale - 1) / 2) + 1
            let shade = shadow.reach
            return (growX + shade.left, growY + shade.top, growX + shade.right, growY + shade.bottom)
        }
    }
}
