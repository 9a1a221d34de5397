internal import CCairoGraphics
internal import ResponderChain

/// A shape's coverage in device pixels, blurred for a shadow (or as it is, for a rounded rectangle's
/// fill or outline: ``ShapeStore``): an A8 surface, and where its top-left corner lies from the whole
/// device pixel the shape's bounds start in.
final class ShadowMask {
    let surface: CairoSurface
    let originX: Int
    let originY: Int
    /// Rectangles of the mask (its pixels) that the shape, unblurred, covers whole, a pixel in from
    /// their edges: an opaque fill of the shape paints over its shadow there (``ShadowMask/solidParts(of:value:)``).
    /// An outline's coverage (``ShapeStore``) keeps those it leaves empty instead.
    let solid: [PixelBox]
    /// For a rounded rectangle's short mask (``ShadowNinePatch``): the column and row of its pixels
    /// that are repeated to make the shape's.
    let stretch: (column: Int, row: Int)?

    init(
        surface: CairoSurface, originX: Int, originY: Int, solid: [PixelBox] = [],
        stretch: (column: Int, row: Int)? = nil
    ) {
        self.surface = surface
        self.originX = originX
        self.originY = originY
        self.solid = solid
        self.stretch = stretch.map {
            (min(max($0.column, 0), surface.width - 1), min(max($0.row, 0), surface.height - 1))
        }
    }

    /// A part of the shape's mask made from this short one (`cut` pixels longer across and down, its
    /// repeated column and row copied along them): `region` of its pixels (clamped to it), written
    /// only within `boxes`, the rest left clear. Made for one paint and dropped: the mask kept is the
    /// short one. The surface comes from `makeSurface` (the store's scratch, whose other pixels
    /// are never read). `nil` when the region holds none of the mask.
    ///
    /// Uses `cairo_image_surface_get_data`, then `cairo_surface_mark_dirty`.
    func stretched(
        by cut: (x: Int, y: Int), region: PixelBox, within boxes: [PixelBox],
        into makeSurface: (_ width: Int, _ height: Int) -> CairoSurface?
    ) -> (surface: CairoSurface, x: Int, y: Int)? {
        guard let stretch else { return (surface, 0, 0) }
        guard
            let region = region.intersection(
                PixelBox(x: 0, y: 0, width: surface.width + cut.x, height: surface.height + cut.y)),
            let long = makeSurface(region.width, region.height)
        else { return nil }
        cairo_surface_flush(surface.pointer)
        cairo_surface_flush(long.pointer)
        guard let source = cairo_image_surface_get_data(surface.pointer),
            let target = cairo_image_surface_get_data(long.pointer)
        else { return nil }
        let sourceStride = Int(cairo_image_surface_get_stride(surface.pointer))
        let targetStride = Int(cairo_image_surface_get_stride(long.pointer))
        let (column, row) = stretch
        for box in boxes {
            guard let box = box.intersection(region) else { continue }
            // Before the repeated column, along it, after it (read `cut.x` further left).
            let before = (box.x, min(box.maxX, column + 1))
            let along = (max(box.x, column + 1), min(box.maxX, column + 1 + cut.x))
            let after = (max(box.x, column + 1 + cut.x), box.maxX)
            for y in box.y..<box.maxY {
                let sourceY = y <= row ? y : (y <= row + cut.y ? row : y - cut.y)
                let from = source + sourceY * sourceStride
                let to = target + (y - region.y) * targetStride - region.x
                if before.0 < before.1 { (to + before.0).update(from: from + before.0, count: before.1 - before.0) }
                if along.0 < along.1 { (to + along.0).update(repeating: from[column], count: along.1 - along.0) }
                if after.0 < after.1 { (to + after.0).update(from: from + after.0 - cut.x, count: after.1 - after.0) }
            }
        }
        cairo_surface_mark_dirty(long.pointer)
        return (long, region.x, region.y)
    }

