import Foundation
public import LinuxKeyboard
public import ResponderChain

/// What keytrace was asked to do: the command line, parsed.
public struct KeytraceOptions: Sendable {
    /// How output is written.
    public enum Format: Sendable {
        /// The live view on a terminal (falls back to plain lines when output is not a terminal).
        case live
        /// One readable line per event.
        case plain
        /// One JSON object per line.
        case json
    }

    /// A scene file; `nil` for the built-in demo.
    public var scenePath: String?
    /// A key sequence to type (`--keys`).
    public var keys: String?
    /// An evemu recording to replay (`--replay`).
    public var replayPath: String?
    /// Whether the replay keeps the recorded pace.
    public var realTime = false
    /// Keyboards to read, by path or name (`--device`).
    public var devices: [String] = []
    /// Whether keyboards are grabbed.
    public var grab = false
    /// Whether the terminal is read even when keyboards are readable.
    public var terminal = false
    /// xkb names; unset ones come from the environment, `/etc/default/keyboard`, or `us`.
    public var keymap = KeymapNames()
    /// Whether the window is right-to-left.
    public var rightToLeft = false
    /// The output format.
    public var format: Format = .live
    /// Whether stage decisions are shown; `nil` for the default (on in the live view only).
    public var explain: Bool?
    /// Print the conflict report and exit.
    public var conflicts = false
    /// With ``conflicts``: at every focusable item, not only the initial focus.
    public var allFocus = false
    /// Print the focus debugger's group tree and tab loop and exit.
    public var focusDebug = false
    /// Write what the live keyboard sends to this evemu file.
    public var recordPath: String?

    /// Creates default options: the demo scene, the live view, default input.
    public init() {}
}

/// A failure keytrace reports before or instead of tracing: the message names the input and
/// the fix. Exit status 2.
public struct KeytraceError: Error, CustomStringConvertible {
    /// The message.
    public var description: String

    /// Creates an error.
    ///
    /// - Parameter description: The message.
    public init(_ description: String) {
        self.description = description
    }
}

/// keytrace's behaviour behind the command line.
public enum Keytrace {
    /// Loads the scene the options name (or the demo).
    ///
    /// - Parameter options: The options.
    /// - Returns: The scene.
    /// - Throws: ``KeytraceError`` with the file, line, column and field of a malformed scene.
    public static func loadScene(_ options: KeytraceOptions) throws(KeytraceError) -> Scene {
        guard let path = options.scenePath else {
            do { return try Scene(json: DemoScene.json, file: DemoScene.fileName) } catch {
                throw KeytraceError("the built-in demo scene is broken: \(error)")
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KeytraceError("\(path): cannot read the scene file (does it exist? is it readable?)")
        }
        do { return try Scene(json: String(decoding: data, as: UTF8.self), file: path) } catch {
            throw KeytraceError("\(error)")
        }
    }

    /// The keyboard layout the options ask for: xkb, resolved from the options, the environment,
    /// `/etc/default/keyboard`, then `us`.
    ///
    /// - Parameter options: The options.
    /// - Returns: The layout and a note on where its names came from.
    /// - Throws: ``KeytraceError`` naming an unknown layout and the fix.
    public static func layout(_ options: KeytraceOptions) throws(KeytraceError) -> (any KeyboardLayout, String) {
        let (names, source) = options.keymap.resolved(environment: ProcessInfo.processInfo.environment)
        do {
            return (try XKBKeyboardLayout(names), source.rawValue)
        } catch {
            throw KeytraceError("\(error)")
        }
    }

    /// Runs keytrace.
    ///
    /// - Parameters:
    ///   - options: What to do.
    ///   - output: Where events go.
    /// - Returns: The exit status: 0, or 1 when `--conflicts` found conflicts.
    /// - Throws: ``KeytraceError`` for bad input (exit status 2).
    public static func run(_ options: KeytraceOptions, output: OutputBuffer = OutputBuffer()) throws(KeytraceError)
        -> Int32
    {
        let scene = try loadScene(options)
        let (layout, layoutSource) = try layout(options)
        if options.focusDebug || options.conflicts {
            let session = TraceSession(scene: scene, layout: layout, rightToLeft: options.rightToLeft) { _ in }
            session.start(input: "none", layout: layout.name)
            var status: Int32 = 0
            if options.focusDebug {
                output.line("scene \"\(scene.name)\", layout \(layout.name)")
                output.line(session.focusSystem.debugGroupTree)
                output.line(session.focusSystem.debugTabLoop)
            }
            if options.conflicts {
                status = conflictReport(session, allFocus: options.allFocus, output: output)
            }
            output.flush()
            return status
        }
        let json = options.format == .json
        let session = TraceSession(
            scene: scene, layout: layout, rightToLeft: options.rightToLeft,
            explain: options.explain ?? (options.format == .live)
        ) { event in
            if json {
                output.append { event.writeJSON(to: &$0) }
            } else {
                output.line(event.plainLine)
            }
        }
        let layoutNote = "\(layout.name) (\(layoutSource))"
        if let keys = options.keys {
            try typeKeys(keys, session: session, layout: layoutNote)
        } else if let path = options.replayPath {
            try replay(path, realTime: options.realTime, session: session, layout: layoutNote, output: output)
        } else {
            try readKeyboards(options, session: session, layout: layoutNote, output: output)
        }
        output.flush()
        return 0
    }

    static func typeKeys(_ keys: String, session: TraceSession, layout: String) throws(KeytraceError) {
        let chords: [KeyChord]
        do { chords = try KeyChord.parseSequence(keys) } catch { throw KeytraceError("--keys: \(error)") }
        session.deviceNames[.primary] = "keys"
        session.start(input: "keys", layout: layout)
        var clock = 0.0
        for chord in chords {
            clock += 0.1
            var time = clock
            func send(_ code: KeyCode, _ action: KeyAction) {
                session.dispatcher.handle(KeyEvent(code, action, device: .primary, timestamp: time))
                time += 0.01
            }
            let held = chord.modifierKeys
            for key in held { send(key, .down) }
            send(chord.code, .down)
            send(chord.code, .up)
            for key in held.reversed() { send(key, .up) }
        }
    }

    static func replay(
        _ path: String, realTime: Bool, session: TraceSession, layout: String, output: OutputBuffer
    ) throws(KeytraceError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KeytraceError("\(path): cannot read the recording (does it exist? is it readable?)")
        }
        let recording: EvemuRecording
        do { recording = try EvemuRecording(parsing: String(decoding: data, as: UTF8.self), file: path) } catch {
            throw KeytraceError("\(error)")
        }
        let device = DeviceID(rawValue: 1)
        session.deviceNames[device] = recording.name.isEmpty ? path : recording.name
        session.start(input: "replay \(path)", layout: layout, t: recording.events.first?.time ?? 0)
        recording.replay(into: session.dispatcher, device: device, speed: realTime ? .realTime : .asFastAsPossible) {
            output.flush()
            Thread.sleep(forTimeInterval: $0)
        }
    }

