public import ResponderChain

/// A window's dispatcher and focus system, turning every dispatch decision into
/// ``TraceEvent``s: keytrace's trace, for keytrace's scenes and for any app's own window.
///
/// An app's `--trace FILE`, complete (this is what the kiosk example does):
///
/// ```swift
/// import DispatchTrace
/// import LinuxKeyboard
///
/// let app = try KeyboardApp(window: window, root: root)
/// // 1. The output: a file, or a FIFO whose reader is already running (it never blocks the app).
/// let output = try OutputBuffer(path: "kiosk.jsonl")
/// // 2. The session, on the app's dispatcher and focus system, before any key.
/// let trace = TraceSession(
///     name: "kiosk", window: app.window, dispatcher: app.dispatcher, focusSystem: app.focusSystem,
///     explain: true  // stage decisions too, as keytrace --explain
/// ) { event in output.append { event.writeJSON(to: &$0) } }
/// trace.timeOrigin = EventLoop.monotonicNow  // `t` counts from here
/// // 3. Keyboards plugged in and out, the seat paused and resumed.
/// app.onChange = { change in trace.report(change) }
/// app.onFrame = {
///     output.flush()  // once per frame, not per event
///     if let error = output.writeError { showStatus("trace stopped: \(error)") }  // a full disk
///     // … draw …
/// }
/// // 4. Open the input, then start the trace: its `session` event names the input chosen.
/// try app.openInput()
/// if app.input == .terminal { trace.deviceNames[.primary] = "terminal" }
/// trace.start(input: app.input?.rawValue ?? "none", layout: app.layoutDescription, note: app.inputNote)
/// try app.run()
/// try output.finish()  // writes what is left; throws when the trace is incomplete
/// ```
///
/// Each line is one ``TraceEvent`` as keytrace's `--json` writes it (`jq` reads them);
/// ``TraceEvent/plainLine`` renders the same event as keytrace's plain text.
///
/// Keys typed into a secure text input are ``TraceEvent/Redactable/redacted`` in every event
/// (written `•`), as the dispatcher marks them. Isolated to the main actor, like the dispatcher
/// it observes.
@MainActor
public final class TraceSession {
    /// The name reported in the `session` event's `scene` field: the scene's, or the app's.
    public let name: String
    /// The window traced.
    public let window: Window
    /// Its dispatcher.
    public let dispatcher: Dispatcher
    /// Its focus system.
    public let focusSystem: FocusSystem
    /// Whether `stage` and `keyCommandPassedOver` events are produced (`--explain`).
    public var explain: Bool
    /// Receives every event, in order.
    public var onEvent: (TraceEvent) -> Void
    /// Subtracted from input timestamps to make `t` (the live clock's start).
    public var timeOrigin: Double = 0
    /// Names for devices in `key` and `device` events.
    public var deviceNames: [DeviceID: String] = [:]
    /// The events so far, when ``keepsHistory`` is set (the live view's trace pane).
    public private(set) var history: [TraceEvent] = []
    /// Whether ``history`` keeps the last ``historyLimit`` events.
    public var keepsHistory = false
    /// How many events ``history`` keeps.
    public var historyLimit = 500
    /// What the last key-down's stages decided, for the live view.
    public private(set) var lastStages: [TraceEvent] = []

    private var lastTime: Double = 0
    /// Events reported before ``start(input:layout:note:t:)``: they follow the `session` event.
    private var heldUntilStart: [TraceEvent]? = []
    /// The dispatcher's subscription, until ``stop()``.
    private var observation: TraceObservation?

    /// Traces a window whose dispatcher and focus system were made elsewhere (by a `KeyboardApp`).
    /// Nothing reaches `onEvent` until ``start(input:layout:note:t:)``: what happens before is
    /// held for it.
    ///
    /// - Parameters:
    ///   - name: The name for the `session` event (the app's or the scene's).
    ///   - window: The window.
    ///   - dispatcher: The window's dispatcher.
    ///   - focusSystem: The window's focus system.
    ///   - explain: Whether stage decisions are reported.
    ///   - onEvent: Receives the events.
    public init(
        name: String, window: Window, dispatcher: Dispatcher, focusSystem: FocusSystem, explain: Bool = false,
        onEvent: @escaping (TraceEvent) -> Void
    ) {
        self.name = name
        self.window = window
        self.explain = explain
        self.onEvent = onEvent
        self.dispatcher = dispatcher
        self.focusSystem = focusSystem
        observation = dispatcher.addTraceObserver { [unowned self] record in self.handle(record) }
    }

