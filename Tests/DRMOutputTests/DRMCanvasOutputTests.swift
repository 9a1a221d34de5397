import EventLoop
import PixelCanvas
import TerminalCanvas
import Testing

@testable import DRMOutput

/// The canvas output on the core it shares with the node output, on a DRM device in memory: the
/// rows it copies and flips are what they were before the core was shared.
@MainActor
@Suite("DRMCanvasOutput on the shared display core")
struct DRMCanvasOutputTests {
    @Test(
        "the first canvas sets the mode with every row; an equal one shows nothing; each buffer copies the rows it missed"
    )
    func rows() throws {
        let renderer = try PixelRenderer(pixelSize: 16)
        let (cell, rows) = (renderer.cellSize, 6)
        let scanout = MemoryScanout(width: cell.width * 20, height: cell.height * rows)
        var display = DisplayOptions()
        display.followsHotPlug = false
        let loop = try EventLoop()
        let output = try DRMCanvasOutput(
            loop: loop, renderer: renderer, device: scanout, chosen: DisplayCore.choose(on: scanout, options: display),
            seat: nil, options: display)
        var frames: [DisplayFrame] = []
        output.onPresented = { frames.append($0) }
        func completeFlip() {
            scanout.completeFlip()
            output.core.readEvents()
        }
        func screenIsRight(_ canvas: Canvas) throws -> Bool {
            let shown = try #require(scanout.shown)
            let image = renderer.image(of: canvas)
            var words: [UInt32] = []
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let color = image.color(x, y)
                    words.append(UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue))
                }
            }
            return scanout.rgb(of: shown) == words
        }
        var canvas = Canvas(columns: 20, rows: rows)
        canvas.text("Hello", 1, 1, .plain)
        output.show(canvas)
        #expect(scanout.modeSets.count == 1 && frames.count == 1 && frames[0].byModeSet)
        #expect(frames[0].rowsCopied == cell.height * rows)
        #expect(try screenIsRight(canvas))
        output.show(canvas)
        #expect(frames.count == 1 && scanout.flips.isEmpty, "an equal canvas shows nothing")
        canvas.text("X", 2, 3, .heading)
        output.show(canvas)
        completeFlip()
        #expect(frames.count == 2 && frames[1].rowsCopied == cell.height * rows, "the second buffer, never drawn")
        canvas.text("Y", 4, 5, .plain)
        output.show(canvas)
        completeFlip()
        let width = cell.width * 20
        #expect(
            frames[2].rectsCopied == [
                DisplayRect(x: 0, y: 3 * cell.height, width: width, height: cell.height),
                DisplayRect(x: 0, y: 5 * cell.height, width: width, height: cell.height),
            ])
        #expect(frames[2].rowsCopied == 2 * cell.height)
        #expect(try screenIsRight(canvas))
    }
}
