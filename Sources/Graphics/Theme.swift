public import ResponderChain

/// A brand's colours, typeface and shapes, shared by the standard nodes (``ButtonNode``,
/// ``LabelNode``, ``TextFieldNode``, ``PanelNode``): set one theme and every screen follows it.
///
/// ```swift
/// var theme = Theme.standard
/// theme.accent = Color(hex: 0x00704A)        // the brand's green
/// theme.fontFamily = "Noto Sans"
/// ```
public struct Theme: Hashable, Sendable {
    /// The brand colour: filled buttons, the selection, a focused field's outline.
    public var accent: Color
    /// Text and icons on ``accent``.
    public var onAccent: Color
    /// The window's background.
    public var background: Color
    /// Cards, tiles and fields on the background.
    public var surface: Color
    /// Text on the background and on surfaces.
    public var text: Color
    /// Secondary text: subtitles, placeholders, hints.
    public var secondaryText: Color
    /// Outlines of fields and panels.
    public var outline: Color
    /// The focus ring.
    public var focus: Color
    /// The family of every standard node's text (a fontconfig name).
    public var fontFamily: String
    /// The corner radius of tiles, buttons, fields and cards, in points.
    public var cornerRadius: Double

    /// Creates a theme.
    ///
    /// - Parameters:
    ///   - accent: The brand colour.
    ///   - onAccent: Text on it.
    ///   - background: The window's background.
    ///   - surface: Cards, tiles and fields.
    ///   - text: Text.
    ///   - secondaryText: Secondary text.
    ///   - outline: Outlines.
    ///   - focus: The focus ring.
    ///   - fontFamily: The text's family.
    ///   - cornerRadius: Corners, in points.
    public init(
        accent: Color, onAccent: Color, background: Color, surface: Color, text: Color, secondaryText: Color,
        outline: Color, focus: Color, fontFamily: String = "sans-serif", cornerRadius: Double = 16
    ) {
        self.accent = accent
        self.onAccent = onAccent
        self.background = background
        self.surface = surface
        self.text = text
        self.secondaryText = secondaryText
        self.outline = outline
        self.focus = focus
        self.fontFamily = fontFamily
        self.cornerRadius = cornerRadius
    }

    /// A light theme with a blue accent; its text colours pass WCAG AA (4.5:1) on its background
    /// and surfaces.
    public static let standard = Theme(
        accent: Color(hex: 0x0B57D0), onAccent: .white, background: Color(hex: 0xF2F4F8), surface: .white,
        text: Color(hex: 0x1B1F24), secondaryText: Color(hex: 0x55606E), outline: Color(hex: 0xC4CBD4),
        focus: Color(hex: 0x0A6CFF))

    /// A font of the theme's family.
    ///
    /// - Parameters:
    ///   - size: The size in points.
    ///   - weight: The weight.
    /// - Returns: The font.
    public func font(_ size: Double, _ weight: Font.Weight = .regular) -> Font {
        Font(family: fontFamily, size: size, weight: weight)
    }
}
