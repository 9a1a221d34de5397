extension FocusSystem {
    /// Moves focus one step.
    ///
    /// - Parameter heading: ``FocusHeading/next`` and ``FocusHeading/previous`` walk the tab loop;
    ///   the arrows search geometrically (inside the focused item's group in keyboard style,
    ///   across the screen in directional style).
    /// - Returns: Whether focus moved.
    @discardableResult
    public func moveFocus(_ heading: FocusHeading) -> Bool {
        if needsValidation { validateFocus() }
        guard let target = target(for: heading) else { return false }
        return performUpdate(to: target, heading: heading, cause: Self.cause(of: heading))
    }

    static func cause(of heading: FocusHeading) -> FocusUpdateCause {
        switch heading {
        case .next: return .tab
        case .previous: return .shiftTab
        case .none: return .request
        default: return .arrow
        }
    }

    /// Where a move would land, without moving: the focus debugger's dry run and the key stage use it.
    ///
    /// - Parameter heading: The heading.
    /// - Returns: The item, or `nil` when nothing qualifies.
    public func target(for heading: FocusHeading) -> (any FocusItem)? {
        refreshSnapshot()
        guard !snapshot.tabStops.isEmpty else { return nil }
        guard let focused = focusedItem, let current = index(of: focused),
            snapshot.items[current].isFocusable
        else {
            // Nothing focused: Tab and arrows give initial focus, Shift-Tab starts from the end.
            if heading == .previous, let last = snapshot.tabStops.last, let item = primaryItem(of: last) {
                return snapshot.items[item].item
            }
            return preferredItem(in: effectiveRoot)
        }
        switch heading {
        case .next, .previous:
            let stop = snapshot.stopOfGroup[snapshot.items[current].group]
            guard stop >= 0 else { return nil }
            let count = snapshot.tabStops.count
            let nextStop = heading == .next ? (stop + 1) % count : (stop + count - 1) % count
            guard let primary = primaryItem(of: snapshot.tabStops[nextStop]) else { return nil }
            return remember(primary)
        case .up, .down, .left, .right:
            return directionalTarget(from: current, heading: heading)
        case .none:
            return nil
        }
    }

    /// The item at an index, kept as the last lookup: the update that follows asks for its group.
    private func remember(_ index: Int) -> any FocusItem {
        let item = snapshot.items[index].item
        lastLookup = (ObjectIdentifier(item), snapshot.generation, index)
        return item
    }

    /// The geometric search: candidates whose frame lies in the focused frame's sweep in the
    /// direction of travel (beyond its edge and overlapping it across the axis); the nearest along
    /// the axis wins, then the smallest offset across it, then reading order.
    ///
    /// Items come from the group's members (keyboard style) or every focusable item (directional
    /// style); large sets are searched through an ``ArrowGrid``, built once per layout.
    func directionalTarget(from current: Int, heading: FocusHeading) -> (any FocusItem)? {
        let origin = snapshot.items[current].frame
        let group = snapshot.items[current].group
        let restrictToGroup = navigationStyle == .keyboard
        let direction = snapshot.groups[group].direction

        // Sections: from outside, a section is one target; from inside, its content is searched
        // normally. Only worked out when the tree has sections.
        var outsideSections: [Int] = []
        if !snapshot.sections.isEmpty {
            let currentPosition = snapshot.items[current].environment
            for (position, section) in snapshot.sections.enumerated()
            where section.isEnabled && (!restrictToGroup || section.group == group)
                && !(currentPosition >= section.environmentIndex
                    && currentPosition < snapshot.subtreeEnds[section.environmentIndex])
            {
                outsideSections.append(position)
            }
        }

        // The best item: nearest along, then across, then reading order.
        var best = -1
        var bestAlong = 0.0
        var bestAcross = 0.0
        func consider(_ index: Int) {
            let item = snapshot.items[index]
            guard index != current, item.isFocusable, !restrictToGroup || item.group == group else { return }
            guard let (along, across) = Geometry.sweep(from: origin, to: item.frame, heading: heading) else { return }
            if best >= 0 {
                if along > bestAlong || (along == bestAlong && across > bestAcross) { return }
                if along == bestAlong && across == bestAcross {
                    let other = snapshot.items[best]
                    guard index != best,
                        ReadingOrder.precedes(
                            item.frame, item.treeOrder, other.frame, other.treeOrder, direction: direction)
                    else { return }
                }
            }
            for position in outsideSections
            where snapshot.isDescendant(index, ofEnvironment: snapshot.sections[position].environmentIndex) {
                return
            }
            best = index
            bestAlong = along
            bestAcross = across
        }
        let scope = restrictToGroup ? group : -1
        let memberCount = restrictToGroup ? snapshot.members(of: group).count : snapshot.items.count
        if memberCount < ArrowIndex.minimumMembers {
            if restrictToGroup {
                for member in snapshot.members(of: group) { consider(member) }
            } else {
                for index in snapshot.items.indices { consider(index) }
            }
        } else {
            if arrowIndex.generation != snapshot.generation || arrowIndex.epoch != snapshot.geometryEpoch {
                arrowIndex.reset(generation: snapshot.generation, epoch: snapshot.geometryEpoch)
            }
            let grid = arrowIndex.grid(
                for: scope,
                members: {
                    restrictToGroup
                        ? Array(self.snapshot.members(of: group))
                        : snapshot.items.indices.filter { snapshot.items[$0].isFocusable }
                },
                frame: { snapshot.items[$0].frame })
            for index in grid.large { consider(index) }
            grid.search(from: origin, heading: heading, nearest: { best >= 0 ? bestAlong : nil }) { consider($0) }
        }

        // A field and the input view shown for it are neighbours for Up and Down, across groups.
        if best < 0, heading == .up || heading == .down,
            let neighbour = inputViewNeighbour(of: current, heading: heading)
        {
            best = neighbour.index
            bestAlong = neighbour.along
            bestAcross = neighbour.across
        }

        // Guides and sections compete with the best item; most trees have neither.
        if snapshot.guides.isEmpty && outsideSections.isEmpty {
            return best >= 0 ? remember(best) : nil
        }
        enum Source {
            case item(Int)
            case guide(Int)
            case section(Int)
        }
        struct Candidate {
            var frame: Rect
            var treeOrder: Int
            var source: Source
            var along: Double
            var across: Double
        }
        var ranked: [Candidate] = []
        if best >= 0 {
            let item = snapshot.items[best]
            ranked.append(
                Candidate(
                    frame: item.frame, treeOrder: item.treeOrder, source: .item(best), along: bestAlong,
                    across: bestAcross))
        }
        func consider(_ frame: Rect, _ treeOrder: Int, _ source: Source) {
            guard let (along, across) = Geometry.sweep(from: origin, to: frame, heading: heading) else { return }
            ranked.append(Candidate(frame: frame, treeOrder: treeOrder, source: source, along: along, across: across))
        }
        for (position, guide) in snapshot.guides.enumerated()
        where guide.isEnabled && (!restrictToGroup || guide.group == group) {
            consider(guide.frame, guide.treeOrder, .guide(position))
        }
        for position in outsideSections {
            let section = snapshot.sections[position]
            consider(section.frame, section.treeOrder, .section(position))
        }
        ranked.sort { a, b in
            if a.along != b.along { return a.along < b.along }
            if a.across != b.across { return a.across < b.across }
            return ReadingOrder.precedes(a.frame, a.treeOrder, b.frame, b.treeOrder, direction: direction)
        }
        for candidate in ranked {
            switch candidate.source {
            case .item(let index):
                return snapshot.items[index].item
            case .guide(let position):
                var visited: Set<ObjectIdentifier> = []
                for preferred in snapshot.guides[position].environment.preferredFocusEnvironments {
                    if let found = preferredItem(in: preferred, visited: &visited), found != current {
                        return snapshot.items[found].item
                    }
                }
            case .section(let position):
                // The section's focusable content nearest to where focus comes from.
                let environment = snapshot.sections[position].environmentIndex
                var nearest: (index: Int, distance: Double)?
                for (index, item) in snapshot.items.enumerated()
                where item.isFocusable && snapshot.isDescendant(index, ofEnvironment: environment) {
                    let distance = Geometry.centreDistance(origin, item.frame)
                    if nearest == nil || distance < nearest!.distance { nearest = (index, distance) }
                }
                if let nearest { return snapshot.items[nearest.index].item }
            }
        }
        return nil
    }

    /// Up or Down from a text field whose ``TextInputNode/inputView`` is shown to the nearest of the
    /// input view's items in that direction, and from an item of that input view back to the field
    /// (the window's first responder), when nothing nearer in the item's own group (or, in
    /// directional style, on the screen) lies that way: an on-screen keyboard is reached from its
    /// field with a remote's arrows, as tvOS's is, though it is a focus group of its own.
    private func inputViewNeighbour(
        of current: Int, heading: FocusHeading
    ) -> (index: Int, along: Double, across: Double)? {
        let origin = snapshot.items[current].frame
        let focused = snapshot.items[current].item
        var inputView: FocusNode
        var towardField: TextInputNode?
        if let field = focused as? TextInputNode, field.isShowingInputView, let view = field.inputView {
            inputView = view
        } else if let field = window.firstResponder as? TextInputNode, field.isShowingInputView,
            let view = field.inputView, Self.isInside(focused, view)
        {
            inputView = view
            towardField = field
        } else {
            return nil
        }
        var best: (index: Int, along: Double, across: Double)?
        for (index, item) in snapshot.items.enumerated() where index != current && item.isFocusable {
            if let towardField {
                guard item.item === towardField else { continue }
            } else {
                guard Self.isInside(item.item, inputView) else { continue }
            }
            guard let (along, across) = Geometry.sweep(from: origin, to: item.frame, heading: heading) else { continue }
            if let found = best, along > found.along || (along == found.along && across >= found.across) { continue }
            best = (index, along, across)
        }
        return best
    }

    private static func isInside(_ environment: any FocusEnvironment, _ ancestor: FocusNode) -> Bool {
        var current: (any FocusEnvironment)? = environment
        while let node = current {
            if node === ancestor { return true }
            current = node.parentFocusEnvironment
        }
        return false
    }

    /// Sends the focused item's primary action, as the select key does.
    ///
    /// - Returns: Whether a responder performed it.
    @discardableResult
    public func selectFocusedItem() -> Bool {
        guard let focusedItem else { return false }
        return select(focusedItem, heading: .none) != nil
    }

    /// Sends the item's primary action; returns the responder that performed it.
    @discardableResult
    func select(_ item: any FocusItem, heading: FocusHeading) -> Responder? {
        guard let action = item.primaryAction else { return nil }
        let start = nearestResponder(at: item, requiringFirstResponder: false) ?? window.firstResponder ?? window
        guard let target = start.target(forAction: action, sender: .focusSelection) else { return nil }
        target.perform(action, sender: .focusSelection)
        return target
    }
}

