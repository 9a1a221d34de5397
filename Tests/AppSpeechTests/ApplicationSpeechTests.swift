import Accessibility
import AppRuntime
import AppSpeech
import EventLoop
import Foundation
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

/// An input that reads nothing: an application that opens and runs with no device and no terminal.
@MainActor final class QuietSource: InputSource {
    let inputName = "quiet input"
    var inputNote: String? { nil }
    var onDeviceChange: ((InputDeviceChange) -> Void)?
    func start() throws {}
    func stop() {}
}

/// A pipe for an application's terminal input, so that nothing depends on how the tests were started
/// (their standard input may be a terminal); closed with the test.
final class TerminalPipe {
    let descriptors: [Int32]

    init() {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        descriptors = fds
    }

    deinit { descriptors.forEach { close($0) } }
}

/// Speech on an `Application` alone: no KeyboardApp, nothing of LinuxKeyboard.
@MainActor @Suite struct ApplicationSpeechTests {
    /// Two buttons under a root.
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
    let stateHome = NSTemporaryDirectory() + "app-speech-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let terminal = TerminalPipe()

    /// No daemon at the default address, and the settings in ``stateHome``.
    var environment: [String: String] { ["XDG_RUNTIME_DIR": "/nonexistent-runtime", "XDG_STATE_HOME": stateHome] }

    /// An application on the runtime alone, its input one that reads nothing, with initial focus.
    func application(_ screen: Screen) throws -> Application {
        var configuration = Application.Configuration()
        configuration.usesTerminalForOutput = false
        configuration.terminalInput = terminal.descriptors[0]
        configuration.inspection.isEnabled = false
        let app = try Application(window: screen.window, root: screen.root, configuration: configuration)
        app.setPrimaryInput(QuietSource(), fallsBackToTerminal: false)
        app.focusSystem.updateFocusIfNeeded()
        return app
    }

    /// Options that no daemon answers.
    static var unanswered: SpeechOptions {
        var options = SpeechOptions()
        options.startsSpeaking = true
        options.address = .unixSocket("/nonexistent-runtime/speechd.sock")
        return options
    }

