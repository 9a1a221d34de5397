import PixelCanvas
import ResponderChain
import Testing

@testable import CairoGraphics

@Suite struct ShapeMasksTests {
    /// What a kiosk draws of a rounded rectangle, as its widgets do: the fill, the 1-point outline half
    /// a point in, a 3-point focused outline, and a 4-point ring outside it; `only` draws one of them.
    static func drawWidget(
        _ rect: Rect, cornerRadius: Double, color: Color, only: Int? = nil, in context: CairoGraphicsContext
    ) {
        if only ?? 0 == 0 { context.fill(.roundedRect(rect, cornerRadius: cornerRadius), color) }
        if only ?? 1 == 1 {
            context.stroke(
                .roundedRect(rect.insetBy(dx: 0.5, dy: 0.5), cornerRadius: cornerRadius),
                color.mixed(with: .black, by: 0.4), lineWidth: 1)
        }
        if only ?? 2 == 2 {
            context.stroke(
                .roundedRect(rect.insetBy(dx: 1.5, dy: 1.5), cornerRadius: max(0, cornerRadius - 1.5)),
                color.mixed(with: .white, by: 0.3), lineWidth: 3)
        }
        if only ?? 3 == 3 {
            context.stroke(
                .roundedRect(rect.insetBy(dx: -5, dy: -5), cornerRadius: cornerRadius + 5),
                color.mixed(with: Color(hex: 0xC0392B), by: 0.5), lineWidth: 4)
        }
    }

    /// Each of the widget's shapes drawn alone (then all four, one over the other) through kept masks
    /// and by Cairo alone, over a gradient (so that each edge pixel blends with a colour of its own),
    /// opaque and translucent, under a scale, a lift about its middle and an optional clip (the damage
    /// of a frame). Each list: the four shapes alone opaque, then translucent, then the whole widget
    /// opaque and translucent.
    static func bothWays(
        _ rect: Rect, cornerRadius: Double, scale: Double = 1, lift: Double = 1, clip: [Rect]? = nil,
        size: Size = Size(width: 260, height: 200), renderer: CairoRenderer = CairoRenderer()
    ) -> (masked: [PixelImage], cairo: [PixelImage]) {
        func images(masks: Bool) -> [PixelImage] {
            let direct = CairoRenderer()
            let drawing = masks ? renderer : direct
            drawing.shapes.drawsFromMasks = masks
            let colors = [Color(hex: 0x0E7C7B), Color(hex: 0x2F64C8).opacity(0.3)]
            let drawings = colors.flatMap { color in (0..<4).map { (color, Optional($0)) } } + colors.map { ($0, nil) }
            return drawings.map { color, only in
                drawing.image(size: size, scale: scale) { context in
                    let whole = Rect(x: 0, y: 0, width: size.width, height: size.height)
                    context.fill(
                        .rect(whole),
                        with: .linearGradient(
                            LinearGradient(
                                from: Point(x: 0, y: 0), to: Point(x: size.width, y: size.height),
                                stops: [.init(0, Color(hex: 0xEEF3F3)), .init(1, Color(hex: 0x402030))])))
                    if let clip { context.clip(to: clip) }
                    context.translate(x: rect.midX, y: rect.midY)
                    context.scale(by: lift)
                    context.translate(x: -rect.midX, y: -rect.midY)
                    drawWidget(rect, cornerRadius: cornerRadius, color: color, only: only, in: context)
                }
            }
        }
        return (images(masks: true), images(masks: false))
    }