    /// A box of the short mask's pixels in the long one's: widened (or moved) past the repeated
    /// column by `cutX`, and past the repeated row by `cutY`.
    func stretched(_ box: PixelBox, cutX: Int, cutY: Int) -> PixelBox {
        guard let stretch else { return box }
        var box = box
        if box.x > stretch.column {
            box.x += cutX
        } else if box.maxX > stretch.column {
            box.width += cutX
        }
        if box.y > stretch.row {
            box.y += cutY
        } else if box.maxY > stretch.row {
            box.height += cutY
        }
        return box
    }

    /// The parts of a shape's coverage (an A8 surface, before the blur) that are whole: the band of
    /// full rows through its middle and the band of full columns through it, each a pixel in from its
    /// edges (the fill that casts the shadow is placed to a quarter pixel the mask is not). For a
    /// rounded rectangle that is all of it but the corners; for a shape with no full middle, nothing.
    /// With `value` 0, the parts that are empty: the inside of an outline.
    static func solidParts(of surface: CairoSurface, value: UInt8 = 255) -> [PixelBox] {
        cairo_surface_flush(surface.pointer)
        guard let data = cairo_image_surface_get_data(surface.pointer) else { return [] }
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        let (width, height) = (surface.width, surface.height)
        let (centerX, centerY) = (width / 2, height / 2)
        guard width > 4, height > 4, data[centerY * stride + centerX] == value else { return [] }
        func full(_ x: Int, _ y: Int) -> Bool { data[y * stride + x] == value }
        func rowFull(_ y: Int, _ columns: ClosedRange<Int>) -> Bool {
            var x = columns.lowerBound
            while x <= columns.upperBound {
                if data[y * stride + x] != value { return false }
                x += 1
            }
            return true
        }
        func columnFull(_ x: Int, _ rows: ClosedRange<Int>) -> Bool {
            var y = rows.lowerBound
            while y <= rows.upperBound {
                if data[y * stride + x] != value { return false }
                y += 1
            }
            return true
        }
        // The middle row's run of full pixels, then the rows above and below that are full along it.
        var (left, right) = (centerX, centerX)
        while left > 0, full(left - 1, centerY) { left -= 1 }
        while right < width - 1, full(right + 1, centerY) { right += 1 }
        var (top, bottom) = (centerY, centerY)
        while top > 0, rowFull(top - 1, left...right) { top -= 1 }
        while bottom < height - 1, rowFull(bottom + 1, left...right) { bottom += 1 }
        // The middle column's run, then the columns either side that are full along it.
        var (upper, lower) = (centerY, centerY)
        while upper > 0, full(centerX, upper - 1) { upper -= 1 }
        while lower < height - 1, full(centerX, lower + 1) { lower += 1 }
        var (first, last) = (centerX, centerX)
        while first > 0, columnFull(first - 1, upper...lower) { first -= 1 }
        while last < width - 1, columnFull(last + 1, upper...lower) { last += 1 }
        return [
            PixelBox(x: left + 1, y: top + 1, width: right - left - 1, height: bottom - top - 1),
            PixelBox(x: first + 1, y: upper + 1, width: last - first - 1, height: lower - upper - 1),
        ].filter { $0.width > 0 && $0.height > 0 }
    }
}

