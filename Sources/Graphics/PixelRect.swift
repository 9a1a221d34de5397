public import ResponderChain

/// A rectangle of device pixels in an output's buffer: the unit of damage and of copies.
///
/// A Wayland window (`WaylandWindow.present(draw:)`) damages each rectangle its closure returns
/// (`wl_surface.damage_buffer`) and copies only those into the other buffer before it is drawn
/// next; a display (`DRMNodeOutput`) copies them into the dumb buffer it flips to and reports them
/// (`DisplayFrame.rectsCopied`). The origin is the buffer's top-left corner; `x` grows right and
/// `y` down. A rectangle with no width or height is empty and damages nothing.
///
/// An output drawing in points makes its rectangles with `init(enclosing:scale:)`,
/// which rounds outward so that a rectangle in points is covered whole at any scale, as
/// `CairoRenderer` rounds the damage it draws.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge, in device pixels.
    public var x: Int
    /// The top edge, in device pixels.
    public var y: Int
    /// The width, in device pixels; zero or less is empty.
    public var width: Int
    /// The height, in device pixels; zero or less is empty.
    public var height: Int

    /// Creates a rectangle.
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

    /// The full-width rectangle of a range of rows: what a renderer that works in rows (such as
    /// `PixelRenderer`) damaged.
    ///
    /// - Parameters:
    ///   - rows: The rows, top to bottom.
    ///   - width: The buffer's width in pixels.
    public init(rows: Range<Int>, width: Int) {
        self.init(x: 0, y: rows.lowerBound, width: width, height: rows.count)
    }

    /// The device pixels that cover a rectangle in points at a scale: its edges multiplied by
    /// `scale` and rounded outward.
    ///
    /// A rectangle with a NaN edge is empty; edges beyond 2³⁰ pixels (infinities too) are clamped there.
    ///
    /// - Parameters:
    ///   - rect: The rectangle in points.
    ///   - scale: Device pixels per point (a display's 1.25 or 1.5 too); anything not finite and
    ///     positive counts as 1.
    public init(enclosing rect: Rect, scale: Double) {
        let factor = scale.isFinite && scale > 0 ? scale : 1
        // Beyond this the rectangle is far outside any buffer; infinities are clamped to it.
        let limit = Double(1 << 30)
        func pixels(_ value: Double, roundingUp: Bool) -> Int {
            Int(min(max((value * factor).rounded(roundingUp ? .up : .down), -limit), limit))
        }
        let edges = [rect.minX, rect.minY, rect.maxX, rect.maxY]
        guard !rect.isEmpty, !edges.contains(where: \.isNaN) else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        let left = pixels(rect.minX, roundingUp: false)
        let top = pixels(rect.minY, roundingUp: false)
        let right = pixels(rect.maxX, roundingUp: true)
        let bottom = pixels(rect.maxY, roundingUp: true)
        self.init(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The device pixels that cover a rectangle in points at an integer buffer scale (a Wayland
    /// window's `wl_surface.set_buffer_scale`); less than 1 counts as 1.
    ///
    /// - Parameters:
    ///   - rect: The rectangle in points.
    ///   - scale: Device pixels per point.
    public init(enclosing rect: Rect, scale: Int) {
        self.init(enclosing: rect, scale: Double(max(1, scale)))
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
    /// - Parameter other: The other rectangle (a buffer's bounds, to clamp to it).
    /// - Returns: The overlap, or an empty rectangle (0, 0, 0×0) when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard !isEmpty, !other.isEmpty, right > left, bottom > top else {
            return PixelRect(x: 0, y: 0, width: 0, height: 0)
        }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The smallest rectangle holding both (their bounding box).
    ///
    /// - Parameter other: The other rectangle.
    /// - Returns: The union; an empty rectangle does not count.
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let left = min(x, other.x)
        let top = min(y, other.y)
        return PixelRect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// Whether every pixel of `other` is in this rectangle.
    ///
    /// - Parameter other: The other rectangle; an empty one is contained in any.
    /// - Returns: Whether it is.
    public func contains(_ other: PixelRect) -> Bool {
        other.isEmpty || (!isEmpty && x <= other.x && y <= other.y && maxX >= other.maxX && maxY >= other.maxY)
    }

    /// `(x, y, width×height)`.
    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
