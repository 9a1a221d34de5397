import ResponderChain
import ResponderChainTesting
import Testing

/// Taps and clicks in a test go through the app's one hit test and activation path.
@MainActor @Suite struct VirtualPointerTests {
    final class Screen: FocusNode {
        var performed: [String] = []
        override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool { action == "pay" }
        override func perform(_ action: Action, sender: ActionSender) { performed.append(action.rawValue) }
    }

    func app() -> (AppHarness, Screen) {
        let window = Window(identifier: "w")
        let screen = Screen(identifier: "screen", frame: Rect(x: 0, y: 0, width: 80, height: 24))
        window.addChild(screen)
        let pay = FocusNode(identifier: "pay", frame: Rect(x: 2, y: 2, width: 20, height: 3))
        pay.isFocusable = true
        pay.primaryAction = "pay"
        let name = TextInputNode(identifier: "name", frame: Rect(x: 2, y: 8, width: 30, height: 1))
        screen.addChild(pay)
        screen.addChild(name)
        return (AppHarness(window: window, root: screen), screen)
    }

    @Test("a tap at an item's tap point runs its action; a click too; a tap on a text field focuses it")
    func tapAndClick() throws {
        let (app, screen) = app()
        app.pointerTargets.expectNoConflicts()
        app.pointer.tap(at: try #require(app.pointerTargets.entry("pay")?.tapPoint))
        app.pointer.click(at: Point(x: 3, y: 3))
        #expect(screen.performed == ["pay", "pay"])
        app.pointer.tap(at: Point(x: 5, y: 8))
        #expect(app.focusSystem.focusedItem?.focusDebugName == "name")
    }

    @Test("two fingers, and a touch cancelled, activate nothing")
    func nothing() {
        let (app, screen) = app()
        app.pointer.touch(down: [Point(x: 3, y: 3), Point(x: 10, y: 3)])
        app.pointer.touchCancelled(at: Point(x: 3, y: 3))
        #expect(screen.performed.isEmpty)
    }
}
