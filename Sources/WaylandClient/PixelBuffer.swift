public import Graphics
public import ResponderChain

/// A free `wl_shm` buffer's pixels, handed to ``WaylandWindow/present(draw:)``'s closure to draw into.
///
/// The buffer is in device pixels: ``width`` × ``height`` is the window's size in points (surface
/// units) times ``scale``. Rows are ``stride`` bytes apart, each pixel 4 bytes in ``format``
/// (little-endian `0xAARRGGBB`, premultiplied: Cairo's `CAIRO_FORMAT_RGB24` for
/// ``WaylandWindow/PixelFormat/xrgb8888`` and `CAIRO_FORMAT_ARGB32` for
/// ``WaylandWindow/PixelFormat/argb8888``, so a Cairo image surface can be made on ``pixels``
/// and scaled by ``scale`` to draw in points).
///
/// Unless ``needsFullRedraw`` is set the buffer already shows the last frame, so only what changed
/// needs drawing; the closure returns the rectangles it changed (`PixelRect`, in device pixels),
/// and only they are damaged.
public struct PixelBuffer {
    /// The pixel memory (``stride`` × ``height`` bytes), valid only during the closure.
    public let pixels: UnsafeMutableRawBufferPointer
    /// The width in device pixels: the window's width in points times ``scale``.
    public let width: Int
    /// The height in device pixels: the window's height in points times ``scale``.
    public let height: Int
    /// The bytes from one row to the next.
    public let stride: Int
    /// How a pixel is stored.
    public let format: WaylandWindow.PixelFormat
    /// Device pixels per point (the window's ``WaylandWindow/scale``): 2 on a HiDPI output.
    public let scale: Int
    /// Whether the buffer's contents are undefined (a new size or scale): draw everything and return ``bounds``.
    public let needsFullRedraw: Bool

    /// Describes a buffer's memory (the window makes these; tests and outputs may too).
    ///
    /// - Parameters:
    ///   - pixels: At least `stride` × `height` bytes.
    ///   - width: The width in device pixels.
    ///   - height: The height in device pixels.
    ///   - stride: The bytes from one row to the next, at least `width` × 4.
    ///   - format: How a pixel is stored.
    ///   - scale: Device pixels per point, at least 1.
    ///   - needsFullRedraw: Whether the contents are undefined.
    public init(
        pixels: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int,
        format: WaylandWindow.PixelFormat, scale: Int = 1, needsFullRedraw: Bool
    ) {
        precondition(
            width >= 0 && height >= 0 && stride >= width * 4, "a \(width)x\(height) buffer of stride \(stride)")
        precondition(
            pixels.count >= stride * height, "a \(pixels.count)-byte buffer is smaller than \(stride) x \(height)")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.scale = max(1, scale)
        self.needsFullRedraw = needsFullRedraw
    }

    /// The whole buffer: (0, 0, ``width``×``height``).
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The width in points (surface units): ``width`` / ``scale``.
    public var pointWidth: Int { width / scale }

    /// The height in points (surface units): ``height`` / ``scale``.
    public var pointHeight: Int { height / scale }

    /// The device pixels that cover a rectangle in points at this buffer's ``scale``, clamped to
    /// the buffer: what to return for a part drawn in points.
    ///
    /// - Parameter rect: The rectangle in points.
    /// - Returns: Its pixels, rounded outward and clamped to ``bounds`` (empty when outside).
    public func pixelRect(enclosing rect: Rect) -> PixelRect {
        PixelRect(enclosing: rect, scale: scale).intersection(bounds)
    }

    /// Fills rows with one colour.
    ///
    /// - Parameters:
    ///   - rows: The rows, clamped to the buffer.
    ///   - color: The pixel value, `0xAARRGGBB` (alpha ignored for ``WaylandWindow/PixelFormat/xrgb8888``).
    public func fill(rows: Range<Int>, color: UInt32) {
        fill(PixelRect(rows: rows, width: width), color: color)
    }

    /// Fills a rectangle with one colour.
    ///
    /// - Parameters:
    ///   - rect: The rectangle in device pixels, clamped to the buffer.
    ///   - color: The pixel value, `0xAARRGGBB` (alpha ignored for ``WaylandWindow/PixelFormat/xrgb8888``).
    public func fill(_ rect: PixelRect, color: UInt32) {
        let rect = rect.intersection(bounds)
        guard !rect.isEmpty else { return }
        for row in rect.y..<rect.maxY {
            let start = pixels.baseAddress! + row * stride + rect.x * 4
            start.initializeMemory(as: UInt32.self, repeating: color.littleEndian, count: rect.width)
        }
    }
}
