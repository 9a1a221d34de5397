/// How a cell is drawn: weight, inverse video and colours, written as one SGR escape.
///
/// The presets are the palette keytrace's live view and the kiosk example share: the focused
/// item in inverse bold, the current focus group in cyan, the first responder in bold magenta.
public struct CellStyle: Hashable, Sendable {
    /// One of the eight standard terminal colours.
    public enum Color: UInt8, Hashable, Sendable {
        case black, red, green, yellow, blue, magenta, cyan, white
    }

    /// Bold (bright) text.
    public var bold: Bool
    /// Faint text.
    public var dim: Bool
    /// Underlined text.
    public var underline: Bool
    /// Foreground and background swapped.
    public var inverse: Bool
    /// The text colour; `nil` for the terminal's default.
    public var foreground: Color?
    /// The background colour; `nil` for the terminal's default.
    public var background: Color?

    /// Creates a style.
    ///
    /// - Parameters:
    ///   - bold: Bold text.
    ///   - dim: Faint text.
    ///   - underline: Underlined text.
    ///   - inverse: Foreground and background swapped.
    ///   - foreground: The text colour.
    ///   - background: The background colour.
    public init(
        bold: Bool = false, dim: Bool = false, underline: Bool = false, inverse: Bool = false,
        foreground: Color? = nil, background: Color? = nil
    ) {
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.inverse = inverse
        self.foreground = foreground
        self.background = background
    }

    /// The terminal's default look.
    public static let plain = CellStyle()
    /// Bold: headings, titles, the status line.
    public static let heading = CellStyle(bold: true)
    /// Faint: borders and explanations.
    public static let faint = CellStyle(dim: true)
    /// The focused item: bold, inverse.
    public static let focused = CellStyle(bold: true, inverse: true)
    /// Members of the current focus group: cyan.
    public static let group = CellStyle(foreground: .cyan)
    /// The first responder's label: bold magenta.
    public static let firstResponder = CellStyle(bold: true, foreground: .magenta)
    /// Overlays and badges drawn over the content: bold black on yellow.
    public static let overlay = CellStyle(bold: true, foreground: .black, background: .yellow)
    /// A selected item that does not have focus: underlined.
    public static let selected = CellStyle(underline: true)

    /// The escape that switches a terminal to this style from any other (it resets first):
    /// `ESC [ 0 ; 1 ; 7 m` for ``focused``.
    public var escape: String {
        var text = "\u{1b}[0"
        if bold { text += ";1" }
        if dim { text += ";2" }
        if underline { text += ";4" }
        if inverse { text += ";7" }
        if let foreground { text += ";3" + String(foreground.rawValue) }
        if let background { text += ";4" + String(background.rawValue) }
        return text + "m"
    }
}
