/// Delivers key events to a window's responders through the seven-stage pipeline of
/// <doc:DispatchOrder>, and keeps every press's lifecycle.
///
/// Input sources call ``handle(_:)`` for every key transition, and ``deviceRemoved(_:timestamp:)``,
/// ``cancelKey(_:on:timestamp:)``, ``resynchronize(device:pressedKeys:timestamp:)`` or
/// ``keyboardLost(timestamp:)`` when they lose track of keys. A key-down goes through:
///
/// 1. reserved shortcuts, 2. priority key commands, 3. text input, 4. system behaviour (focus),
/// 5. key commands, 6. presses up the responder chain, 7. unhandled.
///
/// The first stage that takes the key-down owns the whole press: its repeats, its key-up and its
/// cancellation.
///
/// ## Re-entrancy
/// Handlers may change the tree, the first responder or the dispatcher's configuration, and may
/// post further events while a key is being dispatched. Posted events are queued, never
/// dispatched recursively: they run in order after the current event is finished. Responders
/// that leave the tree during an event receive their `cancelled` right after that event.
///
/// ## Threading
/// A dispatcher, like the tree it dispatches into, is isolated to the main actor; input sources
/// run on the main thread (``KeyEvent`` values may be made anywhere).
@MainActor
public final class Dispatcher {
    enum Owner {
        case reserved
        case keyCommand(KeyCommand, declarer: Responder?, priority: Bool)
        case textInput(Responder)
        case system(any SystemKeyHandler)
        case responders(handler: Responder?)
        /// Cancelled for its owners (the window changed, the owner left); `stage` is the stage
        /// that had taken the key-down.
        case cancelled(reason: String, stage: DispatchStage)

        /// The stage that took the key-down.
        var stage: DispatchStage {
            switch self {
            case .reserved: return .reservedShortcuts
            case .keyCommand(_, _, let priority): return priority ? .priorityKeyCommands : .keyCommands
            case .textInput: return .textInput
            case .system: return .systemBehavior
            case .responders(let handler): return handler == nil ? .unhandled : .presses
            case .cancelled(_, let stage): return stage
            }
        }
    }

    /// A press between its `began` and its end. Records are pooled and reused, so a key press
    /// allocates nothing in the steady state.
    final class ActivePress {
        @exclusivity(unchecked) var press: Press
        @exclusivity(unchecked) var owner: Owner = .responders(handler: nil)
        /// Responders that received `began` and are still owed their `ended` or `cancelled`.
        /// Unretained: a responder in this list is either in the window's tree, or was removed
        /// during the current event and is kept alive by ``Dispatcher/removedDuringEvent`` until
        /// the event's reconcile pass takes it out of this list.
        @exclusivity(unchecked) var recipients: [UnownedRef<Responder>] = []

        init(press: Press) {
            self.press = press
            recipients.reserveCapacity(8)
        }
    }

    enum PendingInput {
        case key(KeyEvent)
        case cancelKey(KeyCode, DeviceID, Double)
        case resync(DeviceID, [KeyCode], Double)
        case deviceRemoved(DeviceID, Double)
        case keyboardLost(Double)
        case insertText(String, Double)
        case modifiers(SerializedModifiers, DeviceID, Double)
        case pointer(PointerEvent)
        case switchWindow(Window, Double)
        case reconcile
    }

    // The properties read on every key skip the dynamic exclusivity check: each access is a single
    // load or store, or a mutation of a value that no callback can reach while it runs.
    /// The window keys go to. Change it with ``setWindow(_:timestamp:)``.
    @exclusivity(unchecked) public internal(set) var window: Window

    /// The layout that turns key codes into characters. ``USKeyboardLayout`` by default.
    @exclusivity(unchecked) public var layout: any KeyboardLayout {
        didSet {
            layoutGeneration &+= 1
            logicalKeys = LogicalKeyMap(layout)
            reverseMap = LayoutReverseMap(layout, logicalKeys: logicalKeys)
            keyCache = KeyCache()
            cachesKeys = Self.answersFromArguments(layout)
            resolutions.reset()
            state.rightAltIsLevelThree = layout.rightAltIsLevelThree
            reservedIndex = nil
            startTracking()
        }
    }

    /// The layout's live key state (xkbcommon's `xkb_state`), when it keeps one.
    @exclusivity(unchecked) var tracker: (any KeyStateTracker)?

