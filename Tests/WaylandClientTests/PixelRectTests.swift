import Graphics
import ResponderChain
import Testing
import WaylandClient

@Suite("PixelRect: damage rectangles in device pixels")
struct PixelRectTests {
    @Test("edges, area, emptiness and the description")
    func basics() {
        let rect = PixelRect(x: 10, y: 20, width: 30, height: 40)
        #expect(rect.maxX == 40 && rect.maxY == 60)
        #expect(rect.area == 1200 && !rect.isEmpty)
        #expect(rect.description == "(10, 20, 30×40)")
        #expect(PixelRect(x: 5, y: 5, width: 0, height: 9).isEmpty)
        #expect(PixelRect(x: 5, y: 5, width: -3, height: 9).area == 0)
        #expect(PixelRect(rows: 7..<19, width: 640) == PixelRect(x: 0, y: 7, width: 640, height: 12))
    }

    @Test("intersection clamps to a buffer; union is the bounding box; contains")
    func setOperations() {
        let buffer = PixelRect(x: 0, y: 0, width: 100, height: 50)
        #expect(
            PixelRect(x: -10, y: 40, width: 30, height: 30).intersection(buffer)
                == .init(x: 0, y: 40, width: 20, height: 10))
        #expect(PixelRect(x: 200, y: 0, width: 5, height: 5).intersection(buffer).isEmpty)
        #expect(PixelRect(x: 100, y: 0, width: 5, height: 5).intersection(buffer).isEmpty)  // touching: no pixel shared
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        let b = PixelRect(x: 20, y: 30, width: 5, height: 5)
        #expect(a.union(b) == PixelRect(x: 0, y: 0, width: 25, height: 35))
        #expect(a.union(PixelRect(x: 99, y: 99, width: 0, height: 0)) == a)
        #expect(buffer.contains(a) && !a.contains(buffer) && a.contains(PixelRect(x: 50, y: 50, width: 0, height: 0)))
    }

    @Test(
        "a rectangle in points covers its device pixels at a scale, rounded outward",
        arguments: [
            (Rect(x: 10, y: 20, width: 30, height: 40), 1, PixelRect(x: 10, y: 20, width: 30, height: 40)),
            (Rect(x: 10, y: 20, width: 30, height: 40), 2, PixelRect(x: 20, y: 40, width: 60, height: 80)),
            (Rect(x: 10.25, y: 10, width: 5.5, height: 3), 2, PixelRect(x: 20, y: 20, width: 12, height: 6)),
            (Rect(x: 0.4, y: 0.4, width: 0.2, height: 0.2), 1, PixelRect(x: 0, y: 0, width: 1, height: 1)),
            (Rect(x: -1.5, y: 0, width: 1, height: 1), 3, PixelRect(x: -5, y: 0, width: 4, height: 3)),
            (Rect(x: 1, y: 1, width: 0, height: 5), 2, PixelRect(x: 0, y: 0, width: 0, height: 0)),
            (Rect(x: .nan, y: 1, width: 5, height: 5), 2, PixelRect(x: 0, y: 0, width: 0, height: 0)),
            (Rect(x: 0, y: 0, width: 4, height: 4), 0, PixelRect(x: 0, y: 0, width: 4, height: 4)),
        ])
    func enclosing(points: Rect, scale: Int, pixels: PixelRect) {
        #expect(PixelRect(enclosing: points, scale: scale) == pixels)
    }

    @Test("infinite and huge rectangles in points are clamped, not trapped")
    func enclosingHuge() {
        // -∞ + ∞ is NaN: no right edge, nothing.
        #expect(PixelRect(enclosing: Rect(x: -.infinity, y: 0, width: .infinity, height: 1), scale: 8).isEmpty)
        let wide = PixelRect(enclosing: Rect(x: -1e300, y: 0, width: .infinity, height: 10), scale: 8)
        #expect(
            wide.intersection(PixelRect(x: 0, y: 0, width: 800, height: 600))
                == .init(x: 0, y: 0, width: 800, height: 80))
        let big = PixelRect(enclosing: Rect(x: 0, y: 0, width: 1e12, height: 1e12), scale: 2)
        #expect(
            big.intersection(PixelRect(x: 0, y: 0, width: 800, height: 600))
                == .init(x: 0, y: 0, width: 800, height: 600))
    }

    static let bounds = PixelRect(x: 0, y: 0, width: 800, height: 600)

    @Test(
        "coalescing: separate tiles stay apart in order, touching rows and contained rectangles merge, outside ones go",
        arguments: [
            // Two tiles of a focus move: two rectangles, as given.
            (
                [PixelRect(x: 100, y: 100, width: 40, height: 40), PixelRect(x: 600, y: 400, width: 40, height: 40)],
                [PixelRect(x: 100, y: 100, width: 40, height: 40), PixelRect(x: 600, y: 400, width: 40, height: 40)]
            ),
            // A renderer's adjacent row ranges: one.
            (
                [PixelRect(rows: 0..<10, width: 800), PixelRect(rows: 10..<30, width: 800)],
                [PixelRect(rows: 0..<30, width: 800)]
            ),
            // A ring inside the tile it outlines: the tile.
            (
                [PixelRect(x: 10, y: 10, width: 100, height: 100), PixelRect(x: 20, y: 20, width: 10, height: 10)],
                [PixelRect(x: 10, y: 10, width: 100, height: 100)]
            ),
            // Touching at a corner, but the union would be twice the two: kept apart.
            (
                [PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 10, y: 10, width: 10, height: 10)],
                [PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 10, y: 10, width: 10, height: 10)]
            ),
            // Clamped, empty and outside dropped.
            (
                [
                    PixelRect(x: 790, y: 590, width: 20, height: 20), .init(x: 5, y: 5, width: 0, height: 5),
                    .init(x: 900, y: 0, width: 5, height: 5),
                ],
                [PixelRect(x: 790, y: 590, width: 10, height: 10)]
            ),
        ])
    func coalescing(input: [PixelRect], output: [PixelRect]) {
        #expect(PixelRect.coalesced(input, within: Self.bounds) == output)
    }

    @Test("more rectangles than the limit become their bounding box")
    func coalescingLimit() {
        let tiles = (0..<17).map { PixelRect(x: $0 * 40, y: $0 * 30, width: 10, height: 10) }
        #expect(PixelRect.coalesced(Array(tiles.prefix(16)), within: Self.bounds).count == 16)
        #expect(PixelRect.coalesced(tiles, within: Self.bounds) == [PixelRect(x: 0, y: 0, width: 650, height: 490)])
        #expect(PixelRect.coalesced(Array(tiles.prefix(3)), within: Self.bounds, limit: 2).count == 1)
    }

    @Test(
        "less another rectangle: the bands above and below, then the sides; all of it when they do not overlap",
        arguments: [
            // A hole in the middle: four parts.
            (
                PixelRect(x: 0, y: 0, width: 100, height: 50), PixelRect(x: 10, y: 20, width: 30, height: 10),
                [
                    PixelRect(x: 0, y: 0, width: 100, height: 20), PixelRect(x: 0, y: 30, width: 100, height: 20),
                    PixelRect(x: 0, y: 20, width: 10, height: 10), PixelRect(x: 40, y: 20, width: 60, height: 10),
                ]
            ),
            // The same rectangle, or one holding it: nothing left.
            (PixelRect(x: 5, y: 5, width: 10, height: 10), PixelRect(x: 5, y: 5, width: 10, height: 10), []),
            (PixelRect(x: 5, y: 5, width: 10, height: 10), PixelRect(x: 0, y: 0, width: 50, height: 50), []),
            // Over its right edge: the left part.
            (
                PixelRect(x: 0, y: 0, width: 20, height: 10), PixelRect(x: 15, y: -5, width: 20, height: 30),
                [PixelRect(x: 0, y: 0, width: 15, height: 10)]
            ),
            // Touching only: all of it.
            (
                PixelRect(x: 0, y: 0, width: 20, height: 10), PixelRect(x: 20, y: 0, width: 5, height: 5),
                [PixelRect(x: 0, y: 0, width: 20, height: 10)]
            ),
        ])
    func subtracting(rect: PixelRect, other: PixelRect, expected: [PixelRect]) {
        let parts = rect.subtracting(other)
        #expect(parts == expected)
        #expect(parts.reduce(0) { $0 + $1.area } == rect.area - rect.intersection(other).area)
    }
}
