import ResponderChain
import ResponderChainTesting
import Testing

/// The conflict report and the discoverability list after focus moves: the index is reused
/// between chain starts with the same declarers, and what it reports must not depend on where the
/// index was built.
@MainActor @Suite struct KeyCommandStandingTests {
    /// The newcomer's parking kiosk: commands only on the root, a plate field above a row of buttons.
    @MainActor
    struct ParkingScreen {
        let harness = FocusHarness()
        let plate: TextInputNode
        let buttons: [FocusNode]

        init() {
            let root = harness.root
            root.performableActions = ["pay", "lost", "help"]
            root.keyCommands = [
                KeyCommand("p", modifierFlags: .control, action: "pay", title: "Pay"),
                KeyCommand("l", modifierFlags: .control, action: "lost", title: "Lost ticket"),
                KeyCommand(.f1, action: "help", title: "Help"),
            ]
            plate = TextInputNode(identifier: "plate", frame: Rect(x: 10, y: 10, width: 300, height: 40))
            root.addChild(plate)
            let row = FocusNode(identifier: "buttons", frame: Rect(x: 0, y: 100, width: 400, height: 40))
            row.focusGroupIdentifier = "buttons"
            root.addChild(row)
            buttons = ["pay", "lost", "cancel"].enumerated().map { index, name in
                let button = FocusNode(
                    identifier: name, frame: Rect(x: 10 + Double(index) * 110, y: 100, width: 100, height: 40),
                    isFocusable: true)
                row.addChild(button)
                return button
            }
            harness.focus.updateFocusIfNeeded()
        }
    }

    @Test("commands only on the root: no conflict and the same help list at every focus, Tab after Tab")
    func rootCommandsAtEveryFocus() throws {
        let screen = ParkingScreen()
        let dispatcher = screen.harness.dispatcher
        #expect(screen.harness.focusedName == "plate")
        let atField = dispatcher.discoverableKeyCommands().map { $0.commands.map(\.title) }
        #expect(atField == [["Pay", "Lost ticket", "Help"]])
        var visited: [String] = []
        for _ in 0..<4 {
            screen.harness.keyboard.tap("tab")
            let focused = try #require(screen.harness.focusedName)
            visited.append(focused)
            let report = KeyCommandConflictReport(dispatcher)
            #expect(report.conflicts.isEmpty, "at \(focused): \(report)")
            #expect(report.entries.map(\.status) == [.active, .active, .active], "at \(focused)")
            #expect(report.description.hasPrefix("Key commands at \(focused) on layout us"), "\(report)")
            #expect(dispatcher.discoverableKeyCommands().map { $0.commands.map(\.title) } == atField, "at \(focused)")
        }
        #expect(visited.contains("pay"), "Tab reached the buttons: \(visited)")
        // Arrows inside the buttons' group reuse the index too.
        screen.harness.keyboard.tap("right")
        #expect(KeyCommandConflictReport(dispatcher).conflicts.isEmpty)
    }

    @Test("a command shadowed by a nearer one stays shadowed by that one after focus moves in the same chain")
    func shadowingAfterFocusMove() {
        let screen = ParkingScreen()
        let row = FocusNode(identifier: "row", frame: Rect(x: 0, y: 200, width: 400, height: 100))
        row.focusGroupIdentifier = "row"
        row.performableActions = ["payHere"]
        row.keyCommands = [KeyCommand("p", modifierFlags: .control, action: "payHere", title: "Pay here")]
        screen.harness.root.addChild(row)
        let first = FocusNode(identifier: "first", frame: Rect(x: 0, y: 200, width: 100, height: 40), isFocusable: true)
        let second = FocusNode(
            identifier: "second", frame: Rect(x: 110, y: 200, width: 100, height: 40), isFocusable: true)
        // `second` sits one level deeper than `first`: the same declarers at other depths.
        let inner = FocusNode(identifier: "inner", frame: Rect(x: 110, y: 200, width: 100, height: 40))
        row.addChild(first)
        row.addChild(inner)
        inner.addChild(second)
        screen.harness.focus.requestFocus(on: first)
        #expect(screen.harness.focusedName == "first")
        _ = KeyCommandConflictReport(screen.harness.dispatcher)  // the index is built at `first`
        screen.harness.keyboard.tap("right")
        #expect(screen.harness.focusedName == "second")
        let report = KeyCommandConflictReport(screen.harness.dispatcher)
        let byTitle = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.command.displayTitle, $0.status) })
        #expect(byTitle["Pay here"] == .active)
        #expect(byTitle["Pay"] == .shadowed(by: row.keyCommands[0], declaredBy: ResponderReference(row)))
        #expect(byTitle["Help"] == .active)
    }
}
