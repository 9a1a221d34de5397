/// A ready-made focus item that is also a responder: a node with a frame, children, visibility,
/// focus properties and the responder behaviour of the core.
///
/// Apps and tests build trees of these quickly; the scene format of keytrace loads into them.
///
/// ```swift
/// let sidebar = FocusNode(identifier: "sidebar", frame: Rect(x: 0, y: 0, width: 200, height: 600))
/// sidebar.focusGroupIdentifier = "sidebar"
/// let row = FocusNode(identifier: "inbox", frame: Rect(x: 0, y: 60, width: 200, height: 40), isFocusable: true)
/// sidebar.addChild(row)
/// ```
/// Changing a focus property takes effect at the focus system's next update.
@MainActor
open class FocusNode: Responder, FocusItem {
    /// The focus properties in one stored value: the focus system reads a whole node with one
    /// access (a snapshot of 100,000 nodes read nine dynamically checked properties per node
    /// before, a third of its time).
    /// A focus move reads several of them (priority, first-responder acceptance, selection
    /// following focus) and every write is a single store: no dynamic exclusivity check.
    @exclusivity(unchecked) @usableFromInline final var focusProperties: FocusProperties

    // Inlinable and final, so that `node.frame.x = …` (an animation step) compiles to a get and a
    // set in the caller: across modules the class's modify coroutine allocated its frame on every
    // call.
    /// The frame in the window's coordinate space.
    @inlinable public final var frame: Rect {
        get { focusProperties.frame }
        set {
            focusProperties.frame = newValue
            focusPropertiesDidChange(.frame)
        }
    }
    /// Whether the node and its subtree are hidden.
    public var isHidden: Bool {
        get { focusProperties.isHidden }
        set {
            focusProperties.isHidden = newValue
            focusPropertiesDidChange(.visibility)
        }
    }
    /// Whether the node can be focused.
    public var isFocusable: Bool {
        get { focusProperties.isFocusable }
        set {
            focusProperties.isFocusable = newValue
            focusPropertiesDidChange(.focusability)
        }
    }
    /// Whether the node can be used: a disabled node cannot be focused or tapped, draws itself
    /// disabled (``DrawingState/isEnabled``) and is spoken as dimmed. `true` by default (UIKit's
    /// `UIControl.isEnabled`).
    public var isEnabled: Bool {
        get { focusProperties.isEnabled }
        set {
            guard newValue != focusProperties.isEnabled else { return }
            focusProperties.isEnabled = newValue
            focusPropertiesDidChange(.focusability)
            setNeedsDisplay()
        }
    }
    /// How keyboard focus may reach the node. ``FocusInteractions/automatic`` by default.
    public var focusInteractions: FocusInteractions {
        get { focusProperties.interactions }
        set {
            focusProperties.interactions = newValue
            focusPropertiesDidChange(.focusability)
        }
    }
    /// The focus group the node declares; `nil` inherits the parent's.
    public var focusGroupIdentifier: String? {
        get { focusProperties.groupIdentifier }
        set {
            focusProperties.groupIdentifier = newValue
            focusPropertiesDidChange(.structure)
        }
    }
    /// The automatic group the node forms (scrolling or list container, text input).
    public var focusGroupKind: FocusGroupKind {
        get { focusProperties.groupKind }
        set {
            focusProperties.groupKind = newValue
            focusPropertiesDidChange(.structure)
        }
    }
    /// The node's priority for becoming its group's primary item.
    public var focusGroupPriority: FocusGroupPriority {
        get { focusProperties.priority }
        set {
            focusProperties.priority = newValue
            focusPropertiesDidChange([])
        }
    }
    /// The node's place in its group's tab loop before reading order; `nil` (the default) for
    /// reading order. See ``FocusEnvironment/focusTraversalOrder``.
    public var focusTraversalOrder: Double? {
        get { focusProperties.traversalOrder }
        set {
            focusProperties.traversalOrder = newValue
            focusPropertiesDidChange(.structure)
        }
    }
    /// Guide, section or plain.
    public var focusRole: FocusRole {
        get { focusProperties.role }
        set {
            focusProperties.role = newValue
            focusPropertiesDidChange(.structure)
        }
    }
    /// The reading direction of the subtree; `nil` inherits.
    public var layoutDirection: LayoutDirection? {
        get { focusProperties.direction }
        set {
            focusProperties.direction = newValue
            focusPropertiesDidChange(.structure)
        }
    }
    /// Whether items select when focused; `nil` inherits from the container.
    public var selectionFollowsFocus: Bool? {
        get { focusProperties.selectionFollowsFocus }
        set { focusProperties.selectionFollowsFocus = newValue }
    }
    /// The action the select key sends when this node is focused.
    public var primaryAction: Action?
    /// Identifiers of the nodes focus should prefer inside this one, in order.
    public var preferredFocusIdentifiers: [String] = []
    /// Whether the node can become first responder. `false` by default.
    public var acceptsFirstResponder: Bool {
        get { focusProperties.acceptsFirstResponder }
        set { focusProperties.acceptsFirstResponder = newValue }
    }
    /// Keys the node takes in `pressesBegan` (others are passed on).
    public var handledKeys: Set<KeyCode> = [] {
        didSet { handledKeyCodes = KeyCodeSet(handledKeys) }
    }
    /// ``handledKeys`` as every press that reaches the node asks it: searched in place, without
    /// the hash or the dynamic exclusivity check of the public set.
    @exclusivity(unchecked) private var handledKeyCodes = KeyCodeSet([])
    /// Actions the node performs.
    public var performableActions: Set<Action> = []
    /// Called when the node performs an action.
    public var onAction: ((Action, ActionSender) -> Void)?
    /// Called when the node takes a press in `pressesBegan`.
    public var onPress: ((Press) -> Void)?
    /// Called with `true` when the node gains focus and `false` when it loses it, after the
    /// focus update's `didUpdateFocus` calls: a renderer redraws this node only. SwiftUI's
    /// `onFocusChange`. Costs nothing when unset.
    @exclusivity(unchecked) public var onFocusChange: ((Bool) -> Void)?

