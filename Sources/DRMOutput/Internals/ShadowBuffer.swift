internal import Graphics

/// The frame in memory that an output draws into (cached memory: drawing reads what it blends
/// with, which is slow in a dumb buffer's write-combined mapping) and copies from into the buffer
/// to show: 32-bit `XRGB8888` pixels, rows `width * 4` bytes apart, black at first.
final class ShadowBuffer {
    let width: Int
    let height: Int
    let pixels: UnsafeMutableRawBufferPointer

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, self.width * self.height * 4), alignment: 16)
        pixels.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        pixels.deallocate()
    }

    /// Bytes from one row to the next.
    var stride: Int { width * 4 }

    /// The whole frame.
    var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Copies rectangles into a buffer to show, the pointer drawn over them where they cover it.
    ///
    /// - Parameters:
    ///   - rects: The rectangles, in pixels (clipped to both sizes).
    ///   - buffer: The buffer.
    ///   - pointer: The pointer's hot spot, when shown.
    func copy(_ rects: [PixelRect], into buffer: DumbBuffer, pointer: (x: Int, y: Int)?) {
        guard let source = pixels.baseAddress, let target = buffer.pixels.baseAddress else { return }
        let limit = PixelRect(x: 0, y: 0, width: min(width, buffer.width), height: min(height, buffer.height))
        for rect in rects {
            let clipped = rect.intersection(limit)
            guard !clipped.isEmpty else { continue }
            let bytes = clipped.width * 4
            for row in clipped.y..<clipped.maxY {
                let line = target + row * buffer.pitch
                (line + clipped.x * 4).copyMemory(from: source + row * stride + clipped.x * 4, byteCount: bytes)
                if let pointer {
                    PointerSprite.draw(
                        row: row, x: pointer.x, y: pointer.y, into: line, width: buffer.width,
                        columns: clipped.x..<clipped.maxX)
                }
            }
        }
    }
}
