internal import CCairoGraphics

/// A Gaussian blur of an A8 surface, approximated by three box blurs in each direction (each a
/// running sum: the cost is the pixels, not the radius).
enum ShadowBlur {
    /// The widths of three boxes whose succession is close to a Gaussian of deviation `sigma`
    /// (Kutskir's "fastest Gaussian blur", after Wells 1986).
    static func boxes(sigma: Double) -> [Int] {
        guard sigma > 0.2 else { return [] }
        let ideal = (12 * sigma * sigma / 3 + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        let upper = lower + 2
        let lowerCount = Int(
            ((12 * sigma * sigma - 3 * Double(lower * lower) - 12 * Double(lower) - 9) / (-4 * Double(lower) - 4))
                .rounded())
        return (0..<3).map { $0 < lowerCount ? lower : upper }
    }

    /// How far the blur spreads a pixel, in pixels.
    static func reach(sigma: Double) -> Int {
        boxes(sigma: sigma).reduce(0) { $0 + ($1 - 1) / 2 } + 1
    }

    /// Blurs the surface in place.
    ///
    /// Uses `cairo_image_surface_get_data`, then `cairo_surface_mark_dirty`.
    static func blur(_ surface: CairoSurface, sigma: Double) {
        let boxes = boxes(sigma: sigma)
        guard !boxes.isEmpty else { return }
        cairo_surface_flush(surface.pointer)
        guard let data = cairo_image_surface_get_data(surface.pointer) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        let (width, height) = (surface.width, surface.height)
        let pixels = UnsafeMutableBufferPointer(start: data, count: stride * height)
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(width, height))
        defer { scratch.deallocate() }
        for box in boxes {
            let radius = (box - 1) / 2
            for y in 0..<height {
                boxPass(pixels, start: y * stride, step: 1, count: width, radius: radius, scratch: scratch)
            }
        }
        for box in boxes {
            let radius = (box - 1) / 2
            for x in 0..<width {
                boxPass(pixels, start: x, step: stride, count: height, radius: radius, scratch: scratch)
            }
        }
        cairo_surface_mark_dirty(surface.pointer)
    }

    /// One box blur along a row or a column (`count` values `step` apart from `start`), zero beyond its
    /// ends, with a running sum.
    private static func boxPass(
        _ pixels: UnsafeMutableBufferPointer<UInt8>, start: Int, step: Int, count: Int, radius: Int,
        scratch: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard radius > 0 else { return }
        for index in 0..<count { scratch[index] = pixels[start + index * step] }
        let width = 2 * radius + 1
        let half = width / 2
        var sum = 0
        for index in 0..<min(radius, count) { sum += Int(scratch[index]) }
        for index in 0..<count {
            let entering = index + radius
            if entering < count { sum += Int(scratch[entering]) }
            let leaving = index - radius - 1
            if leaving >= 0 { sum -= Int(scratch[leaving]) }
            pixels[start + index * step] = UInt8((sum + half) / width)
        }
    }
}
