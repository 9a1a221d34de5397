public import ResponderChain

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
/// try app.run()                    // until Ctrl-C, SIGTERM or app.stop()
/// ```
///
/// Everything runs on the main actor, in the order input arrived: a handler may start a `Task`
/// that awaits I/O and updates the tree; it resumes between input events. Call the blocking
/// ``run()-96spf`` from top-level code; from async code, `try await app.run()`.
///
/// The terminal, when the app uses it for input or for drawing, is in raw mode while the app runs
/// and is restored on exit, Ctrl-C, `SIGTERM`, `SIGHUP` and crash signals.
@MainActor
public final class KeyboardApp {
    /// Where key input comes from.
    public enum InputChoice: Hashable, Sendable {
        /// The keyboards when one can be read, else the terminal.
        case automatic
        /// The keyboards through evdev only (``Configuration/devices`` narrows them).
        case keyboards
        /// The terminal only.
        case terminal
    }

    /// The input the app reads.
    public enum Input: String, Hashable, Sendable {
        /// Keyboards through evdev.
        case keyboards
        /// The terminal (key events decoded from its escape sequences).
        case terminal
    }

    /// What the app reads and how it treats the terminal.
    public struct Configuration: Sendable {
        /// Keyboards, the terminal, or whichever works.
        public var input: InputChoice = .automatic
        /// Device paths or names to read; empty for every keyboard (see ``KeyboardEventLoop/Options``).
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
        public var seatAccess: KeyboardEventLoop.SeatAccess = .automatic
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
        /// The command that stops the app, reserved above every key command (Ctrl-C by default);
        /// `nil` for none.
        public var quitCommand: KeyCommand? = .standardQuit
        /// The environment the layout is resolved from; `nil` for the process's own.
        public var environment: [String: String]?
        /// The terminal's input descriptor: standard input by default (a test may pass a
        /// pseudo-terminal).
        public var terminalInput: Int32 = 0
        /// The terminal's output descriptor; `nil` for standard output, or standard error when
        /// only that is a terminal.
        public var terminalOutput: Int32?

        /// A configuration with the defaults: automatic input, no grab, the system's layout.
        public init() {}
    }

    /// Something an app may want to follow: focus, the first responder, devices, the terminal.
    public enum Change: Sendable {
        /// Focus moved; the context is delivered to the environments first.
        case focusMoved(from: String?, to: String?)
        /// The window's first responder changed (its trace name, or `nil`).
        case firstResponderChanged(String?)
        /// A keyboard was opened.
        case keyboardAdded(KeyboardEventLoop.Keyboard)
        /// A keyboard went away; its held keys were cancelled.
        case keyboardRemoved(KeyboardEventLoop.Keyboard, cancelledKeys: [KeyCode])
        /// A device could not be opened or grabbed.
        case deviceFailed(path: String, message: String)
        /// Hot-plug is unavailable: keyboards plugged in later will not be seen.
        case hotPlugUnavailable(message: String)
        /// The terminal changed size.
        case resized(columns: Int, rows: Int)
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
    /// The keyboard layout.
    public let layout: XKBKeyboardLayout
    /// Where the layout's names came from.
    public let layoutSource: KeymapNames.Source

    /// The layout keys go through, for a status line or a trace: the keymap and where its names
    /// came from (`de (environment)`), or `terminal` once the input is a terminal, whose
    /// characters arrive already typed on the terminal's own layout.
    public var layoutDescription: String {
        input == .terminal ? "terminal" : "\(layout.name) (\(layoutSource.rawValue))"
    }
    /// The event loop; ``KeyboardEventLoop/watch(_:handler:)`` adds an app's own descriptors.
    public let loop: KeyboardEventLoop
    /// The input read, once ``openInput()`` chose it.
    public private(set) var input: Input?
    /// Why that input, and what it can do (for example, whether the terminal reports releases).
    public private(set) var inputNote: String?
    /// The terminal, when the app reads or draws on it.
    public private(set) var terminal: TerminalKeyboard?
    /// Called after every batch of input and work, and on resize: draw here.
    public var onFrame: (() -> Void)?
    /// Called with every ``Change``, on the main actor.
    public var onChange: ((Change) -> Void)?

    private var signals: SignalPipe?
    private var signalWatch: UInt64?
    private var frameRequested = false
    private var opened = false
    private var started = false
    private var lastFirstResponder: ObjectIdentifier?
    private var streams: [UInt64: AsyncStream<Change>.Continuation] = [:]
    private var nextStream: UInt64 = 0

