internal import DispatchTrace
public import LinuxKeyboard
internal import LinuxSystem
internal import PlatformWayland
public import ResponderChain
import TerminalCanvas

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
    /// The seat whose keyboards are read (`--seat`).
    public var seatName: String?
    /// Whether the terminal is read even when keyboards are readable.
    public var terminal = false
    /// Whether keytrace runs in a window of the Wayland compositor `WAYLAND_DISPLAY` names: its
    /// seat is the input and the live view is drawn in the window.
    public var wayland = false
    /// xkb names; unset ones come from the environment, `/etc/default/keyboard`, or `us`.
    public var keymap = KeymapNames()
    /// Whether the window is right-to-left.
    public var rightToLeft = false
    /// The output format.
    public var format: Format = .live
    /// Whether stage decisions are shown; `nil` for the default (on in the live view only).
    public var explain: Bool?
    /// Whether keytrace speaks what a listener would hear, through speech-dispatcher (`--speak`):
    /// its scene narrated as an app with speech on narrates it, or, with ``attach``, what the app
    /// says; each utterance is an `announce` event in the trace.
    public var speak = false
    /// The environment `--speak` reads speech-dispatcher's address from (`SPEECHD_ADDRESS`, else
    /// `XDG_RUNTIME_DIR`) with `--keys`, `--replay` and `--attach`, in place of the process's; `nil`
    /// for the process's. Live input reads the process's, as every `KeyboardApp` does.
    public var speechEnvironment: [String: String]?
    /// Print the conflict report and exit.
    public var conflicts = false
    /// With ``conflicts``: at every focusable item, not only the initial focus.
    public var allFocus = false
    /// Print the focus debugger's group tree and tab loop and exit.
    public var focusDebug = false
    /// Write what the live keyboard sends to this evemu file.
    public var recordPath: String?
    /// List the input devices and exit (`--list-devices`).
    public var listDevices = false
    /// Print the built-in demo scene and exit (`--print-demo-scene`).
    public var printDemoScene = false
    /// Watch a running app through its inspection socket (`--attach`) instead of a scene.
    public var attach = false
    /// The app to attach to: its pid, or its name (exact, else a unique prefix); `nil` for the
    /// one app running. Only with ``attach``.
    public var attachTarget: String?
    /// List the running apps and exit (`--list-apps`).
    public var listApps = false
    /// The runtime directory whose `responderchain` folder holds the apps' sockets, in place of
    /// `$XDG_RUNTIME_DIR`; when set, only that folder is searched (not every user's, as root).
    public var runtimeDirectory: String?

    /// Creates default options: the demo scene, the live view, default input.
    public init() {}
}

/// A failure keytrace reports before or instead of tracing: the message names the input and
/// the fix. Exit status 2, or 74 when an output could not be written.
public struct KeytraceError: Error, CustomStringConvertible {
    /// The message; empty when there is nothing worth saying (the reader of a pipe went away).
    public var description: String
    /// The exit status: 2 for bad input, 74 (`EX_IOERR`) for an output that could not be written.
    public var exitStatus: Int32 = 2

    /// Creates an error.
    ///
    /// - Parameter description: The message.
    public init(_ description: String) {
        self.description = description
    }

    /// An output that could not be written: exit status 74, with the output, the reason and the
    /// fix; no message when the reader of a pipe went away (`keytrace … | head`).
    ///
    /// - Parameter error: What the output said.
    public init(writing error: OutputWriteError) {
        description = error.isBrokenPipe ? "" : "\(error)"
        exitStatus = 74
    }
}

/// Flags that do not go together, or a flag with an unusable value: the message names the flags
/// and what to write instead. Exit status 64.
public struct KeytraceUsageError: Error, CustomStringConvertible {
    /// The message.
    public var description: String

    /// Creates an error.
    ///
    /// - Parameter description: The message.
    public init(_ description: String) {
        self.description = description
    }
}

