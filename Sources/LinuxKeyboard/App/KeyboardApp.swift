public import Accessibility
public import AppRuntime
public import DRMOutput
public import EvdevInput
public import EventLoop
public import LibinputInput
internal import LinuxSystem
internal import PixelCanvas
public import ResponderChain
public import Seat
public import TerminalCanvas
public import TerminalIO
internal import Udev
public import WaylandClient
public import XKBKeymap

/// Runs a window on real keyboards or the terminal: the one entry point for a kiosk or console
/// app.
///
/// Given a window and the root of its focus tree, the app resolves the keyboard layout (the
/// configuration's names, then `XKB_DEFAULT_*`, then `/etc/default/keyboard`, then `us`), makes
/// the ``dispatcher`` and the ``focusSystem`` (which handles Tab, the arrows and the select
/// keys), picks the input (the readable keyboards through evdev, else the terminal, or what the
/// configuration names) and says which and why, gives initial focus, and runs.
///
/// ```swift
/// let window = Window(identifier: "kiosk")
/// let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 80, height: 24))
/// window.addChild(root)
/// // … build the tree …
/// let app = try KeyboardApp(window: window, root: root)
/// app.onFrame = { draw(app) }      // after every batch of input, and on resize
/// try app.run()                    // until Ctrl-C (in a terminal), SIGTERM or app.stop()
/// ```
///
/// Everything runs on the main actor, in the order input arrived: a handler may start a `Task`
/// that awaits I/O and updates the tree; it resumes between input events. Call the blocking
/// ``run()-1zijo`` from top-level code; from async code, `try await app.run()`.
///
/// The terminal, when the app uses it for input or for drawing, is in raw mode while the app runs
/// and is restored on exit, Ctrl-C, `SIGTERM`, `SIGHUP` and crash signals.
///
/// A KeyboardApp is an `Application` (``application``) whose primary input is an
/// `EvdevSource` with the terminal as its fallback, on an xkbcommon layout; the
/// rest of its API is the application's.
@MainActor
public final class KeyboardApp {
    /// Where key input comes from.
    public enum InputChoice: Hashable, Sendable {
        /// A Wayland compositor's seat and a window when `WAYLAND_DISPLAY` (or `WAYLAND_SOCKET`)
        /// is set and the compositor answers; else the keyboards when one can be read; else the
        /// terminal.
        case automatic
        /// A Wayland compositor: its seat's keyboard, pointer and touch for a window of the app's
        /// own, drawn in pixels (``Configuration/window``, ``Configuration/fontSize``).
        case wayland
        /// The keyboards through evdev only (``Configuration/devices`` narrows them).
        case keyboards
        /// The terminal only.
        case terminal
    }

    /// Where frames go, unless a Wayland compositor shows the app's window.
    public enum OutputChoice: Hashable, Sendable {
        /// The terminal; or, when the app runs with no compositor and no terminal (a systemd
        /// service) and a DRM device has a connected display, that display.
        case automatic
        /// The terminal the app was started in.
        case terminal
        /// Straight on the display through DRM/KMS, with no compositor (``Configuration/display``
        /// says which): the keyboards through evdev on the same seat, no Wayland even when
        /// `WAYLAND_DISPLAY` is set.
        case display
    }

    /// The input the app reads (`keyboards`, `terminal`).
    public typealias Input = Application.Input
    /// Something an app may want to follow: focus, the first responder, devices, the terminal.
    public typealias Change = Application.Change

