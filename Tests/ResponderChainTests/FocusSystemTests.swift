import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct FocusTabLoopTests {
    @Test("Reminders without a sidebar group: search field, reminders, lists")
    func remindersWithoutSidebarGroup() {
        let scene = RemindersWindow(sidebarGroup: false)
        #expect(scene.harness.tabLoopNames == ["search", "milk", "today"])
        scene.harness.focus.updateFocusIfNeeded()
        #expect(scene.harness.focusedName == "search")
        scene.harness.keyboard.type("tab tab tab")
        #expect(
            scene.harness.trace.records.compactMap { record -> String? in
                if case .focus(_, let to, _, _, _, _) = record.kind { return to }
                return nil
            } == ["search", "milk", "today", "search"])
    }

    @Test("Reminders with a parent group on the sidebar: search field, lists, reminders")
    func remindersWithSidebarGroup() {
        let scene = RemindersWindow(sidebarGroup: true)
        #expect(scene.harness.tabLoopNames == ["search", "today", "milk"])
        #expect(scene.harness.focus.focusGroup(of: scene.listRows[1]) == "lists (automatic)")
    }

    @Test("Tab wraps at the end and Shift-Tab at the start")
    func wrapsBothWays() {
        let h = FocusHarness()
        let a = h.node("a", 0, 0, 100, 40)
        h.node("b", 200, 0, 100, 40)
        let c = h.node("c", 400, 0, 100, 40)
        h.focus.requestFocus(on: c)
        h.keyboard.tap("tab")
        #expect(h.focusedName == "a")
        h.keyboard.tap("shift+tab")
        #expect(h.focusedName == "c")
        h.focus.requestFocus(on: a)
        h.keyboard.tap("shift+tab")
        #expect(h.focusedName == "c")
    }

    @Test("right-to-left: reading order starts at the right edge")
    func rightToLeft() {
        let h = FocusHarness()
        h.node("left", 0, 0, 100, 40)
        h.node("middle", 200, 0, 100, 40)
        h.node("right", 400, 0, 100, 40)
        h.node("below", 0, 100, 100, 40)
        #expect(h.tabLoopNames == ["left", "middle", "right", "below"])
        h.window.layoutDirection = .rightToLeft
        #expect(h.tabLoopNames == ["right", "middle", "left", "below"])
        h.window.layoutDirection = .leftToRight
        h.root.layoutDirection = .rightToLeft
        #expect(h.tabLoopNames == ["right", "middle", "left", "below"], "a subtree can override the direction")
    }

    @Test("a nested group sorts as one block at its parent's position")
    func nestedGroupBlock() {
        let h = FocusHarness()
        let panel = h.node("panel", 0, 0, 200, 400, focusable: false, group: "panel")
        h.node("p1", 0, 300, 200, 40, in: panel)
        h.node("outside", 300, 100, 100, 40)
        #expect(h.tabLoopNames == ["p1", "outside"], "the panel sorts at y 0, before outside at y 100")
    }

    @Test("Tab takes each group's primary item, not its first item")
    func primaryItemOnTab() {
        let h = FocusHarness()
        let left = h.node("left", 0, 0, 100, 40)
        let list = h.node("list", 300, 0, 200, 300, focusable: false, group: "list")
        h.node("row1", 300, 0, 200, 40, in: list)
        let row2 = h.node("row2", 300, 40, 200, 40, in: list)
        h.focus.requestFocus(on: left)
        h.keyboard.tap("tab")
        #expect(h.focusedName == "row1", "ties go to reading order")
        h.keyboard.tap("down")
        #expect(h.focusedName == "row2")
        h.keyboard.tap("tab")
        #expect(h.focusedName == "left")
        h.keyboard.tap("tab")
        #expect(h.focusedName == "row2", "re-entering the group restores the remembered item")
        #expect(h.focus.tabLoop.contains { $0 === row2 })
    }
}

