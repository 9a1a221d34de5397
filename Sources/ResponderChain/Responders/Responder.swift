/// An object that can take part in the responder chain: receive presses, declare key commands,
/// perform actions, and become first responder.
///
/// Responders form a tree: ``addChild(_:)`` and ``removeFromParent()`` build it, and a
/// responder's ``nextResponder`` is its parent. The root of a tree that takes keyboard input is a
/// ``Window``; a responder is *in the tree* while its ancestors reach a window.
///
/// `Responder` is an open class in the UIKit manner: override ``canBecomeFirstResponder``,
/// ``canPerformAction(_:sender:)``, ``perform(_:sender:)`` and the press methods, and call
/// `super` for presses you do not handle.
///
/// Responders are isolated to the main actor, as UIKit's are: a tree is built and used on the
/// main thread, and an app's own `@MainActor` subclasses, state and tasks share that isolation (see
/// <doc:DispatchOrder>).
@MainActor
open class Responder {
    /// A name for traces, reports and the focus debugger; the type name is used when `nil`.
    public var identifier: String?

    /// The heading a help overlay shows over the key commands this responder declares (see
    /// ``Dispatcher/discoverableKeyCommands()``), as a UIKit menu's title heads its commands:
    /// "Search", "Payment". When `nil`, the overlay falls back to ``traceName``, which is meant
    /// for developers, not for the people using the app.
    public var discoverabilityTitle: String?

    // The back-links are unretained (see UnownedRef for why not weak). They never outlive their
    // target: a responder clears its children's parent link in deinit, a window clears its
    // subtree's window link in deinit, and removal clears both. They are read once per responder
    // on every key, so they skip the dynamic exclusivity check: every access is a single load or
    // store ("Unbound key through a 50-ancestor chain", see Benchmarks/README.md).
    @exclusivity(unchecked) private var parentLink: UnownedRef<Responder>?
    @exclusivity(unchecked) private var windowLink: UnownedRef<Window>?

    /// The parent in the responder tree.
    public final var parent: Responder? { parentLink?.target }

    /// The children, in the order they were added.
    public private(set) var children: [Responder] = []

    /// The window this responder is in, or `nil` while it is not in a window's tree.
    public final var window: Window? {
        // A window's link is to itself: answered without following it, so that a window's own
        // deinit may still ask (a debug build's check sees a deinitializing target as gone).
        if let windowLink, windowLink.refers(to: self) { return unsafeDowncast(self, to: Window.self) }
        return windowLink?.target
    }

    /// Whether this responder is in `window`'s tree, compared by identity without a retain.
    @inline(__always)
    final func isIn(_ window: Window) -> Bool {
        windowLink?.refers(to: window) ?? false
    }

    /// The parent link, unretained, for the dispatcher's walk up the chain.
    @inline(__always)
    final var unretainedParent: UnownedRef<Responder>? { parentLink }

    /// Calls `body` with the parent, borrowed rather than retained: the tree keeps it alive.
    @inline(__always)
    final func withParent<T>(_ body: (Responder) -> T?) -> T? {
        guard let parentLink else { return nil }
        return parentLink.withTarget(body)
    }

    /// Which of the framework's protocols this responder's type adopts, settled on first use
    /// (bit 0: known, bit 1: `FocusEnvironment`, bit 2: `TextInputResponder`). A cast to a
    /// protocol costs a conformance lookup and, for main-actor conformances, an executor check on
    /// every call (about 700 instructions); focus moves ask several times per key.
    private var adoptedProtocols: UInt8 = 0

    private var settledProtocols: UInt8 {
        if adoptedProtocols == 0 {
            var bits: UInt8 = 1
            if self is any FocusEnvironment { bits |= 2 }
            if self is any TextInputResponder { bits |= 4 }
            adoptedProtocols = bits
        }
        return adoptedProtocols
    }

    /// This responder as a focus environment, when its type is one.
    final var asFocusEnvironment: (any FocusEnvironment)? {
        settledProtocols & 2 == 0 ? nil : self as? any FocusEnvironment
    }

    /// This responder as a text-input responder, when its type is one.
    final var asTextInputResponder: (any TextInputResponder)? {
        settledProtocols & 4 == 0 ? nil : self as? any TextInputResponder
    }

    /// Called with `true` when this responder becomes first responder and `false` when it stops
    /// being it: a renderer redraws what shows the first responder. Costs nothing when unset.
    public final var onFirstResponderChange: ((Bool) -> Void)?

    /// The handlers added with ``onKeyPress(phases:action:)`` and its relatives.
    // Read by every responder a press walks past (an emptiness test): the dynamic exclusivity
    // check cost the walk 30% ("Unbound key through a 50-ancestor chain": 2.65 → 3.45 µs). Every
    // access is a single load or an append outside the walk.
    @exclusivity(unchecked) final var keyPressHandlers: [KeyPressHandler] = []