extension KeytraceOptions {
    /// The flags that were given, spelt as on the command line, in the order `--help` lists them.
    var givenFlags: [String] {
        let flags: [(String, Bool)] = [
            ("--scene", scenePath != nil), ("--keys", keys != nil), ("--replay", replayPath != nil),
            ("--real-time", realTime), ("--device", !devices.isEmpty), ("--grab", grab), ("--seat", seatName != nil),
            ("--terminal", terminal),
            ("--wayland", wayland),
            ("--layout", keymap.layout != nil), ("--variant", keymap.variant != nil), ("--model", keymap.model != nil),
            ("--xkb-options", keymap.options != nil), ("--rules", keymap.rules != nil), ("--rtl", rightToLeft),
            ("--json", format == .json), ("--plain", format == .plain),
            (explain == false ? "--no-explain" : "--explain", explain != nil), ("--speak", speak),
            ("--conflicts", conflicts),
            ("--all-focus", allFocus), ("--focus-debug", focusDebug), ("--record", recordPath != nil),
            ("--list-devices", listDevices), ("--print-demo-scene", printDemoScene), ("--attach", attach),
            ("--list-apps", listApps),
        ]
        return flags.filter(\.1).map(\.0)
    }

    /// Refuses flags that would be ignored and flag values that cannot be right, before anything
    /// is read.
    ///
    /// - Throws: ``KeytraceUsageError`` naming the flags and the fix.
    public func validate() throws(KeytraceUsageError) {
        try validateValues()
        let given = givenFlags
        try validateAttach(given: given)
        // Modes that print something and exit: every other flag would be ignored.
        for (mode, what) in [
            ("--print-demo-scene", "prints the demo scene"), ("--list-devices", "lists the devices"),
            ("--list-apps", "lists the running apps"),
        ]
        where given.contains(mode) {
            let others = given.filter { $0 != mode }
            guard others.isEmpty else {
                throw KeytraceUsageError(
                    "\(mode) \(what) and exits, so \(list(others)) would be ignored; run \(mode) on its own")
            }
        }
        // The reports read no input and write no trace.
        let traceFlags = [
            "--keys", "--replay", "--real-time", "--device", "--grab", "--terminal", "--record", "--json", "--plain",
            "--explain", "--no-explain", "--wayland", "--speak",
        ]
        for mode in ["--conflicts", "--focus-debug"] where given.contains(mode) {
            let ignored = given.filter(traceFlags.contains)
            guard ignored.isEmpty else {
                throw KeytraceUsageError(
                    "\(mode) prints a report of the scene and exits: it reads no keys and writes no trace, so "
                        + "\(list(ignored)) would be ignored; run them separately")
            }
        }
        let inputs = [keys != nil, replayPath != nil, terminal, !devices.isEmpty, wayland].filter { $0 }.count
        if inputs > 1 {
            throw KeytraceUsageError("choose one input: --keys, --replay, --terminal, --device or --wayland")
        }
        if realTime && replayPath == nil { throw KeytraceUsageError("--real-time goes with --replay") }
        let keymapFlags = given.filter(["--layout", "--variant", "--model", "--xkb-options", "--rules"].contains)
        if wayland && !keymapFlags.isEmpty {
            throw KeytraceUsageError(
                "with --wayland keys go through the compositor's keymap, so \(list(keymapFlags)) would be ignored; "
                    + "set the layout in the compositor (XKB_DEFAULT_LAYOUT for cage, `input * xkb_layout` for sway)")
        }
        if allFocus && !conflicts { throw KeytraceUsageError("--all-focus goes with --conflicts") }
        let notKeyboards = given.filter(["--keys", "--replay", "--terminal", "--wayland"].contains)
        if grab && !notKeyboards.isEmpty {
            throw KeytraceUsageError(
                "--grab grabs the keyboards, and \(list(notKeyboards)) reads none, so it would be ignored; drop --grab")
        }
        if seatName != nil && !notKeyboards.isEmpty {
            throw KeytraceUsageError(
                "--seat chooses whose keyboards are read, and \(list(notKeyboards)) reads none; drop --seat")
        }
        if recordPath != nil && !notKeyboards.isEmpty {
            throw KeytraceUsageError(
                "--record records live keyboards; it does not go with --keys, --replay, --terminal or --wayland")
        }
        if keymap.variant != nil && keymap.layout == nil {
            throw KeytraceUsageError(
                "--variant needs --layout, e.g. --layout us --variant dvorak (a variant belongs to a layout)")
        }
    }

