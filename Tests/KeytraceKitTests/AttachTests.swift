import DispatchTrace
import Foundation
import Inspection
import KeytraceKit
import ResponderChain
import Testing

/// `keytrace --attach` and `--list-apps` against scripted servers on real Unix sockets in a
/// runtime directory of the test's own.
@MainActor @Suite struct AttachTests {
    static let app = "kiosk-example"
    static let pid: Int32 = 4001

    /// What the app says after its hello: the session, its tree, a stage decision, a focus move,
    /// a drop and a fresh tree.
    static func watchScript() throws -> [InspectionMessage] {
        [
            Script.session(app: app), try Script.snapshot(app: app), Script.stage(t: 0.2),
            Script.focus(from: "search", to: "buyMilk", t: 0.2),
            .dropped(InspectionMessage.Drop(t: 0.3, count: 3, total: 5)),
            try Script.snapshot(app: app, focused: "callMom", t: 0.31),
        ]
    }

    func options(_ format: KeytraceOptions.Format = .json, target: String? = nil) -> KeytraceOptions {
        var options = KeytraceOptions()
        options.attach = true
        options.attachTarget = target
        options.format = format
        return options
    }

    @Test("--json passes every line through as the app sent it, in order; the exit goes to standard error")
    func jsonPassthrough() throws {
        let directory = try RuntimeDirectory()
        let script = try Self.watchScript()
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid, script: script.map { .message($0) })
        defer { server.stop() }
        let run = try KeytraceRun(options(.json), in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let expected = ([InspectionMessage.hello(server.hello)] + script).map(\.json)
        #expect(run.stdout.split(separator: "\n").map(String.init) == expected)
        #expect(run.stderr == "kiosk-example (pid 4001) exited\n")
        #expect(
            server.requests.withLock { $0 } == [
                String(decoding: InspectionRequest.watch.line.dropLast(), as: UTF8.self)
            ])
    }

    @Test("--plain: the hello, the session, one line per snapshot, trace events as --plain writes them, drops")
    func plainRendering() throws {
        let directory = try RuntimeDirectory()
        let script = try Self.watchScript()
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid, script: script.map { .message($0) })
        defer { server.stop() }
        let run = try KeytraceRun(options(.plain), in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let focus = TraceEvent(t: 0.2, .focus(from: "search", to: "buyMilk", cause: .tab, fromGroup: nil, toGroup: nil))
        #expect(
            lines == [
                "attached to kiosk-example (pid 4001): input terminal, layout us (environment)",
                TraceEvent(t: 0, .session(input: "terminal", scene: Self.app, layout: "us (environment)", note: nil))
                    .plainLine,
                "    0.010000  snapshot       14 items, focus search, first responder search, group search (automatic), "
                    + "modal none",
                focus.plainLine,
                "    0.300000  dropped        3 events (5 in all) — keytrace read too slowly; a fresh snapshot follows",
                "    0.310000  snapshot       14 items, focus callMom, first responder window, group reminders (automatic), "
                    + "modal none",
                "kiosk-example (pid 4001) exited",
            ], "without --explain, no stage line:\n\(run.stdout)")
        #expect(run.stderr.isEmpty)
    }

    @Test("--plain --explain shows the stage decisions too")
    func plainExplain() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid, script: try Self.watchScript().map { .message($0) })
        defer { server.stop() }
        var options = options(.plain)
        options.explain = true
        let run = try KeytraceRun(options, in: directory)
        #expect(run.status == 0)
        #expect(run.stdout.contains(Script.stage(t: 0.2).plainLine), "\(run.stdout)")
    }

    @Test("an app that exits: keytrace says so and exits 0")
    func appExits() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid,
            script: [.message(Script.session(app: Self.app)), .pause(0.2)])
        defer { server.stop() }
        let run = try KeytraceRun(options(.plain), in: directory)
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("kiosk-example (pid 4001) exited\n"), "\(run.stdout)")
    }

    @Test("refused: exit status 2 with the app's reason")
    func refused() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid,
            script: [.message(.refused(t: 0, reason: "too many watchers (4 of 4)"))], greets: false)
        defer { server.stop() }
        for format in [KeytraceOptions.Format.plain, .json] {
            let run = try KeytraceRun(options(format), in: directory)
            #expect(run.status == 2)
            #expect(run.stderr.contains("kiosk-example (pid 4001) refused keytrace: too many watchers (4 of 4)"))
            #expect(!run.stderr.contains("exited") && !run.stdout.contains("exited"))
        }
    }

    @Test("a closed connection with nothing sent (another user's app): exit status 2 and the fix")
    func closedWithoutHello() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid, script: [], greets: false)
        defer { server.stop() }
        let run = try KeytraceRun(options(.json), in: directory)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("closed the connection without a word"), "\(run.stderr)")
        #expect(!run.stderr.contains("hello"), "nothing the app would have said is named")
        #expect(run.stderr.contains("as the app's user, or as root"))
    }

    @Test(
        "a malformed line: exit status 2 naming the line, in every output",
        arguments: [KeytraceOptions.Format.json, .plain])
    func malformedLine(format: KeytraceOptions.Format) throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid,
            script: [.message(Script.session(app: Self.app)), .bytes(Array("{\"t\":1,\"event\":\"snapshot\"}\n".utf8))])
        defer { server.stop() }
        let run = try KeytraceRun(options(format), in: directory)
        #expect(run.status == 2)
        #expect(
            run.stderr.contains("line 3 from kiosk-example (pid 4001) is not an inspection line"), "\(run.stderr)")
        #expect(run.stderr.contains("{\"t\":1,\"event\":\"snapshot\"}"), "the line is quoted")
        if format == .json {
            #expect(run.stdout.split(separator: "\n").count == 2, "the lines before it went through")
        }
    }

    @Test("a line longer than the protocol's limit: exit status 2 as soon as it is longer")
    func overLongLine() throws {
        let directory = try RuntimeDirectory()
        let endless = [UInt8](repeating: UInt8(ascii: "a"), count: InspectionProtocol.maximumLineLength + 10)
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid, script: [.bytes(Array("{\"t\":".utf8) + endless)])
        defer { server.stop() }
        let run = try KeytraceRun(options(.json), in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("line 2 from kiosk-example (pid 4001) is longer than"), "\(run.stderr)")
    }

    @Test("--list-apps escapes what an app says of itself: a name with a newline cannot forge a row")
    func listAppsEscapes() throws {
        let directory = try RuntimeDirectory()
        let forger = try ScriptedInspectionServer(
            in: directory, name: "kiosk\n9999  0     bank-terminal  keyboards  0 of 8", pid: 4005, script: [])
        defer { forger.stop() }
        var options = KeytraceOptions()
        options.listApps = true
        let run = try KeytraceRun(options, in: directory)
        let rows = run.stdout.split(separator: "\n")
        #expect(rows.count == 2, "one header and one app:\n\(run.stdout)")
        #expect(rows.last?.hasPrefix("4005") == true && rows.last?.contains("kiosk\\n9999") == true, "\(run.stdout)")
    }

    @Test("--list-apps lists every app that answers, and skips a socket left by a process that ended")
    func listApps() throws {
        let directory = try RuntimeDirectory()
        var options = KeytraceOptions()
        options.listApps = true
        var run = try KeytraceRun(options, in: directory)
        #expect(run.status == 0)
        #expect(run.stdout == "no running apps in \(directory.sockets)\n")

        let kiosk = try ScriptedInspectionServer(in: directory, name: Self.app, pid: Self.pid, script: [])
        defer { kiosk.stop() }
        let lobby = try ScriptedInspectionServer(in: directory, name: "lobby", pid: 4002, script: [])
        defer { lobby.stop() }
        directory.leaveStaleSocket(name: "gone", pid: 4003)
        run = try KeytraceRun(options, in: directory)
        #expect(run.status == 0)
        let user = String(getuid())
        let pad = String(repeating: " ", count: max(4, user.count) - user.count + 2)
        let header = "USER" + String(repeating: " ", count: max(4, user.count) - 4 + 2)
        #expect(
            run.stdout.split(separator: "\n") == [
                "PID   \(header)NAME           INPUT     WATCHERS",
                "4001  \(user)\(pad)kiosk-example  terminal  0 of 4",
                "4002  \(user)\(pad)lobby          terminal  0 of 4",
            ], "\(run.stdout)")
        let hello = String(decoding: InspectionRequest.hello.line.dropLast(), as: UTF8.self)
        #expect(kiosk.requests.withLock { $0 } == [hello])
    }

    @Test(
        "a target by pid, by exact name, by unique prefix; several or none: exit status 2 with the list or the fix",
        arguments: [
            ("4002", "kiosk-lobby"), ("kiosk", "kiosk"), ("kiosk-l", "kiosk-lobby"), ("4001", "kiosk"),
            ("kiosk-", nil), (nil, nil), ("cashier", nil), ("4999", nil),
        ] as [(String?, String?)])
    func target(_ target: String?, attaches expected: String?) throws {
        let directory = try RuntimeDirectory()
        let servers = try [("kiosk", Int32(4001)), ("kiosk-lobby", 4002), ("kiosk-hall", 4003)].map { name, pid in
            try ScriptedInspectionServer(in: directory, name: name, pid: pid, script: [])
        }
        defer { for server in servers { server.stop() } }
        directory.leaveStaleSocket(name: "kiosk-lobby", pid: 4004)
        let run = try KeytraceRun(options(.plain, target: target), in: directory)
        if let expected {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("attached to \(expected) (pid"), "\(run.stdout)")
        } else if target == nil || target == "kiosk-" {
            #expect(run.status == 2)
            #expect(run.stderr.contains("several apps are running"), "\(run.stderr)")
            #expect(run.stderr.contains("keytrace --attach PID"))
            let listed = target == nil ? ["4001", "4002", "4003"] : ["4002", "4003"]
            for pid in listed { #expect(run.stderr.contains("\n\(pid) "), "\(pid) is listed:\n\(run.stderr)") }
            #expect(!run.stderr.contains("4004"), "the stale socket is not listed")
        } else {
            #expect(run.status == 2)
            #expect(run.stderr.contains("no running app"), "\(run.stderr)")
            #expect(run.stderr.contains(directory.sockets), "the folder is named")
            #expect(run.stderr.contains("kiosk-lobby (pid 4002)"), "the apps running are named")
        }
    }

    @Test("no app at all: exit status 2 naming the folder searched and the fixes")
    func noApp() throws {
        let directory = try RuntimeDirectory()
        directory.leaveStaleSocket(name: Self.app, pid: Self.pid)
        let run = try KeytraceRun(options(.plain), in: directory)
        #expect(run.status == 2)
        for part in [directory.sockets, "XDG_RUNTIME_DIR", "RESPONDERCHAIN_INSPECT=0", "as root"] {
            #expect(run.stderr.contains(part), "\(part):\n\(run.stderr)")
        }
    }

    @Test(
        "--conflicts and --focus-debug on an attached app print what they print for the same scene loaded locally",
        arguments: [(true, false, false), (true, true, false), (false, false, true)])
    func reportsMatchLocalScene(conflicts: Bool, allFocus: Bool, focusDebug: Bool) throws {
        let directory = try RuntimeDirectory()
        let snapshot = try Script.snapshot(app: Self.app)
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid,
            script: [.message(Script.session(app: Self.app)), .message(snapshot), .pause(0.5)])
        defer { server.stop() }
        var attached = KeytraceOptions()
        attached.attach = true
        attached.conflicts = conflicts
        attached.allFocus = allFocus
        attached.focusDebug = focusDebug
        let remote = try KeytraceRun(attached, in: directory)

        guard case .snapshot(let tree) = snapshot else { return }
        let file = directory.path + "/snapshot.json"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(tree.sceneJSON)))
        var local = attached
        local.attach = false
        local.scenePath = file
        let expected = try KeytraceRun(local, in: directory)
        #expect(remote.status == expected.status, "\(remote.stderr)")
        #expect(!remote.stdout.isEmpty)
        #expect(remote.stdout == expected.stdout)
        if conflicts {
            #expect(
                remote.status == (allFocus ? 1 : 0),
                "the reminders' Tab commands collide with the focus keys; nothing collides at the search field")
        }
    }

    /// A message's JSON line with raw bytes where `C1` (U+009B, an 8-bit CSI) and `DEL` stand, and
    /// a raw carriage return before `"event"`: JSON allows them all, a terminal acts on them.
    static func rawLine(_ message: InspectionMessage) -> [UInt8] {
        var bytes = Array(message.json.replacingOccurrences(of: ",\"event\"", with: ",\r\"event\"").utf8)
        for (mark, raw) in [("C1", [0xC2, 0x9B] as [UInt8]), ("DEL", [0x7F])] {
            let pattern = Array("<\(mark)>".utf8)
            while let start = bytes.indices.first(where: { bytes[$0...].starts(with: pattern) }) {
                bytes.replaceSubrange(start..<start + pattern.count, with: raw)
            }
        }
        return bytes + [10]
    }

    /// The bytes a terminal would act on: C0 controls but the newline, DEL, and C1 controls in UTF-8.
    static func controlBytes(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        var found: [String] = []
        for (index, byte) in bytes.enumerated() {
            if (byte < 0x20 && byte != 10) || byte == 0x7F { found.append("byte \(byte) at \(index)") }
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                found.append("C1 \(bytes[index + 1]) at \(index)")
            }
        }
        return found
    }

    @Test("--json writes the app's lines again with keytrace's writer: its raw C1, DEL and CR come out escaped")
    func jsonEscapesRawControls() throws {
        let directory = try RuntimeDirectory()
        let hello = InspectionMessage.hello(
            InspectionMessage.Hello(
                t: 0, app: "kiosk<C1>2J<DEL>", pid: Self.pid, input: "terminal", note: nil, layout: "us", watchers: 1,
                maximumWatchers: 4, bufferSize: 1 << 18))
        let session = Script.session(app: "scene<C1>]0;pwned<DEL>")
        let dropped = InspectionMessage.dropped(InspectionMessage.Drop(t: 0.3, count: 1, total: 1))
        let lines = [hello, session, dropped].map(Self.rawLine)
        #expect(lines.allSatisfy { $0.contains(0x0D) } && lines[0].contains(0x7F), "the script sends raw controls")
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid, script: lines.map { .bytes($0) }, greets: false)
        defer { server.stop() }
        let run = try KeytraceRun(options(.json), in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.controlBytes(run.stdout).isEmpty, "raw controls reached the terminal:\n\(run.stdout)")
        #expect(Self.controlBytes(run.stderr).isEmpty, "\(run.stderr)")
        // Each line reads back as what the app sent.
        let written = run.stdout.split(separator: "\n").map { Array($0.utf8) }
        let read = try written.map { try InspectionMessage(jsonLine: $0) }
        let sent = try lines.map { try InspectionMessage(jsonLine: $0) }
        #expect(read == sent)
        #expect(run.stdout.contains("kiosk\\u009b2J\\u007f"), "\(run.stdout)")
    }

    @Test(
        "an app's name with a newline cannot forge a line of keytrace's: NAME (pid N) exited stays one line",
        arguments: [KeytraceOptions.Format.json, .plain])
    func exitedCannotBeForged(format: KeytraceOptions.Format) throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(
            in: directory, name: "kiosk\nFORGED LINE (pid 1) exited\r\u{9B}", pid: Self.pid,
            script: [.message(Script.session(app: Self.app)), .pause(0.2)])
        defer { server.stop() }
        let run = try KeytraceRun(options(format), in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let all = run.stdout + run.stderr
        #expect(!all.split(separator: "\n").contains { $0.hasPrefix("FORGED") }, "a forged line:\n\(all)")
        #expect(Self.controlBytes(all).isEmpty, "\(all)")
        let exited = format == .json ? run.stderr : run.stdout
        #expect(exited.hasSuffix("kiosk\\nFORGED LINE (pid 1) exited\\r\\u{9B} (pid 4001) exited\n"), "\(exited)")
    }

    @Test("an app's refusal with a newline cannot forge a line: its reason is escaped")
    func refusalCannotBeForged() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid,
            script: [.message(.refused(t: 0, reason: "too many watchers\nFORGED LINE (pid 1) exited"))],
            greets: false)
        defer { server.stop() }
        let run = try KeytraceRun(options(.plain), in: directory)
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "keytrace: kiosk-example (pid 4001) refused keytrace: too many watchers\\nFORGED LINE (pid 1) exited\n",
            "\(run.stderr)")
    }

    @Test("a socket file whose name holds a newline cannot forge a line of the apps running")
    func socketNameCannotBeForged() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(
            in: directory, name: "evil", pid: 4009, script: [], fileName: "evil\nFORGED LINE.4009.sock")
        defer { server.stop() }
        let run = try KeytraceRun(options(.plain, target: "cashier"), in: directory)
        #expect(run.status == 2)
        #expect(!run.stderr.split(separator: "\n").contains { $0.hasPrefix("FORGED") }, "\(run.stderr)")
        #expect(run.stderr.contains("running: evil\\nFORGED LINE (pid 4009)"), "\(run.stderr)")
    }

    @Test("another user's app (root attaching to the kiosk user's) is named with its user")
    func anotherUsersApp() {
        let own = AppSocket(name: "kiosk", pid: 4001, path: "/run/user/0/responderchain/kiosk.4001.sock")
        #expect(own.description == "kiosk (pid 4001)")
        let other = AppSocket(
            name: "kiosk", pid: 4001, path: "/tmp/responderchain-4242/kiosk.4001.sock", owner: getuid() &+ 4242)
        #expect(other.description == "kiosk (pid 4001, user \(getuid() &+ 4242))")
    }

    @Test("an app that sends nothing (stopped, hung): after 3 s keytrace says so, with its process's state")
    func silentApp() throws {
        let directory = try RuntimeDirectory()
        // The app takes the request and says nothing for 4 s, then closes.
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid, script: [.pause(4)], greets: false)
        defer { server.stop() }
        let run = try KeytraceRun(options(.plain), in: directory)
        #expect(run.status == 2)
        #expect(
            run.stderr.hasPrefix(
                "keytrace: kiosk-example (pid 4001) does not answer: nothing came in 3 s since keytrace asked to "
                    + "watch it; its process \(getpid()) "), "\(run.stderr)")
        #expect(run.stderr.contains("keytrace waits on (Ctrl-C gives up)"), "\(run.stderr)")
        #expect(run.stderr.contains("closed the connection without a word"), "\(run.stderr)")
    }

    @Test("--conflicts starts at the app's focused item, not the scene's initial focus")
    func reportAtAppFocus() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: Self.pid,
            script: [.message(try Script.snapshot(app: Self.app, focused: "today")), .pause(0.5)])
        defer { server.stop() }
        var options = KeytraceOptions()
        options.attach = true
        options.conflicts = true
        let run = try KeytraceRun(options, in: directory)
        #expect(run.stdout.hasPrefix("At the initial focus (today):"), "\(run.stdout)")
    }
}

