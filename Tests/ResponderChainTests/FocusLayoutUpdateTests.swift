import ResponderChain
import Testing

/// The focus system keeps its picture of the tree up to date in place for frame, visibility and
/// focusability changes, and searches arrows through a grid: these tests hold both to a fresh
/// focus system on a mirror of the tree, and the arrows to a brute-force search.
@MainActor @Suite struct FocusLayoutUpdateTests {
    /// The same random tree built twice: one focus system lives through every change (and so
    /// updates in place), the other is created anew after each batch (and so builds from scratch).
    @MainActor final class Mirror {
        let live = Window(identifier: "live")
        let fresh = Window(identifier: "fresh")
        let liveRoot = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 2000, height: 2000))
        let freshRoot = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 2000, height: 2000))
        var liveItems: [FocusNode] = []
        var freshItems: [FocusNode] = []
        let liveFocus: FocusSystem

        /// With `orders`, some items and groups carry an app's order (``FocusEnvironment/focusTraversalOrder``).
        init(generator: inout SeededGenerator, groups: Int, itemsPerGroup: Int, loose: Int, orders: Bool = false) {
            live.addChild(liveRoot)
            fresh.addChild(freshRoot)
            func add(_ make: () -> (FocusNode, FocusNode), under parents: (FocusNode, FocusNode)) -> (
                FocusNode, FocusNode
            ) {
                let pair = make()
                parents.0.addChild(pair.0)
                parents.1.addChild(pair.1)
                return pair
            }
            var serial = 0
            /// A few orders, so that ties happen; `nil` half the time.
            func order() -> Double? {
                guard orders, Bool.random(using: &generator) else { return nil }
                return Double(Int.random(in: 0..<4, using: &generator))
            }
            func item(in area: Rect) -> (FocusNode, FocusNode) {
                serial += 1
                let frame = Self.randomFrame(in: area, using: &generator)
                let focusable = Int.random(in: 0..<10, using: &generator) > 0
                let pair = (
                    FocusNode(identifier: "item\(serial)", frame: frame, isFocusable: focusable),
                    FocusNode(identifier: "item\(serial)", frame: frame, isFocusable: focusable)
                )
                let order = order()
                pair.0.focusTraversalOrder = order
                pair.1.focusTraversalOrder = order
                return pair
            }
            for group in 0..<groups {
                let area = Rect(x: Double(group % 3) * 600, y: Double(group / 3) * 600, width: 560, height: 560)
                let container = add(
                    {
                        let a = FocusNode(identifier: "group\(group)", frame: area)
                        let b = FocusNode(identifier: "group\(group)", frame: area)
                        a.focusGroupIdentifier = "g\(group)"
                        b.focusGroupIdentifier = "g\(group)"
                        let order = order()
                        a.focusTraversalOrder = order
                        b.focusTraversalOrder = order
                        return (a, b)
                    }, under: (liveRoot, freshRoot))
                for _ in 0..<itemsPerGroup {
                    let pair = add({ item(in: area) }, under: container)
                    liveItems.append(pair.0)
                    freshItems.append(pair.1)
                }
            }
            for _ in 0..<loose {
                let pair = add(
                    { item(in: Rect(x: 0, y: 1800, width: 2000, height: 200)) }, under: (liveRoot, freshRoot))
                liveItems.append(pair.0)
                freshItems.append(pair.1)
            }
            liveFocus = FocusSystem(window: live, root: liveRoot)
        }

        /// Frames on a grid of 10 points, so reading order never depends on its half-point tolerance.
        static func randomFrame(in area: Rect, using generator: inout SeededGenerator) -> Rect {
            let width = Double(Int.random(in: 1...6, using: &generator) * 10)
            let height = Double(Int.random(in: 1...4, using: &generator) * 10)
            let x = area.x + Double(Int.random(in: 0...Int((area.width - width) / 10), using: &generator) * 10)
            let y = area.y + Double(Int.random(in: 0...Int((area.height - height) / 10), using: &generator) * 10)
            return Rect(x: x, y: y, width: width, height: height)
        }

        /// One random change, made to both trees.
        func change(using generator: inout SeededGenerator) {
            let index = Int.random(in: 0..<liveItems.count, using: &generator)
            let (a, b) = (liveItems[index], freshItems[index])
            switch Int.random(in: 0..<5, using: &generator) {
            case 0, 1:
                let area =
                    a.parent === liveRoot
                    ? Rect(x: 0, y: 1800, width: 2000, height: 200) : (a.parent as! FocusNode).frame
                let frame = Self.randomFrame(in: area, using: &generator)
                a.frame = frame
                b.frame = frame
            case 2:
                a.isHidden.toggle()
                b.isHidden.toggle()
            case 3:
                a.isFocusable.toggle()
                b.isFocusable.toggle()
            default:
                let frame =
                    Bool.random(using: &generator) ? Rect(x: a.frame.x, y: a.frame.y, width: 0, height: 0) : a.frame
                a.frame = frame
                b.frame = frame
            }
        }
    }

    @MainActor static func names(_ items: [any FocusItem]) -> [String] { items.map(\.focusDebugName) }

    @Test(
        "frame, visibility and focusability changes applied in place give what a rebuild gives, app's order or not",
        arguments: [1, 2, 3], [false, true])
    func inPlaceMatchesRebuild(seed: UInt64, orders: Bool) {
        var generator = SeededGenerator(seed: seed)
        let mirror = Mirror(generator: &generator, groups: 4, itemsPerGroup: 60, loose: 30, orders: orders)
        _ = mirror.liveFocus.tabLoop  // the first snapshot; every later one is updated in place
        for round in 0..<40 {
            for _ in 0..<Int.random(in: 1...3, using: &generator) { mirror.change(using: &generator) }
            let reference = FocusSystem(window: mirror.fresh, root: mirror.freshRoot)
            let live = mirror.liveFocus
            #expect(
                Self.names(live.tabLoop).map { name in
                    live.focusGroup(of: mirror.liveItems.first { $0.focusDebugName == name }!)
                }
                    == Self.names(reference.tabLoop).map { name in
                        reference.focusGroup(of: mirror.freshItems.first { $0.focusDebugName == name }!)
                    }, "round \(round): the tab loop's groups")
            for (a, b) in zip(mirror.liveItems, mirror.freshItems) {
                #expect(live.focusability(of: a) == reference.focusability(of: b), "round \(round): \(a.traceName)")
                #expect(live.focusGroup(of: a) == reference.focusGroup(of: b), "round \(round): \(a.traceName)")
            }
            // The focus debugger's tab order (which also names each stop's primary item) matches
            // while the live system has moved focus nowhere yet.
            if round == 0 { #expect(live.debugTabLoop == reference.debugTabLoop) }
        }
        // Tab walks the loop the rebuild computes.
        let reference = FocusSystem(window: mirror.fresh, root: mirror.freshRoot)
        mirror.liveFocus.updateFocusIfNeeded()
        reference.updateFocusIfNeeded()
        for step in 0..<30 {
            mirror.liveFocus.moveFocus(.next)
            reference.moveFocus(.next)
            #expect(
                mirror.liveFocus.focusedItem?.focusDebugName == reference.focusedItem?.focusDebugName, "Tab \(step)")
        }
    }

    @Test("an item moved across the row takes its new place in the tab loop, and leaves it when hidden")
    func movedItemTakesItsPlace() {
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 400, height: 100))
        window.addChild(root)
        let items = (0..<3).map {
            FocusNode(
                identifier: "n\($0)", frame: Rect(x: Double($0) * 50, y: 0, width: 40, height: 20), isFocusable: true)
        }
        for item in items { root.addChild(item) }
        let focus = FocusSystem(window: window, root: root)
        #expect(Self.names(focus.tabLoop) == ["n0", "n1", "n2"])
        items[0].frame.x = 200
        #expect(Self.names(focus.tabLoop) == ["n1", "n2", "n0"])
        items[1].isHidden = true
        #expect(Self.names(focus.tabLoop) == ["n2", "n0"])
        #expect(focus.focusability(of: items[1]) == .hidden)
        items[1].isHidden = false
        items[2].frame.y = -30
        #expect(Self.names(focus.tabLoop) == ["n2", "n1", "n0"])
        items[2].isFocusable = false
        items[2].isFocusable = true
        #expect(Self.names(focus.tabLoop) == ["n2", "n1", "n0"])
        #expect(focus.focusGroup(of: items[2]) == "n2 (single item)")
    }

    /// An adopter whose frame is the union of its children's (the protocol's default), declaring a group.
    @MainActor final class UnionGroup: FocusEnvironment {
        weak var parent: FocusNode?
        var children: [FocusNode] = []
        var parentFocusEnvironment: (any FocusEnvironment)? { parent }
        var childFocusEnvironments: [any FocusEnvironment] { children }
        var focusGroupIdentifier: String? { "union" }
    }

    /// A node whose focus children are given, not its responder children.
    final class Host: FocusNode {
        var focusChildren: [any FocusEnvironment] = []
        override var childFocusEnvironments: [any FocusEnvironment] { focusChildren }
    }

    /// A focus system over `before` (a focusable node at y 100) and a `UnionGroup` holding
    /// `members`: the nodes are responder children of one host (so they are in the window) and
    /// focus children of the group.
    static func unionScene(members: [FocusNode]) -> FocusSystem {
        let window = Window(identifier: "window")
        let host = Host(identifier: "host", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        window.addChild(host)
        let before = FocusNode(
            identifier: "before", frame: Rect(x: 100, y: 100, width: 40, height: 20), isFocusable: true)
        host.addChild(before)
        for member in members { host.addChild(member) }
        let union = UnionGroup()
        union.parent = host
        union.children = members
        host.focusChildren = [before, union]
        return FocusSystem(window: window, root: host)
    }

    @Test("an item inside a group whose frame follows its children moves the group too")
    func groupFrameFollowsChildren() {
        let inner = FocusNode(identifier: "inner", frame: Rect(x: 0, y: 0, width: 40, height: 20), isFocusable: true)
        let focus = Self.unionScene(members: [inner])
        #expect(Self.names(focus.tabLoop) == ["inner", "before"])
        inner.frame.y = 300
        #expect(Self.names(focus.tabLoop) == ["before", "inner"])
        #expect(focus.focusGroup(of: inner) == "union")
    }

    @Test("a non-focusable child moving inside a group whose frame follows its children moves the group")
    func unfocusableChildMovesUnionGroup() {
        let inner = FocusNode(identifier: "inner", frame: Rect(x: 0, y: 300, width: 40, height: 20), isFocusable: true)
        let label = FocusNode(identifier: "label", frame: Rect(x: 0, y: 0, width: 40, height: 20))
        let focus = Self.unionScene(members: [inner, label])
        #expect(Self.names(focus.tabLoop) == ["inner", "before"], "the group's frame starts at the label, y 0")
        label.frame.y = 350
        #expect(Self.names(focus.tabLoop) == ["before", "inner"], "now it starts at inner, y 300")
    }

    @Test("a modal scope presented around the focused item: Tab stays inside and reads the scope's items")
    func modalAroundFocusedItem() {
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        window.addChild(root)
        for (index, name) in ["a", "b"].enumerated() {
            root.addChild(
                FocusNode(
                    identifier: name, frame: Rect(x: Double(index) * 50, y: 0, width: 40, height: 20), isFocusable: true
                ))
        }
        let panel = FocusNode(identifier: "panel", frame: Rect(x: 0, y: 100, width: 400, height: 100))
        root.addChild(panel)
        let y = FocusNode(identifier: "y", frame: Rect(x: 0, y: 100, width: 40, height: 20), isFocusable: true)
        let z = FocusNode(identifier: "z", frame: Rect(x: 50, y: 100, width: 40, height: 20), isFocusable: true)
        panel.addChild(y)
        panel.addChild(z)
        let focus = FocusSystem(window: window, root: root)
        focus.requestFocus(on: y)
        focus.presentModal(panel)  // focus stays on y: nothing moves, no lookup is refreshed
        #expect(focus.focusedItem === y)
        focus.moveFocus(.next)
        #expect(focus.focusedItem === z)
        focus.moveFocus(.next)
        #expect(focus.focusedItem === y, "the loop is the panel's")
        focus.dismissModal(panel)
        focus.moveFocus(.next)
        #expect(focus.focusedItem === z)
    }

    @Test("a guide that moves is found at its new place by arrows")
    func guideMoves() {
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 600, height: 600))
        root.focusGroupIdentifier = "all"
        window.addChild(root)
        let a = FocusNode(identifier: "a", frame: Rect(x: 0, y: 0, width: 40, height: 20), isFocusable: true)
        let b = FocusNode(identifier: "b", frame: Rect(x: 300, y: 0, width: 40, height: 20), isFocusable: true)
        let c = FocusNode(identifier: "c", frame: Rect(x: 0, y: 300, width: 40, height: 20), isFocusable: true)
        let guide = FocusNode(identifier: "guide", frame: Rect(x: 100, y: 0, width: 40, height: 20))
        guide.focusRole = .guide(isEnabled: true)
        guide.preferredFocusIdentifiers = ["c"]
        for node in [a, b, c, guide] { root.addChild(node) }
        let focus = FocusSystem(window: window, root: root)
        focus.requestFocus(on: a)
        #expect(focus.target(for: .right) === c, "the guide lies between a and b and hands focus to c")
        guide.frame.y = 500
        #expect(focus.target(for: .right) === b, "the guide moved out of the way")
        guide.isHidden = true
        guide.frame.y = 0
        #expect(focus.target(for: .right) === b, "a hidden guide is ignored")
    }

    @Test("two unnamed automatic groups of one name form one group, as before")
    func automaticGroupsOfOneName() {
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        window.addChild(root)
        var items: [FocusNode] = []
        for index in 0..<2 {
            let list = FocusNode(frame: Rect(x: 0, y: Double(index) * 100, width: 400, height: 50))
            list.focusGroupKind = .container
            root.addChild(list)
            let item = FocusNode(
                identifier: "item\(index)", frame: Rect(x: 0, y: Double(index) * 100, width: 40, height: 20),
                isFocusable: true)
            list.addChild(item)
            items.append(item)
        }
        let focus = FocusSystem(window: window, root: root)
        #expect(focus.focusGroup(of: items[0]) == "FocusNode (automatic)")
        #expect(focus.focusGroup(of: items[1]) == "FocusNode (automatic)")
        #expect(focus.tabLoop.count == 1)
    }

    /// The rule in the focus documentation, searched over every item: nearest along the axis,
    /// then nearest across it, then reading order.
    @MainActor static func bruteForceArrow(
        from origin: FocusNode, heading: FocusHeading, among candidates: [FocusNode]
    ) -> String? {
        let epsilon = 0.001
        let o = origin.frame
        var best: (name: String, along: Double, across: Double, frame: Rect, order: Int)?
        for (order, candidate) in candidates.enumerated() where candidate !== origin {
            let c = candidate.frame
            let overlapsV = c.minY < o.maxY - epsilon && c.maxY > o.minY + epsilon
            let overlapsH = c.minX < o.maxX - epsilon && c.maxX > o.minX + epsilon
            let measure: (Double, Double)?
            switch heading {
            case .right where overlapsV && c.minX >= o.maxX - epsilon: measure = (c.minX - o.maxX, abs(c.midY - o.midY))
            case .left where overlapsV && c.maxX <= o.minX + epsilon: measure = (o.minX - c.maxX, abs(c.midY - o.midY))
            case .down where overlapsH && c.minY >= o.maxY - epsilon: measure = (c.minY - o.maxY, abs(c.midX - o.midX))
            case .up where overlapsH && c.maxY <= o.minY + epsilon: measure = (o.minY - c.maxY, abs(c.midX - o.midX))
            default: measure = nil
            }
            guard let (along, across) = measure else { continue }
            if let current = best {
                if along > current.along || (along == current.along && across > current.across) { continue }
                if along == current.along && across == current.across {
                    let earlier =
                        c.minY != current.frame.minY
                        ? c.minY < current.frame.minY
                        : c.minX != current.frame.minX ? c.minX < current.frame.minX : order < current.order
                    if !earlier { continue }
                }
            }
            best = (candidate.traceName, along, across, c, order)
        }
        return best?.name
    }

    @Test("arrows through the grid land where a search of every item lands", arguments: [7, 8])
    func arrowsMatchBruteForce(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 2000, height: 2000))
        root.focusGroupIdentifier = "all"
        window.addChild(root)
        var items: [FocusNode] = []
        for index in 0..<400 {
            // Mostly small items, a few wide or tall ones (the grid keeps those apart).
            var frame = Mirror.randomFrame(in: Rect(x: 0, y: 0, width: 2000, height: 2000), using: &generator)
            if index % 40 == 0 { frame.width = 900 }
            if index % 55 == 0 { frame.height = 700 }
            let node = FocusNode(identifier: "i\(index)", frame: frame, isFocusable: true)
            root.addChild(node)
            items.append(node)
        }
        let focus = FocusSystem(window: window, root: root)
        for style in [FocusSystem.NavigationStyle.keyboard, .directional] {
            focus.navigationStyle = style
            for round in 0..<60 {
                let origin = items[Int.random(in: 0..<items.count, using: &generator)]
                focus.requestFocus(on: origin)
                for heading in [FocusHeading.up, .down, .left, .right] {
                    #expect(
                        focus.target(for: heading)?.focusDebugName
                            == Self.bruteForceArrow(from: origin, heading: heading, among: items),
                        "\(style) round \(round): \(heading) from \(origin.traceName) \(origin.frame)")
                }
                if round % 10 == 0 {
                    // Move an item: the grid follows.
                    let moved = items[Int.random(in: 0..<items.count, using: &generator)]
                    moved.frame = Mirror.randomFrame(in: Rect(x: 0, y: 0, width: 2000, height: 2000), using: &generator)
                }
            }
        }
    }
}
