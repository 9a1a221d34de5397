import PixelCanvas
import ResponderChain
import Testing

@testable import CairoGraphics

@Suite struct CairoGraphicsContextTextTests {
    let renderer = CairoRenderer()

    func style(_ size: Double, alignment: TextStyle.Alignment = .leading, lineLimit: Int = 1) -> TextStyle {
        TextStyle(font: Font(family: "DejaVu Sans", size: size), alignment: alignment, lineLimit: lineLimit)
    }

    @Test("text at 16 and 48 points gives ink of proportional height")
    func proportionalHeight() throws {
        func inkHeight(_ size: Double) throws -> Int {
            let image = renderer.image(size: Size(width: 400, height: 120)) { context in
                context.draw("HIxgÉ", in: Rect(x: 10, y: 0, width: 380, height: 120), style: style(size))
            }
            let ink = try #require(image.ink())
            return ink.bottom - ink.top + 1
        }
        let small = try inkHeight(16)
        let large = try inkHeight(48)
        let ratio = Double(large) / Double(small)
        #expect(ratio > 2.7 && ratio < 3.3, "\(small) px at 16 pt, \(large) px at 48 pt")
    }

    @Test(
        "leading is the left in a left-to-right context and the right in a right-to-left one, whatever the text",
        arguments: ["שלום עולם", "مرحبا بالعالم", "Hello"])
    func leadingFollowsTheContext(text: String) throws {
        func ink(_ direction: LayoutDirection, _ alignment: TextStyle.Alignment) throws -> (left: Int, right: Int) {
            let image = renderer.image(size: Size(width: 400, height: 40), layoutDirection: direction) { context in
                context.draw(text, in: Rect(x: 0, y: 0, width: 400, height: 40), style: style(20, alignment: alignment))
            }
            let ink = try #require(image.ink())
            return (ink.left, ink.right)
        }
        let rightToLeft = try ink(.rightToLeft, .leading)
        #expect(rightToLeft.left > 200 && rightToLeft.right > 380, "\(text): leading in RTL at \(rightToLeft)")
        let leftToRight = try ink(.leftToRight, .leading)
        #expect(leftToRight.left < 20 && leftToRight.right < 200, "\(text): leading in LTR at \(leftToRight)")
        let trailing = try ink(.rightToLeft, .trailing)
        #expect(trailing.left < 20, "\(text): trailing in RTL at \(trailing)")
        let centred = try ink(.leftToRight, .center)
        #expect(abs((centred.left + centred.right) / 2 - 200) < 6, "\(text): centred at \(centred)")
    }

    @Test("a Hebrew label runs right to left inside a left-to-right screen")
    func bidiOrder() throws {
        func draw(_ text: String) -> PixelImage {
            renderer.image(size: Size(width: 200, height: 50)) { context in
                context.draw(text, in: Rect(x: 0, y: 0, width: 200, height: 50), style: style(30))
            }
        }
        // Alef first in memory: on the right when the run goes right to left; forced left to right
        // (LRO … PDF), on the left, where alef alone is drawn.
        let natural = draw("אב")
        let forced = draw("\u{202D}אב\u{202C}")
        let alef = draw("א")
        #expect(natural != forced)
        let alefInk = try #require(alef.ink())
        func leftColumns(_ image: PixelImage) -> [PixelColor] {
            (0..<50).flatMap { y in (0...alefInk.right).map { image.color($0, y) } }
        }
        #expect(leftColumns(forced) == leftColumns(alef))
        #expect(leftColumns(natural) != leftColumns(alef))
    }

    @Test("Arabic is shaped: joined letters differ from the same letters kept apart by ZWNJ")
    func arabicShaping() throws {
        func draw(_ text: String) -> PixelImage {
            renderer.image(size: Size(width: 300, height: 60)) { context in
                context.draw(text, in: Rect(x: 0, y: 0, width: 300, height: 60), style: style(32))
            }
        }
        let joined = draw("سلام")
        let apart = draw("س\u{200C}ل\u{200C}ا\u{200C}م")
        #expect(joined != apart)
        let joinedInk = try #require(joined.ink())
        let apartInk = try #require(apart.ink())
        #expect(joinedInk.right - joinedInk.left != apartInk.right - apartInk.left)
        #expect(renderer.unknownGlyphCount("سلام", style: style(32)) == 0)
    }