/// The geometry of directional focus moves.
enum Geometry {
    static let epsilon = 0.001

    /// When `candidate` lies in the sweep of `origin` towards `heading`: the gap along the axis
    /// and the offset of the centres across it.
    static func sweep(from origin: Rect, to candidate: Rect, heading: FocusHeading) -> (Double, Double)? {
        let overlapsVertically = candidate.minY < origin.maxY - epsilon && candidate.maxY > origin.minY + epsilon
        let overlapsHorizontally = candidate.minX < origin.maxX - epsilon && candidate.maxX > origin.minX + epsilon
        switch heading {
        case .right where overlapsVertically && candidate.minX >= origin.maxX - epsilon:
            return (candidate.minX - origin.maxX, abs(candidate.midY - origin.midY))
        case .left where overlapsVertically && candidate.maxX <= origin.minX + epsilon:
            return (origin.minX - candidate.maxX, abs(candidate.midY - origin.midY))
        case .down where overlapsHorizontally && candidate.minY >= origin.maxY - epsilon:
            return (candidate.minY - origin.maxY, abs(candidate.midX - origin.midX))
        case .up where overlapsHorizontally && candidate.maxY <= origin.minY + epsilon:
            return (origin.minY - candidate.maxY, abs(candidate.midX - origin.midX))
        default:
            return nil
        }
    }