/// The command line's rules for `--attach` and `--list-apps`.
@Suite struct AttachUsageTests {
    static func options(_ change: (inout KeytraceOptions) -> Void) -> KeytraceOptions {
        var options = KeytraceOptions()
        change(&options)
        return options
    }

    @Test(
        "input, scene and layout flags, a target without --attach, and --list-apps with anything: usage errors",
        arguments: [
            (options { $0.attachTarget = "kiosk" }, "goes with --attach: keytrace --attach kiosk"),
            (
                options {
                    $0.attach = true; $0.keys = "tab"
                }, "so --keys would be ignored"
            ),
            (
                options {
                    $0.attach = true; $0.scenePath = "s.json"; $0.keymap.layout = "de"; $0.rightToLeft = true
                },
                "so --scene, --layout and --rtl would be ignored"
            ),
            (
                options {
                    $0.attach = true; $0.devices = ["kbd"]; $0.grab = true
                }, "--device and --grab"
            ),
            (
                options {
                    $0.attach = true; $0.terminal = true
                }, "--terminal"
            ),
            (
                options {
                    $0.attach = true; $0.replayPath = "r.evemu"
                }, "--replay"
            ),
            (
                options {
                    $0.attach = true; $0.seatName = "seat0"
                }, "--seat"
            ),
            (
                options {
                    $0.attach = true; $0.recordPath = "r.evemu"
                }, "--record"
            ),
            (
                options {
                    $0.attach = true; $0.listDevices = true
                }, "--list-devices"
            ),
            (
                options {
                    $0.attach = true; $0.printDemoScene = true
                }, "--print-demo-scene"
            ),
            (
                options {
                    $0.attach = true; $0.keymap.variant = "dvorak"
                }, "--variant"
            ),
            (
                options {
                    $0.attach = true; $0.attachTarget = ""
                }, "an empty name"
            ),
            (
                options {
                    $0.listApps = true; $0.attach = true
                }, "--list-apps lists the running apps and exits"
            ),
            (
                options {
                    $0.listApps = true; $0.format = .json
                }, "so --json would be ignored"
            ),
            (
                options {
                    $0.attach = true; $0.conflicts = true; $0.format = .json
                }, "--conflicts prints a report"
            ),
        ])
    func refused(options: KeytraceOptions, message: String) {
        #expect(throws: KeytraceUsageError.self) { try options.validate() }
        do { try options.validate() } catch { #expect(error.description.contains(message), "\(error)") }
    }

    @Test(
        "--attach with a target, an output format, --explain or a report; --list-apps alone: accepted",
        arguments: [
            options { $0.attach = true },
            options {
                $0.attach = true; $0.attachTarget = "4242"; $0.format = .plain; $0.explain = true
            },
            options {
                $0.attach = true; $0.format = .json; $0.explain = false
            },
            options {
                $0.attach = true; $0.conflicts = true; $0.allFocus = true
            },
            options {
                $0.attach = true; $0.attachTarget = "kiosk"; $0.focusDebug = true
            },
            options { $0.listApps = true },
        ])
    func accepted(options: KeytraceOptions) {
        #expect(throws: Never.self) { try options.validate() }
    }
}
