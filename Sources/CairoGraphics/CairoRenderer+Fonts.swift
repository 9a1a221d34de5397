extension CairoRenderer {
    /// Starts reading fontconfig's configuration and font caches, and making the font map the
    /// first renderer will shape text with, on a thread of its own, and returns at once: the first
    /// text a renderer shapes otherwise reads them on the caller's thread (its files and its caches'
    /// directories: some ten milliseconds of a first frame). A platform calls it while it connects,
    /// then makes its renderer on the same thread: the next renderer made on this thread takes that
    /// font map, and waits for the thread, if it has not ended, at its first text. Calling this again
    /// before then does nothing more.
    ///
    /// - Returns: Whether fonts are being prepared for this thread (`false` when the process has no
    ///   thread to spare, or another thread's are not taken yet: the first text reads them, as
    ///   without this).
    @discardableResult
    public static func prepareFonts() -> Bool {
        PreparedFontMap.start()
    }
}