    /// `a, b and c`.
    func list(_ flags: [String]) -> String {
        flags.count < 2 ? flags.joined() : flags.dropLast().joined(separator: ", ") + " and " + flags.last!
    }

    /// The flags that choose keytrace's own input or scene: `--attach` watches the app's.
    static let notWithAttach = [
        "--scene", "--keys", "--replay", "--real-time", "--device", "--grab", "--seat", "--terminal", "--layout",
        "--variant", "--model", "--xkb-options", "--rules", "--rtl", "--record", "--list-devices", "--print-demo-scene",
        "--wayland",
    ]

    /// Refuses a target without `--attach`, an empty one, and input or scene flags with it.
    private func validateAttach(given: [String]) throws(KeytraceUsageError) {
        if let target = attachTarget {
            guard attach else {
                throw KeytraceUsageError(
                    "\"\(target)\" names an app to attach to, which goes with --attach: keytrace --attach \(target)")
            }
            guard !target.isEmpty else {
                throw KeytraceUsageError(
                    "--attach \"\": an empty name; give the app's pid or name, or none for the one app running")
            }
        }
        guard attach else { return }
        let ignored = given.filter(Self.notWithAttach.contains)
        guard ignored.isEmpty else {
            throw KeytraceUsageError(
                "--attach watches a running app's own input, layout and tree, so \(list(ignored)) would be ignored; "
                    + "drop \(ignored.count == 1 ? "it" : "them") (keytrace never sends input into the app)")
        }
    }

    /// Refuses empty paths and names: each would silently mean something else (the default
    /// layout, every device).
    private func validateValues() throws(KeytraceUsageError) {
        let paths: [(String, String?, String)] = [
            ("--scene", scenePath, "the scene's file name"), ("--replay", replayPath, "the recording's file name"),
            ("--record", recordPath, "the file to write the recording to"),
        ]
        for (flag, value, fix) in paths where value == "" {
            throw KeytraceUsageError("\(flag) \"\": an empty path; give \(fix)")
        }
        if seatName == "" { throw KeytraceUsageError("--seat \"\": an empty name; give a seat, e.g. seat0") }
        if devices.contains("") {
            throw KeytraceUsageError("--device \"\": an empty name; give a device path or part of its name")
        }
        let names: [(String, String?, String)] = [
            ("--layout", keymap.layout, "us or de"), ("--variant", keymap.variant, "dvorak or nodeadkeys"),
            ("--model", keymap.model, "pc105"), ("--xkb-options", keymap.options, "ctrl:nocaps"),
            ("--rules", keymap.rules, "evdev"),
        ]
        for (flag, value, example) in names where value == "" {
            throw KeytraceUsageError(
                "\(flag) \"\": an empty name; give one such as \(example), or leave \(flag) out for the default")
        }
    }
}

