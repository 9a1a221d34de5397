import DispatchTrace
import Foundation
import Inspection
import KeytraceKit
import ResponderChain
import Testing

/// The live view of an attached app: a mirror of its tree, fed from a real socket.
@MainActor @Suite struct AttachMirrorTests {
    static let app = "kiosk-example"

    /// Reads the next message from the connection into the mirror.
    @discardableResult
    func step(_ connection: InspectionConnection, _ mirror: AttachMirror) throws -> InspectionMessage {
        let (_, message) = try #require(try connection.nextMessage(timeout: 2))
        try mirror.apply(message)
        return message
    }

    func frame(_ mirror: AttachMirror) -> String {
        mirror.render(columns: 110, rows: 40, escapes: false).joined(separator: "\n")
    }

    @Test("the mirror shows the snapshot's focused item, follows a focus event and a second snapshot, keeps history")
    func followsTheApp() throws {
        let directory = try RuntimeDirectory()
        let focus = Script.focus(from: "buyMilk", to: "fileTaxes", t: 0.5)
        let server = try ScriptedInspectionServer(
            in: directory, name: Self.app, pid: 4001,
            script: [
                .message(Script.session(app: Self.app)),
                .message(try Script.snapshot(app: Self.app, focused: "buyMilk")),
                .message(Script.stage(t: 0.5)), .message(focus),
                .message(.dropped(InspectionMessage.Drop(t: 0.6, count: 2, total: 7))),
                .message(try Script.snapshot(app: Self.app, scene: Script.checkIn, focused: "pin", t: 0.7)),
            ])
        defer { server.stop() }
        let socket = try #require(AppDirectories(paths: [directory.sockets]).sockets().first)
        #expect(socket == AppSocket(name: Self.app, pid: 4001, path: server.path))
        let connection = try InspectionConnection(to: socket, request: .watch)
        let mirror = AttachMirror(explain: false)

        try step(connection, mirror)  // hello
        #expect(frame(mirror).contains("attached to kiosk-example (pid 4001); waiting for its tree"))
        try step(connection, mirror)  // session
        try step(connection, mirror)  // snapshot
        var shown = frame(mirror)
        #expect(shown.contains(" kiosk-example "), "the app's name heads the scene:\n\(shown)")
        #expect(shown.contains("╞buyMilk"), "the focused item is drawn double:\n\(shown)")
        #expect(shown.contains("focus buyMilk │"))
        #expect(shown.contains("layout us (environment) │ kiosk-example (pid 4001), input terminal │ F2 tab loop"))
        #expect(!shown.contains("held "), "the mirror's dispatcher holds no keys worth showing")
        #expect(shown.contains("session        input terminal"), "the session event is in the trace pane")

        try step(connection, mirror)  // stage: not shown without explain
        try step(connection, mirror)  // focus
        shown = frame(mirror)
        #expect(shown.contains("╞fileTaxes") && !shown.contains("╞buyMilk"), "\(shown)")
        #expect(shown.contains("focus fileTaxes │"))
        #expect(shown.contains(focus.plainLine.trimmingCharacters(in: .whitespaces)))
        #expect(!shown.contains("systemBehavior"), "no stage line without explain")
        let history = try #require(mirror.session?.history)
        #expect(history.count == 2, "the app's events only, not the mirror's own focus moves: \(history)")

        try step(connection, mirror)  // dropped
        #expect(frame(mirror).contains("kiosk-example (pid 4001), input terminal, missed 7 events"))

        try step(connection, mirror)  // the check-in screen
        shown = frame(mirror)
        #expect(shown.contains("*pin (secure)"), "the new tree, focus on the PIN:\n\(shown)")
        let scene = shown.split(separator: "\n").prefix { !$0.hasPrefix("focus ") }.joined(separator: "\n")
        #expect(!scene.contains("fileTaxes") && scene.contains("done"), "the old tree is gone:\n\(scene)")
        #expect(shown.contains("focus pin │"))
        #expect(shown.contains(focus.plainLine.trimmingCharacters(in: .whitespaces)), "the history is kept")
        #expect(mirror.snapshot?.focused == "pin")
        #expect(try connection.nextMessage(timeout: 2) == nil, "the app closed")
    }

    @Test("with explain, stage decisions go into the trace pane; F2 and F3 toggle the overlays")
    func explainAndOverlays() throws {
        let mirror = AttachMirror(explain: true)
        try mirror.apply(
            .hello(
                InspectionMessage.Hello(
                    t: 0, app: Self.app, pid: 7, input: "keyboards", note: nil, layout: "de", watchers: 1,
                    maximumWatchers: 4,
                    bufferSize: 1 << 18)))
        try mirror.apply(try Script.snapshot(app: Self.app))
        try mirror.apply(Script.stage(t: 1))
        let before = mirror.generation
        mirror.showsTabLoop = true
        mirror.showsGroups = true
        #expect(mirror.generation != before, "an overlay toggled asks for a frame")
        let shown = frame(mirror)
        #expect(shown.contains("systemBehavior: took"), "\(shown)")
        #expect(shown.contains("╞*search 1 "), "the tab loop is numbered:\n\(shown)")
        #expect(shown.contains("F2 tab loop (on) F3 groups (on)"))
    }

    @Test("a snapshot whose tree cannot be rebuilt is an error naming the app")
    func brokenSnapshot() throws {
        let mirror = AttachMirror()
        let broken = TreeSnapshot(
            t: 0, app: Self.app, focused: nil, firstResponder: nil, focusedGroup: nil, modal: nil, tabLoop: [],
            itemCount: 0, sceneJSON: Array("{\"name\":\"x\"}".utf8))
        #expect(throws: SceneError.self) { try mirror.apply(.snapshot(broken)) }
        #expect(mirror.view == nil)
    }

    @Test("before the app's hello: the mirror waits, and shows why once keytrace says the app does not answer")
    func waitingNote() {
        let mirror = AttachMirror()
        #expect(frame(mirror).hasPrefix("waiting for the app's hello"))
        let before = mirror.generation
        mirror.waitingNote = "kiosk-example (pid 4001) does not answer: nothing came in 3 s"
        #expect(mirror.generation != before, "a new frame is due")
        #expect(frame(mirror).hasPrefix("kiosk-example (pid 4001) does not answer"), "\(frame(mirror))")
    }

    @Test(
        "the process state behind an app that does not answer, read as /proc/PID/stat gives it",
        arguments: [
            (
                "4242 (kiosk-example) T 1 4242",
                "its process 4242 is stopped (state T: SIGSTOP or Ctrl-Z): continue it (kill -CONT 4242)"
            ),
            ("4242 (a (b) c) D 1", "its process 4242 waits in the kernel for a disk or a device (state D)"),
            ("4242 (kiosk) R 1", "its process 4242 runs (state R) but does not serve its socket"),
            ("4242 (kiosk) S 1", "its process 4242 sleeps (state S) without serving its socket"),
            ("4242 (kiosk) Z 1", "its process 4242 has exited (state Z)"),
        ])
    func processState(stat: String, says expected: String) {
        #expect(InspectionConnection.describeState(of: 4242, stat: stat).hasPrefix(expected))
    }

    @Test("a process that is gone is said to be gone")
    func processGone() {
        #expect(InspectionConnection.describeState(of: 4242, stat: nil) == "its process 4242 is gone (no /proc/4242)")
    }
}