    /// Menu-bar-like key commands that are active whatever the first responder is. They are
    /// searched after the responder chain, and their action goes up the chain from the first
    /// responder.
    public var globalKeyCommands: [KeyCommand] = [] {
        didSet { globalGeneration &+= 1 }
    }

    /// The system behaviour stage's handler: the focus system, or `nil` for none.
    @exclusivity(unchecked) public var systemKeyHandler: (any SystemKeyHandler)?

    /// Shortcuts reserved by the embedding app; see ``reserve(_:)``.
    @exclusivity(unchecked) public private(set) var reservedShortcuts: [ReservedShortcut] = []

    /// Which keys are down, the modifiers and the locks, as the events so far say.
    public var keyboardState: KeyboardState { state }

    /// Sets Caps Lock, Num Lock and Scroll Lock, as an app does at start (Num Lock on for a PIN
    /// pad on the keypad) or to follow a keyboard's LEDs. Later lock-key presses toggle from here;
    /// an `EvdevSource` shows the new state on every keyboard's LEDs after its loop's next batch.
    ///
    /// - Parameter locks: The locks that are on.
    public func setLocks(_ locks: LockState) {
        let before = state.layoutState
        state.locks = locks
        if let tracker {
            tracker.setLocks(locks)
            state.adopt(tracker.state)
        }
        if state.layoutState != before && !isDispatching { modifiersDidChange(except: nil) }
    }

    /// Makes the new layout's tracker (if it keeps one) and hands it the locks and held keys.
    private func startTracking() {
        tracker = layout.makeKeyStateTracker()
        guard let tracker else {
            state.stopTracking()
            return
        }
        tracker.setLocks(state.locks)
        for code in state.pressedKeys where !code.isLockKey { _ = tracker.keyDown(code) }
        state.adopt(tracker.state)
    }

    /// The presses that have begun and not yet ended or been cancelled, oldest first.
    public var activePresses: [Press] { active.map(\.press) }

    @exclusivity(unchecked) var state = KeyboardState()
    @exclusivity(unchecked) var active: [ActivePress] = []
    @exclusivity(unchecked) var recordPool: [ActivePress] = []
    /// Subtrees removed from the window during the current event, kept alive until its end.
    var removedDuringEvent: [Responder] = []
    let pressEvent = PressEvent()
    @exclusivity(unchecked) var index = KeyCommandIndex()
    var reverseMap: LayoutReverseMap
    /// The keys the layout makes act as others (``KeyboardLayout/logicalKeyCode(for:)``), asked once per layout.
    var logicalKeys: LogicalKeyMap

    /// The key a physical key acts as on the current layout (``Key/logicalKeyCode``), from the
    /// table made when the layout was set: a lookup, no call into the layout. A gamepad button
    /// acts as its ``KeyCode/gamepadRole`` (the D-pad as arrows, A as Select, B as Back, Start as
    /// Menu) on every layout.
    ///
    /// - Parameter code: The physical key.
    /// - Returns: The key it acts as (itself on a standard layout).
    public func logicalKeyCode(for code: KeyCode) -> KeyCode {
        logicalKeys.logical(code) ?? code
    }
    /// Key-command resolutions on `reverseMap`, kept across index rebuilds.
    var resolutions = KeyCommandResolutionCache()
    @exclusivity(unchecked) var reservedIndex: [KeyChordID: Int]?
    /// Keys made on `layout` (without a tracker) by ``makeKey(_:typed:)``; emptied with the layout.
    @exclusivity(unchecked) var keyCache = KeyCache()
    /// Whether ``keyCache`` is used: the layout is a value, so its answers can only change when
    /// `layout` is set again. A class layout may change its mapping in place; it is asked every time.
    @exclusivity(unchecked) var cachesKeys = true

    static func answersFromArguments(_ layout: any KeyboardLayout) -> Bool {
        !(type(of: layout) is AnyObject.Type)
    }
    @exclusivity(unchecked) package var layoutGeneration: UInt64 = 0
    @exclusivity(unchecked) var globalGeneration: UInt64 = 0
    @exclusivity(unchecked) var nextPressNumber: UInt64 = 1
    @exclusivity(unchecked) var sequence: UInt64 = 0
    @exclusivity(unchecked) var currentTimestamp: Double = 0