/// keytrace's behaviour behind the command line.
@MainActor
public enum Keytrace {
    /// Loads the scene the options name (or the demo).
    ///
    /// - Parameter options: The options.
    /// - Returns: The scene.
    /// - Throws: ``KeytraceError`` with the file, line, column and field of a malformed scene, or
    ///   why the file cannot be read (see `Scene.load(contentsOfFile:)` in LinuxKeyboard).
    public static func loadScene(_ options: KeytraceOptions) throws(KeytraceError) -> Scene {
        guard let path = options.scenePath else {
            do { return try Scene(json: DemoScene.json, file: DemoScene.fileName) } catch {
                throw KeytraceError("the built-in demo scene is broken: \(error)")
            }
        }
        do { return try Scene.load(contentsOfFile: path) } catch {
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
        let (names, source) = options.keymap.resolved(environment: Syscalls.processEnvironment())
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
    ///   - diagnostics: Where `--attach` says what is not an event (the app exited, with `--json`;
    ///     the apps to choose from); standard error when `nil`.
    /// - Returns: The exit status: 0, or 1 when `--conflicts` found conflicts.
    /// - Throws: ``KeytraceError`` for bad input (exit status 2).
    public static func run(
        _ options: KeytraceOptions, output: OutputBuffer = OutputBuffer(), diagnostics: OutputBuffer? = nil
    ) throws(KeytraceError) -> Int32 {
        // A closed standard output fails before anything is opened (a file opened now would get
        // its descriptor, and the output would go into it).
        if let error = output.writeError { throw KeytraceError(writing: error) }
        let status = try runChecked(
            options, output: output, diagnostics: diagnostics ?? OutputBuffer(descriptor: 2, limit: 1 << 12))
        do { try output.finish() } catch { throw KeytraceError(writing: error) }
        return status
    }

    /// ``run(_:output:diagnostics:)`` without the output check at either end.
    static func runChecked(_ options: KeytraceOptions, output: OutputBuffer, diagnostics: OutputBuffer)
        throws(KeytraceError) -> Int32
    {
        if options.printDemoScene {
            output.line(DemoScene.json)
            output.flush()
            return 0
        }
        if options.listDevices { return try listDevices(output: output) }
        if options.listApps { return listApps(options, output: output) }
        if options.attach { return try attach(options, output: output, diagnostics: diagnostics) }
        let scene = try loadScene(options)
        if options.focusDebug || options.conflicts {
            let (layout, _) = try layout(options)
            let session = TraceSession(scene: scene, layout: layout, rightToLeft: options.rightToLeft) { _ in }
            session.start(input: "none", layout: layout.name)
            return report(session, scene: scene, layout: layout.name, options: options, output: output)
        }
        let json = options.format == .json
        let onEvent: (TraceEvent) -> Void = { event in
            if json {
                output.append { event.writeJSON(to: &$0) }
            } else {
                output.line(event.plainLine)
            }
        }
        let explain = options.explain ?? (options.format == .live)
        guard options.keys != nil || options.replayPath != nil else {
            try runInteractive(options, scene: scene, explain: explain, output: output, onEvent: onEvent)
            output.flush()
            return 0
        }
        let (layout, layoutSource) = try layout(options)
        let session = TraceSession(
            scene: scene, layout: layout, rightToLeft: options.rightToLeft, explain: explain, onEvent: onEvent)
        let layoutNote = "\(layout.name) (\(layoutSource))"
        // Made before the session starts: its initial focus is spoken, as in an app.
        let speech =
            options.speak
            ? try narrate(session, environment: options.speechEnvironment, diagnostics: diagnostics) : nil
        if let keys = options.keys {
            try typeKeys(keys, session: session, layout: layoutNote)
        } else if let path = options.replayPath {
            try replay(
                path, realTime: options.realTime, session: session, layout: layoutNote, output: output,
                voice: speech?.voice)
        }
        output.flush()
        // keytrace exits now: what it said reaches the daemon first (bounded: 2 s).
        speech?.voice?.handOver()
        withExtendedLifetime(speech) {}
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
        _ path: String, realTime: Bool, session: TraceSession, layout: String, output: OutputBuffer,
        voice: KeytraceVoice? = nil
    ) throws(KeytraceError) {
        let recording: EvemuRecording
        do { recording = try EvemuRecording(contentsOfFile: path) } catch { throw KeytraceError("\(error)") }
        let device = DeviceID(rawValue: 1)
        session.deviceNames[device] = recording.name.isEmpty ? path : recording.name
        session.start(input: "replay \(path)", layout: layout, t: recording.events.first?.time ?? 0)
        recording.replay(into: session.dispatcher, device: device, speed: realTime ? .realTime : .asFastAsPossible) {
            output.flush()
            // With --speak, the pause runs the voice's loop: what was said goes out on time.
            if let voice { voice.pause($0) } else { Syscalls.sleep(seconds: $0) }
        }
    }

    /// Live input through `KeyboardApp`: the keyboards, or the terminal; drawn in the live view
    /// or written as lines.
    static func runInteractive(
        _ options: KeytraceOptions, scene: Scene, explain: Bool, output: OutputBuffer,
        onEvent: @escaping (TraceEvent) -> Void
    ) throws(KeytraceError) {
        let live = options.format == .live && (options.wayland || TerminalKeyboard.isTerminal(1))
        // In a window the view is drawn whatever the output's format: a window never drawn is never
        // shown, and the compositor gives no keyboard focus to it.
        let drawsView = live || options.wayland
        var configuration = KeyboardApp.Configuration()
        // keytrace watches from its terminal (the console platform) unless asked for a window
        // (--wayland), and never takes the display, also when it runs with no terminal (`--json`
        // from a script).
        var window = WaylandPlatform.Options()
        window.window.title = "keytrace"
        let platforms: [any AppPlatform] = options.wayland ? [WaylandPlatform(options: window)] : [ConsolePlatform()]
        configuration.input =
            options.terminal
            ? .terminal
            : (!options.devices.isEmpty || options.grab || options.seatName != nil || options.recordPath != nil)
                ? .keyboards : .automatic
        configuration.devices = options.devices
        configuration.grab = options.grab
        configuration.seatName = options.seatName
        configuration.keymap = options.keymap
        configuration.usesTerminalForOutput = live && !options.wayland
        configuration.fullScreen = live && !options.wayland
        // keytrace shows its own dispatch already; it is the watcher, not an app to attach to.
        configuration.inspection.isEnabled = false
        configuration.quitCommand = KeyCommand("c", modifierFlags: .control, action: "quit", title: "keytrace: quit")
        if options.speak { configuration.speech = liveSpeechOptions }
        if options.rightToLeft { scene.window.layoutDirection = .rightToLeft }
        let app: KeyboardApp
        do {
            app = try KeyboardApp(
                window: scene.window, root: scene.root, configuration: configuration, platforms: platforms)
        } catch {
            throw KeytraceError("\(error)")
        }
        let session = TraceSession(
            scene: scene, dispatcher: app.dispatcher, focusSystem: app.focusSystem, explain: explain, onEvent: onEvent)
        let view =
            drawsView
            ? LiveView(session: session, scene: scene, input: "keyboards", layout: app.layout?.name ?? "terminal") : nil
        // A speech problem is one line on standard error; in the live view on the terminal, after the
        // terminal is given back (the view would draw over it), and the status line says so meanwhile.
        let holdsProblems = live && !options.wayland
        var speechProblems: [String] = []
        narrateLive(app, session: session) { line in
            guard holdsProblems else {
                printError(line)
                return
            }
            if speechProblems.isEmpty { view?.speechNote = "no speech (why: on exit)" }
            speechProblems.append(line)
        }
        var drawn = -1
        var recorder: EvemuRecorder?
        func draw(force: Bool) {
            // A frame held back until it was dispatched (see EvemuRecorder.isSecureEntry).
            recorder?.flush()
            // A recording that cannot be written is not worth watching on: stop and say why.
            if recorder?.writeError != nil { app.stop() }
            if !live {
                output.flush()
                // Lines nobody can read: stop, and say why (run() reports the output's error).
                if output.writeError != nil { app.stop() }
            }
            guard let view, let screen = app.output else { return }
            // The compositor's keymap comes after the start, and again with every virtual keyboard.
            if app.wayland != nil { view.layoutName = app.dispatcher.layout.name }
            let marker = session.history.count &+ (view.showsTabLoop ? 1 << 40 : 0) &+ (view.showsGroups ? 1 << 41 : 0)
            guard force || marker != drawn else { return }
            drawn = marker
            let size = screen.size ?? (80, 24)
            screen.show(view.canvas(columns: size.columns, rows: size.rows))
        }
        func report(_ change: KeyboardApp.Change) {
            session.report(change)
            if case .resized = change {
                app.output?.invalidate()
                draw(force: true)
            }
        }
        // Keyboards opened before the session starts are reported after its session event.
        app.onChange = { change in report(change) }
        session.timeOrigin = EventLoop.monotonicNow
        do { try app.openInput() } catch { throw KeytraceError("\(error)") }
        let input = app.input ?? .keyboards
        view?.inputNote = input.rawValue
        if input == .terminal { view?.layoutName = "terminal" }
        session.keepsHistory = drawsView
        output.isMuted = live
        if input == .terminal { session.deviceNames[.primary] = "terminal" }
        session.start(
            input: input.rawValue, layout: app.layoutDescription,
            note: input == .terminal ? app.inputNote : nil)

        if let path = options.recordPath {
            let keyboards = app.keyboards?.keyboards ?? []
            guard keyboards.count == 1, let keyboard = keyboards.first,
                let header = app.keyboards?.header(of: keyboard.id)
            else {
                app.terminal?.restore()
                throw KeytraceError(
                    ("--record writes one keyboard, and \(keyboards.count) are open "
                        + "(\(keyboards.map(\.name).joined(separator: ", "))); choose one with --device")
                        .escapingControlCharacters())
            }
            do { recorder = try EvemuRecorder(path: path, header: header) } catch {
                app.terminal?.restore()
                throw KeytraceError("\(error)")
            }
            // Keys typed into a secure field are left out, with a comment that says so: every
            // other output redacts them, and the rest of the session still replays.
            let dispatcher = app.dispatcher
            recorder?.isSecureEntry = { [weak dispatcher] in dispatcher?.isSecureEntry ?? true }
            app.keyboards?.record(keyboard.id, to: recorder)
        }
        if let view {
            reserveOverlayKeys(on: app.dispatcher, tabLoop: { view.showsTabLoop.toggle() }) {
                view.showsGroups.toggle()
            }
        }
        app.onFrame = { draw(force: false) }
        draw(force: true)
        do { try app.run() } catch {
            for line in speechProblems { printError(line) }
            throw KeytraceError("\(error)")
        }
        for line in speechProblems { printError(line) }
        recorder?.finish()
        output.flush()
        if let error = recorder?.writeError {
            var failure = KeytraceError("--record: \(error)")
            failure.exitStatus = 74
            throw failure
        }
    }

    /// `--list-devices`: every input device, whether it counts as a keyboard (a keypad, a remote
    /// control) or a gamepad, why it cannot be opened, and the stable links that `--device` can name.
    static func listDevices(output: OutputBuffer) throws(KeytraceError) -> Int32 {
        let devices: [DiscoveredDevice]
        do { devices = try KeyboardDiscovery.inputDevices() } catch { throw KeytraceError("\(error)") }
        var keyboards = 0
        var gamepads = 0
        for device in devices {
            let what: String
            if let error = device.openError {
                what = "cannot open: \(error.message)"
            } else if let kind = device.kind, kind != .none {
                if kind == .gamepad { gamepads += 1 } else { keyboards += 1 }
                what =
                    "\(kind)"
                    + (device.taggedByUdev ? " (udev tag)" : kind == .gamepad ? " (its buttons)" : " (its keys)")
            } else {
                what = "not a keyboard"
            }
            output.line("\(device.path)  \"\(device.name)\"  \(what)".escapingControlCharacters())
            for link in device.links { output.line("    \(link.escapingControlCharacters())") }
        }
        let udev =
            KeyboardDiscovery.udevIsRunning
            ? "udevd runs: hot-plug from udev, stable links in /dev/input/by-id and by-path"
            : "no udevd: hot-plug from the kernel, no stable links"
        output.line(
            "\(devices.count) input device\(devices.count == 1 ? "" : "s"), \(keyboards) keyboard\(keyboards == 1 ? "" : "s")"
                + (gamepads == 0 ? "" : ", \(gamepads) gamepad\(gamepads == 1 ? "" : "s")") + "; \(udev)"
        )
        output.flush()
        return 0
    }

    /// `--focus-debug` and `--conflicts` on a session whose focus is set.
    ///
    /// - Returns: The exit status: 1 when `--conflicts` found conflicts.
    static func report(
        _ session: TraceSession, scene: Scene, layout: String, options: KeytraceOptions, output: OutputBuffer
    ) -> Int32 {
        var status: Int32 = 0
        if options.focusDebug {
            output.line("scene \"\(scene.name)\", layout \(layout)".escapingControlCharacters())
            output.line(session.focusSystem.debugGroupTree)
            output.line(session.focusSystem.debugTabLoop)
        }
        if options.conflicts {
            status = conflictReport(session, scene: scene, allFocus: options.allFocus, output: output)
        }
        output.flush()
        return status
    }

    static func conflictReport(_ session: TraceSession, scene: Scene, allFocus: Bool, output: OutputBuffer) -> Int32 {
        var conflicts = 0
        func report(_ heading: String) {
            let report = KeyCommandConflictReport(session.dispatcher)
            conflicts += report.conflicts.count
            output.line(heading.escapingControlCharacters())
            // Its lines are made on purpose; `line` escapes every other control character.
            output.line(report.description)
        }
        report("At the initial focus (\(session.focusedID ?? "nothing")):")
        // Where a tap or a click lands does not depend on focus: one report, before focus moves.
        let targets = PointerTargetReport(session.focusSystem)
        if allFocus {
            let initial = session.focusedID
            for id in scene.nodeOrder where id != initial {
                guard let node = scene.nodes[id], node.isFocusable else { continue }
                guard session.focusSystem.requestFocus(on: node) else { continue }
                report("With \(id) focused:")
            }
        }
        conflicts += targets.conflicts.count
        output.line(targets.description)
        // A target too small for a finger fails the check as a conflict does: a kiosk's CI catches it.
        let small = targets.tooSmall.count
        var verdict = conflicts == 0 ? "No conflicts" : "\(conflicts) conflicts"
        if small > 0 { verdict += ", \(small) target\(small == 1 ? "" : "s") too small for a finger" }
        output.line(verdict + ".")
        return conflicts == 0 && small == 0 ? 0 : 1
    }
}

/// Writes text (a help text) to standard output, with its control characters other than line
/// feeds escaped, and says so on standard error when it could not be written.
///
/// - Parameter text: The text, without its last newline; nothing is written when it is empty.
/// - Returns: The exit status: 0, or 74 when standard output could not be written.
public func printOutput(_ text: String) -> Int32 {
    let output = OutputBuffer()
    if !text.isEmpty { output.line(text) }
    do { try output.finish() } catch {
        if !error.isBrokenPipe { printError("keytrace: \(error)") }
        return 74
    }
    return 0
}

/// Ends keytrace with an exit status, once its output is written.
///
/// - Parameter status: The exit status.
public func exitKeytrace(_ status: Int32) -> Never {
    Syscalls.exit(status)
}

/// Writes a line to standard error, with its control characters other than line feeds escaped
/// (`OutputBuffer/line(_:)`).
///
/// - Parameter message: The line, without its newline.
public func printError(_ message: String) {
    let output = OutputBuffer(descriptor: 2, limit: 1 << 12)
    output.line(message)
    output.flush()
}