    /// What the app reads and how it treats the terminal.
    public struct Configuration: Sendable {
        /// Keyboards, the terminal, or whichever works.
        public var input: InputChoice = .automatic
        /// Device paths or names to read; empty for every keyboard (see `EvdevSource.Options`).
        public var devices: [String] = []
        /// Whether the keyboards are grabbed: their keys stop reaching the console (kiosk mode).
        public var grab = false
        /// The keymap names the app asks for; unset fields come from the environment,
        /// `/etc/default/keyboard`, then `us`.
        public var keymap = KeymapNames()
        /// Where auto-repeats come from.
        public var repeatMode: RepeatMode = .automatic(.standard)
        /// Whether keyboards plugged in later are read.
        public var hotPlug = true
        /// How keyboards are opened: through libseat when seatd or logind can be reached (an
        /// ordinary user; paused while another VT or session has the seat), else directly.
        public var seatAccess: EvdevSource.SeatAccess = .automatic
        /// The seat whose keyboards are read (udev's `ID_SEAT`; `nil`: libseat's seat, else `seat0`).
        public var seatName: String?
        /// Whether the terminal is opened for drawing (raw mode, ``KeyboardApp/terminal``) when it
        /// is not the input; keys typed into it are then ignored, except Ctrl-C.
        public var usesTerminalForOutput = true
        /// Whether the app takes the whole terminal: the alternate screen and a hidden cursor,
        /// both given back on exit.
        public var fullScreen = false
        /// The lock state at start, shown on every keyboard's LEDs: `[.numLock]` for a PIN pad on
        /// the keypad. `nil` takes it from the first keyboard's LEDs (what the console left on;
        /// all off for the terminal).
        public var initialLocks: LockState?
        /// The command that stops the app while it draws in a terminal, reserved above every key
        /// command (Ctrl-C by default); `nil` for none.
        public var quitCommand: KeyCommand? = .standardQuit
        /// The command that stops the app while it draws on the display or in a compositor's
        /// window: none by default, so that nobody at a public kiosk's keyboard can end it (under
        /// cage, Ctrl-C would end the session); the service manager stops it with `SIGTERM`. Set an
        /// operator's chord (or `.standardQuit` while developing) to have one.
        public var screenQuitCommand: KeyCommand?
        /// The environment the layout is resolved from; `nil` for the process's own.
        public var environment: [String: String]?
        /// The terminal's input descriptor: standard input by default (a test may pass a
        /// pseudo-terminal).
        public var terminalInput: Int32 = 0
        /// The terminal's output descriptor; `nil` for standard output, or standard error when
        /// only that is a terminal.
        public var terminalOutput: Int32?
        /// The inspection socket that `keytrace --attach` watches: on by default, owner-only
        /// (`Application.InspectionOptions`; `RESPONDERCHAIN_INSPECT=0` turns it off without a
        /// rebuild).
        public var inspection = Application.InspectionOptions()
        /// Whether ``InputChoice/automatic`` tries the Wayland compositor first (on by default, as
        /// the app is a window under it); a terminal tool that should stay in its terminal turns
        /// it off, and ``InputChoice/wayland`` still asks for the compositor.
        public var prefersWayland = true
        /// How long, in seconds, the Wayland compositor has to answer each round trip at start (the
        /// registry, the globals, the window's first configure) before the app gives up on it.
        public var waylandTimeout = 5.0
        /// The window asked of a Wayland compositor: title, app id (`nil`: the program's name),
        /// full screen (on by default).
        public var window = WindowOptions()
        /// The font cells are drawn in under a compositor: a family fontconfig knows.
        public var fontFamily = "DejaVu Sans Mono"
        /// The font's em size under a compositor or on the display, in device pixels (px, not points):
        /// 16 gives DejaVu Sans Mono cells of 10x19 px, 80x31 cells in an 800x600 window.
        public var fontSize = 16.0
        /// Where frames go: the terminal, or the display with no compositor.
        public var output: OutputChoice = .automatic
        /// The display's device, connector and mode when the app runs on the display.
        public var display = DRMCanvasOutput.Options()
        /// Whether touch screens, mice, touchpads and tablets are read through libinput on the
        /// display (taps and clicks hit-test the focus tree; a mouse draws a pointer). On by default.
        public var readsTouchAndPointer = true
        /// Speech for a listener who cannot see the screen (a narrator through speech-dispatcher and
        /// the listener's key commands); `nil`, the default, for none.
        public var speech: SpeechOptions?

        /// A configuration with the defaults: automatic input, no grab, the system's layout.
        public init() {}
    }

    /// The window an app asks of a Wayland compositor: title and app id (`nil`, the default: the
    /// program's name), full screen (on by default), the size when the compositor leaves it to the app,
    /// the pixel format. One type with `WaylandWindow.Options`.
    public typealias WindowOptions = WaylandWindow.Options

