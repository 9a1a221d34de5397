internal import Glibc

extension PixelRenderer {
    /// A renderer being made on a thread of its own: finding the font through fontconfig (which reads
    /// its whole configuration the first time), loading the faces and measuring the cell take a few
    /// milliseconds at start, which an app can spend meanwhile on its own start (compiling its keymap,
    /// connecting to the compositor, building its tree). ``wait()`` hands the renderer over.
    ///
    /// ```swift
    /// let loading = PixelRenderer.Loading(pixelSize: 16)   // starts at once
    /// // ... the app's own start ...
    /// let renderer = try loading.wait()
    /// ```
    package final class Loading: @unchecked Sendable {
        // @unchecked: `result` is written by the loading thread before it ends and read only after
        // `pthread_join` (which orders the two), or, when no thread could be started, only by the caller.
        private let make: () throws -> PixelRenderer
        private var result: Result<PixelRenderer, any Error>?
        private var thread = pthread_t()
        private var running = false

        /// Starts making the renderer (see ``PixelRenderer/init(fontFamily:pixelSize:scale:palette:)``).
        package init(
            fontFamily: String = "DejaVu Sans Mono", pixelSize: Double, scale: Int = 1,
            palette: PixelPalette = .standard
        ) {
            make = {
                try PixelRenderer(fontFamily: fontFamily, pixelSize: pixelSize, scale: scale, palette: palette)
            }
            let context = Unmanaged.passRetained(self).toOpaque()
            running =
                pthread_create(
                    &thread, nil,
                    { context in
                        let loading = Unmanaged<Loading>.fromOpaque(context!).takeRetainedValue()
                        loading.result = Result { try loading.make() }
                        return nil
                    }, context) == 0
            // No thread (the process is out of them): `wait()` makes the renderer itself.
            if !running { Unmanaged<Loading>.fromOpaque(context).release() }
        }

        deinit {
            if running { pthread_join(thread, nil) }
        }

        /// Waits for the renderer (made here when no thread could be started).
        ///
        /// - Returns: The renderer; waiting again returns the same one.
        /// - Throws: What ``PixelRenderer/init(fontFamily:pixelSize:scale:palette:)`` throws.
        package func wait() throws -> PixelRenderer {
            if running {
                pthread_join(thread, nil)
                running = false
            }
            if result == nil { result = Result { try make() } }
            return try result!.get()
        }
    }
}
