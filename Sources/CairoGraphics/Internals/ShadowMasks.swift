internal import CCairoGraphics
internal import ResponderChain

/// A shape's blurred coverage in device pixels: an A8 surface, and where its top-left corner lies
/// from the whole device pixel the shape's bounds start in.
final class ShadowMask {
    let surface: CairoSurface
    let originX: Int
    let originY: Int

    init(surface: CairoSurface, originX: Int, originY: Int) {
        self.surface = surface
        self.originX = originX
        self.originY = originY
    }
}

/// Shadows: Cairo has no blur, so a shape's coverage is drawn into an A8 mask, blurred (three box
/// blurs, close to a Gaussian whose deviation is half the shadow's radius, as CSS's box-shadow), and
/// kept per shape, size, transform, sub-pixel phase and radius. A focused tile's shadow drawn again
/// (or on the next tile of the same size) is then one masked fill.
final class ShadowStore {
    /// What a mask depends on: the path moved to its bounds' origin, the transform's linear part, the
    /// quarter pixel the origin falls on, the stroke width (0 for a fill) and the blur in device pixels.
    struct Key: Hashable {
        var path: Path
        var lineWidth: Double
        var xx: Double
        var yx: Double
        var xy: Double
        var yy: Double
        var phaseX: Int
        var phaseY: Int
        var sigma: Double
    }

    private var masks: LRUCache<Key, ShadowMask>
    /// How many masks were made (blurred), for tests and benchmarks.
    private(set) var masksMade = 0

    init(byteLimit: Int) {
        masks = LRUCache(costLimit: byteLimit)
    }

    var count: Int { masks.count }

    func removeAll() { masks.removeAll() }

    /// A kept mask, or one drawn by `draw` (given a Cairo context on the mask, its transform set)
    /// covering `bounds` (device pixels, relative to the whole pixel the shape starts in) and blurred.
    func mask(
        for key: Key?, bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), matrix: cairo_matrix_t,
        sigma: Double, draw: (OpaquePointer) -> Void
    ) -> ShadowMask? {
        if let key, let kept = masks.value(for: key) { return kept }
        let reach = ShadowBlur.reach(sigma: sigma)
        let originX = Int(bounds.minX.rounded(.down)) - reach
        let originY = Int(bounds.minY.rounded(.down)) - reach
        let width = Int(bounds.maxX.rounded(.up)) + reach - originX
        let height = Int(bounds.maxY.rounded(.up)) + reach - originY
        guard width > 0, height > 0, width <= 8192, height <= 8192,
            let surface = CairoSurface(format: CAIRO_FORMAT_A8, width: width, height: height)
        else { return nil }
        masksMade += 1
        surface.draw { cairo in
            var matrix = matrix
            matrix.x0 -= Double(originX)
            matrix.y0 -= Double(originY)
            cairo_set_matrix(cairo, &matrix)
            draw(cairo)
        }
        ShadowBlur.blur(surface, sigma: sigma)
        let mask = ShadowMask(surface: surface, originX: originX, originY: originY)
        if let key { masks.insert(mask, for: key, cost: surface.byteCount) }
        return mask
    }
}
