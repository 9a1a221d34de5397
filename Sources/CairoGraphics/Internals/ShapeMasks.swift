internal import CCairoGraphics
internal import ResponderChain

/// Rounded rectangles' coverage kept as A8 masks, so that a tile, a key or a focus ring drawn again
/// costs a masked fill of its rim and a plain fill of its middle instead of Cairo building its arcs,
/// flattening them and scan-converting the shape: a mask per corner radius, line width (0 for a
/// fill), scale and exact phase within the device pixel the shape starts in. The shape's corners
/// are kept, not its length (``ShadowNinePatch`` with no blur): a 700x420 card keeps about its four
/// corners' pixels, and tiles of one radius but other sizes share one mask.
///
/// Why the pixels are Cairo's own: the mask is Cairo's coverage of the same rounded rectangle at the
/// same fraction of a pixel (its scan converter samples each pixel alone, so a move by whole pixels
/// changes no pixel's coverage, and the columns between the corners are one column repeated), and
/// a colour through a mask is pixman's compositing of that coverage. The one difference is the
/// rounding under an opaque colour: Cairo's own fill rounds its two products (colour by coverage,
/// background by the rest) with a bias of 127 where pixman rounds with 128, so a partly covered
/// pixel may differ by up to two levels in a channel (never where the shape covers a pixel whole or
/// not at all); a translucent colour goes through pixman both ways, the same bytes.
final class ShapeStore {
    /// What a mask depends on: the short rounded rectangle (its size and corner radius, in points),
    /// the line width (0 for a fill), the transform's scale on each axis, and where the shape starts
    /// within its device pixel (exactly: a fill's edges are not blurred, so no quarter pixel is
    /// close enough).
    struct Key: Hashable {
        var width: Double
        var height: Double
        var radius: Double
        var lineWidth: Double
        var xx: Double
        var yy: Double
        var phaseX: Double
        var phaseY: Double
    }

    /// The most bytes of masks kept: the kiosk's screens keep about 100 kB at 1920x1080.
    static let byteLimit = 512 << 10
    /// The largest mask made: a shape whose corners take more (a circle hundreds of pixels across)
    /// is drawn by Cairo each time.
    static let maskByteLimit = 64 << 10

    private var masks = LRUCache<Key, ShadowMask>(costLimit: ShapeStore.byteLimit)
    /// How many masks were made (drawn), for tests and benchmarks.
    private(set) var masksMade = 0
    /// Whether rounded rectangles are drawn through their masks; off, Cairo draws each (tests
    /// compare the two).
    var drawsFromMasks = true

    var count: Int { masks.count }

    /// The bytes the kept masks take.
    var bytes: Int { masks.totalCost }

    func removeAll() { masks.removeAll() }

    /// A kept mask, or one drawn now: the key's rounded rectangle at the origin filled (or stroked)
    /// through the key's scale and phase on an A8 surface covering it and a pixel more; `stretch` is
    /// the column and row a longer shape repeats (``ShadowNinePatch``), in device pixels from the
    /// whole pixel the shape starts in (the key's alone decide them, so a mask made for the short
    /// shape itself serves the longer ones). `nil` when the mask would be larger than ``maskByteLimit``.
    ///
    /// Uses `cairo_fill` or `cairo_stroke` on an A8 image surface.
    func mask(for key: Key, stretch: (column: Int, row: Int)) -> ShadowMask? {
        if let kept = masks.value(for: key) { return kept }
        var matrix = cairo_matrix_t()
        cairo_matrix_init(&matrix, key.xx, 0, 0, key.yy, key.phaseX, key.phaseY)
        let half = key.lineWidth / 2
        let bounds = PathDrawing.transformedBounds(
            Rect(x: -half, y: -half, width: key.width + 2 * half, height: key.height + 2 * half), matrix)
        guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else {
            return nil
        }
        let originX = Int(bounds.minX.rounded(.down)) - 1
        let originY = Int(bounds.minY.rounded(.down)) - 1
        let width = Int(bounds.maxX.rounded(.up)) + 1 - originX
        let height = Int(bounds.maxY.rounded(.up)) + 1 - originY
        guard width > 0, height > 0, width * height <= Self.maskByteLimit,
            let surface = CairoSurface(format: CAIRO_FORMAT_A8, width: width, height: height)
        else { return nil }
        masksMade += 1
        surface.draw { cairo in
            matrix.x0 -= Double(originX)
            matrix.y0 -= Double(originY)
            cairo_set_matrix(cairo, &matrix)
            PathDrawing.add(
                .roundedRect(Rect(x: 0, y: 0, width: key.width, height: key.height), cornerRadius: key.radius),
                to: cairo)
            if key.lineWidth > 0 {
                cairo_set_line_width(cairo, key.lineWidth)
                cairo_stroke(cairo)
            } else {
                cairo_fill(cairo)
            }
        }
        // A fill's whole middle is painted as plain rectangles; an outline's empty middle is skipped.
        let solid = ShadowMask.solidParts(of: surface, value: key.lineWidth > 0 ? 0 : 255)
        let mask = ShadowMask(
            surface: surface, originX: originX, originY: originY, solid: solid,
            stretch: (stretch.column - originX, stretch.row - originY))
        masks.insert(mask, for: key, cost: surface.byteCount)
        return mask
    }
}
