import Foundation
import TerminalCanvas
import Testing

@testable import PixelCanvas

extension PixelCanvasTests {
    @Suite struct PixelRendererTests {
        let renderer: PixelRenderer

        init() throws {
            renderer = try PixelRenderer(pixelSize: 16)
        }

        @Test("the cell is positive, the same for every renderer of the font and size, and scales with the scale")
        func cellSize() throws {
            let (width, height) = renderer.cellSize
            #expect(width > 4 && height > width, "a monospaced cell is taller than wide")
            let again = try PixelRenderer(pixelSize: 16)
            #expect(again.cellSize == renderer.cellSize)
            let doubled = try PixelRenderer(pixelSize: 16, scale: 2)
            #expect(abs(doubled.cellSize.width - 2 * width) <= 2 && abs(doubled.cellSize.height - 2 * height) <= 2)
            let larger = try PixelRenderer(pixelSize: 24)
            #expect(larger.cellSize.width > width && larger.cellSize.height > height)
        }

        @Test("a family fontconfig does not know fails with a message naming fontconfig and the package")
        func missingFont() {
            #expect {
                _ = try PixelRenderer(fontFamily: "No Such Family 24", pixelSize: 16)
            } throws: { error in
                guard let error = error as? PixelCanvasError else { return false }
                return error.code == .fontNotFound && error.message.contains("fontconfig")
                    && error.message.contains("fonts-dejavu-core") && error.message.contains("No Such Family 24")
            }
        }

        @Test("a renderer made on a thread of its own is the one made here; waiting twice gives the same one")
        func loading() throws {
            let loading = PixelRenderer.Loading(pixelSize: 16)
            let loaded = try loading.wait()
            #expect(loaded.cellSize == renderer.cellSize && loaded.fontFamily == renderer.fontFamily)
            #expect(try loading.wait() === loaded)
            var canvas = Canvas(columns: 6, rows: 2)
            canvas.text("Ab中é", 0, 0, .focused)
            #expect(loaded.image(of: canvas) == renderer.image(of: canvas))
        }

        @Test("a loading dropped without waiting waits for its thread as it ends: the work is done by then")
        func loadingDropped() {
            var loading: PixelRenderer.Loading? = PixelRenderer.Loading(pixelSize: 18)
            let job = loading!.job
            loading = nil
            #expect(job.result != nil, "the thread was not joined")
            _ = loading
        }

