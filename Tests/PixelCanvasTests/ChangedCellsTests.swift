import TerminalCanvas
import Testing

@testable import PixelCanvas

extension PixelCanvasTests {
    /// Only the cells that changed are drawn again: a key that moves a highlight redraws a few
    /// cells, not every row it touches.
    @Suite struct ChangedCellsTests {
        let renderer: PixelRenderer

        init() throws {
            renderer = try PixelRenderer(pixelSize: 16)
        }

        func render(_ canvas: Canvas, into pixels: inout [UInt8], previous: Canvas?) -> [Range<Int>] {
            let (width, height) = (canvas.columns * renderer.cellSize.width, canvas.rows * renderer.cellSize.height)
            return pixels.withUnsafeMutableBytes { buffer in
                renderer.render(
                    canvas, into: buffer, width: width, height: height, stride: width * 4, previous: previous)
            }
        }

        @Test("in a changed row, cells that did not change are not drawn again; the changed one is drawn right")
        func unchangedCellsStay() throws {
            var first = Canvas(columns: 10, rows: 2)
            first.text("abcdefghij", 0, 0, CellStyle())
            var pixels = [UInt8](repeating: 0, count: 10 * renderer.cellSize.width * 4 * 2 * renderer.cellSize.height)
            _ = render(first, into: &pixels, previous: nil)
            // A mark in cell 8 of row 0 that a redraw of that cell would paint over.
            let stride = 10 * renderer.cellSize.width * 4
            let markOffset = 2 * stride + (8 * renderer.cellSize.width + 1) * 4
            pixels[markOffset] = 0x12
            pixels[markOffset + 1] = 0x34
            pixels[markOffset + 2] = 0x56
            var second = first
            second.text("X", 2, 0, CellStyle())
            let damage = render(second, into: &pixels, previous: first)
            #expect(damage == [0..<renderer.cellSize.height], "the row is damaged")
            #expect(Array(pixels[markOffset..<markOffset + 3]) == [0x12, 0x34, 0x56], "cell 8 was drawn again")
            var fresh = [UInt8](repeating: 0, count: pixels.count)
            _ = render(second, into: &fresh, previous: nil)
            let cellWidth = renderer.cellSize.width
            for y in 0..<renderer.cellSize.height {
                let start = y * stride + 2 * cellWidth * 4
                #expect(
                    pixels[start..<start + cellWidth * 4] == fresh[start..<start + cellWidth * 4],
                    "cell 2, pixel row \(y), is what a full render draws")
            }
        }

        @Test(
            "a wide character replaced by narrow ones, and back, leaves no half glyph: the same pixels as a full render"
        )
        func wideCharacters() throws {
            var wide = Canvas(columns: 6, rows: 1)
            wide.text("a中b", 0, 0, CellStyle())
            var narrow = Canvas(columns: 6, rows: 1)
            narrow.text("ax b", 0, 0, CellStyle())
            for (from, to) in [(wide, narrow), (narrow, wide)] {
                var pixels = [UInt8](repeating: 0, count: 6 * renderer.cellSize.width * 4 * renderer.cellSize.height)
                _ = render(from, into: &pixels, previous: nil)
                _ = render(to, into: &pixels, previous: from)
                var fresh = [UInt8](repeating: 0, count: pixels.count)
                _ = render(to, into: &fresh, previous: nil)
                #expect(pixels == fresh)
            }
        }

        @Test(
            "cells copied from the kept pixels are exactly what drawing each one with Cairo gives: every style, wide characters, clusters, a buffer that clips the last row and column, and a frame changed from another"
        )
        func keptCellsMatchDrawnCells() throws {
            var first = Canvas(columns: 12, rows: 4)
            first.box(0, 0, 11, 3, .double, .focused)
            first.text("Ab中 é", 1, 1, .heading)
            first.text("x\u{301}🇩🇪·", 1, 2, .selected)
            first.text("dim", 8, 1, .faint)
            var second = first
            second.box(0, 0, 11, 3, .heavy, .group)
            second.text("😀ñ", 6, 2, .overlay)
            second.text("▸ Zz", 2, 1, .firstResponder)
            // One column and a few pixel rows short: the last cells are clipped.
            let (width, height) = (12 * renderer.cellSize.width - 4, 4 * renderer.cellSize.height - 3)
            let direct = try PixelRenderer(pixelSize: 16)
            direct.cachesCells = false
            for (from, to) in [(nil, first), (first, second), (second, first)] {
                var kept = [UInt8](repeating: 0, count: width * 4 * height)
                var drawn = kept
                for (canvas, previous) in [(from, nil), (to, from)] {
                    guard let canvas else { continue }
                    kept.withUnsafeMutableBytes {
                        _ = renderer.render(
                            canvas, into: $0, width: width, height: height, stride: width * 4, previous: previous)
                    }
                    drawn.withUnsafeMutableBytes {
                        _ = direct.render(
                            canvas, into: $0, width: width, height: height, stride: width * 4, previous: previous)
                    }
                }
                #expect(kept == drawn)
                #expect(kept.contains { $0 != 0 })
            }
        }
    }
}
