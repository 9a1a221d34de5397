import DispatchTrace
import Glibc
import Graphics
package import LinuxKeyboard
import ResponderChain
import TerminalCanvas

// A self-service check-in kiosk, built only on the public API: KeyboardApp runs it on the platforms
// its build links (kiosk-example: a Wayland window, the display, the console; kiosk-console-example:
// the console alone, linking no graphics). Kiosk.swift holds its focus tree and behaviour,
// Rendering.swift draws it on a TerminalCanvas, Graphical/ draws it in points where the output is
// pixels (its nodes drawing themselves), and --trace writes keytrace's JSON lines.

let usage = """
    usage: kiosk-example [--wayland | --keyboards | --terminal] [--display] [--grab] [--device DEVICE]...
                         [--layout NAME] [--variant NAME] [--trace FILE] [--seat NAME] [--speak]
                         [--ready-file FILE] [--frame-log FILE] [--cells] [--on-screen-keyboard] [--rtl]
           kiosk-example --snapshot FILE [--size WxH[@SCALE]] [--screen NAME] [--rtl] [--keyboard]
      --wayland       run in a window of the Wayland compositor WAYLAND_DISPLAY names, on its seat
                      (default: when WAYLAND_DISPLAY is set; else the keyboards when readable,
                      else the terminal)
      --display       draw straight on the display (DRM/KMS, no compositor) through the seat
                      (seatd or logind), the keyboards on the same seat (default: when started
                      with no terminal and no compositor, as a systemd service, and a display
                      is connected)
      --keyboards     read the keyboards through evdev
      --terminal      read the terminal
      --grab          take the keyboards for the kiosk alone: their keys stop reaching the console
      --device DEVICE read this keyboard only: its path or its name (repeatable)
      --layout NAME   the keyboard layout (default: XKB_DEFAULT_LAYOUT, /etc/default/keyboard, us)
      --variant NAME  the layout's variant
      --trace FILE    write keytrace's JSON lines for the kiosk's window to FILE
      --seat NAME     read the keyboards of this seat (udev ID_SEAT; default: libseat's, else seat0)
      --ready-file FILE  create FILE once the first frame is on the display (for scripts)
      --frame-log FILE   write a line for every frame on the display: its number, when drawing
                         started and when it was shown (CLOCK_MONOTONIC seconds), rows copied
      --speak         speak from the start through speech-dispatcher (SPEECHD_ADDRESS, else its
                      default socket); Ctrl+Alt+S turns speech on and off at any time, F1 lists
                      the listener's other keys
      --cells         on a screen (a window, the display), draw the terminal's cells instead of
                      the kiosk's graphical face
      --on-screen-keyboard  show the on-screen keyboard for text fields even with a keyboard
                      attached (it shows by itself when none is)
      --rtl           the graphical face in Hebrew, mirrored: right to left (not with --cells:
                      the terminal's face is English)
      --snapshot FILE draw the graphical face offscreen into the PNG file FILE and exit: a screen
                      (--screen home, checkin, pin, dialog, directory or help; home by default) at a
                      size in pixels (--size 1920x1080, or 1920x1080@2 for 960x540 points at
                      scale 2; 1280x800 by default), in Hebrew, mirrored (--rtl), with no
                      keyboard attached, so that the on-screen keyboard shows (--keyboard)
    keytrace --attach watches the running kiosk from another terminal or over SSH
    (RESPONDERCHAIN_INSPECT=0 in the environment turns that off).
    """

/// Says something on standard error; control characters in it (from an argument, a file name,
/// an environment variable) are escaped by `OutputBuffer.line`.
package func printError(_ message: String) {
    let output = OutputBuffer(descriptor: 2)
    // The program's file name: kiosk-example, or kiosk-console-example.
    let program = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? "kiosk-example"
    output.line("\(program): \(message)")
    output.flush()
}

/// Says why on standard error and exits.
///
/// - Parameters:
///   - message: What went wrong and the fix.
///   - status: The exit status (2: the command line or the start).
package func fail(_ message: String, status: Int32 = 2) -> Never {
    printError(message)
    exit(status)
}

/// The platform the command line asks for: whichever runs here (the default), or one alone.
package enum PlatformChoice: String, Sendable {
    case automatic, wayland, display, console
}

