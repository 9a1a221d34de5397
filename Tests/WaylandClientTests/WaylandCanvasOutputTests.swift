import EventLoop
import PixelCanvas
import ResponderChain
import TerminalCanvas
import TestSupport
import Testing
import WaylandClient

@Suite("WaylandCanvasOutput against sway headless", .serialized)
@MainActor
struct WaylandCanvasOutputTests {
    @Test(
        "on an output of scale 2 the cells are drawn at twice the pixels: the screen is what PixelRenderer draws at scale 2, and positions in points land in the same cells"
    )
    func cellsAtScaleTwo() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        try sway.run(["swaymsg", "output", "HEADLESS-1", "scale", "2"])
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Cells", appID: "rc.cells"))
        let output = WaylandCanvasOutput(window: window, renderer: try PixelRenderer(pixelSize: 16))
        var shown: Canvas?
        var redraws = 0
        func frame() {
            guard let size = output.size else { return }
            var canvas = Canvas(columns: size.columns, rows: size.rows)
            canvas.text("Check in ÅÉ → scale \(window.scale)", 1, 1, CellStyle())
            canvas.box(0, 3, 20, 6, .single, CellStyle())
            output.show(canvas)
            shown = canvas
        }
        output.onResize = {
            redraws += 1
            frame()
        }
        // The first frame goes out at scale 2 already: the surface is on no output until it is shown,
        // and takes the one output's scale until then.
        #expect(
            run(loop, upTo: 5) {
                window.scale == 2 && output.drawingRenderer.scale == 2 && window.framesDone == window.framesCommitted
                    && window.framesDone >= 1 && window.enteredOutputCount == 1
            })
        _ = run(loop, upTo: 0.3) { false }
        let scaled = try PixelRenderer(pixelSize: 16, scale: 2)
        #expect(output.renderer.scale == 1)
        #expect(output.drawingRenderer.cellSize == scaled.cellSize)
        #expect(window.width == 400 && window.bufferWidth == 800)
        let size = try #require(output.size)
        #expect(size.columns == 800 / scaled.cellSize.width && size.rows == 600 / scaled.cellSize.height)
        #expect(redraws >= 2)
        // A position in points (what the pointer gives) is in the cells drawn there.
        let point = output.cellPoint(200, 150)
        #expect(point.x == 400 / Double(scaled.cellSize.width) && point.y == 300 / Double(scaled.cellSize.height))
        #expect(output.windowPoint(x: 200, y: 150) == point)
        let canvas = try #require(shown)
        let image = scaled.image(of: canvas)
        let shot = try sway.screenshot()
        try #require(shot.width == 800 && shot.height == 600)
        var misses = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let color = image.color(x, y)
                if shot.pixel(x, y) != [color.red, color.green, color.blue] { misses += 1 }
            }
        }
        #expect(misses == 0, "\(misses) of \(image.width * image.height) pixels differ from PixelRenderer at scale 2")
    }
}
