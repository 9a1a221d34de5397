import AppRuntime
import Foundation
import LinuxSystem
import ResponderChain
import TerminalIO
import TestSupport
import Testing

/// A fake primary input (no keyboard can be read here on purpose): it fails to start.
@MainActor final class FailingKeyboards: InputSource {
    var inputName: String { "keyboards" }
    var inputNote: String? { nil }
    var onDeviceChange: ((InputDeviceChange) -> Void)?
    var log: [String] = []

    func start() throws {
        log.append("start")
        throw InputError(
            errno: .permissionDenied, operation: "open", path: "/dev/input/event3", message: "permission denied")
    }

    func stop() { log.append("stop") }
}

@MainActor @Suite struct ApplicationFallbackTests {
    @Test("a primary input that cannot start gives way to the terminal: it is stopped, the note says why, the layout")
    func fallsBackToTerminal() throws {
        let terminal = try PseudoTerminal()
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 10, height: 2))
        window.addChild(root)
        var configuration = Application.Configuration()
        configuration.terminalInput = terminal.follower
        configuration.terminalOutput = terminal.follower
        let app = try Application(window: window, root: root, configuration: configuration)
        let keyboards = FailingKeyboards()
        app.setPrimaryInput(keyboards, fallsBackToTerminal: true)
        try app.openInput()
        defer { app.terminal?.restore() }
        #expect(keyboards.log == ["start", "stop"])
        #expect(app.input == .terminal)
        #expect(
            app.inputNote?.hasPrefix("no keyboards could be read (permission denied); reading the terminal instead; ")
                == true, "\(app.inputNote ?? "no note")")
        #expect(app.layout.name == TerminalKeyboardLayout().name)
        #expect(app.sources.map(\.inputName) == ["terminal"])
    }
}