@MainActor @Suite struct FocusPriorityTests {
    func scene() -> (FocusHarness, ObservedNode, ObservedNode, ObservedNode, ObservedNode) {
        let h = FocusHarness()
        let outside = h.node("outside", 0, 0, 100, 40)
        let list = h.node("list", 300, 0, 200, 300, focusable: false, group: "list")
        let first = h.node("first", 300, 0, 200, 40, in: list)
        let remembered = h.node("remembered", 300, 40, 200, 40, in: list)
        let boosted = h.node("boosted", 300, 80, 200, 40, in: list)
        h.focus.requestFocus(on: remembered)
        h.focus.requestFocus(on: outside)
        _ = first
        return (h, outside, remembered, boosted, list)
    }

    @Test("the remembered item beats an ignored one")
    func rememberedWins() {
        let (h, _, _, _, _) = scene()
        h.keyboard.tap("tab")
        #expect(h.focusedName == "remembered")
    }

    @Test("previouslyFocused + 10 beats the remembered item")
    func raisedBeatsRemembered() {
        let (h, _, _, boosted, _) = scene()
        boosted.focusGroupPriority = .previouslyFocused + 10
        h.keyboard.tap("tab")
        #expect(h.focusedName == "boosted")
    }

    @Test("prioritized beats previouslyFocused + 10")
    func prioritizedBeatsRaised() {
        let (h, _, remembered, boosted, _) = scene()
        boosted.focusGroupPriority = .previouslyFocused + 10
        remembered.focusGroupPriority = .prioritized
        h.keyboard.tap("tab")
        #expect(h.focusedName == "remembered")
    }

    @Test("a low custom priority never lowers the system's: the remembered item stays primary")
    func raiseOnly() {
        let (h, _, remembered, _, _) = scene()
        remembered.focusGroupPriority = FocusGroupPriority(rawValue: -5)
        h.keyboard.tap("tab")
        #expect(h.focusedName == "remembered")
    }
}

@MainActor @Suite struct FocusArrowTests {
    func grid() -> FocusHarness {
        let h = FocusHarness()
        let grid = h.node("grid", 0, 0, 200, 200, focusable: false, group: "grid")
        h.node("topLeft", 0, 0, 100, 100, in: grid)
        h.node("topRight", 100, 0, 100, 100, in: grid)
        h.node("bottomLeft", 0, 100, 100, 100, in: grid)
        h.node("bottomRight", 100, 100, 100, 100, in: grid)
        h.node("other", 500, 0, 100, 100)
        return h
    }

    @Test("a 2×2 grid: all four arrows move inside the group; Tab and Shift-Tab leave it")
    func twoByTwo() {
        let h = grid()
        h.focus.updateFocusIfNeeded()
        #expect(h.focusedName == "topLeft")
        h.keyboard.tap("right")
        #expect(h.focusedName == "topRight")
        h.keyboard.tap("down")
        #expect(h.focusedName == "bottomRight")
        h.keyboard.tap("left")
        #expect(h.focusedName == "bottomLeft")
        h.keyboard.tap("up")
        #expect(h.focusedName == "topLeft")
        h.keyboard.tap("left")
        #expect(h.focusedName == "topLeft", "nothing to the left: no move")
        h.keyboard.tap("tab")
        #expect(h.focusedName == "other")
        h.keyboard.tap("shift+tab")
        #expect(h.focusedName == "topLeft", "the grid's remembered item")
        h.keyboard.tap("right")
        h.keyboard.tap("right")
        #expect(h.focusedName == "topRight", "arrows stay inside the group in keyboard style")
    }

    @Test("irregular grid: an item only diagonally placed is not a target")
    func irregularGridNoMove() {
        let h = FocusHarness()
        let group = h.node("g", 0, 0, 400, 400, focusable: false, group: "g")
        let a = h.node("a", 0, 0, 100, 100, in: group)
        h.node("diagonal", 150, 150, 100, 100, in: group)
        h.focus.requestFocus(on: a)
        h.keyboard.tap("right")
        h.keyboard.tap("down")
        #expect(h.focusedName == "a")
        h.trace.expectUnhandled(.rightArrow)
        #expect(h.trace.lines.contains("stage systemBehavior declined: focus: no focusable item right of a"))
    }

