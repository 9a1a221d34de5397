/// Pixels an app made itself (a video frame, a chart its own renderer drew, a camera's picture),
/// to draw in a node (`GraphicsContext.draw(_:in:mode:)`, `Graphics`' `BitmapNode`).
///
/// Each pixel is 4 bytes, premultiplied, in the order blue, green, red, alpha (a little-endian
/// `0xAARRGGBB`: Cairo's `ARGB32`, wl_shm's and DRM's `ARGB8888`), rows `width * 4` bytes apart.
/// Unlike an ``ImageSource`` it is not kept: it is drawn as it is, every time.
public struct Bitmap: Hashable, Sendable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The pixels, `width * height * 4` bytes.
    public private(set) var pixels: [UInt8]

    /// The widest and tallest a bitmap gets (Cairo's limit).
    public static let maximumSide = 32767

    /// A bitmap of these pixels.
    ///
    /// - Parameters:
    ///   - width: The width; clamped to 1…``maximumSide``.
    ///   - height: The height; clamped to 1…``maximumSide``.
    ///   - pixels: The bytes: missing ones are transparent, extra ones dropped.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = max(1, min(width, Self.maximumSide))
        self.height = max(1, min(height, Self.maximumSide))
        let count = self.width * self.height * 4
        if pixels.count == count {
            self.pixels = pixels
        } else if pixels.count > count {
            self.pixels = Array(pixels[0..<count])
        } else {
            self.pixels = pixels + [UInt8](repeating: 0, count: count - pixels.count)
        }
    }

    /// A bitmap of one colour.
    ///
    /// - Parameters:
    ///   - width: The width.
    ///   - height: The height.
    ///   - color: The colour.
    public init(width: Int, height: Int, color: Color) {
        func byte(_ value: Double) -> UInt8 { UInt8(value * 255 + 0.5) }
        let alpha = color.alpha
        let pixel = [
            byte(color.blue * alpha), byte(color.green * alpha), byte(color.red * alpha), byte(alpha),
        ]
        let side = (max(1, min(width, Self.maximumSide)), max(1, min(height, Self.maximumSide)))
        self.init(
            width: side.0, height: side.1,
            pixels: [UInt8]((0..<side.0 * side.1).lazy.flatMap { _ in pixel }))
    }

    /// Sets one pixel (outside the bitmap: nothing).
    ///
    /// - Parameters:
    ///   - x: The column.
    ///   - y: The row.
    ///   - color: The colour.
    public mutating func set(_ x: Int, _ y: Int, _ color: Color) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        func byte(_ value: Double) -> UInt8 { UInt8(value * 255 + 0.5) }
        let offset = (y * width + x) * 4
        pixels[offset] = byte(color.blue * color.alpha)
        pixels[offset + 1] = byte(color.green * color.alpha)
        pixels[offset + 2] = byte(color.red * color.alpha)
        pixels[offset + 3] = byte(color.alpha)
    }
}
