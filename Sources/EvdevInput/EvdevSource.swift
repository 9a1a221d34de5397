public import EventLoop
public import LinuxSystem
public import ResponderChain
public import Seat

/// Reads every keyboard, keypad and remote through evdev and feeds the app's input sink (its
/// `InputContext`): an input source on an `EventLoop`.
///
/// It finds the devices through udev (and follows hot-plug), opens them through libseat when a
/// seat manager can be reached (else directly), watches each descriptor on the loop, decodes
/// frames into `InputEvent` values (through the `SoftwareRepeater` when repeats are made in
/// software) and keeps the lock LEDs of every keyboard in step with the app's lock state.
///
/// ```swift
/// let loop = try EventLoop()
/// let keyboards = EvdevSource(loop: loop, context: dispatcher.inputContext, options: .init(grab: true))
/// keyboards.onChange = { change in print(change) }
/// try keyboards.start()
/// try loop.run()  // until loop.control.stop() from anywhere
/// ```
///
/// Isolated to the main actor, like the dispatcher it feeds and the loop it runs on.
@MainActor
public final class EvdevSource {
    /// What the source reads and how.
    public struct Options: Hashable, Sendable {
        /// Which devices: empty for every keyboard, else device paths (`/dev/input/event3`,
        /// `/dev/input/by-id/…`; a stable link keeps selecting its keyboard after a re-plug) or
        /// names (exact, or a case-insensitive part of the name).
        public var devices: [String]
        /// Whether keyboards plugged in later are opened, and unplugged ones let go.
        public var hotPlug: Bool
        /// Whether each keyboard is grabbed exclusively (kiosk mode): its keys stop reaching the
        /// console and other readers.
        public var grab: Bool
        /// Where auto-repeats come from.
        public var repeatMode: RepeatMode
        /// Whether the Caps, Num and Scroll Lock LEDs of every keyboard follow the app's lock state
        /// (the context's keyboard state).
        public var syncLEDs: Bool
        /// How keyboards are opened: through libseat (an ordinary user under seatd or logind,
        /// paused on a VT switch) or directly.
        public var seatAccess: SeatAccess = .automatic
        /// The seat whose keyboards are read: udev's `ID_SEAT` (a device without one is on
        /// `seat0`), so that one machine can serve several kiosk stations. `nil`: the seat libseat
        /// opened, else `seat0`. Devices named by path in ``devices`` are read whatever their seat.
        public var seatName: String?
        /// Whether the first keyboard opened gives the app its lock state from its LEDs (an
        /// `InputEvent.locks`: Num Lock stays on when the console had it on), as a compositor
        /// starting on a VT does.
        /// Turn it off when the app sets the locks itself (`Dispatcher.setLocks(_:)`).
        public var locksFromLEDs = true
        /// Whether ``EvdevSource/start()`` fails when no keyboard can be opened. Turn it off
        /// for a kiosk that starts before its keyboard is plugged in (with ``hotPlug``).
        public var requireKeyboard: Bool
        /// Creates options.
        ///
        /// - Parameters:
        ///   - devices: Paths or names; empty for every keyboard.
        ///   - hotPlug: Follow plugging and unplugging.
        ///   - grab: Take the keyboards exclusively.
        ///   - repeatMode: Kernel or software repeats.
        ///   - syncLEDs: Keep lock LEDs in step.
        ///   - requireKeyboard: Fail to start without a keyboard.
        public init(
            devices: [String] = [], hotPlug: Bool = true, grab: Bool = false,
            repeatMode: RepeatMode = .automatic(.standard), syncLEDs: Bool = true, requireKeyboard: Bool = true
        ) {
            self.devices = devices
            self.hotPlug = hotPlug
            self.grab = grab
            self.repeatMode = repeatMode
            self.syncLEDs = syncLEDs
            self.requireKeyboard = requireKeyboard
        }
    }

    /// Where a keyboard's repeats come from.
    public enum RepeatSource: Hashable, Sendable {
        /// The kernel's `EV_REP` repeats.
        case kernel
        /// The source's `SoftwareRepeater`.
        case software
        /// None.
        case none
    }