    /// What the app runs on under a Wayland compositor: the connection, the window, the output
    /// drawing the app's canvas in it, and the seat's input.
    public struct Wayland {
        /// The connection to the compositor.
        public let connection: WaylandConnection
        /// The app's window (`onClose` stops the app unless the app sets its own).
        public let window: WaylandWindow
        /// Where frames go: ``KeyboardApp/output`` is this.
        public let output: WaylandCanvasOutput
        /// The seat's keyboard, pointer and touch.
        public let seat: WaylandSeatSource
    }

    /// What the app runs on straight on a display: the output and the seat it shares with the
    /// keyboards.
    public struct Display {
        /// Where frames go: ``KeyboardApp/output`` is this.
        public let output: DRMCanvasOutput
        /// The seat the display and the keyboards are opened through; `nil` when they are opened
        /// directly (root, or a user in the devices' groups: VT switches are then not followed).
        public let seat: Seat?
        /// Touch screens, mice, touchpads and tablets through libinput, on the same seat; `nil`
        /// when ``Configuration/readsTouchAndPointer`` is off or udevd does not run
        /// (``KeyboardApp/displayNote`` says so).
        public let pointer: LibinputSource?
    }

    /// The runtime the app runs on: the window, the loop, the sources and the output.
    public let application: Application
    /// The configuration.
    public let configuration: Configuration
    /// The keyboard layout the keyboards go through.
    public let layout: XKBKeyboardLayout
    /// Where the layout's names came from.
    public let layoutSource: KeymapNames.Source
    /// The keyboards read through evdev, unless the configuration asked for the terminal only.
    /// Once the app fell back to the terminal, they are released (`EvdevSource.keyboards` is
    /// empty).
    public let keyboards: EvdevSource?
    /// The compositor, window, output and seat when the app runs under Wayland.
    public let wayland: Wayland?
    /// The display and seat when the app runs straight on a display.
    public let display: Display?
    /// Why the app runs on the display without a seat manager, or why it does not run on the
    /// display when it would have by itself (``OutputChoice/automatic``).
    public let displayNote: String?
    private var seatWatch: UInt64?
    /// Why the app does not run under the Wayland compositor `WAYLAND_DISPLAY` names, when that
    /// is set but the compositor could not be used (the app went on with the keyboards).
    public let waylandNote: String?
    /// What speaks the app aloud, when ``Configuration/speech`` is set: post announcements with
    /// `Window.postAccessibilityNotification(_:)`, or call its methods.
    public let narrator: Narrator?
    /// The speech-dispatcher output the narrator speaks through (`nil` when the address could not be
    /// read: ``speechNote`` says why).
    public let speechOutput: SpeechDispatcherOutput?
    /// Why speech is silent, once it is (no daemon at the address, a malformed `SPEECHD_ADDRESS`):
    /// show it where the operator sees it. Set again when the daemon is lost.
    public private(set) var speechNote: String?
    /// Called with ``speechNote`` each time it is set (once per outage, and when the listener's
    /// settings could not be saved), for an app that handles speech problems itself. Unset (the
    /// default), each problem goes to ``report(_:)`` instead, as does a note from the setup (an
    /// unreadable settings file, a malformed `SPEECHD_ADDRESS`) when ``openInput()`` runs: an app
    /// that shows ``onMessage`` needs nothing here.
    public var onSpeechProblem: ((String) -> Void)?
    private let speechProblems = SpeechProblems()
    /// Writes the listener's speech settings a moment after a change, and when ``run()-1zijo`` returns.
    private let settingsSaver: SettingsSaver?

