internal import Glibc

/// The work of a ``PixelRenderer/Loading``, shared with the thread that does it: the thread holds
/// its own reference, so the loading may end first (its `deinit` joins the thread) without the
/// thread ever holding, or joining, the loading itself.
final class LoadingJob: @unchecked Sendable {
    // @unchecked: `result` is written once by the loading thread before it ends, and read only after
    // `pthread_join` returned (which orders the write before the read); `make` is read-only.
    let make: @Sendable () throws -> PixelRenderer
    var result: Result<PixelRenderer, any Error>?

    init(_ make: @escaping @Sendable () throws -> PixelRenderer) {
        self.make = make
    }

    /// Starts a thread that runs the job; `nil` when none could be started.
    func start() -> pthread_t? {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started =
            pthread_create(
                &thread, nil,
                { context in
                    let job = Unmanaged<LoadingJob>.fromOpaque(context!).takeRetainedValue()
                    job.result = Result { try job.make() }
                    return nil
                }, context) == 0
        guard started else {
            Unmanaged<LoadingJob>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// Waits for a thread `start()` returned.
    static func join(_ thread: pthread_t) {
        pthread_join(thread, nil)
    }
}
