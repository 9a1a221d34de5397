/// A free `wl_shm` buffer's pixels, handed to ``WaylandWindow/present(draw:)``'s closure to draw into.
///
/// Rows are ``stride`` bytes apart, each pixel 4 bytes in ``format`` (little-endian `0xAARRGGBB`).
/// Unless ``needsFullRedraw`` is set the buffer already shows the last frame, so only changed rows
/// need drawing; the closure returns those rows, and only they are damaged.
public struct PixelBuffer {
    /// The pixel memory (``stride`` × ``height`` bytes), valid only during the closure.
    public let pixels: UnsafeMutableRawBufferPointer
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The bytes from one row to the next.
    public let stride: Int
    /// How a pixel is stored.
    public let format: WaylandWindow.PixelFormat
    /// Whether the buffer's contents are undefined (a new size): draw every row and return `0..<height`.
    public let needsFullRedraw: Bool

    /// Fills rows with one colour.
    ///
    /// - Parameters:
    ///   - rows: The rows, clamped to the buffer.
    ///   - color: The pixel value, `0xAARRGGBB` (alpha ignored for ``WaylandWindow/PixelFormat/xrgb8888``).
    public func fill(rows: Range<Int>, color: UInt32) {
        let rows = rows.clamped(to: 0..<height)
        for row in rows {
            let start = pixels.baseAddress! + row * stride
            start.initializeMemory(as: UInt32.self, repeating: color.littleEndian, count: width)
        }
    }
}
