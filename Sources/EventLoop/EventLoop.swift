internal import Dispatch
public import LinuxSystem
internal import Synchronization

/// One `epoll` loop on the main thread: the descriptors of every input source (devices, the
/// terminal, a compositor's socket), signals, deadlines (software repeats) and libdispatch's
/// main queue, served in the order they became ready.
///
/// The loop knows nothing of keys or dispatchers: sources ``watch(_:onReady:)`` their
/// descriptors and hand what they read to their own consumer. It blocks in `epoll_wait` with no
/// timeout unless a ``addDeadline(_:fire:)`` is due, so an idle loop wakes 0 times a second.
///
/// ```swift
/// let loop = try EventLoop()
/// try loop.watch(socket) { readSocket() }
/// loop.afterBatch = { redraw() }
/// try loop.run()  // until loop.control.stop() from anywhere
/// ```
///
/// An app with a loop of its own adds ``fileDescriptor`` to it (it becomes readable when there is
/// work), calls ``dispatchPending()`` when it is, and wakes no later than ``nextDeadline``.
///
/// Isolated to the main actor: create it and run it on the main thread. Other threads use
/// ``control``.
@MainActor
public final class EventLoop {
    /// How the loop runs.
    public struct Options: Hashable, Sendable {
        /// Whether the loop runs the main actor's work while it waits: tasks on the main actor,
        /// `DispatchQueue.main` blocks and `MainActor.run` calls resume between input events,
        /// as under CoreFoundation's run loop. On by default; without it, main-actor tasks wait
        /// until the loop returns.
        public var drainsMainQueue = true

        /// Options with the defaults: the main queue is drained.
        public init() {}
    }

    /// How a watched descriptor became ready.
    public struct Readiness: Hashable, Sendable {
        /// The descriptor hung up or failed (`EPOLLHUP`, `EPOLLERR`): a device unplugged, a
        /// socket closed by its peer. Read it once more to see why, then stop watching it.
        public var hangUp: Bool
        /// The descriptor has input (or an end of input) to read.
        public var readable: Bool
        /// The descriptor takes output again: reported only while
        /// ``EventLoop/setWatchesWritability(_:_:)`` asks for it.
        public var writable: Bool
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

        /// Asks the loop to return from ``EventLoop/run()-72dbn`` after the events in hand.
        public func stop() {
            state.withLock { $0.stopRequested = true }
            EventCalls.eventSignal(wakeDescriptor)
        }