    /// A keyboard the source reads.
    public struct Keyboard: Hashable, Sendable {
        /// The device id its events carry; never reused, so a reconnected keyboard starts clean.
        public var id: DeviceID
        /// The device node.
        public var path: String
        /// The kernel's name for it.
        public var name: String
        /// Bus, vendor, product and unique id or physical path: the same across reconnections.
        public var stableID: String
        /// Full keyboard, keypad or remote control.
        public var kind: KeyboardKind
        /// Whether the source holds it exclusively.
        public var isGrabbed: Bool
        /// Where its repeats come from.
        public var repeatSource: RepeatSource

        /// The keyboard as any source's device: its kind, where its repeats come from, whether it
        /// is grabbed (`keyboard, repeats: kernel, grabbed`).
        public var info: InputDeviceInfo {
            InputDeviceInfo(
                id: id, name: name, path: path,
                detail: "\(kind), repeats: \(repeatSource)" + (isGrabbed ? ", grabbed" : ""))
        }
    }

    /// Something that happened to the source's devices.
    public enum Change: Hashable, Sendable {
        /// A keyboard was opened (at start or when plugged in).
        case added(Keyboard)
        /// A keyboard went away; the presses it held (`cancelledKeys`) were cancelled.
        case removed(Keyboard, cancelledKeys: [KeyCode])
        /// A device that should be read could not be opened or grabbed.
        case failed(path: String, InputError)
        /// Hot-plug is unavailable; keyboards plugged in later will not be seen.
        case hotPlugUnavailable(InputError)
        /// The seat was taken away (a switch to another VT or session): every keyboard was let
        /// go and every press cancelled (`cancelledKeys`); nothing is read until it comes back.
        case seatDisabled(cancelledKeys: [KeyCode])
        /// The seat is back: the keyboards are opened again (each reported `added`).
        case seatEnabled
    }

    /// How keyboards are opened.
    public enum SeatAccess: Hashable, Sendable {
        /// Through libseat when a seat manager (seatd, or logind) can be reached, else directly.
        case automatic
        /// Through libseat only: start fails when no seat manager can be reached.
        case required
        /// Directly (`open`): root, or a user in the `input` group.
        case direct
    }

    private final class Entry {
        let device: InputDevice
        let decoder: EvdevDecoder
        var keyboard: Keyboard

        init(device: InputDevice, decoder: EvdevDecoder, keyboard: Keyboard) {
            self.device = device
            self.decoder = decoder
            self.keyboard = keyboard
        }
    }

    /// The loop the devices are watched on.
    public let loop: EventLoop
    /// Where the input goes, and the keyboard state whose locks light the LEDs.
    public let context: InputContext
    /// The options.
    public let options: Options
    /// Called on the loop's thread for every device change.
    public var onChange: ((Change) -> Void)?
    /// Called with every device change as an `InputDeviceChange` (an app runtime sets it).
    public var onDeviceChange: ((InputDeviceChange) -> Void)?
    /// The software repeater, when some keyboard repeats in software.
    public let repeater: SoftwareRepeater?
    /// The hot-plug monitor, once started with ``Options/hotPlug``.
    public private(set) var monitor: DeviceMonitor?

    /// Device entries by their watch token on the loop.
    private var entries: [EventLoop.Watch: Entry] = [:]
    private var monitorWatch: EventLoop.Watch?
    private var seatWatch: EventLoop.Watch?
    private var seatObservation: SeatObservation?
    /// The app's seat, shared with its other device users; `nil`: the source opens its own.
    private let sharedSeat: Seat?
    /// The software repeater's deadline on the loop, while started.
    private var repeatDeadline: EventLoop.Deadline?
    /// The LED sync at the end of every batch, while started.
    private var ledSync: EventLoop.BatchHandler?
    private var shownLocks: LockState?
    private var tookLocksFromLEDs = false
    private var started = false
    /// The seat, when keyboards are opened through libseat.
    public private(set) var seat: Seat?
    /// Why no seat was used, when ``Options/seatAccess`` is automatic and none could be opened.
    public private(set) var seatUnavailable: InputError?
    /// Keyboards let go while the seat is disabled, opened again when it comes back.
    private var suspendedPaths: [String] = []
    /// Where decoded input goes: the software repeater, or the context's sink.
    private var inputSink: any InputSink { repeater ?? context.sink }
    /// The seat whose keyboards are read.
    public var activeSeatName: String { options.seatName ?? seat?.name ?? "seat0" }

