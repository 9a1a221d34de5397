/// The focus system of one window: which item has focus, how Tab, Shift-Tab, arrows and select
/// move it, and how it stays in step with the first responder. UIKit's `UIFocusSystem` as of
/// iPadOS 15; the exact rules are in <doc:FocusRules>.
///
/// Install it as the dispatcher's system behaviour; its keys then beat app key commands unless a
/// command wants priority:
/// ```swift
/// let focus = FocusSystem(window: window, root: rootNode)
/// dispatcher.systemKeyHandler = focus
/// focus.updateFocusIfNeeded()   // initial focus from the preferred environments
/// ```
@MainActor
public final class FocusSystem {
    /// How arrows navigate.
    public enum NavigationStyle: String, Hashable, Sendable {
        /// iPad keyboard style: Tab and Shift-Tab move between focus groups, arrows move inside the
        /// current group.
        case keyboard
        /// Remote-control and D-pad style (tvOS): arrows move across the whole screen, Tab is not used.
        case directional
    }

    /// The window this system serves.
    public let window: Window
    /// The root of the focus tree.
    public let root: any FocusEnvironment
    /// How arrows navigate. ``NavigationStyle/keyboard`` by default.
    @exclusivity(unchecked) public var navigationStyle: NavigationStyle = .keyboard
    /// The keys that select the focused item: Return, keypad Enter and a remote control's OK and
    /// Select keys by default (and so a gamepad's A button, which acts as Select:
    /// ``KeyCode/gamepadRole``); add Space as the app needs. Keys are matched on
    /// ``Key/logicalKeyCode``, without Control, Alt, Shift or Command.
    public var selectKeys: Set<KeyCode> = FocusSystem.defaultSelectKeys {
        didSet { selectKeyCodes = KeyCodeSet(selectKeys) }
    }
    nonisolated static let defaultSelectKeys: Set<KeyCode> = [.return, .keypadEnter, .ok, .select]
    /// ``selectKeys`` as every key-down asks it: searched in place instead of hashed.
    @exclusivity(unchecked) var selectKeyCodes = KeyCodeSet(FocusSystem.defaultSelectKeys)
    /// Whether items reached only by activation (buttons) are focusable by keyboard. On by
    /// default, as a kiosk has no pointer.
    public var fullKeyboardAccess = true {
        didSet { snapshot.generation = .max }
    }

    /// The focused item, or `nil` when nothing has focus.
    @exclusivity(unchecked) public private(set) var focusedItem: (any FocusItem)?

    @exclusivity(unchecked) var snapshot = FocusSnapshot()
    /// Changes reported since the snapshot was made, to apply in place at the next refresh.
    var pendingChanges: [(environment: any FocusEnvironment, changes: FocusLayoutChanges)] = []
    /// The layout generation after the last change in `pendingChanges`.
    var pendingGeneration: UInt64 = .max
    /// The grids arrow searches use, for the snapshot's geometry.
    var arrowIndex = ArrowIndex()
    /// The last item looked up in the snapshot (see `index(of:)`).
    @exclusivity(unchecked) var lastLookup: (identity: ObjectIdentifier?, generation: UInt64, index: Int) = (
        nil, .max, 0
    )
    /// Reused by every focus update (the environments asked and told), so a move allocates nothing.
    var involvedBuffer: [any FocusEnvironment] = []
    /// The item last focused in each group, by group identifier.
    @exclusivity(unchecked) var remembered: [String: ObjectIdentifier] = [:]
    @exclusivity(unchecked) var pendingRequest: (any FocusEnvironment)?
    var isSyncingFirstResponder = false
    @exclusivity(unchecked) var isUpdating = false
    @exclusivity(unchecked) var needsValidation = false
    /// The focused item and its ancestors at the time it was focused, nearest first: for finding
    /// a sensible place when it disappears, and, while the layout generation is still
    /// `focusedChainGeneration`, for every walk up from the focused item (one walk per update
    /// instead of six).
    @exclusivity(unchecked) var focusedChain: [any FocusEnvironment] = []
    @exclusivity(unchecked) var focusedChainGeneration: UInt64 = .max
    /// The chain being built for the next update (swapped with `focusedChain`, so neither allocates).
    var spareChain: [any FocusEnvironment] = []

