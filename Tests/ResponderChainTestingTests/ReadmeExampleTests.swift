import ResponderChain
import ResponderChainTesting
import Testing

// The README's example, verbatim apart from the names, so the README cannot drift from the code.

extension Action { static let delete: Action = "delete" }

final class ListView: Responder {
    var log: [String] = []
    override init(identifier: String? = nil) {
        super.init(identifier: identifier)
        keyCommands = [
            KeyCommand("f", modifierFlags: .control, action: .find, title: "Find"),
            KeyCommand(.backspace, action: .delete, title: "Delete", repeatBehavior: .repeatable),
        ]
    }
    override var canBecomeFirstResponder: Bool { true }
    override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool {
        [.find, .delete].contains(action)
    }
    override func perform(_ action: Action, sender: ActionSender) { log.append("perform \(action)") }
    override func pressesBegan(_ press: Press, with event: PressEvent) {
        if press.key.keyCode == .j { log.append("j: next row") } else { super.pressesBegan(press, with: event) }
    }
}

@MainActor @Suite struct ReadmeExampleTests {
    @Test("the README's responder handles j and its key commands")
    func responder() {
        let window = Window(identifier: "main")
        let list = ListView(identifier: "list")
        window.addChild(list)
        list.becomeFirstResponder()
        let dispatcher = Dispatcher(window: window)
        dispatcher.handle(KeyEvent(.j, .down))
        #expect(list.log == ["j: next row"])
        let keyboard = VirtualKeyboard(dispatcher)
        keyboard.press(.backspace)
        keyboard.autoRepeat(.backspace, times: 2)
        #expect(list.log == ["j: next row", "perform delete", "perform delete", "perform delete"])
    }

    @Test("the README's unit test passes and its report reads as shown")
    func listShortcutsWork() {
        let window = Window()
        let root = FocusNode(identifier: "root")
        window.addChild(root)
        let list = ListView(identifier: "list")
        root.addChild(list)
        list.becomeFirstResponder()
        let app = AppHarness(window: window, root: root)
        app.conflictReport.expectNoConflicts()

        let trace = TraceRecorder(app.dispatcher)
        app.keyboard.tap("ctrl+f")
        trace.expectKeyCommand(.find, declaredBy: list)

        #expect(app.window.dispatcher === app.dispatcher && app.window.focusSystem === app.focusSystem)
        #expect(
            app.conflictReport.description == """
                Key commands at list on layout us: 2 commands, 0 conflicts
                  ctrl+KeyF  Find [find] on list: active
                  Backspace  Delete [delete] on list: active

                """)
    }
}
