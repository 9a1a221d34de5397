public import Accessibility
public import AppRuntime
public import AppSpeech
public import EvdevInput
public import EventLoop
internal import LinuxSystem
public import ResponderChain
public import TerminalCanvas
public import TerminalIO
public import XKBKeymap

/// Runs a window on the platform it finds: the one entry point for a kiosk or console app.
///
/// Given a window and the root of its focus tree, the app resolves the keyboard layout (the
/// configuration's names, then `XKB_DEFAULT_*`, then `/etc/default/keyboard`, then `us`), makes
/// the ``dispatcher`` and the ``focusSystem`` (which handles Tab, the arrows and the select
/// keys), opens the first of its platforms that runs here (``AppPlatform``: the console by
/// default, the keyboards through evdev, else the terminal) and says which and why, gives
/// initial focus, and runs.
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
/// A kiosk that also runs in a compositor's window or straight on a display lists those
/// platforms, in the order it prefers, and links them (`import KioskPlatforms`):
///
/// ```swift
/// let app = try KeyboardApp(window: window, root: root, platforms: KeyboardApp.kioskPlatforms())
/// ```
///
/// Everything runs on the main actor, in the order input arrived: a handler may start a `Task`
/// that awaits I/O and updates the tree; it resumes between input events. Call the blocking
/// ``run()-1zijo`` from top-level code; from async code, `try await app.run()`.
///
/// The terminal, when the app uses it for input or for drawing, is in raw mode while the app runs
/// and is restored on exit, Ctrl-C, `SIGTERM`, `SIGHUP` and crash signals.
///
/// A KeyboardApp is an `Application` (``application``) on an xkbcommon layout, opened by its
/// platform; the rest of its API is the application's.
@MainActor
public final class KeyboardApp {
    /// Where the console platform's key input comes from.
    public enum InputChoice: Hashable, Sendable {
        /// The keyboards when one can be read; else the terminal.
        case automatic
        /// The keyboards through evdev only (``Configuration/devices`` narrows them).
        case keyboards
        /// The terminal only.
        case terminal
    }

    /// The input the app reads (`keyboards`, `terminal`).
    public typealias Input = Application.Input
    /// Something an app may want to follow: focus, the first responder, devices, the terminal.
    public typealias Change = Application.Change

    /// What the app reads and how it treats the terminal: what every platform shares. What a
    /// platform alone has (a window's title, a display's mode) is in that platform's options.
    public struct Configuration: Sendable {
        /// Keyboards, the terminal, or whichever works (the console platform).
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
        /// The environment the layout is resolved from and the platforms are probed in; `nil` for
        /// the process's own.
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
        /// Speech for a listener who cannot see the screen (a narrator through speech-dispatcher and
        /// the listener's key commands); `nil`, the default, for none.
        public var speech: SpeechOptions?
        /// What a platform that shows pixels draws: the app's `Canvas` of cells (the default) or
        /// the window's nodes drawing themselves in points (`.nodes`). A terminal shows the canvas.
        public var screenDrawing = Application.ScreenDrawing.canvas

        /// A configuration with the defaults: automatic input, no grab, the system's layout.
        public init() {}
    }

