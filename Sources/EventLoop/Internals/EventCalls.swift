// The libc calls of the event loop: epoll, eventfd and libdispatch's main-queue handle.
internal import CLinuxEvents
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; these are plain synchronous calls.
internal import LinuxSystem

enum EventCalls {
    // MARK: epoll and eventfd

    static func epollCreate() -> Result<Int32, Errno> {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        return fd >= 0 ? .success(fd) : .failure(.current)
    }

    /// Watches a descriptor for input; `token` comes back from ``epollWait(_:into:timeoutMilliseconds:)``.
    static func epollAdd(_ epoll: Int32, _ fd: Int32, token: UInt64) -> Result<Void, Errno> {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = token
        return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 ? .success(()) : .failure(.current)
    }

    /// Watches a descriptor for input, and for output too when `writable` is set.
    static func epollModify(_ epoll: Int32, _ fd: Int32, token: UInt64, writable: Bool) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | (writable ? EPOLLOUT.rawValue : 0)
        event.data.u64 = token
        _ = epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event)
    }

    static func epollRemove(_ epoll: Int32, _ fd: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    /// One ready descriptor: its token, whether it hung up or failed, has input, takes output.
    struct Ready {
        var token: UInt64
        var hangUp: Bool
        var readable: Bool
        var writable: Bool
    }

    /// Waits for ready descriptors. `timeoutMilliseconds` -1 waits forever, 0 does not wait.
    static func epollWait(_ epoll: Int32, into ready: inout [Ready], timeoutMilliseconds: Int32) {
        ready.removeAll(keepingCapacity: true)
        var events = [epoll_event](repeating: epoll_event(), count: 16)
        let count = epoll_wait(epoll, &events, Int32(events.count), timeoutMilliseconds)
        guard count > 0 else { return }
        let failure = EPOLLHUP.rawValue | EPOLLERR.rawValue
        for event in events[0..<Int(count)] {
            ready.append(
                Ready(
                    token: event.data.u64, hangUp: event.events & failure != 0,
                    readable: event.events & EPOLLIN.rawValue != 0, writable: event.events & EPOLLOUT.rawValue != 0))
        }
    }

    static func eventCreate() -> Result<Int32, Errno> {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        return fd >= 0 ? .success(fd) : .failure(.current)
    }

    static func eventSignal(_ fd: Int32) {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    static func eventDrain(_ fd: Int32) {
        var value: UInt64 = 0
        _ = read(fd, &value, 8)
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