    @Test("nearest along the axis first, then the smallest offset across it, then reading order")
    func ranking() {
        let h = FocusHarness()
        let group = h.node("g", 0, 0, 1000, 400, focusable: false, group: "g")
        let origin = h.node("origin", 0, 100, 100, 100, in: group)
        h.node("far", 400, 100, 100, 100, in: group)
        h.node("nearHigh", 200, 20, 100, 100, in: group)
        h.node("nearLow", 200, 150, 100, 100, in: group)
        h.focus.requestFocus(on: origin)
        #expect(h.focus.target(for: .right)?.focusDebugName == "nearLow", "offset 50 beats offset 80")
        let twin = h.node("twin", 200, 50, 100, 100, in: group)
        #expect(h.focus.target(for: .right)?.focusDebugName == "twin", "offset 50 ties; reading order: twin is higher")
        _ = twin
    }

    @Test("directional style: arrows cross groups and Tab is not a focus key")
    func directionalStyle() {
        let h = grid()
        h.focus.navigationStyle = .directional
        h.focus.updateFocusIfNeeded()
        h.keyboard.tap("right")
        h.keyboard.tap("right")
        #expect(h.focusedName == "other")
        h.keyboard.tap("tab")
        #expect(h.focusedName == "other")
        h.trace.expectUnhandled(.tab)
    }

    @Test("a focused item removed, then an arrow: focus moved to a sensible place and the arrow works from there")
    func removedThenArrow() {
        let h = grid()
        let grid = h.root.children.first as! FocusNode
        let topRight = grid.children[1] as! FocusNode
        h.focus.requestFocus(on: topRight)
        topRight.removeFromParent()
        h.keyboard.tap("down")
        #expect(h.trace.lines.contains("focus topRight -> topLeft (removal)"), "same group: no group change noted")
        #expect(h.focusedName == "bottomLeft")
    }

    @Test("hiding the focused item or making it unfocusable moves focus")
    func hiddenOrUnfocusable() {
        let h = grid()
        h.focus.updateFocusIfNeeded()
        let topLeft = h.focus.focusedItem as! FocusNode
        topLeft.isHidden = true
        h.focus.updateFocusIfNeeded()
        #expect(h.focusedName == "topRight")
        (h.focus.focusedItem as! FocusNode).isFocusable = false
        h.focus.updateFocusIfNeeded()
        #expect(h.focusedName == "bottomLeft")
    }
}

@MainActor @Suite struct FocusUpdateTests {
    @Test("didUpdateFocus reaches every ancestor of both items exactly once, and shouldUpdateFocus too")
    func notificationCounts() {
        let h = FocusHarness()
        let left = h.node("leftPanel", 0, 0, 300, 700, focusable: false, group: "left")
        let right = h.node("rightPanel", 300, 0, 700, 700, focusable: false, group: "right")
        let a = h.node("a", 0, 0, 300, 40, in: left)
        let b = h.node("b", 300, 0, 300, 40, in: right)
        h.focus.requestFocus(on: a)
        for node in [h.root, left, right, a, b] {
            node.didUpdateCount = 0
            node.shouldUpdateCount = 0
        }
        h.keyboard.tap("tab")
        #expect(h.focusedName == "b")
        for node in [h.root, left, right, a, b] {
            #expect(node.didUpdateCount == 1, "\(node.traceName)")
            #expect(node.shouldUpdateCount == 1, "\(node.traceName)")
        }
        let context = h.root.contexts.last!
        #expect(context.previouslyFocusedItem === a && context.nextFocusedItem === b)
        #expect(context.heading == .next && context.cause == .tab)
        #expect(context.groupChanged && context.previousGroup == "left" && context.nextGroup == "right")
    }

    @Test("a focus observer whose removal frees an object that removes another observer")
    func focusObserversChangingObservers() {
        let h = FocusHarness()
        let a = h.node("a", 0, 0, 100, 40)
        _ = h.node("b", 200, 0, 100, 40)
        h.focus.requestFocus(on: a)
        var seen = 0
        let focus = h.focus
        let other = focus.addObserver { _ in seen += 1 }
        var holder: UInt64 = 0
        do {
            let owned = OnDeinit { focus.removeObserver(other) }
            holder = focus.addObserver { [owned] _ in _ = owned }
        }
        focus.removeObserver(holder)
        h.keyboard.tap("tab")
        #expect(h.focusedName == "b")
        #expect(seen == 0)
    }

