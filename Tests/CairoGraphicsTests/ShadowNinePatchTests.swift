import CCairoGraphics
import PixelCanvas
import ResponderChain
import Testing

@testable import CairoGraphics

@Suite struct ShadowNinePatchTests {
    /// A rounded rectangle's shadow drawn cut (a short mask stretched) and whole (the whole mask
    /// blurred), with the shadow black and opaque so that each level of the mask is a level of the
    /// pixels: a translucent fill shows all of the shadow, an opaque one hides its middle.
    static func bothWays(
        _ rect: Rect, cornerRadius: Double, shadow: Shadow, scale: Double = 1, lift: Double = 1,
        size: Size = Size(width: 260, height: 180), path: Path? = nil
    ) -> (cut: [PixelImage], whole: [PixelImage], cutMasks: CacheCounts, wholeMasks: CacheCounts) {
        let shape = path ?? Path.roundedRect(rect, cornerRadius: cornerRadius)
        func images(cutting: Bool) -> ([PixelImage], CacheCounts) {
            let renderer = CairoRenderer()
            renderer.shadows.cutsRoundedRectangles = cutting
            let drawn = [Color.white.opacity(0.2), Color.white].map { fill in
                renderer.image(size: size, scale: scale) { context in
                    context.translate(x: rect.midX, y: rect.midY)
                    context.scale(by: lift)
                    context.translate(x: -rect.midX, y: -rect.midY)
                    context.setShadow(shadow)
                    context.fill(shape, fill)
                }
            }
            return (drawn, renderer.cacheCounts)
        }
        let (cut, cutMasks) = images(cutting: true)
        let (whole, wholeMasks) = images(cutting: false)
        return (cut, whole, cutMasks, wholeMasks)
    }

    /// The largest difference in a channel between two images of one size.
    static func largestDifference(_ first: PixelImage, _ second: PixelImage) -> Int {
        var largest = 0
        for y in 0..<first.height {
            for x in 0..<first.width { largest = max(largest, first.color(x, y).distance(to: second.color(x, y))) }
        }
        return largest
    }

    @Test(
        "a rounded rectangle's shadow cut as a nine-patch: the pixels of the whole mask blurred, within a level",
        arguments: [
            (Rect(x: 30, y: 30, width: 190, height: 110), 14.0, Point(x: 0, y: 10), 22.0, 1.0, 1.0),
            (Rect(x: 30.3, y: 29.6, width: 181.4, height: 100.2), 20.0, Point(x: 3, y: -4), 8.0, 1.0, 1.0),
            (Rect(x: 40.25, y: 40.75, width: 170, height: 90), 0.0, Point(x: 0, y: 3), 10.0, 1.0, 1.0),
            (Rect(x: 20.5, y: 20.5, width: 150, height: 120), 30.0, Point(x: 0, y: 2), 6.0, 2.0, 1.0),
            (Rect(x: 33.1, y: 31.7, width: 170.3, height: 96.9), 12.0, Point(x: 0, y: 8), 16.0, 2.0, 1.0),
            (Rect(x: 40, y: 40, width: 160, height: 90), 16.0, Point(x: 0, y: 6), 12.0, 1.0, 1.04),
            (Rect(x: 40.4, y: 39.3, width: 161, height: 88), 16.0, Point(x: 0, y: 6), 12.0, 1.0, 1.06),
            (Rect(x: 40, y: 40, width: 160, height: 90), 16.0, Point(x: 0, y: 6), 12.0, 2.0, 1.05),
            (Rect(x: 25, y: 60, width: 210, height: 30), 15.0, Point(x: 0.5, y: 1.5), 4.0, 1.0, 1.0),
            (Rect(x: 60, y: 20, width: 36, height: 140), 8.0, Point(x: -2, y: 4), 5.0, 1.0, 1.0),
        ])
    func sameAsWhole(
        rect: Rect, cornerRadius: Double, offset: Point, radius: Double, scale: Double, lift: Double
    ) throws {
        let shadow = Shadow(color: .black, offset: offset, radius: radius)
        let drawn = Self.bothWays(rect, cornerRadius: cornerRadius, shadow: shadow, scale: scale, lift: lift)
        for (cut, whole) in zip(drawn.cut, drawn.whole) {
            #expect(Self.largestDifference(cut, whole) <= 1)
            #expect(whole.count { $0.red < 200 } > 500, "a shadow is drawn")
        }
        // The cut mask is smaller: its corners and the blur's support, not the shape's area.
        #expect(drawn.cutMasks.shadowMasksMade == 1)
        #expect(drawn.cutMasks.shadowMaskBytes < drawn.wholeMasks.shadowMaskBytes)
    }

    @Test(
        "a large card's shadow, stretched part by part: the pixels of the whole mask blurred",
        arguments: [(1.0, 1.0), (1.0, 1.05), (2.0, 1.0)])
    func largeCardSameAsWhole(scale: Double, lift: Double) {
        let shadow = Shadow(color: .black, offset: Point(x: 0, y: 8), radius: 24)
        let rect = Rect(x: 40.3, y: 40.6, width: 700, height: 420)
        let drawn = Self.bothWays(
            rect, cornerRadius: 20, shadow: shadow, scale: scale, lift: lift, size: Size(width: 800, height: 520))
        for (cut, whole) in zip(drawn.cut, drawn.whole) {
            #expect(Self.largestDifference(cut, whole) <= 1)
        }
        #expect(drawn.cutMasks.shadowMaskBytes * 10 < drawn.wholeMasks.shadowMaskBytes)
    }

