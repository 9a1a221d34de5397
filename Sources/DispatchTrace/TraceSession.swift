internal import LinuxKeyboard
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
/// trace.timeOrigin = KeyboardEventLoop.monotonicNow  // `t` counts from here
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
/// Keys typed into a secure text input appear as `•` in every field, as the dispatcher marks
/// them. Isolated to the main actor, like the dispatcher it observes.
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
    /// The dispatcher's layout when xkbcommon's (for keysym names); read again at start, after
    /// the app chose its input (a terminal's layout is not xkbcommon's).
    private var xkb: XKBKeyboardLayout?

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
        xkb = dispatcher.layout as? XKBKeyboardLayout
        _ = dispatcher.addTraceObserver { [unowned self] record in self.handle(record) }
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
        xkb = dispatcher.layout as? XKBKeyboardLayout
        keysyms.removeAll()
        let held = heldUntilStart ?? []
        heldUntilStart = nil
        emit(TraceEvent(t: t, .session(input: input, scene: name, layout: layout, note: note)))
        for event in held { emit(event) }
        focusSystem.updateFocusIfNeeded()
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
        switch record.kind {
        case .input(let event, let key, _):
            // The dispatcher redacts keys typed into a secure text input at the source.
            let masked = record.isSecureEntry
            let phase: String
            switch event.action {
            case .down: phase = "down"
            case .repeat: phase = "repeat"
            case .up: phase = "up"
            }
            emit(
                TraceEvent(
                    t: t,
                    .key(
                        phase: phase, key: masked ? "•" : event.code.name, code: masked ? nil : event.code.rawValue,
                        keysym: masked ? "•" : keysymName(event.code), characters: masked ? "•" : key.characters,
                        modifiers: masked ? [] : modifierNames(key.modifierFlags),
                        device: deviceNames[event.device] ?? event.device.description)))
            if event.action == .down && !event.code.isModifier { lastStages = [] }
        case .stage(let stage, let outcome, let reason):
            guard explain || keepsHistory else { return }
            let number = (DispatchStage.allCases.firstIndex(of: stage) ?? 0) + 1
            let event = TraceEvent(
                t: t, .stage(number: number, stage: stage.rawValue, decision: outcome.rawValue, reason: reason))
            lastStages.append(event)
            if explain { emit(event) }
        case .keyCommand(let command, let declaredBy, let target, let priority, let isRepeat):
            emit(
                TraceEvent(
                    t: t,
                    .keyCommand(
                        title: command.title, action: command.action.rawValue,
                        shortcut: record.isSecureEntry ? "•" : Self.shortcut(command), declaredBy: declaredBy?.name,
                        responder: target.name, priority: priority, isRepeat: isRepeat)))
        case .keyCommandPassedOver(let command, let declaredBy, let reason):
            guard explain else { return }
            emit(
                TraceEvent(
                    t: t,
                    .keyCommandPassedOver(
                        action: command.action.rawValue, shortcut: record.isSecureEntry ? "•" : Self.shortcut(command),
                        declaredBy: declaredBy?.name, reason: reason)))
        case .press(let press, let responder):
            emit(
                TraceEvent(
                    t: t,
                    .press(
                        phase: press.phase.description, key: record.isSecureEntry ? "•" : press.key.keyCode.name,
                        responder: responder.name, owner: nil, reason: nil, press: UInt64(press.id.rawValue))))
        case .pressOwned(let press, let owner, let reason):
            emit(
                TraceEvent(
                    t: t,
                    .press(
                        phase: press.phase.description, key: record.isSecureEntry ? "•" : press.key.keyCode.name,
                        responder: nil, owner: owner.rawValue, reason: reason, press: UInt64(press.id.rawValue))))
        case .unhandled(let key):
            emit(TraceEvent(t: t, .unhandled(key: record.isSecureEntry ? "•" : key.keyCode.name)))
        case .firstResponder(let from, let to):
            emit(TraceEvent(t: t, .firstResponder(from: from?.name, to: to?.name)))
        case .focus(let from, let to, let cause, _, let fromGroup, let toGroup):
            emit(
                TraceEvent(
                    t: t, .focus(from: from, to: to, cause: cause.rawValue, fromGroup: fromGroup, toGroup: toGroup)))
        case .focusVetoed(let from, let to, let by):
            emit(TraceEvent(t: t, .focusVetoed(from: from, to: to, by: by)))
        case .deviceRemoved(let device):
            emit(
                TraceEvent(
                    t: t,
                    .device(change: "removed", name: deviceNames[device] ?? device.description, path: nil, detail: nil))
            )
        case .keyboardLost:
            emit(TraceEvent(t: t, .device(change: "keyboardLost", name: "all keyboards", path: nil, detail: nil)))
        case .textInserted(let count, let target):
            emit(TraceEvent(t: t, .paste(characters: count, responder: target?.name)))
        }
    }

    private var keysyms: [UInt64: String] = [:]
    private var modifierLists: [UInt32: [String]] = [:]

    /// The keysym the key produces now, cached per key and layout state (xkb is asked once).
    private func keysymName(_ code: KeyCode) -> String? {
        guard let xkb else { return nil }
        let state = dispatcher.keyboardState.layoutState
        var cacheKey = UInt64(code.rawValue) << 40 | UInt64(state.modifierFlags.rawValue)
        if state.numLock { cacheKey |= 1 << 38 }
        if state.levelThree { cacheKey |= 1 << 39 }
        cacheKey |= UInt64(min(max(state.group, 0), 3)) << 36  // xkbcommon has at most 4 layouts
        if let name = keysyms[cacheKey] { return name }
        let name = xkb.keysymName(for: code, in: state)
        keysyms[cacheKey] = name
        return name
    }

    /// `["ctrl", "shift"]`, cached per combination.
    private func modifierNames(_ flags: ModifierFlags) -> [String] {
        let raw = UInt32(truncatingIfNeeded: flags.rawValue)
        if let names = modifierLists[raw] { return names }
        let text = flags.description
        let names = text.isEmpty ? [] : text.split(separator: "+").map(String.init)
        modifierLists[raw] = names
        return names
    }

    /// `ctrl+f`, `shift+tab`: the chord part of a command.
    static func shortcut(_ command: KeyCommand) -> String {
        let modifiers = command.modifierFlags.description
        return modifiers.isEmpty ? command.input.description : modifiers + "+" + command.input.description
    }
}