    @Test("environments are asked and told in order: the previous item's chain, then the next item's own ancestors")
    func notificationOrder() {
        let h = FocusHarness()
        let left = h.node("left", 0, 0, 300, 700, focusable: false, group: "left")
        let right = h.node("right", 300, 0, 700, 700, focusable: false, group: "right")
        let a = h.node("a", 0, 0, 300, 40, in: left)
        let b = h.node("b", 300, 0, 300, 40, in: right)
        let c = h.node("c", 300, 100, 300, 40, in: right)
        let log = UpdateLog()
        for node in [h.root, left, right, a, b, c] { node.log = log }
        h.focus.requestFocus(on: a)
        log.entries = []
        // a's chain was recorded when it was focused and the tree has not changed since.
        h.keyboard.tap("tab")
        #expect(h.focusedName == "b")
        let order = ["a", "left", "root", "b", "right"]
        #expect(log.entries == order.map { "should " + $0 } + order.map { "did " + $0 })
        // A veto stops the asking and tells nobody.
        log.entries = []
        c.vetoes = true
        h.keyboard.press(.downArrow)
        h.keyboard.release(.downArrow)
        #expect(h.focusedName == "b")
        #expect(log.entries == ["should b", "should right", "should root", "should c"])
        // The veto left b's recorded chain in place: the next move reads it again.
        log.entries = []
        h.keyboard.tap("shift+tab")
        #expect(h.focusedName == "a")
        let back = ["b", "right", "root", "a", "left"]
        #expect(log.entries == back.map { "should " + $0 } + back.map { "did " + $0 })
        // After a layout change a's recorded chain is stale: the chain is walked again, same order.
        log.entries = []
        c.frame.x = 310
        h.keyboard.tap("tab")
        #expect(h.focusedName == "b")
        #expect(log.entries == order.map { "should " + $0 } + order.map { "did " + $0 })
    }

    @Test("an environment of either item can veto; focus stays and the trace says who")
    func veto() {
        let h = FocusHarness()
        let a = h.node("a", 0, 0, 100, 40)
        let b = h.node("b", 200, 0, 100, 40)
        h.focus.requestFocus(on: a)
        b.vetoes = true
        h.keyboard.tap("tab")
        #expect(h.focusedName == "a")
        #expect(h.trace.lines.contains("focus a -> b vetoed by b"))
        #expect(a.didUpdateCount == 1, "no didUpdate for the vetoed update")
    }

    @Test("the outermost pending request wins")
    func outermostRequestWins() {
        let h = FocusHarness()
        let panel = h.node("panel", 0, 0, 300, 300, focusable: false, group: "panel")
        let inner = h.node("inner", 0, 100, 100, 40, in: panel)
        h.node("first", 0, 0, 100, 40, in: panel)
        h.focus.setNeedsFocusUpdate(on: inner)
        h.focus.setNeedsFocusUpdate(on: panel)
        h.focus.updateFocusIfNeeded()
        #expect(h.focusedName == "first", "panel replaced the request inside it")
        h.focus.setNeedsFocusUpdate(on: panel)
        h.focus.setNeedsFocusUpdate(on: inner)
        h.focus.updateFocusIfNeeded()
        #expect(h.focusedName == "first", "a request inside the pending one is ignored")
    }

    @Test("initial focus follows preferred focus environments")
    func preferredEnvironments() {
        let h = FocusHarness()
        h.node("a", 0, 0, 100, 40)
        h.node("b", 200, 0, 100, 40)
        h.root.preferredFocusIdentifiers = ["b"]
        h.focus.updateFocusIfNeeded()
        #expect(h.focusedName == "b")
    }

