internal import CCairoGraphics
internal import Glibc

extension CairoRenderer {
    /// Starts reading fontconfig's configuration and font caches on a thread of its own, and
    /// returns at once: the first text a renderer shapes otherwise reads them on the caller's
    /// thread (its files and its caches' directories: some ten milliseconds of a first frame).
    /// A platform calls it while it connects and compiles; calling it again, or drawing before it
    /// ends, is safe (fontconfig's first configuration is taken atomically).
    ///
    /// - Returns: Whether the thread started (`false` when the process has no thread to spare:
    ///   the first text reads them, as without this).
    @discardableResult
    public static func prepareFonts() -> Bool {
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { _ in
                _ = FcInit()
                return nil
            }, nil)
        guard started == 0 else { return false }
        pthread_detach(thread)
        return true
    }
}