    /// Makes the app: resolves the layout and makes the dispatcher and the focus system. Nothing
    /// is opened until ``openInput()``, ``start()`` or ``run()-1zijo``.
    ///
    /// - Parameters:
    ///   - window: The window.
    ///   - root: The root of the focus tree (in the window's tree).
    ///   - configuration: What to read.
    /// - Throws: `AppError` with code `AppError.Code.keymap` for an
    ///   unknown layout, variant, model, option or rules; `AppError.Code.input` when
    ///   the kernel refuses the event loop.
    public init(window: Window, root: any FocusEnvironment, configuration: Configuration = Configuration())
        throws(AppError)
    {
        self.configuration = configuration
        let environment = configuration.environment ?? Syscalls.processEnvironment()
        let hasCompositor = [environment["WAYLAND_DISPLAY"], environment["WAYLAND_SOCKET"]].contains {
            !($0 ?? "").isEmpty
        }
        let triesWayland =
            configuration.output != .display
            && (configuration.input == .wayland
                || (configuration.input == .automatic && configuration.prefersWayland && hasCompositor))
        let triesDisplay =
            configuration.output == .display
            || (configuration.output == .automatic && !hasCompositor && Self.runsWithoutTerminal(configuration)
                && configuration.input != .terminal && configuration.input != .wayland)
        // In pixels, the font loads on a thread of its own while the keymap compiles and the
        // runtime starts: the first frame comes a few milliseconds sooner.
        let fonts =
            triesWayland || triesDisplay
            ? PixelRenderer.Loading(fontFamily: configuration.fontFamily, pixelSize: configuration.fontSize) : nil
        let (names, source) = configuration.keymap.resolved(environment: environment)
        do { layout = try XKBKeyboardLayout(names) } catch { throw AppError(error) }
        layoutSource = source
        var runtime = Application.Configuration()
        runtime.readsTerminal = configuration.input == .terminal
        runtime.usesTerminalForOutput = configuration.usesTerminalForOutput && configuration.output != .display
        runtime.fullScreen = configuration.fullScreen
        runtime.initialLocks = configuration.initialLocks
        runtime.quitCommand = configuration.quitCommand
        runtime.screenQuitCommand = configuration.screenQuitCommand
        runtime.terminalInput = configuration.terminalInput
        runtime.terminalOutput = configuration.terminalOutput
        runtime.inspection = configuration.inspection
        application = try Application(
            window: window, root: root, layout: layout, layoutDescription: "\(layout.name) (\(source.rawValue))",
            configuration: runtime)
        var wayland: Wayland?
        var waylandNote: String?
        if triesWayland, let fonts {
            do {
                wayland = try Self.openWayland(
                    application, configuration: configuration, fonts: fonts,
                    environment: WaylandEnvironment(
                        display: environment["WAYLAND_DISPLAY"], socket: environment["WAYLAND_SOCKET"],
                        runtimeDirectory: environment["XDG_RUNTIME_DIR"]))
            } catch {
                guard configuration.input == .automatic else { throw error }
                waylandNote = "\(error.message); going on without the compositor"
            }
        }
        self.wayland = wayland
        self.waylandNote = waylandNote
        var display: Display?
        var displayNote: String?
        if wayland == nil, triesDisplay, let fonts {
            do {
                (display, displayNote) = try Self.openDisplay(application, configuration: configuration, fonts: fonts)
            } catch {
                guard configuration.output == .automatic else { throw error }
                displayNote = "\(error.message); going on without the display"
            }
        }
        self.display = display
        self.displayNote = displayNote
        if let display {
            application.setOutput(display.output)
            let keyboards = EvdevSource(
                loop: application.loop, dispatcher: application.dispatcher,
                options: Self.keyboardOptions(configuration, direct: display.seat == nil), seat: display.seat)
            application.setPrimaryInput(keyboards, fallsBackToTerminal: false)
            self.keyboards = keyboards
            if let seat = display.seat {
                seatWatch = application.loop.watch(seat.fileDescriptor) { [unowned seat] in seat.dispatch() }
            }
            if let pointer = display.pointer { application.add(pointer) }
        } else if let wayland {
            keyboards = nil
            application.setOutput(wayland.output)
            application.setPrimaryInput(wayland.seat, fallsBackToTerminal: false)
        } else if configuration.input != .terminal {
            let keyboards = EvdevSource(
                loop: application.loop, dispatcher: application.dispatcher,
                options: Self.keyboardOptions(configuration, direct: false))
            application.setPrimaryInput(keyboards, fallsBackToTerminal: configuration.input == .automatic)
            self.keyboards = keyboards
        } else {
            keyboards = nil
        }
        if let options = configuration.speech {
            let (narrator, output, note, saver) = Self.makeSpeech(
                options, application: application, environment: environment, problems: speechProblems)
            settingsSaver = saver
            self.narrator = narrator
            speechOutput = output
            speechNote = note
            // The setup's note (the settings file, the address), said when the app opens, as later problems
            // are, unless the app handles speech problems itself (it reads speechNote then).
            if let note {
                application.reportWhenOpened(note, unless: { [unowned self] in onSpeechProblem != nil })
            }
            speechProblems.report = { [unowned self] message in
                speechNote = message
                if let onSpeechProblem { onSpeechProblem(message) } else { application.report(message) }
            }
            output?.client.onProblem = { [unowned self] error in
                speechProblems.report(Self.speechProblemLine(error.message))
            }
        } else {
            narrator = nil
            speechOutput = nil
            settingsSaver = nil
        }
    }

