import Foundation
import TerminalCanvas
import Testing

@testable import PixelCanvas

extension PixelCanvasTests {
    /// The text stack under the renderer: fontconfig's faces and fallbacks, HarfBuzz's shaping of a
    /// cell's grapheme, and what is loaded and kept.
    @Suite struct CellFontTests {
        let renderer: PixelRenderer

        init() throws {
            renderer = try PixelRenderer(pixelSize: 16)
        }

        /// One character alone in a one-cell canvas.
        func image(_ character: Character, _ style: CellStyle = .plain) -> PixelImage {
            var canvas = Canvas(columns: 1, rows: 1)
            canvas.put(character, 0, 0, style)
            return renderer.image(of: canvas)
        }

        func ink(_ image: PixelImage) -> CellInk { CellInk(image, column: 0, row: 0, columns: 1, rows: 1) }

        @Test("a base and a combining mark are shaped together: composed where the face has the composition")
        func composedMark() {
            #expect(image("e\u{301}") == image("\u{E9}"), "e and a combining acute draw as é")
            #expect(image("e\u{301}") != image("e"), "the mark is not dropped")
        }

        @Test("a mark with no precomposed form is placed on its base, inside the base's cell")
        func placedMark() {
            let base = ink(image("x"))
            let marked = ink(image("x\u{323}"))
            #expect(marked.pixels > base.pixels, "the dot below adds ink")
            #expect(marked.centroid.y > base.centroid.y, "below the x, not beside it")
            #expect(abs(marked.centroid.x - base.centroid.x) < 0.1, "on the x, not after it")
            var canvas = Canvas(columns: 3, rows: 1)
            canvas.put("x\u{323}", 1, 0, .plain)
            let grid = CellInk.grid(renderer.image(of: canvas), columns: 3, rows: 1)[0]
            #expect(grid[0].pixels == 0 && grid[2].pixels == 0, "nothing spills into the neighbours")
        }

        @Test("a character the face lacks comes from a fallback face fontconfig picks, not as the missing glyph")
        func fallback() throws {
            let font = renderer.font
            let regular = font.cell(for: "M", bold: false)
            #expect(!regular.shaped.missing)
            // DejaVu Sans Mono has no 😀; DejaVu Sans, fontconfig's next choice, has.
            let emoji = font.cell(for: "😀", bold: false)
            #expect(!emoji.shaped.missing && emoji.face !== regular.face)
            #expect(emoji.face.location.file != regular.face.location.file)
            // A private-use character no face has: the main face's .notdef, drawn as its box.
            let none = font.cell(for: "\u{E000}", bold: false)
            #expect(none.shaped.missing && none.face === regular.face)
            var canvas = Canvas(columns: 2, rows: 1)
            canvas.put("😀", 0, 0, .plain)
            var box = Canvas(columns: 2, rows: 1)
            box.put("\u{E000}", 0, 0, .plain)
            #expect(renderer.image(of: canvas) != renderer.image(of: box))
        }

        @Test("bold text the bold face lacks comes from a fallback too, emboldened when the fallback has no bold")
        func boldFallback() {
            let font = renderer.font
            let emoji = font.cell(for: "😀", bold: true)
            #expect(!emoji.shaped.missing && emoji.face !== font.cell(for: "M", bold: true).face)
            #expect(ink(image("😀", .heading)).coverage >= ink(image("😀", .plain)).coverage)
        }

        @Test("a fallback face is loaded once for every character it serves, and shaped cells are kept, bounded")
        func caches() throws {
            let font = try PixelRenderer(pixelSize: 16).font
            _ = font.cell(for: "😀", bold: false)
            #expect(font.fallbackLoads == 1)
            for scalar in 0x1F601...0x1F64F {
                _ = font.cell(for: Character(Unicode.Scalar(UInt32(scalar))!), bold: false)
            }
            #expect(font.fallbackLoads == 1, "the emoticons DejaVu Sans has reuse its face")
            let cell = font.cell(for: "😀", bold: false)
            #expect(font.cell(for: "😀", bold: false).face === cell.face)
            for index in 0..<(font.cacheLimit + 100) {
                _ = font.cell(for: Character(Unicode.Scalar(UInt32(0x100 + index))!), bold: index % 2 == 0)
            }
            #expect(font.cachedCellCount <= font.cacheLimit)
        }

        @Test("renderers made and dropped release their faces, fonts and fontconfig sets")
        func noLeaks() throws {
            func cycle(_ count: Int) throws {
                for _ in 0..<count {
                    let renderer = try PixelRenderer(pixelSize: 16)
                    var canvas = Canvas(columns: 4, rows: 1)
                    canvas.text("A😀", 0, 0, .plain)
                    canvas.put("x\u{323}", 3, 0, .heading)
                    _ = renderer.image(of: canvas)
                }
            }
            // Cairo keeps up to 256 dropped fonts for reuse (each with its face); fill that first.
            try cycle(150)
            let before = try PixelRendererTests.residentBytes()
            try cycle(300)
            let grown = try PixelRendererTests.residentBytes() - before
            // A face, HarfBuzz font or Cairo font kept per renderer keeps its face's file mapped and its
            // glyphs: 200 MB over 300 renderers (measured with cairo_font_face_destroy or hb_font_destroy
            // left out); released, a few hundred KB. The margin allows for tests running beside this one.
            let sanitized = ["__asan_init", "__tsan_init"].contains { (name: String) in dlsym(nil, name) != nil }
            #expect(sanitized || grown < 16 << 20, "resident memory grew by \(grown) bytes over 300 renderers")
        }
    }
}
