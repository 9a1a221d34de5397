internal import CCairoGraphics
internal import Glibc
internal import Synchronization

/// A Pango font map made on a thread of its own before the first renderer needs one, with
/// fontconfig's configuration read first (``CairoRenderer/prepareFonts()``): the next renderer made
/// on the thread that asked for it claims it, and waits for the thread, if it has not ended, at its
/// first text.
///
/// One thread reads fontconfig's files, once. A font map made on the caller's thread instead would
/// start Pango's own reading thread (Pango 1.50 reads them on a thread of its own until they are
/// read) while ours reads them too: two threads parsing the same files at once on a two-core kiosk,
/// and the first text waiting for the later one.
final class PreparedFontMap: @unchecked Sendable {
    // @unchecked: `fontMap` is written once by the thread before it ends and read only after
    // `pthread_join` returned, which orders the write before the read; `owner` is written before
    // the thread starts and `thread` right after (the thread reads neither), both before the slot
    // shares the object, and `thread` is then read and cleared only by the one renderer that
    // claimed it. The thread holds its own reference: the last release may be the thread's, so
    // the join is the claimer's (`take()`), never a `deinit`'s.
    private var fontMap: GObjectReference?
    private var thread: pthread_t?
    /// The thread that asked for it: the one that will draw.
    private var owner = pthread_self()

    /// The one prepared font map not yet claimed, if any.
    private static let slot = Mutex<PreparedFontMap?>(nil)

    /// Starts the thread unless a font map is being (or was) prepared and not yet claimed. A
    /// prepared map no renderer claims (the platform that asked for it failed to open) is kept,
    /// with its ended thread, for the process's life: one font map.
    ///
    /// - Returns: Whether one is prepared now for this thread (`false` when no thread could be
    ///   started, or another thread's is pending).
    static func start() -> Bool {
        slot.withLock { slot in
            if let pending = slot { return pthread_equal(pending.owner, pthread_self()) != 0 }
            let prepared = PreparedFontMap()
            var thread = pthread_t()
            let context = Unmanaged.passRetained(prepared).toOpaque()
            let started =
                pthread_create(
                    &thread, nil,
                    { context in
                        let prepared = Unmanaged<PreparedFontMap>.fromOpaque(context!).takeRetainedValue()
                        _ = FcInit()
                        prepared.fontMap = pango_cairo_font_map_new().map(GObjectReference.init)
                        return nil
                    }, context) == 0
            guard started else {
                Unmanaged<PreparedFontMap>.fromOpaque(context).release()
                return false
            }
            prepared.thread = thread
            slot = prepared
            return true
        }
    }

    /// The prepared font map, for a renderer made on the thread that asked for it; `nil` on another
    /// thread, or when none is prepared (or another renderer claimed it).
    static func claim() -> PreparedFontMap? {
        slot.withLock { slot in
            guard let prepared = slot, pthread_equal(prepared.owner, pthread_self()) != 0 else { return nil }
            slot = nil
            return prepared
        }
    }

    /// The font map, once the thread has ended (`nil` when Pango could not make one, or it was
    /// taken); the one thread that claimed it calls this.
    func take() -> GObjectReference? {
        if let thread { pthread_join(thread, nil) }
        thread = nil
        defer { fontMap = nil }
        return fontMap
    }
}