    /// Connects to the compositor and makes the window, its output and the seat's input; the
    /// compositor going away stops the app with its message, and closing the window stops it.
    private static func openWayland(
        _ application: Application, configuration: Configuration, fonts: PixelRenderer.Loading,
        environment: WaylandEnvironment
    ) throws(AppError) -> Wayland {
        do {
            let connection = try WaylandConnection(
                loop: application.loop, environment: environment, timeout: configuration.waylandTimeout)
            let renderer: PixelRenderer
            do {
                renderer = try fonts.wait()
            } catch {
                throw AppError(code: .wayland, message: "\(error)")
            }
            let window = try WaylandWindow(
                connection: connection,
                options: configuration.window)
            let output = WaylandCanvasOutput(window: window, renderer: renderer)
            let seat = WaylandSeatSource(
                connection: connection, window: window, loop: application.loop, dispatcher: application.dispatcher)
            seat.mapPoint = { [unowned output] x, y in output.cellPoint(x, y) }
            window.onClose = { [unowned application] in application.stop() }
            connection.onDisconnect = { [unowned application, unowned seat] error in
                seat.connectionLost()
                application.stop(failing: AppError(error))
            }
            return Wayland(connection: connection, window: window, output: output, seat: seat)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(code: .wayland, message: "\(error)")
        }
    }

    /// The keyboards' options from the configuration; `direct`: opened without a seat (the
    /// display found none).
    private static func keyboardOptions(_ configuration: Configuration, direct: Bool) -> EvdevSource.Options {
        var options = EvdevSource.Options(
            devices: configuration.devices, hotPlug: configuration.hotPlug, grab: configuration.grab,
            repeatMode: configuration.repeatMode)
        options.locksFromLEDs = configuration.initialLocks == nil
        options.seatAccess = direct ? .direct : configuration.seatAccess
        options.seatName = configuration.seatName
        return options
    }

    /// Opens the seat (unless the configuration asks for direct access) and the display through it.
    private static func openDisplay(
        _ application: Application, configuration: Configuration, fonts: PixelRenderer.Loading
    ) throws(AppError) -> (Display, String?) {
        var seat: Seat?
        var note: String?
        var seatError: InputError?
        if configuration.seatAccess != .direct {
            do {
                seat = try Seat()
            } catch {
                guard configuration.seatAccess == .automatic else { throw AppError(error) }
                seatError = error
                note =
                    "the display and keyboards are opened directly, and a switch to another VT is not followed "
                    + "(\(error.message))"
            }
        }
        let renderer: PixelRenderer
        do { renderer = try fonts.wait() } catch { throw AppError(code: .display, message: "\(error)") }
        do {
            let output = try DRMCanvasOutput(
                loop: application.loop, renderer: renderer, seat: seat, options: configuration.display)
            var pointer: LibinputSource?
            if configuration.readsTouchAndPointer {
                if UdevEnumeration.udevIsRunning {
                    pointer = makePointer(application, configuration: configuration, output: output, seat: seat)
                } else {
                    note = [note, "touch screens and mice are not read: libinput needs udevd (start systemd-udevd)"]
                        .compactMap { $0 }.joined(separator: "; ")
                }
            }
            if let hotPlug = output.hotPlugNote { note = [note, hotPlug].compactMap { $0 }.joined(separator: "; ") }
            return (Display(output: output, seat: seat, pointer: pointer), note)
        } catch {
            guard error.code == .permission, let seatError else { throw AppError(error) }
            throw AppError(code: .display, message: "\(error.message) (no seat either: \(seatError.message))")
        }
    }

