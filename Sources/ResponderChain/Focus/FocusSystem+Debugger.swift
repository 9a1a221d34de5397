// The focus debugger: text answers to "what has focus, why can't this be focused, what are the
// groups, what is the tab order, what would a request do". Callable at run time; keytrace prints it.
// Ids and group names come from the app or a scene file: each line is made, then its control
// characters are escaped (`text(_:)`), so a crafted id can neither drive a terminal nor forge a line.

extension FocusSystem {
    /// One paragraph: the focused item and its group, the first responder, the navigation style.
    public var debugStatus: String {
        let focused = focusedItem.map { "\($0.focusDebugName) (group \(quote(focusGroup(of: $0))))" } ?? "nothing"
        return text([
            "focused: \(focused)",
            "first responder: \(window.firstResponder?.traceName ?? "none")",
            "navigation: \(navigationStyle.rawValue), full keyboard access \(fullKeyboardAccess ? "on" : "off"), "
                + "select keys \(selectKeys.map(\.name).sorted().joined(separator: ", "))",
        ])
    }

    /// Why an item can or cannot be focused, with its group and priorities.
    ///
    /// - Parameter item: The item.
    /// - Returns: One line.
    public func explainFocusability(of item: any FocusItem) -> String {
        let snapshot = currentSnapshot()
        guard let index = snapshot.itemIndex[ObjectIdentifier(item)] else {
            return text(["\(item.focusDebugName): not in the focus tree"])
        }
        let info = snapshot.items[index]
        guard info.isFocusable else { return text(["\(item.focusDebugName): \(info.focusability)"]) }
        return text([
            "\(item.focusDebugName): focusable, group \(quote(snapshot.identifier(of: info.group))), "
                + priorityDescription(of: index)
        ])
    }

    private func priorityDescription(of index: Int) -> String {
        let custom = snapshot.items[index].item.focusGroupPriority
        let system = systemPriority(of: index)
        return "priority custom \(custom), system \(system), effective \(max(custom, system))"
    }

    /// The group tree: each group with where it came from and its primary item, each item with
    /// its priorities; items that cannot be focused say why.
    public var debugGroupTree: String {
        let snapshot = currentSnapshot()
        var lines = ["focus groups:"]
        func describe(_ group: Int, prefix: String) {
            let info = snapshot.groups[group]
            var primary = primaryItem(of: group).map { snapshot.items[$0].item.focusDebugName }
            if primary == nil, let stop = snapshot.tabStops.first(where: { isInside($0, group, snapshot) }),
                let inner = primaryItem(of: stop)
            {
                primary =
                    "\(snapshot.items[inner].item.focusDebugName) (via \(quote(snapshot.identifier(of: stop))))"
            }
            if group == 0 {
                lines.append("root")
            } else {
                lines.append(
                    "\(prefix)group \(quote(snapshot.identifier(of: group))) [\(info.origin)]"
                        + orderDescription(info.traversalOrder, prefix: " ") + " primary: \(primary ?? "none")"
                )
            }
            let inner = group == 0 ? "  " : prefix + "    "
            for member in snapshot.members(of: group) where group != 0 {
                let item = snapshot.items[member].item
                let marker = focusedItem.map { $0 === item } == true ? "  <- focused" : ""
                lines.append(
                    "\(inner)- \(item.focusDebugName)\(labelDescription(of: item)): \(priorityDescription(of: member))"
                        + orderDescription(snapshot.items[member].traversalOrder, prefix: ", ") + marker)
            }
            for child in info.children { describe(child, prefix: inner) }
        }
        describe(0, prefix: "")
        // Plain containers (canBecomeFocused false) are left out; explainFocusability covers them.
        let unfocusable = snapshot.items.filter { !$0.isFocusable && $0.focusability != .notFocusable }
        if !unfocusable.isEmpty {
            lines.append("not focusable:")
            for item in unfocusable { lines.append("  - \(item.item.focusDebugName): \(item.focusability)") }
        }
        // Orders on environments that neither declare a group nor can be focused (a plain
        // container): the app meant something the loop cannot show.
        var unused: [String] = []
        for environment in snapshot.hasTraversalOrders ? snapshot.environments : [] {
            guard let order = environment.focusTraversalOrder, !order.isNaN,
                environment.focusGroupIdentifier == nil, environment.focusGroupKind == .none,
                (environment as? any FocusItem)?.canBecomeFocused != true
            else { continue }
            unused.append("  - \(environment.focusDebugName):" + orderDescription(order, prefix: " "))
        }
        if !unused.isEmpty {
            lines.append("orders with no effect (on neither a group's declarer nor an item that can be focused):")
            lines += unused
        }
        return text(lines)
    }

    /// ` "q"`: the item's accessibility label (what a narrator says, what an on-screen key shows)
    /// when one is set and differs from its name; nothing otherwise.
    private func labelDescription(of item: any FocusItem) -> String {
        guard let node = item as? FocusNode, let label = node.accessibilityLabel, label != item.focusDebugName else {
            return ""
        }
        return " \"" + label.escapingControlCharacters() + "\""
    }

    /// `" order 2"` (after `prefix`), or nothing without an order.
    private func orderDescription(_ order: Double?, prefix: String) -> String {
        order.map { prefix + "order " + TraversalOrder.describe($0) } ?? ""
    }

