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

    /// Blurs the surface in place: each row, then the columns a row at a time (running sums for all
    /// columns at once, so that memory is read in order: a column walked alone reads a cache line per
    /// pixel, most of the blur's time on a large card's mask).
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
                boxPass(pixels, start: y * stride, count: width, radius: radius, scratch: scratch)
            }
        }
        let rows = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: width * height)
        defer { rows.deallocate() }
        let sums = UnsafeMutableBufferPointer<Int>.allocate(capacity: width)
        defer { sums.deallocate() }
        for box in boxes {
            columnPass(
                pixels, stride: stride, width: width, height: height, radius: (box - 1) / 2, copy: rows, sums: sums)
        }
        cairo_surface_mark_dirty(surface.pointer)
    }

    /// `(sum + width / 2) / width` for the sums a box of `width` makes (at most 255 times it), as a
    /// multiplication: exact for boxes up to 2,048 wide (a divisor's reciprocal rounded up, 32 bits).
    struct Divider {
        let width: Int
        let half: Int
        let reciprocal: UInt64
        init(width: Int) {
            self.width = width
            half = width / 2
            reciprocal = ((1 << 32) + UInt64(width) - 1) / UInt64(width)
        }

        func callAsFunction(_ sum: Int) -> UInt8 {
            guard width <= 2048 else { return UInt8((sum + half) / width) }
            return UInt8(truncatingIfNeeded: (UInt64(sum + half) &* reciprocal) >> 32)
        }
    }

    /// One box blur along a row (`count` values from `start`), zero beyond its ends, with a running sum.
    private static func boxPass(
        _ pixels: UnsafeMutableBufferPointer<UInt8>, start: Int, count: Int, radius: Int,
        scratch: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard radius > 0 else { return }
        for index in 0..<count { scratch[index] = pixels[start + index] }
        let divide = Divider(width: 2 * radius + 1)
        var sum = 0
        for index in 0..<min(radius, count) { sum += Int(scratch[index]) }
        for index in 0..<count {
            let entering = index + radius
            if entering < count { sum += Int(scratch[entering]) }
            let leaving = index - radius - 1
            if leaving >= 0 { sum -= Int(scratch[leaving]) }
            pixels[start + index] = divide(sum)
        }
    }

    /// One box blur down every column, zero beyond the top and the bottom: the rows are copied, then
    /// each row of the result is the running sums of all columns, a row entering and a row leaving.
    private static func columnPass(
        _ pixels: UnsafeMutableBufferPointer<UInt8>, stride: Int, width: Int, height: Int, radius: Int,
        copy rows: UnsafeMutableBufferPointer<UInt8>, sums: UnsafeMutableBufferPointer<Int>
    ) {
        guard radius > 0, width > 0, height > 0 else { return }
        for y in 0..<height {
            for x in 0..<width { rows[y * width + x] = pixels[y * stride + x] }
        }
        let divide = Divider(width: 2 * radius + 1)
        for x in 0..<width { sums[x] = 0 }
        for y in 0..<min(radius, height) {
            for x in 0..<width { sums[x] += Int(rows[y * width + x]) }
        }
        for y in 0..<height {
            let entering = y + radius
            if entering < height {
                for x in 0..<width { sums[x] += Int(rows[entering * width + x]) }
            }
            let leaving = y - radius - 1
            if leaving >= 0 {
                for x in 0..<width { sums[x] -= Int(rows[leaving * width + x]) }
            }
            for x in 0..<width { pixels[y * stride + x] = divide(sums[x]) }
        }
    }
}
