public import EventLoop
public import Graphics
internal import Inspection
internal import LinuxSystem
public import ResponderChain
public import TerminalCanvas
public import TerminalIO

/// Runs a window on the input sources registered with it, showing its frames on an output: the
/// runtime every app is built on, whatever its display stack.
///
/// Given a window, the root of its focus tree and a keyboard layout, the application makes the
/// ``dispatcher`` and the ``focusSystem`` (which handles Tab, the arrows and the select keys) and
/// an `EventLoop`; it starts its primary input (``setPrimaryInput(_:fallsBackToTerminal:)``:
/// the keyboards, a compositor's seat) or reads the terminal, starts the sources ``add(_:)``
/// registered, says which input and why, gives initial focus, and runs.
///
/// A console app reading only the terminal needs nothing else, and links no device library:
///
/// ```swift
/// let app = try Application(window: window, root: root)
/// app.onFrame = { app.output?.show(render()) }  // after every batch of input, and on resize
/// try app.run()                                 // until Ctrl-C (in a terminal), SIGTERM or app.stop()
/// ```
///
/// `KeyboardApp` (in LinuxKeyboard) wraps an application whose primary input is the keyboards read
/// through evdev, with the system's keymap.
///
/// Everything runs on the main actor, in the order input arrived: a handler may start a `Task`
/// that awaits I/O and updates the tree; it resumes between input events. Call the blocking
/// ``run()-13s0`` from top-level code; from async code, `try await app.run()`.
///
/// The terminal, when the app uses it for input or for drawing, is in raw mode while the app runs
/// and is restored on exit, Ctrl-C, `SIGTERM`, `SIGHUP` and crash signals.
@MainActor
public final class Application {
    /// The input the app reads: the `InputSource.inputName` of the source it started. A
    /// struct, not an enum, so that a new backend (a Wayland seat) adds a name without breaking
    /// an app's `switch`.
    public struct Input: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The source's name.
        public var rawValue: String

        /// An input by name.
        ///
        /// - Parameter rawValue: The source's name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Keyboards through evdev.
        public static let keyboards = Input(rawValue: "keyboards")
        /// The terminal (key events decoded from its escape sequences).
        public static let terminal = Input(rawValue: "terminal")

