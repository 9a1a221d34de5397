import AppRuntime
import DispatchTrace
import Foundation
import Graphics
import Inspection
import LinuxSystem
import ResponderChain
import Synchronization
import Testing

/// A watcher on a real Unix socket, read while the app's loop runs in the same thread.
@MainActor final class SocketPeer {
    let fd: Int32
    private var reader = InspectionLineReader(maximumLength: InspectionProtocol.maximumLineLength)
    private(set) var closed = false

    init(path: String) throws {
        fd = try UnixSocket.connect(path: path).get()
    }

    private var isOpen = true

    deinit {
        if isOpen { Syscalls.close(fd) }
    }

    /// Closes this end, as a watcher that goes away does.
    func disconnect() {
        if isOpen { Syscalls.close(fd) }
        isOpen = false
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { UnixSocket.send(fd, $0) }
    }

    /// What has arrived, without waiting.
    func take() -> [String] {
        var lines: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !closed {
            let result = buffer.withUnsafeMutableBytes { UnixSocket.receive(fd, into: $0) }
            guard case .success(let count) = result, let count else {
                if case .failure = result { closed = true }
                break
            }
            if count == 0 {
                closed = true
                break
            }
            reader.append(buffer[0..<count])
        }
        while let line = try? reader.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    /// Runs the app's loop and reads until `done` holds for the lines so far, or `seconds` pass.
    func read(_ app: Application, for seconds: Double = 5, until done: ([String]) -> Bool) -> [String] {
        var lines: [String] = []
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            app.loop.runOnce(timeout: 0.01)
            lines += take()
            if done(lines) { break }
        }
        return lines
    }
}

func event(_ line: String) -> String? {
    guard let message = try? InspectionMessage(jsonLine: Array(line.utf8)) else { return nil }
    return message.name
}

@MainActor @Suite struct InspectionServerTests {
    /// The directories this suite made, removed (with the sockets left in them) when it ends.
    nonisolated static let made = Mutex<[String]>([])

    /// A private directory for the sockets, as the runtime directory would be.
    static func makeDirectory() -> String {
        var template = Array("/tmp/inspection-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        #expect(made != nil)
        _ = removeDirectoriesAtExit
        defer {
            Self.made.withLock {
                $0.append(String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An app with two focusable items on a fake seat (no terminal), listening in `directory`.
    static func makeApp(
        directory: String, configure: (inout Application.InspectionOptions) -> Void = { _ in }
    ) throws -> Application {
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 20, height: 2))
        window.addChild(root)
        for name in ["first", "second"] {
            let x = name == "first" ? 0.0 : 10.0
            root.addChild(FocusNode(identifier: name, frame: Rect(x: x, y: 0, width: 10, height: 1), isFocusable: true))
        }
        var configuration = Application.Configuration()
        configuration.usesTerminalForOutput = false
        configuration.inspection.directory = directory
        configuration.inspection.name = "tester"
        configure(&configuration.inspection)
        let app = try Application(window: window, root: root, configuration: configuration)
        app.setPrimaryInput(FakeInputSource("seat"), fallsBackToTerminal: false)
        return app
    }

    /// A watcher attached to the app: connected, its request sent, its first three lines
    /// (hello, session, snapshot) read.
    static func watch(_ app: Application, at path: String) throws -> (peer: SocketPeer, head: [String]) {
        let peer = try SocketPeer(path: path)
        peer.send(InspectionRequest.watch.line)
        return (peer, peer.read(app) { $0.count >= 3 })
    }

    static func press(_ app: Application, _ code: KeyCode, at t: Double) {
        app.dispatcher.handle(KeyEvent(code, .down, device: .primary, timestamp: t))
        app.dispatcher.handle(KeyEvent(code, .up, device: .primary, timestamp: t + 0.01))
    }

    @Test("the socket is NAME.PID.sock, mode 0600, in a directory of mode 0700; removed when the app stops")
    func socketFile() async throws {
        let directory = Self.makeDirectory()
        let app = try Self.makeApp(directory: directory)
        try app.start()
        let path = try #require(app.inspectionPath)
        #expect(path == "\(directory)/tester.\(getpid()).sock")
        #expect(app.inspectionNote == nil)
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK && info.st_mode & 0o777 == 0o600)
        app.loop.control.stop()
        try await app.run()
        #expect(!FileManager.default.fileExists(atPath: path), "run() removes the socket when it returns")
    }

    @Test("a watcher gets hello, session and snapshot, then keys with their stages and focus moves, in order")
    func watch() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory())
        try app.start()
        let (peer, head) = try Self.watch(app, at: #require(app.inspectionPath))
        #expect(head.compactMap(event) == ["hello", "session", "snapshot"])
        guard case .hello(let hello)? = try? InspectionMessage(jsonLine: Array(head[0].utf8)) else {
            Issue.record("no hello: \(head)")
            return
        }
        #expect(hello.app == "tester" && hello.pid == getpid() && hello.input == "seat" && hello.watchers == 1)
        #expect(hello.bufferSize == 256 << 10 && hello.maximumWatchers == 8)
        guard case .snapshot(let snapshot)? = try? InspectionMessage(jsonLine: Array(head[2].utf8)) else {
            Issue.record("no snapshot: \(head)")
            return
        }
        #expect(snapshot.focused == "first" && snapshot.tabLoop == ["first", "second"])
        #expect(app.inspectionWatchers == 1)

        Self.press(app, .tab, at: 1)
        let lines = peer.read(app) { $0.contains { $0.contains("\"event\":\"focus\"") } }
        let names = lines.compactMap(event)
        #expect(names.first == "key" && names.contains("stage") && names.contains("focus"))
        #expect(lines.contains { $0.contains("\"to\":\"second\"") })
        #expect(!names.contains("snapshot"), "a focus move is a trace event, not a new tree")
    }

    @Test("a changed tree sends one snapshot per frame, however many changes the batch made")
    func snapshotPerFrame() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory())
        try app.start()
        let peer = try Self.watch(app, at: #require(app.inspectionPath)).peer
        let root = try #require(app.root as? FocusNode)
        for index in 0..<5 {
            root.addChild(
                FocusNode(
                    identifier: "new\(index)", frame: Rect(x: Double(index), y: 1, width: 1, height: 1),
                    isFocusable: true))
        }
        app.setNeedsFrame()
        let lines = peer.read(app) { $0.contains { event($0) == "snapshot" } }
        #expect(lines.compactMap(event).filter { $0 == "snapshot" }.count == 1)
        let snapshot = try #require(lines.last { event($0) == "snapshot" })
        #expect(snapshot.contains("new4"))
        // Nothing changed since: no more snapshots.
        app.setNeedsFrame()
        let quiet = peer.read(app, for: 0.3) { _ in false }
        #expect(!quiet.contains { event($0) == "snapshot" })
    }

