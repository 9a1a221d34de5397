import ResponderChain
import ResponderChainTesting
import Testing

/// A system behaviour that claims Tab and the arrows, as the focus system will.
final class ArrowsAndTab: SystemKeyHandler {
    var name: String { "focus" }
    func claims(_ key: Key, in window: Window) -> Bool {
        key.modifierFlags.isDisjoint(with: [.control, .command, .alternate])
            && [.tab, .upArrow, .downArrow, .leftArrow, .rightArrow].contains(key.keyCode)
    }
    func keyDown(_ press: Press, in window: Window) -> SystemKeyDecision {
        claims(press.key, in: window) ? .take(reason: "moves focus") : .decline(reason: "not a focus key")
    }
}

final class Field: RecordingResponder, TextInputResponder {}

@MainActor @Suite struct KeyCommandConflictReportTests {
    @Test("every status: active, shadowed, duplicate, system focus key, disabled, no performer")
    func statuses() {
        let window = Window(identifier: "window")
        let app = RecordingResponder("app", performs: [.find, .quit, "next", "open"])
        let list = RecordingResponder("list", canBecomeFirstResponder: true)
        window.addChild(app)
        app.addChild(list)
        list.becomeFirstResponder()
        list.keyCommands = [
            KeyCommand("f", modifierFlags: .control, action: .find, title: "Find in List"),
            KeyCommand("o", modifierFlags: .control, action: "open", title: "Open"),
            KeyCommand("O", modifierFlags: .control, action: "open", title: "Open Again"),
            KeyCommand(.downArrow, action: "next", title: "Next"),
            KeyCommand(.upArrow, action: "next", title: "Previous", wantsPriorityOverSystemBehavior: true),
            KeyCommand("e", modifierFlags: .control, action: .find, attributes: .disabled),
            KeyCommand("x", modifierFlags: .control, action: "cut", title: "Cut"),
        ]
        app.keyCommands = [KeyCommand("f", modifierFlags: .control, action: .find, title: "Find")]
        let dispatcher = Dispatcher(window: window)
        dispatcher.systemKeyHandler = ArrowsAndTab()
        dispatcher.globalKeyCommands = [KeyCommand("q", modifierFlags: .control, action: .quit, title: "Quit")]
        let report = KeyCommandConflictReport(dispatcher)
        let byTitle = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.command.displayTitle, $0.status) })
        #expect(byTitle["Find in List"] == .active)
        #expect(byTitle["Open"] == .active)
        #expect(byTitle["Open Again"] == .duplicateInSameResponder(of: list.keyCommands[1]))
        #expect(byTitle["Next"] == .shadowedBySystemFocusKey(handler: "focus"))
        #expect(byTitle["Previous"] == .active)
        #expect(byTitle["find"] == .disabled)
        #expect(byTitle["Cut"] == .noResponderCanPerform)
        #expect(byTitle["Find"] == .shadowed(by: list.keyCommands[0], declaredBy: ResponderReference(list)))
        #expect(byTitle["Quit"] == .active)
        #expect(report.conflicts.map(\.command.displayTitle) == ["Open Again", "Next", "Find"])
        #expect(report.entries.map(\.command.displayTitle).last == "Quit", "global commands come last")
        #expect(report.description.hasPrefix("Key commands at list on layout us: 9 commands, 3 conflicts\n"))
        #expect(
            report.description.contains(
                "  ArrowDown  Next [next] on list: shadowed by the system focus key (focus); set wantsPriorityOverSystemBehavior to win"
            ))
        let failure = report.conflictsFailure
        #expect(failure?.hasPrefix("3 key-command conflicts:\n") == true, "\(failure ?? "no failure")")
        #expect(failure?.split(separator: "\n").count == 4, "one line per conflict")
    }

    @Test("the report agrees with dispatch: the active command is the one that fires")
    func agreesWithDispatch() {
        let window = Window()
        let app = RecordingResponder("app", performs: [.find], canBecomeFirstResponder: true)
        window.addChild(app)
        app.becomeFirstResponder()
        app.keyCommands = [
            KeyCommand("f", modifierFlags: .control, action: .find, title: "First"),
            KeyCommand("f", modifierFlags: .control, action: .find, title: "Second"),
        ]
        let dispatcher = Dispatcher(window: window)
        let trace = TraceRecorder(dispatcher)
        VirtualKeyboard(dispatcher).tap("ctrl+f")
        let active = KeyCommandConflictReport(dispatcher).entries.filter { $0.status == .active }
        #expect(active.map(\.command.title) == trace.firedKeyCommands.map(\.command.title))
    }

    @Test("text input, reserved shortcuts, layouts and mirroring show in the report")
    func contextStatuses() {
        let window = Window()
        let field = Field("search", canBecomeFirstResponder: true)
        window.addChild(field)
        field.performableActions = [.find, "back", "bracket"]
        field.becomeFirstResponder()
        field.keyCommands = [
            KeyCommand(.leftArrow, action: "back", title: "Back"),
            KeyCommand(.leftArrow, modifierFlags: .command, action: "back", title: "Cmd Back"),
            KeyCommand(.f12, action: .find, title: "Admin"),
            KeyCommand("é", modifierFlags: .command, action: "bracket", title: "Accent"),
        ]
        window.layoutDirection = .rightToLeft
        let dispatcher = Dispatcher(window: window)
        dispatcher.reserve(ReservedShortcut(KeyCommand(.f12, action: "admin")) { _ in })
        let report = KeyCommandConflictReport(dispatcher)
        let byTitle = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.command.title, $0) })
        #expect(byTitle["Back"]?.status == .shadowedByTextInput(ResponderReference(field)))
        #expect(byTitle["Cmd Back"]?.status == .active)
        #expect(byTitle["Cmd Back"]?.mirrored == true)
        #expect(byTitle["Cmd Back"]?.chords == [KeyChord(.rightArrow, .command)])
        #expect(byTitle["Admin"]?.status == .shadowedByReservedShortcut(KeyCommand(.f12, action: "admin")))
        #expect(byTitle["Accent"]?.status == .unreachable(layout: "us"))
        #expect(byTitle["Accent"]?.description.contains("unreachable on layout us") == true)
    }

    @Test("a clean scene has no conflicts and expectNoConflicts passes")
    func clean() {
        let window = Window()
        let app = RecordingResponder("app", performs: [.find], canBecomeFirstResponder: true)
        window.addChild(app)
        app.becomeFirstResponder()
        app.keyCommands = [KeyCommand("f", modifierFlags: .control, action: .find)]
        let report = KeyCommandConflictReport(Dispatcher(window: window))
        #expect(report.conflicts.isEmpty)
        report.expectNoConflicts()
    }
}