    /// The squared distance between the centres (squared: comparisons need no square root, and the
    /// core links without libm).
    static func centreDistance(_ a: Rect, _ b: Rect) -> Double {
        let dx = a.midX - b.midX
        let dy = a.midY - b.midY
        return dx * dx + dy * dy
    }
}

extension FocusSystem: SystemKeyHandler {
    /// `focus`.
    public var name: String { "focus" }

    func heading(for key: Key) -> FocusHeading? {
        let chord = key.modifierFlags.intersection(.deviceIndependentChord)
        switch key.logicalKeyCode {
        case .tab where navigationStyle == .keyboard && chord.isEmpty: return .next
        case .tab where navigationStyle == .keyboard && chord == .shift: return .previous
        case .upArrow where chord.isEmpty: return .up
        case .downArrow where chord.isEmpty: return .down
        case .leftArrow where chord.isEmpty: return .left
        case .rightArrow where chord.isEmpty: return .right
        default: return nil
        }
    }

    func isSelectKey(_ key: Key) -> Bool {
        selectKeyCodes.contains(key.logicalKeyCode) && key.modifierFlags.isDisjoint(with: .deviceIndependentChord)
    }

    /// The nearest responder from where dispatch starts (the focused item, else the first
    /// responder, else the window) up that has an exit command, when `key` is one of the window's
    /// ``Window/exitKeys``.
    ///
    /// As the select keys, an exit key with Shift, Control, Alt or Command is not one (a chord
    /// for key commands). A nearer responder that handles the key itself
    /// (an `onKeyPress` handler for Escape: a search field clearing) keeps it: the
    /// press goes up the chain as any other, so nearest still wins.
    func exitResponder(for key: Key, in window: Window) -> Responder? {
        guard window.exitKeyCodes.contains(key.logicalKeyCode),
            key.modifierFlags.isDisjoint(with: .deviceIndependentChord)
        else { return nil }
        var responder: Responder? = window.focusedResponder ?? window.firstResponder ?? window
        while let current = responder {
            if current.hasExitCommand { return current }
            if current.handlesKeyPress(key) { return nil }
            responder = current.nextResponder
        }
        return nil
    }

