extension Rect {
    /// The rectangle shrunk by `dx` on the left and right and `dy` at the top and bottom (grown
    /// for negative values); never narrower or shorter than zero.
    ///
    /// - Parameters:
    ///   - dx: Points off each side.
    ///   - dy: Points off the top and the bottom.
    /// - Returns: The rectangle.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }

    /// The rectangle moved.
    ///
    /// - Parameters:
    ///   - dx: Points right.
    ///   - dy: Points down.
    /// - Returns: The rectangle.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// Whether the two share some area (touching edges do not).
    ///
    /// - Parameter other: The other rectangle.
    /// - Returns: Whether they overlap.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// The area the two share; ``zero`` when none.
    ///
    /// - Parameter other: The other rectangle.
    /// - Returns: The intersection.
    public func intersection(_ other: Rect) -> Rect {
        guard intersects(other) else { return .zero }
        let left = max(minX, other.minX)
        let top = max(minY, other.minY)
        return Rect(x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
    }

    /// Whether `other` lies wholly inside.
    ///
    /// - Parameter other: The other rectangle.
    /// - Returns: Whether it is inside.
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// The smallest rectangle of whole device pixels covering this one, in points: what a redraw
    /// at `scale` must cover so that no pixel is half drawn.
    ///
    /// - Parameter scale: Device pixels per point.
    /// - Returns: The rectangle.
    public func pixelAligned(scale: Double) -> Rect {
        guard !isEmpty, scale > 0 else { return self }
        let left = Self.floor(minX * scale) / scale
        let top = Self.floor(minY * scale) / scale
        let right = Self.ceil(maxX * scale) / scale
        let bottom = Self.ceil(maxY * scale) / scale
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    // Without libm: the core links without Glibc. Values beyond ±2^52 are whole already.
    static func floor(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 4_503_599_627_370_496 else { return value }
        let whole = Double(Int64(value))
        return whole > value ? whole - 1 : whole
    }

    static func ceil(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 4_503_599_627_370_496 else { return value }
        let whole = Double(Int64(value))
        return whole < value ? whole + 1 : whole
    }
}