    /// The runtime the app runs on: the window, the loop, the sources and the output.
    public let application: Application
    /// The configuration.
    public let configuration: Configuration
    /// The keyboard layout the keyboards go through; `nil` when the platform the app runs on does
    /// not read keys through it (``ConsolePlatform`` reading the terminal, whose characters arrive
    /// already typed; a compositor, which sends its own keymap): the keymap is then not compiled,
    /// and its names are not checked. A platform that needs it and opens after another failed
    /// has it compiled then.
    public private(set) var layout: XKBKeyboardLayout?
    /// Where the layout's names came from.
    public let layoutSource: KeymapNames.Source
    /// The platform the app runs on: the first of those it lists that probed well and opened.
    public let platform: any AppPlatform
    /// The platforms listed before the one the app runs on, each with why it was passed over (its
    /// probe's reason, or why it failed to open), in the app's order; empty when the first one
    /// listed runs.
    public let platformsPassedOver: [(platform: String, reason: String)]
    /// Why platforms that should have run did not open (`…; going on without the compositor`), in
    /// the order tried: part of ``inputNote``; show them where the operator looks.
    public let platformFailures: [String]
    /// Speech for a listener who cannot see the screen, when ``Configuration/speech`` is set: AppSpeech's
    /// `ApplicationSpeech` on ``application`` (the narrator, its output, its problems).
    public let speech: ApplicationSpeech?
    /// What speaks the app aloud, when ``Configuration/speech`` is set: post announcements with
    /// `Window.postAccessibilityNotification(_:)`, or call its methods (``speech``'s).
    public var narrator: Narrator? { speech?.narrator }
    /// The speech-dispatcher output the narrator speaks through (`nil` when the address could not be
    /// read: ``speechNote`` says why).
    public var speechOutput: SpeechDispatcherOutput? { speech?.output }
    /// Why speech is silent, once it is (no daemon at the address, a malformed `SPEECHD_ADDRESS`):
    /// show it where the operator sees it. Set again when the daemon is lost.
    public var speechNote: String? { speech?.note }
    /// Called with ``speechNote`` each time it is set (once per outage, and when the listener's
    /// settings could not be saved), for an app that handles speech problems itself. Unset (the
    /// default), each problem goes to ``report(_:)`` instead, as does a note from the setup (an
    /// unreadable settings file, a malformed `SPEECHD_ADDRESS`) when ``openInput()`` runs: an app
    /// that shows ``onMessage`` needs nothing here. Without speech configured it stays `nil`.
    public var onSpeechProblem: ((String) -> Void)? {
        get { speech?.onProblem }
        set { speech?.onProblem = newValue }
    }

