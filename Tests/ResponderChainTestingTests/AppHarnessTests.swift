import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct AppHarnessTests {
    /// A root with a field above two buttons; the root declares Ctrl+P.
    @MainActor struct Screen {
        let window = Window(identifier: "kiosk")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 80, height: 24))
        let plate = TextInputNode(identifier: "plate", frame: Rect(x: 0, y: 0, width: 80, height: 1))
        let pay = FocusNode(identifier: "pay", frame: Rect(x: 0, y: 2, width: 10, height: 1), isFocusable: true)
        let cancel = FocusNode(identifier: "cancel", frame: Rect(x: 20, y: 2, width: 10, height: 1), isFocusable: true)

        init() {
            window.addChild(root)
            for node in [plate, pay, cancel] { root.addChild(node) }
            root.keyCommands = [KeyCommand("p", modifierFlags: .control, action: "pay", title: "Pay")]
            root.performableActions = ["pay"]
        }
    }

    @Test("the harness wires the window as KeyboardApp does: focus system as system behaviour, initial focus, Ctrl-C")
    func wiring() throws {
        let screen = Screen()
        let app = AppHarness(window: screen.window, root: screen.root)
        #expect(app.window.dispatcher === app.dispatcher)
        #expect(app.window.focusSystem === app.focusSystem)
        #expect(app.dispatcher.systemKeyHandler as? FocusSystem === app.focusSystem)
        #expect(app.focusSystem.isFocused(screen.plate), "initial focus, without updateFocusIfNeeded() by hand")
        #expect(screen.window.firstResponder === screen.plate)

        app.keyboard.tap("tab")
        #expect(app.focusSystem.isFocused(screen.pay), "the focus system takes Tab")
        app.keyboard.tap("ctrl+c")
        #expect(app.quitCount == 1)
        let groups = app.discoverableKeyCommands()
        #expect(groups.map(\.title) == ["root", "App"])
        #expect(groups.last?.commands.map(\.shortcut) == ["Ctrl+C"])
        app.conflictReport.expectNoConflicts()
        #expect(app.conflictReport.entries.map(\.command.action) == ["pay"])
    }

    @Test("a command on Ctrl-C loses to the reserved quit command, as in the app; quitCommand nil frees it")
    func quitCommand() {
        let screen = Screen()
        screen.root.keyCommands.append(KeyCommand("c", modifierFlags: .control, action: "pay", title: "Copy"))
        let app = AppHarness(window: screen.window, root: screen.root)
        #expect(app.conflictReport.conflicts.map(\.command.title) == ["Copy"])

        let other = Screen()
        other.root.keyCommands.append(KeyCommand("c", modifierFlags: .control, action: "pay", title: "Copy"))
        let free = AppHarness(window: other.window, root: other.root, quitCommand: nil)
        #expect(free.conflictReport.conflicts.isEmpty)
        #expect(free.discoverableKeyCommands().map(\.title) == ["root"])
    }

    @Test("after every event focus is brought up to date, as KeyboardApp does after every batch")
    func focusAfterEachEvent() {
        let screen = Screen()
        let app = AppHarness(window: screen.window, root: screen.root)
        // Ctrl+P asks for focus on Cancel: the request is carried out when the event is over.
        screen.root.onAction = { [unowned app] _, _ in app.focusSystem.setNeedsFocusUpdate(on: screen.cancel) }
        app.keyboard.press("ctrl+p")
        #expect(app.focusSystem.isFocused(screen.cancel), "before the next key, as before the app's next frame")
    }

    @Test("the window does not keep its dispatcher and focus system: they go with the harness")
    func unretainedLinks() {
        let screen = Screen()
        do {
            let app = AppHarness(window: screen.window, root: screen.root)
            #expect(screen.window.dispatcher != nil && screen.window.focusSystem != nil)
            _ = app
        }
        #expect(screen.window.dispatcher == nil)
        #expect(screen.window.focusSystem == nil)
        let (dispatcher, focus) = screen.window.makeDispatcher(focusRoot: screen.root)
        #expect(screen.window.dispatcher === dispatcher && screen.window.focusSystem === focus)
        #expect(dispatcher.systemKeyHandler as? FocusSystem === focus)
        #expect(focus.focusedItem == nil, "initial focus waits for updateFocusIfNeeded()")
    }
}

extension VirtualKeyboard {
    /// Holds a chord written as text down.
    fileprivate func press(_ chord: String) {
        if let parsed = try? KeyChord(parsing: chord) { press(parsed) }
    }
}
