import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct DiscoverabilityTests {
    @Test(
        "the list holds what would fire now, grouped nearest first; hidden, untitled, shadowed and system keys are left out"
    )
    func contents() {
        let harness = Harness()
        let app = RecordingResponder("app", performs: ["find", "deleteAll", "debug", "untitled", "help"])
        let list = RecordingResponder("list", performs: ["findInList", "sort", "archive", "nextItem"])
        let row = RecordingResponder("row", canBecomeFirstResponder: true)
        harness.window.addChild(app)
        app.addChild(list)
        list.addChild(row)
        _ = row.becomeFirstResponder()
        app.keyCommands = [
            KeyCommand("f", modifierFlags: .control, action: "find", title: "Find"),
            KeyCommand("d", modifierFlags: .control, action: "debug", title: "Debug", attributes: .hidden),
            KeyCommand(
                .backspace, modifierFlags: [.shift, .command], action: "deleteAll", title: "Delete All",
                attributes: .destructive),
            KeyCommand("u", modifierFlags: .control, action: "untitled"),
            KeyCommand("x", modifierFlags: .control, action: "cut", title: "Cut"),
        ]
        list.keyCommands = [
            KeyCommand(
                "f", modifierFlags: .control, action: "findInList", title: "Find", discoverabilityTitle: "Find in List"),
            KeyCommand("s", modifierFlags: .alternate, action: "sort", title: "Sort by Date", state: .on),
            KeyCommand("a", modifierFlags: .control, action: "archive", title: "Archive", attributes: .disabled),
            KeyCommand(.tab, action: "nextItem", title: "Next Item"),
        ]
        harness.dispatcher.globalKeyCommands = [KeyCommand(.f1, action: "help", title: "Help")]
        harness.dispatcher.reserve(
            ReservedShortcut(KeyCommand("q", modifierFlags: .control, action: "quit", title: "Quit")) { _ in })
        let focus = FocusSystem(window: harness.window, root: FocusNode())
        harness.dispatcher.systemKeyHandler = focus

        let groups = harness.dispatcher.discoverableKeyCommands()
        #expect(groups.map(\.title) == ["list", "app", "Global", "App"])
        func rows(_ index: Int) -> [String] {
            groups[index].commands.map { command in
                var row = command.shortcut + " " + command.title
                if !command.isEnabled { row += " (disabled)" }
                if command.isDestructive { row += " (destructive)" }
                if command.state != .off { row += " (\(command.state))" }
                return row
            }
        }
        #expect(rows(0) == ["Ctrl+F Find in List", "Alt+S Sort by Date (on)", "Ctrl+A Archive (disabled)"])
        #expect(rows(1) == ["Shift+Super+Backspace Delete All (destructive)", "Ctrl+X Cut (disabled)"])
        #expect(rows(2) == ["F1 Help"])
        #expect(rows(3) == ["Ctrl+Q Quit"])
        #expect(groups[0].source == .responder(ResponderReference(list)))
    }

    @Test("the list follows the first responder")
    func followsFirstResponder() {
        let harness = Harness()
        let left = RecordingResponder("left", performs: ["a"], canBecomeFirstResponder: true)
        let right = RecordingResponder("right", performs: ["b"], canBecomeFirstResponder: true)
        harness.window.addChild(left)
        harness.window.addChild(right)
        left.keyCommands = [KeyCommand("a", modifierFlags: .control, action: "a", title: "Left Action")]
        right.keyCommands = [KeyCommand("b", modifierFlags: .control, action: "b", title: "Right Action")]
        _ = left.becomeFirstResponder()
        #expect(harness.dispatcher.discoverableKeyCommands().flatMap(\.commands).map(\.title) == ["Left Action"])
        _ = right.becomeFirstResponder()
        #expect(harness.dispatcher.discoverableKeyCommands().flatMap(\.commands).map(\.title) == ["Right Action"])
    }

    @Test("a group is headed by its declarer's discoverabilityTitle, by its trace name when that is unset")
    func groupTitles() {
        let harness = Harness()
        let root = RecordingResponder("root", performs: ["pay", "help"])
        let dialog = RecordingResponder("confirmDialog", performs: ["confirm"])
        let button = RecordingResponder("confirm", canBecomeFirstResponder: true)
        harness.window.addChild(root)
        root.addChild(dialog)
        dialog.addChild(button)
        _ = button.becomeFirstResponder()
        root.keyCommands = [KeyCommand("p", modifierFlags: .control, action: "pay", title: "Pay")]
        dialog.keyCommands = [KeyCommand(.return, modifierFlags: .control, action: "confirm", title: "Confirm")]
        #expect(harness.dispatcher.discoverableKeyCommands().map(\.title) == ["confirmDialog", "root"])

        dialog.discoverabilityTitle = "Confirm payment"
        root.discoverabilityTitle = "Anywhere"
        let groups = harness.dispatcher.discoverableKeyCommands()
        #expect(groups.map(\.title) == ["Confirm payment", "Anywhere"])
        #expect(groups.map(\.source) == [.responder(ResponderReference(dialog)), .responder(ResponderReference(root))])
    }
}