/// What differs between the kiosk's builds: the platforms they link.
package struct KioskBuild {
    /// The platforms for what the command line asks; `nil` when this build has not linked it.
    package var platforms: @MainActor (PlatformChoice) -> [any AppPlatform]?
    /// Sets up what only the display has (its changes, `--frame-log`, `--ready-file`) once the app
    /// is made; returns whether the app runs on the display. `nil`: this build has no display.
    package var setUpDisplay: (@MainActor (KeyboardApp, _ frameLog: String?, _ ready: String?) -> Bool)?
    /// The connector the app shows on (`HDMI-A-1`), for the status line.
    package var connector: @MainActor (KeyboardApp) -> String?
    /// Draws a staged screen of the graphical face into a PNG file (`--snapshot`); `nil`: this build
    /// links no graphics. Throws what went wrong, to be said on standard error.
    package var snapshot: (@MainActor (KioskStage, KioskSnapshotRequest) throws -> Void)?

    /// A build.
    ///
    /// - Parameters:
    ///   - platforms: The platforms for a choice, `nil` when not linked.
    ///   - setUpDisplay: The display's setup, when the build links it.
    ///   - connector: The connector's name.
    ///   - snapshot: Draws a snapshot, when the build links graphics.
    package init(
        platforms: @escaping @MainActor (PlatformChoice) -> [any AppPlatform]?,
        setUpDisplay: (@MainActor (KeyboardApp, String?, String?) -> Bool)? = nil,
        connector: @escaping @MainActor (KeyboardApp) -> String? = { _ in nil },
        snapshot: (@MainActor (KioskStage, KioskSnapshotRequest) throws -> Void)? = nil
    ) {
        self.platforms = platforms
        self.setUpDisplay = setUpDisplay
        self.connector = connector
        self.snapshot = snapshot
    }
}

/// What the command line asks for besides the app's configuration: the platform, files to write.
struct Files {
    var platform = PlatformChoice.automatic
    var trace: String?
    var ready: String?
    var frameLog: String?
    /// A snapshot to draw instead of running (`--snapshot`).
    var snapshot: KioskSnapshotRequest?
    /// Whether the on-screen keyboard shows with a keyboard attached too.
    var alwaysShowsKeyboard = false
    /// Whether the graphical face is the Hebrew one, mirrored (`--rtl`).
    var rightToLeft = false
}

func parseArguments(_ list: [String]) -> (KeyboardApp.Configuration, Files) {
    var configuration = KeyboardApp.Configuration()
    configuration.fullScreen = true
    configuration.initialLocks = .numLock  // the PIN pad is the keypad
    // Usable by ear: a narrator, silent until --speak or Ctrl+Alt+S.
    configuration.speech = KeyboardApp.SpeechOptions()
    // On a screen that shows pixels, the kiosk's graphical face (--cells: the terminal's).
    configuration.screenDrawing = .nodes
    var files = Files()
    var snapshot = (path: String?.none, size: String?.none, screen: String?.none, rtl: false, keyboard: false)
    var arguments = list[...]
    func value(after flag: String) -> String {
        guard let value = arguments.popFirst(), !value.hasPrefix("--") else { fail("\(flag) needs a value\n\(usage)") }
        return value
    }
    var platformFlags: [String] = []
    while let argument = arguments.popFirst() {
        if ["--wayland", "--display", "--keyboards", "--terminal"].contains(argument) {
            platformFlags.append(argument)
            if platformFlags.count > 1 {
                fail("\(platformFlags.joined(separator: " and ")): choose one (each names where the kiosk runs)")
            }
        }
        switch argument {
        case "--wayland": files.platform = .wayland
        case "--keyboards":
            configuration.input = .keyboards
            files.platform = .console
        case "--terminal":
            configuration.input = .terminal
            files.platform = .console
        case "--display": files.platform = .display
        case "--ready-file": files.ready = value(after: argument)
        case "--frame-log": files.frameLog = value(after: argument)
        case "--grab": configuration.grab = true
        case "--device": configuration.devices.append(value(after: argument))
        case "--layout": configuration.keymap.layout = value(after: argument)
        case "--variant": configuration.keymap.variant = value(after: argument)
        case "--trace": files.trace = value(after: argument)
        case "--seat": configuration.seatName = value(after: argument)
        case "--speak": configuration.speech?.startsSpeaking = true
        case "--cells": configuration.screenDrawing = .canvas
        case "--on-screen-keyboard": files.alwaysShowsKeyboard = true
        case "--snapshot": snapshot.path = value(after: argument)
        case "--size": snapshot.size = value(after: argument)
        case "--screen": snapshot.screen = value(after: argument)
        case "--rtl": snapshot.rtl = true
        case "--keyboard": snapshot.keyboard = true
        case "--help", "-h":
            print(usage)
            exit(0)
        default: fail("unknown argument \"\(argument.escapingControlCharacters())\"\n\(usage)")
        }
    }
    if let path = snapshot.path {
        var request = KioskSnapshotRequest(path: path, rightToLeft: snapshot.rtl, showsKeyboard: snapshot.keyboard)
        if let text = snapshot.size {
            guard let (size, scale) = KioskSnapshotRequest.parseSize(text) else {
                fail("--size \(text.escapingControlCharacters()): give the size in pixels, as 1920x1080 or 1920x1080@2")
            }
            (request.size, request.scale) = (size, scale)
        }
        if let name = snapshot.screen {
            guard let screen = KioskSnapshotRequest.Screen(rawValue: name) else {
                let names = KioskSnapshotRequest.Screen.allCases.map(\.rawValue).joined(separator: ", ")
                fail("--screen \(name.escapingControlCharacters()): one of \(names)")
            }
            request.screen = screen
        }
        files.snapshot = request
    } else if snapshot.size != nil || snapshot.screen != nil || snapshot.keyboard {
        fail("--size, --screen and --keyboard go with --snapshot FILE")
    } else {
        files.rightToLeft = snapshot.rtl
    }
    return (configuration, files)
}