    @exclusivity(unchecked) var queue: [PendingInput] = []
    @exclusivity(unchecked) var queueHead = 0
    @exclusivity(unchecked) var isDispatching = false
    @exclusivity(unchecked) var needsReconcile = false

    // `trace(_:)` is inlined at every record site, and the optimizer hoists its accesses to these
    // three out of the walks' loops, ahead of the `tracing` test: without the attribute every
    // walk paid a dynamic exclusivity check (about 160 instructions) whether or not it traced.
    @exclusivity(unchecked) var observers: [(id: UInt64, body: (DispatchRecord) -> Void)] = []
    var nextObserverID: UInt64 = 1
    @exclusivity(unchecked) var tracing = false
    /// Whether any trace observer is subscribed (dispatch builds records only then).
    package var isTracing: Bool { tracing }
    /// Whether focus and first-responder records wait for the current stage's decision: from a
    /// key-down's input record until a stage takes the key.
    @exclusivity(unchecked) var holdsEffects = false
    /// The records waiting for that decision.
    @exclusivity(unchecked) var heldEffects: [DispatchRecord] = []
    /// Whether the key being dispatched goes to a secure text input: records made for it are
    /// redacted (see ``DispatchRecord/isSecureEntry``).
    @exclusivity(unchecked) var secureContext = false
    /// Clicks and taps in progress, made with the window's focus system on the first pointer event.
    var pointerTracker: PointerActivationTracker?
    /// The next id ``makeDeviceID()`` hands out (0 is ``DeviceID/primary``).
    private var nextDeviceID: UInt32 = 1

    /// Creates a dispatcher for a window.
    ///
    /// - Parameters:
    ///   - window: The window keys go to. A window has at most one dispatcher.
    ///   - layout: The keyboard layout; ``USKeyboardLayout`` by default.
    public init(window: Window, layout: any KeyboardLayout = USKeyboardLayout()) {
        precondition(window.dispatcher == nil, "\(window.traceName) already has a dispatcher")
        self.window = window
        self.layout = layout
        let logicalKeys = LogicalKeyMap(layout)
        self.logicalKeys = logicalKeys
        self.reverseMap = LayoutReverseMap(layout, logicalKeys: logicalKeys)
        cachesKeys = Self.answersFromArguments(layout)
        state.rightAltIsLevelThree = layout.rightAltIsLevelThree
        startTracking()
        active.reserveCapacity(16)
        queue.reserveCapacity(16)
        window.dispatcher = self
    }

    isolated deinit {
        window.detachDispatcher(self)
    }

    /// A device id no other device of this dispatcher has had: every input source feeding the
    /// dispatcher (evdev keyboards, a Wayland seat, gamepads) takes its ids here, so that one
    /// source's `deviceRemoved` never cancels presses held on another's device. Ids are never
    /// reused; ``DeviceID/primary`` (0) is never handed out.
    ///
    /// - Returns: A fresh id.
    public func makeDeviceID() -> DeviceID {
        defer { nextDeviceID = max(nextDeviceID &+ 1, 1) }
        return DeviceID(rawValue: nextDeviceID)
    }

    // MARK: Input

    /// Dispatches one key transition, or queues it when called while an event is being dispatched.
    ///
    /// - Parameter event: The key event.
    public func handle(_ event: KeyEvent) {
        submit(.key(event))
    }

    /// Cancels the press of one key without a key-up: the source found the key released without
    /// seeing it go up (for example after a `SYN_DROPPED` resync).
    ///
    /// - Parameters:
    ///   - code: The key.
    ///   - device: The device it was down on.
    ///   - timestamp: When the source found out, in seconds.
    public func cancelKey(_ code: KeyCode, on device: DeviceID, timestamp: Double) {
        submit(.cancelKey(code, device, timestamp))
    }

    /// Brings one device's keys in line with what the device reports is down now.
    ///
    /// Keys the dispatcher thought down but the device does not report are cancelled (never left
    /// stuck); keys the device reports down but the dispatcher never saw go down are recorded as
    /// held, without inventing a `began` for a press nobody saw.
    ///
    /// - Parameters:
    ///   - device: The device.
    ///   - pressedKeys: The keys the device reports down.
    ///   - timestamp: When the device was read, in seconds.
    public func resynchronize(device: DeviceID, pressedKeys: [KeyCode], timestamp: Double) {
        submit(.resync(device, pressedKeys, timestamp))
    }