    @Test("just below the threshold the whole mask is blurred; just above it is cut, and both are the same pixels")
    func threshold() throws {
        let (cornerRadius, radius, height) = (12.0, 10.0, 150.0)
        let reach = ShadowBlur.reach(sigma: radius / 2)
        var matrix = cairo_matrix_t()
        cairo_matrix_init_identity(&matrix)
        func cut(_ width: Double) -> Int {
            ShadowNinePatch.plan(
                for: .roundedRect(Rect(x: 0, y: 0, width: width, height: 30), cornerRadius: cornerRadius),
                matrix: matrix, reach: reach)?.cutX ?? 0
        }
        let first = try #require((20...200).first { cut(Double($0)) > 0 })
        #expect(cut(Double(first - 1)) == 0)
        #expect(cut(Double(first)) == 1)
        #expect(cut(Double(first + 1)) == 2)
        let shadow = Shadow(color: .black, offset: Point(x: 0, y: 4), radius: radius)
        for width in [first - 1, first, first + 1] {
            let rect = Rect(x: 30, y: 20, width: Double(width), height: 30)
            let drawn = Self.bothWays(
                rect, cornerRadius: cornerRadius, shadow: shadow, size: Size(width: Double(width) + 60, height: 80))
            for (cut, whole) in zip(drawn.cut, drawn.whole) { #expect(Self.largestDifference(cut, whole) <= 1) }
            // Below the threshold (and across, where 30 points is short) nothing is cut: the same mask.
            if width < first { #expect(drawn.cutMasks.shadowMaskBytes == drawn.wholeMasks.shadowMaskBytes) }
        }
        // A tall shape of that width is cut down only.
        let tall = Self.bothWays(
            Rect(x: 30, y: 20, width: Double(first - 1), height: height), cornerRadius: cornerRadius,
            shadow: shadow, size: Size(width: Double(first) + 60, height: height + 50))
        for (cut, whole) in zip(tall.cut, tall.whole) { #expect(Self.largestDifference(cut, whole) <= 1) }
        #expect(tall.cutMasks.shadowMaskBytes < tall.wholeMasks.shadowMaskBytes)
    }

    @Test("a 1500x900 card's shadow keeps a mask of its corners, and tiles of other lengths share one")
    func largeCard() throws {
        let renderer = CairoRenderer()
        let shadow = Shadow(color: Color.black.opacity(0.3), offset: Point(x: 0, y: 8), radius: 24)
        _ = renderer.image(size: Size(width: 1560, height: 960)) { context in
            context.setShadow(shadow)
            context.fill(.roundedRect(Rect(x: 30, y: 30, width: 1500, height: 900), cornerRadius: 20), .white)
        }
        #expect(renderer.cacheCounts.shadowMasksMade == 1)
        #expect(renderer.cacheCounts.shadowMaskBytes < 200 * 200, "not 1.4 MB")
        _ = renderer.image(size: Size(width: 1560, height: 960)) { context in
            context.setShadow(shadow)
            context.fill(.roundedRect(Rect(x: 30, y: 30, width: 700, height: 400), cornerRadius: 20), .white)
        }
        #expect(renderer.cacheCounts.shadowMasksMade == 1)
    }

    @Test("only rounded and plain rectangles are cut: an ellipse, a stroke, a skewed transform keep the whole mask")
    func otherShapes() {
        let rect = Rect(x: 40, y: 40, width: 180, height: 100)
        #expect(ShadowNinePatch.cornerRadius(ofRoundedRect: .roundedRect(rect, cornerRadius: 10)) == 10)
        #expect(ShadowNinePatch.cornerRadius(ofRoundedRect: .rect(rect)) == 0)
        #expect(ShadowNinePatch.cornerRadius(ofRoundedRect: .ellipse(in: rect)) == nil)
        #expect(
            ShadowNinePatch.cornerRadius(ofRoundedRect: .line(from: Point(x: 0, y: 0), to: Point(x: 4, y: 4))) == nil)
        var matrix = cairo_matrix_t()
        cairo_matrix_init(&matrix, 1, 0.2, 0, 1, 0, 0)
        #expect(
            ShadowNinePatch.plan(for: .roundedRect(rect, cornerRadius: 10), matrix: matrix, reach: 10) == nil)
        let shadow = Shadow(color: .black, offset: Point(x: 0, y: 4), radius: 10)
        let ellipse = Self.bothWays(rect, cornerRadius: 0, shadow: shadow, path: .ellipse(in: rect))
        #expect(ellipse.cut == ellipse.whole)
        #expect(ellipse.cutMasks.shadowMaskBytes == ellipse.wholeMasks.shadowMaskBytes)
        let strokes = [true, false].map { cutting in
            let renderer = CairoRenderer()
            renderer.shadows.cutsRoundedRectangles = cutting
            let image = renderer.image(size: Size(width: 260, height: 180)) { context in
                context.setShadow(shadow)
                context.stroke(.roundedRect(rect, cornerRadius: 10), .white, lineWidth: 3)
            }
            return (image, renderer.cacheCounts.shadowMaskBytes)
        }
        #expect(strokes[0].0 == strokes[1].0)
        #expect(strokes[0].1 == strokes[1].1)
    }
}