    @Test("a Chinese label comes from a fallback font with no unknown glyph")
    func chinese() throws {
        let label = "欢迎光临"
        #expect(renderer.unknownGlyphCount(label, style: style(24)) == 0)
        let image = renderer.image(size: Size(width: 200, height: 40)) { context in
            context.draw(label, in: Rect(x: 0, y: 0, width: 200, height: 40), style: style(24))
        }
        let ink = try #require(image.ink())
        #expect(ink.right - ink.left > 70)
        // The helper does see a character no font has.
        #expect(renderer.unknownGlyphCount("a\u{0378}", style: style(24)) == 1)
    }

    @Test("an emoji is drawn in colour")
    func emoji() {
        let style = TextStyle(font: Font(size: 48), color: .black)
        #expect(renderer.unknownGlyphCount("😀", style: style) == 0)
        let image = renderer.image(size: Size(width: 100, height: 80)) { context in
            context.draw("😀", in: Rect(x: 0, y: 0, width: 100, height: 80), style: style)
        }
        let colourful = image.count { $0.chroma > 80 }
        #expect(colourful > 300, "\(colourful) colourful pixels")
    }

    @Test(
        "text that does not fit ends with an ellipsis and stays inside its rectangle",
        arguments: [TextStyle.Truncation.end, .middle, .start])
    func truncation(truncation: TextStyle.Truncation) throws {
        let text = "Riverside Community Clinic, Outpatient Registration"
        var style = style(16)
        style.truncation = truncation
        let rect = Rect(x: 20, y: 10, width: 120, height: 30)
        #expect(renderer.isTruncated(text, in: Size(width: 120, height: 30), style: style))
        #expect(!renderer.isTruncated("Clinic", in: Size(width: 120, height: 30), style: style))
        let image = renderer.image(size: Size(width: 160, height: 50)) { context in
            context.draw(text, in: rect, style: style)
        }
        let ink = try #require(image.ink())
        #expect(ink.left >= 20 && ink.right < 140 && ink.top >= 10 && ink.bottom < 40)
        #expect(ink.right > 120, "the line fills the width up to the ellipsis")
    }

    @Test("lines wrap within the width, up to the line limit, the last ending in an ellipsis")
    func lineLimit() throws {
        let text = "Please scan the code on your appointment letter, or type your reference number below to check in."
        let rect = Rect(x: 0, y: 0, width: 200, height: 200)
        func ink(_ lineLimit: Int) throws -> (height: Int, truncated: Bool) {
            let style = style(16, lineLimit: lineLimit)
            let image = renderer.image(size: Size(width: 200, height: 200)) { context in
                var top = style
                top.verticalAlignment = .top
                context.draw(text, in: rect, style: top)
            }
            let ink = try #require(image.ink())
            #expect(ink.right < 200)
            return (ink.bottom - ink.top, renderer.isTruncated(text, in: Size(width: 200, height: 200), style: style))
        }
        let one = try ink(1)
        let two = try ink(2)
        let all = try ink(0)
        #expect(one.truncated && two.truncated && !all.truncated)
        #expect(one.height < 25 && two.height > 30 && two.height < 45 && all.height > 70)
        // The rectangle's height limits too: 0 lines means as many as fit.
        let short = Size(width: 200, height: 45)
        #expect(renderer.isTruncated(text, in: short, style: style(16, lineLimit: 0)))
    }

    @Test("a second paragraph beyond the line limit is cut with an ellipsis")
    func paragraphs() throws {
        let style = style(16)
        #expect(renderer.isTruncated("First line\nSecond line", in: Size(width: 300, height: 100), style: style))
        let image = renderer.image(size: Size(width: 300, height: 100)) { context in
            context.draw("First line\nSecond line", in: Rect(x: 0, y: 0, width: 300, height: 100), style: style)
        }
        let ink = try #require(image.ink())
        #expect(ink.bottom - ink.top < 25, "one line")
        let measured = renderer.image(size: Size(width: 10, height: 10)) { context in
            let size = context.measure("First line\nSecond line", style: style, width: 300)
            #expect(size.height < 25)
        }
        _ = measured
    }

