import Foundation
import Testing

/// The kiosk example (Sources/kiosk-example) in a real terminal: tmux runs it, sends keys and
/// captures the pane; `--trace` shows what the dispatcher and the focus system decided.
@Suite(.serialized) struct KioskExampleEndToEndTests {
    /// A kiosk in an 80x24 tmux pane, reading the terminal, tracing to a file.
    struct Kiosk {
        let tmux = TmuxSession()
        let tracePath = "/tmp/kiosk-trace-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"

        init(columns: Int = 80, rows: Int = 24) throws {
            try tmux.start(
                columns: columns, rows: rows, binary: KeytraceBinary.product("kiosk-example"),
                arguments: "--terminal --layout us --trace \(tracePath)")
            try tmux.waitFor("focus tile-checkin")
        }

        /// Sends keys one at a time, waiting for each to be drawn before the next (tmux reads
        /// the keys of one send-keys call as one paste-like burst).
        func press(_ keys: String..., until text: String? = nil) throws {
            for key in keys { try tmux.send(key) }
            if let text { try tmux.waitFor(text) }
        }

        var trace: [[String: Any]] {
            let text = (try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        var traceText: String { (try? String(contentsOfFile: tracePath, encoding: .utf8)) ?? "" }

        func quit() throws {
            try tmux.send("C-c")
            try tmux.waitFor("EXITED 0")
            #expect(try tmux.settingsRestored(), "the terminal's settings are given back")
        }

        func stop() {
            tmux.stop()
            unlink(tracePath)
        }
    }

    @Test("home: the tiles' grid moves with the arrows; Tab goes to the menu and back, each area remembering its item")
    func home() throws {
        let kiosk = try Kiosk()
        defer { kiosk.stop() }
        try KeytraceBinary.expectGolden(try kiosk.tmux.capture(), "kiosk-home.txt")
        try kiosk.press("Right", until: "focus tile-find")
        try kiosk.press("Down", until: "focus tile-parking")
        try kiosk.press("Tab", until: "focus nav-home │ first responder nav-home │ group sidebar")
        try kiosk.press("Down", until: "focus nav-directory")
        try kiosk.press("Tab", until: "focus tile-parking │ first responder tile-parking │ group content")
        try kiosk.press("Tab", until: "focus nav-directory │")
        try kiosk.quit()
        let focus = kiosk.trace.filter { $0["event"] as? String == "focus" }
        #expect(focus.contains { $0["to"] as? String == "tile-parking" && $0["cause"] as? String == "arrow" })
        #expect(focus.contains { $0["to"] as? String == "nav-home" && $0["toGroup"] as? String == "sidebar" })
        #expect(kiosk.trace.first?["event"] as? String == "session")
        #expect(kiosk.trace.first?["scene"] as? String == "kiosk")
    }

    @Test("directory: 240 rows scroll to the focused one; Ctrl-F searches and Down goes to the results first")
    func directory() throws {
        let kiosk = try Kiosk()
        defer { kiosk.stop() }
        try kiosk.press("Right", "Enter", until: "focus row1 ")
        try kiosk.press("End", until: "focus row240 ")
        let bottom = try kiosk.tmux.waitFor("rows 224–240 of 240")
        #expect(bottom.contains("Tove Lund"), "the last row is drawn")
        // A taller terminal fills with the rows above; back at 24 rows the focused row still shows.
        try kiosk.tmux.tmux(["resize-window", "-t", kiosk.tmux.name, "-x", "80", "-y", "40"])
        try kiosk.tmux.waitFor("rows 208–240 of 240")
        try kiosk.tmux.tmux(["resize-window", "-t", kiosk.tmux.name, "-x", "80", "-y", "24"])
        try kiosk.tmux.waitFor("rows 224–240 of 240")
        try kiosk.press("Home", until: "rows 1–17 of 240")
        for _ in 0..<20 { try kiosk.tmux.send("Down") }
        try kiosk.tmux.waitFor("focus row21 ")
        #expect(try kiosk.tmux.capture().contains("rows 5–21 of 240"), "the list scrolled to reveal row 21")
        try kiosk.press("C-f", until: "focus search")
        for key in ["l", "u", "n", "d"] { try kiosk.tmux.send(key) }
        try kiosk.tmux.waitFor("20 of 240 match \"lund\"")
        try KeytraceBinary.expectGolden(try kiosk.tmux.capture(), "kiosk-search.txt")
        try kiosk.press("Down", until: "focus row")
        let pane = try kiosk.tmux.capture()
        #expect(pane.contains("group content"), "Down left the field for the results")
        try kiosk.press("Escape", until: "Ctrl-F searches")
        try kiosk.quit()
        let commands = kiosk.trace.filter { $0["event"] as? String == "keyCommand" }
        #expect(commands.contains { $0["action"] as? String == "openSearch" && $0["shortcut"] as? String == "ctrl+f" })
        #expect(commands.contains { $0["action"] as? String == "focusResults" && $0["priority"] as? Bool == true })
        let stages = kiosk.trace.filter { $0["event"] as? String == "stage" }
        #expect(
            stages.contains {
                $0["stage"] as? String == "priorityKeyCommands" && $0["decision"] as? String == "took"
                    && ($0["reason"] as? String ?? "").contains("Go to the results")
            }, "Down in the field: the priority key command took it before the focus system")
    }

