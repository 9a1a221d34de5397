internal import CCairoGraphics
internal import ResponderChain

/// A rounded rectangle's shadow cut as browsers and Skia cut box shadows: only a short rounded
/// rectangle is blurred, whose sides just hold both corners and the blur's support, and the shadow
/// of the whole shape is that mask with one column and one row repeated.
///
/// Why it is exact: under a transform that keeps axes (a scale and a translation), the coverage of a
/// rounded rectangle's columns between its corners is the same column, and its rows between the
/// corners the same row; the blur (box blurs with rounding after each, zero beyond the mask) gives
/// each pixel from the coverage within its support, so the blurred columns whose support lies
/// between the corners are the same column too. A shape longer by `cut` whole pixels is then the
/// short one's mask with its column `split` repeated `cut` times more, the ends unchanged: its
/// corners are where they were (the far ones moved by `cut`) and fall on the same fractions of a
/// pixel. A shadow then costs its corners, not its area: a 1500x900 card's mask is about 110x110
/// pixels, not 1560x960. With no blur (a support of 0), ``axis(start:end:scale:radius:reach:)`` cuts
/// a rounded rectangle's own coverage as well (``ShapeStore``).
struct ShadowNinePatch {
    /// The short rectangle (moved to its origin, as the shape): what is drawn and blurred.
    var path: Path
    /// The column and row (device pixels from the whole pixel the shape starts in) that are
    /// repeated: their blurred values are the shape's all along its sides.
    var column: Int
    var row: Int
    /// How many pixels the shape is longer than the short rectangle, across and down.
    var cutX: Int
    var cutY: Int

    /// The plan for a shape (moved to its bounds' origin) drawn through `matrix` (its linear part and
    /// the quarter pixel it starts on), blurred with a support of `reach` pixels: `nil` unless the
    /// shape is a rounded (or plain) rectangle, the transform keeps axes, and a side is long enough
    /// to cut.
    static func plan(for path: Path, matrix: cairo_matrix_t, reach: Int) -> ShadowNinePatch? {
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx > 0, matrix.yy > 0, matrix.xx.isFinite,
            matrix.yy.isFinite, let radius = cornerRadius(ofRoundedRect: path)
        else { return nil }
        let bounds = path.bounds
        let (column, cutX) = axis(
            start: matrix.x0 + matrix.xx * bounds.minX, end: matrix.x0 + matrix.xx * bounds.maxX, scale: matrix.xx,
            radius: radius, reach: reach)
        let (row, cutY) = axis(
            start: matrix.y0 + matrix.yy * bounds.minY, end: matrix.y0 + matrix.yy * bounds.maxY, scale: matrix.yy,
            radius: radius, reach: reach)
        guard cutX > 0 || cutY > 0 else { return nil }
        let (dx, dy) = (Double(cutX) / matrix.xx, Double(cutY) / matrix.yy)
        let (midX, midY) = (bounds.midX, bounds.midY)
        func shortened(_ point: Point) -> Point {
            Point(x: point.x > midX ? point.x - dx : point.x, y: point.y > midY ? point.y - dy : point.y)
        }
        let short = Path(
            path.elements.map { element in
                switch element {
                case .move(let point): return .move(to: shortened(point))
                case .line(let point): return .line(to: shortened(point))
                case .curve(let point, let control1, let control2):
                    return .curve(to: shortened(point), control1: shortened(control1), control2: shortened(control2))
                case .arc(let center, let radius, let start, let end):
                    return .arc(center: shortened(center), radius: radius, startAngle: start, endAngle: end)
                case .close: return .close
                }
            })
        return ShadowNinePatch(path: short, column: column, row: row, cutX: cutX, cutY: cutY)
    }

    /// The cut along one axis of a rounded rectangle from `start` to `end` (device pixels from the
    /// whole pixel it starts in) whose corners are `radius` points at `scale` pixels a point: the
    /// pixels the corners touch (a pixel more either side, for the curves' flattening), those whose
    /// blur (of support `reach`) reaches a corner, and one more each side for a fractional offset's
    /// bilinear sampling; the repeated pixel (`split`) is the first after them, repeated `cut` more
    /// times (0: too short to cut).
    static func axis(start: Double, end: Double, scale: Double, radius: Double, reach: Int) -> (split: Int, cut: Int) {
        let corner = scale * radius
        let straightFirst = Int((start + corner).rounded(.up)) + 1
        let straightLast = Int((end - corner).rounded(.down)) - 2
        let split = straightFirst + reach + 1
        let cut = straightLast - reach - split - 1
        return (split, max(0, cut))
    }

    /// The corner radius of a path that is `Path.roundedRect(_:cornerRadius:)` (0 for
    /// `Path.rect(_:)`): `nil` for any other shape.
    static func cornerRadius(ofRoundedRect path: Path) -> Double? {
        let elements = path.elements
        if elements.count == 5, case .move(let p0) = elements[0], case .line(let p1) = elements[1],
            case .line(let p2) = elements[2], case .line(let p3) = elements[3], case .close = elements[4]
        {
            let isRectangle =
                p1.y == p0.y && p2.x == p1.x && p3.y == p2.y && p3.x == p0.x && p1.x > p0.x && p2.y > p1.y
            return isRectangle ? 0 : nil
        }
        let pi = Double.pi
        guard elements.count == 6, case .move(let start) = elements[0],
            case .arc(let c1, let r, -pi / 2, 0) = elements[1], case .arc(let c2, r, 0, pi / 2) = elements[2],
            case .arc(let c3, r, pi / 2, pi) = elements[3], case .arc(let c4, r, pi, 3 * pi / 2) = elements[4],
            case .close = elements[5], r > 0, r.isFinite
        else { return nil }
        let tolerance = 1e-9 * max(1, abs(c1.x), abs(c1.y), abs(c3.x), abs(c3.y), r)
        let isRounded =
            c1.x == c2.x && c2.y == c3.y && c3.x == c4.x && c4.y == c1.y && c2.x >= c4.x && c2.y >= c1.y
            && start.x == c4.x && abs(start.y - (c1.y - r)) <= tolerance
        return isRounded ? r : nil
    }
}
