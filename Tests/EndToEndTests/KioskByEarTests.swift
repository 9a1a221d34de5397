import Foundation
import Synchronization
import TestSupport
import Testing

/// The kiosk example used by ear: a real speech-dispatcher of the test's own (espeak-ng, audio into a
/// file), the kiosk in tmux with `--speak`, and a listener that finds its way by what the daemon
/// received, never by the screen.
@Suite(.serialized) struct KioskByEarTests {
    /// What the kiosk said, as the daemon received it: each SPEAK's text, in order.
    struct Listener {
        let daemon: PrivateDaemon
        /// How many utterances were heard already.
        var heard = 0

        /// Every utterance so far (`PrivateDaemon.utterances(by:)`).
        var utterances: [String] { daemon.utterances().map(\.text) }

        /// Waits for the next utterances until one matches; returns it (`nil` after `seconds`).
        mutating func hear(seconds: Double = 10, _ matches: (String) -> Bool) -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let all = utterances
                while heard < all.count {
                    let text = all[heard]
                    heard += 1
                    if matches(text) { return text }
                }
                usleep(20_000)
            }
            return nil
        }
    }

    @Test("by ear alone: a listener checks in (name, PIN, consent, confirm) by what was spoken; the PIN never is")
    func checkInByEar() throws {
        let daemon = try PrivateDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let tmux = TmuxSession()
        let kiosk =
            "env SPEECHD_ADDRESS=unix_socket:\(daemon.socketPath) RESPONDERCHAIN_INSPECT=0 "
            + KeytraceBinary.product("kiosk-example")
        try tmux.start(columns: 80, rows: 24, binary: kiosk, arguments: "--terminal --layout us --speak")
        defer { tmux.stop() }
        var listener = Listener(daemon: daemon)

        /// Presses `key` until an utterance matches (each press waits for what it made said).
        func press(_ key: String, until matches: (String) -> Bool, times: Int = 12) throws -> String? {
            for _ in 0..<times {
                try tmux.send(key)
                if let text = listener.hear(seconds: 3, matches) { return text }
            }
            return nil
        }

        // Speaking from the start: the welcome, then the focused item, with the screen it is on.
        #expect(listener.hear { $0.hasPrefix("Welcome.") } != nil, "the welcome is said first")
        let first = try #require(listener.hear { $0.contains("button") }, "nothing was said at start")
        #expect(first.hasPrefix("Home, "), "the screen's name comes first: \(first)")
        if !first.contains("Check in, button") {
            _ = try #require(try press("Right", until: { $0.hasPrefix("Check in, button") }))
        }
        // The form: its first field.
        let name = try #require(try press("Enter", until: { $0.contains("text field") }, times: 1))
        #expect(name.contains("Name, text field"), "\(name)")
        for key in ["A", "d", "a", "Space", "L", "u", "n", "d"] { try tmux.send(key) }
        // "d" twice: the second, the last letter typed, is echoed too.
        #expect(listener.hear { $0 == "d" } != nil && listener.hear { $0 == "d" } != nil, "the last letter is echoed")
        let pin = try #require(try press("Tab", until: { $0.contains("secure text field") }))
        #expect(pin.hasPrefix("PIN"), "\(pin)")
        for digit in ["4", "7", "2", "1"] {
            try tmux.send(digit)
            #expect(listener.hear(seconds: 3) { $0 == "dot" } != nil, "a PIN digit is echoed as dot")
        }
        _ = try #require(try press("Tab", until: { $0.contains("not checked, toggle") }))
        try tmux.send("Space")
        #expect(listener.hear { $0 == "checked" } != nil, "the check box says its new state")
        // Inside the form's own group the arrows move (Tab goes on to the menu).
        let submit = try #require(try press("Down", until: { $0.hasPrefix("Check in, button") }))
        #expect(submit.contains("4 of 4"), "\(submit)")
        let dialog = try #require(try press("Enter", until: { $0.contains("dialog") }, times: 1))
        #expect(dialog.hasPrefix("Check in as Ada Lund?, dialog, Confirm, button"), "\(dialog)")
        let confirmed = listener.heard
        try tmux.send("Enter")
        let done = listener.hear { $0.hasPrefix("Checked in") }
        #expect(done == "Checked in: Ada Lund. Please take a seat; we will call you.")
        // Then the home screen's first tile, and nothing else: one announcement, one focus move.
        #expect(listener.hear { $0.hasPrefix("Home, Check in, button") } != nil)
        #expect(listener.utterances.count - confirmed == 2, "\(listener.utterances.dropFirst(confirmed))")

        let spoken = listener.utterances
        for secret in ["4721", "4", "7", "2", "1", "four", "seven"] {
            #expect(!spoken.contains(secret), "the PIN was spoken: \(spoken)")
        }
        // Nor inside a longer utterance, in any spacing ("4 7 2 1", "4, 7, 2, 1").
        for utterance in spoken {
            let digits = utterance.filter(\.isNumber)
            #expect(!digits.contains("4721"), "the PIN was spoken: \(utterance)")
        }
        try tmux.send("C-c")
        try tmux.waitFor("EXITED 0")
    }

    /// The kiosk example in an 80x24 tmux pane, speaking to speech-dispatcher at `socket`, its standard
    /// error into `errors`, shown.
    func startSpeakingKiosk(_ tmux: TmuxSession, socket: String, errors: String) throws {
        let kiosk =
            "env SPEECHD_ADDRESS=unix_socket:\(socket) RESPONDERCHAIN_INSPECT=0 "
            + KeytraceBinary.product("kiosk-example")
        try tmux.start(
            columns: 80, rows: 24, binary: kiosk, arguments: "--terminal --layout us --speak 2> \(errors)")
        try tmux.waitFor("focus tile-checkin")
    }

    @Test("a daemon that answers once, then sends garbage: the kiosk says so once over seconds of keys")
    func garbageDaemonSaidOnce() throws {
        let daemon = try GarbageSSIPDaemon()
        defer { daemon.stop() }
        let runtime = try AttachEndToEndTests.RuntimeDirectory()
        defer { runtime.remove() }
        let errors = runtime.path + "/kiosk.err"
        let tmux = TmuxSession()
        defer { tmux.stop() }
        try startSpeakingKiosk(tmux, socket: daemon.path, errors: errors)
        // Four seconds of keys, each one spoken (and so each a reason to connect again).
        for index in 0..<40 {
            try tmux.send(index % 2 == 0 ? "Right" : "Left")
            usleep(100_000)
        }
        try tmux.send("C-c")
        try tmux.waitFor("EXITED 0")
        let text = try String(contentsOfFile: errors, encoding: .utf8)
        let reports = text.split(separator: "\n").filter { $0.contains("speech-dispatcher") }
        #expect(daemon.connections.withLock { $0 } >= 3, "the kiosk connected again and again")
        #expect(reports.count == 1, "\(reports.count) reports:\n\(text)")
        #expect(
            reports.allSatisfy { $0.components(separatedBy: "the app goes on").count == 2 },
            "the suffix is said once:\n\(text)")
    }

    @Test("no daemon at all: the kiosk says so once, with 'the app goes on silently' once")
    func noDaemonSaidOnce() throws {
        let runtime = try AttachEndToEndTests.RuntimeDirectory()
        defer { runtime.remove() }
        let errors = runtime.path + "/kiosk.err"
        let tmux = TmuxSession()
        defer { tmux.stop() }
        try startSpeakingKiosk(tmux, socket: runtime.path + "/no-daemon.sock", errors: errors)
        try tmux.send("Right")
        try tmux.send("C-c")
        try tmux.waitFor("EXITED 0")
        let text = try String(contentsOfFile: errors, encoding: .utf8)
        let reports = text.split(separator: "\n").filter { $0.contains("speech-dispatcher is not running") }
        #expect(reports.count == 1, "\(text)")
        #expect(
            reports.first?.hasSuffix("start it, or install speech-dispatcher; the app goes on silently") == true,
            "\(text)")
    }
}

