import PixelCanvas
import ResponderChain
import Testing

@testable import CairoGraphics

@Suite struct CairoRendererTests {
    let red = PixelColor(red: 255, green: 0, blue: 0)
    let blue = PixelColor(red: 0, green: 0, blue: 255)

    /// Draws the same small scene: a rounded tile, a circle, an outline.
    func scene(_ context: CairoGraphicsContext) {
        context.fill(.roundedRect(Rect(x: 10, y: 10, width: 60, height: 30), cornerRadius: 8), Color(hex: 0x0B5FFF))
        context.fill(.ellipse(in: Rect(x: 75, y: 12, width: 20, height: 20)), Color(hex: 0xE0301E))
        context.stroke(.rect(Rect(x: 4, y: 44, width: 90, height: 12)), .black, lineWidth: 2)
    }

    @Test(
        "fontconfig read and a font map made on a thread; the next renderer made on that thread shapes with it: fonts and fallbacks as without"
    )
    @MainActor func fontsPrepared() {
        #expect(CairoRenderer.prepareFonts())
        #expect(CairoRenderer.prepareFonts(), "again: harmless")
        let renderer = CairoRenderer()
        #expect(renderer.text.usesPreparedFontMap, "made on the thread that prepared the fonts: it takes their map")
        // Latin, Hebrew and Chinese (the fallback font): every glyph found.
        #expect(renderer.unknownGlyphCount("Welcome שלום 欢迎", style: TextStyle(font: Font(size: 20))) == 0)
        #expect(renderer.text.usesPreparedFontMap)
        let second = CairoRenderer()
        #expect(!second.text.usesPreparedFontMap, "taken: the next renderer makes its own")
        #expect(second.unknownGlyphCount("Welcome שלום 欢迎", style: TextStyle(font: Font(size: 20))) == 0)
    }

    @Test("pixels outside the damaged rectangles keep what they held, those inside are redrawn")
    func damageClips() {
        let renderer = CairoRenderer()
        var image = renderer.image(size: Size(width: 60, height: 40), background: Color(red: 1, green: 0, blue: 0))
        let (width, height, stride) = (image.width, image.height, image.stride)
        image.pixels.withUnsafeMutableBytes { buffer in
            renderer.render(
                into: buffer, width: width, height: height, stride: stride, scale: 1,
                damage: [Rect(x: 10, y: 10, width: 10, height: 10), Rect(x: 40, y: 5, width: 5, height: 30)]
            ) { context in
                // The whole image, but only the damage changes.
                context.fill(.rect(Rect(x: 0, y: 0, width: 60, height: 40)), Color(red: 0, green: 0, blue: 1))
            }
        }
        #expect(image.color(15, 15) == blue)
        #expect(image.color(42, 34) == blue)
        for (x, y) in [(9, 15), (20, 15), (15, 9), (15, 20), (0, 0), (59, 39), (39, 20), (45, 20), (42, 4), (42, 35)] {
            #expect(image.color(x, y) == red, "pixel \(x),\(y) is outside the damage")
        }
    }

    @Test("damage is rounded outward to whole device pixels at a fractional scale")
    func damageRoundsOutward() {
        let renderer = CairoRenderer()
        var image = renderer.image(
            size: Size(width: 40, height: 40), scale: 1.5, background: Color(red: 1, green: 0, blue: 0))
        let (width, height, stride) = (image.width, image.height, image.stride)
        image.pixels.withUnsafeMutableBytes { buffer in
            // 10.2…20.1 points is 15.3…30.15 pixels: pixels 15 to 30 are redrawn, 14 and 31 are not.
            renderer.render(
                into: buffer, width: width, height: height, stride: stride, scale: 1.5,
                damage: [Rect(x: 10.2, y: 10.2, width: 9.9, height: 9.9)], background: Color(red: 0, green: 0, blue: 1)
            ) { _ in }
        }
        #expect(image.color(15, 15) == blue)
        #expect(image.color(30, 30) == blue)
        #expect(image.color(14, 20) == red)
        #expect(image.color(31, 20) == red)
        #expect(image.color(20, 14) == red)
        #expect(image.color(20, 31) == red)
    }

    @Test("no damage draws nothing and does not call the drawing")
    func emptyDamage() {
        let renderer = CairoRenderer()
        var image = PixelImage(width: 8, height: 8)
        var called = false
        let (width, height, stride) = (image.width, image.height, image.stride)
        image.pixels.withUnsafeMutableBytes { buffer in
            for damage in [[], [Rect(x: 20, y: 20, width: 5, height: 5)], [Rect(x: 1, y: 1, width: 0, height: 4)]] {
                renderer.render(
                    into: buffer, width: width, height: height, stride: stride, scale: 1, damage: damage,
                    background: .white
                ) { _ in called = true }
            }
        }
        #expect(!called)
        #expect(image.pixels.allSatisfy { $0 == 0 })
    }