    /// Creates a source on a loop; nothing is opened until ``start()``.
    ///
    /// - Parameters:
    ///   - loop: The loop the devices are watched on.
    ///   - context: Where the input goes (`Application.inputContext`, `Dispatcher.inputContext`).
    ///   - options: What to read.
    ///   - seat: The process's seat, when the app opened it to share with a display or other
    ///     sources (seatd takes one client per VT): keyboards are opened through it whatever
    ///     ``Options/seatAccess`` says, and its owner watches and dispatches it. `nil`: the source
    ///     opens a seat of its own when ``Options/seatAccess`` allows.
    public init(loop: EventLoop, context: InputContext, options: Options = Options(), seat: Seat? = nil) {
        self.loop = loop
        self.context = context
        self.options = options
        sharedSeat = seat
        switch options.repeatMode {
        case .automatic(let timing), .software(let timing):
            repeater = SoftwareRepeater(timing: timing, next: context.sink)
        case .off:
            repeater = nil
        }
    }

    isolated deinit {
        // Let go of the loop without reporting: nobody is left to tell.
        for token in entries.keys { loop.unwatch(token) }
        if let monitorWatch { loop.unwatch(monitorWatch) }
        if let seatWatch { loop.unwatch(seatWatch) }
        seatObservation?.cancel()
        if let repeatDeadline { loop.removeDeadline(repeatDeadline) }
        if let ledSync { loop.removeBatchHandler(ledSync) }
    }

    /// The keyboards read now, in the order they were opened.
    public var keyboards: [Keyboard] {
        entries.values.map(\.keyboard).sorted { $0.id.rawValue < $1.id.rawValue }
    }

    /// Opens the keyboards and, with hot-plug, the monitor, and watches them on ``loop``: call it
    /// before running the loop (an app runtime calls it when it starts its input). Reports each
    /// keyboard through ``onChange``.
    ///
    /// - Throws: `InputError` when no keyboard could be opened and ``Options/requireKeyboard``
    ///   is set: the permission error when that was the reason, else "no keyboards".
    public func start() throws(InputError) {
        guard !started else { return }
        started = true
        seatUnavailable = nil
        // A start that fails leaves nothing behind on the loop, and may be tried again.
        do { try openKeyboards() } catch {
            releaseKeyboards()
            throw error
        }
    }