/// A speech daemon that answers the first command of each connection (the client's name) and then
/// sends garbage: it listens on a Unix socket, served from a thread of its own.
final class GarbageSSIPDaemon: Sendable {
    let path = "/tmp/garbage-ssip-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    /// How many connections were accepted.
    let connections = Mutex(0)
    private let listener: Int32
    private let done = Mutex(false)

    init() throws {
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(listener, 8) == 0, "the fake daemon listens at \(path)")
        Thread { [self] in serve() }.start()
    }

    func stop() {
        done.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }

    private func serve() {
        while !done.withLock({ $0 }) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            connections.withLock { $0 += 1 }
            // The first line is answered as the daemon does, the second with garbage.
            for reply in ["208 OK CLIENT NAME SET\r\n", "garbage\r\n"] where readLine(connection) {
                _ = Array(reply.utf8).withUnsafeBytes {
                    send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            }
            // Until the client closes (it does on the garbage), at most 2 s.
            var byte: UInt8 = 0
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            while poll(&descriptor, 1, 2000) > 0, read(connection, &byte, 1) == 1 {}
            close(connection)
        }
    }

    /// Reads one line (up to its newline); whether one came within 2 s.
    private func readLine(_ connection: Int32) -> Bool {
        var byte: UInt8 = 0
        var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 2000) > 0, read(connection, &byte, 1) == 1 {
            if byte == 10 { return true }
        }
        return false
    }
}
