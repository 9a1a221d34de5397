internal import DispatchTrace
internal import Inspection
internal import LinuxKeyboard
internal import LinuxSystem
internal import ResponderChain
import TerminalCanvas

// `keytrace --attach` and `keytrace --list-apps`: a running app's inspection socket, found,
// read and shown.
extension Keytrace {
    /// How a watch ended.
    enum AttachEnd {
        /// The app closed the connection: it exited.
        case exited
        /// Ctrl-C, `SIGTERM` or `SIGHUP` stopped keytrace.
        case interrupted
    }

    /// `--list-apps`: one line per running app, from a `hello` to each socket.
    static func listApps(_ options: KeytraceOptions, output: OutputBuffer) -> Int32 {
        let directories = AppDirectories.current(runtimeDirectory: options.runtimeDirectory)
        let probed = probe(directories.sockets())
        if probed.isEmpty {
            output.line("no running apps in \(directories.description)")
        } else {
            for line in appTable(probed) { output.line(line) }
        }
        output.flush()
        return 0
    }

    /// Each socket's answer to a `hello`, stale ones left out.
    static func probe(_ sockets: [AppSocket]) -> [(AppSocket, AppSocket.Probe)] {
        sockets.compactMap { socket in
            let probe = socket.probe()
            return probe == .stale ? nil : (socket, probe)
        }
    }