    /// The focused item's ancestors at the time it was focused, nearest first.
    var focusedAncestors: ArraySlice<any FocusEnvironment> { focusedChain.dropFirst() }

    /// Whether `focusedChain` still describes the tree.
    var focusedChainIsCurrent: Bool { focusedChainGeneration == window.layoutGeneration && !focusedChain.isEmpty }
    /// The focused item's group when it was focused (it may have left the tree since).
    @exclusivity(unchecked) var focusedGroup: FocusGroupName?
    @exclusivity(unchecked) var observers: [(id: UInt64, body: (FocusUpdateContext) -> Void)] = []
    var nextObserverID: UInt64 = 1
    /// ``addActivationObserver(_:)``'s subscribers.
    var activationObservers: [(id: UInt64, body: (any FocusItem) -> Void)] = []
    /// A modal scope was presented or dismissed during a focus update: `.screenChanged` is posted
    /// when it ends.
    var screenChangePending = false
    /// ``accessibilityPosition(of:)``'s groups, sorted for the current snapshot.
    var accessibilityOrder = AccessibilityOrder()
    /// The modal scopes presented, innermost last, each with the item focused before it.
    var modalScopes: [(scope: any FocusEnvironment, previous: (any FocusItem)?)] = []

    /// Where focus lives now: the innermost modal scope, else the root.
    var effectiveRoot: any FocusEnvironment { modalScopes.last?.scope ?? root }

    /// Creates the focus system for a window.
    ///
    /// - Parameters:
    ///   - window: The window; focus moves make first responders in it.
    ///   - root: The root of the focus tree, usually a ``FocusNode`` under the window.
    public init(window: Window, root: any FocusEnvironment) {
        self.window = window
        self.root = root
        window.focusSystem = self
    }

    // MARK: Snapshot

    /// Brings the snapshot up to date: in place when every layout change since it was made came
    /// through ``invalidateLayout(of:changes:)`` as a frame, visibility or focusability change
    /// the snapshot can apply, else by a rebuild.
    func refreshSnapshot() {
        let generation = window.layoutGeneration
        guard snapshot.generation != generation else { return }
        defer { pendingChanges.removeAll(keepingCapacity: true) }
        if !pendingChanges.isEmpty && pendingGeneration == generation && snapshot.generation != .max {
            var applied = true
            for (environment, changes) in pendingChanges
            where !snapshot.apply(changes, to: environment, fullKeyboardAccess: fullKeyboardAccess) {
                applied = false
                break
            }
            if applied {
                snapshot.rebuildStops()
                snapshot.generation = generation
                return
            }
        }
        let epoch = snapshot.geometryEpoch
        let sizeHint = (snapshot.environments.count, snapshot.items.count, snapshot.groups.count)
        snapshot = FocusSnapshot()  // let the old one go before the new one is built
        var fresh = FocusSnapshot(
            root: effectiveRoot, rootDirection: window.layoutDirection, fullKeyboardAccess: fullKeyboardAccess,
            sizeHint: sizeHint)
        fresh.generation = generation
        fresh.geometryEpoch = epoch &+ 1
        snapshot = fresh
        // Indices of the old snapshot mean nothing in the new one (a modal scope numbers its
        // items from the scope), even when the layout generation did not move.
        lastLookup = (nil, .max, 0)
    }

    /// An item's index in the snapshot (which must be up to date), or `nil` when it is not in it.
    /// The last answer is kept: a Tab looks up the focused item, which the update before looked
    /// up as the next one.
    func index(of item: any FocusItem) -> Int? {
        let identity = ObjectIdentifier(item)
        if lastLookup.identity == identity && lastLookup.generation == snapshot.generation {
            return lastLookup.index
        }
        guard let index = snapshot.itemIndex[identity] else { return nil }
        lastLookup = (identity, snapshot.generation, index)
        return index
    }