        /// Runs `work` on the loop's thread, isolated to the main actor, in the order submitted,
        /// between input events: it may touch the responder tree.
        ///
        /// - Parameter work: What to run.
        public func perform(_ work: @escaping @MainActor @Sendable () -> Void) {
            state.withLock { $0.work.append(work) }
            EventCalls.eventSignal(wakeDescriptor)
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

    private struct Watcher {
        let fileDescriptor: Int32
        let handler: (Readiness) -> Void
    }

    /// What a ``Deadline`` stands for.
    private struct DeadlineWork {
        let next: () -> Double?
        let fire: (Double) -> Void
    }

    private static let wakeToken: UInt64 = 0
    private static let mainQueueToken = UInt64.max

    /// The options.
    public let options: Options
    /// Stops the loop and hands it work from other threads.
    public let control: Control
    /// Called after every batch of work, after the sources' own batch work (LED sync): an app
    /// draws here.
    public var afterBatch: (() -> Void)?
    /// Whether the loop is dispatching a batch now (``afterBatch`` follows it).
    public private(set) var isDispatchingBatch = false

    private let epoll: Int32
    private var watchers: [UInt64: Watcher] = [:]
    /// In the order added, so that two repeaters fire in the same order on every run.
    private var deadlines: [(token: Deadline, work: DeadlineWork)] = []
    private var batchHandlers: [(token: BatchHandler, handler: () -> Void)] = []
    private var lateBatchHandlers: [(token: BatchHandler, handler: () -> Void)] = []
    /// The next token's number, shared by the three kinds: 0 and `UInt64.max` are the loop's own.
    private var nextToken: UInt64 = 1
    private var ready: [EventCalls.Ready] = []
    private var mainQueue: Int32?
    private var sources: AsyncSources?

    /// Creates a loop.
    ///
    /// - Parameter options: How it runs.
    /// - Throws: `InputError` when the kernel refuses an `epoll` set or `eventfd` (descriptor limit).
    public init(options: Options = Options()) throws(InputError) {
        self.options = options
        let epoll: Int32
        switch EventCalls.epollCreate() {
        case .success(let fd): epoll = fd
        case .failure(let error):
            throw InputError(
                errno: error, operation: "epoll", path: nil,
                message: "cannot create an epoll set (errno \(error.rawValue)): too many open files? Raise `ulimit -n`")
        }
        let wake: Int32
        switch EventCalls.eventCreate() {
        case .success(let fd): wake = fd
        case .failure(let error):
            Syscalls.close(epoll)
            throw InputError(
                errno: error, operation: "eventfd", path: nil,
                message: "cannot create an eventfd (errno \(error.rawValue)): too many open files? Raise `ulimit -n`")
        }
        self.epoll = epoll
        control = Control(wakeDescriptor: wake)
        _ = EventCalls.epollAdd(epoll, wake, token: Self.wakeToken)
    }

    isolated deinit {
        Syscalls.close(epoll)
    }

    /// Now on the clock device events carry (`CLOCK_MONOTONIC`), in seconds.
    nonisolated public static var monotonicNow: Double { Syscalls.monotonicNow() }

    /// One descriptor for an app's own loop: readable whenever ``dispatchPending()`` has work.
    public var fileDescriptor: Int32 { epoll }

    /// The earliest deadline of ``addDeadline(_:fire:)``, on the monotonic clock (seconds), or
    /// `nil`. An app's own loop must call ``dispatchPending()`` by then even if
    /// ``fileDescriptor`` stays quiet.
    public var nextDeadline: Double? {
        var earliest: Double?
        for (_, work) in deadlines {
            if let due = work.next(), due < (earliest ?? .infinity) { earliest = due }
        }
        return earliest
    }

    /// Watches a descriptor (a device, a terminal, a signal pipe, a socket): `handler` runs on
    /// the loop's thread whenever it is readable, in order with everything else the loop serves.
    ///
    /// Uses `epoll_ctl` (`EPOLL_CTL_ADD`).
    ///
    /// - Parameters:
    ///   - fileDescriptor: The descriptor; the caller keeps it open until ``unwatch(_:)``.
    ///   - handler: Reads from it.
    /// - Returns: The token for ``unwatch(_:)``.
    /// - Throws: `InputError` (operation `epoll_ctl`) naming the descriptor when the kernel
    ///   refuses to watch it, with `epoll_ctl`'s errno: `Errno.badFileDescriptor` for a
    ///   descriptor not open, `Errno.notPermitted` for one `epoll` cannot wait on (a regular
    ///   file), `Errno.fileExists` for one this loop watches already.
    @discardableResult
    public func watch(_ fileDescriptor: Int32, handler: @escaping () -> Void) throws(InputError) -> Watch {
        try watch(fileDescriptor, onReady: { _ in handler() })
    }

    /// Watches a descriptor, telling `handler` whether it hung up.
    ///
    /// Uses `epoll_ctl` (`EPOLL_CTL_ADD`).
    ///
    /// - Parameters:
    ///   - fileDescriptor: The descriptor; the caller keeps it open until ``unwatch(_:)``.
    ///   - onReady: Reads from it; ``Readiness/hangUp`` says it hung up or failed.
    /// - Returns: The token for ``unwatch(_:)`` and ``setWatchesWritability(_:_:)``.
    /// - Throws: `InputError` (operation `epoll_ctl`) naming the descriptor when the kernel
    ///   refuses to watch it, with `epoll_ctl`'s errno (see ``watch(_:handler:)``).
    @discardableResult
    public func watch(_ fileDescriptor: Int32, onReady: @escaping (Readiness) -> Void) throws(InputError) -> Watch {
        let token = Watch(id: makeToken())
        if case .failure(let errno) = EventCalls.epollAdd(epoll, fileDescriptor, token: token.id) {
            throw Self.watchError(fileDescriptor, errno)
        }
        watchers[token.id] = Watcher(fileDescriptor: fileDescriptor, handler: onReady)
        return token
    }

    /// The error for a descriptor `epoll_ctl` would not add: the descriptor, the C library's words
    /// for the errno and, for the usual causes, what they mean.
    private static func watchError(_ fileDescriptor: Int32, _ errno: Errno) -> InputError {
        let meaning: String
        switch errno {
        case .badFileDescriptor:
            meaning = ": it is not an open descriptor (closed already, or never opened)"
        case .notPermitted:
            meaning = ": epoll cannot wait on it (a regular file or a directory, such as input redirected from a file)"
        case .fileExists:
            meaning = ": this loop watches it already; unwatch it first"
        case .invalidArgument:
            meaning = ": it is the loop's own epoll descriptor"
        case .noSpace:
            meaning = ": the user's limit of watched descriptors is reached (/proc/sys/fs/epoll/max_user_watches)"
        default:
            meaning = ""
        }
        return InputError(
            errno: errno, operation: "epoll_ctl", path: nil,
            message: "cannot watch descriptor \(fileDescriptor): \(errno) (errno \(errno.rawValue))\(meaning)")
    }

    /// Asks for (or stops asking for) ``Readiness/writable`` on a watched descriptor: a
    /// non-blocking socket whose peer has not read everything yet. Ask only while output waits,
    /// since a writable descriptor is ready on every turn.
    ///
    /// - Parameters:
    ///   - token: What ``watch(_:onReady:)`` returned; one unwatched already does nothing.
    ///   - writable: Whether to report writability.
    public func setWatchesWritability(_ token: Watch, _ writable: Bool) {
        guard let watcher = watchers[token.id] else { return }
        EventCalls.epollModify(epoll, watcher.fileDescriptor, token: token.id, writable: writable)
    }

    /// Stops watching a descriptor.
    ///
    /// - Parameter token: What ``watch(_:handler:)`` or ``watch(_:onReady:)`` returned; one
    ///   unwatched already does nothing.
    public func unwatch(_ token: Watch) {
        guard let watcher = watchers.removeValue(forKey: token.id) else { return }
        EventCalls.epollRemove(epoll, watcher.fileDescriptor)
    }

    /// Adds a deadline (a software repeater's next repeat): the loop wakes no later than `next()`
    /// and calls `fire` with the time after every batch, due or not; `fire` does what is due.
    ///
    /// - Parameters:
    ///   - next: The next due time on the monotonic clock, or `nil` for none.
    ///   - fire: Does the work that is due at the time it is given.
    /// - Returns: The token for ``removeDeadline(_:)``.
    @discardableResult
    public func addDeadline(_ next: @escaping () -> Double?, fire: @escaping (Double) -> Void) -> Deadline {
        let token = Deadline(id: makeToken())
        deadlines.append((token, DeadlineWork(next: next, fire: fire)))
        return token
    }

    /// Removes a deadline.
    ///
    /// - Parameter token: What ``addDeadline(_:fire:)`` returned; one removed already does nothing.
    public func removeDeadline(_ token: Deadline) {
        deadlines.removeAll { $0.token == token }
    }

    /// Adds work done at the end of every batch, in the order added: before ``afterBatch``
    /// (keyboard LEDs following the lock state), or after it (`afterFrame`: sending what the batch
    /// and the frame drawn in ``afterBatch`` produced, as a Wayland connection flushes its requests,
    /// so that a frame committed there reaches the compositor now, not with the next batch).
    ///
    /// - Parameters:
    ///   - afterFrame: Whether the work runs after ``afterBatch`` instead of before it.
    ///   - handler: The work.
    /// - Returns: The token for ``removeBatchHandler(_:)``.
    @discardableResult
    public func addBatchHandler(afterFrame: Bool = false, _ handler: @escaping () -> Void) -> BatchHandler {
        let token = BatchHandler(id: makeToken())
        if afterFrame {
            lateBatchHandlers.append((token, handler))
        } else {
            batchHandlers.append((token, handler))
        }
        return token
    }

    /// Removes batch work.
    ///
    /// - Parameter token: What ``addBatchHandler(afterFrame:_:)`` returned; one removed already
    ///   does nothing.
    public func removeBatchHandler(_ token: BatchHandler) {
        batchHandlers.removeAll { $0.token == token }
        lateBatchHandlers.removeAll { $0.token == token }
    }

    private func makeToken() -> UInt64 {
        defer { nextToken += 1 }
        return nextToken
    }

    /// Runs until ``Control/stop()``, blocking the calling thread: waits for input and dispatches
    /// it, and (with ``Options/drainsMainQueue``) runs the main actor's other work in between, so
    /// tasks that an input handler started resume while the loop waits.
    ///
    /// Call it from synchronous code on the program's main thread: top-level code in
    /// `main.swift`, or a synchronous `static func main()`. From async code (an `async` main, a
    /// test) call `try await run()` instead.
    ///
    /// - Throws: An `InputError` when called off the main thread while
    ///   ``Options/drainsMainQueue`` is set: the main actor's work would never run.
    public func run() throws(InputError) {
        if options.drainsMainQueue {
            guard EventCalls.isMainThread else {
                throw InputError(
                    operation: "run", path: nil,
                    message: "run() would block the main actor on a thread that is not the program's main thread "
                        + "(from an async main or a test), and main-actor tasks would never run: "
                        + "call `try await loop.run()` from async code, "
                        + "or set Options.drainsMainQueue to false to block on purpose")
            }
            attachMainQueue()
        }
        while true {
            waitAndDispatch(timeoutMilliseconds: -1)
            if control.takeStop() { return }
        }
    }

    /// Runs until ``Control/stop()`` without blocking the main actor: for async code (an `async`
    /// main, a test, a server's task). The loop's descriptor is watched by a dispatch source on
    /// the main queue, and a timer wakes it for deadlines; between input events the main actor
    /// runs its other work as usual. Idle, it wakes 0 times a second.
    ///
    /// - Throws: An `InputError` when the loop is already running.
    public func run() async throws(InputError) {
        guard sources == nil else {
            throw InputError(
                operation: "run", path: nil, message: "the loop is already running; call run() once at a time"
            )
        }
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

    /// One turn of `run() async`: what is ready, then the stop check and the next deadline.
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

    /// Arms `timer` for the next deadline, or parks it.
    private func schedule(_ timer: any DispatchSourceTimer) {
        guard let deadline = nextDeadline else {
            timer.schedule(deadline: .distantFuture)
            return
        }
        let seconds = max(deadline - Syscalls.monotonicNow(), 0)
        timer.schedule(deadline: .now() + .nanoseconds(Int(min(seconds, 3600) * 1e9)), leeway: .microseconds(100))
    }

    /// Adds the main queue's wake-up descriptor to the set, once, on the main thread.
    private func attachMainQueue() {
        guard mainQueue == nil, options.drainsMainQueue, EventCalls.isMainThread else { return }
        let descriptor = EventCalls.mainQueueDescriptor()
        if descriptor >= 0, case .success = EventCalls.epollAdd(epoll, descriptor, token: Self.mainQueueToken) {
            mainQueue = descriptor
        }
    }

    /// Waits up to `timeout` seconds for input (or a due deadline), dispatches what came, and
    /// returns.
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

    private func waitAndDispatch(timeoutMilliseconds: Int32) {
        var timeout = timeoutMilliseconds
        if let deadline = nextDeadline {
            let untilDue = Int32(min(max((deadline - Syscalls.monotonicNow()) * 1000, 0).rounded(.up), 2_000_000_000))
            timeout = timeout < 0 ? untilDue : min(timeout, untilDue)
        }
        EventCalls.epollWait(epoll, into: &ready, timeoutMilliseconds: timeout)
        isDispatchingBatch = true
        defer { isDispatchingBatch = false }
        for item in ready {
            switch item.token {
            case Self.wakeToken:
                EventCalls.eventDrain(control.wakeDescriptor)
                for work in control.takeWork() { work() }
            case Self.mainQueueToken:
                if let mainQueue { EventCalls.drainMainQueue(mainQueue) }
            default:
                // A handler earlier in the batch may have unwatched this one.
                watchers[item.token]?.handler(
                    Readiness(hangUp: item.hangUp, readable: item.readable, writable: item.writable))
            }
        }
        if !deadlines.isEmpty {
            let now = Syscalls.monotonicNow()
            for (_, work) in deadlines { work.fire(now) }
        }
        for (_, handler) in batchHandlers { handler() }
        afterBatch?()
        for (_, handler) in lateBatchHandlers { handler() }
    }
}