    /// Cancels every press of a device that disappeared, and forgets its keys.
    ///
    /// - Parameters:
    ///   - device: The device.
    ///   - timestamp: When it disappeared, in seconds.
    public func deviceRemoved(_ device: DeviceID, timestamp: Double) {
        submit(.deviceRemoved(device, timestamp))
    }

    /// Cancels every press and forgets every key: the app lost the keyboard (another process
    /// grabbed it, or the app was deactivated).
    ///
    /// - Parameter timestamp: When it happened, in seconds.
    public func keyboardLost(timestamp: Double) {
        submit(.keyboardLost(timestamp))
    }

    /// Takes a compositor's modifiers, locks and layout group for its keymap
    /// (`wl_keyboard.modifiers`) as the truth: the layout's key-state tracker adopts them
    /// (``KeyStateTracker/updateModifiers(_:)``), and held presses get `changed` when the
    /// modifiers they see change. Without a tracker (a layout with no serialized form) nothing
    /// happens.
    ///
    /// - Parameters:
    ///   - modifiers: The masks, for the keymap the layout was made from.
    ///   - device: The keyboard.
    ///   - timestamp: When they arrived, in seconds.
    public func updateModifiers(_ modifiers: SerializedModifiers, device: DeviceID, timestamp: Double) {
        submit(.modifiers(modifiers, device, timestamp))
    }

    /// Handles a click or a touch: it hits the focus tree by frame (the window's focus system,
    /// ``FocusSystem/item(at:)``), and a contact that lifts on the item it went down on, alone,
    /// activates it (``PointerActivationTracker``): a text input takes focus and becomes first
    /// responder, another item's primary action is sent. Moves and cancellations activate
    /// nothing. Traced as a `pointer` record (its position and item redacted during secure entry,
    /// since an on-screen PIN pad's item names are the PIN). Without a focus system, nothing is hit.
    ///
    /// - Parameter event: The event.
    public func handlePointer(_ event: PointerEvent) {
        submit(.pointer(event))
    }

    /// Inserts text that did not come from key presses (a terminal's bracketed paste, an input
    /// method's commit) into the first responder, when it is a ``TextInputResponder``; otherwise
    /// the text is dropped. The trace records how many characters went where, never the text.
    /// An input source hands the same text over as ``InputEvent/text(_:device:timestamp:)``.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - timestamp: When it arrived, in seconds.
    public func insertText(_ text: String, timestamp: Double) {
        submit(.insertText(text, timestamp))
    }

    /// Sends keys to another window from now on. Presses delivered to the old window's responders
    /// are cancelled; keys still held stay swallowed until they come up.
    ///
    /// - Parameters:
    ///   - window: The new window. It must not have another dispatcher.
    ///   - timestamp: When it happened, in seconds.
    public func setWindow(_ window: Window, timestamp: Double) {
        precondition(
            window.dispatcher == nil || window.dispatcher === self, "\(window.traceName) already has a dispatcher")
        submit(.switchWindow(window, timestamp))
    }

    /// Reserves a shortcut for the embedding app: it is matched before anything else and never
    /// reaches responders.
    ///
    /// - Parameter shortcut: The shortcut.
    public func reserve(_ shortcut: ReservedShortcut) {
        reservedShortcuts.append(shortcut)
        reservedIndex = nil
    }

    /// Removes every reserved shortcut.
    public func removeReservedShortcuts() {
        reservedShortcuts.removeAll()
        reservedIndex = nil
    }

    // MARK: Trace

    /// Subscribes to the dispatch trace: `body` is called with every decision, in order.
    ///
    /// With no observer, dispatch builds no record and allocates nothing.
    ///
    /// - Parameter body: Called on the dispatcher's thread for each record.
    /// - Returns: A token for ``removeTraceObserver(_:)``.
    @discardableResult
    public func addTraceObserver(_ body: @escaping (DispatchRecord) -> Void) -> TraceObservation {
        let id = nextObserverID
        nextObserverID += 1
        observers.append((id, body))
        tracing = true
        return TraceObservation(id: id)
    }