    /// The snapshot, up to date (a copy: for the debugger and other cold paths).
    func currentSnapshot() -> FocusSnapshot {
        refreshSnapshot()
        return snapshot
    }

    /// The focus group of an item: its identifier, or `nil` when the item is not focusable now.
    ///
    /// - Parameter item: The item.
    /// - Returns: The group identifier.
    public func focusGroup(of item: any FocusItem) -> String? {
        let snapshot = currentSnapshot()
        guard let index = snapshot.itemIndex[ObjectIdentifier(item)], snapshot.items[index].isFocusable else {
            return nil
        }
        return snapshot.identifier(of: snapshot.items[index].group)
    }

    /// Whether an item can be focused now, and if not, why.
    ///
    /// - Parameter item: The item.
    /// - Returns: The reason; ``Focusability/notFocusable`` for an item outside the focus tree.
    public func focusability(of item: any FocusItem) -> Focusability {
        let snapshot = currentSnapshot()
        guard let index = snapshot.itemIndex[ObjectIdentifier(item)] else { return .notFocusable }
        return snapshot.items[index].focusability
    }

    /// The tab loop: each stop's primary item, in the order Tab visits them.
    public var tabLoop: [any FocusItem] {
        let snapshot = currentSnapshot()
        return snapshot.tabStops.compactMap { primaryItem(of: $0).map { snapshot.items[$0].item } }
    }

    // MARK: Observing