    /// Reports the session start, then what was reported before it (keyboards opened while the
    /// input was being set up), then gives the window its initial focus (reported like any other
    /// focus move). A trace's first event is always its `session` event.
    ///
    /// - Parameters:
    ///   - input: Which input feeds the session.
    ///   - layout: The layout's name and where it came from.
    ///   - note: Anything the user should know about the input.
    ///   - t: The start time.
    public func start(input: String, layout: String, note: String? = nil, t: Double = 0) {
        lastTime = t
        // The app may have chosen its input, and with it the layout, since the session was made.
        keysyms.removeAll()
        let held = heldUntilStart ?? []
        heldUntilStart = nil
        emit(TraceEvent(t: t, .session(input: input, scene: name, layout: layout, note: note)))
        for event in held { emit(event) }
        focusSystem.updateFocusIfNeeded()
    }

    /// Follows a window that is already running (a watcher attached to a running app): no
    /// `session` event and no focus move, events from now on, at `t`. What was reported before
    /// is dropped.
    ///
    /// - Parameter t: The time now, on the session's clock.
    public func join(t: Double) {
        lastTime = t
        keysyms.removeAll()
        heldUntilStart = nil
    }

    /// Stops following the dispatcher: no event after this one, and dispatch builds no record
    /// for this session any more (it allocates nothing when no other observer is left). Call it
    /// before letting go of a session whose window lives on.
    public func stop() {
        if let observation { dispatcher.removeTraceObserver(observation) }
        observation = nil
    }

    /// Reports an event that did not come from the dispatcher (session start, devices). Before
    /// ``start(input:layout:note:t:)`` the event is held, and reported right after the `session`
    /// event.
    ///
    /// - Parameter event: The event.
    public func emit(_ event: TraceEvent) {
        if heldUntilStart != nil {
            heldUntilStart?.append(event)
            return
        }
        if keepsHistory {
            history.append(event)
            if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
        }
        onEvent(event)
    }

    /// The time of the newest event, on the session's clock.
    public var now: Double { lastTime }

    /// Whether what is typed now goes into a secure text field (`Dispatcher.isSecureEntry`).
    public var isSecureEntry: Bool { dispatcher.isSecureEntry }

    /// The focused item's id.
    public var focusedID: String? { focusSystem.focusedItem?.focusDebugName }
    /// The first responder's id.
    public var firstResponderID: String? { window.firstResponder?.traceName }
    /// The focused item's focus group.
    public var focusedGroup: String? { focusSystem.focusedItem.flatMap { focusSystem.focusGroup(of: $0) } }