    /// Ends a trace subscription.
    ///
    /// - Parameter observation: The token ``addTraceObserver(_:)`` returned.
    public func removeTraceObserver(_ observation: TraceObservation) {
        // Taken out, then dropped after the array's access has ended: the closure may own an
        // object whose deinit removes another observer (the field skips the exclusivity check).
        guard let position = observers.firstIndex(where: { $0.id == observation.id }) else { return }
        let removed = observers.remove(at: position)
        withExtendedLifetime(removed) {}
        tracing = !observers.isEmpty
    }

    @inline(__always)
    func trace(_ kind: @autoclosure () -> DispatchRecord.Kind) {
        guard tracing else { return }
        var record = DispatchRecord(sequence: sequence, timestamp: currentTimestamp, kind: kind())
        record.redact(context: secureContext)
        // Cause, then effect: a focus or first-responder change made while a stage works on a
        // key-down is delivered after that stage's decision.
        switch record.kind {
        case .input(let event, let key, _):
            deliverHeldEffects()
            deliver(record)
            holdsEffects = event.action == .down && !key.logicalKeyCode.isModifier
            return
        case .focus, .focusVetoed, .firstResponder:
            if holdsEffects {
                heldEffects.append(record)
                return
            }
        case .stage(_, let outcome, _):
            deliver(record)
            deliverHeldEffects()
            if outcome == .took { holdsEffects = false }
            return
        default:
            break
        }
        deliver(record)
    }

    private func deliver(_ record: DispatchRecord) {
        for observer in observers { observer.body(record) }
    }

    /// Delivers the effects held back for the current stage's decision.
    func deliverHeldEffects() {
        guard !heldEffects.isEmpty else { return }
        let effects = heldEffects
        heldEffects.removeAll(keepingCapacity: true)
        for effect in effects { deliver(effect) }
    }

    // MARK: Secure entry

    /// Whether what is typed now goes into a secure text input: the focused item's responder (or
    /// the first responder) is a ``TextInputResponder`` with
    /// ``TextInputResponder/isSecureTextEntry``, or a press typed into one is still held.
    /// Renderers that show the keyboard's state (held keys, modifiers) hide it while this is `true`.
    public var isSecureEntry: Bool {
        chainIsSecure || active.contains { $0.press.isSecureEntry }
    }

    /// Whether the chain start is a secure text input.
    var chainIsSecure: Bool {
        validateIndex()
        guard index.hasTextInput else { return inputViewIsSecure }
        return index.textInput?.isSecureTextEntry ?? false
    }

    /// Whether focus is on an input view (an on-screen PIN pad) typing into a secure first
    /// responder: the keys it sends and the taps on it are the secret.
    var inputViewIsSecure: Bool {
        guard !window.inputViewDevices.isEmpty, let field = window.firstResponder?.asTextInputResponder,
            field.isSecureTextEntry, let start = window.focusedResponder?.asFocusEnvironment
        else { return false }
        return FocusNode.isInsideInputView(start)
    }

    /// The key as a trace reason names it: `•` for a key typed into a secure text input.
    func keyLabel(_ press: Press) -> String {
        press.isSecureEntry ? "•" : press.key.description
    }

    // MARK: Event loop