    @Test("activate-only items need full keyboard access; the debugger says why")
    func fullKeyboardAccess() {
        let h = FocusHarness()
        let button = h.node("button", 0, 0, 100, 40)
        button.focusInteractions = .activate
        let field = h.node("field", 200, 0, 100, 40)
        field.focusInteractions = .edit
        #expect(h.tabLoopNames == ["button", "field"])
        h.focus.fullKeyboardAccess = false
        #expect(h.tabLoopNames == ["field"])
        #expect(h.focus.focusability(of: button) == .activateOnlyWithoutFullKeyboardAccess)
        let hidden = h.node("hidden", 0, 100, 100, 40)
        hidden.isHidden = true
        let tiny = h.node("tiny", 0, 200, 0, 40)
        #expect(h.focus.focusability(of: hidden) == .hidden)
        #expect(h.focus.focusability(of: tiny) == .zeroSize)
    }
}

@MainActor @Suite struct FocusResponderSyncTests {
    @Test("focus moving makes the nearest responder at or above the item first responder")
    func focusToFirstResponder() {
        let h = FocusHarness()
        let form = h.node("form", 0, 0, 500, 500, focusable: false, group: "form")
        form.acceptsFirstResponder = true
        let row = h.node("row", 0, 0, 100, 40, in: form)
        let field = TextInputNode(identifier: "field", frame: Rect(x: 600, y: 0, width: 100, height: 40))
        h.root.addChild(field)
        h.focus.requestFocus(on: row)
        #expect(h.window.firstResponder === form, "row cannot become first responder; form can")
        h.trace.clear()
        h.keyboard.tap("tab")
        #expect(h.window.firstResponder === field)
        let changes = h.trace.lines.filter { $0.hasPrefix("firstResponder") }
        #expect(changes == ["firstResponder form -> field"], "one change, no loop")
    }

    @Test("becomeFirstResponder moves focus inside the new first responder")
    func firstResponderToFocus() {
        let h = FocusHarness()
        let a = h.node("a", 0, 0, 100, 40)
        let panel = h.node("panel", 300, 0, 300, 300, focusable: false, group: "panel")
        panel.acceptsFirstResponder = true
        h.node("inside", 300, 0, 100, 40, in: panel)
        h.focus.requestFocus(on: a)
        h.trace.clear()
        panel.becomeFirstResponder()
        #expect(h.focusedName == "inside")
        #expect(
            h.trace.lines.filter { $0.hasPrefix("focus") } == [
                "focus a -> inside (firstResponder, group \"a (single item)\" -> \"panel\")"
            ])
        #expect(h.window.firstResponder === panel)
    }

    @Test("key commands start from the focused item; Tab beats a plain command, a priority command beats Tab")
    func wantsPriorityBothWays() {
        let h = FocusHarness()
        let a = h.node("a", 0, 0, 100, 40)
        h.node("b", 200, 0, 100, 40)
        a.performableActions = ["indent"]
        a.keyCommands = [KeyCommand(.tab, action: "indent", title: "Indent")]
        h.focus.requestFocus(on: a)
        h.keyboard.tap("tab")
        #expect(h.focusedName == "b", "the focus system took Tab")
        h.focus.requestFocus(on: a)
        a.keyCommands = [KeyCommand(.tab, action: "indent", title: "Indent", wantsPriorityOverSystemBehavior: true)]
        var performed = 0
        a.onAction = { _, _ in performed += 1 }
        h.keyboard.tap("tab")
        #expect(h.focusedName == "a")
        #expect(performed == 1)
    }

    @Test("a focused text field takes arrows and characters; Tab still moves focus")
    func textFieldAndFocusKeys() {
        let h = FocusHarness()
        let field = TextInputNode(identifier: "field", frame: Rect(x: 0, y: 0, width: 100, height: 40))
        h.root.addChild(field)
        h.node("next", 0, 100, 100, 40)
        h.focus.requestFocus(on: field)
        h.keyboard.type("h i down")
        #expect(field.text == "hi")
        #expect(h.focusedName == "field")
        h.keyboard.tap("tab")
        #expect(h.focusedName == "next")
        #expect(!field.isFirstResponder)
    }
}

