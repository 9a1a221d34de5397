public import TerminalCanvas

/// The colours a `CellStyle` is drawn in: the eight terminal colours, and the default foreground and
/// background that a terminal uses for `nil`.
///
/// ``standard`` is xterm's palette (the colours `TerminalOutput`'s SGR escapes select on xterm): so the
/// kiosk looks the same in a window as in a terminal. A style resolves as a terminal resolves it:
/// `nil` colours take the defaults, then inverse swaps foreground and background, then dim moves the
/// foreground halfway to the background. Bold draws the bold face and does not brighten the colour
/// (as most terminals do by default today).
public struct PixelPalette: Hashable, Sendable {
    /// The eight colours, indexed by `CellStyle.Color.rawValue` (black, red, green, yellow, blue,
    /// magenta, cyan, white).
    public var colors: [PixelColor]
    /// The text colour for a `nil` foreground.
    public var foreground: PixelColor
    /// The cell colour for a `nil` background, and the colour around the grid.
    public var background: PixelColor

    /// Creates a palette.
    ///
    /// - Parameters:
    ///   - colors: The eight colours, black first; missing ones are black.
    ///   - foreground: The default text colour.
    ///   - background: The default background.
    public init(colors: [PixelColor], foreground: PixelColor, background: PixelColor) {
        let black = PixelColor(red: 0, green: 0, blue: 0)
        self.colors = Array((colors + Array(repeating: black, count: 8)).prefix(8))
        self.foreground = foreground
        self.background = background
    }

    /// xterm's colours: light grey (229, 229, 229) on black by default, black (0, 0, 0), red (205, 0, 0),
    /// green (0, 205, 0), yellow (205, 205, 0), blue (0, 0, 238), magenta (205, 0, 205), cyan (0, 205, 205),
    /// white (229, 229, 229).
    public static let standard = PixelPalette(
        colors: [
            PixelColor(red: 0, green: 0, blue: 0), PixelColor(red: 205, green: 0, blue: 0),
            PixelColor(red: 0, green: 205, blue: 0), PixelColor(red: 205, green: 205, blue: 0),
            PixelColor(red: 0, green: 0, blue: 238), PixelColor(red: 205, green: 0, blue: 205),
            PixelColor(red: 0, green: 205, blue: 205), PixelColor(red: 229, green: 229, blue: 229),
        ],
        foreground: PixelColor(red: 229, green: 229, blue: 229), background: PixelColor(red: 0, green: 0, blue: 0))

    /// The colour of one of the eight.
    ///
    /// - Parameter color: The terminal colour.
    /// - Returns: Its pixel colour.
    public func color(_ color: CellStyle.Color) -> PixelColor {
        colors[Int(color.rawValue)]
    }

    /// The text and cell colours a style is drawn in (defaults, then inverse, then dim).
    ///
    /// - Parameter style: The cell's style.
    /// - Returns: The foreground (text, underline) and the background (the whole cell).
    public func colors(for style: CellStyle) -> (foreground: PixelColor, background: PixelColor) {
        var foreground = style.foreground.map(color) ?? self.foreground
        var background = style.background.map(color) ?? self.background
        if style.inverse { swap(&foreground, &background) }
        if style.dim { foreground = foreground.halfway(to: background) }
        return (foreground, background)
    }
}
