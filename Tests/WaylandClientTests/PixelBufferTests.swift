import Graphics
import ResponderChain
import Testing
import WaylandClient

@Suite("PixelBuffer: a buffer's pixels, its scale and what to fill")
struct PixelBufferTests {
    /// Runs `body` on a zeroed buffer of `width`×`height` pixels (stride `width`×4 plus `padding` bytes)
    /// and returns its words.
    func withBuffer(
        width: Int, height: Int, padding: Int = 0, scale: Int = 1, _ body: (PixelBuffer) -> Void
    ) -> [UInt32] {
        let stride = width * 4 + padding
        var bytes = [UInt8](repeating: 0, count: stride * height)
        bytes.withUnsafeMutableBytes { raw in
            body(
                PixelBuffer(
                    pixels: raw, width: width, height: height, stride: stride, format: .xrgb8888, scale: scale,
                    needsFullRedraw: false))
        }
        return (0..<height).flatMap { row in
            (0..<width).map { x in
                let at = row * stride + x * 4
                return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
                    | UInt32(bytes[at + 3]) << 24
            }
        }
    }

    @Test("fill(_:color:) writes the rectangle only, clamped to the buffer; fill(rows:) whole rows; the bounds")
    func fills() {
        let words = withBuffer(width: 6, height: 4, padding: 8) { buffer in
            #expect(buffer.bounds == PixelRect(x: 0, y: 0, width: 6, height: 4))
            buffer.fill(PixelRect(x: 4, y: 1, width: 10, height: 2), color: 0xFF_11_22_33)
            buffer.fill(rows: 3..<9, color: 0xFF_00_00_01)
            buffer.fill(PixelRect(x: -5, y: -5, width: 6, height: 6), color: 0xFF_00_00_02)
        }
        let x: UInt32 = 0xFF_11_22_33
        let r: UInt32 = 0xFF_00_00_01
        let t: UInt32 = 0xFF_00_00_02
        #expect(
            words == [
                t, 0, 0, 0, 0, 0,
                0, 0, 0, 0, x, x,
                0, 0, 0, 0, x, x,
                r, r, r, r, r, r,
            ])
    }

    @Test("the size in points, the bounds, and a rectangle in points as the pixels to return")
    func points() {
        _ = withBuffer(width: 80, height: 60, scale: 2) { buffer in
            #expect(buffer.scale == 2)
            #expect(buffer.pointWidth == 40 && buffer.pointHeight == 30)
            #expect(buffer.bounds == PixelRect(x: 0, y: 0, width: 80, height: 60))
            #expect(
                buffer.pixelRect(enclosing: Rect(x: 1.5, y: 2, width: 3, height: 4))
                    == .init(x: 3, y: 4, width: 6, height: 8))
            #expect(
                buffer.pixelRect(enclosing: Rect(x: 35, y: 25, width: 10, height: 10))
                    == .init(x: 70, y: 50, width: 10, height: 10))
            #expect(buffer.pixelRect(enclosing: Rect(x: 50, y: 0, width: 10, height: 10)).isEmpty)
        }
        _ = withBuffer(width: 4, height: 4, scale: 0) { buffer in #expect(buffer.scale == 1) }
    }
}
