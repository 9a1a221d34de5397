import DispatchTrace
import Inspection
import KeytraceKit
import ResponderChain
import Testing

/// `--speak` on the command line (what it goes with), and how keytrace shows what was said.
@MainActor @Suite struct SpeakOptionsTests {
    nonisolated static func options(_ change: (inout KeytraceOptions) -> Void) -> KeytraceOptions {
        var options = KeytraceOptions()
        options.speak = true
        change(&options)
        return options
    }

    @Test(
        "--speak with a report or a mode that lists or prints and exits is a usage error naming both flags",
        arguments: [
            (options { $0.conflicts = true }, "--conflicts"),
            (options { $0.focusDebug = true }, "--focus-debug"),
            (
                options {
                    $0.conflicts = true; $0.attach = true
                }, "--conflicts"
            ),
            (
                options {
                    $0.focusDebug = true; $0.attach = true
                }, "--focus-debug"
            ),
            (options { $0.printDemoScene = true }, "--print-demo-scene"),
            (options { $0.listDevices = true }, "--list-devices"),
            (options { $0.listApps = true }, "--list-apps"),
        ])
    func refused(options: KeytraceOptions, mode: String) {
        #expect(throws: KeytraceUsageError.self) { try options.validate() }
        do { try options.validate() } catch {
            #expect(error.description.contains(mode) && error.description.contains("--speak"), "\(error)")
        }
    }

    @Test(
        "--speak goes with every input, a scene, --attach and each output",
        arguments: [
            options { _ in },
            options { $0.keys = "tab" },
            options {
                $0.replayPath = "keys.evemu"; $0.realTime = true
            },
            options {
                $0.terminal = true; $0.format = .plain
            },
            options { $0.wayland = true },
            options {
                $0.devices = ["kbd"]; $0.recordPath = "out.evemu"
            },
            options {
                $0.scenePath = "scene.json"; $0.keys = "tab"; $0.format = .json
            },
            options { $0.attach = true },
            options {
                $0.attach = true; $0.attachTarget = "kiosk"; $0.format = .plain
            },
        ])
    func accepted(options: KeytraceOptions) {
        #expect(throws: Never.self) { try options.validate() }
    }

    @Test(
        "an announce event says it was said to the listener, why, its priority, then the words",
        arguments: [
            ("focus", "text", "focus move"), ("modal", "message", "dialog presented"),
            ("announcement", "message", "the app's announcement"), ("typing", "text", "typing echo"),
            ("keyCommands", "text", "the key commands read aloud"),
            ("control", "important", "the listener's speech setting"), ("someday", "notification", "someday"),
        ])
    func announceLine(kind: String, priority: String, reason: String) {
        let event = TraceEvent(t: 1.5, .announce(text: .value("Name, text field"), kind: kind, priority: priority))
        #expect(
            event.plainLine
                == "    1.500000  announce       said to the listener (\(reason), priority \(priority)): \"Name, text field\""
        )
    }

    @Test("a secure field's typing is • and spoken \"dot\"; control characters in the words are escaped")
    func announceRedactedAndEscaped() {
        let secret = TraceEvent(t: 2, .announce(text: .redacted, kind: "typing", priority: "text"))
        #expect(
            secret.plainLine.hasSuffix(#"(typing echo, priority text): • (typing in a secure field, spoken "dot")"#))
        let hostile = TraceEvent(
            t: 2, .announce(text: .value("a\u{1B}[2Jb"), kind: "announcement", priority: "message"))
        #expect(!hostile.plainLine.contains("\u{1B}"), "\(hostile.plainLine)")
        #expect(
            InspectionMessage.trace(secret).plainLine == secret.plainLine, "--attach --plain prints the same line")
    }

    @Test("the live view's status line says when keytrace cannot speak")
    func liveViewSpeechNote() throws {
        let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        let session = TraceSession(scene: scene, layout: USKeyboardLayout(), onEvent: { _ in })
        session.keepsHistory = true
        session.start(input: "keys", layout: "us")
        let view = LiveView(session: session, scene: scene, input: "keys", layout: "us")
        view.speechNote = "no speech (why: on exit)"
        session.emit(TraceEvent(t: 0.2, .announce(text: .value("buyMilk, button"), kind: "focus", priority: "text")))
        let screen = view.render(columns: 160, rows: 40, escapes: false).joined(separator: "\n")
        #expect(screen.contains("│ no speech (why: on exit) │ F2 tab loop"), "\(screen)")
        #expect(screen.contains(#"said to the listener (focus move, priority text): "buyMilk, button""#), "\(screen)")
    }
}
