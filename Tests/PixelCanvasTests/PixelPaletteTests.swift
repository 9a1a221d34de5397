import PixelCanvas
import TerminalCanvas
import Testing

extension PixelCanvasTests {
    @Suite struct PixelPaletteTests {
        let palette = PixelPalette.standard

        @Test("the standard palette is xterm's, light grey on black")
        func standard() {
            #expect(palette.foreground == PixelColor(red: 229, green: 229, blue: 229))
            #expect(palette.background == PixelColor(red: 0, green: 0, blue: 0))
            #expect(palette.color(.red) == PixelColor(red: 205, green: 0, blue: 0))
            #expect(palette.color(.blue) == PixelColor(red: 0, green: 0, blue: 238))
            #expect(palette.colors.count == 8)
        }

        @Test("styles resolve as a terminal resolves them: defaults, then inverse, then dim")
        func styles() {
            let black = palette.color(.black)
            let yellow = palette.color(.yellow)
            #expect(palette.colors(for: .plain) == (palette.foreground, palette.background))
            #expect(palette.colors(for: .heading) == (palette.foreground, palette.background), "bold keeps colours")
            #expect(palette.colors(for: .focused) == (palette.background, palette.foreground))
            #expect(palette.colors(for: .group) == (palette.color(.cyan), palette.background))
            #expect(palette.colors(for: .firstResponder) == (palette.color(.magenta), palette.background))
            #expect(palette.colors(for: .overlay) == (black, yellow))
            #expect(palette.colors(for: .faint).foreground == PixelColor(red: 114, green: 114, blue: 114))
            let both = CellStyle(dim: true, inverse: true, foreground: .red, background: .blue)
            #expect(
                palette.colors(for: both) == (
                    palette.color(.blue).halfway(to: palette.color(.red)), palette.color(.red)
                ))
        }

        @Test("a palette given fewer than eight colours fills the rest with black, and keeps eight of more")
        func padding() {
            let white = PixelColor(red: 255, green: 255, blue: 255)
            let short = PixelPalette(colors: [white], foreground: white, background: white)
            #expect(short.colors.count == 8 && short.color(.white) == PixelColor(red: 0, green: 0, blue: 0))
            let long = PixelPalette(colors: Array(repeating: white, count: 12), foreground: white, background: white)
            #expect(long.colors.count == 8)
        }

        @Test("a colour is one 0xAARRGGBB pixel, opaque")
        func argb() {
            #expect(PixelColor(red: 0x12, green: 0x34, blue: 0x56).argb == 0xFF12_3456)
            #expect(
                PixelColor(red: 255, green: 0, blue: 10).halfway(to: PixelColor(red: 1, green: 200, blue: 10))
                    == PixelColor(red: 128, green: 100, blue: 10))
        }
    }
}