    /// Checks the images of ``bothWays(_:cornerRadius:scale:lift:clip:size:renderer:)``: a shape alone
    /// within two levels of Cairo's where opaque (Cairo rounds each of its two products, colour by
    /// coverage and background by the rest, with a bias of 127 where pixman rounds with 128), on its
    /// antialiased edge alone; the widget, three shapes over an edge pixel, within two levels each;
    /// translucent, the same bytes.
    static func expectCairosPixels(
        _ drawn: (masked: [PixelImage], cairo: [PixelImage]), sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let area = drawn.cairo[0].width * drawn.cairo[0].height
        for index in 0..<4 {
            let opaque = difference(drawn.masked[index], drawn.cairo[index])
            #expect(opaque.largest <= 2, "shape \(index)", sourceLocation: sourceLocation)
            #expect(opaque.pixels * 50 < area, "edges only: \(opaque.pixels)", sourceLocation: sourceLocation)
            #expect(
                difference(drawn.masked[4 + index], drawn.cairo[4 + index]).largest == 0, "shape \(index)",
                sourceLocation: sourceLocation)
        }
        // The fill and both outlines over one edge pixel: two levels each.
        #expect(difference(drawn.masked[8], drawn.cairo[8]).largest <= 6, sourceLocation: sourceLocation)
        #expect(difference(drawn.masked[9], drawn.cairo[9]).largest == 0, sourceLocation: sourceLocation)
    }

    /// The largest difference in a channel between two images of one size, and how many pixels differ.
    static func difference(_ first: PixelImage, _ second: PixelImage) -> (largest: Int, pixels: Int) {
        var (largest, pixels) = (0, 0)
        for y in 0..<first.height {
            for x in 0..<first.width {
                let distance = first.color(x, y).distance(to: second.color(x, y))
                largest = max(largest, distance)
                if distance > 0 { pixels += 1 }
            }
        }
        return (largest, pixels)
    }

    @Test(
        "a rounded rectangle's fill and outlines drawn through kept masks: Cairo's pixels, within a level where opaque",
        arguments: [
            // A tile, its plate, a key, a navigation button, at whole, half and odd fractions of a pixel.
            (Rect(x: 40, y: 20, width: 167, height: 150), 20.0, 1.0, 1.0),
            (Rect(x: 60, y: 60, width: 57, height: 57), 15.96, 1.0, 1.0),
            (Rect(x: 30.3, y: 29.6, width: 181.4, height: 100.2), 20.0, 1.0, 1.0),
            (Rect(x: 40.25, y: 40.75, width: 33, height: 24), 7.0, 1.0, 1.0),
            (Rect(x: 27, y: 35, width: 190, height: 51), 12.0, 1.0, 1.0),
            // A pill (the radius half the height) and nearly a circle (a straight part of 2 points).
            (Rect(x: 20.5, y: 70.5, width: 210, height: 30), 15.0, 1.0, 1.0),
            (Rect(x: 80.7, y: 50.2, width: 60, height: 60), 29.0, 1.0, 1.0),
            // A HiDPI screen, a fractional one, the tiles' lift.
            (Rect(x: 20.5, y: 20.5, width: 150, height: 120), 30.0, 2.0, 1.0),
            (Rect(x: 33.1, y: 31.7, width: 170.3, height: 96.9), 12.0, 1.5, 1.0),
            (Rect(x: 40, y: 30, width: 167, height: 130), 20.0, 1.0, 1.04),
            (Rect(x: 40.4, y: 39.3, width: 161, height: 88), 16.0, 2.0, 1.06),
        ])
    func sameAsCairo(rect: Rect, cornerRadius: Double, scale: Double, lift: Double) {
        let renderer = CairoRenderer()
        let drawn = Self.bothWays(rect, cornerRadius: cornerRadius, scale: scale, lift: lift, renderer: renderer)
        Self.expectCairosPixels(drawn)
        // Four shapes, each its own mask, drawn alone and together, opaque and translucent, from the same masks.
        #expect(renderer.cacheCounts.shapeMasksMade == 4)
        #expect(renderer.cacheCounts.shapeMasks == 4)
    }

    @Test(
        "under a frame's damage: the clipped shape is Cairo's pixels inside the clip and untouched outside",
        arguments: [1.0, 2.0])
    func clipped(scale: Double) {
        let rect = Rect(x: 30.5, y: 25, width: 180, height: 140)
        // Across a corner, through the straight middle, and a sliver along one side.
        let clip = [
            Rect(x: 10, y: 10, width: 45, height: 38), Rect(x: 90, y: 70, width: 60.5, height: 30),
            Rect(x: 200, y: 40, width: 30, height: 100),
        ]
        let drawn = Self.bothWays(rect, cornerRadius: 22, scale: scale, clip: clip)
        Self.expectCairosPixels(drawn)
        // Inside the shape but outside the damage: the gradient, not the fill; inside both: the fill.
        let fill = PixelColor(red: 0x0E, green: 0x7C, blue: 0x7B)
        #expect(drawn.masked[8].color(Int(120 * scale), Int(150 * scale)).distance(to: fill) > 40)
        #expect(drawn.masked[8].color(Int(120 * scale), Int(85 * scale)) == fill)
    }

    @Test(
        "a damage across the top or bottom edge alone (a lifted tile's shadow on the tile below): the straight edge between the corners is filled too",
        arguments: [1.0, 2.0], [true, false])
    func clippedToAnEdge(scale: Double, top: Bool) {
        let rect = Rect(x: 30.5, y: 25, width: 180, height: 140)
        // The clip holds the top 8 points or the bottom 6, none of the rows between the corners: the
        // columns between the corners were left unfilled there (the kiosk's lower tiles on the display).
        let clip = top ? Rect(x: 0, y: 20, width: 260, height: 13) : Rect(x: 0, y: 159, width: 260, height: 20)
        let drawn = Self.bothWays(rect, cornerRadius: 22, scale: scale, clip: [clip])
        Self.expectCairosPixels(drawn)
        let fill = PixelColor(red: 0x0E, green: 0x7C, blue: 0x7B)
        #expect(drawn.masked[8].color(Int(120 * scale), Int((top ? 30 : 160) * scale)) == fill)
    }

    @Test("inside a translucent layer (opacity): the same pixels as Cairo's")
    func insideLayer() {
        func image(masks: Bool) -> PixelImage {
            let renderer = CairoRenderer()
            renderer.shapes.drawsFromMasks = masks
            return renderer.image(size: Size(width: 200, height: 160)) { context in
                context.fill(.rect(Rect(x: 0, y: 0, width: 100, height: 160)), .black)
                context.clip(to: Rect(x: 10.5, y: 10, width: 170, height: 125))
                context.setOpacity(0.6)
                Self.drawWidget(
                    Rect(x: 20.3, y: 20.6, width: 150, height: 100), cornerRadius: 18, color: Color(hex: 0xD1460F),
                    in: context)
            }
        }
        #expect(Self.difference(image(masks: true), image(masks: false)).largest <= 6)
    }

    @Test("a shape of another length or at another whole pixel reuses the kept mask; a new phase or scale makes one")
    func reuse() {
        let renderer = CairoRenderer()
        func draw(_ rect: Rect, scale: Double = 1) {
            _ = renderer.image(size: Size(width: 400, height: 300), scale: scale) { context in
                context.fill(.roundedRect(rect, cornerRadius: 20), .white)
            }
        }
        draw(Rect(x: 20, y: 20, width: 167, height: 190))
        #expect(renderer.cacheCounts.shapeMasksMade == 1)
        draw(Rect(x: 210, y: 40, width: 167, height: 190))
        draw(Rect(x: 30, y: 10, width: 300, height: 120))
        #expect(renderer.cacheCounts.shapeMasksMade == 1, "moved by whole pixels, and longer: the same corners")
        draw(Rect(x: 20.5, y: 20, width: 167, height: 190))
        #expect(renderer.cacheCounts.shapeMasksMade == 2, "half a pixel on")
        draw(Rect(x: 20, y: 20, width: 167, height: 120), scale: 2)
        #expect(renderer.cacheCounts.shapeMasksMade == 3, "another scale")
        renderer.purgeCaches()
        #expect(renderer.cacheCounts.shapeMasks == 0)
    }

    @Test("a short shape's mask, made first, is stretched for a longer one of the same corners")
    func shortFirst() {
        // A 22x20-point key is the short shape of the longer keys and the 300-point bar (its corners and a
        // column between them, nothing to cut down): its mask is made first, without a cut, then found
        // for the others.
        let renderer = CairoRenderer()
        func image(masks: Bool) -> PixelImage {
            let drawing = masks ? renderer : CairoRenderer()
            drawing.shapes.drawsFromMasks = masks
            return drawing.image(size: Size(width: 360, height: 200)) { context in
                for (index, width) in [22.0, 40.0, 300.0, 23.0, 29.0].enumerated() {
                    let rect = Rect(x: 20.5, y: 10.5 + 26 * Double(index), width: width, height: 20)
                    context.fill(.roundedRect(rect, cornerRadius: 8), Color(hex: 0x0E7C7B))
                    context.stroke(.roundedRect(rect.insetBy(dx: 0.5, dy: 0.5), cornerRadius: 8), .black, lineWidth: 1)
                }
            }
        }
        let masked = image(masks: true)
        #expect(Self.difference(masked, image(masks: false)).largest <= 2)
        #expect(renderer.cacheCounts.shapeMasksMade == 2, "one fill and one outline for all five")
    }

    @Test("a 700x420 card keeps its corners' pixels, not its area")
    func largeCard() {
        let renderer = CairoRenderer()
        let rect = Rect(x: 40.3, y: 40.6, width: 700, height: 420)
        let drawn = Self.bothWays(rect, cornerRadius: 24, size: Size(width: 800, height: 520), renderer: renderer)
        Self.expectCairosPixels(drawn)
        #expect(renderer.cacheCounts.shapeMasks == 4)
        #expect(renderer.cacheCounts.shapeMaskBytes < 4 * 70 * 70, "not 4 x 300 kB")
    }

    @Test("the kept masks are bounded: a thousand shapes of different corners keep at most the limit")
    func bounded() {
        let renderer = CairoRenderer()
        _ = renderer.image(size: Size(width: 400, height: 400)) { context in
            for index in 0..<1000 {
                let radius = 10 + Double(index % 50)
                let x = 10 + Double(index / 50) * 0.05
                context.fill(.roundedRect(Rect(x: x, y: 10, width: 300, height: 300), cornerRadius: radius), .white)
            }
        }
        #expect(renderer.cacheCounts.shapeMasksMade == 1000)
        #expect(renderer.cacheCounts.shapeMaskBytes <= ShapeStore.byteLimit)
        #expect(renderer.cacheCounts.shapeMasks < 1000)
    }

    @Test("a circle too large to keep, a gradient, a skewed or mirrored transform: drawn by Cairo, no mask kept")
    func notKept() {
        let renderer = CairoRenderer()
        _ = renderer.image(size: Size(width: 700, height: 700)) { context in
            context.fill(.roundedRect(Rect(x: 10, y: 10, width: 600, height: 600), cornerRadius: 300), .black)
            context.fill(
                .roundedRect(Rect(x: 10, y: 10, width: 100, height: 60), cornerRadius: 10),
                with: .linearGradient(
                    LinearGradient(
                        from: Point(x: 0, y: 0), to: Point(x: 100, y: 0),
                        stops: [.init(0, .black), .init(1, .white)])))
            context.fill(.ellipse(in: Rect(x: 10, y: 10, width: 100, height: 60)), .black)
            context.fill(.rect(Rect(x: 10.5, y: 10, width: 100, height: 60)), .black)
            context.translate(x: 300, y: 300)
            context.scale(by: -1)
            context.fill(.roundedRect(Rect(x: 10, y: 10, width: 100, height: 60), cornerRadius: 10), .black)
        }
        #expect(renderer.cacheCounts.shapeMasksMade == 0)
    }
}
