import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct ModalScopeTests {
    /// A list of three rows and, hidden until presented, a dialog with two buttons.
    @MainActor struct Screen {
        let harness = FocusHarness()
        let rows: [ObservedNode]
        let dialog: ObservedNode
        let ok: ObservedNode
        let cancel: ObservedNode

        init() {
            let harness = harness
            rows = (0..<3).map { harness.node("row\($0)", 0, Double($0) * 50, 200, 40, group: "list") }
            dialog = harness.node("dialog", 300, 80, 300, 200, focusable: false)
            // Level with row2 (y 100…140): directional arrows would reach it without the scope.
            ok = harness.node("ok", 320, 100, 100, 40, in: dialog)
            cancel = harness.node("cancel", 460, 100, 100, 40, in: dialog)
            dialog.isHidden = true
            harness.focus.updateFocusIfNeeded()
        }

        func present() {
            dialog.isHidden = false
            harness.focus.presentModal(dialog)
        }
    }

    @Test("a modal scope takes focus, keeps Tab and the arrows inside, and gives focus back when dismissed")
    func trapAndRestore() {
        let screen = Screen()
        screen.harness.keyboard.tap("down")
        #expect(screen.harness.focusedName == "row1")
        screen.present()
        #expect(screen.harness.focusedName == "ok")
        var visited: [String?] = []
        for key in ["tab", "tab", "shift+tab", "left", "up", "down"] {
            screen.harness.keyboard.tap(key)
            visited.append(screen.harness.focusedName)
        }
        // Each button is a tab stop of its own; the arrows find nothing in the scope beside it
        // (the rows outside are not candidates).
        #expect(visited == ["cancel", "ok", "cancel", "cancel", "cancel", "cancel"])
        #expect(screen.harness.focus.tabLoop.map(\.focusDebugName) == ["ok", "cancel"])
        screen.harness.focus.navigationStyle = .directional
        screen.harness.keyboard.type("left left")
        #expect(screen.harness.focusedName == "ok", "left stops at the scope's edge: row2 is outside")
        screen.harness.focus.navigationStyle = .keyboard
        screen.harness.focus.dismissModal(screen.dialog)
        screen.dialog.isHidden = true
        #expect(screen.harness.focusedName == "row1", "focus returns to where it was")
        #expect(screen.harness.focus.modalScope == nil)
        screen.harness.keyboard.tap("down")
        #expect(screen.harness.focusedName == "row2")
    }

    @Test("Escape inside the scope reaches its onExitCommand, which dismisses it")
    func escapeDismisses() {
        let screen = Screen()
        screen.dialog.onExitCommand { [unowned screen = screen.harness.focus, unowned dialog = screen.dialog] in
            screen.dismissModal(dialog)
            dialog.isHidden = true
        }
        screen.present()
        for node in [screen.ok, screen.cancel] { node.acceptsFirstResponder = true }
        screen.harness.focus.updateFocusIfNeeded()
        screen.harness.keyboard.tap("tab")
        #expect(screen.harness.focusedName == "cancel")
        screen.harness.keyboard.tap("escape")
        #expect(screen.harness.focusedName == "row0")
    }

    @Test("when the item focused before is gone, dismissal focuses the preferred item; nested scopes unwind")
    func nestedAndRemoved() {
        let screen = Screen()
        screen.harness.keyboard.type("down down")
        #expect(screen.harness.focusedName == "row2")
        screen.present()
        let inner = screen.harness.node("confirm", 320, 260, 100, 30, in: screen.dialog)
        screen.harness.focus.presentModal(inner)
        #expect(screen.harness.focusedName == "confirm")
        screen.rows[2].isHidden = true
        screen.harness.focus.dismissModal(screen.dialog)
        #expect(screen.harness.focus.modalScope == nil, "dismissing the outer scope ends the inner one")
        #expect(screen.harness.focusedName != "row2" && screen.harness.focusedName != nil)
    }

    @Test("a scrolling container is asked to reveal each item focus reaches; off-screen items stay reachable")
    func reveal() {
        let harness = FocusHarness()
        let list = harness.node("list", 0, 0, 200, 100, focusable: false, group: "list")
        // 10 rows of 40 points in a 100-point viewport: rows beyond the third are off screen.
        var offset = 0.0
        let rows = (0..<10).map { harness.node("row\($0)", 0, Double($0) * 40, 200, 40, in: list) }
        var revealed: [String] = []
        list.onReveal = { item in
            revealed.append(item.focusDebugName)
            let row = rows.firstIndex { $0 === item }!
            let top = Double(row) * 40
            if top < offset { offset = top } else if top + 40 > offset + 100 { offset = top + 40 - 100 }
            for (index, node) in rows.enumerated() {
                node.frame = Rect(x: 0, y: Double(index) * 40 - offset, width: 200, height: 40)
            }
        }
        harness.focus.updateFocusIfNeeded()
        for _ in 0..<5 { harness.keyboard.tap("down") }
        #expect(harness.focusedName == "row5")
        #expect(revealed == ["row0", "row1", "row2", "row3", "row4", "row5"])
        #expect(offset == 140, "row 5 (200…240) is at the bottom of the viewport")
        #expect(rows[5].frame.y == 60)
        harness.keyboard.tap("up")
        #expect(harness.focusedName == "row4")
    }
}