    static func readKeyboards(
        _ options: KeytraceOptions, session: TraceSession, layout: String, output: OutputBuffer
    ) throws(KeytraceError) {
        let loopOptions = KeyboardEventLoop.Options(devices: options.devices, hotPlug: true, grab: options.grab)
        let loop: KeyboardEventLoop
        do { loop = try KeyboardEventLoop(dispatcher: session.dispatcher, options: loopOptions) } catch {
            throw KeytraceError("\(error)")
        }
        var started = false
        loop.onChange = { change in
            let t = KeyboardEventLoop.monotonicNow - session.timeOrigin
            switch change {
            case .added(let keyboard):
                session.deviceNames[keyboard.id] = keyboard.name
                let detail =
                    "\(keyboard.kind), repeats: \(keyboard.repeatSource)" + (keyboard.isGrabbed ? ", grabbed" : "")
                session.emit(
                    TraceEvent(t: t, .device(change: "added", name: keyboard.name, path: keyboard.path, detail: detail))
                )
            case .removed:
                break  // The dispatcher's own record reports it, after the cancellations.
            case .failed(let path, let error):
                session.emit(TraceEvent(t: t, .device(change: "failed", name: path, path: path, detail: error.message)))
            case .hotPlugUnavailable(let error):
                session.emit(
                    TraceEvent(t: t, .device(change: "hotPlugUnavailable", name: "", path: nil, detail: error.message)))
            }
            if started { output.flush() }
        }
        session.timeOrigin = KeyboardEventLoop.monotonicNow
        session.start(input: "keyboards", layout: layout)
        do { try loop.start() } catch { throw KeytraceError("\(error)") }
        started = true
        if let path = options.recordPath {
            let keyboards = loop.keyboards
            guard keyboards.count == 1, let keyboard = keyboards.first, let header = loop.header(of: keyboard.id) else {
                throw KeytraceError(
                    "--record writes one keyboard, and \(keyboards.count) are open (\(keyboards.map(\.name).joined(separator: ", "))); choose one with --device"
                )
            }
            do { loop.record(keyboard.id, to: try EvemuRecorder(path: path, header: header)) } catch {
                throw KeytraceError("\(error)")
            }
        }
        loop.afterDispatch = { output.flush() }
        output.flush()
        do { try loop.run() } catch { throw KeytraceError("\(error)") }
    }

    static func conflictReport(_ session: TraceSession, allFocus: Bool, output: OutputBuffer) -> Int32 {
        var conflicts = 0
        func report(_ heading: String) {
            let report = KeyCommandConflictReport(session.dispatcher)
            conflicts += report.conflicts.count
            output.line(heading)
            output.line(report.description)
        }
        report("At the initial focus (\(session.focusedID ?? "nothing")):")
        if allFocus {
            let initial = session.focusedID
            for id in session.scene.nodeOrder where id != initial {
                guard let node = session.scene.nodes[id], node.isFocusable else { continue }
                guard session.focusSystem.requestFocus(on: node) else { continue }
                report("With \(id) focused:")
            }
        }
        output.line(conflicts == 0 ? "No conflicts." : "\(conflicts) conflicts.")
        return conflicts == 0 ? 0 : 1
    }
}