    /// Makes the app: resolves the layout, makes the dispatcher and the focus system, and opens
    /// the first platform that runs here. Nothing is read until ``openInput()``, ``start()`` or
    /// ``run()-1zijo``.
    ///
    /// - Parameters:
    ///   - window: The window.
    ///   - root: The root of the focus tree (in the window's tree).
    ///   - configuration: What to read.
    ///   - platforms: What the app may run on, in the order it prefers (``ConsolePlatform`` by
    ///     default). Each is probed (``AppPlatform/probe(_:)``) and passed over with its reason
    ///     when it should not run here, except one listed alone and the last when every other was
    ///     passed over: those are opened as asked. One that fails to open is passed over when
    ///     another follows, and whatever it registered on the application is taken back.
    /// - Throws: `AppError` with code `AppError.Code.keymap` for an unknown layout, variant,
    ///   model, option or rules (when a platform reads keys through it: ``layout``);
    ///   `AppError.Code.input` when the kernel refuses the event loop; the platform's error when
    ///   the one opened last fails.
    public init(
        window: Window, root: any FocusEnvironment, configuration: Configuration = Configuration(),
        platforms: [any AppPlatform] = [ConsolePlatform()]
    ) throws(AppError) {
        self.configuration = configuration
        let environment = configuration.environment ?? Syscalls.processEnvironment()
        let terminals = [configuration.terminalInput, configuration.terminalOutput ?? 1, 2]
        let platformEnvironment = PlatformEnvironment(
            variables: environment, configuration: configuration,
            hasTerminal: terminals.contains { TerminalKeyboard.isTerminal($0) })
        // Each platform's probe, in the app's order: nil for one to open. Only those listed before
        // the one that opens are said to be passed over.
        var probes: [(platform: any AppPlatform, reason: String?)] = []
        var candidates: [any AppPlatform] = []
        for (index, platform) in platforms.enumerated() {
            // Listed alone, or the last resort after every other was passed over: asked for.
            let asked = platforms.count == 1 || (index == platforms.count - 1 && candidates.isEmpty)
            let reason = asked ? nil : platform.probe(platformEnvironment)
            probes.append((platform, reason))
            if reason == nil { candidates.append(platform) }
        }
        guard !candidates.isEmpty else {
            throw AppError(code: .input, message: "the app lists no platform to run on (KeyboardApp's platforms)")
        }
        // The first platform's slow work (a font) runs on a thread while the keymap compiles.
        candidates[0].prepare(platformEnvironment)
        let (names, source) = configuration.keymap.resolved(environment: environment)
        // Compiling a keymap (its files, the compose table) is most of a terminal app's start: only
        // when the platform about to open reads keys through it (not under a compositor, which
        // sends its own: 20 ms before the window's first frame); a fallback compiles it if it
        // comes to open.
        if candidates[0].usesKeymap(platformEnvironment) {
            do { layout = try XKBKeyboardLayout(names) } catch { throw AppError(error) }
        } else {
            layout = nil
        }
        layoutSource = source
        var runtime = Application.Configuration()
        runtime.usesTerminalForOutput = configuration.usesTerminalForOutput
        runtime.fullScreen = configuration.fullScreen
        runtime.initialLocks = configuration.initialLocks
        runtime.quitCommand = configuration.quitCommand
        runtime.screenQuitCommand = configuration.screenQuitCommand
        runtime.terminalInput = configuration.terminalInput
        runtime.terminalOutput = configuration.terminalOutput
        runtime.inspection = configuration.inspection
        runtime.screenDrawing = configuration.screenDrawing
        application = try Application(
            window: window, root: root, layout: layout ?? USKeyboardLayout(),
            layoutDescription: layout.map { "\($0.name) (\(source.rawValue))" } ?? "terminal", configuration: runtime)
        var failed: [ObjectIdentifier: String] = [:]
        var failures: [String] = []
        var opened: (any AppPlatform)?
        for (index, platform) in candidates.enumerated() {
            let hasAlternative = index < candidates.count - 1
            if index > 0 { platform.prepare(platformEnvironment) }
            if index > 0, layout == nil, platform.usesKeymap(platformEnvironment) {
                do { layout = try XKBKeyboardLayout(names) } catch { throw AppError(error) }
                if let layout { application.useLayout(layout, description: "\(layout.name) (\(source.rawValue))") }
            }
            let registered = application.registrations
            do {
                try platform.open(
                    PlatformContext(
                        application: application, environment: platformEnvironment, hasAlternative: hasAlternative))
                opened = platform
                break
            } catch {
                // What it registered before it failed is not the next platform's.
                application.restoreRegistrations(registered)
                guard hasAlternative else { throw error }
                failed[ObjectIdentifier(platform)] = error.message
                failures.append("\(error.message); going on without \(platform.title)")
            }
        }
        // The loop above either opened one or threw on the last.
        let chosen = opened ?? candidates[candidates.count - 1]
        platform = chosen
        // The platforms listed before the chosen one, each with why it was passed over.
        platformsPassedOver = probes.prefix { $0.platform !== chosen }.map { probe in
            (probe.platform.name, probe.reason ?? failed[ObjectIdentifier(probe.platform)] ?? "")
        }
        platformFailures = failures
        // The listener's settings are written when run() returns (ApplicationSpeech asks the application).
        if let options = configuration.speech {
            speech = ApplicationSpeech(application: application, options: options, environment: environment)
        } else {
            speech = nil
        }
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
    /// Why that input, and what it can do (for example, whether the terminal reports releases):
    /// a platform that failed to open, what the platform runs without, and the input's own note.
    public var inputNote: String? {
        let notes = platformFailures + [platform.note, application.inputNote].compactMap { $0 }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
    /// The platforms passed over and why, in one line (`wayland: no WAYLAND_DISPLAY; display: …`);
    /// `nil` when the first one listed runs.
    public var platformNote: String? {
        platformsPassedOver.isEmpty
            ? nil : platformsPassedOver.map { "\($0.platform): \($0.reason)" }.joined(separator: "; ")
    }
    /// The keyboards read through evdev, when the platform reads them (the console's, the
    /// display's). Once the app fell back to the terminal, they are released
    /// (`EvdevSource.keyboards` is empty).
    public var keyboards: EvdevSource? { application.primaryInput as? EvdevSource }
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
        try application.run()
    }

    /// Runs until stopped, like ``run()-1zijo``, without blocking: for an `async` main or a test.
    ///
    /// - Throws: What ``start()`` throws.
    public func run() async throws(AppError) {
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
