internal import Dispatch
public import ResponderChain
internal import Synchronization

/// Reads every keyboard and feeds a dispatcher, on the main thread.
///
/// One `epoll` set holds the device descriptors, the hot-plug monitor and a wake-up `eventfd`;
/// the loop blocks in `epoll_wait` with no timeout unless a software repeat is due, so an idle
/// loop wakes 0 times a second. Events reach the dispatcher in the order each device sent them.
///
/// ```swift
/// let loop = KeyboardEventLoop(dispatcher: dispatcher, options: .init(grab: true))
/// loop.onChange = { change in print(change) }
/// try loop.run()  // until loop.control.stop() from anywhere
/// ```
///
/// An app with a loop of its own adds ``fileDescriptor`` to it (it becomes readable when there is
/// work), calls ``dispatchPending()`` when it is, and wakes no later than ``nextDeadline``.
///
/// Isolated to the main actor, like the dispatcher it feeds: create it and run it on the main
/// thread. Other threads use ``control``.
@MainActor
public final class KeyboardEventLoop {
    /// What the loop reads and how.
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
        /// Whether the Caps, Num and Scroll Lock LEDs of every keyboard follow the dispatcher's
        /// lock state.
        public var syncLEDs: Bool
        /// How keyboards are opened: through libseat (an ordinary user under seatd or logind,
        /// paused on a VT switch) or directly.
        public var seatAccess: SeatAccess = .automatic
        /// The seat whose keyboards are read: udev's `ID_SEAT` (a device without one is on
        /// `seat0`), so that one machine can serve several kiosk stations. `nil`: the seat libseat
        /// opened, else `seat0`. Devices named by path in ``devices`` are read whatever their seat.
        public var seatName: String?
        /// Whether the first keyboard opened gives the dispatcher its lock state from its LEDs
        /// (Num Lock stays on when the console had it on), as a compositor starting on a VT does.
        /// Turn it off when the app sets the locks itself (`Dispatcher.setLocks(_:)`).
        public var locksFromLEDs = true
        /// Whether ``KeyboardEventLoop/start()`` fails when no keyboard can be opened. Turn it off
        /// for a kiosk that starts before its keyboard is plugged in (with ``hotPlug``).
        public var requireKeyboard: Bool
        /// Whether keyboards are opened at all; off for a loop that serves only watched
        /// descriptors (a terminal, signals).
        public var opensKeyboards = true
        /// Whether the loop runs the main actor's work while it waits: tasks on the main actor,
        /// `DispatchQueue.main` blocks and `MainActor.run` calls resume between input events,
        /// as under CoreFoundation's run loop. On by default; without it, main-actor tasks wait
        /// until the loop returns.
        public var drainsMainQueue = true

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
        /// The loop's ``SoftwareRepeater``.
        case software
        /// None.
        case none
    }

    /// A keyboard the loop reads.
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
        /// Whether the loop holds it exclusively.
        public var isGrabbed: Bool
        /// Where its repeats come from.
        public var repeatSource: RepeatSource
    }

    /// Something that happened to the loop's devices.
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

    /// Stops or wakes the loop, and runs work on its thread, from any thread.
    public final class Control: Sendable {
        private struct State {
            var stopRequested = false
            var work: [@MainActor @Sendable () -> Void] = []
        }
        private let state = Mutex(State())
        let wakeDescriptor: Int32

        init(wakeDescriptor: Int32) {
            self.wakeDescriptor = wakeDescriptor
        }

        deinit {
            Syscalls.close(wakeDescriptor)
        }

        /// Asks the loop to return from ``KeyboardEventLoop/run()-1rm18`` after the events in hand.
        public func stop() {
            state.withLock { $0.stopRequested = true }
            Syscalls.eventSignal(wakeDescriptor)
        }

        /// Runs `work` on the loop's thread, isolated to the main actor, in the order submitted,
        /// between input events: it may touch the responder tree.
        ///
        /// - Parameter work: What to run.
        public func perform(_ work: @escaping @MainActor @Sendable () -> Void) {
            state.withLock { $0.work.append(work) }
            Syscalls.eventSignal(wakeDescriptor)
        }

        var stopRequested: Bool { state.withLock { $0.stopRequested } }

        func takeStop() -> Bool {
            state.withLock { state in
                defer { state.stopRequested = false }
                return state.stopRequested
            }
        }

        func takeWork() -> [@MainActor @Sendable () -> Void] {
            state.withLock { state in
                defer { state.work = [] }
                return state.work
            }
        }
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

    private static let wakeToken: UInt64 = 0
    private static let monitorToken: UInt64 = 1
    private static let mainQueueToken = UInt64.max
    private static let seatToken = UInt64.max - 1

    /// The dispatcher the input goes to.
    public let dispatcher: Dispatcher
    /// The options.
    public let options: Options
    /// Stops the loop and hands it work from other threads.
    public let control: Control
    /// Called on the loop's thread for every device change.
    public var onChange: ((Change) -> Void)?
    /// The software repeater, when some keyboard repeats in software.
    public let repeater: SoftwareRepeater?
    /// The hot-plug monitor, once started with ``Options/hotPlug``.
    public private(set) var monitor: DeviceMonitor?
    /// Called with each batch of work after it is dispatched (after LED sync); keytrace redraws here.
    public var afterDispatch: (() -> Void)?

    private let epoll: Int32
    private var entries: [UInt64: Entry] = [:]
    private var watchers: [UInt64: (fileDescriptor: Int32, handler: () -> Void)] = [:]
    private var nextToken: UInt64 = 2
    private var ready: [Syscalls.Ready] = []
    private var shownLocks: LockState?
    private var tookLocksFromLEDs = false
    private var started = false
    private var mainQueue: Int32?
    private var sources: AsyncSources?
    /// The seat, when keyboards are opened through libseat.
    public private(set) var seat: Seat?
    /// Why no seat was used, when ``Options/seatAccess`` is automatic and none could be opened.
    public private(set) var seatUnavailable: InputError?
    /// Keyboards let go while the seat is disabled, opened again when it comes back.
    private var suspendedPaths: [String] = []
    /// Where decoded input goes: the software repeater, or the dispatcher.
    private var inputSink: any InputSink { repeater ?? dispatcher }
    /// The seat whose keyboards are read.
    public var activeSeatName: String { options.seatName ?? seat?.name ?? "seat0" }

    /// Creates a loop; nothing is opened until ``start()`` or ``run()-1rm18``.
    ///
    /// - Parameters:
    ///   - dispatcher: The dispatcher, owned by the calling thread.
    ///   - options: What to read.
    /// - Throws: ``InputError`` when the kernel refuses an `epoll` set or `eventfd` (descriptor limit).
    public init(dispatcher: Dispatcher, options: Options = Options()) throws(InputError) {
        self.dispatcher = dispatcher
        self.options = options
        let epoll: Int32
        switch Syscalls.epollCreate() {
        case .success(let fd): epoll = fd
        case .failure(let error):
            throw InputError(
                errno: error.code, operation: "epoll", path: nil,
                message: "cannot create an epoll set (errno \(error.code)): too many open files? Raise `ulimit -n`")
        }
        let wake: Int32
        switch Syscalls.eventCreate() {
        case .success(let fd): wake = fd
        case .failure(let error):
            Syscalls.close(epoll)
            throw InputError(
                errno: error.code, operation: "eventfd", path: nil,
                message: "cannot create an eventfd (errno \(error.code)): too many open files? Raise `ulimit -n`")
        }
        self.epoll = epoll
        control = Control(wakeDescriptor: wake)
        _ = Syscalls.epollAdd(epoll, wake, token: Self.wakeToken)
        switch options.repeatMode {
        case .automatic(let timing), .software(let timing):
            repeater = SoftwareRepeater(timing: timing, next: dispatcher)
        case .off:
            repeater = nil
        }
    }

    isolated deinit {
        entries.removeAll()
        seat?.onDisable = nil
        seat?.onEnable = nil
        Syscalls.close(epoll)
    }

    /// The keyboards read now, in the order they were opened.
    public var keyboards: [Keyboard] {
        entries.values.map(\.keyboard).sorted { $0.id.rawValue < $1.id.rawValue }
    }

    /// Now on the clock device events carry (`CLOCK_MONOTONIC`), in seconds.
    nonisolated public static var monotonicNow: Double { Syscalls.monotonicNow() }

    /// One descriptor for an app's own loop: readable whenever ``dispatchPending()`` has work.
    public var fileDescriptor: Int32 { epoll }

    /// When a software repeat is due, on the monotonic clock (seconds), or `nil`. An app's own
    /// loop must call ``dispatchPending()`` by then even if ``fileDescriptor`` stays quiet.
    public var nextDeadline: Double? { repeater?.nextDeadline }

    /// Opens the keyboards and, with hot-plug, the monitor. Called by ``run()-1rm18``; call it yourself
    /// before handing ``fileDescriptor`` to another loop. Reports each keyboard through ``onChange``.
    ///
    /// - Throws: ``InputError`` when no keyboard could be opened and ``Options/requireKeyboard``
    ///   is set: the permission error when that was the reason, else "no keyboards".
    public func start() throws(InputError) {
        guard !started else { return }
        started = true
        guard options.opensKeyboards else { return }
        openSeat()
        if options.seatAccess == .required, seat == nil, let seatUnavailable { throw seatUnavailable }
        if options.hotPlug {
            do {
                let monitor = try DeviceMonitor()
                _ = Syscalls.epollAdd(epoll, monitor.fileDescriptor, token: Self.monitorToken)
                self.monitor = monitor
            } catch {
                onChange?(.hotPlugUnavailable(error))
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
                    guard seat != nil, error.errno == InputError.permissionDenied else {
                        failures.append(error)
                        continue
                    }
                    if case .failed(let error) = open(path: device.path, requireKeyboard: true) {
                        failures.append(error)
                    }
                    continue
                }
                guard let kind = device.kind, kind != .none else { continue }
                if case .failed(let error) = open(path: device.path, requireKeyboard: true) { failures.append(error) }
            }
        }
        if entries.isEmpty && options.requireKeyboard {
            if var denied = failures.first(where: { $0.errno == InputError.permissionDenied }) {
                if let seatUnavailable { denied.message += " (no seat either: \(seatUnavailable.message))" }
                throw denied
            }
            if let busy = failures.first(where: { $0.errno == InputError.busy }) { throw busy }
            if let first = failures.first, !options.devices.isEmpty { throw first }
            if !options.devices.isEmpty {
                throw InputError(
                    errno: 0, operation: "find keyboards", path: nil,
                    message: "no keyboard matches \(options.devices.map { "\"\($0)\"" }.joined(separator: ", ")); "
                        + "list them with `ls -l /dev/input/by-id` or `keytrace --list-devices`")
            }
            throw InputError.noKeyboards(searched: searched)
        }
        syncLEDs()
    }

    /// Runs until ``Control/stop()``, blocking the calling thread: waits for input and dispatches
    /// it, and (with ``Options/drainsMainQueue``) runs the main actor's other work in between, so
    /// tasks that an input handler started resume while the loop waits.
    ///
    /// Call it from synchronous code on the program's main thread: top-level code in
    /// `main.swift`, or a synchronous `static func main()`. From async code (an `async` main, a
    /// test) call `try await run()` instead.
    ///
    /// - Throws: What ``start()`` throws, or an ``InputError`` when called off the main thread
    ///   while ``Options/drainsMainQueue`` is set: the main actor's work would never run.
    public func run() throws(InputError) {
        if options.drainsMainQueue {
            guard Syscalls.isMainThread else {
                throw InputError(
                    errno: 0, operation: "run", path: nil,
                    message: "run() would block the main actor on a thread that is not the program's main thread "
                        + "(from an async main or a test), and main-actor tasks would never run: "
                        + "call `try await loop.run()` from async code, "
                        + "or set Options.drainsMainQueue to false to block on purpose")
            }
            attachMainQueue()
        }
        try start()
        while true {
            waitAndDispatch(timeoutMilliseconds: -1)
            if control.takeStop() { return }
        }
    }

    /// Runs until ``Control/stop()`` without blocking the main actor: for async code (an `async`
    /// main, a test, a server's task). The loop's descriptor is watched by a dispatch source on
    /// the main queue, and a timer wakes it for software repeats; between input events the main
    /// actor runs its other work as usual. Idle, it wakes 0 times a second.
    ///
    /// - Throws: What ``start()`` throws.
    public func run() async throws(InputError) {
        guard sources == nil else {
            throw InputError(
                errno: 0, operation: "run", path: nil, message: "the loop is already running; call run() once at a time"
            )
        }
        try start()
        let control = control
        // A cancelled task stops the loop, as Control.stop() does.
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let readable = DispatchSource.makeReadSource(fileDescriptor: epoll, queue: .main)
                let timer = DispatchSource.makeTimerSource(queue: .main)
                let serve: @Sendable () -> Void = { MainActor.assumeIsolated { self.serveSources() } }
                readable.setEventHandler(handler: serve)
                timer.setEventHandler(handler: serve)
                // run() returns once libdispatch has let go of the descriptor, so the epoll set is
                // never closed (and its number reused) under a live registration.
                readable.setCancelHandler { continuation.resume() }
                sources = AsyncSources(readable: readable, timer: timer)
                readable.resume()
                timer.resume()
                // Work or a stop that arrived before the sources existed.
                serveSources()
            }
        } onCancel: {
            control.stop()
        }
    }

    /// The dispatch sources of `run() async` while it runs.
    private struct AsyncSources {
        let readable: any DispatchSourceRead
        let timer: any DispatchSourceTimer
    }

    /// One turn of `run() async`: what is ready, then the stop check and the next repeat.
    private func serveSources() {
        guard let sources else { return }
        waitAndDispatch(timeoutMilliseconds: 0)
        if control.takeStop() {
            self.sources = nil
            sources.timer.cancel()
            sources.readable.cancel()
            return
        }
        schedule(sources.timer)
    }

    /// Arms `timer` for the next software repeat, or parks it.
    private func schedule(_ timer: any DispatchSourceTimer) {
        guard let deadline = repeater?.nextDeadline else {
            timer.schedule(deadline: .distantFuture)
            return
        }
        let seconds = max(deadline - Syscalls.monotonicNow(), 0)
        timer.schedule(deadline: .now() + .nanoseconds(Int(min(seconds, 3600) * 1e9)), leeway: .microseconds(100))
    }

    /// Adds the main queue's wake-up descriptor to the set, once, on the main thread.
    private func attachMainQueue() {
        guard mainQueue == nil, options.drainsMainQueue, Syscalls.isMainThread else { return }
        let descriptor = Syscalls.mainQueueDescriptor()
        if descriptor >= 0, Syscalls.epollAdd(epoll, descriptor, token: Self.mainQueueToken) {
            mainQueue = descriptor
        }
    }

    /// Waits up to `timeout` seconds for input (or a due repeat), dispatches what came, and returns.
    ///
    /// - Parameter timeout: The longest wait; `nil` waits until something happens.
    /// - Returns: `false` once ``Control/stop()`` was called.
    @discardableResult
    public func runOnce(timeout: Double?) -> Bool {
        attachMainQueue()
        let milliseconds = timeout.map { Int32(min(max($0, 0) * 1000, 2_000_000_000)) } ?? -1
        waitAndDispatch(timeoutMilliseconds: milliseconds)
        return !control.takeStop()
    }

    /// Dispatches whatever is ready now without waiting: for apps that watch ``fileDescriptor``
    /// in their own loop.
    public func dispatchPending() {
        waitAndDispatch(timeoutMilliseconds: 0)
    }

    /// Watches another descriptor (a terminal, a signal pipe, an app's socket): `handler` runs on
    /// the loop's thread whenever it is readable, in order with the keyboards' events.
    ///
    /// - Parameters:
    ///   - fileDescriptor: The descriptor; the caller keeps it open until ``unwatch(_:)``.
    ///   - handler: Reads from it.
    /// - Returns: A token for ``unwatch(_:)``.
    @discardableResult
    public func watch(_ fileDescriptor: Int32, handler: @escaping () -> Void) -> UInt64 {
        let token = nextToken
        nextToken += 1
        watchers[token] = (fileDescriptor, handler)
        _ = Syscalls.epollAdd(epoll, fileDescriptor, token: token)
        return token
    }

    /// Stops watching a descriptor.
    ///
    /// - Parameter token: What ``watch(_:handler:)`` returned.
    public func unwatch(_ token: UInt64) {
        guard let watcher = watchers.removeValue(forKey: token) else { return }
        Syscalls.epollRemove(epoll, watcher.fileDescriptor)
    }

    /// Closes every keyboard (their presses are cancelled) and stops following hot-plug: for an
    /// app that falls back to another input, so that a keyboard plugged in later does not type
    /// twice.
    public func releaseKeyboards() {
        for token in Array(entries.keys) { remove(token: token) }
        suspendedPaths.removeAll()
        if let seat {
            // Nothing is read through the seat any more: a VT switch must not cancel or reopen.
            Syscalls.epollRemove(epoll, seat.fileDescriptor)
            seat.onDisable = nil
            seat.onEnable = nil
            self.seat = nil
        }
        if let monitor {
            Syscalls.epollRemove(epoll, monitor.fileDescriptor)
            self.monitor = nil
        }
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
    /// - Returns: Its header, or `nil` when the loop does not read it.
    public func header(of keyboard: DeviceID) -> EvemuRecording? {
        entries.values.first { $0.keyboard.id == keyboard }?.device.evemuHeader
    }

    /// Whether the loop is dispatching a batch now (``afterDispatch`` follows it).
    public private(set) var isDispatchingBatch = false

    private func waitAndDispatch(timeoutMilliseconds: Int32) {
        var timeout = timeoutMilliseconds
        if let deadline = repeater?.nextDeadline {
            let untilDue = Int32(min(max((deadline - Syscalls.monotonicNow()) * 1000, 0).rounded(.up), 2_000_000_000))
            timeout = timeout < 0 ? untilDue : min(timeout, untilDue)
        }
        Syscalls.epollWait(epoll, into: &ready, timeoutMilliseconds: timeout)
        isDispatchingBatch = true
        defer { isDispatchingBatch = false }
        for item in ready {
            switch item.token {
            case Self.wakeToken:
                Syscalls.eventDrain(control.wakeDescriptor)
                for work in control.takeWork() { work() }
            case Self.monitorToken:
                handleMonitor()
            case Self.mainQueueToken:
                if let mainQueue { Syscalls.drainMainQueue(mainQueue) }
            case Self.seatToken:
                seat?.dispatch()
            default:
                if let watcher = watchers[item.token] {
                    watcher.handler()
                    continue
                }
                guard let entry = entries[item.token] else { continue }
                if entry.device.readAvailable(into: entry.decoder) == .removed || item.hangUp {
                    // Under a seat, a revoked device reads like an unplugged one, and libseat's
                    // "disabled" follows just after: wait for it while the node is still there.
                    if seatDisabledMeanwhile(path: entry.keyboard.path) { continue }
                    remove(token: item.token)
                }
            }
        }
        if let repeater { repeater.fire(now: Syscalls.monotonicNow()) }
        syncLEDs()
        afterDispatch?()
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
                    error.errno != InputError.busy
                {
                    // A refused grab was reported already.
                    onChange?(.failed(path: path, error))
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
        guard options.seatAccess != .direct else { return }
        do {
            let seat = try Seat()
            // Another seat's station: libseat's seat is not ours (seatd serves seat0 only), and
            // holding it would lock that seat's own kiosk out.
            if let wanted = options.seatName, wanted != seat.name {
                seatUnavailable = InputError(
                    errno: 0, operation: "open seat", path: nil,
                    message:
                        "\(seat.backend) gives \(seat.name), not \(wanted); \(wanted)'s keyboards are opened directly")
                return
            }
            seat.onDisable = { [unowned self] in self.seatDisabled() }
            seat.onEnable = { [unowned self] in self.seatEnabled() }
            _ = Syscalls.epollAdd(epoll, seat.fileDescriptor, token: Self.seatToken)
            self.seat = seat
        } catch {
            seatUnavailable = error
        }
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
            _ = TerminalCalls.waitReadable(seat.fileDescriptor, milliseconds: 20)
            seat.dispatch()
        }
        return !seat.isEnabled
    }

    /// The seat was taken away: every keyboard is let go (its descriptor is revoked already) and
    /// every press cancelled; their paths are kept for when the seat comes back.
    private func seatDisabled() {
        let cancelled = dispatcher.keyboardState.pressedKeys
        for (token, entry) in entries {
            Syscalls.epollRemove(epoll, entry.device.fileDescriptor)
            if !suspendedPaths.contains(entry.keyboard.path) { suspendedPaths.append(entry.keyboard.path) }
            entries[token] = nil
        }
        inputSink.receive(.keyboardLost(timestamp: Syscalls.monotonicNow()))
        onChange?(.seatDisabled(cancelledKeys: cancelled))
    }

    /// The seat is back: the keyboards let go are opened again.
    private func seatEnabled() {
        onChange?(.seatEnabled)
        let paths = suspendedPaths
        suspendedPaths.removeAll()
        for path in paths where Syscalls.exists(path) {
            // A device named by path is opened as at start; others must be keyboards matching the
            // names asked for.
            let explicit = selects(node: path)
            if case .failed(let error) = open(path: path, requireKeyboard: !explicit, filterByName: !explicit) {
                onChange?(.failed(path: path, error))
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
                onChange?(.failed(path: path, error))
                return .failed(error)
            }
        }
        let token = nextToken
        nextToken += 1
        let id = DeviceID(rawValue: UInt32(truncatingIfNeeded: token))
        let decoder = EvdevDecoder(device: id, sink: dispatcher, isLive: true)
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
        guard Syscalls.epollAdd(epoll, device.fileDescriptor, token: token) else {
            return .failed(InputError(errno: 0, operation: "epoll", path: path, message: "cannot watch the device"))
        }
        entries[token] = Entry(device: device, decoder: decoder, keyboard: keyboard)
        if shownLocks == nil && options.locksFromLEDs && !tookLocksFromLEDs && device.hasLEDs {
            // The first keyboard: its LEDs say what the console (or the last program) left on.
            tookLocksFromLEDs = true
            dispatcher.setLocks(device.lockLEDs)
        }
        if options.syncLEDs, let shownLocks { device.setLEDs(shownLocks) }
        onChange?(.added(keyboard))
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

    private func remove(token: UInt64) {
        guard let entry = entries.removeValue(forKey: token) else { return }
        // The kernel releases held keys in its own frames just before the device goes: those
        // presses were cancelled by the unplug too.
        let cancelled =
            entry.decoder.keysReleasedByKernel + dispatcher.keyboardState.pressedKeys(on: entry.keyboard.id)
        Syscalls.epollRemove(epoll, entry.device.fileDescriptor)
        entry.decoder.deviceRemoved(time: Syscalls.monotonicNow())
        entry.device.recorder?.flush()
        onChange?(.removed(entry.keyboard, cancelledKeys: cancelled))
    }

    private func syncLEDs() {
        // No keyboard yet: the first one to come gives the locks from its LEDs.
        guard options.syncLEDs, !entries.isEmpty else { return }
        let locks = dispatcher.keyboardState.locks
        guard locks != shownLocks else { return }
        shownLocks = locks
        for entry in entries.values { entry.device.setLEDs(locks) }
    }
}
