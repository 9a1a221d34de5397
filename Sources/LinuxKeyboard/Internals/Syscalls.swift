// Every libc call of the module that is not file reading goes through here, so there is one
// place to see (and trace) what the module asks of the kernel.
internal import CLinuxEvents
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; these are plain synchronous calls.

enum Syscalls {
    static let again = EAGAIN
    static let noDevice = ENODEV
    static let interrupted = EINTR

    /// Opens a path read-write (for LEDs) or, failing that, read-only; non-blocking, close-on-exec.
    ///
    /// - Returns: The descriptor, or the errno of the read-only attempt.
    static func openForReading(_ path: String) -> Result<Int32, Errno> {
        let readWrite = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if readWrite >= 0 { return .success(readWrite) }
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        return fd >= 0 ? .success(fd) : .failure(Errno(code: Glibc.errno))
    }

    static let noEntry = ENOENT
    static let accessDenied = EACCES

    /// The calling thread's `errno`.
    static var lastError: Int32 { Glibc.errno }

    /// An environment variable, or `nil`.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Sets (or, with `nil`, removes) an environment variable. Not thread-safe (libc's
    /// environment is not): for start-up, before other threads read it.
    static func setEnvironment(_ name: String, _ value: String?) {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }

    /// Switches a descriptor to non-blocking reads.
    static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The device number of a character device node (following links), or `nil`.
    static func characterDeviceNumber(_ path: String) -> dev_t? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return nil }
        return info.st_rdev
    }

    /// The path with every symbolic link resolved (`realpath`); `nil` when it does not exist.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `CLOCK_MONOTONIC` in seconds: the clock devices are switched to, so that event times and
    /// software repeats share one clock.
    static func monotonicNow() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }

    /// The id of `CLOCK_MONOTONIC`, for `libevdev_set_clock_id`.
    static let monotonicClockID = CLOCK_MONOTONIC

    /// Sleeps, resuming after signals; returns at once for a time that is not positive or not
    /// finite. Uses `nanosleep`.
    static func sleep(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        // At most 68 years: a longer (or infinite) gap would trap converting to Int.
        let seconds = min(seconds, Double(Int32.max))
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && Glibc.errno == EINTR { request = remaining }
    }

    struct Errno: Error {
        var code: Int32
    }

    /// Ends the process. Uses `exit`.
    static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// The C library's words for an errno. Uses `strerror`.
    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Writes all of `bytes` to a descriptor: the one write path of the module (trace output,
    /// terminal output). Partial writes go on with the rest and `EINTR` is retried; it stops at
    /// the first other failure, `EAGAIN` included (a non-blocking descriptor that is full: the
    /// caller keeps the rest), or when `write` takes nothing. Uses `write`.
    ///
    /// - Parameters:
    ///   - descriptor: Where to write.
    ///   - bytes: What to write.
    /// - Returns: How many bytes were written, and the errno of the failure that stopped it
    ///   (`nil` when everything was written, or when `write` returned 0).
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> (written: Int, failure: Int32?) {
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if result > 0 {
                written += result
            } else if result < 0 {
                let code = Glibc.errno
                if code == EINTR { continue }
                return (written, code)
            } else {
                return (written, nil)
            }
        }
        return (written, nil)
    }

    // MARK: epoll and eventfd

    static func epollCreate() -> Result<Int32, Errno> {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        return fd >= 0 ? .success(fd) : .failure(Errno(code: Glibc.errno))
    }

    /// Watches a descriptor for input; `token` comes back from ``epollWait(_:into:timeoutMilliseconds:)``.
    static func epollAdd(_ epoll: Int32, _ fd: Int32, token: UInt64) -> Bool {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = token
        return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0
    }

    static func epollRemove(_ epoll: Int32, _ fd: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    /// One ready descriptor: its token and whether it hung up or failed.
    struct Ready {
        var token: UInt64
        var hangUp: Bool
    }

    /// Waits for ready descriptors. `timeoutMilliseconds` -1 waits forever, 0 does not wait.
    static func epollWait(_ epoll: Int32, into ready: inout [Ready], timeoutMilliseconds: Int32) {
        ready.removeAll(keepingCapacity: true)
        var events = [epoll_event](repeating: epoll_event(), count: 16)
        let count = epoll_wait(epoll, &events, Int32(events.count), timeoutMilliseconds)
        guard count > 0 else { return }
        let failure = EPOLLHUP.rawValue | EPOLLERR.rawValue
        for event in events[0..<Int(count)] {
            ready.append(Ready(token: event.data.u64, hangUp: event.events & failure != 0))
        }
    }

    static func eventCreate() -> Result<Int32, Errno> {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        return fd >= 0 ? .success(fd) : .failure(Errno(code: Glibc.errno))
    }

    static func eventSignal(_ fd: Int32) {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    static func eventDrain(_ fd: Int32) {
        var value: UInt64 = 0
        _ = read(fd, &value, 8)
    }

    /// The process environment, from `environ`.
    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// Whether this is the process's first thread: the one top-level code runs on.
    static var isMainThread: Bool { linux_events_is_main_thread() != 0 }

    /// The main queue's wake-up descriptor: readable when work waits on the main queue.
    static func mainQueueDescriptor() -> Int32 { _dispatch_get_main_queue_handle_4CF() }

    /// Runs the work queued on the main queue (the main actor's jobs), on this thread. Nested
    /// calls return at once: libdispatch guards the drain.
    static func drainMainQueue(_ descriptor: Int32) {
        eventDrain(descriptor)
        _dispatch_main_queue_callback_4CF(nil)
    }
}
