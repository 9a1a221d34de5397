import Benchmark
import PixelCanvas
import TerminalCanvas

/// A kiosk's home screen on an 80x30 canvas (what the kiosk example draws under sway at 800x600): a
/// header, a menu, six tiles in a 3x2 grid with the focused one highlighted, and the status lines.
func kioskScreen(focusedTile: Int) -> Canvas {
    var canvas = Canvas(columns: 80, rows: 30)
    canvas.fill(0, 0, 79, 0, " ", .focused)
    canvas.text(" Riverside Clinic · self-service kiosk", 0, 0, .focused)
    canvas.box(0, 1, 19, 25, .single, .faint)
    canvas.text(" Menu ", 2, 1, .heading)
    canvas.box(20, 1, 79, 25, .heavy, .group)
    for (index, item) in ["Home", "Directory", "Check in"].enumerated() {
        canvas.text((index == 0 ? "▸ " : "  ") + item, 2, 3 + index * 2, .plain, limit: 16)
    }
    for tile in 0..<6 {
        let (x, y) = (22 + (tile % 3) * 19, 3 + (tile / 3) * 6)
        let focused = tile == focusedTile
        canvas.fill(x, y, x + 17, y + 4, " ", focused ? .focused : .plain)
        canvas.box(x, y, x + 17, y + 4, focused ? .double : .single, focused ? .focused : .plain)
        canvas.text("Tile \(tile + 1)", x + 2, y + 1, focused ? .focused : .heading, limit: 14)
        canvas.text("Opens screen \(tile + 1)", x + 2, y + 3, focused ? .focused : .faint, limit: 14)
    }
    canvas.text("focus: tile \(focusedTile + 1) · group: content", 1, 27, .faint)
    canvas.text("Arrows move between tiles; Return opens one.", 1, 28, .faint)
    return canvas
}

let canvasBenchmarks: @Sendable () -> Void = {
    // The two parts of a key's frame under a compositor, apart from Wayland (Tools/wayland-perf measures the
    // whole, key to commit, beside Qt): the app drawing its screen, and the changed cells rendered into pixels.
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(2))

    Benchmark("Canvas: draw a kiosk home screen, 80x30", configuration: configuration) { benchmark in
        for index in benchmark.scaledIterations { blackHole(kioskScreen(focusedTile: index % 6)) }
    }

    Benchmark(
        "Pixels: render a focus move between two tiles, 80x30 at 16 px (cells kept)", configuration: configuration
    ) {
        benchmark in
        let renderer = try PixelRenderer(pixelSize: 16)
        let screens = (0..<2).map { kioskScreen(focusedTile: $0) }
        let (width, height) = (80 * renderer.cellSize.width, 30 * renderer.cellSize.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBytes { buffer in
            renderer.render(screens[0], into: buffer, width: width, height: height, stride: width * 4, previous: nil)
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                blackHole(
                    renderer.render(
                        screens[(index + 1) % 2], into: buffer, width: width, height: height, stride: width * 4,
                        previous: screens[index % 2]))
            }
        }
    }
}
