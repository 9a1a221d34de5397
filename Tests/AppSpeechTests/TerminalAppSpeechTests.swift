import AppRuntime
import AppSpeech
import EventLoop
import Foundation
import ResponderChain
import TestSupport
import Testing

/// A pseudo-terminal: the app reads its keys from the `follower` side; the test types on the
/// `leader` side, as a terminal emulator would.
final class PseudoTerminal {
    let leader: Int32
    let follower: Int32

    init() throws {
        // posix_openpt and friends are not in Swift's Glibc module: /dev/ptmx and its ioctls.
        leader = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let tiocsptlck: UInt = 0x4004_5431
        let tiocgptn: UInt = 0x8004_5430
        guard leader >= 0, ioctl(leader, tiocsptlck, &unlock) == 0, ioctl(leader, tiocgptn, &number) == 0 else {
            throw POSIXError(.ENXIO)
        }
        follower = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard follower >= 0 else { throw POSIXError(.ENOENT) }
    }

    deinit {
        close(follower)
        close(leader)
    }

    /// Types bytes, as a person at the terminal would.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(leader, $0.baseAddress, $0.count) }
    }

    /// Reads and drops what the app wrote, so that its writes never wait for room.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Glibc.read(leader, &buffer, buffer.count) > 0 {}
    }
}

/// The point of AppSpeech: a terminal app on AppRuntime alone (an `Application`, no KeyboardApp, nothing
/// of LinuxKeyboard) speaks through a real speech-dispatcher of the test's own.
@Suite(.serialized) @MainActor struct TerminalAppSpeechTests {
    @Test("a terminal app on the runtime alone: Ctrl+Alt+S typed at its terminal is heard by a real daemon, and kept")
    func heardByARealDaemon() async throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let stateHome = NSTemporaryDirectory() + "terminal-speech-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: stateHome) }
        let terminal = try PseudoTerminal()

        let window = Window(identifier: "counter")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 40, height: 6))
        let plus = FocusNode(identifier: "plus", frame: Rect(x: 0, y: 2, width: 8, height: 1), isFocusable: true)
        let minus = FocusNode(identifier: "minus", frame: Rect(x: 10, y: 2, width: 8, height: 1), isFocusable: true)
        window.addChild(root)
        root.addChild(plus)
        root.addChild(minus)
        plus.accessibilityLabel = "Plus"
        plus.primaryAction = "plus"
        minus.accessibilityLabel = "Minus"
        minus.primaryAction = "minus"
        var configuration = Application.Configuration()
        configuration.terminalInput = terminal.follower
        configuration.terminalOutput = terminal.follower
        configuration.inspection.isEnabled = false
        let app = try Application(window: window, root: root, configuration: configuration)
        var options = SpeechOptions()
        options.address = .unixSocket(daemon.socketPath)
        options.clientName = "terminal-speech-test"
        options.settingsSaveDelay = 60
        let speech = ApplicationSpeech(
            application: app, options: options, environment: ["XDG_STATE_HOME": stateHome, "HOME": stateHome])
        var problems: [String] = []
        speech.onProblem = { problems.append($0) }

        try app.start()
        #expect(app.input == .terminal, "the terminal is the input: \(app.inputNote ?? "")")
        #expect(!speech.narrator.isEnabled, "speech starts off")
        // Ctrl+Alt+S as a terminal sends it: Escape (Alt), then Ctrl-S.
        terminal.type("\u{1b}\u{13}")
        let said = { daemon.utterances(by: "terminal-speech-test") }
        let heard = run(app.loop, upTo: 15) {
            terminal.drain()
            return said().contains { $0.text == "Plus, button, 1 of 2" }
        }
        #expect(heard, "the daemon heard: \(said().map(\.text)); problems: \(problems)")
        #expect(speech.narrator.isEnabled)
        let utterances = said()
        #expect(utterances.first?.text == "Speech on" && utterances.first?.priority == "important", "\(utterances)")
        // An announcement the app makes itself.
        speech.narrator.announce("Counted to three")
        #expect(
            run(app.loop, upTo: 15) {
                terminal.drain()
                return said().contains { $0.text == "Counted to three" && $0.priority == "message" }
            }, "\(said().map(\.text))")
        #expect(problems.isEmpty, "\(problems)")
        // The daemon's espeak-ng spoke it: sound in its audio file.
        let start = Date()
        while daemon.audioSize == 0 && Date().timeIntervalSince(start) < 10 { usleep(20_000) }
        let audio = try #require(try daemon.audio(), "no audio from espeak-ng")
        #expect(audio.seconds > 0.2 && audio.rms > 0.001, "\(audio)")

        // Ctrl-C quits the terminal app; speech turned on just before is kept (the save waited 60 s).
        terminal.type("\u{3}")
        try await app.run()
        let saved = try String(contentsOfFile: stateHome + "/terminal-speech-test/speech.conf", encoding: .utf8)
        #expect(saved.contains("speech = on"), "\(saved)")
    }
}