    /// Subscribes to focus updates: `body` is called after every update, with its context.
    ///
    /// - Parameter body: Called on the window's thread.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ body: @escaping (FocusUpdateContext) -> Void) -> UInt64 {
        let id = nextObserverID
        nextObserverID += 1
        observers.append((id, body))
        return id
    }

    /// Ends a subscription.
    ///
    /// - Parameter token: What ``addObserver(_:)`` or ``addActivationObserver(_:)`` returned.
    public func removeObserver(_ token: UInt64) {
        // Taken out, then dropped after the array's access has ended: the closure may own an
        // object whose deinit removes another observer (the field skips the exclusivity check).
        if let position = observers.firstIndex(where: { $0.id == token }) {
            let removed = observers.remove(at: position)
            withExtendedLifetime(removed) {}
        } else if let position = activationObservers.firstIndex(where: { $0.id == token }) {
            let removed = activationObservers.remove(at: position)
            withExtendedLifetime(removed) {}
        }
    }

    /// Subscribes to activations by a finger or a click (``activate(at:)``): `body` is called
    /// with the item after it acted, also when it was focused already (a tap on the text field
    /// that is first responder brings its on-screen keyboard back, as in UIKit).
    ///
    /// - Parameter body: Called on the window's thread.
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public func addActivationObserver(_ body: @escaping (any FocusItem) -> Void) -> UInt64 {
        let id = nextObserverID
        nextObserverID += 1
        activationObservers.append((id, body))
        return id
    }

    // MARK: Modal scopes

    /// The innermost modal scope presented, if any.
    public var modalScope: (any FocusEnvironment)? { modalScopes.last?.scope }

    /// Traps focus inside `scope` (a dialog, a menu) until ``dismissModal(_:)``: Tab loops and
    /// the arrows search inside it only, and focus moves now to its preferred item. The item
    /// focused before is remembered and gets focus back on dismissal. Scopes nest. Accessibility
    /// observers are told afterwards (``AccessibilityNotification/screenChanged``).
    ///
    /// Escape typed inside reaches the scope's ``Responder/onExitCommand(perform:)`` as it goes up
    /// the chain (when the scope is a responder), where the app dismisses it. Key commands of
    /// responders outside the scope stay active, as in UIKit, when they are on the chain.
    ///
    /// - Parameter scope: The scope; it must be in the focus tree.
    public func presentModal(_ scope: any FocusEnvironment) {
        modalScopes.append((scope, focusedItem))
        snapshot.generation = .max
        if isUpdating {
            // Inside a focus update (an item's onFocusChange presents a keypad): the move into the
            // scope, and the notification, wait for the update to end.
            setNeedsFocusUpdate(on: scope)
            screenChangePending = true
            return
        }
        if let target = preferredItem(in: scope) {
            performUpdate(to: target, heading: .none, cause: .request)
        } else {
            clearFocus()
        }
        window.postAccessibilityNotification(.screenChanged)
    }

    /// Ends a modal scope (and any presented inside it), and gives focus back to the item
    /// focused before it was presented, when that item can still be focused; else to the
    /// preferred item of the scope (or root) that is now innermost.
    ///
    /// - Parameter scope: A scope given to ``presentModal(_:)``; others are ignored.
    public func dismissModal(_ scope: any FocusEnvironment) {
        guard let index = modalScopes.lastIndex(where: { ObjectIdentifier($0.scope) == ObjectIdentifier(scope) })
        else { return }
        let previous = modalScopes[index].previous
        modalScopes.removeSubrange(index...)
        snapshot.generation = .max
        let target: (any FocusItem)?
        if let previous, focusability(of: previous) == .focusable {
            target = previous
        } else {
            target = preferredItem(in: effectiveRoot)
        }
        if isUpdating {
            // Inside a focus update: the move back, and the notification, wait for it to end.
            if let target { setNeedsFocusUpdate(on: target) }
            screenChangePending = true
            return
        }
        performUpdate(to: target, heading: .none, cause: .request)
        window.postAccessibilityNotification(.screenChanged)
    }

    /// Calls ``FocusNode/onReveal`` on the focused item's ancestors that have it, nearest first.
    func requestReveal(of item: any FocusItem) {
        if focusedChainIsCurrent && focusedChain[0] === item {
            for current in focusedChain.dropFirst() {
                if let node = current as? FocusNode, let reveal = node.onReveal { reveal(item) }
            }
            return
        }
        var ancestor = item.parentFocusEnvironment
        while let current = ancestor {
            if let node = current as? FocusNode, let reveal = node.onReveal { reveal(item) }
            ancestor = current.parentFocusEnvironment
        }
    }

    // MARK: Invalidation

    /// Tells the focus system that an environment's frame, visibility, focusability or children
    /// changed: the next focus decision sees the new layout, and at the next key or
    /// ``updateFocusIfNeeded()`` focus leaves the focused item if it can no longer be focused.
    /// ``FocusNode`` calls this itself when its properties change; an app's own ``FocusItem``
    /// adopters call it (UIKit's focus system watches its views). Cheap: nothing is rebuilt until
    /// focus is next needed, so a batch of changes costs one update.
    ///
    /// Say what changed when you know: a frame, visibility or focusability change of an item is
    /// applied in place (the tab loop and the arrow index are updated, not rebuilt); anything
    /// else, or ``FocusLayoutChanges/all``, rebuilds them.
    ///
    /// - Parameters:
    ///   - environment: What changed.
    ///   - changes: What kind of change.
    public func invalidateLayout(of environment: any FocusEnvironment, changes: FocusLayoutChanges) {
        let base = pendingChanges.isEmpty ? snapshot.generation : pendingGeneration
        let chained =
            base == window.layoutGeneration && snapshot.generation != .max && !changes.contains(.structure)
            && pendingChanges.count < Self.pendingChangeLimit
        window.focusLayoutDidChange()
        if chained {
            pendingChanges.append((environment, changes))
            pendingGeneration = window.layoutGeneration
        } else {
            pendingChanges.removeAll(keepingCapacity: true)
        }
        needsValidation = true
    }

    /// Tells the focus system that anything about an environment may have changed: the same as
    /// ``invalidateLayout(of:changes:)`` with ``FocusLayoutChanges/all``.
    ///
    /// - Parameter environment: What changed.
    public func invalidateLayout(of environment: any FocusEnvironment) {
        invalidateLayout(of: environment, changes: .all)
    }

    /// More changes than this between two focus decisions rebuild the snapshot instead.
    static let pendingChangeLimit = 256

    /// The focus system of the window an environment is in: found through the nearest
    /// ``Responder`` at or above it. UIKit's `UIFocusSystem.focusSystem(for:)`.
    ///
    /// - Parameter environment: The environment.
    /// - Returns: The focus system, or `nil` when the environment is in no window that has one.
    public static func focusSystem(for environment: any FocusEnvironment) -> FocusSystem? {
        var current: (any FocusEnvironment)? = environment
        while let candidate = current {
            if let responder = candidate as? Responder { return responder.window?.focusSystem }
            current = candidate.parentFocusEnvironment
        }
        return nil
    }

    /// Whether an item is the focused item.
    ///
    /// - Parameter item: The item.
    /// - Returns: `true` when focus is on it.
    public func isFocused(_ item: any FocusItem) -> Bool {
        focusedItem.map { ObjectIdentifier($0) == ObjectIdentifier(item) } ?? false
    }

    // MARK: Requests

    /// Asks for focus to move into an environment at the next ``updateFocusIfNeeded()``.
    ///
    /// When requests pile up, the outermost one wins: a request on an ancestor of a pending
    /// request replaces it; a request inside a pending one is ignored.
    ///
    /// - Parameter environment: Where focus should go; it resolves through its preferred focus environments.
    public func setNeedsFocusUpdate(on environment: any FocusEnvironment) {
        if let pending = pendingRequest, isAncestor(pending, of: environment) { return }
        pendingRequest = environment
    }

    /// Carries out a pending request, or gives initial focus when nothing has focus, and moves
    /// focus away from an item that disappeared.
    ///
    /// When nothing in the window can take focus and there is no first responder, the root
    /// becomes first responder if it can, so that its key commands and presses work.
    public func updateFocusIfNeeded() {
        // Inside shouldUpdateFocus or didUpdateFocus: the request waits for the current update.
        guard !isUpdating else { return }
        validateFocus()
        if let request = pendingRequest {
            pendingRequest = nil
            if let target = preferredItem(in: request) {
                performUpdate(to: target, heading: .none, cause: .request)
            }
        } else if focusedItem == nil {
            if let target = preferredItem(in: effectiveRoot) {
                performUpdate(to: target, heading: .none, cause: .request)
            } else if window.firstResponder == nil, let responder = root as? Responder, responder.window === window,
                responder.canBecomeFirstResponder
            {
                // Nothing can take focus: the root takes the keys, as UIKit's key window hands
                // them to its root view controller, so its key commands and presses still work.
                responder.becomeFirstResponder()
            }
        }
    }

    /// Moves focus into an environment now.
    ///
    /// - Parameter environment: Where focus should go.
    /// - Returns: Whether focus is inside the environment afterwards.
    @discardableResult
    public func requestFocus(on environment: any FocusEnvironment) -> Bool {
        setNeedsFocusUpdate(on: environment)
        updateFocusIfNeeded()
        guard let focusedItem else { return false }
        return isAncestor(environment, of: focusedItem)
    }

    /// Removes focus from the window: nothing is focused afterwards (unless an environment vetoes).
    ///
    /// - Returns: Whether focus was removed.
    @discardableResult
    public func clearFocus() -> Bool {
        guard focusedItem != nil else { return true }
        return performUpdate(to: nil, heading: .none, cause: .request)
    }

    // MARK: Resolution

    /// The item focus goes to when it moves into an environment: the environment itself when it
    /// is a focusable item; else the first preferred environment that resolves; else the first
    /// tab stop inside it, whose primary item is taken; else nothing.
    ///
    /// - Parameter environment: The environment.
    /// - Returns: The item, or `nil` when nothing inside it can be focused.
    public func preferredItem(in environment: any FocusEnvironment) -> (any FocusItem)? {
        let snapshot = currentSnapshot()
        var visited: Set<ObjectIdentifier> = []
        return preferredItem(in: environment, visited: &visited).map { snapshot.items[$0].item }
    }

    func preferredItem(
        in environment: any FocusEnvironment, visited: inout Set<ObjectIdentifier>
    )
        -> Int?
    {
        guard visited.insert(ObjectIdentifier(environment)).inserted else { return nil }
        if let index = snapshot.itemIndex[ObjectIdentifier(environment)], snapshot.items[index].isFocusable {
            return index
        }
        if case .guide = environment.focusRole {
        } else {
            for preferred in environment.preferredFocusEnvironments {
                if let found = preferredItem(in: preferred, visited: &visited) { return found }
            }
        }
        guard let position = snapshot.position(of: environment) else { return nil }
        for stop in snapshot.tabStops {
            if let primary = primaryItem(of: stop),
                snapshot.isDescendant(primary, ofEnvironment: position)
            {
                return primary
            }
        }
        return nil
    }

    /// The primary item of a group: the focusable member with the highest effective priority, ties
    /// going to the app's order (``FocusEnvironment/focusTraversalOrder``), then reading order.
    func primaryItem(of group: Int) -> Int? {
        let members = snapshot.members(of: group)
        guard var best = members.first else { return nil }
        var bestPriority = effectivePriority(of: best)
        for member in members.dropFirst() {
            let priority = effectivePriority(of: member)
            if priority > bestPriority
                || (priority == bestPriority
                    && (TraversalOrder.precedes(
                        snapshot.items[member].traversalOrder, snapshot.items[best].traversalOrder)
                        ?? ReadingOrder.precedes(
                            snapshot.items[member].frame, snapshot.items[member].treeOrder,
                            snapshot.items[best].frame, snapshot.items[best].treeOrder,
                            direction: snapshot.groups[group].direction)))
            {
                best = member
                bestPriority = priority
            }
        }
        return best
    }

    /// The system priority of an item: currently focused, previously focused in its group, or ignored.
    func systemPriority(of index: Int) -> FocusGroupPriority {
        let identity = ObjectIdentifier(snapshot.items[index].item)
        if let focusedItem, ObjectIdentifier(focusedItem) == identity { return .currentlyFocused }
        let group = snapshot.groups[snapshot.items[index].group]
        // Single-item groups are never remembered (their one member is primary anyway).
        if group.singleItem < 0 && remembered[group.name] == identity { return .previouslyFocused }
        return .ignored
    }

    /// `max(custom, system)`: an app priority raises an item, never lowers it.
    func effectivePriority(of index: Int) -> FocusGroupPriority {
        max(snapshot.items[index].item.focusGroupPriority, systemPriority(of: index))
    }

    func isAncestor(_ environment: any FocusEnvironment, of other: any FocusEnvironment) -> Bool {
        var node: (any FocusEnvironment)? = other
        while let current = node {
            if current === environment { return true }
            node = current.parentFocusEnvironment
        }
        return false
    }

    // MARK: Updates

    /// Moves focus, asking every environment involved first and telling them all afterwards.
    ///
    /// - Returns: Whether focus moved.
    @discardableResult
    func performUpdate(to next: (any FocusItem)?, heading: FocusHeading, cause: FocusUpdateCause) -> Bool {
        let previous = focusedItem
        if previous === next { return false }
        // A move asked for from inside shouldUpdateFocus or didUpdateFocus does not nest: requests
        // made there wait in `pendingRequest` and run right after this update.
        guard !isUpdating else { return false }
        isUpdating = true
        defer {
            isUpdating = false
            if pendingRequest != nil || screenChangePending { updateFocusIfNeeded() }
            // A modal scope presented or dismissed during the update: said once focus has settled.
            if screenChangePending && !isUpdating {
                screenChangePending = false
                window.postAccessibilityNotification(.screenChanged)
            }
        }
        let context = FocusUpdateContext(
            previouslyFocusedItem: previous, nextFocusedItem: next, heading: heading, cause: cause,
            previousGroupName: previous == nil ? nil : focusedGroup,
            nextGroupName: next == nil ? nil : groupName(of: next!))
        // Buffers reused by every update (an update never nests: see `isUpdating`).
        var nextChain = spareChain
        spareChain = []
        let generation = window.layoutGeneration
        if let next {
            var node: (any FocusEnvironment)? = next
            while let current = node {
                nextChain.append(current)
                node = current.parentFocusEnvironment
            }
        }
        // The environments asked and told are the previous item's chain, then the next item's
        // chain up to where it meets it (the rest is shared). The previous chain is the one
        // recorded when it was focused, while the tree is unchanged since (shared with
        // `focusedChain`, not copied), else walked into `involvedBuffer`.
        let recorded = previous != nil && focusedChainIsCurrent && focusedChain[0] === previous!
        var previousChain: [any FocusEnvironment]
        if recorded {
            previousChain = focusedChain
        } else {
            previousChain = involvedBuffer
            involvedBuffer = []
            var node: (any FocusEnvironment)? = previous
            while let current = node {
                previousChain.append(current)
                node = current.parentFocusEnvironment
            }
        }
        // Chains are short: a linear check beats hashing. (Loops, not `contains(where:)`: a closure
        // formed on the main actor checks the executor at every call, which cost a focus move a
        // fifth of its time.)
        var meet = nextChain.count
        walk: for position in nextChain.indices {
            for index in previousChain.indices where previousChain[index] === nextChain[position] {
                meet = position
                break walk
            }
        }
        var veto: (any FocusEnvironment)?
        for index in previousChain.indices where !previousChain[index].shouldUpdateFocus(in: context) {
            veto = previousChain[index]
            break
        }
        if veto == nil {
            for index in 0..<meet where !nextChain[index].shouldUpdateFocus(in: context) {
                veto = nextChain[index]
                break
            }
        }
        if let veto {
            traceVeto(context, by: veto)
            nextChain.removeAll(keepingCapacity: true)
            spareChain = nextChain
            if !recorded {
                previousChain.removeAll(keepingCapacity: true)
                involvedBuffer = previousChain
            }
            return false
        }
        focusedItem = next
        focusedGroup = context.nextGroupName
        if !recorded {
            // The chain recorded for an item no longer current: its buffer becomes the spare one.
            var oldChain = focusedChain
            focusedChain = []
            oldChain.removeAll(keepingCapacity: true)
            spareChain = oldChain
        }
        focusedChain = nextChain
        focusedChainGeneration = generation
        if let next, case .named(let group)? = context.nextGroupName {
            remembered[group] = ObjectIdentifier(next)
        }
        window.focusedResponder = next == nil ? nil : nearestResponder(at: next!, requiringFirstResponder: false)
        for index in previousChain.indices { previousChain[index].didUpdateFocus(in: context) }
        for index in 0..<meet { nextChain[index].didUpdateFocus(in: context) }
        // `previousChain` holds the only reference to its buffer now: emptied in place, it becomes
        // the spare chain (recorded) or the walk buffer again.
        previousChain.removeAll(keepingCapacity: true)
        if recorded { spareChain = previousChain } else { involvedBuffer = previousChain }
        if let next { requestReveal(of: next) }
        traceUpdate(context)
        syncFirstResponder(to: next, cause: cause)
        (previous as? FocusNode)?.onFocusChange?(false)
        (next as? FocusNode)?.onFocusChange?(true)
        for observer in observers { observer.body(context) }
        if cause == .tab || cause == .shiftTab || cause == .arrow, let next, selectionFollowsFocus(for: next) {
            select(next, heading: heading)
        }
        return true
    }

    /// The ancestors-or-self of both items, each once: the previous item's chain first.
    func environmentsInvolved(previous: (any FocusItem)?, next: (any FocusItem)?) -> [any FocusEnvironment] {
        var result: [any FocusEnvironment] = []
        var node: (any FocusEnvironment)? = previous
        while let current = node {
            result.append(current)
            node = current.parentFocusEnvironment
        }
        let previousCount = result.count
        node = next
        walk: while let current = node {
            for index in 0..<previousCount where result[index] === current { break walk }
            result.append(current)
            node = current.parentFocusEnvironment
        }
        return result
    }

    /// The group name of a focusable item, or `nil`.
    func groupName(of item: any FocusItem) -> FocusGroupName? {
        refreshSnapshot()
        guard let index = index(of: item), snapshot.items[index].isFocusable else { return nil }
        return snapshot.name(of: snapshot.items[index].group)
    }

    func selectionFollowsFocus(for item: any FocusItem) -> Bool {
        if focusedChainIsCurrent && focusedChain[0] === item {
            for current in focusedChain {
                if let value = current.selectionFollowsFocus { return value }
            }
            return false
        }
        var node: (any FocusEnvironment)? = item
        while let current = node {
            if let value = current.selectionFollowsFocus { return value }
            node = current.parentFocusEnvironment
        }
        return false
    }

    // MARK: Trace

    func traceUpdate(_ context: FocusUpdateContext) {
        window.dispatcher?.trace(
            .focus(
                from: context.previouslyFocusedItem?.focusDebugName, to: context.nextFocusedItem?.focusDebugName,
                cause: context.cause, heading: context.heading, fromGroup: context.previousGroup,
                toGroup: context.nextGroup))
    }

    func traceVeto(_ context: FocusUpdateContext, by environment: any FocusEnvironment) {
        window.dispatcher?.trace(
            .focusVetoed(
                from: context.previouslyFocusedItem?.focusDebugName, to: context.nextFocusedItem?.focusDebugName,
                by: environment.focusDebugName))
    }

    // MARK: First responder

    func nearestResponder(at item: any FocusEnvironment, requiringFirstResponder: Bool) -> Responder? {
        if focusedChainIsCurrent && focusedChain[0] === item {
            for current in focusedChain {
                if let responder = current as? Responder, responder.window === window,
                    !requiringFirstResponder || responder.canBecomeFirstResponder
                {
                    return responder
                }
            }
            return nil
        }
        var node: (any FocusEnvironment)? = item
        while let current = node {
            if let responder = current as? Responder, responder.window === window,
                !requiringFirstResponder || responder.canBecomeFirstResponder
            {
                return responder
            }
            node = current.parentFocusEnvironment
        }
        return nil
    }

    /// Focus moved: the nearest responder at or above the new item that can become first
    /// responder becomes it; when there is none, a first responder outside the item's ancestors resigns.
    func syncFirstResponder(to item: (any FocusItem)?, cause: FocusUpdateCause) {
        guard !isSyncingFirstResponder else { return }
        isSyncingFirstResponder = true
        defer { isSyncingFirstResponder = false }
        if let item, let responder = nearestResponder(at: item, requiringFirstResponder: true) {
            if !responder.isFirstResponder { responder.becomeFirstResponder() }
        } else if let current = window.firstResponder {
            var keeps = false
            if let item, let environment = current.asFocusEnvironment {
                keeps = isAncestor(environment, of: item)
            }
            // Walking an on-screen keyboard leaves the field it types into first responder.
            if !keeps, let item, current.asTextInputResponder != nil { keeps = FocusNode.isInsideInputView(item) }
            if !keeps { current.resignFirstResponder() }
        }
    }

    /// The first responder changed outside a focus move: focus moves inside it, unless it already is.
    func firstResponderDidChange(to responder: Responder?) {
        guard !isSyncingFirstResponder, !isUpdating, let responder, let environment = responder.asFocusEnvironment
        else { return }
        if let focusedItem, isAncestor(environment, of: focusedItem) { return }
        isSyncingFirstResponder = true
        defer { isSyncingFirstResponder = false }
        if let target = preferredItem(in: environment) {
            performUpdate(to: target, heading: .none, cause: .firstResponder)
        }
    }

    // MARK: Validity

    func treeDidChange() {
        needsValidation = true
    }

    /// Moves focus to a sensible place when the focused item was removed, hidden or made
    /// unfocusable: into the nearest ancestor that is still in the tree, else the root.
    func validateFocus() {
        needsValidation = false
        guard let focused = focusedItem else { return }
        let snapshot = currentSnapshot()
        if let index = index(of: focused), snapshot.items[index].isFocusable { return }
        var target: (any FocusItem)?
        for ancestor in focusedAncestors where snapshot.position(of: ancestor) != nil {
            if let found = preferredItem(in: ancestor) {
                target = found
                break
            }
        }
        if target == nil { target = preferredItem(in: effectiveRoot) }
        if !performUpdate(to: target, heading: .none, cause: .removal) {
            // A veto cannot keep focus on an item that is gone.
            focusedItem = nil
            focusedGroup = nil
            window.focusedResponder = nil
        }
    }
}