    @Test("scale 2 draws the same picture at twice the pixels", arguments: [2.0, 1.5])
    func scaleDoubles(scale: Double) throws {
        let renderer = CairoRenderer()
        let size = Size(width: 100, height: 60)
        let one = renderer.image(size: size, scale: 1, scene)
        let scaled = renderer.image(size: size, scale: scale, scene)
        #expect(scaled.width == Int((100 * scale).rounded(.up)) && scaled.height == Int((60 * scale).rounded(.up)))
        let inkOne = try #require(one.ink())
        let inkScaled = try #require(scaled.ink())
        // The ink's edges in points agree to within a device pixel at either scale.
        #expect(abs(Double(inkScaled.left) / scale - Double(inkOne.left)) <= 1)
        #expect(abs(Double(inkScaled.top) / scale - Double(inkOne.top)) <= 1)
        #expect(abs(Double(inkScaled.right + 1) / scale - Double(inkOne.right + 1)) <= 1)
        #expect(abs(Double(inkScaled.bottom + 1) / scale - Double(inkOne.bottom + 1)) <= 1)
        guard scale == 2 else { return }
        // Halved, the scale-2 picture is the scale-1 one but for antialiasing at the edges.
        let halved = scaled.halved()
        var total = 0
        var far = 0
        for y in 0..<60 {
            for x in 0..<100 {
                let distance = halved[y][x].distance(to: one.color(x, y))
                total += distance
                if distance > 128 { far += 1 }
            }
        }
        #expect(Double(total) / 6000 < 4, "mean difference \(Double(total) / 6000)")
        #expect(far == 0)
    }

    @Test("an XRGB8888 buffer is drawn opaque, an ARGB8888 one keeps translucency")
    func formats() {
        let renderer = CairoRenderer()
        var argb = [UInt8](repeating: 0, count: 4 * 4 * 4)
        var xrgb = argb
        argb.withUnsafeMutableBytes { buffer in
            renderer.render(into: buffer, width: 4, height: 4, stride: 16, format: .argb8888, scale: 1) { context in
                context.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 4)), Color(red: 0, green: 0, blue: 1, alpha: 0.5))
            }
        }
        xrgb.withUnsafeMutableBytes { buffer in
            renderer.render(into: buffer, width: 4, height: 4, stride: 16, format: .xrgb8888, scale: 1) { context in
                context.fill(.rect(Rect(x: 0, y: 0, width: 4, height: 4)), Color(red: 0, green: 0, blue: 1, alpha: 0.5))
            }
        }
        // Premultiplied: half blue at half alpha is the bytes 128, 0, 0, 128.
        #expect(Array(argb[0..<4]) == [128, 0, 0, 128])
        // Over the buffer's black, opaque: half blue.
        #expect(Array(xrgb[0..<3]) == [128, 0, 0])
        #expect(PixelFormat.argb8888.description == "ARGB8888" && PixelFormat.xrgb8888.description == "XRGB8888")
    }

    @Test("an image is its size times the scale, rounded up, filled with the background")
    func imageSize() {
        let renderer = CairoRenderer()
        let image = renderer.image(size: Size(width: 10.2, height: 3), scale: 2, background: Color(hex: 0x102030))
        #expect(image.width == 21 && image.height == 6)
        #expect(image.color(20, 5) == PixelColor(red: 0x10, green: 0x20, blue: 0x30))
        let clear = renderer.image(size: Size(width: 2, height: 2), background: nil) { _ in }
        #expect(clear.pixels.allSatisfy { $0 == 0 })
    }

    @Test("purging the caches forgets layouts, images and shadows, and the same pixels come back")
    func purge() {
        let renderer = CairoRenderer()
        func draw(_ context: CairoGraphicsContext) {
            context.setShadow(Shadow())
            context.fill(.roundedRect(Rect(x: 10, y: 10, width: 40, height: 20), cornerRadius: 6), .white)
            context.setShadow(nil)
            context.draw(
                "Check in", in: Rect(x: 10, y: 10, width: 40, height: 20), style: TextStyle(font: Font(size: 8)))
        }
        let first = renderer.image(size: Size(width: 60, height: 50), draw)
        #expect(renderer.cacheCounts.layouts > 0 && renderer.cacheCounts.shadowMasks == 1)
        renderer.purgeCaches()
        #expect(renderer.cacheCounts.layouts == 0 && renderer.cacheCounts.shadowMasks == 0)
        #expect(renderer.image(size: Size(width: 60, height: 50), draw) == first)
    }
}