    @Test("the listener's key commands are reserved and discoverable; Ctrl+Alt+S turns speech on and says so")
    func keyCommands() throws {
        let screen = Screen()
        let app = try application(screen)
        let speech = ApplicationSpeech(application: app, environment: environment)
        let narrator = speech.narrator
        #expect(!narrator.isEnabled, "speech starts off unless startsSpeaking")
        #expect(speech.output != nil && speech.note == nil)
        let heard = HeardList()
        narrator.output = heard
        let titles = app.dispatcher.discoverableKeyCommands().flatMap(\.commands).map { "\($0.title) \($0.shortcut)" }
        for command in ApplicationSpeech.keyCommands {
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

    @Test("reservesKeyCommands off: no speech command is reserved, and Ctrl+Alt+S does nothing")
    func noKeyCommands() throws {
        let screen = Screen()
        let app = try application(screen)
        var options = SpeechOptions()
        options.reservesKeyCommands = false
        let speech = ApplicationSpeech(application: app, options: options, environment: environment)
        #expect(app.dispatcher.reservedShortcuts.isEmpty)
        VirtualKeyboard(app.dispatcher).tap("ctrl+alt+s")
        #expect(!speech.narrator.isEnabled)
    }

    @Test("an app command on a listener's chord is reported by the conflict report, not silently lost")
    func conflicts() throws {
        let screen = Screen()
        screen.root.keyCommands = [
            KeyCommand("s", modifierFlags: [.control, .alternate], action: "save", title: "Save")
        ]
        screen.root.performableActions = ["save"]
        let app = try application(screen)
        _ = ApplicationSpeech(application: app, environment: environment)
        let report = KeyCommandConflictReport(app.dispatcher)
        let save = try #require(report.entries.first { $0.command.action == "save" })
        guard case .shadowedByReservedShortcut(let winner) = save.status else {
            Issue.record("Save on Ctrl+Alt+S is \(save.status), not shadowed by the speech command")
            return
        }
        #expect(winner.title == "Speech on or off")
    }

    @Test("the application keeps its speech: made and let go, its key commands still work")
    func keptByTheApplication() throws {
        let screen = Screen()
        let app = try application(screen)
        weak var kept: ApplicationSpeech?
        do {
            let speech = ApplicationSpeech(application: app, environment: environment)
            speech.narrator.output = HeardList()
            kept = speech
        }
        #expect(kept != nil, "the application holds it")
        VirtualKeyboard(app.dispatcher).tap("ctrl+alt+s")
        #expect(kept?.narrator.lastUtterance?.text == "Pay, button, 1 of 2")
    }

    @Test(
        "no daemon: the narrator goes on, the problem is said once per outage to onProblem, and the note names the socket"
    )
    func noDaemon() throws {
        let screen = Screen()
        let app = try application(screen)
        let speech = ApplicationSpeech(application: app, options: Self.unanswered, environment: environment)
        var problems: [String] = []
        speech.onProblem = { problems.append($0) }
        #expect(speech.note == nil, "nothing connects before the first utterance")
        let narrator = speech.narrator
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
        #expect(speech.note?.contains("/nonexistent-runtime/speechd.sock") == true)
        #expect(speech.note == problems.first)
    }

    @Test("the speech problem says the app goes on silently once, not twice")
    func problemSaidOnce() throws {
        let screen = Screen()
        let app = try application(screen)
        let speech = ApplicationSpeech(application: app, options: Self.unanswered, environment: environment)
        speech.onProblem = { _ in }
        speech.narrator.announce("Checked in")
        // The daemon is not there: the client says so, and the app adds once that it goes on silently.
        let problem = try #require(speech.note)
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
        #expect(ApplicationSpeech.problemLine(message) == message + "; the app goes on silently")
    }

    @Test("a malformed SPEECHD_ADDRESS is a note naming it, and the narrator still runs: its commands, what it says")
    func badAddress() throws {
        let screen = Screen()
        let app = try application(screen)
        let speech = ApplicationSpeech(
            application: app, environment: ["SPEECHD_ADDRESS": "carrier_pigeon:coop", "XDG_STATE_HOME": stateHome])
        #expect(speech.output == nil)
        #expect(speech.note?.contains("SPEECHD_ADDRESS") == true)
        // Heard by another output an app may give it (a status line, a test).
        let heard = HeardList()
        speech.narrator.output = heard
        VirtualKeyboard(app.dispatcher).tap("ctrl+alt+s")
        #expect(heard.heard.map(\.text) == ["Speech on", "Pay, button, 1 of 2"])
    }

    @Test(
        "unless the app set onProblem, the setup's note reaches Application.report when the app opens, and so do later problems"
    )
    func reportedThroughApplication() throws {
        let bad = ["SPEECHD_ADDRESS": "carrier_pigeon:coop", "XDG_STATE_HOME": stateHome]
        let first = try application(Screen())
        let setup = ApplicationSpeech(application: first, environment: bad)
        var shown: [String] = []
        first.onMessage = { shown.append($0) }  // set after the setup, as an app does
        #expect(shown.isEmpty, "nothing before the app opens")
        let note = try #require(setup.note)
        try first.start()
        #expect(shown == [note])

        // An app that handles speech problems itself gets the setup's note there, not twice.
        let second = try application(Screen())
        let handled = ApplicationSpeech(application: second, environment: bad)
        var handledShown: [String] = []
        second.onMessage = { handledShown.append($0) }
        handled.onProblem = { _ in }
        try second.start()
        #expect(handledShown.isEmpty, "\(handledShown)")

        // A problem while the app runs (the daemon is not there).
        let third = try application(Screen())
        let later = ApplicationSpeech(application: third, options: Self.unanswered, environment: environment)
        var laterShown: [String] = []
        third.onMessage = { laterShown.append($0) }
        try third.start()
        later.narrator.announce("Checked in")
        #expect(laterShown.count == 1 && laterShown.first == later.note, "\(laterShown)")
        #expect(laterShown.first?.contains("/nonexistent-runtime/speechd.sock") == true, "\(laterShown)")
    }

    @Test("a change made just before the app stops is kept: written when Application.run() returns, not a moment later")
    func settingsKeptAtStop() async throws {
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        let app = try application(Screen())
        var options = Self.unanswered
        options.clientName = "speaking-app"
        options.settingsSaveDelay = 60
        let speech = ApplicationSpeech(application: app, options: options, environment: environment)
        speech.onProblem = { _ in }
        #expect(speech.settingsPath == stateHome + "/speaking-app/speech.conf")
        // Ctrl+Alt+Up (faster), then the app stops at once: long before the 60 s the saver waits.
        app.loop.control.perform {
            VirtualKeyboard(app.dispatcher).tap("ctrl+alt+up")
            app.stop()
        }
        try await app.run()
        #expect(speech.narrator.rate == 10)
        let saved = try String(contentsOfFile: stateHome + "/speaking-app/speech.conf", encoding: .utf8)
        #expect(saved.contains("rate = 10"), "\(saved)")
    }

    @Test("saveSettingsIfPending writes a waiting change at once, and nothing when none waits")
    func saveNow() throws {
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        let app = try application(Screen())
        var options = SpeechOptions()
        options.clientName = "speaking-app"
        options.settingsSaveDelay = 60
        let speech = ApplicationSpeech(application: app, options: options, environment: environment)
        let path = try #require(speech.settingsPath)
        speech.saveSettingsIfPending()
        #expect(!FileManager.default.fileExists(atPath: path), "no change, no file")
        speech.narrator.output = HeardList()
        VirtualKeyboard(app.dispatcher).tap("ctrl+alt+pagedown")
        speech.saveSettingsIfPending()
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("volume = 90") && saved.contains("speech = off"), "\(saved)")
    }

    @Test("keepsSettings off: no settings path, and no file however the listener changes speech")
    func settingsNotKept() throws {
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        let app = try application(Screen())
        var options = SpeechOptions()
        options.clientName = "speaking-app"
        options.keepsSettings = false
        let speech = ApplicationSpeech(application: app, options: options, environment: environment)
        #expect(speech.settingsPath == nil)
        speech.narrator.output = HeardList()
        VirtualKeyboard(app.dispatcher).tap("ctrl+alt+up")
        speech.saveSettingsIfPending()
        #expect(!FileManager.default.fileExists(atPath: stateHome + "/speaking-app"))
    }

    @Test(
        "the listener's choices outlast the app: speech on, a faster rate and a softer voice are there at the next start"
    )
    func settingsKept() throws {
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        var options = SpeechOptions()
        options.clientName = "kiosk-example"
        options.settingsSaveDelay = 0.2
        let firstApp = try application(Screen())
        let first = ApplicationSpeech(application: firstApp, options: options, environment: environment)
        #expect(first.narrator.isEnabled == false)
        first.narrator.output = HeardList()
        let keyboard = VirtualKeyboard(firstApp.dispatcher)
        keyboard.tap("ctrl+alt+s")
        keyboard.tap("ctrl+alt+up")
        keyboard.tap("ctrl+alt+up")
        keyboard.tap("ctrl+alt+pagedown")
        let path = stateHome + "/kiosk-example/speech.conf"
        #expect(!FileManager.default.fileExists(atPath: path), "written a moment after the last change, not at once")
        let start = Date()
        while !FileManager.default.fileExists(atPath: path) && Date().timeIntervalSince(start) < 5 {
            _ = firstApp.loop.runOnce(timeout: 0.05)
        }
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("speech = on") && saved.contains("rate = 20") && saved.contains("volume = 90"))
        let second = ApplicationSpeech(
            application: try application(Screen()), options: options, environment: environment)
        #expect(second.narrator.isEnabled && second.narrator.rate == 20 && second.narrator.volume == 90)
        // A file the listener cannot have written: the defaults, and a note naming it.
        try "speech = maybe\n".write(toFile: path, atomically: true, encoding: .utf8)
        let third = ApplicationSpeech(
            application: try application(Screen()), options: options, environment: environment)
        #expect(third.narrator.isEnabled == false)
        #expect(third.note?.contains("speech.conf") == true)
    }
}
