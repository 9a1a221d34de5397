internal import Graphics

/// The pointer drawn over the screen when a mouse moves: an arrow, black outline, white inside,
/// its tip (the hot spot) at its top-left pixel. Composited while rows are copied into a dumb
/// buffer, so it costs nothing while hidden and works on every driver (no cursor plane needed).
struct PointerSprite {
    static let rows = [
        "X",
        "XX",
        "XoX",
        "XooX",
        "XoooX",
        "XooooX",
        "XoooooX",
        "XooooooX",
        "XoooooooX",
        "XooooooooX",
        "XoooooXXXXX",
        "XooXooX",
        "XoX XooX",
        "XX  XooX",
        "X    XooX",
        "     XooX",
        "      XX",
    ]
    static let width = rows.map(\.count).max() ?? 0
    static let height = rows.count

    /// Each row's opaque pixels: (column, XRGB colour).
    static let pixels: [[(column: Int, color: UInt32)]] = rows.map { row in
        row.enumerated().compactMap { column, character in
            switch character {
            case "X": return (column, 0x0000_0000)
            case "o": return (column, 0x00FF_FFFF)
            default: return nil
            }
        }
    }

    /// The pixel rows the pointer covers at a position, clipped to the screen's height.
    static func rows(at y: Int, screenHeight: Int) -> Range<Int> {
        let top = max(0, min(y, screenHeight))
        return top..<max(top, min(y + height, screenHeight))
    }

    /// Draws the pointer's part on one pixel row of a buffer.
    ///
    /// - Parameters:
    ///   - row: The buffer's pixel row.
    ///   - x: The pointer's hot spot, in pixels from the left.
    ///   - y: The hot spot, in pixels from the top.
    ///   - line: The row's first byte.
    ///   - width: The row's width in pixels.
    ///   - columns: The pixel columns that may be written (a copied rectangle's); all by default.
    static func draw(
        row: Int, x: Int, y: Int, into line: UnsafeMutableRawPointer, width: Int, columns: Range<Int>? = nil
    ) {
        let index = row - y
        guard pixels.indices.contains(index) else { return }
        for (column, color) in pixels[index] {
            let pixel = x + column
            guard pixel >= 0, pixel < width, columns?.contains(pixel) ?? true else { continue }
            line.storeBytes(of: color, toByteOffset: pixel * 4, as: UInt32.self)
        }
    }

    /// The pixels the pointer covers at a position, clipped to the screen.
    static func rect(at position: (x: Int, y: Int), screen: PixelRect) -> PixelRect {
        PixelRect(x: position.x, y: position.y, width: width, height: height).intersection(screen)
    }
}
