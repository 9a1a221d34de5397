/// A point in the window's coordinate space (the space of ``FocusEnvironment/focusFrame``).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal position.
    public var x: Double
    /// The vertical position.
    public var y: Double

    /// Creates a point.
    ///
    /// - Parameters:
    ///   - x: The horizontal position.
    ///   - y: The vertical position.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}

extension Rect {
    /// Whether the point lies inside: the left and top edges included, the right and bottom
    /// excluded, so that two frames side by side never both contain a point.
    ///
    /// - Parameter point: The point.
    /// - Returns: Whether it is inside.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }
}

/// What a click, or a tap that lifted where it began, did.
public enum PointerActivation: Sendable, CustomStringConvertible {
    /// A responder performed the item's primary action (sent as ``ActionSender/focusSelection``,
    /// as the select key sends it).
    case performed(Action, item: String, responder: String)
    /// The item is a text input: it became first responder and took focus, as UIKit does when a
    /// hardware keyboard's user taps a text field.
    case focusedTextInput(item: String)
    /// Nothing happened, and why (no item there; an item without a primary action that nobody
    /// performs).
    case nothing(reason: String)

    /// A short sentence for traces and tests.
    public var description: String {
        switch self {
        case .performed(let action, let item, let responder):
            return "\(responder) performed \(action.rawValue) of \(item)"
        case .focusedTextInput(let item): return "\(item) took focus and became first responder"
        case .nothing(let reason): return "nothing: \(reason)"
        }
    }
}

extension FocusSystem {
    /// The item a pointer or a touch at `point` lands on: of the items that can be focused, or
    /// activated only (a button while full keyboard access is off), inside the current modal
    /// scope (a dialog takes every touch), the last in document order whose frame contains the
    /// point (the one drawn on top); `nil` for none. Hidden items and items without area are
    /// never hit.
    ///
    /// - Parameter point: The point, in the window's coordinate space.
    /// - Returns: The item, or `nil`.
    public func item(at point: Point) -> (any FocusItem)? {
        // The snapshot in place, not a copy: a drag asks on every move.
        refreshSnapshot()
        var hit: (any FocusItem)?
        for item in snapshot.items where item.frame.contains(point) {
            switch item.focusability {
            case .focusable, .activateOnlyWithoutFullKeyboardAccess: hit = item.item
            default: break
            }
        }
        return hit
    }

    /// What a click, or a tap that lifted on the item it began on, does at `point`: a text input
    /// becomes first responder and takes focus; another item's primary action is sent up the
    /// responder chain from the item (``ActionSender/focusSelection``), without moving keyboard
    /// focus (iPadOS leaves focus where it is when a button is tapped); anything else does
    /// nothing, and the outcome says why.
    ///
    /// - Parameter point: The point, in the window's coordinate space.
    /// - Returns: What happened.
    @discardableResult
    public func activate(at point: Point) -> PointerActivation {
        activate(item(at: point), at: point)
    }

    /// ``activate(at:)`` on the item already found there.
    func activate(_ hit: (any FocusItem)?, at point: Point) -> PointerActivation {
        guard let item = hit else { return .nothing(reason: "no item at \(point)") }
        let name = item.focusDebugName
        if let input = item as? Responder, input.asTextInputResponder != nil {
            _ = requestFocus(on: item)
            updateFocusIfNeeded()
            if window.firstResponder !== input { _ = input.becomeFirstResponder() }
            for observer in activationObservers { observer.body(item) }
            return .focusedTextInput(item: name)
        }
        guard let action = item.primaryAction else { return .nothing(reason: "\(name) has no primary action") }
        guard let target = select(item, heading: .none) else {
            return .nothing(reason: "no responder can perform \(action.rawValue) for \(name)")
        }
        for observer in activationObservers { observer.body(item) }
        return .performed(action, item: name, responder: target.traceName)
    }
}

