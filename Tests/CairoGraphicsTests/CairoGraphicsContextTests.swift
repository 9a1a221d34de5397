import CCairoGraphics
import PixelCanvas
import ResponderChain
import Testing

@testable import CairoGraphics

@Suite struct CairoGraphicsContextTests {
    let renderer = CairoRenderer()
    let brand = Color(hex: 0x0B5FFF)
    let brandPixel = PixelColor(red: 0x0B, green: 0x5F, blue: 0xFF)

    @Test("a rounded rectangle's corner stays background while its centre and edges are filled")
    func roundedCorner() {
        let image = renderer.image(size: Size(width: 100, height: 100)) { context in
            context.fill(.roundedRect(Rect(x: 10, y: 10, width: 80, height: 80), cornerRadius: 20), brand)
        }
        #expect(image.color(50, 50) == brandPixel)
        #expect(image.color(11, 50) == brandPixel)
        #expect(image.color(50, 88) == brandPixel)
        for (x, y) in [(11, 11), (88, 11), (11, 88), (88, 88), (14, 14)] {
            #expect(image.color(x, y) == .white, "corner pixel \(x),\(y)")
        }
        // Square corners fill there.
        let square = renderer.image(size: Size(width: 100, height: 100)) { context in
            context.fill(.rect(Rect(x: 10, y: 10, width: 80, height: 80)), brand)
        }
        #expect(square.color(11, 11) == brandPixel)
    }

    @Test("a linear gradient's ends differ and its middle is between them")
    func gradient() {
        let rect = Rect(x: 0, y: 0, width: 20, height: 100)
        let image = renderer.image(size: Size(width: 20, height: 100)) { context in
            context.fill(
                .rect(rect),
                with: .linearGradient(.vertical(in: rect, from: Color(hex: 0xFF0000), to: Color(hex: 0x0000FF))))
        }
        let top = image.color(10, 0)
        let middle = image.color(10, 50)
        let bottom = image.color(10, 99)
        #expect(top.red > 245 && top.blue < 10)
        #expect(bottom.blue > 245 && bottom.red < 10)
        #expect(middle.red > 100 && middle.red < 155 && middle.blue > 100 && middle.blue < 155)
        // A stroke takes a gradient too, in user space.
        let stroked = renderer.image(size: Size(width: 100, height: 20)) { context in
            let gradient = LinearGradient(
                from: Point(x: 0, y: 0), to: Point(x: 100, y: 0),
                stops: [.init(0, Color(hex: 0x00FF00)), .init(1, Color(hex: 0xFF00FF))])
            context.stroke(
                .line(from: Point(x: 0, y: 10), to: Point(x: 100, y: 10)), with: .linearGradient(gradient), lineWidth: 4
            )
        }
        #expect(stroked.color(2, 10).green > 240 && stroked.color(97, 10).red > 240)
        #expect(stroked.color(50, 2) == .white)
    }

    @Test("arcs run clockwise on screen, as the core's paths say")
    func arcs() {
        // A half disc from 0 to π: the lower half on screen.
        let image = renderer.image(size: Size(width: 40, height: 40)) { context in
            var path = Path()
            path.arc(center: Point(x: 20, y: 20), radius: 15, startAngle: 0, endAngle: .pi)
            path.close()
            context.fill(path, .black)
        }
        #expect(image.color(20, 30) == PixelColor(red: 0, green: 0, blue: 0))
        #expect(image.color(20, 10) == .white)
    }

    @Test("clip, translate and scale apply to what follows, and restoreState undoes them")
    func stateAndTransforms() {
        let image = renderer.image(size: Size(width: 100, height: 100)) { context in
            context.withSavedState {
                context.translate(x: 50, y: 50)
                context.scale(by: 2)
                context.clip(to: Rect(x: 0, y: 0, width: 10, height: 10))  // 50…70 on screen
                context.fill(.rect(Rect(x: -20, y: -20, width: 100, height: 100)), brand)
            }
            context.fill(.rect(Rect(x: 0, y: 0, width: 5, height: 5)), .black)
        }
        #expect(image.color(60, 60) == brandPixel)
        #expect(image.color(69, 69) == brandPixel)
        #expect(image.color(71, 60) == .white)
        #expect(image.color(49, 60) == .white)
        #expect(image.color(2, 2) == PixelColor(red: 0, green: 0, blue: 0))
    }

