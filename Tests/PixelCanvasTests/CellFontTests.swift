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

        @Test(
            "a mark is drawn on its base, inside the base's cell, the base where it is alone",
            arguments: [("x", "x\u{323}"), ("\u{1EA1}", "a\u{323}\u{301}"), ("q", "q\u{30A}")],
            [CellStyle.plain, .heading])
        func placedMark(_ pair: (base: Character, marked: Character), _ style: CellStyle) {
            // x with a dot below has no precomposed form (and DejaVu Sans Mono Bold gives the dot an advance of
            // its own); the acute on ạ is one the face does not attach; q's ring is attached by the face.
            let base = ink(image(pair.base, style))
            let marked = ink(image(pair.marked, style))
            #expect(marked.pixels > base.pixels, "the mark adds ink")
            #expect(abs(marked.centroid.x - base.centroid.x) < 0.1, "on the base, not beside it")
            let moved = zip(base.weights, marked.weights).filter { $0.0 > 0.5 && $0.1 < 0.25 }.count
            #expect(moved == 0, "the base's own pixels stay")
            var canvas = Canvas(columns: 3, rows: 1)
            canvas.put(pair.marked, 1, 0, style)
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

        @Test("bold text the bold face lacks comes from a fallback's bold face, or its regular one emboldened")
        func boldFallback() {
            let font = renderer.font
            let emoji = font.cell(for: "😀", bold: true)
            #expect(!emoji.shaped.missing && emoji.face !== font.cell(for: "M", bold: true).face)
            let regular = font.cell(for: "😀", bold: false)
            #expect(emoji.face !== regular.face, "the fallback's bold face, or its regular one emboldened")
            #expect(emoji.face.location.embolden || emoji.face.location.file != regular.face.location.file)
        }

        @Test("a fallback face is loaded once for every character it serves, and shaped cells are kept, bounded")
        func caches() throws {
            let font = try PixelRenderer(pixelSize: 16).font
            _ = font.cell(for: "😀", bold: false)
            #expect(font.fallbackLoads == 1)
            // Which faces serve the emoticons depends on the fonts installed (DejaVu Sans, Noto Color
            // Emoji): each is loaded once, whatever the number of characters it serves.
            let primary = font.cell(for: "a", bold: false).face.location.file
            var faces: Set<String> = []
            for scalar in 0x1F600...0x1F64F {
                let cell = font.cell(for: Character(Unicode.Scalar(UInt32(scalar))!), bold: false)
                if cell.face.location.file != primary { faces.insert(cell.face.location.file) }
            }
            #expect(font.fallbackLoads == faces.count, "one load for each fallback face: \(faces.sorted())")
            let loads = font.fallbackLoads
            for scalar in 0x1F600...0x1F64F {
                _ = font.cell(for: Character(Unicode.Scalar(UInt32(scalar))!), bold: false)
            }
            #expect(font.fallbackLoads == loads, "a face loaded once serves its characters again")
            let cell = font.cell(for: "😀", bold: false)
            #expect(font.cell(for: "😀", bold: false).face === cell.face)
            for index in 0..<(font.cacheLimit + 100) {
                _ = font.cell(for: Character(Unicode.Scalar(UInt32(0x100 + index))!), bold: index % 2 == 0)
            }
            #expect(font.cachedCellCount <= font.cacheLimit)
        }

        @Test("renderers on several threads at once draw what one draws alone")
        func threads() async throws {
            var canvas = Canvas(columns: 12, rows: 2)
            canvas.text("Check in 😀", 0, 0, .heading)
            canvas.text("x\u{323}e\u{301} ok", 0, 1, .plain)
            let expected = renderer.image(of: canvas)
            let shown = canvas
            let images = try await withThrowingTaskGroup(of: PixelImage.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        // Each its own renderer: faces made, used and dropped on four threads at once.
                        var last = PixelImage(width: 1, height: 1)
                        for _ in 0..<10 { last = try PixelRenderer(pixelSize: 16).image(of: shown) }
                        return last
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(images.count == 4 && images.allSatisfy { $0 == expected })
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