    /// What ``start()`` does: the loop's work, the seat, the monitor, the keyboards.
    private func openKeyboards() throws(InputError) {
        if let repeater {
            repeatDeadline = loop.addDeadline({ [unowned repeater] in repeater.nextDeadline }) {
                [unowned repeater] now in
                repeater.fire(now: now)
            }
        }
        ledSync = loop.addBatchHandler { [unowned self] in self.syncLEDs() }
        openSeat()
        if options.seatAccess == .required, seat == nil, let seatUnavailable { throw seatUnavailable }
        if options.hotPlug {
            do {
                let monitor = try DeviceMonitor()
                monitorWatch = try loop.watch(monitor.fileDescriptor) { [unowned self] _ in self.handleMonitor() }
                self.monitor = monitor
            } catch {
                report(.hotPlugUnavailable(error))
            }
        }
        var failures: [InputError] = []
        var searched = 0
        if options.devices.contains(where: { $0.hasPrefix("/") }) {
            for path in options.devices where path.hasPrefix("/") {
                searched += 1
                if case .failed(let error) = open(path: path, requireKeyboard: false) { failures.append(error) }
            }
        }
        let names = options.devices.filter { !$0.hasPrefix("/") }
        if options.devices.isEmpty || !names.isEmpty {
            let found: [DiscoveredDevice]
            do { found = try KeyboardDiscovery.inputDevices() } catch {
                failures.append(error)
                found = []
            }
            searched += found.count
            for device in found where matches(name: device.name) {
                guard (device.seat ?? "seat0") == activeSeatName else { continue }
                if let error = device.openError {
                    // udev could not say what it is and it could not be opened to look: through
                    // the seat it may open.
                    guard seat != nil, error.errno == .permissionDenied else {
                        failures.append(error)
                        continue
                    }
                    if case .failed(let error) = open(path: device.path, requireKeyboard: true) {
                        failures.append(error)
                    }
                    continue
                }
                // Keyboards, keypads, remote controls and gamepads (udev's ID_INPUT_JOYSTICK, or a
                // device declaring BTN_SOUTH, a BTN_DPAD_* or ABS_HAT0X) are read; mice and the rest are not.
                guard let kind = device.kind, kind != .none else { continue }
                if case .failed(let error) = open(path: device.path, requireKeyboard: true) { failures.append(error) }
            }
        }
        if entries.isEmpty && options.requireKeyboard {
            if var denied = failures.first(where: { $0.errno == .permissionDenied }) {
                if let seatUnavailable { denied.message += " (no seat either: \(seatUnavailable.message))" }
                throw denied
            }
            if let busy = failures.first(where: { $0.errno == .resourceBusy }) { throw busy }
            if let first = failures.first, !options.devices.isEmpty { throw first }
            if !options.devices.isEmpty {
                throw InputError(
                    operation: "find keyboards", path: nil,
                    message: "no keyboard matches \(options.devices.map { "\"\($0)\"" }.joined(separator: ", ")); "
                        + "list them with `ls -l /dev/input/by-id` or `keytrace --list-devices`")
            }
            throw InputError.noKeyboards(searched: searched)
        }
        syncLEDs()
    }

    /// Closes every keyboard (their presses are cancelled) and stops following hot-plug: for an
    /// app that falls back to another input, so that a keyboard plugged in later does not type
    /// twice.
    public func releaseKeyboards() {
        started = false
        if let repeatDeadline { loop.removeDeadline(repeatDeadline) }
        repeatDeadline = nil
        if let ledSync { loop.removeBatchHandler(ledSync) }
        ledSync = nil
        for token in Array(entries.keys) { remove(token: token) }
        suspendedPaths.removeAll()
        if let seatWatch { loop.unwatch(seatWatch) }
        seatWatch = nil
        // Nothing is read through the seat any more: a VT switch must not cancel or reopen.
        seatObservation?.cancel()
        seatObservation = nil
        seat = nil
        if let monitorWatch { loop.unwatch(monitorWatch) }
        monitorWatch = nil
        monitor = nil
    }

    /// Starts writing what a keyboard sends to a recorder; `nil` stops.
    ///
    /// - Parameters:
    ///   - keyboard: The keyboard.
    ///   - recorder: The recorder, made with the keyboard's ``InputDevice/evemuHeader`` (see ``header(of:)``).
    public func record(_ keyboard: DeviceID, to recorder: EvemuRecorder?) {
        entries.values.first { $0.keyboard.id == keyboard }?.device.recorder = recorder
    }

    /// A keyboard's evemu description, for ``EvemuRecorder``.
    ///
    /// - Parameter keyboard: The keyboard.
    /// - Returns: Its header, or `nil` when the source does not read it.
    public func header(of keyboard: DeviceID) -> EvemuRecording? {
        entries.values.first { $0.keyboard.id == keyboard }?.device.evemuHeader
    }

    /// Reads one device's events; a device gone (or revoked by the seat) is let go.
    private func readDevice(token: EventLoop.Watch, hangUp: Bool) {
        guard let entry = entries[token] else { return }
        if entry.device.readAvailable(into: entry.decoder) == .removed || hangUp {
            // Under a seat, a revoked device reads like an unplugged one, and libseat's
            // "disabled" follows just after: wait for it while the node is still there.
            if seatDisabledMeanwhile(path: entry.keyboard.path) { return }
            remove(token: token)
        }
    }

    private func handleMonitor() {
        guard let monitor else { return }
        for change in monitor.receive() {
            switch change {
            case .added(let path):
                guard !entries.values.contains(where: { $0.keyboard.path == path }) else { continue }
                if !selects(node: path) && KeyboardDiscovery.seat(of: path) != activeSeatName { continue }
                if !options.devices.isEmpty && !selects(node: path) {
                    // Named selections are matched once the device is open.
                    guard options.devices.contains(where: { !$0.hasPrefix("/") }) else { continue }
                }
                if let seat, !seat.isEnabled {
                    // Opened (and matched by name) when the seat comes back.
                    if !suspendedPaths.contains(path) { suspendedPaths.append(path) }
                    continue
                }
                if case .failed(let error) = open(path: path, requireKeyboard: true, filterByName: true),
                    error.errno != .resourceBusy
                {
                    // A refused grab was reported already.
                    report(.failed(path: path, error))
                }
            case .removed(let path):
                suspendedPaths.removeAll { $0 == path }
                // Normally the read already saw ENODEV; this covers a device removed before it was read.
                if let token = entries.first(where: { $0.value.keyboard.path == path })?.key {
                    remove(token: token)
                }
            }
        }
    }

    private enum OpenResult {
        case opened
        /// Fine but not wanted: not a keyboard, or the name does not match.
        case skipped
        case failed(InputError)
    }

    /// Opens the seat when the options allow; records why not otherwise.
    private func openSeat() {
        if let sharedSeat {
            use(sharedSeat)
            return
        }
        guard options.seatAccess != .direct else { return }
        do {
            let seat = try Seat()
            // Another seat's station: libseat's seat is not ours (seatd serves seat0 only), and
            // holding it would lock that seat's own kiosk out.
            if let wanted = options.seatName, wanted != seat.name {
                seatUnavailable = InputError(
                    operation: "open seat", path: nil,
                    message:
                        "\(seat.backend) gives \(seat.name), not \(wanted); \(wanted)'s keyboards are opened directly")
                return
            }
            seatWatch = try loop.watch(seat.fileDescriptor) { [unowned seat] _ in seat.dispatch() }
            use(seat)
        } catch {
            seatUnavailable = error
        }
    }

    /// Reads the keyboards through a seat and follows it.
    private func use(_ seat: Seat) {
        seatObservation = seat.observe(
            .input, onDisable: { [unowned self] in self.seatDisabled() },
            onEnable: { [unowned self] in self.seatEnabled() })
        self.seat = seat
    }

    /// After a read found a device gone: whether the seat was disabled (the device was revoked,
    /// not unplugged). Waits up to 0.2 s for libseat's message while the device node remains.
    private func seatDisabledMeanwhile(path: String) -> Bool {
        guard let seat else { return false }
        seat.dispatch()
        if !seat.isEnabled { return true }
        guard Syscalls.exists(path) else { return false }
        let deadline = Syscalls.monotonicNow() + 0.2
        while seat.isEnabled, Syscalls.monotonicNow() < deadline {
            _ = Syscalls.waitReadable(seat.fileDescriptor, milliseconds: 20)
            seat.dispatch()
        }
        return !seat.isEnabled
    }

    /// The seat was taken away: every keyboard is let go (its descriptor is revoked already) and
    /// every press cancelled; their paths are kept for when the seat comes back.
    private func seatDisabled() {
        let cancelled = context.keyboardState.pressedKeys
        for (token, entry) in entries {
            loop.unwatch(token)
            if !suspendedPaths.contains(entry.keyboard.path) { suspendedPaths.append(entry.keyboard.path) }
            entries[token] = nil
        }
        inputSink.receive(.keyboardLost(timestamp: Syscalls.monotonicNow()))
        report(.seatDisabled(cancelledKeys: cancelled))
    }

    /// The seat is back: the keyboards let go are opened again.
    private func seatEnabled() {
        report(.seatEnabled)
        let paths = suspendedPaths
        suspendedPaths.removeAll()
        for path in paths where Syscalls.exists(path) {
            // A device named by path is opened as at start; others must be keyboards matching the
            // names asked for.
            let explicit = selects(node: path)
            if case .failed(let error) = open(path: path, requireKeyboard: !explicit, filterByName: !explicit) {
                report(.failed(path: path, error))
            }
        }
    }

    /// Opens and registers a device.
    private func open(path: String, requireKeyboard: Bool, filterByName: Bool = false) -> OpenResult {
        let device: InputDevice
        do {
            if let seat {
                device = try InputDevice(path: path, seat: seat)
            } else {
                device = try InputDevice(path: path)
            }
        } catch { return .failed(error) }
        let kind = device.kind
        if requireKeyboard && kind == .none { return .skipped }
        if filterByName && !selects(node: path) && !matches(name: device.name) { return .skipped }
        if options.grab {
            do { try device.grab() } catch {
                report(.failed(path: path, error))
                return .failed(error)
            }
        }
        let id = context.makeDeviceID()
        let decoder = EvdevDecoder(device: id, sink: context.sink, isLive: true)
        let source: RepeatSource
        switch options.repeatMode {
        case .automatic where device.hasKernelRepeat:
            source = .kernel
        case .automatic, .software:
            source = .software
            decoder.dropsKernelRepeats = true
            if let repeater { decoder.sink = repeater }
        case .off:
            source = .none
            decoder.dropsKernelRepeats = true
        }
        let keyboard = Keyboard(
            id: id, path: path, name: device.name, stableID: device.stableID, kind: kind == .none ? .keyboard : kind,
            isGrabbed: device.isGrabbed, repeatSource: source)
        // Set once `watch` returns, before the loop can call the handler.
        var token: EventLoop.Watch?
        let watch: EventLoop.Watch
        do {
            watch = try loop.watch(device.fileDescriptor) { [unowned self] ready in
                if let token { self.readDevice(token: token, hangUp: ready.hangUp) }
            }
        } catch {
            // The loop's error names the descriptor and epoll's reason; the path names the device.
            var error = error
            error.path = path
            return .failed(error)
        }
        token = watch
        entries[watch] = Entry(device: device, decoder: decoder, keyboard: keyboard)
        if shownLocks == nil && options.locksFromLEDs && !tookLocksFromLEDs && device.hasLEDs {
            // The first keyboard: its LEDs say what the console (or the last program) left on.
            tookLocksFromLEDs = true
            context.sink.receive(.locks(device.lockLEDs, device: id, timestamp: Syscalls.monotonicNow()))
        }
        if options.syncLEDs, let shownLocks { device.setLEDs(shownLocks) }
        report(.added(keyboard))
        // Keys already held when the device was opened are recorded without a `began`.
        let held = device.pressedKeys
        if !held.isEmpty {
            decoder.resynchronize(pressedKeys: held, time: Syscalls.monotonicNow())
        }
        return .opened
    }

    /// Whether the options name this device node by path: the node itself, or a link to it
    /// (`/dev/input/by-id/…`, `/dev/input/by-path/…`), resolved now, because a re-plugged
    /// keyboard comes back as a new `eventN` that its stable link points to.
    private func selects(node: String) -> Bool {
        options.devices.contains { $0.hasPrefix("/") && ($0 == node || Syscalls.resolvedPath($0) == node) }
    }

    private func matches(name: String) -> Bool {
        let names = options.devices.filter { !$0.hasPrefix("/") }
        if options.devices.isEmpty { return true }
        let lowered = name.lowercased()
        return names.contains { $0 == name || lowered.contains($0.lowercased()) }
    }

    private func remove(token: EventLoop.Watch) {
        guard let entry = entries.removeValue(forKey: token) else { return }
        // The kernel releases held keys in its own frames just before the device goes: those
        // presses were cancelled by the unplug too.
        let cancelled =
            entry.decoder.keysReleasedByKernel + context.keyboardState.pressedKeys(on: entry.keyboard.id)
        loop.unwatch(token)
        entry.decoder.deviceRemoved(time: Syscalls.monotonicNow())
        entry.device.recorder?.flush()
        report(.removed(entry.keyboard, cancelledKeys: cancelled))
    }

    private func syncLEDs() {
        // No keyboard yet: the first one to come gives the locks from its LEDs.
        guard options.syncLEDs, !entries.isEmpty else { return }
        let locks = context.keyboardState.locks
        guard locks != shownLocks else { return }
        shownLocks = locks
        for entry in entries.values { entry.device.setLEDs(locks) }
    }
}

