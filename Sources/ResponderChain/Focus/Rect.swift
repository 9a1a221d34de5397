/// A rectangle in the window's coordinate space: the origin is the top-left corner and y grows
/// downwards, as on screen.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width; zero or more.
    public var width: Double
    /// The height; zero or more.
    public var height: Double

    /// Creates a rectangle.
    ///
    /// - Parameters:
    ///   - x: The left edge.
    ///   - y: The top edge.
    ///   - width: The width.
    ///   - height: The height.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge.
    public var minX: Double { x }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The top edge.
    public var minY: Double { y }
    /// The bottom edge.
    public var maxY: Double { y + height }
    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }
    /// Whether the rectangle has no area.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The smallest rectangle containing both.
    ///
    /// - Parameter other: The other rectangle.
    /// - Returns: The union; an empty rectangle does not count.
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let left = min(minX, other.minX)
        let top = min(minY, other.minY)
        return Rect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// `(x, y, width × height)`.
    public var description: String {
        "(\(Self.format(x)), \(Self.format(y)), \(Self.format(width))×\(Self.format(height)))"
    }

    /// A number as `description` writes it: whole numbers without a fraction.
    static func format(_ value: Double) -> String {
        // No libm: the core links without Foundation or Glibc, so no `rounded()` here.
        abs(value) < 1e15 && Double(Int(value)) == value ? String(Int(value)) : String(value)
    }
}
