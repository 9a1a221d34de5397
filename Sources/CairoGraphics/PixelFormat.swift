/// How a buffer's pixels are stored: 32 bits each, a little-endian `0xAARRGGBB` word (the bytes B, G,
/// R, A), as Wayland's `wl_shm` and DRM's dumb buffers take them.
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    /// The format's name.
    public let name: String
    /// Whether the alpha byte is used.
    let hasAlpha: Bool

    /// Premultiplied alpha: `wl_shm`'s `ARGB8888`, DRM's `AR24`. Translucent drawing keeps its alpha.
    public static let argb8888 = PixelFormat(name: "ARGB8888", hasAlpha: true)
    /// No alpha, every pixel opaque: `wl_shm`'s `XRGB8888`, DRM's `XR24` (a dumb buffer). Translucent
    /// drawing blends with what the buffer holds.
    public static let xrgb8888 = PixelFormat(name: "XRGB8888", hasAlpha: false)

    /// The name: `ARGB8888`.
    public var description: String { name }
}