    @Test("a scale by zero or a move by infinity hides what follows until the state is restored")
    func degenerateTransforms() {
        let image = renderer.image(size: Size(width: 20, height: 20)) { context in
            context.withSavedState {
                context.scale(by: 0)
                context.fill(.rect(Rect(x: 0, y: 0, width: 20, height: 20)), .black)
            }
            context.withSavedState {
                context.translate(x: .infinity, y: 0)
                context.fill(.rect(Rect(x: 0, y: 0, width: 20, height: 20)), .black)
            }
            context.fill(.rect(Rect(x: 0, y: 0, width: 5, height: 5)), brand)
            context.fill(Path([.move(to: Point(x: .nan, y: 0)), .line(to: Point(x: 10, y: 10))]), .black)
        }
        #expect(image.color(10, 10) == .white)
        #expect(image.color(2, 2) == brandPixel)
    }

    @Test("opacity makes one translucent layer: overlapping shapes inside it do not show through each other")
    func opacityLayer() {
        let image = renderer.image(size: Size(width: 60, height: 20)) { context in
            context.withSavedState {
                context.setOpacity(0.5)
                context.fill(.rect(Rect(x: 0, y: 0, width: 40, height: 20)), .black)
                context.fill(.rect(Rect(x: 20, y: 0, width: 40, height: 20)), .black)
            }
            // After the restore, opaque again.
            context.fill(.rect(Rect(x: 0, y: 18, width: 2, height: 2)), .black)
        }
        let alone = image.color(10, 10)
        let overlap = image.color(30, 10)
        #expect(alone.red > 120 && alone.red < 135)
        #expect(overlap == alone)
        #expect(image.color(1, 19) == PixelColor(red: 0, green: 0, blue: 0))
        let invisible = renderer.image(size: Size(width: 10, height: 10)) { context in
            context.setOpacity(0)
            context.fill(.rect(Rect(x: 0, y: 0, width: 10, height: 10)), .black)
        }
        #expect(invisible.color(5, 5) == .white)
    }

    @Test("what lies wholly outside the clip is skipped: no text laid out, no image decoded, no shadow blurred")
    func clippedOutSkipped() {
        let renderer = CairoRenderer()
        let icon = ImageSource(
            svg: "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10'/></svg>",
            name: "square")
        let image = renderer.image(size: Size(width: 200, height: 160)) { context in
            context.clip(to: Rect(x: 0, y: 0, width: 40, height: 40))
            context.draw(
                "Far away", in: Rect(x: 100, y: 10, width: 90, height: 30),
                style: TextStyle(font: Font(family: "DejaVu Sans", size: 20), color: .black))
            context.draw(icon, in: Rect(x: 100, y: 100, width: 30, height: 30), mode: .fit)
            context.setShadow(Shadow(offset: Point(x: 0, y: 4), radius: 8))
            context.fill(.roundedRect(Rect(x: 80, y: 80, width: 60, height: 40), cornerRadius: 8), brand)
            context.stroke(.rect(Rect(x: 80, y: 130, width: 60, height: 20)), brand, lineWidth: 2)
        }
        #expect(renderer.cacheCounts.layoutsMade == 0)
        #expect(renderer.cacheCounts.decodes == 0)
        #expect(renderer.cacheCounts.shadowMasksMade == 0)
        #expect(image.count { $0 != .white } == 0)
    }

