internal import Glibc

extension PixelRenderer {
    /// A renderer being made on a thread of its own: finding the font through fontconfig (which reads
    /// its whole configuration the first time), loading the faces and measuring the cell take a few
    /// milliseconds at start, which an app can spend meanwhile on its own start (compiling its keymap,
    /// connecting to the compositor, building its tree). ``wait()`` hands the renderer over; a loading
    /// dropped without waiting waits for its thread as it ends.
    ///
    /// ```swift
    /// let loading = PixelRenderer.Loading(pixelSize: 16)   // starts at once
    /// // ... the app's own start ...
    /// let renderer = try loading.wait()
    /// ```
    package final class Loading {
        /// The work, shared with the thread (internal for tests).
        let job: LoadingJob
        private var thread: pthread_t?

        /// Starts making the renderer (see ``PixelRenderer/init(fontFamily:pixelSize:scale:palette:)``).
        package init(
            fontFamily: String = "DejaVu Sans Mono", pixelSize: Double, scale: Int = 1,
            palette: PixelPalette = .standard
        ) {
            job = LoadingJob {
                try PixelRenderer(fontFamily: fontFamily, pixelSize: pixelSize, scale: scale, palette: palette)
            }
            // No thread (the process is out of them): `wait()` makes the renderer itself.
            thread = job.start()
        }

        deinit {
            if let thread { LoadingJob.join(thread) }
        }

        /// Waits for the renderer (made here when no thread could be started).
        ///
        /// - Returns: The renderer; waiting again returns the same one.
        /// - Throws: What ``PixelRenderer/init(fontFamily:pixelSize:scale:palette:)`` throws.
        package func wait() throws -> PixelRenderer {
            if let thread {
                LoadingJob.join(thread)
                self.thread = nil
            }
            if job.result == nil { job.result = Result { try job.make() } }
            return try job.result!.get()
        }
    }
}
