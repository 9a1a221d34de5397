import Foundation
import LinuxKeyboard
import ResponderChain
import ResponderChainTesting
import TestSupport
import Testing

/// KeyboardApp's speech API: AppSpeech's `ApplicationSpeech` under KeyboardApp's names (what speech
/// does is tested in AppSpeechTests, on an `Application` alone).
@MainActor @Suite struct KeyboardAppSpeechTests {
    /// One button under a root.
    @MainActor struct Screen {
        let window = Window(identifier: "kiosk")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let pay = FocusNode(identifier: "pay", frame: Rect(x: 0, y: 0, width: 10, height: 1), isFocusable: true)

        init() {
            window.addChild(root)
            root.addChild(pay)
            pay.accessibilityLabel = "Pay"
        }
    }

    /// A state directory of this test's own (the listener's settings are kept there).
    let stateHome = NSTemporaryDirectory() + "speech-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    @Test("no speech unless configured: no narrator, no output, no reserved speech commands")
    func off() throws {
        let screen = Screen()
        var configuration = KeyboardApp.Configuration()
        configuration.input = .terminal
        configuration.inspection.isEnabled = false
        let app = try KeyboardApp(window: screen.window, root: screen.root, configuration: configuration)
        #expect(app.speech == nil)
        #expect(app.narrator == nil && app.speechOutput == nil && app.speechNote == nil)
        app.onSpeechProblem = { _ in }
        #expect(app.onSpeechProblem == nil, "without speech, nothing to call")
        let titles = app.dispatcher.discoverableKeyCommands().flatMap(\.commands).map(\.title)
        #expect(!titles.contains("Speech on or off"))
    }

    @Test("KeyboardApp's speech names are its ApplicationSpeech's: narrator, output, note, problems, key commands")
    func namesForTheSpeech() throws {
        let screen = Screen()
        var speech = KeyboardApp.SpeechOptions()
        speech.startsSpeaking = true
        speech.address = .unixSocket("/nonexistent-runtime/speechd.sock")
        var configuration = KeyboardApp.Configuration()
        configuration.input = .terminal
        configuration.inspection.isEnabled = false
        configuration.environment = ["XDG_STATE_HOME": stateHome]
        configuration.speech = speech
        let app = try KeyboardApp(window: screen.window, root: screen.root, configuration: configuration)
        let appSpeech = try #require(app.speech)
        #expect(app.narrator === appSpeech.narrator)
        #expect(app.speechOutput === appSpeech.output && app.speechOutput != nil)
        #expect(appSpeech.options.startsSpeaking && app.narrator?.isEnabled == true)
        #expect(KeyboardApp.speechKeyCommands == ApplicationSpeech.keyCommands)
        #expect(KeyboardApp.speechProblemLine("x") == ApplicationSpeech.problemLine("x"))
        var problems: [String] = []
        app.onSpeechProblem = { problems.append($0) }
        #expect(appSpeech.onProblem != nil, "set on the speech")
        app.focusSystem.updateFocusIfNeeded()
        app.narrator?.announce("Checked in")
        #expect(problems.count == 1 && app.speechNote == problems.first, "\(problems)")
        #expect(app.speechNote?.contains("/nonexistent-runtime/speechd.sock") == true)
    }

    @Test("a change made just before the app stops is kept: written when run() returns, not a moment later")
    func settingsKeptAtStop() async throws {
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        let terminal = try PseudoTerminal()
        let screen = Screen()
        var speech = KeyboardApp.SpeechOptions()
        speech.clientName = "kiosk-example"
        speech.settingsSaveDelay = 60
        speech.address = .unixSocket("/nonexistent-runtime/speechd.sock")
        var configuration = KeyboardApp.Configuration()
        configuration.input = .terminal
        configuration.terminalInput = terminal.follower
        configuration.terminalOutput = terminal.follower
        configuration.keymap = KeymapNames(layout: "us")
        configuration.environment = ["XDG_STATE_HOME": stateHome]
        configuration.inspection.isEnabled = false
        configuration.speech = speech
        let app = try KeyboardApp(window: screen.window, root: screen.root, configuration: configuration)
        // Ctrl+Alt+Up (faster), then Ctrl-C at once: long before the 60 s the saver waits.
        KeyboardAppTests.type("\u{1b}[1;7A", then: "\u{3}", into: terminal)
        try await app.run()
        #expect(app.narrator?.rate == 10)
        let saved = try String(contentsOfFile: stateHome + "/kiosk-example/speech.conf", encoding: .utf8)
        #expect(saved.contains("rate = 10"), "\(saved)")
    }
}
