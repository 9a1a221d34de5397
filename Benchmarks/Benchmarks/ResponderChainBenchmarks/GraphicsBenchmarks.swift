import Benchmark
import CairoGraphics
import ResponderChain

/// A kiosk tile as a view draws it: a rounded, gradient-filled card with a title and a subtitle, lifted
/// with a shadow when focused (tvOS's focus effect).
func drawTile(_ context: CairoGraphicsContext, frame: Rect, focused: Bool) {
    context.withSavedState {
        if focused {
            context.translate(x: frame.midX, y: frame.midY)
            context.scale(by: 1.06)
            context.translate(x: -frame.midX, y: -frame.midY)
            context.setShadow(Shadow(offset: Point(x: 0, y: 8), radius: 16))
        }
        let card = Path.roundedRect(frame, cornerRadius: 16)
        context.fill(
            card, with: .linearGradient(.vertical(in: frame, from: Color(hex: 0x3D7BFF), to: Color(hex: 0x0B3FBF))))
        context.setShadow(nil)
        let text = frame.insetBy(dx: 16, dy: 12)
        context.draw(
            "Check in", in: text,
            style: TextStyle(font: Font(size: 28, weight: .bold), color: .white, verticalAlignment: .top))
        context.draw(
            "Scan your appointment letter", in: text,
            style: TextStyle(font: Font(size: 16), color: .white, verticalAlignment: .bottom))
    }
}

let graphicsBenchmarks: @Sendable () -> Void = {
    // What a view costs to redraw on Cairo and Pango: a label (its layout kept, or shaped each time), a 200x120
    // tile with two labels at scale 1 and 2, and the focused tile's lifted shadow (its mask kept, or blurred each
    // time). Each frame redraws the tile's damage in a 1280x800 buffer.
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one, maxDuration: .seconds(1))
    let tile = Rect(x: 100, y: 100, width: 200, height: 120)

    func frames(
        _ benchmark: Benchmark, renderer: CairoRenderer, scale: Double, damage: Rect,
        _ draw: @escaping (CairoGraphicsContext) -> Void
    ) {
        let (width, height) = (Int(1280 * scale), Int(800 * scale))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBytes { buffer in
            func frame() {
                renderer.render(
                    into: buffer, width: width, height: height, stride: width * 4, scale: scale, damage: [damage],
                    background: Color(hex: 0xEEF1F5), draw)
            }
            frame()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { frame() }
            benchmark.stopMeasurement()
        }
    }

    for (name, limits) in [
        ("kept", CairoRenderer.Limits()), ("shaped each time", CairoRenderer.Limits(textLayouts: 0)),
    ] {
        Benchmark("Graphics: a label drawn, its layout \(name)", configuration: configuration) { benchmark in
            let label = Rect(x: 100, y: 100, width: 300, height: 40)
            frames(benchmark, renderer: CairoRenderer(limits: limits), scale: 1, damage: label) { context in
                context.draw(
                    "Riverside Community Clinic", in: label, style: TextStyle(font: Font(size: 24), color: .black))
            }
        }
    }

    for scale in [1.0, 2.0] {
        Benchmark("Graphics: a 200x120 tile with two labels redrawn, scale \(Int(scale))", configuration: configuration)
        {
            benchmark in
            frames(benchmark, renderer: CairoRenderer(), scale: scale, damage: tile) { context in
                drawTile(context, frame: tile, focused: false)
            }
        }
    }

    let lifted = tile.insetBy(dx: -30, dy: -30)
    for (name, limits) in [
        ("kept", CairoRenderer.Limits()), ("blurred each time", CairoRenderer.Limits(shadowBytes: 0)),
    ] {
        for scale in [1.0, 2.0] {
            Benchmark(
                "Graphics: the tile lifted with its shadow, the mask \(name), scale \(Int(scale))",
                configuration: configuration
            ) { benchmark in
                frames(benchmark, renderer: CairoRenderer(limits: limits), scale: scale, damage: lifted) { context in
                    drawTile(context, frame: tile, focused: true)
                }
            }
        }
    }
}
