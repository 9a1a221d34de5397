import Foundation
import Testing

/// `keytrace --attach` on real processes: the kiosk example in one tmux pane, keytrace in another,
/// each run as a user runs them, finding each other through the inspection socket in a runtime
/// directory of the test's own.
@Suite(.serialized) struct AttachEndToEndTests {
    /// A private runtime directory (mode 0700), as `$XDG_RUNTIME_DIR` is.
    struct RuntimeDirectory {
        let path: String

        init() throws {
            var template = Array("/tmp/rc-attach-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            try #require(made != nil)
            path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// The environment assignment that goes before a command in the pane's shell.
        var assignment: String { "XDG_RUNTIME_DIR=\(path)" }
        var sockets: String { path + "/responderchain" }

        func remove() {
            _ = try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The kiosk in an 80x24 pane reading the terminal; its standard error goes to `kiosk.err` in
    /// the runtime directory.
    static func startKiosk(_ runtime: RuntimeDirectory, extra: String = "") throws -> TmuxSession {
        let tmux = TmuxSession()
        try tmux.start(
            columns: 80, rows: 24,
            binary: "\(runtime.assignment) \(extra) \(KeytraceBinary.product("kiosk-example"))",
            arguments: "--terminal --layout us 2>\(runtime.path)/kiosk.err")
        try tmux.waitFor("focus tile-checkin")
        return tmux
    }

    /// keytrace attached to the kiosk, in a pane of its own.
    static func startKeytrace(_ runtime: RuntimeDirectory, arguments: String) throws -> TmuxSession {
        let tmux = TmuxSession()
        try tmux.start(
            columns: 120, rows: 45, binary: "\(runtime.assignment) \(KeytraceBinary.path)", arguments: arguments)
        return tmux
    }

    /// Waits until a file holds `text`; returns what it holds.
    @discardableResult
    static func waitFor(_ text: String, in path: String, seconds: Double = 10) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var contents = ""
        while Date() < deadline {
            contents = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if contents.contains(text) { return contents }
            usleep(50_000)
        }
        Issue.record("\(path) never held \"\(text)\":\n\(contents.suffix(2000))")
        return contents
    }

    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("the live view shows the kiosk's own screen, follows its screens, explains its keys; the PIN only masked")
    func liveView() throws {
        let runtime = try RuntimeDirectory()
        defer { runtime.remove() }
        let kiosk = try Self.startKiosk(runtime)
        defer { kiosk.stop() }
        let keytrace = try Self.startKeytrace(runtime, arguments: "--attach kiosk-example")
        defer { keytrace.stop() }
        var pane = try keytrace.waitFor("focus tile-checkin")
        #expect(pane.contains("tile-parking"), "the kiosk's tiles are drawn:\n\(pane)")
        #expect(pane.contains("kiosk-example"))

        try kiosk.send("Right")
        pane = try keytrace.waitFor("focus tile-find")
        #expect(pane.contains("systemBehavior"), "the key is explained stage by stage:\n\(pane)")
        try keytrace.send("F2")
        pane = try keytrace.waitFor("F2 tab loop (on)")
        #expect(pane.contains(" 1 "), "the kiosk's tab loop is numbered:\n\(pane)")

        // The check-in form: a new screen, so a new tree.
        try kiosk.send("Left")
        try kiosk.waitFor("focus tile-checkin")
        try kiosk.send("Enter")
        try kiosk.waitFor("focus name")
        pane = try keytrace.waitFor("focus name")
        #expect(pane.contains("pin (secure)"), "the form's fields are drawn:\n\(pane)")
        for key in ["A", "n", "n", "Tab"] { try kiosk.send(key) }
        try kiosk.waitFor("focus pin")
        for key in ["4", "2", "7", "1"] { try kiosk.send(key) }
        try kiosk.waitFor("••••")
        pane = try keytrace.waitFor("•")
        for secret in ["Digit4", "Digit7", "4271", "\"4\"", "\"7\""] {
            #expect(!pane.contains(secret), "\(secret) shows in keytrace:\n\(pane)")
        }

        let pid = try #require(try kiosk.childPID(process: "kiosk-example"))
        kill(pid, SIGKILL)
        pane = try keytrace.waitFor("EXITED 0")
        #expect(pane.contains("exited"), "keytrace says the app is gone:\n\(pane)")
    }

    @Test("--json streams hello, session, snapshot and trace events; keytrace killed, the kiosk goes on")
    func jsonAndKilledWatcher() throws {
        let runtime = try RuntimeDirectory()
        defer { runtime.remove() }
        let kiosk = try Self.startKiosk(runtime)
        defer { kiosk.stop() }
        let output = runtime.path + "/attach.jsonl"
        let keytrace = try Self.startKeytrace(runtime, arguments: "--attach --json > \(output)")
        defer { keytrace.stop() }
        Self.waitFor("\"event\":\"snapshot\"", in: output)
        try kiosk.send("Right")
        try kiosk.waitFor("focus tile-find")
        var text = Self.waitFor("\"to\":\"tile-find\"", in: output)
        let events = Self.lines(text).compactMap { $0["event"] as? String }
        #expect(Array(events.prefix(3)) == ["hello", "session", "snapshot"])
        #expect(events.contains("key") && events.contains("stage") && events.contains("focus"))
        let hello = try #require(Self.lines(text).first)
        let kioskPID = try #require(try kiosk.childPID(process: "kiosk-example"))
        #expect(hello["app"] as? String == "kiosk-example")
        #expect(hello["input"] as? String == "terminal")

        // keytrace killed: the kiosk notices nothing, and the next watcher gets everything.
        let watcher = try #require(try keytrace.childPID(process: "keytrace"))
        kill(watcher, SIGKILL)
        try keytrace.waitFor("EXITED 137")
        try kiosk.send("Right")
        try kiosk.waitFor("focus tile-hours")
        let second = runtime.path + "/again.jsonl"
        let again = try Self.startKeytrace(runtime, arguments: "--attach --json > \(second)")
        defer { again.stop() }
        text = Self.waitFor("\"event\":\"snapshot\"", in: second)
        #expect(text.contains("\"focused\":\"tile-hours\""), "the snapshot has the focus the kiosk has now")
        try kiosk.send("C-c")
        try kiosk.waitFor("EXITED 0")
        try again.waitFor("EXITED 0")
        #expect(!FileManager.default.fileExists(atPath: runtime.sockets + "/kiosk-example.\(kioskPID).sock"))
        let left = (try? FileManager.default.contentsOfDirectory(atPath: runtime.sockets)) ?? []
        #expect(left.isEmpty, "the kiosk removed its socket on exit: \(left)")
    }

    @Test("a stopped kiosk: keytrace --attach says it does not answer and why; Ctrl-C then exits 2, not 0")
    func stoppedApp() throws {
        let runtime = try RuntimeDirectory()
        defer { runtime.remove() }
        let kiosk = try Self.startKiosk(runtime)
        defer { kiosk.stop() }
        let kioskPID = try #require(try kiosk.childPID(process: "kiosk-example"))
        kill(kioskPID, SIGSTOP)
        defer { kill(kioskPID, SIGCONT) }
        // The kernel still takes the connection and the request: only the answer never comes.
        let errors = runtime.path + "/keytrace.err"
        let keytrace = try Self.startKeytrace(runtime, arguments: "--attach \(kioskPID) --plain 2> \(errors)")
        defer { keytrace.stop() }
        let said = Self.waitFor("does not answer", in: errors, seconds: 10)
        #expect(said.contains("kiosk-example (pid \(kioskPID)) does not answer: nothing came in 3 s"), "\(said)")
        #expect(
            said.contains("its process \(kioskPID) is stopped (state T: SIGSTOP or Ctrl-Z): continue it (kill -CONT "),
            "\(said)")
        try keytrace.send("C-c")
        try keytrace.waitFor("EXITED 2")
        let final = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(final.contains("kiosk-example (pid \(kioskPID)) never answered"), "\(final)")
    }

    @Test("--list-apps lists two running apps; --attach without a name asks which")
    func listApps() throws {
        let runtime = try RuntimeDirectory()
        defer { runtime.remove() }
        let kiosk = try Self.startKiosk(runtime)
        defer { kiosk.stop() }
        let other = TmuxSession()
        defer { other.stop() }
        try other.start(
            columns: 80, rows: 24,
            binary: "\(runtime.assignment) \(KeytraceBinary.product("terminal-example"))")
        let kioskPID = try #require(try kiosk.childPID(process: "kiosk-example"))
        var otherPID: Int32?
        for _ in 0..<100 where otherPID == nil {
            otherPID = try other.childPID(process: "terminal-exampl")
            usleep(50_000)
        }
        let terminalPID = try #require(otherPID)
        var listed = try KeytraceBinary.run(["--list-apps"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        for _ in 0..<50 where !listed.stdout.contains("\(terminalPID)") {
            usleep(100_000)
            listed = try KeytraceBinary.run(["--list-apps"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        }
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("\(kioskPID)") && listed.stdout.contains("kiosk-example"), "\(listed.stdout)")
        #expect(
            listed.stdout.contains("\(terminalPID)") && listed.stdout.contains("terminal-exampl"), "\(listed.stdout)")
        let ambiguous = try KeytraceBinary.run(["--attach"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderr.contains("\(kioskPID)") && ambiguous.stderr.contains("\(terminalPID)"))
    }

    @Test(
        "another user is refused by the socket's peer check and learns nothing",
        .enabled(if: getuid() == 0, "making a second user and switching to it needs root"))
    func otherUserRefused() throws {
        let user = "responderchain-peer"
        let tmux = TmuxSession()
        let existed = !(try tmux.run(["id", "-u", user]).isEmpty)
        if !existed {
            _ = try tmux.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user])
        }
        // The user is the test's own: it goes when the test does.
        defer { if !existed { _ = try? tmux.run(["userdel", user]) } }
        let uid = try #require(Int32(try tmux.run(["id", "-u", user]).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(uid != 0)
        let runtime = try RuntimeDirectory()
        defer { runtime.remove() }
        let kiosk = try Self.startKiosk(runtime)
        defer { kiosk.stop() }
        // Open the way through the file system on purpose: the peer check must hold on its own.
        chmod(runtime.path, 0o755)
        chmod(runtime.sockets, 0o755)
        for name in (try FileManager.default.contentsOfDirectory(atPath: runtime.sockets)) {
            chmod(runtime.sockets + "/" + name, 0o777)
        }
        // A copy of keytrace the other user may run.
        let binary = runtime.path + "/keytrace"
        try FileManager.default.copyItem(atPath: KeytraceBinary.path, toPath: binary)
        chmod(binary, 0o755)
        let output = runtime.path + "/peer.out"
        _ = try tmux.run([
            "sh", "-c",
            "XDG_RUNTIME_DIR=\(runtime.path) setpriv --reuid=\(uid) --regid=\(uid) --clear-groups "
                + "\(binary) --attach kiosk-example --json > \(output) 2>&1; echo \"status $?\" >> \(output)",
        ])
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!text.contains("status 0"), "\(text)")
        for secret in ["hello", "tile-", "snapshot", "kiosk\""] {
            #expect(!text.contains(secret), "the other user learnt \(secret):\n\(text)")
        }
        // The kiosk noticed nothing.
        try kiosk.send("Right")
        try kiosk.waitFor("focus tile-find")
    }

    @Test(
        "a symbolic link or a foreign-owned directory at the socket's place is refused with a clear message",
        arguments: getuid() == 0 ? ["symlink", "foreign", "open"] : ["symlink", "open"])
    func unsafeDirectory(kind: String) throws {
        let runtime = try RuntimeDirectory()
        defer { runtime.remove() }
        let elsewhere = runtime.path + "/elsewhere"
        mkdir(elsewhere, 0o700)
        switch kind {
        case "symlink": symlink(elsewhere, runtime.sockets)
        case "foreign":
            mkdir(runtime.sockets, 0o700)
            chown(runtime.sockets, 65534, 65534)
        default:
            mkdir(runtime.sockets, 0o700)
            chmod(runtime.sockets, 0o777)
        }
        let kiosk = try Self.startKiosk(runtime)
        defer { kiosk.stop() }
        let expected = [
            "symlink":
                "is a symbolic link, and the socket is never made through one: remove it (rm \(runtime.sockets))",
            "foreign": "belongs to user 65534, not to this app's user 0",
            "open": "is open to other users (mode 777): make it private (chmod 700 \(runtime.sockets))",
        ][kind]!
        try kiosk.waitFor("keytrace --attach cannot watch this app")
        let message = Self.waitFor(expected, in: runtime.path + "/kiosk.err")
        #expect(message.contains(runtime.sockets), "the message names the directory:\n\(message)")
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: elsewhere)) == [], "nothing went through the link")
        try kiosk.send("Right")
        try kiosk.waitFor("focus tile-find")
    }

    /// A connection to the kiosk's socket from the test itself.
    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        struct ConnectFailed: Error { let errno: Int32 }
        guard result == 0 else {
            close(fd)
            throw ConnectFailed(errno: errno)
        }
        return fd
    }

    /// Whether the kiosk closed a connection: a read that finds the end (or a reset), within `seconds`.
    static func closedByPeer(_ fd: Int32, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return true }
        }
        return false
    }

    static func residentKilobytes(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    @Test("bad peers close only their own connection; a watcher that stops reading loses lines, is told how many")
    func malformedPeers() throws {
        let runtime = try RuntimeDirectory()
        defer { runtime.remove() }
        let kiosk = try Self.startKiosk(runtime)
        defer { kiosk.stop() }
        let kioskPID = try #require(try kiosk.childPID(process: "kiosk-example"))
        let socketPath = runtime.sockets + "/kiosk-example.\(kioskPID).sock"
        #expect(FileManager.default.fileExists(atPath: socketPath))
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        var original = limit
        limit.rlim_cur = min(limit.rlim_max, 4096)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        defer { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &original) }

        // keytrace attached, then stopped: it reads nothing while the keys go in.
        let output = runtime.path + "/stopped.txt"
        let keytrace = try Self.startKeytrace(runtime, arguments: "--attach \(kioskPID) --plain > \(output)")
        defer { keytrace.stop() }
        Self.waitFor("snapshot", in: output)
        let watcher = try #require(try keytrace.childPID(process: "keytrace"))
        kill(watcher, SIGSTOP)
        let before = Self.residentKilobytes(kioskPID)

        // A watcher of our own that never reads, random bytes, a half line, and a thousand connections.
        let silent = try Self.connect(socketPath)
        defer { close(silent) }
        _ = Array("{\"request\":\"watch\",\"protocol\":1}\n".utf8).withUnsafeBytes {
            write(silent, $0.baseAddress, $0.count)
        }
        let noise = try Self.connect(socketPath)
        defer { close(noise) }
        let random = (0..<65536).map { _ in UInt8.random(in: 0...255) }
        _ = random.withUnsafeBytes { send(noise, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let half = try Self.connect(socketPath)
        defer { close(half) }
        _ = Array("{\"request\":\"wat".utf8).withUnsafeBytes { write(half, $0.baseAddress, $0.count) }
        var crowd: [Int32] = []
        defer { for fd in crowd { close(fd) } }
        for _ in 0..<1000 {
            guard let fd = try? Self.connect(socketPath) else { continue }
            crowd.append(fd)
        }
        #expect(crowd.count > 0)

        // Ten thousand keys, Right and Left in turn: focus ends where it began.
        for _ in 0..<40 {
            try kiosk.tmux(
                ["send-keys", "-t", kiosk.name] + Array(repeating: ["Right", "Left"], count: 125).flatMap { $0 })
        }
        try kiosk.send("Right")
        try kiosk.waitFor("focus tile-find", seconds: 60)
        #expect(Self.closedByPeer(noise, seconds: 5), "random bytes close their connection")
        #expect(Self.closedByPeer(half, seconds: 10), "a half line is closed after the request timeout")
        let after = Self.residentKilobytes(kioskPID)
        // Two watchers' buffers (256 KiB each) and the waiting peers' requests at most; the rest
        // is the allocator's noise (Tools/attach-perf gates the same flood at 2 MB).
        #expect(after - before < 4 * 1024, "memory stays bounded: \(before) kB before, \(after) kB after")

        kill(watcher, SIGCONT)
        let text = Self.waitFor("dropped", in: output, seconds: 20)
        #expect(text.contains("dropped"), "keytrace says how many lines it missed")
        try kiosk.send("Right")
        try kiosk.waitFor("focus tile-hours")
        Self.waitFor("tile-hours", in: output, seconds: 20)
    }

    @Test("RESPONDERCHAIN_INSPECT=0 turns an app's socket off; =1 turns it on where the configuration had it off")
    func environmentVariable() throws {
        let runtime = try RuntimeDirectory()
        defer { runtime.remove() }
        let kiosk = try Self.startKiosk(runtime, extra: "RESPONDERCHAIN_INSPECT=0")
        defer { kiosk.stop() }
        let kioskPID = try #require(try kiosk.childPID(process: "kiosk-example"))
        // keytrace's own live demo has the socket off in its configuration; the variable wins.
        let demo = TmuxSession()
        defer { demo.stop() }
        try demo.start(
            columns: 120, rows: 40,
            binary: "\(runtime.assignment) RESPONDERCHAIN_INSPECT=1 \(KeytraceBinary.path)", arguments: "--terminal")
        try demo.waitFor("focus")
        let demoPID = try #require(try demo.childPID(process: "keytrace"))
        var listed = try KeytraceBinary.run(["--list-apps"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        for _ in 0..<50 where !listed.stdout.contains("\(demoPID)") {
            usleep(100_000)
            listed = try KeytraceBinary.run(["--list-apps"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        }
        #expect(listed.stdout.contains("\(demoPID)") && listed.stdout.contains("keytrace"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("\(kioskPID)"), "the kiosk listens on no socket:\n\(listed.stdout)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: runtime.sockets)) ?? []
        #expect(files == ["keytrace.\(demoPID).sock"], "\(files)")
    }
}