    @Test("a watcher served after the tree changed, before the frame ended, leaves the others their snapshot of it")
    func lateWatcherLeavesOthersTheirSnapshot() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory())
        try app.start()
        let path = try #require(app.inspectionPath)
        let first = try Self.watch(app, at: path).peer
        // The second is admitted, and sends its request later.
        let second = try SocketPeer(path: path)
        _ = second.read(app, for: 0.2) { _ in false }
        // The tree changes between batches (a task's work), then one batch serves the second and ends the frame.
        let root = try #require(app.root as? FocusNode)
        root.addChild(FocusNode(identifier: "late", frame: Rect(x: 0, y: 1, width: 1, height: 1), isFocusable: true))
        second.send(InspectionRequest.watch.line)
        let head = second.read(app) { $0.count >= 3 }
        #expect(head.count == 3 && head[2].contains("\"late\""), "the second starts with the changed tree")
        let lines = first.read(app, for: 1) { $0.contains { event($0) == "snapshot" } }
        #expect(
            lines.contains { event($0) == "snapshot" && $0.contains("\"late\"") },
            "the first gets the changed tree too: \(lines.compactMap(event))")
    }

    @Test(
        "a tap on an on-screen key: the tree with the keyboard laid out, then the keys it typed, reach a watcher at the end of each tap's own batch"
    )
    func onScreenKeyboardTap() throws {
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        window.addChild(root)
        let field = TextFieldNode(label: "Name", identifier: "name", frame: Rect(x: 40, y: 40, width: 400, height: 96))
        root.addChild(field)
        // Focus starts on a button: the keyboard shows when a finger taps the field.
        root.addChild(ButtonNode("Done", identifier: "done", frame: Rect(x: 480, y: 40, width: 200, height: 96)))
        root.preferredFocusIdentifiers = ["done"]
        var configuration = Application.Configuration()
        configuration.usesTerminalForOutput = false
        configuration.inspection.directory = Self.makeDirectory()
        configuration.inspection.name = "tester"
        let app = try Application(window: window, root: root, configuration: configuration)
        app.setPrimaryInput(FakeInputSource("seat"), fallsBackToTerminal: false)
        let keyboard = OnScreenKeyboard(
            layout: app.layout, sink: app.inputContext.sink, device: app.inputContext.makeDeviceID())
        root.addChild(keyboard)
        // Docked when it shows, as the kiosk example lays it out: its keys get frames in the batch that shows it.
        keyboard.onVisibilityChange = { [unowned keyboard] shown in
            keyboard.frame = shown ? Rect(x: 0, y: 300, width: 800, height: 300) : .zero
            keyboard.layoutKeys()
        }
        keyboard.attach(to: app.focusSystem)
        try app.start()
        let peer = try Self.watch(app, at: #require(app.inspectionPath)).peer

        // A finger taps through the app's input sink in one batch of the loop; what the watcher holds is read
        // after that batch alone (no other input, no other frame).
        func tap(_ point: Point) -> [String] {
            let touch = DeviceID(rawValue: 77)
            app.loop.control.perform {
                for phase in [PointerEvent.Phase.down, .up] {
                    app.inputContext.sink.receive(
                        .pointer(PointerEvent(phase, .touch, contact: 1, at: point, device: touch, timestamp: 1)))
                }
            }
            app.loop.runOnce(timeout: 5)
            usleep(20_000)
            return peer.take()
        }

        #expect(keyboard.isHidden)
        let shown = tap(Point(x: 100, y: 80))
        let snapshot = try #require(shown.last { event($0) == "snapshot" }, "\(shown.compactMap(event))")
        let frame = try #require(Self.frame(of: "key-a", in: snapshot))
        #expect(frame[2] > 0 && frame[3] > 0 && frame[1] >= 300, "key-a laid out in the keyboard: \(frame)")
        let typed = tap(Point(x: frame[0] + frame[2] / 2, y: frame[1] + frame[3] / 2))
        let keys = typed.filter { event($0) == "key" }
        #expect(keys.count == 2 && keys[0].contains("\"characters\":\"a\""), "\(typed)")
        #expect(field.text == "a", "typed into the field")
    }

    /// A node's frame `[x, y, width, height]` in a snapshot line, `nil` when it is not there.
    static func frame(of id: String, in line: String) -> [Double]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let scene = object["scene"] as? [String: Any], let root = scene["root"] as? [String: Any]
        else { return nil }
        func find(_ node: [String: Any]) -> [Double]? {
            if node["id"] as? String == id { return (node["frame"] as? [NSNumber])?.map(\.doubleValue) }
            for child in node["children"] as? [[String: Any]] ?? [] {
                if let found = find(child) { return found }
            }
            return nil
        }
        return find(root)
    }

    @Test("with nobody watching the dispatcher traces nothing; a watcher turns it on, its leaving turns it off")
    func tracesOnlyWhileWatched() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory())
        try app.start()
        #expect(!app.dispatcher.isTracing)
        let peer = try Self.watch(app, at: #require(app.inspectionPath)).peer
        #expect(app.dispatcher.isTracing)
        peer.disconnect()
        let end = Date().addingTimeInterval(5)
        while app.inspectionWatchers > 0 && Date() < end { app.loop.runOnce(timeout: 0.01) }
        #expect(app.inspectionWatchers == 0 && !app.dispatcher.isTracing)
        Self.press(app, .tab, at: 2)
        #expect(app.focusSystem.focusedItem?.focusDebugName == "second", "the app goes on")
    }

    @Test("a hello request gets one hello line and the end; the watcher count does not include it")
    func helloRequest() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory())
        try app.start()
        let peer = try SocketPeer(path: #require(app.inspectionPath))
        peer.send(InspectionRequest.hello.line)
        let lines = peer.read(app) { _ in peer.closed }
        #expect(lines.compactMap(event) == ["hello"] && peer.closed)
        #expect(lines.first?.contains("\"watchers\":0") == true)
    }

    @Test(
        "bad requests are refused with the reason and closed: random bytes, a second line, an unknown version",
        arguments: [
            (Array("GET / HTTP/1.1\r\n\r\n".utf8), "not JSON"),
            (Array("{\"request\":\"watch\",\"protocol\":1}\nmore\n".utf8), "nothing after it"),
            (Array("{\"request\":\"watch\",\"protocol\":99}\n".utf8), "protocol 1"),
            ([UInt8](repeating: 0x41, count: 300), "at most 256 bytes"),
        ])
    func badRequests(bytes: [UInt8], reason: String) throws {
        let app = try Self.makeApp(directory: Self.makeDirectory())
        try app.start()
        let peer = try SocketPeer(path: #require(app.inspectionPath))
        peer.send(bytes)
        let lines = peer.read(app) { _ in peer.closed }
        #expect(peer.closed)
        #expect(lines.count == 1 && event(lines[0]) == "refused" && lines[0].contains(reason), "\(lines)")
        #expect(app.inspectionWatchers == 0)
    }

    @Test("a peer that sends half a request is closed after the request timeout; the app serves others meanwhile")
    func halfLineTimesOut() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory()) { $0.requestTimeout = 0.2 }
        try app.start()
        let path = try #require(app.inspectionPath)
        let slow = try SocketPeer(path: path)
        slow.send(Array("{\"request\":".utf8))
        let other = try SocketPeer(path: path)
        other.send(InspectionRequest.watch.line)
        #expect(other.read(app) { $0.count >= 3 }.count >= 3)
        let lines = slow.read(app) { _ in slow.closed }
        #expect(slow.closed && lines.first?.contains("no request within") == true, "\(lines)")
        #expect(app.inspectionWatchers == 1)
    }

    @Test("more watchers than the limit are refused, saying so; more than 8 waiting peers too")
    func limits() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory()) {
            $0.maximumWatchers = 2
            $0.requestTimeout = 60
        }
        try app.start()
        let path = try #require(app.inspectionPath)
        let watchers = try (0..<2).map { _ in try SocketPeer(path: path) }
        for watcher in watchers {
            watcher.send(InspectionRequest.watch.line)
            _ = watcher.read(app) { $0.count >= 3 }
        }
        let third = try SocketPeer(path: path)
        third.send(InspectionRequest.watch.line)
        let refused = third.read(app) { _ in third.closed }
        #expect(refused.first?.contains("already has 2 watchers") == true, "\(refused)")

        let silent = try (0..<8).map { _ in try SocketPeer(path: path) }
        _ = silent[0].read(app, for: 0.3) { _ in false }
        let ninth = try SocketPeer(path: path)
        let lines = ninth.read(app) { _ in ninth.closed }
        #expect(lines.first?.contains("already waiting") == true, "\(lines)")
        #expect(silent.allSatisfy { !$0.closed } && app.inspectionWatchers == 2)
    }

    @Test("a watcher that does not read loses lines, all of them counted; it is told how many, then the tree")
    func slowWatcherDrops() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory()) { $0.bufferSize = 16 << 10 }
        try app.start()
        let (peer, head) = try Self.watch(app, at: #require(app.inspectionPath))
        // Every trace event the app makes from now on, counted by a session of its own.
        var made = 0
        let counter = TraceSession(
            name: "counter", window: app.window, dispatcher: app.dispatcher, focusSystem: app.focusSystem,
            explain: true
        ) { _ in made += 1 }
        counter.join(t: 0)
        defer { counter.stop() }
        // The watcher reads nothing while 3,000 keys go in, a batch at a time.
        for index in 0..<3000 {
            Self.press(app, index % 2 == 0 ? .tab : .a, at: Double(index))
            if index % 100 == 0 { app.loop.runOnce(timeout: 0) }
        }
        counter.stop()
        let lines =
            peer.read(app) { lines in lines.contains { event($0) == "dropped" } }
            + peer.read(app, for: 0.5) { _ in false }
        let drops = lines.compactMap { try? InspectionMessage(jsonLine: Array($0.utf8)) }.compactMap { message in
            if case .dropped(let drop) = message { return drop }
            return nil
        }
        let lost = drops.map(\.count).reduce(0, +)
        let traced = lines.filter { line in
            guard let name = event(line) else { return false }
            return !["dropped", "snapshot", "hello"].contains(name)
        }.count
        #expect(!drops.isEmpty && lost > 0)
        #expect(drops.last?.total == lost)
        #expect(traced + lost == made, "every event made was either delivered or counted (\(traced) + \(lost))")
        let afterDrop = lines.firstIndex { event($0) == "dropped" }.map { lines[$0 + 1] }
        #expect(afterDrop.flatMap(event) == "snapshot", "a fresh tree follows each drop")
        #expect(head.count == 3)
    }

    @Test("a symbolic link, a directory open to others, or another user's directory: no socket, a note with the fix")
    func unsafeDirectories() throws {
        let base = Self.makeDirectory()
        let target = Self.makeDirectory()
        let link = base + "/link"
        #expect(symlink(target, link) == 0)
        let open = base + "/open"
        #expect(mkdir(open, 0o777) == 0 && chmod(open, 0o777) == 0)
        // A directory of another user: root makes one; anyone else finds one in `/`.
        var foreign = "/"
        if getuid() == 0 {
            foreign = base + "/foreign"
            #expect(mkdir(foreign, 0o700) == 0 && chown(foreign, 65534, 65534) == 0)
        }
        for (directory, words) in [
            (link, "is a symbolic link"), (open, "open to other users (mode 777): make it private (chmod 700"),
            (foreign, "belongs to user"),
        ] {
            let app = try Self.makeApp(directory: directory)
            try app.start()
            #expect(app.inspectionPath == nil)
            let note = try #require(app.inspectionNote)
            #expect(note.contains(directory) && note.contains(words), "\(note)")
            #expect(note.hasPrefix("keytrace --attach cannot watch this app"))
            Self.press(app, .tab, at: 1)
            #expect(app.focusSystem.focusedItem?.focusDebugName == "second", "the app runs on without the socket")
        }
    }

    @Test("a missing directory is made with mode 0700; a stale socket of a dead process is removed, a live one kept")
    func directoryAndStaleSockets() throws {
        let base = Self.makeDirectory()
        let directory = base + "/made"
        let app = try Self.makeApp(directory: directory)
        try app.start()
        var info = stat()
        #expect(lstat(directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
        // A socket left by a killed app (a pid that cannot exist), and one of a live app (this one).
        let stale = directory + "/old.4194304.sock"
        let staleSocket = try UnixSocket.listen(path: stale, backlog: 1).get()
        Syscalls.close(staleSocket)
        let notSocket = directory + "/file.4194304.sock"
        #expect(FileManager.default.createFile(atPath: notSocket, contents: Data()))
        let second = try Self.makeApp(directory: directory)
        try second.start()
        #expect(!FileManager.default.fileExists(atPath: stale), "the dead process's socket was removed")
        #expect(FileManager.default.fileExists(atPath: notSocket), "only sockets are removed")
        #expect(FileManager.default.fileExists(atPath: try #require(app.inspectionPath)))
        #expect(second.inspectionPath == "\(directory)/tester-2.\(getpid()).sock", "two apps in one process")
    }

    @Test("a watcher that vanishes with lines queued is closed; the others and the app go on")
    func vanishingWatcher() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory()) { $0.bufferSize = 16 << 10 }
        try app.start()
        let path = try #require(app.inspectionPath)
        let gone = try Self.watch(app, at: path).peer
        let stays = try Self.watch(app, at: path).peer
        for index in 0..<300 { Self.press(app, .tab, at: Double(index)) }
        gone.disconnect()
        _ = stays.read(app) { _ in app.inspectionWatchers == 1 }
        Self.press(app, .a, at: 400)
        let lines = stays.read(app) { $0.contains { event($0) == "unhandled" || $0.contains("\"event\":\"key\"") } }
        #expect(app.inspectionWatchers == 1 && !lines.isEmpty)
    }

    @Test("one slow watcher's drops and fresh tree go to it alone: a watcher that reads gets every event, in order")
    func slowWatcherAmongOthers() throws {
        let app = try Self.makeApp(directory: Self.makeDirectory()) { $0.bufferSize = 16 << 10 }
        try app.start()
        let path = try #require(app.inspectionPath)
        let slow = try Self.watch(app, at: path).peer
        let reader = try Self.watch(app, at: path).peer
        var made = 0
        let counter = TraceSession(
            name: "counter", window: app.window, dispatcher: app.dispatcher, focusSystem: app.focusSystem,
            explain: true
        ) { _ in made += 1 }
        counter.join(t: 0)
        // The reader reads after every key; the slow one not at all, then everything at once,
        // while more keys go in (its drop is reported in the middle of the flow).
        var lines: [String] = []
        for index in 0..<2000 {
            Self.press(app, index % 2 == 0 ? .tab : .a, at: Double(index))
            if index % 20 == 0 { app.loop.runOnce(timeout: 0) }
            if index == 1500 { _ = slow.take() }
            lines += reader.take()
        }
        counter.stop()
        lines += reader.read(app, for: 0.5) { _ in false }
        let names = lines.compactMap(event)
        #expect(!names.contains("dropped"), "the reader lost nothing and is told of no drop")
        #expect(!names.contains("snapshot"), "no tree went to the reader: its tree did not change")
        #expect(names.count == made, "every event, exactly once (\(names.count) of \(made))")
        let slowLines = slow.read(app, for: 0.5) { _ in false }
        #expect(slowLines.contains { event($0) == "dropped" }, "the slow watcher is told")
    }
}

/// Removes the suite's directories once the process is done with them.
private let removeDirectoriesAtExit: Void = {
    atexit {
        for directory in InspectionServerTests.made.withLock({ $0 }) {
            _ = try? FileManager.default.removeItem(atPath: directory)
        }
    }
}()
