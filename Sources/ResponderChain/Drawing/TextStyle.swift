/// A typeface at a size: a family fontconfig knows, a weight, upright or italic.
///
/// ```swift
/// let title = Font(size: 48, weight: .bold)            // the system's sans-serif
/// let code = Font(family: "DejaVu Sans Mono", size: 18)
/// ```
/// A character the family lacks (Chinese in a Latin face, an emoji) comes from a fallback face the
/// font library picks, as in every toolkit.
public struct Font: Hashable, Sendable, CustomStringConvertible {
    /// How heavy the strokes are, from 100 (thin) to 900 (black), as CSS and OpenType count.
    public struct Weight: Hashable, Sendable, Comparable {
        /// The value, 100 to 900.
        public var value: Int

        /// A weight.
        ///
        /// - Parameter value: 100 to 900; clamped.
        public init(_ value: Int) { self.value = max(100, min(value, 900)) }

        /// 300.
        public static let light = Weight(300)
        /// 400.
        public static let regular = Weight(400)
        /// 500.
        public static let medium = Weight(500)
        /// 600.
        public static let semibold = Weight(600)
        /// 700.
        public static let bold = Weight(700)
        /// 800.
        public static let heavy = Weight(800)

        /// Lighter first.
        public static func < (lhs: Weight, rhs: Weight) -> Bool { lhs.value < rhs.value }
    }

    /// The family: a name fontconfig matches (`DejaVu Sans`, `Noto Sans`) or a generic one
    /// (`sans-serif`, `serif`, `monospace`).
    public var family: String
    /// The em size in points.
    public var size: Double
    /// How heavy.
    public var weight: Weight
    /// Whether italic.
    public var isItalic: Bool

    /// Creates a font.
    ///
    /// - Parameters:
    ///   - family: The family; `sans-serif` (the system's, through fontconfig) by default.
    ///   - size: The em size in points; at least 1.
    ///   - weight: How heavy; regular by default.
    ///   - isItalic: Whether italic.
    public init(family: String = "sans-serif", size: Double, weight: Weight = .regular, isItalic: Bool = false) {
        self.family = family
        self.size = size >= 1 ? size : 1
        self.weight = weight
        self.isItalic = isItalic
    }

    /// `sans-serif 24 bold`.
    public var description: String {
        var words = [family, Rect.format(size)]
        if weight != .regular { words.append(weight >= .bold ? "bold" : "weight \(weight.value)") }
        if isItalic { words.append("italic") }
        return words.joined(separator: " ")
    }
}

/// How a piece of text is set: its font and colour, where it sits in its rectangle, how many lines
/// it takes and how it is cut when it does not fit.
///
/// Text is shaped (ligatures, Arabic joining, Indic clusters), laid out in its own direction (an
/// Arabic or Hebrew label runs right to left inside a left-to-right screen, and the other way),
/// broken into lines at word boundaries and ended with an ellipsis when cut.
public struct TextStyle: Hashable, Sendable {
    /// Where lines sit across the rectangle.
    public enum Alignment: Hashable, Sendable {
        /// At the start of the reading direction: the left in a left-to-right screen, the right in a
        /// right-to-left one.
        case leading
        /// Centred.
        case center
        /// At the end of the reading direction.
        case trailing
    }

    /// Where the text block sits down the rectangle.
    public enum VerticalAlignment: Hashable, Sendable {
        /// At the top.
        case top
        /// Centred.
        case center
        /// At the bottom.
        case bottom
    }

    /// Where text that does not fit is cut, with an ellipsis.
    public enum Truncation: Hashable, Sendable {
        /// At the end: "Riverside Cli…".
        case end
        /// In the middle: "River…Clinic".
        case middle
        /// At the start: "…side Clinic".
        case start
        /// Not at all: clipped.
        case none
    }

    /// The font.
    public var font: Font
    /// The colour.
    public var color: Color
    /// Across.
    public var alignment: Alignment
    /// Down.
    public var verticalAlignment: VerticalAlignment
    /// The most lines; 0 for as many as fit.
    public var lineLimit: Int
    /// Where text that does not fit is cut.
    public var truncation: Truncation

    /// Creates a style.
    ///
    /// - Parameters:
    ///   - font: The font.
    ///   - color: The colour; black by default.
    ///   - alignment: Across; leading by default.
    ///   - verticalAlignment: Down; centred by default (a label in a button).
    ///   - lineLimit: The most lines; 1 by default, 0 for as many as fit.
    ///   - truncation: Where text that does not fit is cut; at the end by default.
    public init(
        font: Font, color: Color = .black, alignment: Alignment = .leading,
        verticalAlignment: VerticalAlignment = .center, lineLimit: Int = 1, truncation: Truncation = .end
    ) {
        self.font = font
        self.color = color
        self.alignment = alignment
        self.verticalAlignment = verticalAlignment
        self.lineLimit = max(0, lineLimit)
        self.truncation = truncation
    }
}