    /// The key commands this responder declares.
    ///
    /// They are active while this responder is in the chain from the focused item (or first
    /// responder) up to the window. Changing the list takes effect at the next key.
    public final var keyCommands: [KeyCommand] {
        get { declaredKeyCommands }
        set {
            declaredKeyCommands = newValue
            window?.responderChainDidChange()
        }
        // An in-place change (append, removeAll(where:), sort) works on the list moved out of
        // the field, so no access to the field lasts while the caller's code runs: code that
        // reads the commands meanwhile (the key-command index, through `isSecureEntry`) sees
        // the list as it was, empty, never half-changed.
        _modify {
            var commands = declaredKeyCommands
            declaredKeyCommands = []
            defer {
                declaredKeyCommands = commands
                window?.responderChainDidChange()
            }
            yield &commands
        }
    }

    // Read at every level of the chain each time focus moves (does the new chain have the same
    // declarers?): a single load, no dynamic exclusivity check. Only `keyCommands` writes it,
    // with single stores.
    @exclusivity(unchecked) final var declaredKeyCommands: [KeyCommand] = []

    /// Creates a responder that is not yet in a tree.
    ///
    /// - Parameter identifier: A name for traces.
    public init(identifier: String? = nil) {
        self.identifier = identifier
    }

    isolated deinit {
        for child in children { child.parentLink = nil }
    }

    /// The next responder in the chain: the parent.
    public final var nextResponder: Responder? { parent }

    /// The name traces use: ``identifier``, else the type name.
    public final var traceName: String {
        identifier ?? String(describing: type(of: self))
    }

    // MARK: First responder

    /// Whether this responder may become first responder. `false` by default.
    open var canBecomeFirstResponder: Bool { false }

    /// Whether this responder lets another take over as first responder. `true` by default.
    open var canResignFirstResponder: Bool { true }

    /// Whether this responder is its window's first responder.
    public final var isFirstResponder: Bool {
        window?.firstResponder === self
    }