/// Runs the kiosk as its command line asks, on the platforms the build links, and exits.
///
/// - Parameter build: What the build links.
@MainActor package func runKiosk(_ build: KioskBuild) -> Never {
    let (configuration, files) = parseArguments(Array(CommandLine.arguments.dropFirst()))
    if let request = files.snapshot {
        guard let snapshot = build.snapshot else {
            fail("--snapshot: this build runs on the console alone and links no graphics; kiosk-example draws it")
        }
        do { try snapshot(KioskStage(request), request) } catch { fail("--snapshot: \(error)", status: 1) }
        exit(0)
    }
    let tracePath = files.trace
    if configuration.grab && configuration.input == .terminal {
        fail("--grab takes keyboards; it cannot go with --terminal")
    }
    guard let platforms = build.platforms(files.platform) else {
        fail(
            "--\(files.platform.rawValue): this build runs on the console alone and links no graphics; "
                + "kiosk-example runs in a window and on the display")
    }
    let kiosk = Kiosk()
    let app: KeyboardApp
    do {
        app = try KeyboardApp(
            window: kiosk.window, root: kiosk.root, configuration: configuration, platforms: platforms)
    } catch {
        fail("\(error)")
    }
    var trace: (output: OutputBuffer, session: TraceSession)?
    if let tracePath {
        do {
            let output = try OutputBuffer(path: tracePath)
            let session = TraceSession(
                name: "kiosk", window: kiosk.window, dispatcher: app.dispatcher, focusSystem: app.focusSystem,
                explain: true
            ) { event in output.append { event.writeJSON(to: &$0) } }
            session.timeOrigin = EventLoop.monotonicNow
            trace = (output, session)
        } catch { fail("--trace: \(error)") }
    }

    kiosk.activeKeyCommands = { app.dispatcher.discoverableKeyCommands() }
    // Keyboards attached now, for the on-screen keyboard (a full keyboard: not a keypad or a remote).
    var keyboards: Set<DeviceID> = []
    // A compositor seat's keyboard (no device path): whether a real one is plugged in is unknown.
    var seatKeyboards: Set<DeviceID> = []
    if let output = app.application.nodeOutput {
        let size = output.pointSize.map { Size(width: $0.width, height: $0.height) } ?? Size(width: 1280, height: 800)
        kiosk.useGraphicalFace(size: size, language: files.rightToLeft ? .hebrew : .english)
        let keyboard = OnScreenKeyboard(
            layout: app.layout ?? app.application.layout, sink: app.application.inputContext.sink,
            device: app.application.inputContext.makeDeviceID(), theme: KioskAppearance.riverside)
        let always = files.alwaysShowsKeyboard
        keyboard.hasHardwareKeyboard = {
            if always { return false }
            if !keyboards.isEmpty || app.keyboards?.keyboards.contains(where: { $0.kind == .keyboard }) == true {
                return true
            }
            // A compositor's seat reports a keyboard whether one is plugged in or not: the
            // keyboard shows for a field a finger focused.
            return seatKeyboards.isEmpty ? false : nil
        }
        keyboard.clock = { EventLoop.monotonicNow }
        kiosk.attachKeyboard(keyboard, focusSystem: app.focusSystem)
    }
    if files.rightToLeft && app.application.nodeOutput == nil {
        fail(
            "--rtl: the Hebrew face is the graphical one, on a window or the display; "
                + "--cells and a terminal are English")
    }
    // What the narrator says goes to --trace too, also with speech off: the trace shows what a
    // listener would hear (keytrace --attach watchers get what it says while speech is on).
    if let narrator = app.narrator, let session = trace?.session {
        narrator.describesWhileSilent = { true }
        let shown = narrator.onUtterance
        narrator.onUtterance = { utterance in
            shown?(utterance)
            session.emit(
                TraceEvent(
                    t: EventLoop.monotonicNow - session.timeOrigin,
                    .announce(
                        text: utterance.isSecret ? .redacted : .value(utterance.text), kind: utterance.kind.rawValue,
                        priority: utterance.priority.ssipName)))
        }
    }
    // What goes wrong while the kiosk runs (speech that cannot reach speech-dispatcher, the trace, a
    // keyboard, the display) goes through app.report: on the message line here, and on standard error
    // unless that is the terminal the kiosk draws on (then when the terminal is given back).
    app.onMessage = { message in kiosk.message = message }
    var renderer = KioskRenderer(kiosk: kiosk, dispatcher: app.dispatcher, focusSystem: app.focusSystem, inputNote: "")
    var resuming = false  // between the seat's enable and the next frame
    var traceFailed = false
    app.onFrame = {
        resuming = false
        trace?.output.flush()
        if !traceFailed, let error = trace?.output.writeError {
            // The kiosk goes on (its customers matter more than its trace); it says so once on
            // standard error, with the file and the reason, and on screen in a sentence that shows no
            // path to the public, and again when it ends.
            traceFailed = true
            app.report("--trace: \(error); the trace stops here, the kiosk goes on")
            kiosk.message = "The trace could not be written; the kiosk goes on."
        }
        // The output: a Wayland window, or the terminal.
        guard let output = app.output else { return }
        let size = output.size ?? (80, 24)
        let capped = (min(size.columns, Canvas.maximumSide), min(size.rows, Canvas.maximumSide))
        if capped.0 != kiosk.size.columns || capped.1 != kiosk.size.rows {
            kiosk.layout(columns: capped.0, rows: capped.1)
        }
        output.show(renderer.canvas(columns: size.columns, rows: size.rows))
    }

    // Holding Super for a second shows the help overlay, as iPadOS shows its shortcut overlay; it
    // goes away when Super is released.
    var superHold: Task<Void, Never>?
    var helpFromSuper = false
    _ = kiosk.root.onKeyPress([.leftMeta, .rightMeta], phases: [.down, .up]) { press in
        if press.phase == .down {
            superHold?.cancel()
            superHold = Task { @MainActor in
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
                if !kiosk.showsHelp {
                    kiosk.showsHelp = true
                    helpFromSuper = true
                    app.setNeedsFrame()
                }
            }
        } else {
            superHold?.cancel()
            superHold = nil
            if helpFromSuper {
                kiosk.showsHelp = false
                helpFromSuper = false
            }
        }
        return .ignored
    }

    @MainActor func endSuperHold() {
        superHold?.cancel()
        superHold = nil
        if helpFromSuper {
            kiosk.showsHelp = false
            helpFromSuper = false
        }
    }

    app.onChange = { change in
        trace?.session.report(change)
        switch change {
        case .deviceAdded(let keyboard):
            if keyboard.detail.hasPrefix("keyboard") {
                if keyboard.path == nil { seatKeyboards.insert(keyboard.id) } else { keyboards.insert(keyboard.id) }
            }
            // The seat's keyboards coming back are no news after "Welcome back".
            guard !resuming else { break }
            let grabbed = app.keyboards?.keyboards.first { $0.id == keyboard.id }?.isGrabbed ?? false
            // A compositor's seat has a pointer and a touch screen too.
            let pointing = keyboard.detail.hasPrefix("pointer") || keyboard.detail.hasPrefix("touch")
            let what = pointing ? "Connected" : "Keyboard connected"
            kiosk.message = "\(what): \(keyboard.name)\(grabbed ? " (grabbed)" : "")."
        case .deviceRemoved(let keyboard, let cancelled):
            keyboards.remove(keyboard.id)
            seatKeyboards.remove(keyboard.id)
            // A Super held on the keyboard that went away never comes up: no overlay from it.
            endSuperHold()
            let keys =
                app.dispatcher.isSecureEntry ? "\(cancelled.count)" : cancelled.map(\.name).joined(separator: " ")
            kiosk.message =
                "\(keyboard.detail.hasPrefix("pointer") || keyboard.detail.hasPrefix("touch") ? "Gone" : "Keyboard unplugged"): "
                + "\(keyboard.name)."
                + (cancelled.isEmpty ? "" : " Press cancelled: \(keys); nothing is stuck.")
            app.setNeedsFrame()
        case .deviceFailed(_, let message):
            app.report("A keyboard could not be used: \(message)")
        case .hotPlugUnavailable(let message):
            app.report("Keyboards plugged in later will not be seen: \(message)")
        case .seatDisabled(let cancelled):
            endSuperHold()
            kiosk.message =
                "Paused: another session has the keyboards."
                + (cancelled.isEmpty
                    ? "" : " Press cancelled (\(cancelled.count) key\(cancelled.count == 1 ? "" : "s")).")
            app.setNeedsFrame()
        case .seatEnabled:
            resuming = true
            kiosk.message = "Welcome back: the keyboards are ours again."
            app.output?.invalidate()  // the console may have been redrawn by someone else: draw it all
        case .resized:
            app.output?.invalidate()
        case .screenResized(let width, let height):
            kiosk.layout(points: Size(width: width, height: height))
        case .focusMoved, .firstResponderChanged:
            break
        }
    }

    let onDisplay = build.setUpDisplay?(app, files.frameLog, files.ready) ?? false
    if !onDisplay && (files.ready != nil || files.frameLog != nil) {
        fail("--ready-file and --frame-log go with the display (--display)")
    }
    do { try app.openInput() } catch { fail("\(error)") }
    let input = app.input ?? .keyboards
    renderer.quitShortcut = app.activeQuitCommand?.readableShortcut
    let keyboardCount = app.keyboards?.keyboards.count ?? 0
    renderer.inputNote =
        input == .terminal || input.rawValue == "wayland"
        ? input.rawValue
        : "\(keyboardCount) keyboard\(keyboardCount == 1 ? "" : "s")"
            + (build.connector(app).map { " on \($0)" } ?? "")
    if input == .terminal { trace?.session.deviceNames[.primary] = "terminal" }
    // On the display: what it runs without (no seat manager, no udevd for touch), or why it is not on
    // the display, where the operator looks.
    for note in app.platformFailures + [app.platform.note].compactMap({ $0 }) { printError(note) }
    // The inspection socket (keytrace --attach) is on; when it could not be made (another user's
    // directory at its place), the operator hears why and the kiosk goes on without it.
    if let note = app.inspectionNote { app.report(note) }
    // Speech that could not be set up (a malformed SPEECHD_ADDRESS, an unreadable settings file) was
    // reported by openInput, through onMessage.
    trace?.session.start(
        input: input.rawValue, layout: app.layoutDescription, note: app.inputNote)
    // A listener hears the welcome (or what went wrong) first, then where focus is.
    kiosk.say(kiosk.message)
    do { try app.run() } catch { fail("\(error)", status: 1) }
    do { try trace?.output.finish() } catch { fail("--trace: \(error); the trace is incomplete", status: 74) }
    exit(0)
}