    /// The DRM devices that can show the app (`/dev/dri/card*`): where ``OutputChoice/display``
    /// looks, and none means ``OutputChoice/automatic`` never picks the display.
    nonisolated public static var displayDevices: [String] { DRMCanvasOutput.devicePaths }

    /// Touch and pointer through libinput for the display: positions in the display's pixels,
    /// mapped to the focus tree's cells; a mouse's pointer drawn by the display.
    private static func makePointer(
        _ application: Application, configuration: Configuration, output: DRMCanvasOutput, seat: Seat?
    ) -> LibinputSource {
        var options = LibinputSource.Options()
        options.seatName = configuration.seatName
        options.hotPlug = configuration.hotPlug
        options.outputName = output.connector.name
        let pointer = LibinputSource(
            loop: application.loop, dispatcher: application.dispatcher, seat: seat, options: options)
        pointer.screen = { [unowned output] in (output.pixelSize.width, output.pixelSize.height) }
        pointer.mapPoint = { [unowned output] x, y in output.cellPoint(x, y) }
        pointer.onCursor = { [unowned output] position in
            if let position { output.movePointer(toX: position.x, y: position.y) } else { output.hidePointer() }
        }
        return pointer
    }

    /// Whether none of standard input, output and error is a terminal (a systemd service): then
    /// nothing but the display can show the app.
    private static func runsWithoutTerminal(_ configuration: Configuration) -> Bool {
        ![configuration.terminalInput, configuration.terminalOutput ?? 1, 2].contains {
            TerminalKeyboard.isTerminal($0)
        } && !DRMCanvasOutput.devicePaths.isEmpty
    }

    isolated deinit {
        if let seatWatch { application.loop.unwatch(seatWatch) }
    }

