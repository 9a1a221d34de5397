import PixelCanvas
import TerminalCanvas
import Testing

extension PixelCanvasTests {
    @Suite struct GoldenImageTests {
        /// A small screen of the kiosk's kind: boxes of each weight, a heading, the focused item,
        /// colours, a wide character and a replaced one.
        static var screen: Canvas {
            var canvas = Canvas(columns: 20, rows: 6)
            canvas.box(0, 0, 19, 5, .double, .plain)
            canvas.text("Check in", 2, 0, .heading)
            canvas.box(1, 1, 9, 3, .single, .group)
            canvas.text("Name", 2, 2, .focused)
            canvas.box(10, 1, 18, 3, .heavy, .faint)
            canvas.text("😀 ok", 11, 2, .firstResponder)
            canvas.text("PIN\u{7}", 2, 4, .overlay)
            canvas.text("Help", 12, 4, .selected)
            return canvas
        }

        @Test("a small screen matches its golden image within the hinting tolerance")
        func golden() throws {
            let image = try PixelRenderer(pixelSize: 16).image(of: Self.screen)
            try GoldenImage.expect(image, columns: 20, rows: 6, matches: "screen.png")
        }

        @Test("the tolerance accepts a one-pixel shift of the text and rejects another character or colour")
        func tolerance() throws {
            let renderer = try PixelRenderer(pixelSize: 16)
            let image = renderer.image(of: Self.screen)
            var shifted = image
            // Each glyph moved one pixel right inside its cell (the emoji inside its two), as hinting moves stems.
            let (cellWidth, cellHeight) = renderer.cellSize
            for y in 0..<image.height {
                for x in 0..<image.width
                where x % cellWidth != 0 || (x / cellWidth == 12 && y / cellHeight == 2) {
                    let (to, from) = (y * image.stride + x * 4, y * image.stride + (x - 1) * 4)
                    shifted.pixels[to..<(to + 4)] = image.pixels[from..<(from + 4)]
                }
            }
            #expect(GoldenImage.differences(shifted, image, columns: 20, rows: 6).isEmpty)
            for (a, b) in [("a", "o"), ("b", "d"), ("l", "1"), ("n", "h")] {
                var one = Canvas(columns: 1, rows: 1)
                one.put(Character(a), 0, 0, .plain)
                var other = one
                other.put(Character(b), 0, 0, .plain)
                let difference = GoldenImage.inkDifference(
                    CellInk(renderer.image(of: one), column: 0, row: 0, columns: 1, rows: 1),
                    CellInk(renderer.image(of: other), column: 0, row: 0, columns: 1, rows: 1))
                #expect(difference > GoldenImage.inkTolerance, "\(a) against \(b): \(difference)")
            }
            var changed = Self.screen
            changed.text("Nome", 2, 2, .focused)
            #expect(GoldenImage.differences(renderer.image(of: changed), image, columns: 20, rows: 6).count == 1)
            changed = Self.screen
            changed.text("b", 14, 2, .firstResponder)
            var mirrored = Self.screen
            mirrored.text("d", 14, 2, .firstResponder)
            #expect(
                GoldenImage.differences(renderer.image(of: changed), renderer.image(of: mirrored), columns: 20, rows: 6)
                    .count == 1, "b against d: the same coverage, elsewhere")
            changed = Self.screen
            changed.text("Help", 12, 4, .group)
            #expect(!GoldenImage.differences(renderer.image(of: changed), image, columns: 20, rows: 6).isEmpty)
        }
    }
}