        /// The name.
        public var description: String { rawValue }
    }

    /// The inspection socket: where `keytrace --attach` watches the app's dispatch live.
    ///
    /// On by default and owner-only: a Unix socket `NAME.PID.sock` in
    /// `$XDG_RUNTIME_DIR/responderchain` (or `/tmp/responderchain-UID`, mode 0700, when
    /// `XDG_RUNTIME_DIR` is unset) that only the app's own user and root may use. The environment
    /// variable `RESPONDERCHAIN_INSPECT` (`InspectionProtocol.environmentVariable`) turns it off
    /// (`0`) or on (`1`) without a rebuild, whatever ``isEnabled`` says.
    ///
    /// It never slows the app: it is non-blocking on the app's one loop; each watcher has a
    /// buffer of ``bufferSize`` bytes, and a watcher that reads too slowly loses lines (it is told
    /// how many); with nobody watching, dispatch traces nothing.
    public struct InspectionOptions: Sendable {
        /// Whether the app listens.
        public var isEnabled = true
        /// The name the app is listed and attached by (`keytrace --attach NAME`); `nil` for the
        /// program's file name.
        public var name: String?
        /// Each watcher's buffer, in bytes (256 KiB by default, at least 16 KiB).
        public var bufferSize = 256 << 10
        /// How many watchers may attach at once (8 by default); more are refused.
        public var maximumWatchers = 8
        /// How long a peer may take to send its request line, in seconds (5 by default).
        public var requestTimeout = 5.0
        /// The socket's directory; `nil` for the user's runtime directory (`InspectionEndpoint`).
        /// A test or an app with a directory of its own sets it; it is checked like the default.
        public var directory: String?

        /// The defaults: on, the program's name, 256 KiB per watcher, 8 watchers.
        public init() {}
    }

    /// How the app treats the terminal, and what stops it.
    public struct Configuration: Sendable {
        /// Whether the terminal is the input even when a primary input was set (the user asked
        /// for the terminal).
        public var readsTerminal = false
        /// Whether the terminal is opened for drawing (raw mode, ``Application/terminal``) when it
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
        /// command (Ctrl-C by default, as a terminal program quits); `nil` for none.
        public var quitCommand: KeyCommand? = .standardQuit
        /// The command that stops the app while it draws on a display or in a compositor's window
        /// (``Application/setOutput(_:)``): none by default. A kiosk at a public screen must not end
        /// when someone at its keyboard presses Ctrl-C (under cage that ends the session: a
        /// breakout); its service manager stops it with `SIGTERM`. Set an operator's chord here (or
        /// `.standardQuit` while developing) to have one.
        public var screenQuitCommand: KeyCommand?
        /// The terminal's input descriptor: standard input by default (a test may pass a
        /// pseudo-terminal).
        public var terminalInput: Int32 = 0
        /// The terminal's output descriptor; `nil` for standard output, or standard error when
        /// only that is a terminal.
        public var terminalOutput: Int32?
        /// The inspection socket (`keytrace --attach`): on by default.
        public var inspection = InspectionOptions()
        /// What a platform that shows pixels (a Wayland window, a display) draws:
        /// ``ScreenDrawing/canvas`` (the `Canvas` the app shows from ``Application/onFrame``, in
        /// cells; the default) or ``ScreenDrawing/nodes`` (the window's nodes drawing themselves in
        /// points, through ``Application/setNodeOutput(_:)``). A terminal always shows the canvas.
        public var screenDrawing = ScreenDrawing.canvas

        /// A configuration with the defaults: the primary input (else the terminal), the terminal
        /// for drawing, Ctrl-C quits in a terminal and no key quits on a screen.
        public init() {}
    }

    /// What an app draws on a screen that shows pixels.
    public enum ScreenDrawing: String, Sendable, Hashable, CaseIterable {
        /// A `Canvas` of cells, as in a terminal, rendered with a monospace font.
        case canvas
        /// The window's nodes, each drawing itself in points (`FocusNode.draw(in:state:)`):
        /// images, text at any size, shapes, the system's focus effect.
        case nodes
    }

    /// Something an app may want to follow: focus, the first responder, devices, the terminal.
    public enum Change: Sendable {
        /// Focus moved; the context is delivered to the environments first.
        case focusMoved(from: String?, to: String?)
        /// The window's first responder changed (its trace name, or `nil`).
        case firstResponderChanged(String?)
        /// A device (a keyboard) was opened.
        case deviceAdded(InputDeviceInfo)
        /// A device went away; its held keys were cancelled.
        case deviceRemoved(InputDeviceInfo, cancelledKeys: [KeyCode])
        /// A device could not be opened or grabbed.
        case deviceFailed(path: String, message: String)
        /// Hot-plug is unavailable: keyboards plugged in later will not be seen.
        case hotPlugUnavailable(message: String)
        /// The terminal changed size.
        case resized(columns: Int, rows: Int)
        /// The screen the nodes are drawn on changed size, in points (`NodeOutput.pointSize`).
        case screenResized(width: Double, height: Double)
        /// The seat was taken away (a switch to another VT or session): every press was
        /// cancelled, nothing is read until it comes back.
        case seatDisabled(cancelledKeys: [KeyCode])
        /// The seat is back; its keyboards are opened again.
        case seatEnabled
    }

    /// The window.
    public let window: Window
    /// The root of the focus tree.
    public let root: any FocusEnvironment
    /// The configuration.
    public let configuration: Configuration
    /// The dispatcher keys go to.
    public let dispatcher: Dispatcher
    /// The focus system: initial focus, Tab, the arrows and the select keys.
    public let focusSystem: FocusSystem
    /// The layout keys go through, for a status line or a trace (``layoutDescription`` names
    /// it). Once the input is the terminal, the terminal's own (characters arrive already typed).
    public var layout: any KeyboardLayout { dispatcher.layout }
    /// The layout's name and where it came from (`de (environment)`), or `terminal` once the
    /// input is a terminal.
    public var layoutDescription: String {
        input == .terminal ? "terminal" : sources.first?.layoutDescription ?? layoutNote
    }
    private var layoutNote: String

    /// Sets the layout keys go through, with the name ``layoutDescription`` gives it: for a
    /// platform opened after another failed, whose keys need the app's keymap compiled only then.
    ///
    /// - Parameters:
    ///   - layout: The layout.
    ///   - description: Its name and where it came from.
    public func useLayout(_ layout: any KeyboardLayout, description: String) {
        dispatcher.layout = layout
        layoutNote = description
    }
    /// The event loop; `EventLoop.watch(_:handler:)` adds an app's own descriptors.
    public let loop: EventLoop
    /// What an input source is made with: the sink its input goes to (the dispatcher), device ids
    /// and the keyboard state. Sources never hold the dispatcher.
    public var inputContext: InputContext { dispatcher.inputContext }
    /// The primary input, when one was set: tried first, with the terminal as the fallback
    /// when allowed.
    public private(set) var primaryInput: (any InputSource)?
    private var fallsBackToTerminal = false
    /// The input read, once ``openInput()`` chose it.
    public private(set) var input: Input?
    /// Why that input, and what it can do (for example, whether the terminal reports releases).
    /// Read anew each time from the input, so that it follows what the input says now (a
    /// compositor's seat that appeared after the start).
    public var inputNote: String? {
        let notes = [fallbackNote, chosenInput?.inputNote].compactMap { $0 }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
    /// Why the primary input was not read (the terminal stood in for it).
    private var fallbackNote: String?
    /// The input chosen, kept for ``inputNote`` after the sources stop.
    private var chosenInput: (any InputSource)?
    /// The terminal, when the app reads or draws on it.
    public private(set) var terminal: TerminalKeyboard?
    /// Where the app's frames go (the terminal, when it draws on one): `CanvasOutput.show(_:)`
    /// a `Canvas` from ``onFrame``.
    public private(set) var output: (any CanvasOutput)?
    /// The sources started: the input chosen, then those added with ``add(_:)``.
    public private(set) var sources: [any InputSource] = []
    private var addedSources: [any InputSource] = []
    /// Called after every batch of input and work, and on resize: draw here.
    public var onFrame: (() -> Void)?
    /// Called with every ``Change``, on the main actor.
    public var onChange: ((Change) -> Void)?
    /// Called with every message ``report(_:)`` is given while the app runs (a device that failed,
    /// speech gone silent, a trace that stopped): show it where the person at the screen or the
    /// operator looks, a message line. A frame follows.
    public var onMessage: ((String) -> Void)?
    /// Messages kept while standard error is the terminal the app draws on, written once it is given
    /// back (at most ``heldMessageLimit``; later ones are counted).
    private var heldMessages: [String] = []
    /// Messages from before the app opened (a backend's setup), reported when ``openInput()`` runs.
    private var messagesForOpen: [(message: String, skip: () -> Bool)] = []
    private var droppedMessages = 0
    /// The most messages kept for standard error while the app draws on the terminal it goes to.
    public static let heldMessageLimit = 64
    /// The inspection socket's path while the app listens (after ``openInput()``, until
    /// ``run()-13s0`` returns); `nil` when it is off or could not be made.
    public var inspectionPath: String? { inspection?.path }
    /// Why the inspection socket could not be made, and the fix (a symbolic link or another
    /// user's directory at its place); `nil` when it listens or was turned off. Show it where the
    /// operator will see it: the app runs on without the socket.
    public private(set) var inspectionNote: String?
    /// How many watchers (`keytrace --attach`) are attached now.
    public var inspectionWatchers: Int { inspection?.watcherCount ?? 0 }
    private var inspection: InspectionServer?
    private var primaryOutput: (any CanvasOutput)?
    /// Where the window's nodes are drawn as pixels, when set with ``setNodeOutput(_:)``.
    public private(set) var nodeOutput: (any NodeOutput)?
    /// Whether the app draws on a screen (a window, a display), not in the terminal.
    private var drawsOnScreen: Bool { primaryOutput != nil || nodeOutput != nil }
    private var failure: AppError?

    private var signals: SignalPipe?
    private var signalWatch: EventLoop.Watch?
    private var frameRequested = false
    private var opened = false
    private var finished = false
    private var started = false
    private var lastFirstResponder: ObjectIdentifier?
    private var streams: [UInt64: AsyncStream<Change>.Continuation] = [:]
    private var nextStream: UInt64 = 0
    /// What ``whenFinished(_:)`` was given, in order.
    private var finishActions: [() -> Void] = []

    /// Makes the app: the dispatcher and the focus system, on the layout given, and the loop.
    /// Nothing is opened until ``openInput()``, ``start()`` or ``run()-13s0``.
    ///
    /// - Parameters:
    ///   - window: The window.
    ///   - root: The root of the focus tree (in the window's tree).
    ///   - layout: The keyboard layout (the terminal's own replaces it when the terminal is the input).
    ///   - layoutDescription: The layout's name and where it came from, for traces.
    ///   - configuration: How the app treats the terminal.
    /// - Throws: ``AppError`` with code ``AppError/Code/input`` when the kernel refuses the event loop.
    public init(
        window: Window, root: any FocusEnvironment, layout: any KeyboardLayout = USKeyboardLayout(),
        layoutDescription: String? = nil, configuration: Configuration = Configuration()
    ) throws(AppError) {
        self.window = window
        self.root = root
        self.configuration = configuration
        layoutNote = layoutDescription ?? layout.name
        // The wiring AppHarness (ResponderChainTesting) uses too, so that tests run windows as apps do.
        (dispatcher, focusSystem) = window.makeDispatcher(focusRoot: root, layout: layout)
        do { loop = try EventLoop() } catch { throw AppError(error) }
        loop.afterBatch = { [unowned self] in self.frame() }
        _ = focusSystem.addObserver { [unowned self] context in
            self.post(
                .focusMoved(
                    from: context.previouslyFocusedItem?.focusDebugName, to: context.nextFocusedItem?.focusDebugName))
            self.checkFirstResponder()
            // Focus moved by main-actor work between batches (a task): draw it.
            if !self.loop.isDispatchingBatch { self.setNeedsFrame() }
        }
    }

    /// The command that stops the app, reserved above every key command once the output is chosen
    /// (``openInput()``): ``Configuration/quitCommand`` when the app draws in a terminal,
    /// ``Configuration/screenQuitCommand`` when it draws on a display or in a compositor's window;
    /// `nil` for none. Show it in the app's key help only when it is set.
    public private(set) var activeQuitCommand: KeyCommand?

    /// Changes as an asynchronous sequence, for apps written with `for await`. Each call makes a
    /// new sequence that receives the changes from then on; it ends when the app stops.
    public var changes: AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let token = nextStream
        nextStream += 1
        streams[token] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.streams[token] = nil }
        }
        return stream
    }

    /// What a backend has registered before the app opens: the primary input, the output and the
    /// sources added. A platform that fails half way is taken back to the snapshot before it.
    package struct Registrations {
        let primaryInput: (any InputSource)?
        let fallsBackToTerminal: Bool
        let primaryOutput: (any CanvasOutput)?
        let nodeOutput: (any NodeOutput)?
        let addedSources: [any InputSource]
    }

    /// The registrations now.
    package var registrations: Registrations {
        Registrations(
            primaryInput: primaryInput, fallsBackToTerminal: fallsBackToTerminal, primaryOutput: primaryOutput,
            nodeOutput: nodeOutput, addedSources: addedSources)
    }

    /// Takes the registrations back to a snapshot (before ``openInput()`` only).
    ///
    /// - Parameter snapshot: What was registered before.
    package func restoreRegistrations(_ snapshot: Registrations) {
        precondition(!opened, "restoreRegistrations(_:) after openInput()")
        primaryInput = snapshot.primaryInput
        fallsBackToTerminal = snapshot.fallsBackToTerminal
        primaryOutput = snapshot.primaryOutput
        nodeOutput = snapshot.nodeOutput
        addedSources = snapshot.addedSources
    }

    /// Sets the input tried first (the keyboards, a compositor's seat). When it cannot start
    /// and `fallsBackToTerminal` is set and standard input is a terminal, the terminal is read
    /// instead, and ``inputNote`` says why. Call it before ``openInput()``.
    ///
    /// - Parameters:
    ///   - source: The source, made on this app's ``loop`` and ``dispatcher``.
    ///   - fallsBackToTerminal: Whether the terminal may stand in for it.
    public func setPrimaryInput(_ source: any InputSource, fallsBackToTerminal: Bool) {
        precondition(!opened, "setPrimaryInput(_:fallsBackToTerminal:) after openInput(): set it before the app starts")
        primaryInput = source
        self.fallsBackToTerminal = fallsBackToTerminal
        source.onDeviceChange = { [unowned self] change in self.deviceChanged(change) }
    }

    /// Registers another input source (a backend: a Wayland seat, a gamepad reader), started
    /// after the input the app chooses. It runs until the process ends, or until the source's
    /// own `stop()`; an input that fails to open stops those started before it. Call it before
    /// ``openInput()``.
    ///
    /// - Parameter source: The source, made on this app's ``loop`` and ``dispatcher``.
    public func add(_ source: any InputSource) {
        precondition(!opened, "add(_:) after openInput(): register sources before the app starts")
        addedSources.append(source)
        source.onDeviceChange = { [unowned self] change in self.deviceChanged(change) }
    }

    /// Sets where frames go instead of the terminal: a Wayland window (`WaylandCanvasOutput`), a
    /// display. The terminal is then not opened for drawing; ``output`` is this one, and its
    /// resizes draw a new frame (posted as ``Change/resized(columns:rows:)``). Call it before
    /// ``openInput()``.
    ///
    /// - Parameter output: The output.
    public func setOutput(_ output: any CanvasOutput) {
        precondition(!opened, "setOutput(_:) after openInput(): set it before the app starts")
        primaryOutput = output
        output.onResize = { [unowned self] in
            if let size = self.output?.size { self.post(.resized(columns: size.columns, rows: size.rows)) }
            self.frame()
        }
    }

    /// Sets where the window is shown by drawing its nodes as pixels (a Wayland window, a
    /// display): after every batch the output draws what changed (`NodeOutput.update()`). The
    /// terminal is then not opened for drawing and ``output`` stays `nil`, so an app that draws a
    /// `Canvas` from ``onFrame`` for the terminal (`app.output?.show(…)`) draws nothing there.
    /// Its resizes are posted as ``Change/screenResized(width:height:)`` and draw a frame. Call it
    /// before ``openInput()``.
    ///
    /// - Parameter output: The output.
    public func setNodeOutput(_ output: any NodeOutput) {
        precondition(!opened, "setNodeOutput(_:) after openInput(): set it before the app starts")
        nodeOutput = output
        output.onResize = { [unowned self] in
            if let size = self.nodeOutput?.pointSize {
                self.post(.screenResized(width: size.width, height: size.height))
            }
            self.frame()
        }
    }

    /// Chooses and opens the input (and the terminal for drawing), the sources added with
    /// ``add(_:)``, and the signal handling. Idempotent; ``start()`` calls it. After it,
    /// ``input`` and ``inputNote`` say what was chosen.
    ///
    /// - Throws: ``AppError`` (code ``AppError/Code/input``) when the chosen input cannot be
    ///   read: the primary input when the terminal may not stand in for it or is not available,
    ///   the terminal when it is the input and standard input is not one, or an added source.
    public func openInput() throws(AppError) {
        guard !opened else { return }
        opened = true
        SignalPipe.ignoreBrokenPipe()
        if let locks = configuration.initialLocks { dispatcher.setLocks(locks) }
        let primary = try startPrimaryInput()
        var chosen = primary.source
        let useTerminal = chosen == nil
        self.output = primaryOutput
        if useTerminal || (configuration.usesTerminalForOutput && !drawsOnScreen) {
            let input = configuration.terminalInput
            let output =
                configuration.terminalOutput
                ?? (TerminalKeyboard.isTerminal(1) ? 1 : TerminalKeyboard.isTerminal(2) ? 2 : input)
            do {
                let terminal = try TerminalKeyboard(input: input, output: output, negotiate: useTerminal)
                self.terminal = terminal
                if !drawsOnScreen { self.output = TerminalOutput(terminal: terminal) }
            } catch {
                if useTerminal { throw AppError(error) }
            }
        }
        if useTerminal, let terminal {
            // It sends the terminal's own layout: the characters arrive already typed on it.
            let source = TerminalSource(terminal: terminal, loop: loop, context: inputContext)
            do { try source.start() } catch { throw AppError(error) }
            chosen = source
        } else if let terminal {
            watchTerminalForQuit(terminal)
        }
        reserveQuitCommand()
        if let chosen {
            sources = [chosen]
            input = Input(rawValue: chosen.inputName)
            fallbackNote = primary.note
            chosenInput = chosen
        }
        for source in addedSources {
            do { try source.start() } catch {
                stopSources()
                terminal?.restore()
                throw AppError(error)
            }
            sources.append(source)
        }
        // A seat manager that took the VT for this session switched it to graphics mode.
        if chosen?.holdsSeat == true { terminal?.showTextOnConsole() }
        do { try watchSignals() } catch {
            stopSources()
            terminal?.restore()
            throw error
        }
        startInspection()
        for (message, skip) in messagesForOpen where !skip() { report(message) }
        messagesForOpen = []
        if configuration.fullScreen, let terminal {
            terminal.restoreSequence = Array("\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l".utf8)
            terminal.write(Array("\u{1b}[?1049h\u{1b}[?25l\u{1b}[2J".utf8))
        }
    }

    /// Reserves the quit command for the output chosen: a terminal's, or a screen's (none by default).
    private func reserveQuitCommand() {
        activeQuitCommand = drawsOnScreen ? configuration.screenQuitCommand : configuration.quitCommand
        guard let quitCommand = activeQuitCommand else { return }
        let control = loop.control
        // First, before the shortcuts the app reserved since init, as an app's key help lists it.
        let reservedByApp = dispatcher.reservedShortcuts
        dispatcher.removeReservedShortcuts()
        dispatcher.reserve(ReservedShortcut(quitCommand) { _ in control.stop() })
        for shortcut in reservedByApp { dispatcher.reserve(shortcut) }
    }

    /// Starts the primary input, unless the configuration asked for the terminal. When it cannot
    /// start and the terminal may stand in, it is stopped and the note says why.
    ///
    /// - Returns: The source started (`nil`: read the terminal) and the fallback's note.
    private func startPrimaryInput() throws(AppError) -> (source: (any InputSource)?, note: String?) {
        guard let primaryInput, !configuration.readsTerminal else { return (nil, nil) }
        do {
            try primaryInput.start()
            return (primaryInput, nil)
        } catch {
            guard fallsBackToTerminal, TerminalKeyboard.isTerminal(configuration.terminalInput) else {
                throw AppError(error)
            }
            primaryInput.stop()
            return (
                nil,
                "no \(primaryInput.inputName) could be read "
                    + "(\((error as? InputError)?.message ?? AppError(error).message)); reading the terminal instead"
            )
        }
    }

    /// Listens on the inspection socket, unless the configuration or the environment turned it
    /// off; a failure leaves the app running without it, and ``inspectionNote`` says why.
    private func startInspection() {
        let options = configuration.inspection
        let enabled =
            InspectionProtocol.environmentSetting(Syscalls.environment(InspectionProtocol.environmentVariable))
            ?? options.isEnabled
        guard enabled, inspection == nil else { return }
        var clamped = options
        clamped.bufferSize = max(options.bufferSize, 16 << 10)
        clamped.maximumWatchers = max(options.maximumWatchers, 1)
        let timeout = options.requestTimeout
        clamped.requestTimeout = timeout.isFinite ? min(max(timeout, 0.01), 3600) : 5
        let name = options.name ?? Self.programName
        do {
            let server = try InspectionServer(
                name: name, window: window, root: root, focusSystem: focusSystem, dispatcher: dispatcher, loop: loop,
                options: clamped
            ) { [unowned self] in
                InspectionServer.AppState(
                    input: self.input?.rawValue ?? "none", note: self.inputNote, layout: self.layoutDescription)
            }
            if input == .terminal { server.nameDevice(.primary, "terminal") }
            inspection = server
        } catch {
            inspectionNote = "keytrace --attach cannot watch this app: \(error.message)"
        }
    }

    /// The program's file name (`argv[0]` without its directory), for the inspection socket.
    public static var programName: String {
        let path = CommandLine.arguments.first ?? ""
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? "app" : name
    }

    /// Routes Ctrl-C, `SIGTERM` and `SIGHUP` (stop) and `SIGWINCH` (resize, then a frame) through
    /// a pipe on the loop.
    private func watchSignals() throws(AppError) {
        let signals: SignalPipe
        do {
            signals = try SignalPipe([
                SignalPipe.interrupt, SignalPipe.terminate, SignalPipe.hangUp, SignalPipe.windowChanged,
            ])
        } catch { throw AppError(error) }
        self.signals = signals
        let control = loop.control
        do {
            signalWatch = try loop.watch(signals.fileDescriptor) { [unowned self, unowned signals] in
                for signal in signals.drain() {
                    if signal == SignalPipe.windowChanged {
                        if let size = self.terminal?.size {
                            self.post(.resized(columns: size.columns, rows: size.rows))
                        }
                        self.frame()
                    } else {
                        control.stop()
                    }
                }
            }
        } catch { throw AppError(error) }
    }

    /// Opens the input, gives initial focus and draws the first frame. ``run()-13s0`` calls it;
    /// call it yourself to look at the app before it runs.
    ///
    /// - Throws: What ``openInput()`` throws.
    public func start() throws(AppError) {
        try openInput()
        guard !started else { return }
        started = true
        focusSystem.updateFocusIfNeeded()
        frame()
    }

    /// Runs until the quit command (``activeQuitCommand``), `SIGINT`, `SIGTERM`, `SIGHUP` or
    /// ``stop()``, blocking the calling thread, and serves the main actor's other work meanwhile.
    /// Call it from top-level code (or a synchronous `main`) on the main thread. The terminal is
    /// restored when it returns or throws.
    ///
    /// - Throws: What ``start()`` throws, or an ``AppError`` (code ``AppError/Code/input``) when
    ///   called off the main thread (use
    ///   `try await app.run()` there).
    public func run() throws(AppError) {
        defer { finish() }
        try start()
        do { try loop.run() } catch { throw AppError(error) }
        if let failure { throw failure }
    }

    /// Runs until stopped, like ``run()-13s0``, without blocking: for an `async` main or a test.
    ///
    /// - Throws: What ``start()`` throws.
    public func run() async throws(AppError) {
        defer { finish() }
        try start()
        do { try await loop.run() } catch { throw AppError(error) }
        if let failure { throw failure }
    }

    /// Asks for a frame after main-actor work changed what is drawn (a task that updated the tree
    /// between key events): ``onFrame`` runs once soon, however often this is called before it
    /// does. Focus moves made outside input ask by themselves; frames after input come anyway.
    public func setNeedsFrame() {
        guard !frameRequested else { return }
        frameRequested = true
        loop.control.perform { [weak self] in self?.frameRequested = false }
    }

    /// Makes ``run()-13s0`` return after the input in hand. From other threads, use
    /// `loop.control.stop()`.
    public func stop() {
        loop.control.stop()
    }

    /// Makes ``run()-13s0`` throw `error` after the input in hand: an input or output the app
    /// cannot go on without was lost (the compositor went away). The first failure is kept.
    ///
    /// - Parameter error: Why the app ends; its message names the thing and the fix.
    public func stop(failing error: AppError) {
        if failure == nil { failure = error }
        loop.control.stop()
    }

    /// Stops the sources (every press still held ends `cancelled`), gives the terminal back and
    /// ends the change sequences.
    private func finish() {
        stopSources()
        inspection?.stop()
        inspection = nil
        terminal?.restore()
        finished = true
        writeHeldMessages()
        // The signals go back to their default actions: after run(), Ctrl-C ends the process.
        if let signalWatch { loop.unwatch(signalWatch) }
        signalWatch = nil
        signals = nil
        for continuation in streams.values { continuation.finish() }
        streams = [:]
        for action in finishActions { action() }
    }

    /// Runs `action` each time ``run()-13s0`` or ``run()-52flm`` returns or throws, after the sources
    /// stopped and the terminal was given back (a message ``report(_:)`` is given then goes straight to
    /// standard error): for what a module built on the application must do before the process ends, such
    /// as AppSpeech writing a setting the listener changed just before. Actions run in the order given.
    /// The application keeps `action`, and what it captures, for as long as it lives.
    ///
    /// - Parameter action: What to do, on the main actor.
    package func whenFinished(_ action: @escaping () -> Void) {
        finishActions.append(action)
    }

    /// Keys come from evdev; the terminal, in raw mode for drawing, is only checked for Ctrl-C.
    private func watchTerminalForQuit(_ terminal: TerminalKeyboard) {
        let control = loop.control
        // The terminal's Ctrl-C is the terminal's quit command: none when the app set none.
        let quits = configuration.quitCommand != nil
        var token: EventLoop.Watch?
        // A descriptor epoll refuses (input redirected from a regular file) is not read for Ctrl-C:
        // the keys come from the primary input all the same.
        token = try? loop.watch(terminal.inputDescriptor) { [unowned loop] in
            let events = terminal.readEvents()
            if terminal.reachedEnd, let token { loop.unwatch(token) }
            if quits, TerminalKeyboard.containsControlC(events) { control.stop() }
        }
    }

    /// Stops every source started (their presses end `cancelled`).
    private func stopSources() {
        for source in sources.reversed() { source.stop() }
        sources = []
    }

    private func deviceChanged(_ change: InputDeviceChange) {
        switch change {
        case .added(let device): post(.deviceAdded(device))
        case .removed(let device, let cancelled): post(.deviceRemoved(device, cancelledKeys: cancelled))
        case .failed(let path, let message): post(.deviceFailed(path: path, message: message))
        case .hotPlugUnavailable(let message): post(.hotPlugUnavailable(message: message))
        case .seatDisabled(let cancelled): post(.seatDisabled(cancelledKeys: cancelled))
        case .seatEnabled:
            // The seat manager took the VT again (graphics mode): what the app draws must show.
            terminal?.showTextOnConsole()
            post(.seatEnabled)
        }
    }

    private func frame() {
        // Focus leaves an item the batch hid or disabled, and pending requests are carried out,
        // before anything is drawn (the step AppHarness takes after each event it sends).
        window.updateFocusAfterInput()
        checkFirstResponder()
        onFrame?()
        nodeOutput?.update()
        inspection?.frameEnded()
    }

    /// Posts the first responder when it changed: after each focus move (focus and first
    /// responder move together), and after each batch for changes made without focus.
    private func checkFirstResponder() {
        let responder = window.firstResponder.map(ObjectIdentifier.init)
        guard responder != lastFirstResponder else { return }
        lastFirstResponder = responder
        post(.firstResponderChanged(window.firstResponder?.traceName))
    }

    /// Shows something said to the listener (a screen reader's utterance) to `keytrace --attach`
    /// watchers, as an `announce` trace event stamped now. An app's own trace (`--trace FILE`) gets
    /// it from the app, which knows its session.
    ///
    /// - Parameters:
    ///   - text: The words; `nil` for a secret (typing in a secure field), shown `•`.
    ///   - kind: Why it was said (`focus`, `typing` …).
    ///   - priority: Its priority (`text`, `message` …).
    public func traceAnnouncement(_ text: String?, kind: String, priority: String) {
        inspection?.emit(.announce(text: text.map { .value($0) } ?? .redacted, kind: kind, priority: priority))
    }

    /// Says something to the operator while the app runs: the one place a late message goes, so
    /// that none is written over a frame. ``onMessage`` gets it (for the app's message line), and
    /// standard error too, one line with its control characters (newlines too) escaped, unless standard error is
    /// the terminal the app draws on: there a message would scroll the frame away, so it is kept and
    /// written when the terminal is given back.
    ///
    /// - Parameter message: What happened and the fix.
    public func report(_ message: String) {
        onMessage?(message)
        if stderrIsDrawnTerminal {
            if heldMessages.count < Self.heldMessageLimit { heldMessages.append(message) } else { droppedMessages += 1 }
        } else {
            Self.writeToStandardError(message)
        }
        if !loop.isDispatchingBatch { setNeedsFrame() }
    }

    /// Reports a message when ``openInput()`` runs (at once, when it has run): for what a backend
    /// learned while it was set up, before the app set ``onMessage``.
    ///
    /// - Parameters:
    ///   - message: What happened and the fix.
    ///   - skip: Asked then: whether the app took the message over itself (it is not reported).
    package func reportWhenOpened(_ message: String, unless skip: @escaping () -> Bool = { false }) {
        if opened {
            if !skip() { report(message) }
        } else {
            messagesForOpen.append((message, skip))
        }
    }

    /// Whether standard error is the terminal the app draws on now (from ``openInput()`` until the
    /// terminal is given back): messages are then kept for later.
    var stderrIsDrawnTerminal: Bool {
        guard let terminal, !finished, !drawsOnScreen, output != nil else { return false }
        return Syscalls.sameFile(2, terminal.outputDescriptor)
    }

    private static func writeToStandardError(_ message: String) {
        let output = OutputBuffer(descriptor: 2)
        output.line(standardErrorLine(message))
        output.flush()
    }

    /// A message as standard error gets it: `PROGRAM: message`, one line, every control character
    /// escaped, newlines too, so that text from outside inside a message (a reply, a path) cannot
    /// forge a line in a log.
    static func standardErrorLine(_ message: String) -> String {
        "\(programName): \(message)".escapingControlCharacters()
    }

    /// Writes the messages kept while the terminal was the app's, now that it is given back.
    private func writeHeldMessages() {
        for message in heldMessages { Self.writeToStandardError(message) }
        if droppedMessages > 0 {
            Self.writeToStandardError("\(droppedMessages) more messages were not kept")
        }
        heldMessages = []
        droppedMessages = 0
    }

    private func post(_ change: Change) {
        inspection?.report(change)
        onChange?(change)
        for continuation in streams.values { continuation.yield(change) }
    }
}