    /// Called when focus moves to an item inside this node, so that a scrolling container
    /// brings it into view (UIKit scrolls a collection view to its focused cell): change the
    /// frames, then call ``FocusSystem/invalidateLayout(of:changes:)`` (a ``FocusNode`` frame change does
    /// that itself). Items outside the visible part stay in the tab loop and the arrow search.
    /// Called after the update's `didUpdateFocus`, nearest container first.
    @exclusivity(unchecked) public var onReveal: ((any FocusItem) -> Void)?

    /// The node's accessibility properties, made when the first is set.
    private var accessibility: AccessibilityStorage?
    private var accessibilityStorage: AccessibilityStorage {
        if let accessibility { return accessibility }
        let made = AccessibilityStorage()
        accessibility = made
        return made
    }

    /// A short name a narrator speaks: "Check in". `nil` by default (the narrator then speaks the
    /// identifier, so that a missing label is heard while testing).
    open var accessibilityLabel: String? {
        get { accessibility?.label }
        set { accessibilityStorage.label = newValue }
    }
    /// The current value: a check box's "checked". `nil` by default; a ``TextInputNode`` answers
    /// its text (secure: how many characters).
    open var accessibilityValue: String? {
        get { accessibility?.value }
        set { accessibilityStorage.value = newValue }
    }
    /// What choosing the node does, spoken last. `nil` by default.
    open var accessibilityHint: String? {
        get { accessibility?.hint }
        set { accessibilityStorage.hint = newValue }
    }
    /// What kind of element the node is and its state. Until set: ``AccessibilityTraits/button``
    /// when the node has a ``primaryAction``, and ``AccessibilityTraits/textField`` for a
    /// ``TextInputNode``; setting replaces them (add to them with `node.accessibilityTraits.insert(…)`).
    /// ``AccessibilityTraits/notEnabled`` is added while ``isEnabled`` is `false`, and
    /// ``AccessibilityTraits/selected`` while ``isSelected`` is `true`.
    open var accessibilityTraits: AccessibilityTraits {
        get {
            let traits = accessibility?.traits ?? defaultAccessibilityTraits
            var state: AccessibilityTraits = focusProperties.isEnabled ? [] : .notEnabled
            if display?.isSelected == true { state.insert(.selected) }
            return state.isEmpty ? traits : traits.union(state)
        }
        set { accessibilityStorage.traits = newValue }
    }
    /// The traits until ``accessibilityTraits`` is set.
    open var defaultAccessibilityTraits: AccessibilityTraits {
        primaryAction == nil ? [] : .button
    }
    /// Whether a narrator speaks the node when it gains focus and counts it in "3 of 6". Until set,
    /// whether it can be focused.
    open var isAccessibilityElement: Bool {
        get { accessibility?.isElement ?? canBecomeFocused }
        set {
            guard newValue != accessibility?.isElement else { return }
            accessibilityStorage.isElement = newValue
            // Counted in "3 of 6" or not: the focus system's positions are found again.
            focusPropertiesDidChange(.focusability)
        }
    }
    /// The language of the node's label and value, as a BCP 47 tag (`de`), when it differs from the
    /// app's. `nil` by default.
    open var accessibilityLanguage: String? {
        get { accessibility?.language }
        set { accessibilityStorage.language = newValue }
    }

