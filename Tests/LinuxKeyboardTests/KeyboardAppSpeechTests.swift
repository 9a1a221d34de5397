import Accessibility
import Foundation
import LinuxKeyboard
import ResponderChain
import ResponderChainTesting
import SpeechDispatcher
import Testing

/// What the narrator said, beside speech-dispatcher.
@MainActor final class HeardList: SpeechOutput {
    var heard: [Utterance] = []
    var stops = 0
    func speak(_ utterance: Utterance) { heard.append(utterance) }
    func stopSpeaking() { stops += 1 }
    func apply(rate: Int, volume: Int) {}
}

@MainActor @Suite struct KeyboardAppSpeechTests {
    /// Two buttons under a root that declares its own command on Ctrl+Alt+S.
    @MainActor struct Screen {
        let window = Window(identifier: "kiosk")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let pay = FocusNode(identifier: "pay", frame: Rect(x: 0, y: 0, width: 10, height: 1), isFocusable: true)
        let cancel = FocusNode(identifier: "cancel", frame: Rect(x: 0, y: 2, width: 10, height: 1), isFocusable: true)

        init() {
            window.addChild(root)
            root.addChild(pay)
            root.addChild(cancel)
            pay.accessibilityLabel = "Pay"
            pay.primaryAction = "pay"
            cancel.accessibilityLabel = "Cancel"
            cancel.primaryAction = "cancel"
        }
    }

