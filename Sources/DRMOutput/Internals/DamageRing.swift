internal import Graphics

/// What each of a display's buffers missed since it was last drawn into: wlroots' damage ring
/// (`wlr_damage_ring`, buffer age), kept per buffer instead of per age. Every frame's damage is
/// added to every buffer; the buffer a frame is drawn into takes what it missed (this frame's
/// damage and that of the frames the other buffer showed since) and is then up to date. A buffer
/// never drawn into, or whose contents are unknown, missed everything. Pure, tested without a GPU.
struct DamageRing: Hashable {
    /// The most rectangles kept per buffer; more are merged (the two whose union adds least area).
    static let limit = 16
    /// The screen: every rectangle is clipped to it.
    let bounds: PixelRect
    private var missed: [[PixelRect]]

    /// A ring whose buffers all missed everything.
    ///
    /// - Parameters:
    ///   - bounds: The screen's pixels.
    ///   - buffers: How many buffers (two: front and back).
    init(bounds: PixelRect, buffers: Int = 2) {
        self.bounds = bounds
        missed = Array(repeating: bounds.isEmpty ? [] : [bounds], count: max(1, buffers))
    }

    /// Rectangles drawn anew: missed by every buffer.
    mutating func add(_ rects: some Sequence<PixelRect>) {
        let added = Array(rects)
        guard !added.isEmpty else { return }
        for index in missed.indices {
            missed[index] = PixelRect.coalesced(missed[index] + added, within: bounds, limit: Self.limit)
        }
    }

    /// Every buffer missed everything (their contents are unknown).
    mutating func addAll() {
        for index in missed.indices { missed[index] = bounds.isEmpty ? [] : [bounds] }
    }

    /// What a buffer missed, without taking it.
    func missed(buffer index: Int) -> [PixelRect] {
        missed[index]
    }

    /// What a buffer missed, which is about to be drawn into it: it is then up to date.
    mutating func take(buffer index: Int) -> [PixelRect] {
        defer { missed[index] = [] }
        return missed[index]
    }
}

extension PixelRect {
    /// The rectangles clamped to `bounds`, empty ones dropped, those that overlap or touch merged
    /// while their union is at most a quarter larger than the two (one holding the other always
    /// merges), as Graphics' `DamageRegion` merges points; while more than `limit` are left, the two
    /// whose union adds the least area are merged. When they cover three quarters of `bounds` or more,
    /// `bounds` alone: one copy of whole rows is cheaper than many short ones.
    static func coalesced(_ rects: [PixelRect], within bounds: PixelRect, limit: Int) -> [PixelRect] {
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
        while result.count > max(1, limit) {
            var best = (first: 0, second: 1, cost: Int.max)
            for first in result.indices {
                for second in result.indices where second > first {
                    let cost = result[first].union(result[second]).area - result[first].area - result[second].area
                    if cost < best.cost { best = (first, second, cost) }
                }
            }
            let union = result[best.first].union(result[best.second])
            result.remove(at: best.second)
            result[best.first] = union
        }
        let area = result.reduce(0) { $0 + $1.area }
        if !result.isEmpty, area * 4 >= bounds.area * 3 { return [bounds] }
        return result
    }

    /// Two rectangles merge when one holds the other, or when they overlap or touch and their union
    /// is at most a quarter larger than the two together.
    static func shouldMerge(_ a: PixelRect, _ b: PixelRect) -> Bool {
        if a.contains(b) || b.contains(a) { return true }
        guard a.x <= b.maxX, b.x <= a.maxX, a.y <= b.maxY, b.y <= a.maxY else { return false }
        return a.union(b).area * 4 <= (a.area + b.area) * 5
    }
}
