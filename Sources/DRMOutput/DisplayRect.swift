public import ResponderChain

/// A rectangle of a display's pixels: what a frame copied into the buffer it showed
/// (``DisplayFrame/rectsCopied``). The origin is the screen's top-left corner; `x` grows right and
/// `y` down. A rectangle with no width or height is empty.
public struct DisplayRect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge, in pixels.
    public var x: Int
    /// The top edge, in pixels.
    public var y: Int
    /// The width, in pixels; zero or less is empty.
    public var width: Int
    /// The height, in pixels; zero or less is empty.
    public var height: Int

    /// A rectangle.
    ///
    /// - Parameters:
    ///   - x: The left edge.
    ///   - y: The top edge.
    ///   - width: The width.
    ///   - height: The height.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The pixels that cover a rectangle in points at a scale: its edges multiplied by `scale` and
    /// rounded outward, as `CairoRenderer` rounds the damage it draws.
    ///
    /// A rectangle with a NaN edge is empty; edges beyond 2³⁰ pixels (infinities too) are clamped there.
    ///
    /// - Parameters:
    ///   - rect: The rectangle in points.
    ///   - scale: Pixels per point (finite and positive; anything else counts as 1).
    public init(enclosing rect: Rect, scale: Double) {
        let factor = scale.isFinite && scale > 0 ? scale : 1
        let limit = Double(1 << 30)
        func pixels(_ value: Double, up: Bool) -> Int {
            Int(min(max((value * factor).rounded(up ? .up : .down), -limit), limit))
        }
        guard !rect.isEmpty, ![rect.minX, rect.minY, rect.maxX, rect.maxY].contains(where: \.isNaN) else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        let left = pixels(rect.minX, up: false)
        let top = pixels(rect.minY, up: false)
        self.init(
            x: left, y: top, width: pixels(rect.maxX, up: true) - left, height: pixels(rect.maxY, up: true) - top)
    }

    /// The right edge (`x + width`), outside the rectangle.
    public var maxX: Int { x + width }
    /// The bottom edge (`y + height`), outside the rectangle.
    public var maxY: Int { y + height }
    /// Whether the rectangle has no pixels.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// How many pixels it covers: 0 when empty.
    public var area: Int { isEmpty ? 0 : width * height }

    /// The pixels in both rectangles.
    ///
    /// - Parameter other: The other rectangle.
    /// - Returns: The overlap, or an empty rectangle (0, 0, 0×0) when they do not overlap.
    public func intersection(_ other: DisplayRect) -> DisplayRect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard !isEmpty, !other.isEmpty, right > left, bottom > top else {
            return DisplayRect(x: 0, y: 0, width: 0, height: 0)
        }
        return DisplayRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The smallest rectangle holding both.
    ///
    /// - Parameter other: The other rectangle.
    /// - Returns: The union; an empty rectangle does not count.
    public func union(_ other: DisplayRect) -> DisplayRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let left = min(x, other.x)
        let top = min(y, other.y)
        return DisplayRect(
            x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// Whether every pixel of `other` is in this rectangle.
    ///
    /// - Parameter other: The other rectangle; an empty one is contained in any.
    /// - Returns: Whether it is.
    public func contains(_ other: DisplayRect) -> Bool {
        other.isEmpty || (!isEmpty && x <= other.x && y <= other.y && maxX >= other.maxX && maxY >= other.maxY)
    }

    /// `(x, y, width×height)`.
    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