    /// A state directory of this test's own (the listener's settings are kept there).
    let stateHome = NSTemporaryDirectory() + "speech-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    func app(_ screen: Screen, speech: KeyboardApp.SpeechOptions = KeyboardApp.SpeechOptions()) throws -> KeyboardApp {
        var configuration = KeyboardApp.Configuration()
        configuration.input = .terminal
        configuration.environment = ["XDG_RUNTIME_DIR": "/nonexistent-runtime", "XDG_STATE_HOME": stateHome]
        configuration.speech = speech
        configuration.inspection.isEnabled = false
        let app = try KeyboardApp(window: screen.window, root: screen.root, configuration: configuration)
        // Initial focus, as the app's start gives it.
        app.focusSystem.updateFocusIfNeeded()
        return app
    }

    @Test("no speech unless configured: no narrator, no output, no reserved speech commands")
    func off() throws {
        let screen = Screen()
        var configuration = KeyboardApp.Configuration()
        configuration.input = .terminal
        configuration.inspection.isEnabled = false
        let app = try KeyboardApp(window: screen.window, root: screen.root, configuration: configuration)
        #expect(app.narrator == nil && app.speechOutput == nil && app.speechNote == nil)
        let titles = app.dispatcher.discoverableKeyCommands().flatMap(\.commands).map(\.title)
        #expect(!titles.contains("Speech on or off"))
    }

    @Test("the listener's key commands are reserved and discoverable; Ctrl+Alt+S turns speech on and says so")
    func keyCommands() throws {
        let screen = Screen()
        let app = try app(screen)
        let narrator = try #require(app.narrator)
        #expect(!narrator.isEnabled, "speech starts off unless startsSpeaking")
        let heard = HeardList()
        narrator.output = heard
        let titles = app.dispatcher.discoverableKeyCommands().flatMap(\.commands).map { "\($0.title) \($0.shortcut)" }
        for command in KeyboardApp.speechKeyCommands {
            #expect(titles.contains("\(command.title) \(command.readableShortcut)"), "\(command.title) is listed")
        }
        let keyboard = VirtualKeyboard(app.dispatcher)
        keyboard.tap("ctrl+alt+s")
        #expect(narrator.isEnabled)
        #expect(heard.heard.map(\.text) == ["Speech on", "Pay, button, 1 of 2"], "then where the listener is")
        keyboard.tap("ctrl+alt+w")
        #expect(heard.heard.last?.text == "Pay, button, 1 of 2")
        keyboard.tap("ctrl+alt+up")
        #expect(heard.heard.last?.text == "Rate 10" && narrator.rate == 10)
        keyboard.tap("ctrl+alt+pagedown")
        #expect(heard.heard.last?.text == "Volume 90" && narrator.volume == 90)
        keyboard.tap("ctrl+alt+x")
        #expect(heard.stops == 1)
        keyboard.tap("ctrl+alt+k")
        #expect(heard.heard.last?.text.contains("Speech on or off, Control Alt S") == true)
        keyboard.tap("ctrl+alt+s")
        #expect(heard.heard.last?.text == "Speech off" && !narrator.isEnabled)
    }

    @Test("an app command on a listener's chord is reported by the conflict report, not silently lost")
    func conflicts() throws {
        let screen = Screen()
        screen.root.keyCommands = [
            KeyCommand("s", modifierFlags: [.control, .alternate], action: "save", title: "Save")
        ]
        screen.root.performableActions = ["save"]
        let app = try app(screen)
        let report = KeyCommandConflictReport(app.dispatcher)
        let save = try #require(report.entries.first { $0.command.action == "save" })
        guard case .shadowedByReservedShortcut(let winner) = save.status else {
            Issue.record("Save on Ctrl+Alt+S is \(save.status), not shadowed by the speech command")
            return
        }
        #expect(winner.title == "Speech on or off")
    }

    @Test("no daemon: speech on says nothing aloud, the note names the socket once, and the app goes on")
    func noDaemon() throws {
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
        var problems: [String] = []
        app.onSpeechProblem = { problems.append($0) }
        #expect(app.speechNote == nil, "nothing connects before the first utterance")
        app.focusSystem.updateFocusIfNeeded()
        let narrator = try #require(app.narrator)
        narrator.announce("Checked in")
        narrator.speakFocusedItem()
        #expect(narrator.lastUtterance?.text == "Pay, button, 1 of 2", "the narrator goes on")
        #expect(problems.count == 1, "once per outage: \(problems)")
        // Past the first back-off the next utterance tries again, and fails again: still said once.
        let later = EventLoop.monotonicNow + SpeechDispatcherClient.reconnectDelays.lowerBound + 0.1
        while EventLoop.monotonicNow < later { app.loop.runOnce(timeout: 0.05) }
        narrator.announce("Please take a seat")
        while EventLoop.monotonicNow < later + 0.3 { app.loop.runOnce(timeout: 0.05) }
        #expect(problems.count == 1, "once per outage: \(problems)")
        #expect(app.speechNote?.contains("/nonexistent-runtime/speechd.sock") == true)
        #expect(app.speechNote?.contains("goes on silently") == true)
    }

    @Test("the speech problem says the app goes on silently once, not twice")
    func problemSaidOnce() throws {
        let screen = Screen()
        var speech = KeyboardApp.SpeechOptions()
        speech.startsSpeaking = true
        speech.address = .unixSocket("/nonexistent-runtime/speechd.sock")
        let app = try self.app(screen, speech: speech)
        try #require(app.narrator).announce("Checked in")
        // The daemon is not there: the client says so, and the app adds once that it goes on silently.
        let problem = try #require(app.speechNote)
        #expect(problem.contains("/nonexistent-runtime/speechd.sock"), "\(problem)")
        #expect(problem.components(separatedBy: "the app goes on silently").count == 2, "\(problem)")
        #expect(problem.hasSuffix("; the app goes on silently"), "\(problem)")
    }

    @Test(
        "each kind of the client's message gets 'the app goes on silently' once, from the app",
        arguments: [
            "speech-dispatcher is not running at /run/x (the app): start it, or install speech-dispatcher",
            "speech-dispatcher at /run/x (the app) closed the connection: the next utterance connects again",
            "speech-dispatcher at /run/x sent a reply to no command: 200 OK",
        ])
    func problemLine(message: String) {
        #expect(KeyboardApp.speechProblemLine(message) == message + "; the app goes on silently")
    }

    @Test("a malformed SPEECHD_ADDRESS is a note naming it, and the narrator still runs: its commands, what it says")
    func badAddress() throws {
        let screen = Screen()
        var configuration = KeyboardApp.Configuration()
        configuration.input = .terminal
        configuration.inspection.isEnabled = false
        configuration.environment = ["SPEECHD_ADDRESS": "carrier_pigeon:coop", "XDG_STATE_HOME": stateHome]
        configuration.speech = KeyboardApp.SpeechOptions()
        let app = try KeyboardApp(window: screen.window, root: screen.root, configuration: configuration)
        let narrator = try #require(app.narrator)
        #expect(app.speechOutput == nil)
        #expect(app.speechNote?.contains("SPEECHD_ADDRESS") == true)
        // Heard by another output an app may give it (a status line, a test).
        let heard = HeardList()
        narrator.output = heard
        app.focusSystem.updateFocusIfNeeded()
        VirtualKeyboard(app.dispatcher).tap("ctrl+alt+s")
        #expect(heard.heard.map(\.text) == ["Speech on", "Pay, button, 1 of 2"])
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

    @Test(
        "the listener's choices outlast the app: speech on, a faster rate and a softer voice are there at the next start"
    )
    func settingsKept() throws {
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        var options = KeyboardApp.SpeechOptions()
        options.clientName = "kiosk-example"
        options.settingsSaveDelay = 0.2
        let first = try app(Screen(), speech: options)
        #expect(first.narrator?.isEnabled == false)
        let keyboard = VirtualKeyboard(first.dispatcher)
        keyboard.tap("ctrl+alt+s")
        keyboard.tap("ctrl+alt+up")
        keyboard.tap("ctrl+alt+up")
        keyboard.tap("ctrl+alt+pagedown")
        let path = stateHome + "/kiosk-example/speech.conf"
        #expect(!FileManager.default.fileExists(atPath: path), "written a moment after the last change, not at once")
        let start = Date()
        while !FileManager.default.fileExists(atPath: path) && Date().timeIntervalSince(start) < 5 {
            _ = first.loop.runOnce(timeout: 0.05)
        }
        let saved = try String(contentsOfFile: stateHome + "/kiosk-example/speech.conf", encoding: .utf8)
        #expect(saved.contains("speech = on") && saved.contains("rate = 20") && saved.contains("volume = 90"))
        let second = try app(Screen(), speech: options)
        let narrator = try #require(second.narrator)
        #expect(narrator.isEnabled && narrator.rate == 20 && narrator.volume == 90)
        // A file the listener cannot have written: the defaults, and a note naming it.
        try "speech = maybe\n".write(
            toFile: stateHome + "/kiosk-example/speech.conf", atomically: true, encoding: .utf8)
        let third = try app(Screen(), speech: options)
        #expect(third.narrator?.isEnabled == false)
        #expect(third.speechNote?.contains("speech.conf") == true)
    }
}