    /// Whether the node is the focused item of its window's focus system.
    public var isFocused: Bool {
        guard let focusSystem = window?.focusSystem else { return false }
        return focusSystem.isFocused(self)
    }

    /// What the node draws and how it shows its states, made when the first is set.
    @exclusivity(unchecked) final var display: DisplayStorage?
    final var displayStorage: DisplayStorage {
        if let display { return display }
        let made = DisplayStorage()
        display = made
        return made
    }

    /// Draws the node on a screen (UIKit's `draw(_:)`, Qt's `paintEvent`), in its ``frame`` (the
    /// window's coordinate space, in points), from its state. Called whenever the part of the
    /// screen it covers is redrawn: after ``setNeedsDisplay()``, a change of its frame, its
    /// visibility or its state, or of something drawn under or over it. Drawing is clipped to what
    /// is being redrawn.
    ///
    /// The default fills the frame with ``backgroundColor`` (rounded by ``cornerRadius``), if
    /// any. The system draws the ``focusEffect`` afterwards; the node's children are drawn after
    /// it, over it.
    ///
    /// - Parameters:
    ///   - context: Where to draw.
    ///   - state: Focused, pressed, disabled, selected and the rest.
    open func draw(in context: any GraphicsContext, state: DrawingState) {
        guard let background = display?.backgroundColor else { return }
        context.fill(.roundedRect(frame, cornerRadius: display?.cornerRadius ?? 0), background)
    }

    /// How the system shows that this node has focus: ``FocusEffect/automatic`` (the window's
    /// ring) by default; ``FocusEffect/none`` when the node draws focus itself.
    open var focusEffect: FocusEffect {
        get { display?.focusEffect ?? .automatic }
        set {
            displayStorage.focusEffect = newValue
            setNeedsDisplay()
        }
    }

    /// Creates a node.
    ///
    /// - Parameters:
    ///   - identifier: The node's name, used by traces, the focus debugger and preferred-focus lookups.
    ///   - frame: The frame in the window's coordinate space.
    ///   - isFocusable: Whether the node can be focused.
    public init(identifier: String? = nil, frame: Rect = .zero, isFocusable: Bool = false) {
        focusProperties = FocusProperties(frame: frame, isFocusable: isFocusable)
        super.init(identifier: identifier)
    }

