/// What a ``FocusNode`` draws and shows, apart from its focus properties: one pointer per node
/// until the first is set.
@MainActor
final class DisplayStorage {
    var backgroundColor: Color?
    var cornerRadius: Double = 0
    var focusEffect: FocusEffect = .automatic
    var isSelected = false
    /// Contacts down on the node now (two fingers on one key count twice).
    var pressCount = 0
    var containmentRedraw: FocusContainmentRedraw = .none
    var drawingOutset: Double = 0
    var isInputView = false
}

/// What of a node is redrawn when focus enters or leaves it (a group's outline that turns
/// bold): nothing by default, so that a focus move costs only the two items.
public enum FocusContainmentRedraw: Hashable, Sendable {
    /// Nothing.
    case none
    /// The whole frame.
    case frame
    /// A band along the frame's edges, `width` points inside and outside: an outline drawn there.
    case outline(width: Double)
}

extension FocusNode {
    /// The colour the default ``draw(in:state:)`` fills the frame with; `nil` (nothing) by default.
    public var backgroundColor: Color? {
        get { display?.backgroundColor }
        set {
            guard newValue != display?.backgroundColor else { return }
            displayStorage.backgroundColor = newValue
            setNeedsDisplay()
        }
    }

    /// The radius of the frame's corners, in points, for the default ``draw(in:state:)`` and the
    /// automatic focus ring; 0 by default.
    public var cornerRadius: Double {
        get { display?.cornerRadius ?? 0 }
        set {
            guard newValue != display?.cornerRadius ?? 0 else { return }
            displayStorage.cornerRadius = max(0, newValue)
            setNeedsDisplay()
        }
    }

    /// Whether the node is selected (a chosen row, the current tab): drawn from
    /// ``DrawingState/isSelected`` and spoken as selected. `false` by default.
    public var isSelected: Bool {
        get { display?.isSelected ?? false }
        set {
            guard newValue != isSelected else { return }
            displayStorage.isSelected = newValue
            setNeedsDisplay()
        }
    }

    /// Whether a finger or a mouse button is down on the node now, having gone down on it and not
    /// slid off (UIKit's `isHighlighted`): set by the window's pointer handling, at once on
    /// touch-down.
    public var isPressed: Bool { (display?.pressCount ?? 0) > 0 }

    /// What is redrawn when focus enters or leaves the node. ``FocusContainmentRedraw/none`` by
    /// default.
    public var focusContainmentRedraw: FocusContainmentRedraw {
        get { display?.containmentRedraw ?? .none }
        set {
            guard newValue != focusContainmentRedraw else { return }
            displayStorage.containmentRedraw = newValue
            setNeedsDisplay()
        }
    }

    /// How far the node's drawing reaches beyond its frame, in points, on every side (a card's
    /// shadow): what a redraw of the node covers. 0 by default.
    public var drawingOutset: Double {
        get { display?.drawingOutset ?? 0 }
        set {
            guard newValue != drawingOutset else { return }
            displayStorage.drawingOutset = max(0, newValue)
            setNeedsDisplay()
        }
    }

    /// Whether the node is an input view: an on-screen keyboard, a keypad, a palette that types
    /// into the text field that is first responder (UIKit's `inputView`). Focus on an item inside
    /// it leaves the first responder where it is, and the keys its device sends
    /// (``Window/inputViewDevices``) go to that field; other keys (a remote's arrows) walk its
    /// items. `false` by default.
    public var isInputView: Bool {
        get { display?.isInputView ?? false }
        set { displayStorage.isInputView = newValue }
    }

    /// Whether an environment is inside an input view (or is one).
    static func isInsideInputView(_ environment: any FocusEnvironment) -> Bool {
        var current: (any FocusEnvironment)? = environment
        while let node = current {
            if let focusNode = node as? FocusNode, focusNode.display?.isInputView == true { return true }
            current = node.parentFocusEnvironment
        }
        return false
    }

    /// The state the node is drawn in now.
    public var drawingState: DrawingState {
        let focusSystem = window?.focusSystem
        let focused = focusSystem?.focusedItem
        var containsFocus = false
        if let focused, let ancestor = focused as? Responder, ancestor !== self {
            var current = ancestor.parent
            while let node = current {
                if node === self {
                    containsFocus = true
                    break
                }
                current = node.parent
            }
        }
        return DrawingState(
            isFocused: focused.map { $0 === self } ?? false, isPressed: isPressed, isEnabled: isEnabled,
            isSelected: isSelected, containsFocus: containsFocus, isFirstResponder: window?.firstResponder === self,
            layoutDirection: effectiveLayoutDirection)
    }

    /// The node's reading direction: its own ``layoutDirection``, else the nearest ancestor's,
    /// else the window's.
    public var effectiveLayoutDirection: LayoutDirection {
        var current: Responder? = self
        while let responder = current {
            if let node = responder as? FocusNode, let direction = node.layoutDirection { return direction }
            if let window = responder as? Window { return window.layoutDirection }
            current = responder.parent
        }
        return .leftToRight
    }

    /// Asks for the node to be drawn again at the next frame (UIKit's `setNeedsDisplay()`): call it
    /// when something it draws from changed (its text, its image). Its frame, visibility and
    /// states are followed without it. Does nothing while no painter shows the window.
    public func setNeedsDisplay() {
        guard let window, window.isDisplayObserved else { return }
        window.noteNeedsDisplay(self, in: nil)
    }

    /// Asks for part of the node to be drawn again (UIKit's `setNeedsDisplay(_:)`): a text field's
    /// cursor, one key of a keyboard.
    ///
    /// - Parameter rect: The part, in the window's coordinate space.
    public func setNeedsDisplay(_ rect: Rect) {
        guard let window, window.isDisplayObserved else { return }
        window.noteNeedsDisplay(self, in: rect)
    }

    /// A contact went down on the node (`true`) or left it (`false`): the pointer handling keeps
    /// the count, and the node is redrawn when it starts or stops being pressed.
    func pointerPressChanged(_ down: Bool) {
        let storage = displayStorage
        let was = storage.pressCount > 0
        storage.pressCount = max(0, storage.pressCount + (down ? 1 : -1))
        if was != (storage.pressCount > 0) { setNeedsDisplay() }
    }
}