    @Test("check in: Return in the PIN submits and the form validates; the dialog traps Tab, Escape returns focus")
    func checkIn() throws {
        let kiosk = try Kiosk()
        defer { kiosk.stop() }
        try kiosk.press("Enter", until: "focus name ")
        for key in ["A", "d", "a", "Space", "L", "u", "n", "d"] { try kiosk.tmux.send(key) }
        try kiosk.tmux.waitFor("Name: Ada Lund")
        try kiosk.press("Enter", until: "focus pin ")
        for key in ["KP4", "KP7", "KP2", "KP1"] { try kiosk.tmux.send(key) }
        try kiosk.tmux.waitFor("PIN: ••••")
        try kiosk.press("Enter", until: "Tick the box")
        try kiosk.press("Space", until: "[x] I agree")
        try kiosk.press("Down", until: "focus submit ")
        try kiosk.press("Enter", until: "Check in as Ada Lund?")
        try KeytraceBinary.expectGolden(try kiosk.tmux.capture(), "kiosk-dialog.txt")
        // One focus group: Tab stays inside the dialog; the arrows move between its buttons.
        try kiosk.press("Tab", until: "focus confirm ")
        try kiosk.press("Right", until: "focus cancel ")
        try kiosk.press("Tab", until: "focus cancel │ first responder cancel │ group dialog")
        try kiosk.press("Escape", until: "focus submit ")
        #expect(!(try kiosk.tmux.capture()).contains("Please confirm"), "Escape closed the dialog")
        try kiosk.press("Enter", until: "Check in as Ada Lund?")
        try kiosk.press("Enter", until: "Checked in: Ada Lund.")
        #expect(try kiosk.tmux.capture().contains("focus tile-checkin"))
        try kiosk.quit()
        let presses = kiosk.trace.filter { $0["event"] as? String == "press" }
        #expect(presses.contains { $0["phase"] as? String == "began" && $0["responder"] as? String == "name" })
    }

    @Test("a PIN typed on the keypad shows nowhere: not on the screen, not in the trace")
    func pinStaysSecret() throws {
        let kiosk = try Kiosk()
        defer { kiosk.stop() }
        try kiosk.press("Enter", until: "focus name ")
        try kiosk.press("Tab", until: "focus pin ")
        var screens: [String] = []
        for key in ["KP8", "KP3", "KP6", "KP9"] {
            try kiosk.tmux.send(key)
            screens.append(try kiosk.tmux.capture())
        }
        screens.append(try kiosk.tmux.waitFor("PIN: ••••"))
        try kiosk.quit()
        for screen in screens {
            #expect(!screen.contains("8369") && !screen.contains("Numpad") && !screen.contains("Digit"))
        }
        let text = kiosk.traceText
        #expect(!text.isEmpty)
        for digit in ["8", "3", "6", "9"] {
            #expect(
                !text.contains("Digit\(digit)") && !text.contains("Numpad\(digit)") && !text.contains("KP_\(digit)"))
            #expect(!text.contains("\"characters\":\"\(digit)\""))
        }
        let keys = kiosk.trace.filter { $0["event"] as? String == "key" && $0["key"] as? String == "•" }
        #expect(keys.count >= 4, "the PIN's keys are traced, masked")
    }

