/// Pixels owned by the caller: ARGB8888, premultiplied, rows `stride` bytes apart; what
/// ``PixelRenderer/image(of:)`` returns, and what tests compare and write as PNG.
public struct PixelImage: Equatable, Sendable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The bytes from one row to the next (`width * 4`).
    public let stride: Int
    /// The pixels, `stride * height` bytes: each pixel the bytes B, G, R, A (a little-endian `0xAARRGGBB`).
    public var pixels: [UInt8]

    /// Creates a transparent black image.
    ///
    /// - Parameters:
    ///   - width: The width in pixels; at least 1.
    ///   - height: The height in pixels; at least 1.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        stride = self.width * 4
        pixels = Array(repeating: 0, count: stride * self.height)
    }

    /// Reads a PNG file.
    ///
    /// Uses `cairo_image_surface_create_from_png`.
    ///
    /// - Parameter path: The file.
    /// - Throws: ``PixelCanvasError`` (``PixelCanvasError/Code/pngRead``) when it is missing or not a PNG.
    public init(contentsOfPNG path: String) throws {
        self = try PNGFile.read(path)
    }

    /// The colour of one pixel (alpha ignored: the renderer draws only opaque pixels).
    ///
    /// - Parameters:
    ///   - x: The column, from 0 (less than ``width``).
    ///   - y: The row, from 0 (less than ``height``).
    /// - Returns: The pixel's colour.
    public func color(_ x: Int, _ y: Int) -> PixelColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel \(x),\(y) outside \(width)x\(height)")
        let offset = y * stride + x * 4
        return PixelColor(red: pixels[offset + 2], green: pixels[offset + 1], blue: pixels[offset])
    }

    /// Writes the image as a PNG file.
    ///
    /// Uses `cairo_surface_write_to_png`.
    ///
    /// - Parameter path: The file; its directory must exist.
    /// - Throws: ``PixelCanvasError`` (``PixelCanvasError/Code/pngWrite``) when it cannot be written.
    public func writePNG(to path: String) throws {
        try PNGFile.write(self, to: path)
    }
}