    func submit(_ input: PendingInput) {
        if isDispatching {
            queue.append(input)
            return
        }
        isDispatching = true
        process(input)
        while queueHead < queue.count {
            let next = queue[queueHead]
            queueHead += 1
            process(next)
        }
        if !queue.isEmpty {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
        isDispatching = false
    }

    private func process(_ input: PendingInput) {
        switch input {
        case .key(let event):
            processKey(event)
        case .cancelKey(let code, let device, let timestamp):
            beginInput(timestamp)
            processCancelKey(code, device: device)
        case .resync(let device, let keys, let timestamp):
            beginInput(timestamp)
            processResync(device: device, pressedKeys: keys)
        case .deviceRemoved(let device, let timestamp):
            beginInput(timestamp)
            processDeviceRemoved(device)
        case .keyboardLost(let timestamp):
            beginInput(timestamp)
            processKeyboardLost()
        case .modifiers(let modifiers, _, let timestamp):
            beginInput(timestamp)
            processModifiers(modifiers)
        case .pointer(let event):
            beginInput(event.timestamp)
            processPointer(event)
        case .insertText(let text, let timestamp):
            beginInput(timestamp)
            let target = window.firstResponder?.asTextInputResponder
            secureContext = target?.isSecureTextEntry ?? false
            trace(.textInserted(characters: text.count, into: target.map { ResponderReference($0) }))
            target?.insertText(text)
        case .switchWindow(let newWindow, let timestamp):
            beginInput(timestamp)
            processSwitchWindow(newWindow)
        case .reconcile:
            needsReconcile = true
        }
        secureContext = false
        if holdsEffects {
            holdsEffects = false
            deliverHeldEffects()
        }
        if needsReconcile {
            needsReconcile = false
            reconcile()
            removedDuringEvent.removeAll(keepingCapacity: true)
        }
    }

    func beginInput(_ timestamp: Double) {
        sequence &+= 1
        currentTimestamp = timestamp
    }

    // MARK: Hooks from the tree

    func firstResponderDidChange(from previous: Responder?, to next: Responder?) {
        trace(.firstResponder(from: previous.map(ResponderReference.init), to: next.map(ResponderReference.init)))
    }

    func respondersDidLeaveTree(_ root: Responder) {
        if isDispatching {
            // The press being dispatched may not be in `active` yet: reconcile after the event,
            // and keep the removed responders alive until then (recipient lists do not retain).
            removedDuringEvent.append(root)
            needsReconcile = true
        } else if !active.isEmpty {
            submit(.reconcile)
        }
    }

    // MARK: Helpers

    /// The responder key commands and presses start from.
    var chainStart: Responder {
        window.focusedResponder ?? window.firstResponder ?? window
    }

    /// The key as the state says now; `typed` is what a tracker said the key-down typed.
    func makeKey(_ code: KeyCode, typed: String? = nil) -> Key {
        let layoutState = state.layoutState
        // A value layout without a tracker answers from its arguments alone: the same key in the
        // same state is the same `Key`, so it is kept (asking the layout through its existential
        // costs about 300 instructions per key-down).
        let cacheable = cachesKeys && typed == nil && tracker == nil
        if cacheable, let key = keyCache.key(for: code, in: layoutState) { return key }
        var flags = layoutState.modifierFlags
        if code.isKeypad { flags.insert(.numericPad) }
        let characters = typed ?? tracker?.characters(for: code) ?? layout.characters(for: code, in: layoutState)
        let key = Key(
            keyCode: code, characters: characters,
            charactersIgnoringModifiers: layout.charactersIgnoringModifiers(for: code), modifierFlags: flags,
            logicalKeyCode: logicalKeys.logical(code))
        if cacheable { keyCache.store(key, in: layoutState) }
        return key
    }

    /// Tells the tracker about keys that went down or up outside a key event (a resync, an
    /// unplug, a cancelled key): a key counts as up once no device holds it.
    func trackKeys(released: [KeyCode] = [], held: [KeyCode] = []) {
        guard let tracker else { return }
        for code in released where !state.isPressed(code) { tracker.keyUp(code) }
        for code in held where !code.isLockKey { _ = tracker.keyDown(code) }
        state.adopt(tracker.state)
    }

    /// The key-command index for the current chain start: the kept one while nothing it depends
    /// on changed (checked inline: every key-down asks twice), else retargeted or rebuilt.
    @inline(__always)
    func currentIndex() -> KeyCommandIndex {
        validateIndex()
        return index
    }

    /// Makes ``index`` current (see ``currentIndex()``) without handing it out: a caller that reads
    /// one field of the stored index retains nothing.
    @inline(__always)
    func validateIndex() {
        let start = chainStart
        if index.windowGeneration != window.generation || index.layoutGeneration != layoutGeneration
            || index.globalGeneration != globalGeneration || index.chainStart !== start
        {
            refreshIndex(from: start)
        }
    }

    /// Runs `body` with a key-command index and resolutions built afresh for the current chain,
    /// then puts the kept ones back untouched: the reference that tests hold a reused (retargeted)
    /// index to, without breaking the chain of reuses they are testing.
    package func withFreshKeyCommandIndex<Result>(_ body: () -> Result) -> Result {
        let keptIndex = index
        let keptResolutions = resolutions
        index = KeyCommandIndex()
        resolutions = KeyCommandResolutionCache()
        defer {
            index = keptIndex
            resolutions = keptResolutions
        }
        return body()
    }

    private func refreshIndex(from start: Responder) {
        // Focus moved (Tab, arrows) between responders that declare no commands: same index.
        if index.commandGeneration == window.commandGeneration && index.layoutGeneration == layoutGeneration
            && index.globalGeneration == globalGeneration && index.hasSameDeclarers(from: start)
        {
            index.retarget(to: start)
            index.windowGeneration = window.generation
            return
        }
        // Taken out for the build and put back: the cache is one value, changed in one place.
        var cache = resolutions
        resolutions = KeyCommandResolutionCache()
        let rebuilt = KeyCommandIndex(
            chainStart: start, window: window, global: globalKeyCommands, layout: reverseMap,
            resolutions: &cache)
        resolutions = cache
        rebuilt.windowGeneration = window.generation
        rebuilt.commandGeneration = window.commandGeneration
        rebuilt.layoutGeneration = layoutGeneration
        rebuilt.globalGeneration = globalGeneration
        index = rebuilt
    }

    func activeIndex(device: DeviceID, code: KeyCode) -> Int? {
        // A loop, not `firstIndex(where:)`: a closure formed on the main actor checks the
        // executor at every call.
        for index in active.indices
        where active[index].press.device == device && active[index].press.key.keyCode == code {
            return index
        }
        return nil
    }

    func makeRecord(for press: Press) -> ActivePress {
        guard let record = recordPool.popLast() else { return ActivePress(press: press) }
        record.press = press
        return record
    }

    func recycle(_ record: ActivePress) {
        record.recipients.removeAll(keepingCapacity: true)
        record.owner = .responders(handler: nil)
        if recordPool.count < 32 { recordPool.append(record) }
    }
}

/// The keys a layout made lately, one per slot by key code: a direct-mapped cache, so a lookup is
/// an index and two comparisons.
struct KeyCache {
    private static let slots = 64
    // Parallel arrays: the lookup compares plain values (a code of 0, `KEY_RESERVED`, marks an
    // empty slot) and copies only the key it returns. An array of entries with their keys was
    // copied whole, strings and all, at every comparison.
    private var codes = [UInt16](repeating: 0, count: KeyCache.slots)
    private var states = [LayoutState](repeating: LayoutState(), count: KeyCache.slots)
    private var keys = [Key](repeating: .redacted, count: KeyCache.slots)