extension EvdevSource: InputSource {
    /// Reports a change through ``onChange`` and ``onDeviceChange``.
    private func report(_ change: Change) {
        onChange?(change)
        guard let onDeviceChange else { return }
        switch change {
        case .added(let keyboard): onDeviceChange(.added(keyboard.info))
        case .removed(let keyboard, let cancelled): onDeviceChange(.removed(keyboard.info, cancelledKeys: cancelled))
        case .failed(let path, let error): onDeviceChange(.failed(path: path, message: error.message))
        case .hotPlugUnavailable(let error): onDeviceChange(.hotPlugUnavailable(message: error.message))
        case .seatDisabled(let cancelled): onDeviceChange(.seatDisabled(cancelledKeys: cancelled))
        case .seatEnabled: onDeviceChange(.seatEnabled)
        }
    }

    /// `keyboards`.
    public var inputName: String { "keyboards" }

    /// The keyboards read (`(grabbed)` after those held exclusively), or that none is plugged in yet.
    public var inputNote: String? {
        let names = keyboards.map { $0.name + ($0.isGrabbed ? " (grabbed)" : "") }
        return names.isEmpty ? "no keyboard yet; waiting for one to be plugged in" : names.joined(separator: ", ")
    }

    /// Whether the keyboards are opened through libseat (``seat``).
    public var holdsSeat: Bool { seat != nil }

    /// Closes every keyboard (their presses end `cancelled`): ``releaseKeyboards()``.
    public func stop() {
        releaseKeyboards()
    }
}