    /// Asks to become the window's first responder.
    ///
    /// Succeeds when this responder is in a window, ``canBecomeFirstResponder`` is `true`, and the
    /// current first responder (if any) agrees to resign. Key commands and presses then start
    /// from this responder.
    ///
    /// - Returns: Whether this responder is first responder afterwards.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard let window else { return false }
        if window.firstResponder === self { return true }
        guard canBecomeFirstResponder else { return false }
        if let current = window.firstResponder {
            // The window reports one change, current -> self, not current -> none -> self.
            window.isTransferringFirstResponder = true
            defer { window.isTransferringFirstResponder = false }
            guard current.canResignFirstResponder, current.resignFirstResponder() else { return false }
        }
        window.setFirstResponder(self)
        return true
    }

    /// Gives up first-responder status.
    ///
    /// - Returns: `false` when ``canResignFirstResponder`` is `false`; otherwise `true`, and the
    ///   window then has no first responder.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard canResignFirstResponder else { return false }
        if let window, window.firstResponder === self, !window.isTransferringFirstResponder {
            window.setFirstResponder(nil)
        }
        return true
    }

    // MARK: Actions

    /// Whether this responder performs an action now. `false` by default.
    ///
    /// Return `true` only for actions you implement in ``perform(_:sender:)`` and that make sense
    /// in the current state; key commands whose action nobody can perform do not take their key.
    /// This is a question: it must not change the responder tree (the dispatcher walks the chain
    /// while asking it).
    ///
    /// - Parameters:
    ///   - action: The action.
    ///   - sender: Who sends it.
    /// - Returns: Whether ``perform(_:sender:)`` would handle it.
    open func canPerformAction(_ action: Action, sender: ActionSender) -> Bool { false }

    /// Performs an action this responder said it can perform. Does nothing by default.
    ///
    /// - Parameters:
    ///   - action: The action.
    ///   - sender: Who sent it.
    open func perform(_ action: Action, sender: ActionSender) {}

    /// The responder that will perform an action: this one if it can, else the first responder
    /// up the chain that can.
    ///
    /// - Parameters:
    ///   - action: The action.
    ///   - sender: Who sends it.
    /// - Returns: The target, or `nil` when no responder up the chain can perform it.
    open func target(forAction action: Action, sender: ActionSender) -> Responder? {
        if canPerformAction(action, sender: sender) { return self }
        // The next responder is kept alive by the tree for the whole call, so the walk borrows it
        // instead of retaining it at every level.
        return withParent { $0.target(forAction: action, sender: sender) }
    }

    // MARK: Presses

    /// A key went down while this responder was in the chain.
    ///
    /// The default runs this responder's key-press handlers (``onKeyPress(phases:action:)``) and,
    /// unless one handled the press, passes it to the next responder. Override to handle presses;
    /// call `super` for presses you do not handle, exactly as in UIKit. The responder that returns
    /// without calling `super` takes the press.
    ///
    /// Every responder that receives `began` later receives exactly one
    /// ``pressesEnded(_:with:)`` or ``pressesCancelled(_:with:)`` for that press (and
    /// ``pressesChanged(_:with:)`` in between), whatever happens to focus or the first responder
    /// meanwhile.
    ///
    /// - Parameters:
    ///   - press: The press, in phase ``Press/Phase/began``.
    ///   - event: The event being dispatched; valid only during this call.
    open func pressesBegan(_ press: Press, with event: PressEvent) {
        if !keyPressHandlers.isEmpty, runKeyPressHandlers(press, phase: .down) { return }
        event.passToNextResponder(from: self)
    }

    /// A press this responder received `began` for auto-repeated (``Press/Phase/repeated``) or
    /// its modifiers changed (``Press/Phase/changed``).
    ///
    /// The dispatcher delivers `repeat`, `changed`, `ended` and `cancelled` itself to every
    /// responder that received `began`, nearest first, so the defaults only run the key-press
    /// handlers for `repeat` and `up`; calling `super` is not needed for delivery.
    ///
    /// - Parameters:
    ///   - press: The press, in phase ``Press/Phase/repeated`` or ``Press/Phase/changed``.
    ///   - event: The event being dispatched.
    open func pressesChanged(_ press: Press, with event: PressEvent) {
        if press.phase == .repeated, !keyPressHandlers.isEmpty { _ = runKeyPressHandlers(press, phase: .repeat) }
    }

    /// A press this responder received `began` for came up.
    ///
    /// - Parameters:
    ///   - press: The press, in phase ``Press/Phase/ended``.
    ///   - event: The event being dispatched.
    open func pressesEnded(_ press: Press, with event: PressEvent) {
        if !keyPressHandlers.isEmpty { _ = runKeyPressHandlers(press, phase: .up) }
    }

    /// A press this responder received `began` for was cancelled.
    ///
    /// - Parameters:
    ///   - press: The press, in phase ``Press/Phase/cancelled``.
    ///   - event: The event being dispatched.
    open func pressesCancelled(_ press: Press, with event: PressEvent) {}

    // MARK: Tree

    /// Adds a child at the end of ``children``.
    ///
    /// A responder has one parent: adding a responder that has one moves it. A move inside the
    /// same window keeps its first-responder status and its presses.
    ///
    /// - Parameter child: The responder to add. It must not be a ``Window`` or an ancestor of this responder.
    public final func addChild(_ child: Responder) {
        insertChild(child, at: children.count)
    }

    /// Inserts a child at a position in ``children``.
    ///
    /// - Parameters:
    ///   - child: The responder to add. It must not be a ``Window`` or an ancestor of this responder.
    ///   - index: The position, `0...children.count`.
    public final func insertChild(_ child: Responder, at index: Int) {
        precondition(!(child is Window), "a Window is always a root: it cannot be added as a child")
        var ancestor: Responder? = self
        while let current = ancestor {
            precondition(current !== child, "adding \(child.traceName) under \(traceName) would make a cycle")
            ancestor = current.parent
        }
        if let oldParent = child.parent {
            oldParent.children.removeAll { $0 === child }
            child.parentLink = nil
        }
        children.insert(child, at: min(index, children.count))
        child.parentLink = UnownedRef(self)
        // A move inside one window keeps first-responder status and presses; a move out of a
        // window is a removal from it.
        let oldWindow = child.window
        if oldWindow !== window {
            child.setWindow(window)
            oldWindow?.subtreeDidLeave(child)
        }
        oldWindow?.responderChainDidChange()
        oldWindow?.focusLayoutDidChange()
        if window !== oldWindow {
            window?.responderChainDidChange()
            window?.focusLayoutDidChange()
        }
    }

    /// Removes this responder (and its subtree) from its parent.
    ///
    /// If the subtree held the first responder, the window is left without one; presses delivered
    /// to responders in the subtree are cancelled (see <doc:DispatchOrder>).
    public final func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        parentLink = nil
        if let window {
            setWindow(nil)
            window.subtreeDidLeave(self)
        }
    }

    final func setWindow(_ newWindow: Window?) {
        windowLink = newWindow.map(UnownedRef.init)
        for child in children { child.setWindow(newWindow) }
    }

    // MARK: Invariants

    /// Checks the tree's links: every child's parent is this responder, no responder appears twice,
    /// every responder's window is its root's window. Used by tests.
    package func checkTreeInvariants() {
        var seen: Set<ObjectIdentifier> = []
        func visit(_ node: Responder, expectedWindow: Window?) {
            precondition(seen.insert(ObjectIdentifier(node)).inserted, "\(node.traceName) appears twice in the tree")
            precondition(node.window === expectedWindow, "\(node.traceName) has the wrong window")
            for child in node.children {
                precondition(child.parent === node, "\(child.traceName)'s parent is not \(node.traceName)")
                visit(child, expectedWindow: expectedWindow)
            }
        }
        var root = self
        while let parent = root.parent { root = parent }
        visit(root, expectedWindow: root as? Window)
    }
}

extension Responder: @MainActor CustomStringConvertible {
    /// The ``traceName``.
    public var description: String { traceName }
}