    private func handle(_ record: DispatchRecord) {
        if record.sequence > 0 { lastTime = record.timestamp - timeOrigin }
        let t = lastTime
        // The dispatcher redacts keys typed into a secure text input at the source; the events
        // say so with `.redacted` (written `•`).
        let secure = record.isSecureEntry
        switch record.kind {
        case .input(let event, let key, _):
            let details: TraceEvent.Redactable<TraceEvent.KeyDetails> =
                secure
                ? .redacted
                : .value(
                    TraceEvent.KeyDetails(
                        code: event.code, keysym: keysymName(event.code), characters: key.characters,
                        modifierFlags: key.modifierFlags))
            emit(TraceEvent(t: t, .key(event.action, details, device: deviceName(event.device))))
            if event.action == .down && !event.code.isModifier { lastStages = [] }
        case .stage(let stage, let outcome, let reason):
            guard explain || keepsHistory else { return }
            let event = TraceEvent(t: t, .stage(stage, outcome, reason: reason))
            lastStages.append(event)
            if explain { emit(event) }
        case .keyCommand(let command, let declaredBy, let target, let priority, let isRepeat):
            emit(
                TraceEvent(
                    t: t,
                    .keyCommand(
                        title: command.title, action: command.action,
                        shortcut: secure ? .redacted : Self.shortcut(command),
                        declaredBy: declaredBy?.name, responder: target.name, priority: priority, isRepeat: isRepeat)))
        case .keyCommandPassedOver(let command, let declaredBy, let reason):
            guard explain else { return }
            emit(
                TraceEvent(
                    t: t,
                    .keyCommandPassedOver(
                        action: command.action, shortcut: secure ? .redacted : Self.shortcut(command),
                        declaredBy: declaredBy?.name, reason: reason)))
        case .press(let press, let responder):
            let key: TraceEvent.Redactable<KeyCode> = secure ? .redacted : .value(press.key.keyCode)
            emit(TraceEvent(t: t, .press(press.phase, key: key, to: .responder(responder.name), press: press.id)))
        case .pressOwned(let press, let owner, let reason):
            let key: TraceEvent.Redactable<KeyCode> = secure ? .redacted : .value(press.key.keyCode)
            emit(TraceEvent(t: t, .press(press.phase, key: key, to: .owner(owner, reason: reason), press: press.id)))
        case .unhandled(let key):
            emit(TraceEvent(t: t, .unhandled(secure ? .redacted : .value(key.keyCode))))
        case .firstResponder(let from, let to):
            emit(TraceEvent(t: t, .firstResponder(from: from?.name, to: to?.name)))
        case .focus(let from, let to, let cause, _, let fromGroup, let toGroup):
            emit(TraceEvent(t: t, .focus(from: from, to: to, cause: cause, fromGroup: fromGroup, toGroup: toGroup)))
        case .focusVetoed(let from, let to, let by):
            emit(TraceEvent(t: t, .focusVetoed(from: from, to: to, by: by)))
        case .deviceRemoved(let device):
            emit(TraceEvent(t: t, .device(.removed, name: deviceName(device), path: nil, detail: nil)))
        case .keyboardLost:
            emit(TraceEvent(t: t, .device(.keyboardLost, name: "all keyboards", path: nil, detail: nil)))
        case .textInserted(let count, let target):
            emit(TraceEvent(t: t, .paste(characters: count, responder: target?.name)))
        case .pointer(let event, let item, let outcome):
            // Finite and readable back (a source's coordinate beyond ±2^33 is clamped).
            func clamp(_ value: Double) -> Double {
                value.isFinite ? min(max(value, -TraceEvent.maximumTime), TraceEvent.maximumTime) : 0
            }
            let position: TraceEvent.Redactable<Point> =
                secure ? .redacted : .value(Point(x: clamp(event.point.x), y: clamp(event.point.y)))
            func shown(_ text: String?) -> TraceEvent.Redactable<String>? {
                text.map { secure ? .redacted : .value($0) }
            }
            emit(
                TraceEvent(
                    t: t,
                    .pointer(
                        TraceEvent.Pointer(
                            phase: event.phase, kind: event.kind, contact: event.contact, position: position,
                            device: deviceName(event.device), item: shown(item), outcome: shown(outcome)))))
        }
    }

    private func deviceName(_ device: DeviceID) -> String {
        deviceNames[device] ?? device.description
    }

    private var keysyms: [UInt64: String?] = [:]
    /// The dispatcher's layout generation the cached keysyms belong to (a compositor sends new keymaps).
    private var keysymGeneration: UInt64 = 0

    /// The keysym the key produces now, through the layout's
    /// `KeyboardLayout.keysymName(for:in:)`, cached per key and layout state
    /// (the layout is asked once).
    private func keysymName(_ code: KeyCode) -> String? {
        if dispatcher.layoutGeneration != keysymGeneration {
            keysyms.removeAll()
            keysymGeneration = dispatcher.layoutGeneration
        }
        let state = dispatcher.keyboardState.layoutState
        let flags = UInt64(truncatingIfNeeded: state.modifierFlags.rawValue)
        // States the key cannot hold (a group beyond 3, flags beyond bit 35) are asked every time.
        guard (0...3).contains(state.group), flags < 1 << 36 else {
            return dispatcher.layout.keysymName(for: code, in: state)
        }
        var cacheKey = UInt64(code.rawValue) << 40 | flags | UInt64(state.group) << 36
        if state.numLock { cacheKey |= 1 << 38 }
        if state.levelThree { cacheKey |= 1 << 39 }
        if let name = keysyms[cacheKey] { return name }
        let name = dispatcher.layout.keysymName(for: code, in: state)
        keysyms[cacheKey] = name
        return name
    }

    /// `ctrl+f`, `shift+tab`: the chord part of a command.
    static func shortcut(_ command: KeyCommand) -> TraceEvent.Redactable<String> {
        let modifiers = command.modifierFlags.description
        return .value(modifiers.isEmpty ? command.input.description : modifiers + "+" + command.input.description)
    }
}