    @Test(
        "what reaches into the clip is drawn (a shadow, text, an image at its edge): the clip's pixels as drawn whole; a mitred corner too",
        arguments: [1.0, 2.0])
    func reachingIntoClipDrawn(scale: Double) {
        let clip = Rect(x: 0, y: 0, width: 40, height: 40)
        let icon = ImageSource(
            svg: "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10'/></svg>",
            name: "square")
        let size = Size(width: 100, height: 80)
        let side = Int(40 * scale)
        func inked(_ image: PixelImage) -> Int {
            var count = 0
            for y in 0..<side {
                for x in 0..<side where image.color(x, y) != .white { count += 1 }
            }
            return count
        }
        func scene(_ context: CairoGraphicsContext) {
            context.draw(
                "Édge", in: Rect(x: 4, y: 39.5, width: 90, height: 30),
                style: TextStyle(font: Font(family: "DejaVu Sans", size: 20), color: .black))
            context.draw(icon, in: Rect(x: 39.75, y: 2, width: 10, height: 10), mode: .fit)
            context.setShadow(Shadow(color: .black, offset: Point(x: -2, y: 0), radius: 6))
            context.fill(.roundedRect(Rect(x: 47, y: 24, width: 30, height: 12), cornerRadius: 3), brand)
        }
        let whole = CairoRenderer().image(size: size, scale: scale) { context in scene(context) }
        let clipped = CairoRenderer().image(size: size, scale: scale) { context in
            context.clip(to: clip)
            scene(context)
        }
        var differing = 0
        for y in 0..<side {
            for x in 0..<side where clipped.color(x, y) != whole.color(x, y) { differing += 1 }
        }
        #expect(differing == 0)
        #expect(inked(clipped) > 10, "the edges reaching in are drawn")
        // A sharp corner's mitre passes its path by four times the half width: its tip is inside the clip.
        let mitred = CairoRenderer().image(size: size, scale: scale) { context in
            context.clip(to: clip)
            var wedge = Path()
            wedge.move(to: Point(x: 60, y: 10))
            wedge.line(to: Point(x: 44, y: 14))
            wedge.line(to: Point(x: 60, y: 18))
            context.stroke(wedge, brand, lineWidth: 4)
        }
        #expect(inked(mitred) > 0)
    }

    @Test("a shadow falls below the shape, fades with distance and stops at its reach")
    func shadow() {
        let tile = Rect(x: 30, y: 30, width: 60, height: 40)
        let shadow = Shadow(color: Color.black.opacity(0.5), offset: Point(x: 0, y: 6), radius: 10)
        let image = renderer.image(size: Size(width: 120, height: 110)) { context in
            context.setShadow(shadow)
            context.fill(.roundedRect(tile, cornerRadius: 8), .white)
        }
        // The tile itself stays white; below it, dark; further, lighter; beyond the reach, untouched.
        #expect(image.color(60, 50) == .white)
        let near = image.color(60, 72)
        let further = image.color(60, 80)
        #expect(near.red < 200)
        #expect(further.red > near.red)
        let reach = shadow.reach
        let beyond = Int(tile.maxY + reach.bottom) + 1
        for y in beyond..<110 { #expect(image.color(60, y) == .white, "row \(y) is beyond the shadow's reach") }
        #expect(image.color(Int(tile.minX - reach.left) - 1, 50) == .white)
        // Shadows need not be under white: an opaque black tile hides its own shadow.
        #expect(renderer.cacheCounts.shadowMasks == 1)
    }

    @Test("a shape's shadow mask is made once and reused at another place and in the next frame")
    func shadowCache() {
        let renderer = CairoRenderer()
        func frame(at x: Double) -> PixelImage {
            renderer.image(size: Size(width: 300, height: 120)) { context in
                context.setShadow(Shadow(offset: Point(x: 0, y: 8), radius: 16))
                context.fill(.roundedRect(Rect(x: x, y: 30, width: 100, height: 60), cornerRadius: 12), brand)
            }
        }
        let first = frame(at: 20)
        #expect(renderer.cacheCounts.shadowMasksMade == 1)
        #expect(frame(at: 20) == first)
        _ = frame(at: 160)  // the next tile of the same size
        #expect(renderer.cacheCounts.shadowMasksMade == 1)
        _ = frame(at: 160.5)  // half a pixel over: another phase
        #expect(renderer.cacheCounts.shadowMasksMade == 2)
    }

    @Test(
        "an opaque fill's shadow is not drawn where the fill covers it: the same pixels as the whole shadow under it",
        arguments: [
            (Rect(x: 30, y: 30, width: 160, height: 90), 14.0, Point(x: 0, y: 10), 22.0, 1.0),
            (Rect(x: 30.3, y: 29.6, width: 151.4, height: 80.2), 20.0, Point(x: 3, y: -4), 8.0, 1.0),
            (Rect(x: 40, y: 40, width: 120, height: 70), 0.0, Point(x: 0, y: 3), 10.0, 1.04),
            (Rect(x: 20.5, y: 20.5, width: 60, height: 60), 30.0, Point(x: 0, y: 2), 6.0, 2.0),
        ])
    func opaqueFillHidesItsShadow(shape: Rect, cornerRadius: Double, offset: Point, radius: Double, scale: Double) {
        let shadow = Shadow(color: Color(hex: 0x0B2A2E, alpha: 0.4), offset: offset, radius: radius)
        let path = Path.roundedRect(shape, cornerRadius: cornerRadius)
        let size = Size(width: 240, height: 160)
        func transform(_ context: CairoGraphicsContext) {
            context.translate(x: shape.midX, y: shape.midY)
            context.scale(by: scale)
            context.translate(x: -shape.midX, y: -shape.midY)
        }
        let renderer = CairoRenderer()
        let hidden = renderer.image(size: size) { context in
            transform(context)
            context.setShadow(shadow)
            context.fill(path, .white)
        }
        // The whole shadow: cast by a fill too faint to show (not opaque), then the opaque fill over it.
        let whole = CairoRenderer().image(size: size) { context in
            transform(context)
            context.withSavedState {
                context.setShadow(shadow)
                context.fill(path, Color.white.opacity(0.001))
            }
            context.fill(path, .white)
        }
        #expect(hidden == whole)
        #expect(hidden.count { $0.red < 250 } > 500, "a shadow is drawn")
    }

    @Test("the whole parts of a rounded rectangle's coverage: all of it but the corners, a pixel in")
    func solidParts() throws {
        let surface = try #require(CairoSurface(format: CAIRO_FORMAT_A8, width: 100, height: 60))
        surface.draw { cairo in
            PathDrawing.add(.roundedRect(Rect(x: 10, y: 10, width: 80, height: 40), cornerRadius: 10), to: cairo)
            cairo_fill(cairo)
        }
        #expect(
            ShadowMask.solidParts(of: surface) == [
                PixelBox(x: 11, y: 21, width: 78, height: 18), PixelBox(x: 21, y: 11, width: 58, height: 38),
            ])
        // A ring has no whole middle: nothing is hidden.
        let ring = try #require(CairoSurface(format: CAIRO_FORMAT_A8, width: 100, height: 60))
        ring.draw { cairo in
            PathDrawing.add(.roundedRect(Rect(x: 10, y: 10, width: 80, height: 40), cornerRadius: 10), to: cairo)
            cairo_set_line_width(cairo, 4)
            cairo_stroke(cairo)
        }
        #expect(ShadowMask.solidParts(of: ring).isEmpty)
    }