@MainActor @Suite struct FocusSelectionTests {
    @Test("Return selects the focused item: its primary action goes up from it; Space when configured")
    func select() {
        let h = FocusHarness()
        let row = h.node("row", 0, 0, 100, 40)
        row.primaryAction = "open"
        var opened = 0
        h.root.performableActions = ["open"]
        h.root.onAction = { action, sender in
            if action == "open", case .focusSelection = sender { opened += 1 }
        }
        h.focus.requestFocus(on: row)
        h.trace.clear()
        h.keyboard.tap("return")
        #expect(opened == 1)
        let took = h.trace.stages.first { $0.outcome == .took }
        #expect(took?.stage == .systemBehavior)
        #expect(took?.reason == "focus: Enter selects row: root performed open", "the reason names who performed what")
        h.keyboard.tap("space")
        #expect(opened == 1)
        h.focus.selectKeys.insert(.space)
        h.keyboard.tap("space")
        #expect(opened == 2)
    }

    @Test("selection follows focus in a container that asks for it, unless an item opts out")
    func selectionFollowsFocus() {
        let h = FocusHarness()
        let list = h.node("list", 0, 0, 200, 300, focusable: false, group: "list")
        list.selectionFollowsFocus = true
        var selected: [String] = []
        h.root.performableActions = ["show"]
        h.root.onAction = { _, _ in selected.append(h.focusedName ?? "") }
        let one = h.node("one", 0, 0, 200, 40, in: list)
        let two = h.node("two", 0, 40, 200, 40, in: list)
        let three = h.node("three", 0, 80, 200, 40, in: list)
        for row in [one, two, three] { row.primaryAction = "show" }
        three.selectionFollowsFocus = false
        h.focus.requestFocus(on: one)
        h.keyboard.tap("down")
        h.keyboard.tap("down")
        #expect(selected == ["two"])
    }
}

@MainActor @Suite struct FocusGuideAndSectionTests {
    @Test("a guide in the gap redirects an arrow to its preferred item; disabled, it is ignored")
    func guide() {
        let h = FocusHarness()
        h.focus.navigationStyle = .directional
        let left = h.node("left", 0, 0, 100, 100)
        h.node("target", 400, 300, 100, 100)
        let guide = h.node("guide", 200, 0, 50, 100, focusable: false)
        guide.focusRole = .guide(isEnabled: true)
        guide.preferredFocusIdentifiers = ["target"]
        h.focus.requestFocus(on: left)
        #expect(h.focus.target(for: .right)?.focusDebugName == "target")
        guide.focusRole = .guide(isEnabled: false)
        #expect(h.focus.target(for: .right) == nil)
    }

    @Test("a section is one target from outside and hands focus to its nearest content")
    func section() {
        let h = FocusHarness()
        h.focus.navigationStyle = .directional
        let start = h.node("start", 0, 300, 100, 100)
        let section = h.node("section", 300, 0, 300, 700, focusable: false)
        section.focusRole = .section
        h.node("top", 300, 0, 300, 100, in: section)
        h.node("nearStart", 350, 500, 100, 100, in: section)
        h.focus.requestFocus(on: start)
        #expect(
            h.focus.target(for: .right)?.focusDebugName == "nearStart",
            "no item overlaps start's row, yet the section does")
        h.keyboard.tap("right")
        h.keyboard.tap("up")
        #expect(h.focusedName == "top", "inside the section its content is searched normally")
    }
}