    @Test("vertical alignment places the block at the top, centre or bottom")
    func verticalAlignment() throws {
        func top(_ alignment: TextStyle.VerticalAlignment) throws -> Int {
            var style = style(16)
            style.verticalAlignment = alignment
            let image = renderer.image(size: Size(width: 100, height: 100)) { context in
                context.draw("Hx", in: Rect(x: 0, y: 0, width: 100, height: 100), style: style)
            }
            return try #require(image.ink()).top
        }
        let (high, middle, low) = (try top(.top), try top(.center), try top(.bottom))
        #expect(high < 10 && middle > 35 && middle < 55 && low > 75)
    }

    @Test("one line without truncation is clipped to its rectangle, not wrapped")
    func clippedLine() throws {
        var style = style(16)
        style.truncation = .none
        let image = renderer.image(size: Size(width: 200, height: 60)) { context in
            context.draw(
                "A line much too long for its box", in: Rect(x: 10, y: 10, width: 80, height: 40), style: style)
        }
        let ink = try #require(image.ink())
        #expect(ink.left >= 10 && ink.right <= 90 && ink.right > 85)
        #expect(ink.bottom - ink.top < 25, "one line")
    }

    @Test("a label drawn again, or measured at the width it is drawn at, is not shaped again")
    func layoutsAreKept() {
        let renderer = CairoRenderer()
        let style = TextStyle(font: Font(size: 18), color: .black)
        let rect = Rect(x: 0, y: 0, width: 160, height: 30)
        var measured = Size.zero
        let first = renderer.image(size: Size(width: 160, height: 30)) { context in
            measured = context.measure("Check in", style: style, width: 160)
            context.draw("Check in", in: rect, style: style)
        }
        #expect(renderer.cacheCounts.layoutsMade == 1)
        #expect(measured.width > 40 && measured.width < 160 && measured.height > 15)
        let colour = TextStyle(font: Font(size: 18), color: Color(hex: 0xFF0000))
        let second = renderer.image(size: Size(width: 160, height: 30)) { context in
            context.draw("Check in", in: rect, style: style)
            context.draw("Check in", in: rect.offsetBy(dx: 0, dy: 0), style: colour)
        }
        #expect(renderer.cacheCounts.layoutsMade == 1, "the colour is not part of the key")
        #expect(second != first)
        #expect(
            renderer.image(size: Size(width: 160, height: 30)) { $0.draw("Check in", in: rect, style: style) } == first)
    }

    @Test("the layout cache is bounded: the least recently used layouts go")
    func layoutCacheBound() {
        let renderer = CairoRenderer(limits: CairoRenderer.Limits(textLayouts: 4))
        _ = renderer.image(size: Size(width: 100, height: 20)) { context in
            for number in 0..<10 {
                context.draw("Label \(number)", in: Rect(x: 0, y: 0, width: 100, height: 20), style: style(12))
            }
        }
        #expect(renderer.cacheCounts.layouts == 4)
        #expect(renderer.cacheCounts.layoutsMade == 10)
        _ = renderer.image(size: Size(width: 100, height: 20)) { context in
            context.draw("Label 9", in: Rect(x: 0, y: 0, width: 100, height: 20), style: style(12))
            context.draw("Label 0", in: Rect(x: 0, y: 0, width: 100, height: 20), style: style(12))
        }
        #expect(renderer.cacheCounts.layoutsMade == 11)
    }

    @Test("text with a NUL, control characters or only spaces draws without trouble")
    func oddText() {
        let image = renderer.image(size: Size(width: 200, height: 30)) { context in
            for text in ["a\0b", "\u{1B}[31m", "   ", "\n\n\n", String(repeating: "w", count: 5000)] {
                context.draw(text, in: Rect(x: 0, y: 0, width: 200, height: 30), style: style(12))
            }
        }
        #expect(image.width == 200)
    }
}
