import DispatchTrace
import Inspection
import KeytraceKit
import ResponderChain
import Testing

/// `--speak` in keytrace's process where no speech-dispatcher listens: one line says so, and the
/// trace is the one it would have been. (A real daemon hears keytrace in EndToEndTests'
/// KeytraceSpeakTests.)
@MainActor @Suite struct KeytraceSpeechTests {
    static let app = "kiosk-example"
    static let missing = "/tmp/keytrace-no-speechd.sock"

    static func speaking(_ options: KeytraceOptions, address: String = "unix_socket:\(missing)") -> KeytraceOptions {
        var options = options
        options.speak = true
        options.speechEnvironment = ["SPEECHD_ADDRESS": address]
        return options
    }

    @Test("--attach --plain --speak without a daemon: the app's utterances explained, one line naming the address")
    func attachWithoutDaemon() throws {
        let directory = try RuntimeDirectory()
        let said = TraceEvent(
            t: 0.2, .announce(text: .value("buyMilk, button, 2 of 10"), kind: "focus", priority: "text"))
        let secret = TraceEvent(t: 0.3, .announce(text: .redacted, kind: "typing", priority: "text"))
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: 4002,
            script: [
                .message(Script.session(app: Self.app)), .message(try Script.snapshot(app: Self.app)),
                .message(Script.focus(from: "search", to: "buyMilk", t: 0.2)), .message(.trace(said)),
                .message(.trace(secret)),
            ])
        defer { server.stop() }
        var options = KeytraceOptions()
        options.attach = true
        options.format = .plain
        let run = try KeytraceRun(Self.speaking(options), in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains(said.plainLine) && lines.contains(secret.plainLine), "\(run.stdout)")
        #expect(lines.last == "kiosk-example (pid 4002) exited")
        let problems = run.stderr.split(separator: "\n")
        #expect(problems.count == 1, "once, however many utterances: \(run.stderr)")
        #expect(
            run.stderr
                == "keytrace: --speak: speech-dispatcher is not running at \(Self.missing) (SPEECHD_ADDRESS): start it, "
                + "or install speech-dispatcher; keytrace goes on showing the trace without speech\n")
    }

    @Test("--keys --speak without a daemon: the trace is the silent one with the utterances in it; one line")
    func keysWithoutDaemon() throws {
        let directory = try RuntimeDirectory()
        var options = KeytraceOptions()
        options.keys = "tab tab"
        options.format = .plain
        options.keymap.layout = "us"
        let silent = try KeytraceRun(options, in: directory)
        let run = try KeytraceRun(Self.speaking(options), in: directory)
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.filter { !$0.contains("  announce  ") } == silent.stdout.split(separator: "\n"))
        #expect(lines.filter { $0.contains("said to the listener (focus move, priority text)") }.count == 3)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(Self.missing), "\(run.stderr)")
    }

    @Test("--speak with a malformed SPEECHD_ADDRESS: one line naming it and the fix; the trace goes on")
    func malformedAddress() throws {
        let directory = try RuntimeDirectory()
        var options = KeytraceOptions()
        options.keys = "tab"
        options.format = .json
        options.keymap.layout = "us"
        let run = try KeytraceRun(Self.speaking(options, address: "carrier_pigeon:coop"), in: directory)
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("keytrace: --speak: SPEECHD_ADDRESS=\"carrier_pigeon:coop\""), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("keytrace goes on showing the trace without speech\n"))
        #expect(
            run.stdout.contains(
                #""event":"announce","kind":"focus","priority":"text","text":"buyMilk, button, 2 of 10""#))
    }
}
