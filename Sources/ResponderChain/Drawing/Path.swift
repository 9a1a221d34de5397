/// A shape in points: lines, curves and arcs, filled or stroked by a ``GraphicsContext``.
///
/// ```swift
/// context.fill(.roundedRect(tile.frame, cornerRadius: 16), with: .color(brand))
/// context.stroke(.line(from: a, to: b), with: .color(.white), lineWidth: 2)
/// ```
public struct Path: Hashable, Sendable {
    /// One step of a path.
    public enum Element: Hashable, Sendable {
        /// Starts a new part at a point.
        case move(to: Point)
        /// A straight line to a point.
        case line(to: Point)
        /// A cubic Bézier curve to a point.
        case curve(to: Point, control1: Point, control2: Point)
        /// A circular arc around `center`, clockwise on screen from `startAngle` to `endAngle`
        /// (radians; 0 points right, π/2 down).
        case arc(center: Point, radius: Double, startAngle: Double, endAngle: Double)
        /// A line back to the part's start.
        case close
    }

    /// The steps, in order.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}

    /// A path of these steps.
    ///
    /// - Parameter elements: The steps.
    public init(_ elements: [Element]) {
        self.elements = elements
    }

    /// Starts a new part.
    ///
    /// - Parameter point: Where.
    public mutating func move(to point: Point) { elements.append(.move(to: point)) }
    /// Adds a straight line.
    ///
    /// - Parameter point: Its end.
    public mutating func line(to point: Point) { elements.append(.line(to: point)) }
    /// Adds a cubic Bézier curve.
    ///
    /// - Parameters:
    ///   - point: Its end.
    ///   - control1: The first control point.
    ///   - control2: The second control point.
    public mutating func curve(to point: Point, control1: Point, control2: Point) {
        elements.append(.curve(to: point, control1: control1, control2: control2))
    }
    /// Adds a circular arc, clockwise on screen.
    ///
    /// - Parameters:
    ///   - center: Its centre.
    ///   - radius: Its radius.
    ///   - startAngle: Where it starts, in radians (0 points right).
    ///   - endAngle: Where it ends.
    public mutating func arc(center: Point, radius: Double, startAngle: Double, endAngle: Double) {
        elements.append(.arc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle))
    }
    /// Closes the current part.
    public mutating func close() { elements.append(.close) }

    /// A rectangle.
    ///
    /// - Parameter rect: The rectangle.
    /// - Returns: The path.
    public static func rect(_ rect: Rect) -> Path {
        Path([
            .move(to: Point(x: rect.minX, y: rect.minY)), .line(to: Point(x: rect.maxX, y: rect.minY)),
            .line(to: Point(x: rect.maxX, y: rect.maxY)), .line(to: Point(x: rect.minX, y: rect.maxY)), .close,
        ])
    }

    /// A rectangle with rounded corners (Qt Quick's `Rectangle { radius }`, CSS's `border-radius`).
    ///
    /// - Parameters:
    ///   - rect: The rectangle.
    ///   - cornerRadius: The corners' radius, at most half the shorter side; 0 gives square corners.
    /// - Returns: The path.
    public static func roundedRect(_ rect: Rect, cornerRadius: Double) -> Path {
        let radius = max(0, min(cornerRadius, rect.width / 2, rect.height / 2))
        guard radius > 0 else { return .rect(rect) }
        let pi = Double.pi
        var path = Path()
        path.move(to: Point(x: rect.minX + radius, y: rect.minY))
        path.arc(
            center: Point(x: rect.maxX - radius, y: rect.minY + radius), radius: radius, startAngle: -pi / 2,
            endAngle: 0)
        path.arc(
            center: Point(x: rect.maxX - radius, y: rect.maxY - radius), radius: radius, startAngle: 0,
            endAngle: pi / 2)
        path.arc(
            center: Point(x: rect.minX + radius, y: rect.maxY - radius), radius: radius, startAngle: pi / 2,
            endAngle: pi)
        path.arc(
            center: Point(x: rect.minX + radius, y: rect.minY + radius), radius: radius, startAngle: pi,
            endAngle: 3 * pi / 2)
        path.close()
        return path
    }

    /// An ellipse filling a rectangle (a circle in a square).
    ///
    /// - Parameter rect: The rectangle.
    /// - Returns: The path.
    public static func ellipse(in rect: Rect) -> Path {
        // Four Bézier quarters: kappa = 4 (√2 − 1) / 3 puts them within 0.03 % of a circle.
        let kappa = 0.5522847498
        let (cx, cy, rx, ry) = (rect.midX, rect.midY, rect.width / 2, rect.height / 2)
        let (ox, oy) = (rx * kappa, ry * kappa)
        var path = Path()
        path.move(to: Point(x: cx + rx, y: cy))
        path.curve(
            to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + oy),
            control2: Point(x: cx + ox, y: cy + ry))
        path.curve(
            to: Point(x: cx - rx, y: cy), control1: Point(x: cx - ox, y: cy + ry),
            control2: Point(x: cx - rx, y: cy + oy))
        path.curve(
            to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - oy),
            control2: Point(x: cx - ox, y: cy - ry))
        path.curve(
            to: Point(x: cx + rx, y: cy), control1: Point(x: cx + ox, y: cy - ry),
            control2: Point(x: cx + rx, y: cy - oy))
        path.close()
        return path
    }

    /// A straight line.
    ///
    /// - Parameters:
    ///   - start: Where it starts.
    ///   - end: Where it ends.
    /// - Returns: The path.
    public static func line(from start: Point, to end: Point) -> Path {
        Path([.move(to: start), .line(to: end)])
    }

    /// A rectangle containing every point of the path (control points and whole circles of arcs
    /// included, so it may be larger than the shape): what drawing it can touch.
    public var bounds: Rect {
        var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
        func add(_ x: Double, _ y: Double) {
            guard let current = box else {
                box = (x, y, x, y)
                return
            }
            box = (min(current.minX, x), min(current.minY, y), max(current.maxX, x), max(current.maxY, y))
        }
        for element in elements {
            switch element {
            case .move(let point), .line(let point): add(point.x, point.y)
            case .curve(let point, let control1, let control2):
                add(point.x, point.y)
                add(control1.x, control1.y)
                add(control2.x, control2.y)
            case .arc(let center, let radius, _, _):
                add(center.x - radius, center.y - radius)
                add(center.x + radius, center.y + radius)
            case .close: break
            }
        }
        guard let box else { return .zero }
        return Rect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
    }
}