    @Test("F1 shows the help overlay from the discoverability API; Escape closes it; a resize redraws")
    func helpAndResize() throws {
        let kiosk = try Kiosk()
        defer { kiosk.stop() }
        try kiosk.press("F1", until: "Keys you can use here")
        let help = try kiosk.tmux.capture()
        #expect(help.contains("Search the directory") && help.contains("Ctrl+F"))
        #expect(help.contains("Show or hide this help") && help.contains("F1"))
        try KeytraceBinary.expectGolden(help, "kiosk-help.txt")
        // Modal: the arrows and Tab stay on its Close button; nothing moves behind it.
        try kiosk.press("Right", "Down", "Tab", "Left")
        for _ in 0..<100 where !kiosk.traceText.contains(#""phase":"up","key":"ArrowLeft""#) { usleep(50_000) }
        #expect(try kiosk.tmux.capture().contains("focus help-close │ first responder help-close │ group help"))
        try kiosk.press("Escape", until: "focus tile-checkin │")
        #expect(!(try kiosk.tmux.capture()).contains("Keys you can use here"))
        let moves = kiosk.trace.filter { $0["event"] as? String == "focus" }.compactMap { $0["to"] as? String }
        #expect(moves == ["tile-checkin", "help-close", "tile-checkin"], "no key moved focus behind the overlay")
        // From the directory's list it lists the list's own commands; Return on Close closes it
        // and focus goes back to the row.
        try kiosk.press("Right", "Enter", until: "focus row1 ")
        try kiosk.press("F1", until: "focus help-close")
        let listHelp = try kiosk.tmux.capture()
        #expect(listHelp.contains("Last row") && listHelp.contains("End"), "\(listHelp)")
        #expect(listHelp.contains("In the directory") && !listHelp.contains("║ list "), "headed by titles: \(listHelp)")
        try kiosk.press("Enter", until: "focus row1 ")
        // A command the help lists closes it and does what it says, from where focus was.
        try kiosk.press("F1", until: "focus help-close")
        try kiosk.press("End", until: "focus row240 ")
        #expect(!(try kiosk.tmux.capture()).contains("Keys you can use here"))
        try kiosk.press("F1", until: "focus help-close")
        try kiosk.press("M-Home", until: "focus tile-checkin")
        #expect(!(try kiosk.tmux.capture()).contains("Keys you can use here"))
        // Over the dialog, the app's shortcuts are off: Ctrl-F leaves the help and the dialog.
        try kiosk.press("Right", "Right", "Enter", until: "Open 7:30")
        try kiosk.press("F1", until: "focus help-close")
        try kiosk.press("C-f")
        try kiosk.press("F1", until: "focus confirm ")
        #expect(try kiosk.tmux.capture().contains("Open 7:30"), "the dialog is still open")
        try kiosk.press("Escape", until: "focus tile-hours ")
        try kiosk.tmux.tmux(["resize-window", "-t", kiosk.tmux.name, "-x", "100", "-y", "30"])
        try kiosk.tmux.waitFor("Riverside Clinic · self-service kiosk                                        F1 help")
        // The whole 30-row frame, status lines at the bottom included (not only its first rows).
        var wide: [Substring] = []
        for _ in 0..<100 {
            wide = try kiosk.tmux.capture().split(separator: "\n", omittingEmptySubsequences: false)
            if wide.count >= 29, wide[27].hasPrefix("focus tile-hours") { break }
            usleep(50_000)
        }
        #expect(wide.count >= 29 && wide[27].hasPrefix("focus tile-hours"), "\(wide.joined(separator: "\n"))")
        try kiosk.tmux.tmux(["resize-window", "-t", kiosk.tmux.name, "-x", "60", "-y", "20"])
        try kiosk.tmux.waitFor("The kiosk needs a terminal of at least 80x24")
        try kiosk.quit()
    }

    @Test("the terminal is restored after SIGTERM, SIGHUP and crash signals, the trace written so far kept")
    func restoredOnSignals() throws {
        for (signal, exit) in [
            (SIGTERM, "EXITED 0"), (SIGHUP, "EXITED 0"), (SIGSEGV, "EXITED 139"), (SIGABRT, "EXITED 134"),
        ] {
            let kiosk = try Kiosk()
            defer { kiosk.stop() }
            try kiosk.press("Right", until: "focus tile-find")
            let pid = try #require(try kiosk.tmux.childPID(process: "kiosk-example"))
            kill(pid, signal)
            let pane = try kiosk.tmux.waitFor(exit)
            #expect(
                !pane.contains("Riverside Clinic") && !pane.contains("╔"),
                "signal \(signal): back on the main screen, the kiosk's frame is gone:\n\(pane)")
            #expect(try kiosk.tmux.settingsRestored(), "signal \(signal): the terminal settings are as before")
            #expect(
                kiosk.trace.contains { $0["event"] as? String == "focus" && $0["to"] as? String == "tile-find" },
                "signal \(signal): the trace has what happened before it")
        }
    }

    @Test("--trace on a full disk: the kiosk says so on standard error and goes on, then ends with status 74")
    func traceOnFullDisk() throws {
        let tmux = TmuxSession()
        let errors = "/tmp/kiosk-errors-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer {
            tmux.stop()
            unlink(errors)
        }
        try tmux.start(
            columns: 80, rows: 24, binary: KeytraceBinary.product("kiosk-example"),
            arguments: "--terminal --layout us --trace /dev/full 2>\(errors)")
        try tmux.waitFor("focus tile-checkin")
        try tmux.send("Right")
        try tmux.waitFor("focus tile-find")
        try tmux.send("Down")
        try tmux.waitFor("focus tile-parking")
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(
            said.contains("kiosk-example: --trace: cannot write to \"/dev/full\": No space left on device")
                && said.contains("the kiosk goes on"), "\(said)")
        let pane = try tmux.waitFor("The trace could not be written; the kiosk goes on.")
        #expect(!pane.contains("/dev/full"), "the screen shows no path: \(pane)")
        try tmux.send("C-c")
        try tmux.waitFor("EXITED 74")
        let atEnd = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(atEnd.contains("the trace is incomplete"), "\(atEnd)")
    }

    @Test("speech settings that are a link to another file (/etc/shadow): refused, and nothing of it is shown")
    func speechSettingsThroughLink() throws {
        let tmux = TmuxSession()
        let errors = "/tmp/kiosk-errors-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let secret = "/tmp/kiosk-secret-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let state = tmux.stateFile + ".state"
        defer {
            tmux.stop()
            unlink(errors)
            unlink(secret)
            try? FileManager.default.removeItem(atPath: state)
        }
        try "root:$y$j9T$secretHash:19000:0:99999:7:::\n".write(toFile: secret, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: state + "/kiosk-example", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: state + "/kiosk-example/speech.conf", withDestinationPath: secret)
        try tmux.start(
            columns: 160, rows: 30, binary: KeytraceBinary.product("kiosk-example"),
            arguments: "--terminal --layout us 2>\(errors)")
        let pane = try tmux.waitFor("focus tile-checkin")
        #expect(pane.contains("speech.conf: a symbolic link"), "the message line says why: \(pane)")
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(said.contains("speech.conf: a symbolic link, and the app does not read"), "\(said)")
        for shown in [pane, said] {
            #expect(!shown.contains("secret") && !shown.contains("root:") && !shown.contains("$y$"), "\(shown)")
        }
        try tmux.send("C-c")
        try tmux.waitFor("EXITED 0")
    }

    @Test("with standard error on its own terminal, a late message goes to the message line, not over the frame")
    func messagesKeepTheFrame() throws {
        // A daemon that answers once and then sends garbage: speech's problem comes while the frame
        // is on the terminal, which is also standard error (as Tools/kiosk runs it).
        let daemon = try GarbageSSIPDaemon()
        defer { daemon.stop() }
        let tmux = TmuxSession()
        defer { tmux.stop() }
        try tmux.start(
            columns: 80, rows: 24,
            binary: "SPEECHD_ADDRESS=unix_socket:\(daemon.path) " + KeytraceBinary.product("kiosk-example"),
            arguments: "--terminal --layout us --speak")
        try tmux.waitFor("focus tile-checkin")
        try tmux.send("Right")
        try tmux.waitFor("focus tile-find")
        try tmux.waitFor("speech-dispatcher")
        try tmux.send("Down")
        let pane = try tmux.waitFor("focus tile-parking")
        let rows = pane.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows.first?.contains("Riverside Clinic") == true, "the title row is there: \(pane)")
        #expect(rows.contains { $0.hasPrefix("┌─ Menu") }, "the menu's border is there: \(pane)")
        #expect(rows.contains { $0.contains("Tab menu/content") }, "the key-help row is there: \(pane)")
        #expect(!pane.contains("kiosk-example:"), "nothing was written over the frame: \(pane)")
        try tmux.send("C-c")
        // Given back, the terminal gets what was kept for standard error.
        let after = try tmux.waitFor("EXITED 0")
        let kept = after.split(separator: "\n").filter { $0.hasPrefix("kiosk-example: ") }
        #expect(kept.count == 1 && after.contains("from speech-dispatcher"), "said once, after: \(after)")
    }

    @Test("--trace to a FIFO nobody reads fails at once with the fix, before drawing, instead of blocking")
    func traceToFIFOWithoutReader() throws {
        let tmux = TmuxSession()
        let fifo = "/tmp/kiosk-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer {
            tmux.stop()
            unlink(fifo)
        }
        try tmux.start(
            columns: 80, rows: 24, binary: KeytraceBinary.product("kiosk-example"),
            arguments: "--terminal --layout us --trace \(fifo)")
        let pane = try tmux.waitFor("EXITED 2", seconds: 5)
        // The message wraps at 80 columns: compare without the white space.
        let words = pane.filter { !$0.isWhitespace }
        #expect(words.contains("noprocessreadstheFIFO") && words.contains("startitsreaderfirst"), "\(pane)")
    }
}
