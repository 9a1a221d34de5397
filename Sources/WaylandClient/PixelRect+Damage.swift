package import Graphics

extension PixelRect {
    /// The most rectangles damaged (`wl_surface.damage_buffer`) or copied forward one by one; more
    /// become their bounding box. Graphics' `DamageRegion` keeps at most as many.
    package static let damageLimit = 16

    /// The damage a window sends and copies: the rectangles clamped to `bounds`, empty ones dropped,
    /// and those that overlap or touch merged while their union is at most a quarter larger than the
    /// two (one holding the other always merges); more than `limit` left become their bounding box.
    ///
    /// Rectangles that merge with nothing keep their order. Full-width rows merge when they touch,
    /// so a renderer's row ranges come out as before.
    ///
    /// - Parameters:
    ///   - rects: The rectangles, in device pixels.
    ///   - bounds: The buffer.
    ///   - limit: The most rectangles returned.
    /// - Returns: At most `limit` rectangles inside `bounds`, none empty.
    package static func coalesced(
        _ rects: [PixelRect], within bounds: PixelRect, limit: Int = damageLimit
    ) -> [PixelRect] {
        var result: [PixelRect] = []
        for rect in rects {
            var merged = rect.intersection(bounds)
            guard !merged.isEmpty else { continue }
            var index = 0
            while index < result.count {
                if shouldMerge(merged, result[index]) {
                    merged = merged.union(result.remove(at: index))
                    index = 0
                } else {
                    index += 1
                }
            }
            result.append(merged)
        }
        guard result.count > max(1, limit) else { return result }
        return [result.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }]
    }

    /// Whether two rectangles become one: one holds the other, or they overlap or touch and their
    /// union is at most a quarter larger than the two together.
    static func shouldMerge(_ a: PixelRect, _ b: PixelRect) -> Bool {
        if a.contains(b) || b.contains(a) { return true }
        let touching = a.x <= b.maxX && b.x <= a.maxX && a.y <= b.maxY && b.y <= a.maxY
        guard touching else { return false }
        return a.union(b).area * 4 <= (a.area + b.area) * 5
    }

    /// This rectangle less another: what is left, in at most four rectangles (the bands above and
    /// below the other, then those at its sides).
    ///
    /// - Parameter other: The rectangle taken away.
    /// - Returns: The parts left, none empty; this rectangle when they do not overlap.
    package func subtracting(_ other: PixelRect) -> [PixelRect] {
        let overlap = intersection(other)
        guard !overlap.isEmpty else { return isEmpty ? [] : [self] }
        var parts: [PixelRect] = []
        if overlap.y > y { parts.append(PixelRect(x: x, y: y, width: width, height: overlap.y - y)) }
        if overlap.maxY < maxY {
            parts.append(PixelRect(x: x, y: overlap.maxY, width: width, height: maxY - overlap.maxY))
        }
        if overlap.x > x { parts.append(PixelRect(x: x, y: overlap.y, width: overlap.x - x, height: overlap.height)) }
        if overlap.maxX < maxX {
            parts.append(PixelRect(x: overlap.maxX, y: overlap.y, width: maxX - overlap.maxX, height: overlap.height))
        }
        return parts
    }
}
