import Foundation
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
}