    @inline(__always)
    private static func slot(_ code: KeyCode) -> Int { Int(code.rawValue) & (slots - 1) }

    /// The key made for `code` in `state`, when it is kept.
    @inline(__always)
    func key(for code: KeyCode, in state: LayoutState) -> Key? {
        let slot = Self.slot(code)
        guard code.rawValue != 0, codes[slot] == code.rawValue, states[slot] == state else { return nil }
        return keys[slot]
    }

    /// Keeps `key`, made in `state`, in place of whatever its slot held.
    mutating func store(_ key: Key, in state: LayoutState) {
        let slot = Self.slot(key.keyCode)
        codes[slot] = key.keyCode.rawValue
        states[slot] = state
        keys[slot] = key
    }
}

extension KeyCode {
    /// Caps Lock, Num Lock or Scroll Lock by its code. A tracker is not told of these when a
    /// resync or a new layout finds them held: its key-down would toggle the lock a second time.
    var isLockKey: Bool { self == .capsLock || self == .numLock || self == .scrollLock }
}

/// The keys a layout makes act as others, asked once per layout: empty (no lookup cost) for a
/// layout that remaps nothing; and the fixed roles of gamepad buttons (``KeyCode/gamepadRole``),
/// whatever the layout (codes above 255, which no layout maps).
struct LogicalKeyMap {
    private var codes: [UInt16] = []

    init(_ layout: any KeyboardLayout) {
        for raw in UInt16(1)..<256 {
            guard let logical = layout.logicalKeyCode(for: KeyCode(raw)), logical.rawValue != raw else { continue }
            if codes.isEmpty { codes = Array(0..<256) }
            codes[Int(raw)] = logical.rawValue
        }
    }

    /// The key `code` acts as, or `nil` when it acts as itself.
    @inline(__always)
    func logical(_ code: KeyCode) -> KeyCode? {
        guard Int(code.rawValue) < codes.count else { return code.rawValue >= 0x130 ? code.gamepadRole : nil }
        let logical = codes[Int(code.rawValue)]
        return logical == code.rawValue ? nil : KeyCode(logical)
    }
}