    /// `PID USER NAME INPUT WATCHERS`, aligned, one row per app. The pid and the user are the
    /// socket's (its file's name, its folder's owner, checked against the kernel's word before
    /// anything was sent); what the app says of itself is escaped, so it cannot forge a row.
    static func appTable(_ apps: [(AppSocket, AppSocket.Probe)]) -> [String] {
        var rows = [["PID", "USER", "NAME", "INPUT", "WATCHERS"]]
        for (socket, probe) in apps {
            let head = ["\(socket.pid)", "\(socket.owner)"]
            switch probe {
            case .running(let hello):
                rows.append(head + [hello.app, hello.input, "\(hello.watchers) of \(hello.maximumWatchers)"])
            case .refused(let reason):
                rows.append(head + [socket.name, "-", "refused: \(reason)"])
            case .failed(let reason):
                rows.append(head + [socket.name, "-", reason])
            case .stale:
                continue
            }
        }
        rows = rows.map { row in row.map { $0.escapingControlCharacters(keepingNewlines: false) } }
        let columns = rows[0].count
        let widths = (0..<columns - 1).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<columns - 1).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count + 2) }.joined()
                + row[columns - 1]
        }
    }

    /// `--attach`: finds the app, then streams, draws or reports on what it sends.
    static func attach(_ options: KeytraceOptions, output: OutputBuffer, diagnostics: OutputBuffer)
        throws(KeytraceError) -> Int32
    {
        let connection = try connect(options, diagnostics: diagnostics)
        defer { connection.close() }
        if options.conflicts || options.focusDebug {
            return try reportAttached(connection, options: options, output: output)
        }
        let json = options.format == .json
        // --json passes every line through as it came unless --no-explain asks for less; the
        // other outputs show stage decisions as they do for a scene (on in the live view).
        let explain = json ? options.explain != false : options.explain ?? (options.format == .live)
        let live = options.format == .live && TerminalKeyboard.isTerminal(0) && TerminalKeyboard.isTerminal(1)
        // With --speak: the environment the daemon's address is read from.
        let speech = options.speak ? options.speechEnvironment ?? Syscalls.processEnvironment() : nil
        let end =
            live
            ? try watchLive(connection, explain: explain, speech: speech, output: output)
            : try watchStream(
                connection, json: json, explain: explain, speech: speech, output: output, diagnostics: diagnostics)
        guard case .exited = end else { return 0 }
        let exited = "\(connection.appDescription) exited"
        if options.format == .json {
            diagnostics.line(exited)
            diagnostics.flush()
        } else {
            output.line(exited)
        }
        return 0
    }

    // MARK: Finding the app

    /// The connection to the app the options name (or the one running), watching. As root, the
    /// apps of root's own folder come first: the others' folders are searched when it has none
    /// that fits.
    static func connect(_ options: KeytraceOptions, diagnostics: OutputBuffer) throws(KeytraceError)
        -> InspectionConnection
    {
        let all = AppDirectories.current(runtimeDirectory: options.runtimeDirectory)
        let tiers = all.paths.count > 1 ? [AppDirectories(paths: [all.paths[0]]), all] : [all]
        for directories in tiers {
            if let connection = try connect(options.attachTarget, in: directories, diagnostics: diagnostics) {
                return connection
            }
        }
        throw KeytraceError(noApp(options.attachTarget, directories: all))
    }

    /// The connection to the app `target` names in `directories` (or the one running there);
    /// `nil` when none is.
    ///
    /// - Throws: ``KeytraceError`` when several are (listed on `diagnostics`), or the connection
    ///   failed.
    static func connect(_ target: String?, in directories: AppDirectories, diagnostics: OutputBuffer)
        throws(KeytraceError) -> InspectionConnection?
    {
        let sockets = directories.sockets()
        let candidates = target.map { match($0, in: sockets) } ?? sockets
        if candidates.count == 1, let socket = candidates.first {
            do { return try InspectionConnection(to: socket, request: .watch) } catch {
                guard error.isStale else { throw KeytraceError(error.description) }
                return nil
            }
        }
        let running = probe(candidates)
        if running.count == 1, let socket = running.first?.0 {
            do { return try InspectionConnection(to: socket, request: .watch) } catch {
                throw KeytraceError(error.description)
            }
        }
        guard running.isEmpty else {
            diagnostics.line(
                "keytrace: several apps are running\(target.map { " that match \"\($0)\"" } ?? ""); "
                    + "choose one: keytrace --attach PID")
            for line in appTable(running) { diagnostics.line(line) }
            diagnostics.flush()
            throw KeytraceError("")
        }
        return nil
    }

    /// The sockets a target names: its pid; else its exact name, else the names it begins.
    static func match(_ target: String, in sockets: [AppSocket]) -> [AppSocket] {
        if let pid = Int32(target), pid > 0 { return sockets.filter { $0.pid == pid } }
        let name = InspectionEndpoint.fileSafeName(target)
        let exact = sockets.filter { $0.name == name }
        return exact.isEmpty ? sockets.filter { $0.name.hasPrefix(name) } : exact
    }

    /// Why no app was found, and what to check.
    static func noApp(_ target: String?, directories: AppDirectories) -> String {
        guard let target else {
            return "no running app in \(directories.description). Check that the app runs as this user "
                + "(or keytrace as root); that XDG_RUNTIME_DIR is the same as the app's "
                + "(here it is \(Syscalls.environment("XDG_RUNTIME_DIR").map { "\"\($0)\"" } ?? "unset")); "
                + "and that inspection is on (RESPONDERCHAIN_INSPECT=0 in the app's environment, "
                + "or its configuration, turns the socket off). keytrace --list-apps lists what runs"
        }
        let running = probe(directories.sockets()).map { "\($0.0)" }
        return "no running app \(Int32(target) != nil ? "with pid" : "named") \(target) in \(directories.description)"
            + (running.isEmpty
                ? "; no app is running there" : "; running: \(running.joined(separator: ", ")) (keytrace --attach PID)")
    }

    // MARK: Reading

    /// Hands on every line the socket holds now, reading at most `budget` bytes from it (the loop
    /// wakes again for the rest).
    ///
    /// - Returns: Whether the app closed the connection.
    static func pump(
        _ connection: InspectionConnection, budget: Int,
        _ handle: ([UInt8], InspectionMessage) throws(KeytraceError) -> Void
    ) throws(KeytraceError) -> Bool {
        let start = connection.bytesReceived
        while true {
            let reading: InspectionConnection.Reading
            do { reading = try connection.nextMessage(receiving: connection.bytesReceived - start < budget) } catch {
                throw KeytraceError(error.description)
            }
            switch reading {
            case .message(let line, let message):
                try handle(line, message)
                if case .refused(_, let reason) = message {
                    throw KeytraceError(refusal(connection, reason))
                }
            case .wouldBlock:
                return false
            case .end:
                guard connection.hello != nil else {
                    throw KeytraceError(connection.closedAtOnce)
                }
                return true
            }
        }
    }

    /// `kiosk-example (pid 4242) refused keytrace: REASON`, the app's reason escaped, newlines
    /// too, so that it cannot forge a line.
    static func refusal(_ connection: InspectionConnection, _ reason: String) -> String {
        "\(connection.appDescription) refused keytrace: \(reason.escapingControlCharacters())"
    }

    /// Whether a trace event is a stage decision, left out without `--explain`.
    static func isExplanation(_ message: InspectionMessage) -> Bool {
        guard case .trace(let event) = message else { return false }
        switch event.kind {
        case .stage, .keyCommandPassedOver: return true
        default: return false
        }
    }

    /// `--json` and `--plain`: the lines as they come, on keytrace's loop, until the app exits
    /// or a signal stops keytrace; with `speech` (the environment holding the daemon's address),
    /// each `announce` event spoken, and a speech problem said on `diagnostics`.
    static func watchStream(
        _ connection: InspectionConnection, json: Bool, explain: Bool, speech: [String: String]? = nil,
        output: OutputBuffer, diagnostics: OutputBuffer
    ) throws(KeytraceError) -> AttachEnd {
        SignalPipe.ignoreBrokenPipe()
        var options = EventLoop.Options()
        options.drainsMainQueue = false
        let loop: EventLoop
        let signals: SignalPipe
        do {
            loop = try EventLoop(options: options)
            signals = try SignalPipe([SignalPipe.interrupt, SignalPipe.terminate, SignalPipe.hangUp])
        } catch { throw KeytraceError("\(error)") }
        let control = loop.control
        let voice = speech.flatMap { environment in
            KeytraceVoice.make(loop: loop, environment: environment) { line in
                diagnostics.line(line)
                diagnostics.flush()
            }
        }
        var end = AttachEnd.interrupted
        var failure: KeytraceError?
        do {
            try loop.watch(signals.fileDescriptor) { [unowned signals] in
                _ = signals.drain()
                control.stop()
            }
        } catch { throw KeytraceError("\(error)") }
        let silence = SilenceWatch(connection, loop: loop) { line in
            diagnostics.line("keytrace: \(line)")
            diagnostics.flush()
        }
        let readConnection: (EventLoop.Readiness) -> Void = { _ in
            do throws(KeytraceError) {
                let ended = try pump(connection, budget: 1 << 22) { (line, message) throws(KeytraceError) in
                    if case .trace(let event) = message { voice?.speak(event) }
                    guard explain || !isExplanation(message) else { return }
                    if json {
                        // Written again by keytrace's own writer, not passed through: the app's
                        // bytes may hold raw C1 controls, DEL or a carriage return (JSON allows
                        // them), which the writer escapes; the line reads back the same.
                        output.append { writer in message.writeJSON(to: &writer) }
                    } else {
                        output.line(message.plainLine)
                    }
                }
                if ended {
                    end = .exited
                    control.stop()
                }
            } catch {
                failure = error
                control.stop()
            }
        }
        do { try loop.watch(connection.fileDescriptor, onReady: readConnection) } catch {
            throw KeytraceError("the connection to \(connection.appDescription): \(error)")
        }
        loop.afterBatch = {
            output.flush()
            if output.writeError != nil { control.stop() }
        }
        do { try loop.run() } catch { throw KeytraceError("\(error)") }
        output.flush()
        // What the app said last reaches the daemon before keytrace exits (bounded: 2 s).
        voice?.handOver()
        if let failure { throw failure }
        try silence.checkAnswered()
        return end
    }

    /// Says, once, that an app sent nothing for ``answerWait`` seconds after keytrace asked to
    /// watch it (a stopped or hung app: the kernel takes the connection and the request all the
    /// same), with its process's state; and makes the end of a watch that never got a line a
    /// failure.
    @MainActor
    final class SilenceWatch {
        /// How long keytrace waits for an app's first line before it says the app does not answer.
        static let answerWait = 3.0

        let connection: InspectionConnection
        let started = EventLoop.monotonicNow
        private(set) var said = false
        private let loop: EventLoop
        private var token: EventLoop.Deadline?

        /// Watches on `loop`; `say` gets the line (without `keytrace: `).
        init(_ connection: InspectionConnection, loop: EventLoop, say: @escaping (String) -> Void) {
            self.connection = connection
            self.loop = loop
            let due = started + Self.answerWait
            token = loop.addDeadline(
                { [weak self] in
                    guard let self, !self.said, self.connection.lineCount == 0 else { return nil }
                    return due
                },
                fire: { [weak self] now in
                    guard let self, !self.said, now >= due, self.connection.lineCount == 0 else { return }
                    self.said = true
                    say(
                        "\(connection.appDescription) does not answer: nothing came in "
                            + "\(secondsText(Self.answerWait)) s since keytrace asked to watch it; "
                            + "\(connection.peerState). keytrace waits on (Ctrl-C gives up)")
                })
        }

        isolated deinit {
            if let token { loop.removeDeadline(token) }
        }

        /// Throws when the app never sent a line: keytrace was stopped while it waited.
        func checkAnswered() throws(KeytraceError) {
            guard connection.lineCount == 0 else { return }
            let waited = Int((EventLoop.monotonicNow - started).rounded())
            throw KeytraceError(
                "\(connection.appDescription) never answered in the \(waited) s keytrace waited; "
                    + "\(connection.peerState)")
        }
    }

    // MARK: Reports

    /// `--conflicts` and `--focus-debug` on the app's tree: its first snapshot, focus where the
    /// app has it.
    static func reportAttached(_ connection: InspectionConnection, options: KeytraceOptions, output: OutputBuffer)
        throws(KeytraceError) -> Int32
    {
        var snapshot: TreeSnapshot?
        while snapshot == nil {
            let next: ([UInt8], InspectionMessage)?
            do { next = try connection.nextMessage(timeout: 10) } catch { throw KeytraceError(error.description) }
            guard let (_, message) = next else {
                throw KeytraceError(
                    connection.hello == nil
                        ? connection.closedAtOnce : "\(connection.appDescription) exited before it sent its tree")
            }
            switch message {
            case .snapshot(let tree): snapshot = tree
            case .refused(_, let reason):
                throw KeytraceError(refusal(connection, reason))
            default: continue
            }
        }
        guard let snapshot else { return 2 }
        connection.close()
        let scene: Scene
        do { scene = try snapshot.makeScene() } catch {
            throw KeytraceError(
                "the tree \(connection.appDescription) sent cannot be rebuilt: "
                    + "\(String(describing: error).escapingControlCharacters())")
        }
        let (layout, _) = try layout(options)
        let session = TraceSession(scene: scene, layout: layout) { _ in }
        session.start(input: "none", layout: layout.name)
        session.follow(snapshot, in: scene)
        return report(session, scene: scene, layout: layout.name, options: options, output: output)
    }
}