    /// Makes the app: resolves the layout and makes the dispatcher and the focus system. Nothing
    /// is opened until ``openInput()``, ``start()`` or ``run()-96spf``.
    ///
    /// - Parameters:
    ///   - window: The window.
    ///   - root: The root of the focus tree (in the window's tree).
    ///   - configuration: What to read.
    /// - Throws: ``KeyboardAppError/keymap(_:)`` for an unknown layout, variant, model, option or
    ///   rules; ``KeyboardAppError/input(_:)`` when the kernel refuses the event loop.
    public init(window: Window, root: any FocusEnvironment, configuration: Configuration = Configuration())
        throws(KeyboardAppError)
    {
        self.window = window
        self.root = root
        self.configuration = configuration
        let (names, source) = configuration.keymap.resolved(
            environment: configuration.environment ?? Syscalls.processEnvironment())
        do { layout = try XKBKeyboardLayout(names) } catch { throw .keymap(error) }
        layoutSource = source
        // The wiring AppHarness (ResponderChainTesting) uses too, so that tests run windows as apps do.
        (dispatcher, focusSystem) = window.makeDispatcher(focusRoot: root, layout: layout)
        var options = KeyboardEventLoop.Options(
            devices: configuration.devices, hotPlug: configuration.hotPlug, grab: configuration.grab,
            repeatMode: configuration.repeatMode)
        options.opensKeyboards = configuration.input != .terminal
        options.locksFromLEDs = configuration.initialLocks == nil
        options.seatAccess = configuration.seatAccess
        options.seatName = configuration.seatName
        do { loop = try KeyboardEventLoop(dispatcher: dispatcher, options: options) } catch { throw .input(error) }
        loop.onChange = { [unowned self] change in self.deviceChanged(change) }
        loop.afterDispatch = { [unowned self] in self.frame() }
        _ = focusSystem.addObserver { [unowned self] context in
            self.post(
                .focusMoved(
                    from: context.previouslyFocusedItem?.focusDebugName, to: context.nextFocusedItem?.focusDebugName))
            self.checkFirstResponder()
            // Focus moved by main-actor work between batches (a task): draw it.
            if !self.loop.isDispatchingBatch { self.setNeedsFrame() }
        }
        if let command = configuration.quitCommand {
            let control = loop.control
            dispatcher.reserve(ReservedShortcut(command) { _ in control.stop() })
        }
    }

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

