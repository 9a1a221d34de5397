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
    // `pthread_join` returned, which orders the write before the read; `thread` and `owner` are
    // written before the object is shared, and `thread` is then read and cleared only by the one
    // renderer that claimed it.
    private var fontMap: OpaquePointer?
    private var thread: pthread_t?
    /// The thread that asked for it: the one that will draw.
    private var owner = pthread_self()

    /// The one prepared font map not yet claimed, if any.
    private static let slot = Mutex<PreparedFontMap?>(nil)

    /// Starts the thread unless a font map is being (or was) prepared and not yet claimed.
    ///
    /// - Returns: Whether one is prepared now (`false` when no thread could be started).
    static func start() -> Bool {
        slot.withLock { slot in
            if slot != nil { return true }
            let prepared = PreparedFontMap()
            var thread = pthread_t()
            let context = Unmanaged.passRetained(prepared).toOpaque()
            let started =
                pthread_create(
                    &thread, nil,
                    { context in
                        let prepared = Unmanaged<PreparedFontMap>.fromOpaque(context!).takeRetainedValue()
                        _ = FcInit()
                        prepared.fontMap = pango_cairo_font_map_new()
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

    /// The font map, once the thread has ended (`nil` when Pango could not make one). The caller
    /// owns the reference; call it once.
    func take() -> OpaquePointer? {
        if let thread { pthread_join(thread, nil) }
        thread = nil
        defer { fontMap = nil }
        return fontMap
    }
}