        @Test("a family fontconfig does not know, loaded on a thread, fails when waited for, with the same message")
        func loadingMissingFont() {
            let loading = PixelRenderer.Loading(fontFamily: "No Such Family 24", pixelSize: 16)
            #expect {
                _ = try loading.wait()
            } throws: { error in
                (error as? PixelCanvasError)?.code == .fontNotFound
                    && (error as? PixelCanvasError)?.message.contains("No Such Family 24") == true
            }
        }

        @Test("more distinct cells than the renderer keeps: it empties what it keeps, stays bounded, draws right")
        func keptCellsBounded() throws {
            let styles: [CellStyle] = [
                .plain, .heading, .faint, .focused, .group, .overlay, .selected, .firstResponder,
            ]
            var canvas = Canvas(columns: 40, rows: 10)
            for row in 0..<10 {
                for column in 0..<40 {
                    let code = 0x0100 + UInt32(row * 40 + column) % 0x17F
                    canvas.put(Character(Unicode.Scalar(code)!), column, row, styles[(row + column) % styles.count])
                }
            }
            let kept = try PixelRenderer(pixelSize: 16)
            kept.cellCacheLimit = 100
            let direct = try PixelRenderer(pixelSize: 16)
            direct.cachesCells = false
            let image = kept.image(of: canvas)
            #expect(kept.cellCacheEvictions >= 3 && kept.cellImageCount <= 100)
            let drawn = direct.image(of: canvas)
            let differing = zip(image.pixels, drawn.pixels).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(
                differing == nil,
                "first differing pixel in cell \(differing.map { ($0 / 4 % image.width / kept.cellSize.width, $0 / image.stride / kept.cellSize.height) }.debugDescription)"
            )
        }

        @Test("the renderer keeps what it was made with; family names match whatever their case")
        func properties() throws {
            #expect(renderer.fontFamily == "DejaVu Sans Mono" && renderer.pixelSize == 16 && renderer.scale == 1)
            let lowercase = try PixelRenderer(fontFamily: "dejavu sans mono", pixelSize: 16)
            #expect(lowercase.cellSize == renderer.cellSize)
            let clamped = try PixelRenderer(pixelSize: 16, scale: 0)
            #expect(clamped.scale == 1)
        }

        @Test("cells take their colours from the renderer's palette")
        func palette() throws {
            let navy = PixelColor(red: 0, green: 0, blue: 128)
            let amber = PixelColor(red: 255, green: 176, blue: 0)
            let custom = PixelPalette(colors: PixelPalette.standard.colors, foreground: amber, background: navy)
            let renderer = try PixelRenderer(pixelSize: 16, palette: custom)
            var canvas = Canvas(columns: 2, rows: 1)
            canvas.put("W", 0, 0, .plain)
            canvas.put(" ", 1, 0, .focused)
            let grid = CellInk.grid(renderer.image(of: canvas), columns: 2, rows: 1)[0]
            #expect(grid[0].background == navy && grid[0].ink == amber)
            #expect(grid[1].background == amber)
        }

        @Test("more distinct characters than the renderer keeps laid out still draw the same")
        func manyCharacters() {
            var canvas = Canvas(columns: 64, rows: 24)
            for index in 0..<(64 * 24) {
                let scalar = Unicode.Scalar(UInt32(0x100 + index))!
                canvas.put(Character(scalar), index % 64, index / 64, index % 3 == 0 ? .heading : .plain)
            }
            let first = renderer.image(of: canvas)
            #expect(renderer.image(of: canvas) == first)
            var ink = 0
            for row in 0..<24 { ink += CellInk(first, column: 5, row: row, columns: 64, rows: 24).pixels }
            #expect(ink > 0)
        }

        @Test("text puts ink in its own cells and none anywhere else")
        func inkInTheRightCells() {
            var canvas = Canvas(columns: 8, rows: 3)
            canvas.text("Ab#", 2, 1, .plain)
            let image = renderer.image(of: canvas)
            #expect(image.width == 8 * renderer.cellSize.width && image.height == 3 * renderer.cellSize.height)
            let grid = CellInk.grid(image, columns: 8, rows: 3)
            for row in 0..<3 {
                for column in 0..<8 {
                    let inked = row == 1 && (2...4).contains(column)
                    let cell = grid[row][column]
                    #expect(cell.background == PixelPalette.standard.background)
                    if inked {
                        #expect(cell.pixels > 5, "cell \(column),\(row) has no ink")
                    } else {
                        #expect(cell.pixels == 0, "cell \(column),\(row) has ink")
                    }
                }
            }
        }

        @Test("a changed row is the only row drawn, and its pixel rows are the damage")
        func damage() {
            var before = Canvas(columns: 10, rows: 4)
            before.text("one", 0, 0, .plain)
            before.text("two", 0, 2, .heading)
            var after = before
            after.text("TWO", 0, 2, .heading)
            let (width, height) = (10 * renderer.cellSize.width, 4 * renderer.cellSize.height)
            var pixels = [UInt8](repeating: 0, count: width * 4 * height)
            let cellHeight = renderer.cellSize.height
            pixels.withUnsafeMutableBytes { buffer in
                let full = renderer.render(
                    before, into: buffer, width: width, height: height, stride: width * 4, previous: nil)
                #expect(full == [0..<height])
                let none = renderer.render(
                    before, into: buffer, width: width, height: height, stride: width * 4, previous: before)
                #expect(none.isEmpty)
            }
            let drawnBefore = pixels
            pixels.withUnsafeMutableBytes { buffer in
                let damage = renderer.render(
                    after, into: buffer, width: width, height: height, stride: width * 4, previous: before)
                #expect(damage == [(2 * cellHeight)..<(3 * cellHeight)])
            }
            let rowBytes = width * 4
            for y in 0..<height where !(2 * cellHeight..<3 * cellHeight).contains(y) {
                #expect(
                    pixels[(y * rowBytes)..<((y + 1) * rowBytes)] == drawnBefore[(y * rowBytes)..<((y + 1) * rowBytes)])
            }
            #expect(pixels == renderer.image(of: after).pixels, "drawing the damage alone gives the whole frame")
            // A style changed alone is a change too.
            var restyled = after
            restyled.text("one", 0, 0, .focused)
            pixels.withUnsafeMutableBytes { buffer in
                let damage = renderer.render(
                    restyled, into: buffer, width: width, height: height, stride: width * 4, previous: after)
                #expect(damage == [0..<cellHeight])
            }
            #expect(pixels == renderer.image(of: restyled).pixels)
            // Adjacent changed rows are one range; a canvas of another size is drawn whole.
            var twoRows = before
            twoRows.text("x", 5, 0, .plain)
            twoRows.text("y", 5, 1, .plain)
            pixels.withUnsafeMutableBytes { buffer in
                let damage = renderer.render(
                    twoRows, into: buffer, width: width, height: height, stride: width * 4, previous: before)
                #expect(damage == [0..<(2 * cellHeight)])
                let resized = renderer.render(
                    Canvas(columns: 9, rows: 4), into: buffer, width: width, height: height, stride: width * 4,
                    previous: before)
                #expect(resized == [0..<height])
            }
        }

        @Test("a wide character spans two cells: ink in both, its neighbours untouched")
        func wideCharacter() {
            var canvas = Canvas(columns: 6, rows: 1)
            canvas.text("a😀b", 0, 0, .plain)
            let grid = CellInk.grid(renderer.image(of: canvas), columns: 6, rows: 1)[0]
            #expect(grid[0].pixels > 0 && grid[3].pixels > 0, "a and b around it")
            #expect(grid[1].pixels > 10 && grid[2].pixels > 10, "the emoji covers both of its cells")
            #expect(grid[4].pixels == 0 && grid[5].pixels == 0)
            #expect(grid[1].centroid.x > 0.5 && grid[2].centroid.x < 0.5, "centred across the pair")
        }

        @Test("a character the canvas replaces looks exactly like �", arguments: ["\u{7}", "\u{202E}", "\u{200B}"])
        func replacement(_ text: String) {
            var replaced = Canvas(columns: 3, rows: 1)
            replaced.text(text, 1, 0, .plain)
            var written = Canvas(columns: 3, rows: 1)
            written.text("\u{FFFD}", 1, 0, .plain)
            let image = renderer.image(of: replaced)
            #expect(image == renderer.image(of: written))
            #expect(CellInk(image, column: 1, row: 0, columns: 3, rows: 1).pixels > 10)
        }

        @Test("styles: inverse swaps the colours, colour and bold and underline show, faint is fainter")
        func styles() {
            let palette = PixelPalette.standard
            var canvas = Canvas(columns: 6, rows: 1)
            canvas.put("H", 0, 0, .plain)
            canvas.put("H", 1, 0, .heading)
            canvas.put("H", 2, 0, .focused)
            canvas.put("H", 3, 0, .group)
            canvas.put(" ", 4, 0, .selected)
            canvas.put("H", 5, 0, .faint)
            let image = renderer.image(of: canvas)
            let grid = CellInk.grid(image, columns: 6, rows: 1)[0]
            #expect(grid[1].coverage > grid[0].coverage * 1.15, "bold draws heavier strokes")
            #expect(grid[2].background == palette.foreground, "focused is inverse: light cell")
            #expect(grid[2].pixels > 10)
            #expect(grid[4].pixels > 0, "an underlined space still shows its underline")
            #expect(grid[5].coverage < grid[0].coverage * 0.75, "faint text is nearer the background")
            let cyan = palette.color(.cyan)
            let (width, height) = renderer.cellSize
            var colors: [PixelColor] = []
            for x in 3 * width..<4 * width {
                for y in 0..<height { colors.append(image.color(x, y)) }
            }
            let strongest = colors.max { Int($0.green) + Int($0.blue) < Int($1.green) + Int($1.blue) }
            #expect(strongest == cyan, "the group's text is drawn in cyan")
        }

        @Test("a buffer larger than the grid gets the background around it; a smaller one clips the damage")
        func bufferSizes() {
            var canvas = Canvas(columns: 2, rows: 2)
            canvas.fill(0, 0, 1, 1, " ", .focused)
            let (cellWidth, cellHeight) = renderer.cellSize
            let (width, height, stride) = (2 * cellWidth + 7, 2 * cellHeight + 5, (2 * cellWidth + 8) * 4)
            var image = [UInt8](repeating: 0x55, count: stride * height)
            image.withUnsafeMutableBytes { buffer in
                _ = renderer.render(canvas, into: buffer, width: width, height: height, stride: stride, previous: nil)
            }
            func color(_ x: Int, _ y: Int) -> [UInt8] { Array(image[(y * stride + x * 4)..<(y * stride + x * 4 + 4)]) }
            #expect(color(0, 0) == [229, 229, 229, 255], "B, G, R, A of the light grey inverse cell")
            #expect(color(width - 1, height - 1) == [0, 0, 0, 255], "the margin in the background")
            #expect(color(width, 0) == [0x55, 0x55, 0x55, 0x55], "the stride's padding is left alone")
            var small = [UInt8](repeating: 0, count: cellWidth * 4 * (cellHeight + 3))
            small.withUnsafeMutableBytes { buffer in
                var changed = canvas
                changed.put("x", 0, 1, .plain)
                let damage = renderer.render(
                    changed, into: buffer, width: cellWidth, height: cellHeight + 3, stride: cellWidth * 4,
                    previous: canvas)
                #expect(damage == [cellHeight..<(cellHeight + 3)])
            }
        }

        /// The process's resident memory, from `/proc/self/statm`.
        static func residentBytes() throws -> Int {
            let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
            let pages = try #require(Int(statm.split(separator: " ")[1]))
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }

        @Test("rendering an 80x24 canvas 100 times leaks nothing")
        func noLeaks() throws {
            var first = Canvas(columns: 80, rows: 24)
            var second = Canvas(columns: 80, rows: 24)
            for row in 0..<24 {
                first.text("Row \(row): ┌─┐ The quick brown fox ═══ 😀 jumps", 0, row, row % 2 == 0 ? .plain : .heading)
                second.text(
                    "Row \(row): └─┘ THE LAZY DOG ━━━ sleeps \(row * 7)", 2, row, row % 3 == 0 ? .focused : .group)
            }
            let (width, height) = (80 * renderer.cellSize.width, 24 * renderer.cellSize.height)
            var pixels = [UInt8](repeating: 0, count: width * 4 * height)
            // Cells drawn on the buffer itself too, not only copied from the kept ones.
            let direct = try PixelRenderer(pixelSize: 16)
            direct.cachesCells = false
            func renderLoop(_ count: Int) {
                pixels.withUnsafeMutableBytes { buffer in
                    for index in 0..<count {
                        let (canvas, previous) = index % 2 == 0 ? (first, second) : (second, first)
                        direct.render(
                            canvas, into: buffer, width: width, height: height, stride: width * 4,
                            previous: index % 4 == 0 ? nil : previous)
                        renderer.render(
                            canvas, into: buffer, width: width, height: height, stride: width * 4,
                            previous: index % 4 == 0 ? nil : previous)
                    }
                }
            }
            renderLoop(10)
            let before = try Self.residentBytes()
            renderLoop(100)
            let grown = try Self.residentBytes() - before
            // A layout, surface or context kept per frame or per cell would add megabytes (a layout not
            // released per cell: 58 MB). Under AddressSanitizer freed memory is held in quarantine and
            // under ThreadSanitizer shadowed, so resident memory grows either way: Tools/test's plain run checks.
            let sanitized = ["__asan_init", "__tsan_init"].contains { (name: String) in dlsym(nil, name) != nil }
            #expect(sanitized || grown < 1 << 20, "resident memory grew by \(grown) bytes over 100 frames")
        }
    }
}