    /// The window.
    public var window: Window { application.window }
    /// The root of the focus tree.
    public var root: any FocusEnvironment { application.root }
    /// The dispatcher keys go to.
    public var dispatcher: Dispatcher { application.dispatcher }
    /// The focus system: initial focus, Tab, the arrows and the select keys.
    public var focusSystem: FocusSystem { application.focusSystem }
    /// The event loop; `EventLoop.watch(_:handler:)` adds an app's own descriptors.
    public var loop: EventLoop { application.loop }
    /// The layout keys go through, for a status line or a trace: the keymap and where its names
    /// came from (`de (environment)`), or `terminal` once the input is a terminal, whose
    /// characters arrive already typed on the terminal's own layout.
    public var layoutDescription: String { application.layoutDescription }
    /// The input read, once ``openInput()`` chose it.
    public var input: Input? { application.input }
    /// Why that input, and what it can do (for example, whether the terminal reports releases).
    public var inputNote: String? {
        let notes = [waylandNote, displayNote, application.inputNote].compactMap { $0 }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
    /// The terminal, when the app reads or draws on it.
    public var terminal: TerminalKeyboard? { application.terminal }
    /// The command that stops the app, once ``openInput()`` chose the output: ``Configuration/quitCommand``
    /// in a terminal, ``Configuration/screenQuitCommand`` on the display or in a window; `nil` for none.
    /// Show it in the app's key help only when it is set.
    public var activeQuitCommand: KeyCommand? { application.activeQuitCommand }
    /// The inspection socket's path while the app listens (`Application.inspectionPath`).
    public var inspectionPath: String? { application.inspectionPath }
    /// Why the inspection socket could not be made, and the fix; `nil` when it listens or is off
    /// (`Application.inspectionNote`). Show it where the operator will see it.
    public var inspectionNote: String? { application.inspectionNote }
    /// How many watchers (`keytrace --attach`) are attached now.
    public var inspectionWatchers: Int { application.inspectionWatchers }
    /// Where the app's frames go (the terminal, when it draws on one).
    public var output: (any CanvasOutput)? { application.output }
    /// Called after every batch of input and work, and on resize: draw here.
    public var onFrame: (() -> Void)? {
        get { application.onFrame }
        set { application.onFrame = newValue }
    }
    /// Called with every ``Change``, on the main actor.
    public var onChange: ((Change) -> Void)? {
        get { application.onChange }
        set { application.onChange = newValue }
    }
    /// Called with every message ``report(_:)`` is given while the app runs (speech gone silent, a
    /// trace that stopped): show it on the app's message line (`Application.onMessage`).
    public var onMessage: ((String) -> Void)? {
        get { application.onMessage }
        set { application.onMessage = newValue }
    }

    /// Says something to the operator while the app runs, without writing over a frame: to
    /// ``onMessage``, and to standard error unless that is the terminal the app draws on, where it
    /// waits until the terminal is given back (`Application.report(_:)`).
    ///
    /// - Parameter message: What happened and the fix.
    public func report(_ message: String) {
        application.report(message)
    }

    /// Changes as an asynchronous sequence (`Application.changes`).
    public var changes: AsyncStream<Change> { application.changes }

    /// Registers another input source, started after the keyboards or the terminal
    /// (`Application.add(_:)`).
    ///
    /// - Parameter source: The source, made on this app's ``loop`` and ``dispatcher``.
    public func add(_ source: any InputSource) {
        application.add(source)
    }

    /// Chooses and opens the input: the keyboards, or the terminal when the configuration asks
    /// for it or (``InputChoice/automatic``) no keyboard can be read; the terminal for drawing;
    /// the sources added; the signal handling. Idempotent; ``start()`` calls it.
    ///
    /// - Throws: `AppError` (code `AppError.Code.input`) when the chosen
    ///   input cannot be read: the keyboards (permission, none found) when they were asked for or
    ///   the terminal is not available, or the terminal when it was asked for and standard input
    ///   is not one.
    public func openInput() throws(AppError) {
        try application.openInput()
    }

    /// Opens the input, gives initial focus and draws the first frame. ``run()-1zijo`` calls it.
    ///
    /// - Throws: What ``openInput()`` throws.
    public func start() throws(AppError) {
        try application.start()
    }

    /// Runs until the quit command (``activeQuitCommand``), `SIGINT`, `SIGTERM`, `SIGHUP` or
    /// ``stop()``, blocking the calling thread, and serves the main actor's other work meanwhile
    /// (`Application.run()`).
    ///
    /// - Throws: What ``start()`` throws, or an error when called off the main thread (use
    ///   `try await app.run()` there).
    public func run() throws(AppError) {
        // A change the listener made just before the app stopped is kept.
        defer { settingsSaver?.saveIfPending() }
        try application.run()
    }

    /// Runs until stopped, like ``run()-1zijo``, without blocking: for an `async` main or a test.
    ///
    /// - Throws: What ``start()`` throws.
    public func run() async throws(AppError) {
        defer { settingsSaver?.saveIfPending() }
        try await application.run()
    }

    /// Asks for a frame after main-actor work changed what is drawn
    /// (`Application.setNeedsFrame()`).
    public func setNeedsFrame() {
        application.setNeedsFrame()
    }

    /// Makes ``run()-1zijo`` return after the input in hand.
    public func stop() {
        application.stop()
    }
}

/// The error a ``KeyboardApp`` throws: `AppError`, with the keymap code.
public typealias KeyboardAppError = AppError

extension AppError.Code {
    /// The keymap names do not name a layout xkbcommon knows.
    public static let keymap = AppError.Code(rawValue: "keymap")
}

extension AppError {
    /// A keymap that could not be compiled: code ``Code/keymap``.
    ///
    /// - Parameter error: The keymap error.
    public init(_ error: KeymapError) {
        self.init(code: .keymap, message: "\(error)")
    }
}

extension AppError.Code {
    /// The display could not be opened or used: no DRM device, no permission, no connected display.
    public static let display = AppError.Code(rawValue: "display")
}

extension AppError {
    /// A display failure: code ``Code/display``, with the message naming the device and the fix.
    ///
    /// - Parameter error: The display error.
    public init(_ error: DisplayError) {
        self.init(code: .display, message: error.message)
    }
}

extension AppError.Code {
    /// The Wayland compositor could not be reached, refused, lacks what a window needs, or went away.
    public static let wayland = AppError.Code(rawValue: "wayland")
}

extension AppError {
    /// A Wayland failure: code ``Code/wayland``, with the message naming the variable, the
    /// socket or the global, and the fix.
    ///
    /// - Parameter error: The Wayland error.
    public init(_ error: WaylandError) {
        self.init(code: .wayland, message: error.message)
    }
}