    /// Chooses and opens the input (and the terminal for drawing), and the signal handling.
    /// Idempotent; ``start()`` calls it. After it, ``input`` and ``inputNote`` say what was chosen.
    ///
    /// - Throws: ``KeyboardAppError/input(_:)`` when the chosen input cannot be read: the
    ///   keyboards (permission, none found) when they were asked for or the terminal is not
    ///   available, or the terminal when it was asked for and standard input is not one.
    public func openInput() throws(KeyboardAppError) {
        guard !opened else { return }
        opened = true
        SignalPipe.ignoreBrokenPipe()
        if let locks = configuration.initialLocks { dispatcher.setLocks(locks) }
        var useTerminal = configuration.input == .terminal
        var note: String?
        if !useTerminal {
            do { try loop.start() } catch {
                guard configuration.input == .automatic, TerminalKeyboard.isTerminal(configuration.terminalInput)
                else { throw .input(error) }
                useTerminal = true
                loop.releaseKeyboards()
                note = "no keyboard could be read (\(error.message)); reading the terminal instead"
            }
        }
        if useTerminal || configuration.usesTerminalForOutput {
            let input = configuration.terminalInput
            let output =
                configuration.terminalOutput
                ?? (TerminalKeyboard.isTerminal(1) ? 1 : TerminalKeyboard.isTerminal(2) ? 2 : input)
            do { terminal = try TerminalKeyboard(input: input, output: output, negotiate: useTerminal) } catch {
                if useTerminal { throw .input(error) }
            }
        }
        if useTerminal, let terminal {
            let events =
                terminal.reportsEventTypes
                ? "kitty keyboard protocol: real presses, repeats and releases"
                : "no kitty keyboard protocol: each key is a press followed at once by a release"
            note = [note, events, "characters as the terminal typed them"].compactMap { $0 }.joined(separator: "; ")
            // The terminal already typed the characters on its own layout: they must not go
            // through the system's layout again (see TerminalKeyboardLayout).
            dispatcher.layout = TerminalKeyboardLayout()
        }
        input = useTerminal ? .terminal : .keyboards
        if !useTerminal {
            let names = loop.keyboards.map { $0.name + ($0.isGrabbed ? " (grabbed)" : "") }
            note = names.isEmpty ? "no keyboard yet; waiting for one to be plugged in" : names.joined(separator: ", ")
        }
        inputNote = note
        // A seat manager that took the VT for this session switched it to graphics mode.
        if loop.seat != nil { terminal?.showTextOnConsole() }
        watchTerminal(asInput: useTerminal)
        do {
            let signals = try SignalPipe([
                SignalPipe.interrupt, SignalPipe.terminate, SignalPipe.hangUp, SignalPipe.windowChanged,
            ])
            self.signals = signals
            let control = loop.control
            signalWatch = loop.watch(signals.fileDescriptor) { [unowned self, unowned signals] in
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
        } catch {
            terminal?.restore()
            throw .input(error)
        }
        if configuration.fullScreen, let terminal {
            terminal.restoreSequence = Array("\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l".utf8)
            terminal.write(Array("\u{1b}[?1049h\u{1b}[?25l\u{1b}[2J".utf8))
        }
    }

    /// Opens the input, gives initial focus and draws the first frame. ``run()-96spf`` calls it;
    /// call it yourself to look at the app before it runs.
    ///
    /// - Throws: What ``openInput()`` throws.
    public func start() throws(KeyboardAppError) {
        try openInput()
        guard !started else { return }
        started = true
        focusSystem.updateFocusIfNeeded()
        frame()
    }

    /// Runs until Ctrl-C (``Configuration/quitCommand``), `SIGINT`, `SIGTERM`, `SIGHUP` or
    /// ``stop()``, blocking the calling thread, and serves the main actor's other work meanwhile.
    /// Call it from top-level code (or a synchronous `main`) on the main thread. The terminal is
    /// restored when it returns or throws.
    ///
    /// - Throws: What ``start()`` throws, or ``KeyboardAppError/input(_:)`` when called off the
    ///   main thread (use `try await app.run()` there).
    public func run() throws(KeyboardAppError) {
        defer { finish() }
        try start()
        do { try loop.run() } catch { throw .input(error) }
    }

    /// Runs until stopped, like ``run()-96spf``, without blocking: for an `async` main or a test.
    ///
    /// - Throws: What ``start()`` throws.
    public func run() async throws(KeyboardAppError) {
        defer { finish() }
        try start()
        do { try await loop.run() } catch { throw .input(error) }
    }

    /// Asks for a frame after main-actor work changed what is drawn (a task that updated the tree
    /// between key events): ``onFrame`` runs once soon, however often this is called before it
    /// does. Focus moves made outside input ask by themselves; frames after input come anyway.
    public func setNeedsFrame() {
        guard !frameRequested else { return }
        frameRequested = true
        loop.control.perform { [weak self] in self?.frameRequested = false }
    }

    /// Makes ``run()-96spf`` return after the input in hand. From other threads, use
    /// `loop.control.stop()`.
    public func stop() {
        loop.control.stop()
    }

    /// Gives the terminal back and ends the change sequences.
    private func finish() {
        terminal?.restore()
        // The signals go back to their default actions: after run(), Ctrl-C ends the process.
        if let signalWatch { loop.unwatch(signalWatch) }
        signalWatch = nil
        signals = nil
        for continuation in streams.values { continuation.finish() }
        streams = [:]
    }

    private func watchTerminal(asInput: Bool) {
        guard let terminal else { return }
        let control = loop.control
        let sink: any InputSink = dispatcher
        if asInput {
            loop.watch(terminal.inputDescriptor) {
                if !terminal.read(into: sink, time: KeyboardEventLoop.monotonicNow) { control.stop() }
            }
        } else {
            // Keys come from evdev; the terminal, in raw mode, is only checked for Ctrl-C.
            var token: UInt64 = 0
            token = loop.watch(terminal.inputDescriptor) { [unowned loop] in
                let events = terminal.readEvents()
                if terminal.reachedEnd { loop.unwatch(token) }
                if Self.containsControlC(events) { control.stop() }
            }
        }
    }

    /// Whether terminal input holds a Ctrl-C: a press of C, and Control in the same read (its
    /// press, release or cancellation). The terminal watched for output only quits on it.
    static func containsControlC(_ events: [InputEvent]) -> Bool {
        var pressesC = false
        var hasControl = false
        for event in events {
            switch event {
            case .key(let key):
                if key.code == .c && key.action == .down { pressesC = true }
                if key.code == .leftControl { hasControl = true }
            case .cancelKey(let code, _, _):
                if code == .leftControl { hasControl = true }
            default:
                break  // text and the rest name no key of their own
            }
        }
        return pressesC && hasControl
    }

    private func deviceChanged(_ change: KeyboardEventLoop.Change) {
        switch change {
        case .added(let keyboard): post(.keyboardAdded(keyboard))
        case .removed(let keyboard, let cancelled): post(.keyboardRemoved(keyboard, cancelledKeys: cancelled))
        case .failed(let path, let error): post(.deviceFailed(path: path, message: error.message))
        case .hotPlugUnavailable(let error): post(.hotPlugUnavailable(message: error.message))
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
    }

    /// Posts the first responder when it changed: after each focus move (focus and first
    /// responder move together), and after each batch for changes made without focus.
    private func checkFirstResponder() {
        let responder = window.firstResponder.map(ObjectIdentifier.init)
        guard responder != lastFirstResponder else { return }
        lastFirstResponder = responder
        post(.firstResponderChanged(window.firstResponder?.traceName))
    }

    private func post(_ change: Change) {
        onChange?(change)
        for continuation in streams.values { continuation.yield(change) }
    }
}

/// Why a ``KeyboardApp`` could not be made or run.
public enum KeyboardAppError: Error, CustomStringConvertible {
    /// The keymap names do not name a layout xkbcommon knows.
    case keymap(KeymapError)
    /// The input could not be opened or read.
    case input(InputError)

    /// The underlying error's message, which names the thing and the fix.
    public var description: String {
        switch self {
        case .keymap(let error): "\(error)"
        case .input(let error): "\(error)"
        }
    }
}
