import Testing

@testable import DRMOutput

@Suite("The drawn pointer")
struct PointerSpriteTests {
    @Test("The rows it covers are clipped to the screen")
    func rows() {
        #expect(PointerSprite.rows(at: 10, screenHeight: 800) == 10..<(10 + PointerSprite.height))
        #expect(PointerSprite.rows(at: 795, screenHeight: 800) == 795..<800)
        #expect(PointerSprite.rows(at: 900, screenHeight: 800).isEmpty)
    }

    @Test("Its tip is a black pixel at the hot spot, its inside white, its right edge clipped to the row")
    func draw() {
        let width = 20
        var line = [UInt32](repeating: 0x0012_3456, count: width)
        line.withUnsafeMutableBytes { PointerSprite.draw(row: 5, x: 3, y: 5, into: $0.baseAddress!, width: width) }
        #expect(line[3] == 0)
        #expect(line[2] == 0x0012_3456 && line[4] == 0x0012_3456)
        var middle = [UInt32](repeating: 0x0012_3456, count: width)
        middle.withUnsafeMutableBytes {
            PointerSprite.draw(row: 8, x: 15, y: 5, into: $0.baseAddress!, width: width)
        }
        #expect(middle[15] == 0 && middle[16] == 0x00FF_FFFF && middle[18] == 0)
        // Row 10 is 11 pixels wide: drawn at 15 on a 20-pixel row, its last 6 pixels fall off the edge.
        var edge = [UInt32](repeating: 7, count: width + 1)
        edge.withUnsafeMutableBytes { PointerSprite.draw(row: 10, x: 15, y: 0, into: $0.baseAddress!, width: width) }
        #expect(edge[19] == 0x00FF_FFFF && edge[20] == 7, "nothing written past the row's width")
        var outside = [UInt32](repeating: 7, count: width)
        outside.withUnsafeMutableBytes { PointerSprite.draw(row: 4, x: 3, y: 5, into: $0.baseAddress!, width: width) }
        #expect(outside == [UInt32](repeating: 7, count: width))
    }
}
