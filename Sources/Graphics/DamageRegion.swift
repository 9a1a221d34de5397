public import ResponderChain

/// The part of a window to draw again: rectangles in points that do not overlap one another
/// much, merged from what changed.
///
/// Overlapping and touching rectangles are merged into their union while that adds little area;
/// while more than ``limit`` are left, the two whose union adds the least area are merged.
/// Everything is clipped to the window.
public struct DamageRegion: Hashable, Sendable, CustomStringConvertible {
    /// The rectangles, in the order they were merged.
    public private(set) var rects: [Rect] = []
    /// The most rectangles kept before they become one.
    public var limit: Int

    /// An empty region.
    ///
    /// - Parameter limit: The most rectangles kept (16 by default: a focus move into another group
    ///   with both groups' outlines needs ten).
    public init(limit: Int = 16) {
        self.limit = max(1, limit)
    }

    /// Whether nothing is to be drawn.
    public var isEmpty: Bool { rects.isEmpty }

    /// The smallest rectangle holding every part.
    public var bounds: Rect { rects.reduce(Rect.zero) { $0.union($1) } }

    /// The area covered, in square points (overlaps counted once per rectangle).
    public var area: Double { rects.reduce(0) { $0 + $1.width * $1.height } }

    /// Adds a rectangle.
    ///
    /// - Parameter rect: The rectangle; an empty one adds nothing.
    public mutating func add(_ rect: Rect) {
        guard !rect.isEmpty else { return }
        var merged = rect
        // Absorb every part the new one overlaps or touches when their union wastes little.
        var index = 0
        while index < rects.count {
            let other = rects[index]
            if Self.shouldMerge(merged, other) {
                merged = merged.union(other)
                rects.remove(at: index)
                index = 0
            } else {
                index += 1
            }
        }
        rects.append(merged)
        while rects.count > limit { mergeCheapestPair() }
    }

    /// Merges the two rectangles whose union adds the least area.
    private mutating func mergeCheapestPair() {
        var best = (first: 0, second: 1, cost: Double.infinity)
        for first in rects.indices {
            for second in rects.indices where second > first {
                let union = rects[first].union(rects[second])
                let cost =
                    union.width * union.height - rects[first].width * rects[first].height
                    - rects[second].width * rects[second].height
                if cost < best.cost { best = (first, second, cost) }
            }
        }
        let union = rects[best.first].union(rects[best.second])
        rects.remove(at: best.second)
        rects[best.first] = union
    }

    /// Keeps only what lies inside `rect`.
    ///
    /// - Parameter rect: The window's bounds.
    public mutating func clip(to rect: Rect) {
        rects = rects.map { $0.intersection(rect) }.filter { !$0.isEmpty }
    }

    /// Whether any part overlaps `rect`.
    ///
    /// - Parameter rect: The rectangle.
    /// - Returns: Whether it does.
    public func intersects(_ rect: Rect) -> Bool {
        rects.contains { $0.intersects(rect) }
    }

    /// `[(x, y, w×h), …]`.
    public var description: String { "[" + rects.map(\.description).joined(separator: ", ") + "]" }

    /// Two rectangles merge when one holds the other, or when they overlap or touch and their
    /// union is at most a quarter larger than the two together.
    static func shouldMerge(_ a: Rect, _ b: Rect) -> Bool {
        if a.contains(b) || b.contains(a) { return true }
        let touching = a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
        guard touching else { return false }
        let union = a.union(b)
        return union.width * union.height <= (a.width * a.height + b.width * b.height) * 1.25
    }
}