/// Turns clicks and touches into activations, the way a touch screen's users expect: an
/// activation happens when the finger lifts (or the button comes up) on the item it went down on;
/// a touch that moves off that item, that is cancelled (the compositor took it, the device went
/// away), or that shares the screen with a second finger activates nothing; hovering never does
/// anything. One tracker per window, fed by every pointer and touch source.
@MainActor
public final class PointerActivationTracker {
    /// The focus system whose items are hit.
    public let focusSystem: FocusSystem
    /// Contacts down now, by id (a touch point's slot, or `pointerID` for a mouse button), with
    /// the item each went down on.
    private var contacts: [Int: ObjectIdentifier?] = [:]
    /// Whether the current gesture has had two contacts at once: it activates nothing.
    private var isMultiTouch = false
    /// The node each contact presses now (``FocusNode/isPressed``): from its down until it lifts,
    /// slides off or is cancelled.
    private var pressed: [Int: FocusNode] = [:]

    /// The contact id a mouse button uses.
    public nonisolated static let pointerID = -1

    /// Creates a tracker.
    ///
    /// - Parameter focusSystem: The window's focus system.
    public init(focusSystem: FocusSystem) {
        self.focusSystem = focusSystem
    }

    /// A finger or a button went down at `point`.
    ///
    /// - Parameters:
    ///   - id: The contact's id (a touch slot, or ``pointerID``).
    ///   - point: Where, in the window's coordinate space.
    public func down(_ id: Int, at point: Point) {
        down(id, hit: focusSystem.item(at: point))
    }

    /// ``down(_:at:)`` with the item already found under the contact.
    func down(_ id: Int, hit: (any FocusItem)?) {
        if !contacts.isEmpty { isMultiTouch = true }
        contacts[id] = hit.map(ObjectIdentifier.init)
        release(id)
        if let node = hit as? FocusNode {
            pressed[id] = node
            node.pointerPressChanged(true)
        }
    }

    /// A contact moved: when it leaves the item it went down on, lifting it activates nothing.
    ///
    /// - Parameters:
    ///   - id: The contact's id.
    ///   - point: Where it is now.
    public func move(_ id: Int, to point: Point) {
        guard let start = contacts[id], let start else { return }
        if focusSystem.item(at: point).map(ObjectIdentifier.init) != start {
            contacts[id] = .some(nil)
            release(id)
        }
    }

    /// A contact lifted at `point`: the item it went down on is activated when it lifts there,
    /// alone.
    ///
    /// - Parameters:
    ///   - id: The contact's id.
    ///   - point: Where it lifted.
    /// - Returns: What happened.
    @discardableResult
    public func up(_ id: Int, at point: Point) -> PointerActivation {
        up(id, at: point, hit: focusSystem.item(at: point))
    }

    /// ``up(_:at:)`` with the item already found under the contact.
    func up(_ id: Int, at point: Point, hit: (any FocusItem)?) -> PointerActivation {
        guard let entry = contacts.removeValue(forKey: id) else {
            return .nothing(reason: "the contact never went down in this window")
        }
        release(id)
        defer { if contacts.isEmpty { isMultiTouch = false } }
        if isMultiTouch { return .nothing(reason: "more than one finger touched") }
        guard let start = entry else { return .nothing(reason: "it went down on no item, or moved off it") }
        guard hit.map(ObjectIdentifier.init) == start else {
            return .nothing(reason: "it lifted off the item it went down on")
        }
        return focusSystem.activate(hit, at: point)
    }

    /// Every contact was cancelled (the compositor took the touch, the device went away):
    /// nothing is activated.
    public func cancelAll() {
        contacts.removeAll()
        isMultiTouch = false
        for id in Array(pressed.keys) { release(id) }
    }

    /// The contact no longer presses its node.
    private func release(_ id: Int) {
        pressed.removeValue(forKey: id)?.pointerPressChanged(false)
    }
}
