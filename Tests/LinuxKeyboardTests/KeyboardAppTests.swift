import Foundation
import LinuxKeyboard
import ResponderChain
import ResponderChainTesting
import Synchronization
import TestSupport
import Testing

/// A list row that performs `load`: it starts a task that awaits work off the main actor, then
/// renames a node of the tree and stops the app.
final class LoadingRow: FocusNode {
    var app: KeyboardApp?
    let status: FocusNode

    init(identifier: String, status: FocusNode) {
        self.status = status
        super.init(identifier: identifier, frame: Rect(x: 0, y: 1, width: 20, height: 1), isFocusable: true)
        keyCommands = [KeyCommand("l", action: "load", title: "Load")]
    }

    override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool { action == "load" }

    override func perform(_ action: Action, sender: ActionSender) {
        Task {
            let total = await Task.detached { (1...100).reduce(0, +) }.value
            status.identifier = "loaded \(total)"
            // The loaded row goes away: focus leaves it, which the trace shows.
            isHidden = true
            app?.focusSystem.updateFocusIfNeeded()
            app?.stop()
        }
    }
}

// Serialized: each app installs the process's signal handlers while it runs.
@MainActor @Suite(.serialized) struct KeyboardAppTests {
    /// A window with a status line and two rows.
    @MainActor struct Kiosk {
        let window = Window(identifier: "kiosk")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let status = FocusNode(identifier: "idle", frame: Rect(x: 0, y: 0, width: 40, height: 1))
        let first: LoadingRow
        let second = FocusNode(
            identifier: "second", frame: Rect(x: 0, y: 2, width: 20, height: 1), isFocusable: true)

        init() {
            first = LoadingRow(identifier: "first", status: status)
            window.addChild(root)
            for node in [status, first, second] { root.addChild(node) }
            first.acceptsFirstResponder = true
            second.acceptsFirstResponder = true
        }

        func configuration(_ terminal: PseudoTerminal) -> KeyboardApp.Configuration {
            var configuration = KeyboardApp.Configuration()
            configuration.input = .terminal
            configuration.terminalInput = terminal.follower
            configuration.terminalOutput = terminal.follower
            configuration.keymap = KeymapNames(layout: "us")
            configuration.environment = [:]
            return configuration
        }
    }