/// A rectangle of whole device pixels.
struct PixelBox: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var maxX: Int { x + width }
    var maxY: Int { y + height }

    /// The pixels this box shares with another; `nil` when none.
    func intersection(_ other: PixelBox) -> PixelBox? {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard left < right, top < bottom else { return nil }
        return PixelBox(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The smallest box holding this one and another.
    func union(_ other: PixelBox) -> PixelBox {
        let (left, top) = (min(x, other.x), min(y, other.y))
        return PixelBox(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// This box less another: what is left, in at most four boxes, appended to `parts`.
    func subtract(_ other: PixelBox, into parts: inout [PixelBox]) {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard left < right, top < bottom else {
            parts.append(self)
            return
        }
        if top > y { parts.append(PixelBox(x: x, y: y, width: width, height: top - y)) }
        if bottom < maxY { parts.append(PixelBox(x: x, y: bottom, width: width, height: maxY - bottom)) }
        if left > x { parts.append(PixelBox(x: x, y: top, width: left - x, height: bottom - top)) }
        if right < maxX { parts.append(PixelBox(x: right, y: top, width: maxX - right, height: bottom - top)) }
    }

    /// This box less another: what is left, in at most four boxes.
    func subtracting(_ other: PixelBox) -> [PixelBox] {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard left < right, top < bottom else { return [self] }
        var parts: [PixelBox] = []
        if top > y { parts.append(PixelBox(x: x, y: y, width: width, height: top - y)) }
        if bottom < maxY { parts.append(PixelBox(x: x, y: bottom, width: width, height: maxY - bottom)) }
        if left > x { parts.append(PixelBox(x: x, y: top, width: left - x, height: bottom - top)) }
        if right < maxX { parts.append(PixelBox(x: right, y: top, width: maxX - right, height: bottom - top)) }
        return parts
    }
}

/// Shadows: Cairo has no blur, so a shape's coverage is drawn into an A8 mask, blurred (three box
/// blurs, close to a Gaussian whose deviation is half the shadow's radius, as CSS's box-shadow), and
/// kept per shape, size, transform, sub-pixel phase and radius. A focused tile's shadow drawn again
/// (or on the next tile of the same size) is then one masked fill. A rounded rectangle's mask is kept
/// short (``ShadowNinePatch``): its corners and the blur's support, whatever its length.
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

    /// Memory reused by each paint of a stretched mask (``scratch(width:height:)``), and its size.
    private var scratchBytes: UnsafeMutableRawPointer?
    private var scratchCapacity = 0
    /// The most kept for it: a tile's mask at scale 2; a larger one is allocated for its paint.
    static let scratchLimit = 256 << 10

    init(byteLimit: Int) {
        masks = LRUCache(costLimit: byteLimit)
    }

    deinit { scratchBytes?.deallocate() }

    /// An A8 surface over memory reused from one paint to the next (its pixels not cleared: the
    /// caller writes all it reads), or a new surface when it is larger than ``scratchLimit``. Only
    /// one is in use at a time: each is drawn and dropped before the next is asked for.
    ///
    /// Uses `cairo_format_stride_for_width` and `cairo_image_surface_create_for_data`.
    func scratch(width: Int, height: Int) -> CairoSurface? {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(width)))
        let bytes = stride * height
        guard width > 0, height > 0, stride > 0, bytes <= Self.scratchLimit else {
            return CairoSurface(format: CAIRO_FORMAT_A8, width: width, height: height)
        }
        if bytes > scratchCapacity {
            scratchBytes?.deallocate()
            scratchBytes = UnsafeMutableRawPointer.allocate(byteCount: Self.scratchLimit, alignment: 16)
            scratchCapacity = Self.scratchLimit
        }
        guard let scratchBytes else { return nil }
        return CairoSurface(
            adopting: cairo_image_surface_create_for_data(
                scratchBytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_A8, Int32(width), Int32(height),
                Int32(stride)))
    }

    var count: Int { masks.count }

    /// The bytes the kept masks take.
    var bytes: Int { masks.totalCost }

    /// Whether a rounded rectangle's shadow is cut as a nine-patch (``ShadowNinePatch``); off, its
    /// whole mask is blurred (tests compare the two).
    var cutsRoundedRectangles = true

    func removeAll() { masks.removeAll() }

    /// A kept mask, or one drawn by `draw` (given a Cairo context on the mask, its transform set)
    /// covering `bounds` (device pixels, relative to the whole pixel the shape starts in) and blurred.
    func mask(
        for key: Key?, bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), matrix: cairo_matrix_t,
        sigma: Double, findsSolidParts: Bool = false, stretch: (column: Int, row: Int)? = nil,
        draw: (OpaquePointer) -> Void
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
        let solid = findsSolidParts ? ShadowMask.solidParts(of: surface) : []
        ShadowBlur.blur(surface, sigma: sigma)
        let mask = ShadowMask(
            surface: surface, originX: originX, originY: originY, solid: solid,
            stretch: stretch.map { ($0.column - originX, $0.row - originY) })
        if let key { masks.insert(mask, for: key, cost: surface.byteCount) }
        return mask
    }
}