    /// The tab loop, numbered in the order Tab visits it, with each stop's group and the app's
    /// order (``FocusEnvironment/focusTraversalOrder``) where one is given; then, when the app
    /// gives orders, the loop reading order alone would make.
    public var debugTabLoop: String {
        let snapshot = currentSnapshot()
        var lines = [
            "tab loop (\(snapshot.tabStops.count) stops, \(navigationStyle == .keyboard ? "Tab" : "not used in directional style")):"
        ]
        func name(of stop: Int) -> String {
            primaryItem(of: stop).map { snapshot.items[$0].item.focusDebugName } ?? "none"
        }
        for (position, stop) in snapshot.tabStops.enumerated() {
            let marker =
                focusedItem.map { focusGroup(of: $0) == snapshot.identifier(of: stop) } == true
                ? "  <- focus is here" : ""
            lines.append(
                "  \(position + 1). \(name(of: stop))  (group \(quote(snapshot.identifier(of: stop))))"
                    + orderDescription(snapshot.traversalOrder(ofStop: stop), prefix: "  ") + marker)
        }
        if snapshot.hasTraversalOrders {
            lines.append(
                "the loop follows the app's order (focusTraversalOrder), not geometry: blocks with an order first, "
                    + "smaller first; ties and the rest in reading order")
            let plain = snapshot.readingOrderStops()
            if plain == snapshot.tabStops {
                lines.append("reading order alone gives the same loop")
            } else {
                lines.append(
                    "reading order alone would give: "
                        + plain.enumerated().map { "\($0.offset + 1). \(name(of: $0.element))" }.joined(separator: ", ")
                )
            }
        }
        return text(lines)
    }

    /// A dry run of a focus request: each resolution step, where focus would land, and who would be asked.
    ///
    /// - Parameter environment: The environment the request is on.
    /// - Returns: The steps, one per line; nothing changes.
    public func dryRunRequest(on environment: any FocusEnvironment) -> String {
        let snapshot = currentSnapshot()
        var lines = ["request focus on \(environment.focusDebugName):"]
        var visited: Set<ObjectIdentifier> = []
        func resolve(_ env: any FocusEnvironment, depth: Int) -> Int? {
            let indent = String(repeating: "  ", count: depth + 1)
            guard visited.insert(ObjectIdentifier(env)).inserted else {
                lines.append("\(indent)\(env.focusDebugName): already visited")
                return nil
            }
            if let index = snapshot.itemIndex[ObjectIdentifier(env)] {
                if snapshot.items[index].isFocusable {
                    lines.append("\(indent)\(env.focusDebugName) is a focusable item: take it")
                    return index
                }
                lines.append("\(indent)\(env.focusDebugName): \(snapshot.items[index].focusability)")
            }
            let preferred = env.preferredFocusEnvironments
            lines.append(
                "\(indent)preferred focus environments of \(env.focusDebugName): "
                    + (preferred.isEmpty ? "none" : preferred.map(\.focusDebugName).joined(separator: ", ")))
            for candidate in preferred {
                if let found = resolve(candidate, depth: depth + 1) { return found }
            }
            guard let position = snapshot.position(of: env) else {
                lines.append("\(indent)\(env.focusDebugName) is not in the focus tree")
                return nil
            }
            for stop in snapshot.tabStops {
                if let primary = primaryItem(of: stop),
                    snapshot.isDescendant(primary, ofEnvironment: position)
                {
                    lines.append(
                        "\(indent)first tab stop inside \(env.focusDebugName): group "
                            + "\(quote(snapshot.identifier(of: stop))), primary item \(snapshot.items[primary].item.focusDebugName)"
                    )
                    return primary
                }
            }
            lines.append("\(indent)no focusable item inside \(env.focusDebugName)")
            return nil
        }
        guard let target = resolve(environment, depth: 0).map({ snapshot.items[$0].item }) else {
            lines.append("=> focus would not move")
            return text(lines)
        }
        if let focusedItem, focusedItem === target {
            lines.append("=> \(target.focusDebugName) already has focus")
            return text(lines)
        }
        lines.append(
            "=> focus would move from \(focusedItem?.focusDebugName ?? "nothing") to \(target.focusDebugName) "
                + "(group \(quote(focusedItem.flatMap { focusGroup(of: $0) })) -> \(quote(focusGroup(of: target))))")
        let involved = environmentsInvolved(previous: focusedItem, next: target)
        lines.append(
            "=> shouldUpdateFocus would be asked of: " + involved.map(\.focusDebugName).joined(separator: ", "))
        if let responder = nearestResponder(at: target, requiringFirstResponder: true) {
            lines.append("=> first responder would become \(responder.traceName)")
        }
        return text(lines)
    }

    /// Everything: status, group tree, tab loop.
    public var debugDescription: String {
        [debugStatus, debugGroupTree, debugTabLoop].joined(separator: "\n\n")
    }

    private func isInside(_ group: Int, _ ancestor: Int, _ snapshot: FocusSnapshot) -> Bool {
        var current: Int? = group
        while let index = current {
            if index == ancestor { return true }
            current = snapshot.groups[index].parent
        }
        return false
    }

    /// The lines joined, each with its control characters escaped.
    private func text(_ lines: [String]) -> String {
        lines.map { $0.escapingControlCharacters() }.joined(separator: "\n")
    }

    private func quote(_ text: String?) -> String {
        text.map { "\"\($0)\"" } ?? "none"
    }
}
