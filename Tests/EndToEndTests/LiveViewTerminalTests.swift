import Foundation
import TestSupport
import Testing

/// keytrace's live view in a real terminal: tmux runs it, sends keys, and captures the pane.
struct TmuxSession {
    let socket = "keytrace-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let name = "kt"
    let stateFile = "/tmp/keytrace-tmux-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try run(["tmux", "-L", socket] + arguments)
    }

    /// Runs a command and returns what it wrote (``spawnProcess(_:environment:output:errorsToOutput:)``,
    /// then `waitpid`).
    func run(_ arguments: [String]) throws -> String {
        let outputPath = stateFile + ".out"
        defer { unlink(outputPath) }
        let pid = try spawnProcess(arguments, environment: nil, output: outputPath, errorsToOutput: false)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// Starts keytrace in a fresh terminal; the shell records the terminal settings before and after.
    func start(
        columns: Int = 120, rows: Int = 40, binary: String = KeytraceBinary.path, arguments: String = ""
    ) throws {
        // A state directory of the test's own: an app's saved settings (the kiosk's speech) from
        // another run do not reach it.
        let command =
            "stty -g > \(stateFile).before; XDG_STATE_HOME=\(stateFile).state \(binary) \(arguments); status=$?; "
            + "stty -g > \(stateFile).after; echo EXITED $status; sleep 60"
        try tmux(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", command])
    }

    func capture() throws -> String { try tmux(["capture-pane", "-p", "-t", name]) }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// Waits until the pane shows `text`; returns the pane.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var pane = ""
        while Date() < deadline {
            pane = try capture()
            if pane.contains(text) { return pane }
            usleep(50_000)
        }
        // Also on standard error: the console reporter leaves an issue's text out.
        FileHandle.standardError.write(Data("the pane never showed \"\(text)\":\n\(pane)\n".utf8))
        Issue.record("the pane never showed \"\(text)\":\n\(pane)")
        return pane
    }

    func settingsRestored() throws -> Bool {
        let before = try String(contentsOfFile: stateFile + ".before", encoding: .utf8)
        let after = try String(contentsOfFile: stateFile + ".after", encoding: .utf8)
        return before == after
    }

    /// The process id of the pane shell's child called `process` (keytrace, or another binary).
    func childPID(process: String = "keytrace") throws -> Int32? {
        let shell = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(try run(["pgrep", "-P", shell, process]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func stop() {
        _ = try? tmux(["kill-server"])
        unlink(stateFile + ".before")
        unlink(stateFile + ".after")
    }
}

@MainActor @Suite(.serialized) struct LiveViewTerminalTests {
    @Test("the live view: Tab and arrows move the highlighted focus, the status line follows, the trace explains")
    func focusMoves() throws {
        let tmux = TmuxSession()
        defer { tmux.stop() }
        try tmux.start()
        var pane = try tmux.waitFor("focus search │ first responder search")
        #expect(pane.contains("╞*search"), "the focused item has a double box and the first-responder mark")
        #expect(pane.contains("Reminders (keytrace demo)"))
        try tmux.send("Tab")
        pane = try tmux.waitFor("focus buyMilk │ first responder window │ group reminders (automatic)")
        #expect(pane.contains("╞buyMilk"))
        #expect(pane.contains("4 systemBehavior: took (focus: Tab moves focus from search to buyMilk)"))
        try tmux.send("Down")
        pane = try tmux.waitFor("focus callMom")
        #expect(pane.contains("╞callMom"))
        #expect(pane.contains("search -> buyMilk") || pane.contains("buyMilk -> callMom (arrow)"))
        try tmux.send("C-c")
        try tmux.waitFor("EXITED 0")
    }

    @Test("F2 numbers the tab loop, F3 names each item's group; both toggle off again")
    func overlays() throws {
        let tmux = TmuxSession()
        defer { tmux.stop() }
        try tmux.start()
        try tmux.waitFor("F2 tab loop F3 groups")
        try tmux.send("F2")
        var pane = try tmux.waitFor("F2 tab loop (on)")
        for number in 1...5 { #expect(pane.contains(" \(number) "), "tab stop \(number) is numbered") }
        try tmux.send("F3")
        pane = try tmux.waitFor("F3 groups (on)")
        #expect(pane.contains("lists (automatic)"))
        try tmux.send("F2")
        try tmux.send("F3")
        pane = try tmux.waitFor("F2 tab loop F3 groups Ctrl-C quit")
        #expect(!pane.contains("(on)"))
        try tmux.send("C-c")
        try tmux.waitFor("EXITED 0")
    }

    @Test("the frame follows a resize")
    func resize() throws {
        let tmux = TmuxSession()
        defer { tmux.stop() }
        try tmux.start(columns: 120, rows: 40)
        var pane = try tmux.waitFor("focus search")
        #expect(pane.split(separator: "\n").first?.count == 120)
        try tmux.tmux(["resize-window", "-t", tmux.name, "-x", "70", "-y", "24"])
        let deadline = Date().addingTimeInterval(10)
        repeat {
            usleep(100_000)
            pane = try tmux.capture()
        } while pane.split(separator: "\n").first?.count != 70 && Date() < deadline
        #expect(pane.split(separator: "\n").first?.count == 70, "\(pane)")
        #expect(pane.split(separator: "\n").first?.hasSuffix("┐") == true)
        try tmux.send("C-c")
        try tmux.waitFor("EXITED 0")
    }

    @Test("the terminal is restored after Ctrl-C, after SIGTERM, and after a crash signal")
    func restored() throws {
        for (how, exit) in [("ctrl-c", "EXITED 0"), ("term", "EXITED 0"), ("segv", "EXITED 139")] {
            let tmux = TmuxSession()
            defer { tmux.stop() }
            try tmux.start()
            try tmux.waitFor("focus search")
            switch how {
            case "ctrl-c": try tmux.send("C-c")
            default:
                let pid = try #require(try tmux.childPID())
                kill(pid, how == "term" ? SIGTERM : SIGSEGV)
            }
            let pane = try tmux.waitFor(exit)
            // The shell's own report of the crash may come first ("Segmentation fault").
            #expect(
                !pane.contains("Reminders (keytrace demo)") && !pane.contains("╔"),
                "\(how): back on the main screen, the alternate screen is gone:\n\(pane)")
            #expect(try tmux.settingsRestored(), "\(how): the terminal settings are as before")
        }
    }
}
