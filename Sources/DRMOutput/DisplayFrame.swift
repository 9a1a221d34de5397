public import Graphics

/// A frame that reached the screen (``DisplayOutput/onPresented``): for figures (key to flip)
/// and for checking what a frame cost.
public struct DisplayFrame: Hashable, Sendable {
    /// Its number, from 1.
    public var number: Int
    /// When drawing it began (`CLOCK_MONOTONIC` seconds).
    public var started: Double
    /// When it was on the screen: the flip event's time, or the end of the mode set.
    public var shown: Double
    /// How many pixel rows were copied into the buffer, whole or in part (all of them for a whole
    /// frame).
    public var rowsCopied: Int
    /// The rectangles copied into the buffer: full-width rows for ``DRMCanvasOutput``, the damaged
    /// rectangles (this frame's and those the buffer missed) for ``DRMNodeOutput``.
    public var rectsCopied: [PixelRect]
    /// Whether it was shown by setting the mode (the first frame, after a VT switch or a
    /// hot-plug) rather than a flip.
    public var byModeSet: Bool

    /// How many pixels were copied: the rectangles' areas added up.
    public var pixelsCopied: Int { rectsCopied.reduce(0) { $0 + $1.area } }
}