    @usableFromInline func focusPropertiesDidChange(_ changes: FocusLayoutChanges) {
        guard let window else { return }
        if let focusSystem = window.focusSystem {
            focusSystem.invalidateLayout(of: self, changes: changes)
        } else {
            window.focusLayoutDidChange()
        }
    }

    // MARK: FocusEnvironment

    /// The parent, when it is a focus environment.
    public var parentFocusEnvironment: (any FocusEnvironment)? {
        guard let parent else { return nil }
        // A class cast is far cheaper than a protocol-conformance lookup, and parents are usually nodes.
        if let node = parent as? FocusNode { return node }
        return parent.asFocusEnvironment
    }

    /// The children that are focus environments.
    open var childFocusEnvironments: [any FocusEnvironment] {
        // A loop, not `compactMap`: a closure formed on the main actor checks the executor at
        // every call, and snapshots ask every node.
        var result: [any FocusEnvironment] = []
        result.reserveCapacity(children.count)
        for child in children {
            if let node = child as? FocusNode {
                result.append(node)
            } else if let environment = child.asFocusEnvironment {
                result.append(environment)
            }
        }
        return result
    }

    /// The nodes named by ``preferredFocusIdentifiers``, found in this node's window.
    open var preferredFocusEnvironments: [any FocusEnvironment] {
        guard !preferredFocusIdentifiers.isEmpty, let root = window else { return [] }
        return preferredFocusIdentifiers.compactMap { identifier in
            Self.find(identifier, in: root) as? any FocusEnvironment
        }
    }

    private static func find(_ identifier: String, in node: Responder) -> Responder? {
        if node.identifier == identifier { return node }
        for child in node.children {
            if let found = find(identifier, in: child) { return found }
        }
        return nil
    }

    /// ``frame``.
    public var focusFrame: Rect { frame }
    /// ``isHidden``.
    public var isHiddenFromFocus: Bool { isHidden }
    /// ``Responder/traceName``.
    public var focusDebugName: String { traceName }

    /// `true`. Override to veto focus updates.
    open func shouldUpdateFocus(in context: FocusUpdateContext) -> Bool { true }
    /// Does nothing. Override to react to focus updates.
    open func didUpdateFocus(in context: FocusUpdateContext) {}

    // MARK: FocusItem

    /// ``isFocusable`` and ``isEnabled``.
    public var canBecomeFocused: Bool { focusProperties.isFocusable && focusProperties.isEnabled }

    // MARK: Responder

    /// ``acceptsFirstResponder``.
    open override var canBecomeFirstResponder: Bool { acceptsFirstResponder }

    /// Whether the action is in ``performableActions``.
    open override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool {
        performableActions.contains(action)
    }

    /// Calls ``onAction``.
    open override func perform(_ action: Action, sender: ActionSender) {
        onAction?(action, sender)
    }

    /// Takes the press when its key is in ``handledKeys`` (calling ``onPress``); passes it on otherwise.
    open override func pressesBegan(_ press: Press, with event: PressEvent) {
        if !handledKeyCodes.isEmpty && handledKeyCodes.contains(press.key.logicalKeyCode) {
            onPress?(press)
        } else {
            super.pressesBegan(press, with: event)
        }
    }
}

/// A ``FocusNode``'s focus properties, stored together.
@usableFromInline
struct FocusProperties {
    @usableFromInline var frame: Rect
    var isHidden = false
    var isFocusable: Bool
    var interactions: FocusInteractions = .automatic
    var groupIdentifier: String?
    var groupKind: FocusGroupKind = .none
    var priority: FocusGroupPriority = .ignored
    var traversalOrder: Double?
    var role: FocusRole = .plain
    var direction: LayoutDirection?
    var selectionFollowsFocus: Bool?
    var acceptsFirstResponder = false
    var isEnabled = true

    init(frame: Rect, isFocusable: Bool) {
        self.frame = frame
        self.isFocusable = isFocusable
    }
}
