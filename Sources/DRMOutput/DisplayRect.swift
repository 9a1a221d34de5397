public import Graphics

/// A rectangle of a display's pixels: what a frame copied into the buffer it showed
/// (``DisplayFrame/rectsCopied``). The same type as a Wayland window's damage, Graphics'
/// `PixelRect`; this name is kept for code written before they were one.
public typealias DisplayRect = PixelRect
