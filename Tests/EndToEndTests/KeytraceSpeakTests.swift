import Foundation
import TestSupport
import Testing

/// `keytrace --speak` through a real speech-dispatcher of the test's own: what keytrace says of its
/// demo, what it says for an attached app, and how it goes on without a daemon.
@Suite(.serialized) struct KeytraceSpeakTests {
    /// What one client of the daemon said: each `SPEAK`'s text, in order, from the protocol log, by
    /// the connection whose `CLIENT_NAME` names it (`uid0:keytrace:main`).
    static func spoken(by client: String, in daemon: PrivateDaemon) -> [String] {
        utterances(by: client, in: daemon).map(\.text)
    }

    /// Each `SPEAK` of one client with the priority it was sent at (`PrivateDaemon.utterances(by:)`).
    static func utterances(by client: String, in daemon: PrivateDaemon) -> [(text: String, priority: String)] {
        daemon.utterances(by: client)
    }

    /// The `announce` events of JSON lines: their text (`•` when redacted), kind and priority.
    static func announcements(_ jsonLines: String) -> [(text: String?, kind: String, priority: String)] {
        jsonLines.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["event"] as? String == "announce"
            else { return nil }
            return (object["text"] as? String, object["kind"] as? String ?? "", object["priority"] as? String ?? "")
        }
    }

    static let demoFocus = ["search, text field, 1 of 10", "buyMilk, button, 2 of 10", "today, button, 3 of 10"]

    @Test("--speak --keys on the demo: the daemon hears keytrace say each focus move in order before it exits")
    func demoKeys() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let result = try KeytraceBinary.run(
            ["--speak", "--keys", "tab tab", "--json"],
            environment: ["SPEECHD_ADDRESS": "unix_socket:\(daemon.socketPath)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        // Read as soon as keytrace exited: what it said was handed over before it did.
        #expect(Self.spoken(by: "keytrace", in: daemon) == Self.demoFocus, "\(daemon.protocolLog.suffix(3000))")
        let announced = Self.announcements(result.stdout)
        #expect(announced.map(\.text) == Self.demoFocus)
        #expect(announced.allSatisfy { $0.kind == "focus" && $0.priority == "text" })
        // Each follows its focus move.
        let events = result.stdout.split(separator: "\n").compactMap { line -> String? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["event"] as? String
        }
        let order = events.filter { $0 == "focus" || $0 == "announce" }
        #expect(order == ["focus", "announce", "focus", "announce", "focus", "announce"], "\(events)")
    }

    @Test("--speak --plain explains what was said: to the listener, why, at which priority")
    func plainExplains() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let result = try KeytraceBinary.run(
            ["--speak", "--keys", "tab", "--plain"],
            environment: ["SPEECHD_ADDRESS": "unix_socket:\(daemon.socketPath)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                #"announce       said to the listener (focus move, priority text): "buyMilk, button, 2 of 10""#),
            "\(result.stdout)")
    }

    @Test("--speak on the demo's passcode field: the daemon hears \"dot\" for each character, the trace shows •")
    func secureField() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer { daemon.stop() }
        // Shift+Tab from the search field goes round to the passcode field, the last in the loop.
        let result = try KeytraceBinary.run(
            ["--speak", "--keys", "shift+tab 7 3", "--json"],
            environment: ["SPEECHD_ADDRESS": "unix_socket:\(daemon.socketPath)"])
        #expect(result.status == 0, "\(result.stderr)")
        let said = Self.spoken(by: "keytrace", in: daemon)
        #expect(said.suffix(3) == ["passcode, secure text field, 10 of 10", "dot", "dot"], "\(said)")
        // Not as an utterance, nor inside one ("passcode, 7 3"), nor in the trace.
        #expect(!said.contains { $0.filter(\.isNumber).contains("73") || $0 == "7" || $0 == "3" }, "\(said)")
        #expect(!result.stdout.contains("73") && !result.stdout.contains("7 3"))
        let typing = Self.announcements(result.stdout).filter { $0.kind == "typing" }
        #expect(typing.count == 2 && typing.allSatisfy { $0.text == "•" }, "redacted: \(typing)")
        #expect(!result.stdout.contains(#""text":"7""#) && !result.stdout.contains(#""text":"dot""#))
    }

    @Test("--speak --replay: what the recording types is echoed to the daemon before keytrace exits")
    func replay() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let result = try KeytraceBinary.run(
            ["--speak", "--replay", KeytraceBinary.fixture("typing.evemu"), "--json"],
            environment: ["SPEECHD_ADDRESS": "unix_socket:\(daemon.socketPath)"])
        #expect(result.status == 0, "\(result.stderr)")
        let announced = Self.announcements(result.stdout).compactMap(\.text)
        #expect(announced.contains("a") && announced.contains("b"), "\(announced)")
        #expect(Self.spoken(by: "keytrace", in: daemon) == announced)
    }

    @Test(
        "a stopped daemon: keytrace waits 2 s at most, says in one line that the daemon did not take the words, exits 0"
    )
    func stoppedDaemon() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer {
            daemon.signal(SIGCONT)
            daemon.stop()
        }
        // The daemon listening (its socket file comes before it listens): a first run is heard.
        let speech = ["SPEECHD_ADDRESS": "unix_socket:\(daemon.socketPath)"]
        let first = try KeytraceBinary.run(["--speak", "--keys", "tab", "--json"], environment: speech)
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        // Then it stops: keytrace connects (the kernel takes the connection) and nothing answers.
        daemon.signal(SIGSTOP)
        let start = Date()
        let result = try KeytraceBinary.run(
            ["--speak", "--keys", "tab", "--json"], environment: ["SPEECHD_ADDRESS": "unix_socket:\(daemon.socketPath)"]
        )
        let took = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(took < 4, "the wait at exit is bounded: \(took) s")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && result.stderr.contains("did not take"), "\(result.stderr)")
        #expect(result.stderr.contains(daemon.socketPath), "\(result.stderr)")
        #expect(Self.announcements(result.stdout).count == 2, "the trace has what was said: \(result.stdout)")
    }

    @Test("--speak without a daemon: one line on standard error naming the address and the fix; the trace goes on")
    func noDaemon() throws {
        let missing = "/tmp/keytrace-no-speechd-\(getpid()).sock"
        let silent = try KeytraceBinary.run(["--keys", "tab tab", "--json"])
        let result = try KeytraceBinary.run(
            ["--speak", "--keys", "tab tab", "--json"], environment: ["SPEECHD_ADDRESS": "unix_socket:\(missing)"])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(missing) && result.stderr.contains("start it"), "\(result.stderr)")
        // The trace: every event of the silent run, and what would have been said.
        let withoutAnnouncements = result.stdout.split(separator: "\n").filter { !$0.contains(#""event":"announce""#) }
        #expect(withoutAnnouncements == silent.stdout.split(separator: "\n"))
        #expect(Self.announcements(result.stdout).map(\.text) == Self.demoFocus)
    }

    /// The kiosk example in tmux with `--speak`, its speech at `speech` (an environment assignment)
    /// and its inspection socket in `runtime`, at its home screen.
    static func speakingKiosk(_ speech: String, runtime: AttachEndToEndTests.RuntimeDirectory) throws -> TmuxSession {
        let kiosk = TmuxSession()
        do {
            try kiosk.start(
                columns: 80, rows: 24,
                binary: "\(runtime.assignment) \(speech) \(KeytraceBinary.product("kiosk-example"))",
                arguments: "--terminal --layout us --speak 2>\(runtime.path)/kiosk.err")
            try kiosk.waitFor("focus tile-checkin")
        } catch {
            kiosk.stop()
            throw error
        }
        return kiosk
    }

    /// Waits until `client` has said something that `matches`; returns everything it said.
    static func waitUntil(
        _ client: String, in daemon: PrivateDaemon, seconds: Double = 10, _ matches: ([String]) -> Bool
    ) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var said = spoken(by: client, in: daemon)
        while !matches(said) && Date() < deadline {
            usleep(50_000)
            said = spoken(by: client, in: daemon)
        }
        return said
    }

    @Test("--attach --speak speaks what the kiosk says, as the client keytrace; PIN digits only as dot")
    func attachSpeaks() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let runtime = try AttachEndToEndTests.RuntimeDirectory()
        defer { runtime.remove() }
        let speech = "SPEECHD_ADDRESS=unix_socket:\(daemon.socketPath)"
        // The kiosk speaking through the same daemon, as itself.
        let kiosk = try Self.speakingKiosk(speech, runtime: runtime)
        defer { kiosk.stop() }
        let output = runtime.path + "/attach.txt"
        let keytrace = TmuxSession()
        defer { keytrace.stop() }
        try keytrace.start(
            columns: 120, rows: 45, binary: "\(runtime.assignment) \(speech) \(KeytraceBinary.path)",
            arguments: "--attach kiosk-example --plain --speak > \(output) 2>\(runtime.path)/keytrace.err")
        AttachEndToEndTests.waitFor("attached to kiosk-example", in: output)

        // A focus move: the kiosk says it, and keytrace says the same words.
        try kiosk.send("Right")
        try kiosk.waitFor("focus tile-find")
        var said = Self.waitUntil("keytrace", in: daemon) { !$0.isEmpty }
        let move = try #require(said.first, "keytrace said nothing:\n\(daemon.protocolLog.suffix(3000))")
        #expect(move.contains("button"), "\(said)")
        // The kiosk says it on its own connection (before or after keytrace: they do not wait for each other).
        let kioskSaid = Self.waitUntil("kiosk-example", in: daemon) { $0.contains(move) }
        #expect(kioskSaid.contains(move), "the kiosk said it too: \(move), \(kioskSaid)")

        // The form: a secure field's digits are "dot" to keytrace too, never the digits.
        try kiosk.send("Left")
        try kiosk.waitFor("focus tile-checkin")
        try kiosk.send("Enter")
        try kiosk.waitFor("focus name")
        try kiosk.send("A")
        try kiosk.send("Tab")
        try kiosk.waitFor("focus pin")
        for digit in ["4", "2", "7"] { try kiosk.send(digit) }
        said = Self.waitUntil("keytrace", in: daemon) { $0.filter { $0 == "dot" }.count == 3 }
        #expect(said.filter { $0 == "dot" }.count == 3, "\(said)")
        #expect(said.contains("A"), "typing is echoed: \(said)")
        for secret in ["4", "2", "7", "427", "four"] { #expect(!said.contains(secret), "\(said)") }
        #expect(!said.contains { $0.filter(\.isNumber).contains("427") }, "inside an utterance: \(said)")
        // An announcement (the check box's new state) keeps its priority: message, as the kiosk sent it.
        try kiosk.send("Tab")
        try kiosk.waitFor("focus consent")
        try kiosk.send("Space")
        let heard = Self.waitUntil("keytrace", in: daemon) { $0.contains("checked") }
        #expect(heard.contains("checked"), "\(heard)")
        let checked = Self.utterances(by: "keytrace", in: daemon).filter { $0.text == "checked" }
        #expect(checked.map(\.priority) == ["message"], "\(checked)")
        _ = Self.waitUntil("kiosk-example", in: daemon) { $0.contains("checked") }
        let kioskChecked = Self.utterances(by: "kiosk-example", in: daemon).filter { $0.text == "checked" }
        #expect(kioskChecked.map(\.priority) == ["message"], "\(kioskChecked)")
        let text = AttachEndToEndTests.waitFor("spoken \"dot\"", in: output)
        // keytrace's own lines of what was said (times and pids elsewhere in them are digits too).
        let saidLines = text.split(separator: "\n").compactMap { line in
            line.range(of: "said to the listener").map { line[$0.upperBound...] }
        }
        #expect(saidLines.count >= 3, "\(text)")
        for line in saidLines {
            #expect(!line.filter(\.isNumber).contains("427") && !line.contains("\"7\""), "keytrace's output: \(line)")
        }
        #expect(
            text.contains(
                #"said to the listener (typing echo, priority text): • (typing in a secure field, spoken "dot")"#),
            "\(text)")

        try kiosk.send("C-c")
        try kiosk.waitFor("EXITED 0")
        try keytrace.waitFor("EXITED 0")
        let errors = (try? String(contentsOfFile: runtime.path + "/keytrace.err", encoding: .utf8)) ?? ""
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test("the live runtime with --speak (the terminal): Tab is spoken as keytrace and traced; Ctrl+Alt+S turns it off")
    func liveTerminal() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let output = "/tmp/keytrace-speak-live-\(getpid()).txt"
        defer { unlink(output) }
        let tmux = TmuxSession()
        defer { tmux.stop() }
        try tmux.start(
            columns: 120, rows: 40,
            binary: "SPEECHD_ADDRESS=unix_socket:\(daemon.socketPath) XKB_DEFAULT_LAYOUT=us \(KeytraceBinary.path)",
            arguments: "--terminal --speak --plain > \(output)")
        var said = Self.waitUntil("keytrace", in: daemon) { $0.count == 1 }
        #expect(said == ["search, text field, 1 of 10"], "the initial focus: \(said)")
        try tmux.send("Tab")
        said = Self.waitUntil("keytrace", in: daemon) { $0.count == 2 }
        #expect(said.last == "buyMilk, button, 2 of 10", "\(said)")
        // The listener's own key: speech off, said before it goes quiet.
        try tmux.send("C-M-s")
        said = Self.waitUntil("keytrace", in: daemon) { $0.count == 3 }
        #expect(said.last == "Speech off", "\(said)")
        try tmux.send("Tab")
        // Silence is checked by waiting for what would have been said: a second is ample (the Tab before
        // was heard within milliseconds).
        said = Self.waitUntil("keytrace", in: daemon, seconds: 1) { $0.count > 3 }
        #expect(said.count == 3, "nothing after Speech off: \(said)")
        try tmux.send("C-c")
        try tmux.waitFor("EXITED 0")
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(
            text.contains(#"said to the listener (focus move, priority text): "buyMilk, button, 2 of 10""#), "\(text)")
        #expect(
            text.contains(#"said to the listener (the listener's speech setting, priority important): "Speech off""#))
    }

    @Test(
        "the live view with --speak and no daemon: the status line says so, the line comes after the terminal is back")
    func liveViewWithoutDaemon() throws {
        let missing = "/tmp/keytrace-no-speechd-live-\(getpid()).sock"
        let tmux = TmuxSession()
        defer { tmux.stop() }
        try tmux.start(
            columns: 160, rows: 40,
            binary: "SPEECHD_ADDRESS=unix_socket:\(missing) XKB_DEFAULT_LAYOUT=us \(KeytraceBinary.path)",
            arguments: "--terminal --speak")
        var pane = try tmux.waitFor("no speech (why: on exit)")
        try tmux.send("Tab")
        pane = try tmux.waitFor("focus buyMilk")
        #expect(pane.contains("said to the listener (focus move, priority text)"), "\(pane)")
        #expect(!pane.contains("is not running"), "nothing written over the view:\n\(pane)")
        try tmux.send("C-c")
        pane = try tmux.waitFor("EXITED 0")
        #expect(pane.contains("speech-dispatcher is not running at \(missing)"), "\(pane)")
    }

    @Test("--attach --speak in the live view speaks what the kiosk says")
    func attachLiveView() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let runtime = try AttachEndToEndTests.RuntimeDirectory()
        defer { runtime.remove() }
        let speech = "SPEECHD_ADDRESS=unix_socket:\(daemon.socketPath)"
        // The kiosk speaking through the same daemon, as itself.
        let kiosk = try Self.speakingKiosk(speech, runtime: runtime)
        defer { kiosk.stop() }
        let keytrace = TmuxSession()
        defer { keytrace.stop() }
        try keytrace.start(
            columns: 120, rows: 45, binary: "\(runtime.assignment) \(speech) \(KeytraceBinary.path)",
            arguments: "--attach kiosk-example --speak")
        try keytrace.waitFor("focus tile-checkin")
        try kiosk.send("Right")
        let pane = try keytrace.waitFor("said to the listener (focus move, priority text)")
        let said = Self.waitUntil("keytrace", in: daemon) { !$0.isEmpty }
        let move = try #require(said.first, "keytrace said nothing")
        #expect(pane.contains(String(move.prefix(20))), "the live view shows what it said:\n\(pane)")
        #expect(Self.waitUntil("kiosk-example", in: daemon) { $0.contains(move) }.contains(move))
        try kiosk.send("C-c")
        try kiosk.waitFor("EXITED 0")
        try keytrace.waitFor("EXITED 0")
    }
}