@MainActor @Suite struct FocusDebuggerTests {
    @Test("status, group tree, tab loop and focusability read as documented")
    func reminders() {
        let scene = RemindersWindow(sidebarGroup: true)
        let focus = scene.harness.focus
        focus.updateFocusIfNeeded()
        scene.listRows[2].isHidden = true
        #expect(
            focus.debugStatus.hasPrefix("focused: search (group \"search (automatic)\")\nfirst responder: search\n"))
        #expect(
            focus.debugTabLoop == """
                tab loop (3 stops, Tab):
                  1. search  (group "search (automatic)")  <- focus is here
                  2. today  (group "lists (automatic)")
                  3. milk  (group "reminders (automatic)")
                """)
        let tree = focus.debugGroupTree
        #expect(
            tree.contains(
                "group \"sidebar\" [focusGroupIdentifier on sidebar] primary: search (via \"search (automatic)\")"))
        #expect(!tree.contains("- lists: not focusable"), "plain containers are left out of the tree")
        #expect(
            tree.contains(
                "- search: priority custom ignored, system currentlyFocused, effective currentlyFocused  <- focused"))
        #expect(tree.contains("- all: not focusable: hidden"))
        #expect(
            focus.explainFocusability(of: scene.listRows[1])
                == "scheduled: focusable, group \"lists (automatic)\", priority custom ignored, system ignored, effective ignored"
        )
        #expect(focus.explainFocusability(of: scene.lists) == "lists: not focusable: canBecomeFocused is false")
        #expect(focus.debugDescription.contains(focus.debugTabLoop))
    }

    @Test("a dry run lists each resolution step and changes nothing")
    func dryRun() {
        let scene = RemindersWindow(sidebarGroup: false)
        let focus = scene.harness.focus
        focus.requestFocus(on: scene.reminderRows[1])
        let run = focus.dryRunRequest(on: scene.lists)
        #expect(
            run == """
                request focus on lists:
                  lists: not focusable: canBecomeFocused is false
                  preferred focus environments of lists: none
                  first tab stop inside lists: group "lists (automatic)", primary item today
                => focus would move from call to today (group "reminders (automatic)" -> "lists (automatic)")
                => shouldUpdateFocus would be asked of: call, reminders, root, today, lists
                """)
        #expect(scene.harness.focusedName == "call")
    }
}

@MainActor @Suite struct FocusBindingTests {
    enum Field: Hashable { case name, email }

    @Test("the value follows focus, setting it moves focus, nil clears it")
    func binding() {
        let h = FocusHarness()
        let name = TextInputNode(identifier: "name", frame: Rect(x: 0, y: 0, width: 100, height: 40))
        let email = TextInputNode(identifier: "email", frame: Rect(x: 0, y: 100, width: 100, height: 40))
        let other = h.node("other", 0, 200, 100, 40)
        h.root.addChild(name)
        h.root.addChild(email)
        let field = FocusBinding<Field>(h.focus)
        field.bind(name, to: .name)
        field.bind(email, to: .email)
        var changes: [Field?] = []
        field.onChange = { changes.append($0) }
        #expect(field.value == nil)
        field.value = .email
        #expect(h.focusedName == "email" && field.value == .email && email.isFirstResponder)
        h.keyboard.tap("shift+tab")
        #expect(field.value == .name)
        h.focus.requestFocus(on: other)
        #expect(field.value == nil)
        field.value = .name
        field.value = nil
        #expect(h.focus.focusedItem == nil && !name.isFirstResponder)
        #expect(changes == [.email, .name, nil, .name, nil])
    }
}

@MainActor @Suite struct FocusReentrancyTests {
    final class Redirector: FocusNode {
        weak var focus: FocusSystem?
        var redirectTo: FocusNode?
        override func didUpdateFocus(in context: FocusUpdateContext) {
            if context.nextFocusedItem === self, let target = redirectTo {
                redirectTo = nil
                focus?.requestFocus(on: target)
            }
        }
    }

    @Test("a focus request made inside didUpdateFocus runs right after the update, without nesting")
    func requestInsideDidUpdate() {
        let h = FocusHarness()
        h.node("a", 0, 0, 100, 40)
        let trap = Redirector(identifier: "trap", frame: Rect(x: 200, y: 0, width: 100, height: 40), isFocusable: true)
        h.root.addChild(trap)
        let c = h.node("c", 400, 0, 100, 40)
        trap.focus = h.focus
        trap.redirectTo = c
        h.focus.updateFocusIfNeeded()
        h.keyboard.tap("tab")
        #expect(h.focusedName == "c")
        #expect(
            h.trace.lines.filter { $0.hasPrefix("focus ") } == [
                "focus none -> a (request, group none -> \"a (single item)\")",
                "focus a -> trap (tab, next, group \"a (single item)\" -> \"trap (single item)\")",
                "focus trap -> c (request, group \"trap (single item)\" -> \"c (single item)\")",
            ])
    }
}
