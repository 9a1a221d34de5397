import ResponderChain
import ResponderChainTesting
import Testing

/// A cell drawn by its own renderer: a focus item that is not a responder.
final class DrawnCell: FocusItem {
    unowned let grid: DrawnGrid
    let name: String
    var frame: Rect
    var hidden = false

    init(grid: DrawnGrid, name: String, frame: Rect) {
        self.grid = grid
        self.name = name
        self.frame = frame
    }

    var parentFocusEnvironment: (any FocusEnvironment)? { grid }
    var childFocusEnvironments: [any FocusEnvironment] { [] }
    var focusFrame: Rect { frame }
    var isHiddenFromFocus: Bool { hidden }
    var canBecomeFocused: Bool { true }
    var focusDebugName: String { name }
}

/// A node that hosts drawn cells, as a collection view hosts its cells.
final class DrawnGrid: FocusNode {
    var cells: [DrawnCell] = []
    override var childFocusEnvironments: [any FocusEnvironment] { cells }
}

@MainActor @Suite struct FocusObservationTests {
    @Test("onFocusChange and isFocused follow Tab; onFirstResponderChange follows the first responder")
    func callbacks() {
        let harness = FocusHarness()
        let a = harness.node("a", 0, 0, 100, 40)
        let b = harness.node("b", 200, 0, 100, 40)
        var log: [String] = []
        for node in [a, b] {
            node.acceptsFirstResponder = true
            let name = node.identifier ?? "?"
            node.onFocusChange = { log.append("\(name) focused \($0)") }
            node.onFirstResponderChange = { log.append("\(name) first responder \($0)") }
        }
        harness.focus.updateFocusIfNeeded()
        #expect(a.isFocused && !b.isFocused)
        log.removeAll()
        harness.keyboard.tap("tab")
        #expect(b.isFocused && !a.isFocused)
        #expect(
            log == [
                "a first responder false", "b first responder true", "a focused false", "b focused true",
            ])
    }

    @Test("an app's own focus items: a changed frame is seen after invalidateLayout; a hidden focused item loses focus")
    func customItems() {
        let window = Window(identifier: "window")
        let grid = DrawnGrid(identifier: "grid", frame: Rect(x: 0, y: 0, width: 300, height: 100))
        grid.focusGroupIdentifier = "grid"
        window.addChild(grid)
        grid.cells = ["one", "two", "three"].enumerated().map { index, name in
            DrawnCell(grid: grid, name: name, frame: Rect(x: Double(index) * 100, y: 0, width: 100, height: 100))
        }
        let focus = FocusSystem(window: window, root: grid)
        let dispatcher = Dispatcher(window: window)
        dispatcher.systemKeyHandler = focus
        let keyboard = VirtualKeyboard(dispatcher)
        focus.updateFocusIfNeeded()
        #expect(focus.focusedItem?.focusDebugName == "one")
        #expect(FocusSystem.focusSystem(for: grid.cells[2]) === focus)
        keyboard.tap("right")
        #expect(focus.focusedItem?.focusDebugName == "two")
        // "three" moves to the far left: Left from "two" now reaches it, once the system knows.
        grid.cells[2].frame = Rect(x: -100, y: 0, width: 100, height: 100)
        grid.cells[0].frame = Rect(x: 500, y: 0, width: 100, height: 100)
        focus.invalidateLayout(of: grid.cells[2])
        keyboard.tap("left")
        #expect(focus.focusedItem?.focusDebugName == "three")
        grid.cells[2].hidden = true
        focus.invalidateLayout(of: grid.cells[2])
        focus.updateFocusIfNeeded()
        #expect(focus.focusedItem?.focusDebugName != "three", "focus left the hidden item")
        #expect(focus.focusedItem != nil)
    }
}

@MainActor @Suite struct TraceOrderTests {
    @Test("records come cause first: the stage that took Tab, then the focus and first-responder changes it made")
    func causeThenEffect() {
        let harness = FocusHarness()
        for (index, name) in ["a", "b"].enumerated() {
            harness.node(name, Double(index) * 200, 0, 100, 40).acceptsFirstResponder = true
        }
        harness.focus.updateFocusIfNeeded()
        harness.trace.clear()
        harness.keyboard.tap("tab")
        let lines = harness.trace.lines.filter {
            $0.hasPrefix("stage systemBehavior") || $0.hasPrefix("focus") || $0.hasPrefix("firstResponder")
        }
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("stage systemBehavior took") == true, "\(lines)")
        #expect(lines.dropFirst().map { String($0.prefix(5)) } == ["focus", "first"])
    }
}
