internal import CWayland
internal import Glibc
internal import Synchronization

/// A thread making a window buffer's pages resident before the first frame writes them
/// (`madvise(MADV_POPULATE_WRITE)`), 1 MiB at a time from the end: the first frame fills from the
/// top, so the two meet instead of taking turns. Its owner stops it (at most one more MiB) and
/// joins it before the memory is unmapped.
final class Prefault: Sendable {
    /// The memory, as an address (a pointer is not `Sendable`; the owner keeps it mapped until the
    /// thread is joined).
    private let start: UInt
    private let bytes: Int
    private let stopping = Atomic<Bool>(false)
    private let refused = Atomic<Bool>(false)
    private let thread: Mutex<pthread_t?> = Mutex(nil)

    /// Starts the thread; `nil` when none could be started.
    static func start(_ memory: UnsafeMutableRawPointer, bytes: Int) -> Prefault? {
        let job = Prefault(start: UInt(bitPattern: memory), bytes: bytes)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(job).toOpaque()
        let started =
            pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Prefault>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context) == 0
        guard started else {
            Unmanaged<Prefault>.fromOpaque(context).release()
            return nil
        }
        job.thread.withLock { $0 = thread }
        return job
    }

    private init(start: UInt, bytes: Int) {
        self.start = start
        self.bytes = bytes
    }

    private func run() {
        guard let base = UnsafeMutableRawPointer(bitPattern: start) else { return }
        let chunk = 1 << 20
        var end = bytes
        while end > 0, !stopping.load(ordering: .relaxed) {
            let from = max(0, end - chunk) & ~4095
            guard cwayland_populate_write(base + from, end - from) == 0 else {
                // Before Linux 5.14 (EINVAL), or no memory: the frame faults the pages in as before.
                refused.store(true, ordering: .relaxed)
                return
            }
            end = from
        }
    }

    /// Stops the thread after the MiB it is on, and waits for it.
    ///
    /// - Returns: Whether every call the thread made was taken (`false`: the kernel refused).
    @discardableResult
    func stopAndWait() -> Bool {
        stopping.store(true, ordering: .relaxed)
        wait()
        return !refused.load(ordering: .relaxed)
    }

    /// Waits for the thread to end by itself.
    ///
    /// - Returns: Whether the kernel took every call (`false`: it refused the advice).
    @discardableResult
    func wait() -> Bool {
        if let thread = thread.withLock({ thread in thread.take() }) { pthread_join(thread, nil) }
        return !refused.load(ordering: .relaxed)
    }
}