    @Test("in a pseudo-terminal: initial focus, Tab, a key command whose task awaits and updates the tree, then stops")
    func terminalApp() async throws {
        let terminal = try PseudoTerminal()
        let before = terminal.localFlags
        let kiosk = Kiosk()
        let app = try KeyboardApp(window: kiosk.window, root: kiosk.root, configuration: kiosk.configuration(terminal))
        kiosk.first.app = app
        var changes: [String] = []
        app.onChange = { change in
            switch change {
            case .focusMoved(let from, let to): changes.append("focus \(from ?? "-") → \(to ?? "-")")
            case .firstResponderChanged(let name): changes.append("first responder \(name ?? "-")")
            default: break
            }
        }
        var frames = 0
        app.onFrame = { frames += 1 }
        let trace = TraceRecorder(app.dispatcher)
        let player = Thread {
            terminal.answerQuery()
            usleep(100_000)
            // Tab (first → second) and Shift-Tab (back to first) in one read: each move is
            // reported, not only the state after the batch.
            terminal.type("\t\u{1b}[Z")
            usleep(100_000)
            terminal.type("l")  // first's key command: load
        }
        player.start()
        try await app.run()
        #expect(app.input == .terminal)
        #expect(app.inputNote?.contains("no kitty keyboard protocol") == true)
        #expect(kiosk.status.identifier == "loaded 5050", "the task resumed on the main actor and changed the tree")
        let lines = trace.lines
        let command = try #require(lines.firstIndex { $0.hasPrefix("keyCommand l \"Load\"") })
        let removal = try #require(lines.firstIndex { $0.hasPrefix("focus first -> second (removal") }, "\(lines)")
        #expect(command < removal, "the key command, then (after the task's await) the focus change it caused")
        #expect(
            changes == [
                "focus - → first", "first responder first", "focus first → second", "first responder second",
                "focus second → first", "first responder first", "focus first → second", "first responder second",
            ])
        #expect(frames >= 4)
        #expect(terminal.localFlags == before, "the terminal settings are given back")
    }

    @Test("initialLocks turns Num Lock on at start: the keypad types digits (a PIN pad), and Num Lock still toggles")
    func initialLocks() async throws {
        let terminal = try PseudoTerminal()
        let before = terminal.localFlags
        let kiosk = Kiosk()
        var configuration = kiosk.configuration(terminal)
        configuration.initialLocks = .numLock
        let app = try KeyboardApp(window: kiosk.window, root: kiosk.root, configuration: configuration)
        #expect(app.dispatcher.keyboardState.locks.isEmpty, "nothing changes before the app starts")
        var typed: [String] = []
        kiosk.first.onKeyPress([.keypad1], phases: .down) { press in
            typed.append(press.characters)
            return .handled
        }
        try app.start()
        #expect(app.dispatcher.keyboardState.locks == .numLock)
        func tap(_ code: KeyCode) {
            app.dispatcher.handle(KeyEvent(code, .down))
            app.dispatcher.handle(KeyEvent(code, .up))
        }
        tap(.keypad1)
        tap(.numLock)
        tap(.keypad1)
        #expect(typed == ["1", ""], "a digit with Num Lock on; End (nothing typed) after Num Lock turned it off")
        app.stop()
        try await app.run()
        #expect(terminal.localFlags == before, "the terminal settings are given back")
    }

    @Test("Ctrl-C typed into the terminal stops the app; the change sequence ends with it")
    func controlC() async throws {
        let terminal = try PseudoTerminal()
        let kiosk = Kiosk()
        let app = try KeyboardApp(window: kiosk.window, root: kiosk.root, configuration: kiosk.configuration(terminal))
        let changes = app.changes
        let collected = Task { @MainActor in
            var names: [String] = []
            for await change in changes {
                if case .focusMoved(_, let to) = change { names.append(to ?? "-") }
            }
            return names
        }
        let player = Thread {
            terminal.answerQuery()
            usleep(100_000)
            terminal.type("\t")
            usleep(100_000)
            terminal.type("\u{3}")
        }
        player.start()
        try await app.run()
        #expect(await collected.value == ["first", "second"])
        var action = sigaction()
        sigaction(SIGINT, nil, &action)
        #expect(action.__sigaction_handler.sa_handler == nil, "after run(), SIGINT has its default action again")
    }

    /// A window with one text field in a focus root.
    static func form() -> (Window, FocusNode, TextInputNode) {
        let window = Window(identifier: "form")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let field = TextInputNode(identifier: "name", frame: Rect(x: 0, y: 0, width: 20, height: 1))
        window.addChild(root)
        root.addChild(field)
        return (window, root, field)
    }

    /// From another thread: answers the protocol query, types `text`, then `last` (Ctrl-C).
    nonisolated static func type(_ text: String, then last: String, into terminal: PseudoTerminal) {
        let player = Thread {
            terminal.answerQuery()
            usleep(100_000)
            terminal.type(text)
            usleep(100_000)
            terminal.type(last)
        }
        player.start()
    }

    @Test("a bracketed paste from the terminal lands in the focused text field; the paste mode is switched off at exit")
    func paste() async throws {
        let terminal = try PseudoTerminal()
        let (window, root, field) = Self.form()
        var configuration = Kiosk().configuration(terminal)
        configuration.fullScreen = true
        let app = try KeyboardApp(window: window, root: root, configuration: configuration)
        Self.type("ab\u{1b}[200~c d\ne\u{1b}[201~", then: "\u{3}", into: terminal)
        try await app.run()
        var written = ""
        while case let chunk = terminal.read(timeout: 0.2), !chunk.isEmpty { written += chunk }
        #expect(field.text == "abc d e")
        #expect(written.hasSuffix("\u{1b}[?2004l"), "bracketed paste is switched off again, last")
    }

    @Test("terminal input on a de system: the terminal's own text (z stays z, é and ф arrive), Ctrl+Z still a shortcut")
    func terminalKeepsItsText() async throws {
        let terminal = try PseudoTerminal()
        let (window, root, field) = Self.form()
        var undone = 0
        // The field has typing to undo, so it would take a plain Ctrl+Z itself, and the action
        // `undo` would go to it (as UIKit's text system does): the command asks for priority and
        // names an action of its own.
        root.keyCommands = [
            KeyCommand(
                "z", modifierFlags: .control, action: "undoScan", title: "Undo", wantsPriorityOverSystemBehavior: true)
        ]
        root.performableActions = ["undoScan"]
        root.onAction = { _, _ in undone += 1 }
        var configuration = Kiosk().configuration(terminal)
        configuration.keymap = KeymapNames(layout: "de")
        let app = try KeyboardApp(window: window, root: root, configuration: configuration)
        Self.type("zyé\"ф\u{1a}", then: "\u{3}", into: terminal)
        try await app.run()
        #expect(field.text == "zyé\"ф", "no character went through the de layout again")
        #expect(undone == 1, "Ctrl+Z from the terminal matched the command on z")
        #expect(app.dispatcher.layout.name == "terminal" && app.layoutDescription == "terminal")
        #expect(app.layout == nil, "the terminal alone: the keymap is not compiled")
    }

    @Test("with run() async, a task that moves focus between key events gets a frame drawn without any key")
    func frameAfterTask() async throws {
        let terminal = try PseudoTerminal()
        let kiosk = Kiosk()
        let app = try KeyboardApp(window: kiosk.window, root: kiosk.root, configuration: kiosk.configuration(terminal))
        var drawn: [String] = []
        app.onFrame = { drawn.append(app.focusSystem.focusedItem?.focusDebugName ?? "-") }
        let player = Thread { terminal.answerQuery() }
        player.start()
        Task {
            try? await Task.sleep(for: .milliseconds(300))
            app.focusSystem.requestFocus(on: kiosk.second)
            // Stop once the frame for it was drawn (or after 10 s, which fails below).
            for _ in 0..<500 where drawn.last != "second" { try? await Task.sleep(for: .milliseconds(20)) }
            drawn.append("stop")
            app.stop()
        }
        try await app.run()
        #expect(drawn.first == "first")
        #expect(drawn.prefix { $0 != "stop" }.last == "second", "a frame after the task's focus move: \(drawn)")
    }

    @Test("the layout comes from the configuration, then the environment; an unknown one names the fix")
    func layout() throws {
        let kiosk = Kiosk()
        var configuration = KeyboardApp.Configuration()
        configuration.environment = ["XKB_DEFAULT_LAYOUT": "de"]
        let german = try KeyboardApp(window: kiosk.window, root: kiosk.root, configuration: configuration)
        #expect(german.layout?.name.hasPrefix("de") == true)
        #expect(german.layoutSource == .environment)
        configuration.keymap = KeymapNames(layout: "fr")
        let french = try KeyboardApp(window: Window(), root: FocusNode(), configuration: configuration)
        #expect(french.layoutSource == .explicit)
        configuration.keymap = KeymapNames(layout: "qq")
        #expect {
            try KeyboardApp(window: Window(), root: FocusNode(), configuration: configuration)
        } throws: { error in
            "\(error)".contains("\"qq\"")
        }
        // The terminal alone types its own characters: no keymap is compiled, so none is checked.
        configuration.input = .terminal
        let terminal = try KeyboardApp(window: Window(), root: FocusNode(), configuration: configuration)
        #expect(terminal.layout == nil && terminal.layoutDescription == "terminal")
    }

    @Test("a frame larger than the terminal's buffer, to a terminal that reads late and slowly, arrives whole")
    func slowTerminal() throws {
        let terminal = try PseudoTerminal()
        // Non-blocking, as the loop's input makes the terminal it shares a file description with.
        _ = fcntl(terminal.follower, F_SETFL, fcntl(terminal.follower, F_GETFL) | O_NONBLOCK)
        let keyboard = try TerminalKeyboard(input: terminal.follower, output: terminal.follower, negotiate: false)
        let frame = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
        let received = Mutex(0)
        let reader = Thread {
            usleep(200_000)  // the buffer fills first
            var buffer = [UInt8](repeating: 0, count: 4096)
            while received.withLock({ $0 }) < frame.count {
                let count = buffer.withUnsafeMutableBytes { read(terminal.leader, $0.baseAddress, 4096) }
                if count <= 0 { break }
                received.withLock { $0 += count }
                usleep(1000)
            }
        }
        reader.start()
        #expect(keyboard.write(frame), "the write waited for the terminal instead of dropping the rest")
        let deadline = Date().addingTimeInterval(10)
        while received.withLock({ $0 }) < frame.count && Date() < deadline { usleep(10_000) }
        #expect(received.withLock { $0 } == frame.count)
    }

    @Test("asking for the terminal when standard input is not one says so and what to do")
    func notATerminal() throws {
        let kiosk = Kiosk()
        var configuration = KeyboardApp.Configuration()
        configuration.input = .terminal
        configuration.terminalInput = open("/dev/null", O_RDONLY)
        defer { close(configuration.terminalInput) }
        let app = try KeyboardApp(window: kiosk.window, root: kiosk.root, configuration: configuration)
        #expect {
            try app.openInput()
        } throws: { error in
            "\(error)".contains("not a terminal")
        }
    }
}