    @Test("text and images cast shadows too")
    func otherShadows() throws {
        let image = renderer.image(size: Size(width: 200, height: 80)) { context in
            context.setShadow(Shadow(color: Color(hex: 0xFF0000), offset: Point(x: 4, y: 4), radius: 2))
            context.draw(
                "Shadow", in: Rect(x: 10, y: 10, width: 180, height: 60),
                style: TextStyle(font: Font(family: "DejaVu Sans", size: 40, weight: .bold), color: .black))
        }
        #expect(image.count { $0.red > 150 && $0.green < 120 } > 100)
        // An opaque 2x2 PNG drawn 20 points square casts a square shadow 6 points lower.
        var square = PixelImage(width: 2, height: 2)
        for offset in stride(from: 0, to: square.pixels.count, by: 4) {
            square.pixels[offset..<(offset + 4)] = [0, 0, 0, 255]
        }
        let file = TemporaryFile("shadowed.png")
        defer { file.remove() }
        try square.writePNG(to: file.path)
        let shadowed = renderer.image(size: Size(width: 60, height: 60)) { context in
            context.setShadow(Shadow(color: Color(hex: 0xFF0000), offset: Point(x: 0, y: 6), radius: 1))
            context.draw(ImageSource(file: file.path), in: Rect(x: 20, y: 20, width: 20, height: 20), mode: .stretch)
        }
        #expect(shadowed.color(30, 30) == PixelColor(red: 0, green: 0, blue: 0))
        #expect(shadowed.color(30, 43) == PixelColor(red: 255, green: 0, blue: 0))
        #expect(shadowed.color(30, 50) == .white)
    }
}