    /// Whether the key is a focus key: Tab and Shift-Tab (keyboard style), the arrows, the select
    /// keys; or an exit key (``Window/exitKeys``) while an exit command
    /// (``Responder/onExitCommand(perform:)``) is in the chain from the focused item up.
    public func claims(_ key: Key, in window: Window) -> Bool {
        heading(for: key) != nil || isSelectKey(key) || exitResponder(for: key, in: window) != nil
    }

    /// Moves focus for Tab, Shift-Tab and arrows, selects for the select keys, runs the nearest exit
    /// command for an exit key; declines when focus cannot move (so the arrow reaches key commands
    /// and responders), nothing can be selected, or no exit command is in the chain.
    public func keyDown(_ press: Press, in window: Window) -> SystemKeyDecision {
        if needsValidation { validateFocus() }
        if let heading = heading(for: press.key) {
            // Reasons are for the trace: built only when someone reads it, so a move allocates nothing.
            let tracing = window.dispatcher?.tracing ?? false
            let previous = focusedItem
            guard let target = target(for: heading) else {
                guard tracing else { return .decline(reason: "") }
                return .decline(
                    reason: "no focusable item \(Self.describe(heading)) \(previous?.focusDebugName ?? "nothing")")
            }
            guard performUpdate(to: target, heading: heading, cause: Self.cause(of: heading)) else {
                return .decline(reason: tracing ? "the move to \(target.focusDebugName) was vetoed" : "")
            }
            guard tracing else { return .take(reason: "") }
            let from = previous?.focusDebugName ?? "nothing"
            return .take(
                reason: "\(press.isSecureEntry ? "•" : press.key.description) moves focus from \(from) to "
                    + target.focusDebugName)
        }
        if isSelectKey(press.key) {
            guard let focusedItem else { return .decline(reason: "nothing is focused to select") }
            guard focusedItem.primaryAction != nil else {
                return .decline(reason: "\(focusedItem.focusDebugName) has no primary action")
            }
            guard let target = select(focusedItem, heading: .none) else {
                return .decline(reason: "no responder can perform \(focusedItem.primaryAction!.rawValue)")
            }
            return .take(
                reason: "\(press.isSecureEntry ? "•" : press.key.description) selects \(focusedItem.focusDebugName): "
                    + "\(target.traceName) performed \(focusedItem.primaryAction!.rawValue)")
        }
        if let responder = exitResponder(for: press.key, in: window) {
            _ = responder.runExitCommand(press)
            return .take(
                reason: "\(press.isSecureEntry ? "•" : press.key.description) runs the exit command of "
                    + responder.traceName)
        }
        return .decline(reason: "not a focus key")
    }

    /// Auto-repeat of Tab and arrows moves focus again; a held select key selects once.
    public func keyRepeated(_ press: Press, in window: Window) {
        if let heading = heading(for: press.key) { moveFocus(heading) }
    }

    static func describe(_ heading: FocusHeading) -> String {
        switch heading {
        case .next: return "after"
        case .previous: return "before"
        case .up: return "above"
        case .down: return "below"
        case .left: return "left of"
        case .right: return "right of"
        case .none: return "at"
        }
    }
}
