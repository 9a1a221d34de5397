import DispatchTrace
import Foundation
import Inspection
import KeytraceKit
import LinuxKeyboard
import ResponderChain
import Synchronization
import Testing

/// A private runtime directory (mode 0700) with its `responderchain` folder, given to keytrace
/// as ``KeytraceOptions/runtimeDirectory`` so that it sees only the test's sockets.
final class RuntimeDirectory {
    let path: String
    var sockets: String { path + "/responderchain" }

    init() throws {
        var template = Array("/tmp/kt-attach-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: try #require(made))
        mkdir(sockets, 0o700)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A socket file nobody listens on, as a killed app leaves it.
    func leaveStaleSocket(name: String, pid: Int32) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = ScriptedInspectionServer.address(
            sockets + "/" + InspectionEndpoint.fileName(name: name, pid: pid))
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(fd)
    }
}

/// One step of what the server sends a watcher.
enum ScriptStep: Sendable {
    /// A message as the app writes it (its JSON line and a newline).
    case message(InspectionMessage)
    /// Bytes as they are.
    case bytes([UInt8])
    /// A pause, so that keytrace reads what came so far first.
    case pause(Double)
}

/// A stand-in for an app's inspection socket: a real listening Unix socket named `NAME.PID.sock`,
/// served from a thread of its own. A `hello` request gets the hello line, a `watch` request the
/// script; then the server closes the connection, as an app that exits does.
final class ScriptedInspectionServer: Sendable {
    let path: String
    let hello: InspectionMessage.Hello
    private let greets: Bool
    private let listener: Int32
    private let done = Mutex(false)
    /// The requests received, in order.
    let requests = Mutex<[String]>([])

    /// Listens at `NAME.PID.sock` (or at `fileName`, as anything that can write the folder may
    /// name a socket); `greets: false` leaves out the hello (an app that refuses).
    init(
        in directory: RuntimeDirectory, name: String, pid: Int32, script: [ScriptStep], greets: Bool = true,
        fileName: String? = nil
    ) throws {
        hello = InspectionMessage.Hello(
            t: 0, app: name, pid: pid, input: "terminal", note: nil, layout: "us (environment)", watchers: 0,
            maximumWatchers: 4, bufferSize: 1 << 18)
        path = directory.sockets + "/" + (fileName ?? InspectionEndpoint.fileName(name: name, pid: pid))
        self.greets = greets
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0 && listen(listener, 8) == 0, "the test's socket listens at \(path)")
        let steps = (greets ? [ScriptStep.message(.hello(hello))] : []) + script
        let thread = Thread { [self] in serve(steps) }
        thread.start()
    }

    /// Stops accepting (the thread ends) and removes the socket file.
    func stop() {
        done.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        unlink(path)
    }

    deinit {
        close(listener)
    }

    static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        return address
    }

    private func serve(_ steps: [ScriptStep]) {
        while !done.withLock({ $0 }) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let request = readRequest(connection)
            requests.withLock { $0.append(request) }
            if request.contains("\"watch\"") {
                for step in steps { perform(step, on: connection) }
            } else if request.contains("\"hello\""), greets {
                perform(.message(.hello(hello)), on: connection)
            }
            close(connection)
        }
    }

    private func readRequest(_ connection: Int32) -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        while line.count < 256, poll(&descriptor, 1, 2000) > 0, read(connection, &byte, 1) == 1, byte != 10 {
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    private func perform(_ step: ScriptStep, on connection: Int32) {
        switch step {
        case .message(let message):
            perform(.bytes(Array((message.json + "\n").utf8)), on: connection)
        case .bytes(let bytes):
            var sent = 0
            while sent < bytes.count {
                // MSG_NOSIGNAL: keytrace may close first (a line over the limit), and the test
                // process must not die of SIGPIPE.
                let count = bytes[sent...].withUnsafeBytes {
                    send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { return }
                sent += count
            }
        case .pause(let seconds):
            usleep(UInt32(seconds * 1_000_000))
        }
    }
}

/// Lines the tests script.
@MainActor
enum Script {
    /// A check-in form: a screen other than the demo's.
    static let checkIn = """
        {"name": "check-in", "root": {"id": "form", "frame": [0, 0, 400, 300], "children": [
          {"id": "name", "kind": "textInput", "frame": [10, 10, 380, 40]},
          {"id": "pin", "kind": "textInput", "secure": true, "frame": [10, 60, 380, 40]},
          {"id": "done", "frame": [10, 110, 380, 40], "focusable": true, "interactions": ["activate"]}
        ]}}
        """

    /// A scene (the demo's by default) with focus on `id`, as an app's snapshot.
    static func snapshot(app: String, scene json: String = DemoScene.json, focused id: String? = nil, t: Double = 0.01)
        throws -> InspectionMessage
    {
        let scene = try Scene(json: json, file: "test scene")
        let (dispatcher, focus) = scene.makeDispatcher()
        if let id { #expect(focus.requestFocus(on: try #require(scene.nodes[id]))) }
        return .snapshot(
            TreeSnapshot(
                name: app, window: scene.window, root: scene.root, focusSystem: focus, dispatcher: dispatcher, t: t))
    }

    static func session(app: String) -> InspectionMessage {
        .trace(TraceEvent(t: 0, .session(input: "terminal", scene: app, layout: "us (environment)", note: nil)))
    }

    static func focus(from: String, to: String, t: Double) -> InspectionMessage {
        .trace(TraceEvent(t: t, .focus(from: from, to: to, cause: .tab, fromGroup: nil, toGroup: nil)))
    }

    static func stage(t: Double) -> InspectionMessage {
        .trace(TraceEvent(t: t, .stage(.systemBehavior, .took, reason: "the focus system moved focus")))
    }
}

/// What a run of keytrace in the test's process printed, and its status.
struct KeytraceRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs keytrace with its output and diagnostics in files of the runtime directory.
    @MainActor
    init(_ options: KeytraceOptions, in directory: RuntimeDirectory) throws {
        var options = options
        options.runtimeDirectory = directory.path
        let outputPath = directory.path + "/stdout-\(UInt32.random(in: 0...UInt32.max))"
        let errorPath = outputPath + ".err"
        let output = try OutputBuffer(path: outputPath)
        let diagnostics = try OutputBuffer(path: errorPath)
        do throws(KeytraceError) {
            status = try Keytrace.run(options, output: output, diagnostics: diagnostics)
        } catch {
            status = error.exitStatus
            diagnostics.line("keytrace: \(error)")
        }
        output.flush()
        diagnostics.flush()
        stdout = try String(contentsOfFile: outputPath, encoding: .utf8)
        stderr = try String(contentsOfFile: errorPath, encoding: .utf8)
    }
}
