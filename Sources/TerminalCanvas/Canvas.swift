/// A grid of styled character cells that renders to terminal lines: what keytrace's live view and
/// the kiosk example draw on.
///
/// Drawing clips to the grid; nothing drawn can reach the terminal as an escape sequence (control
/// characters are drawn as `�`), so text an app did not write itself — a typed name, a device's
/// name — is safe to draw. East Asian wide characters and emoji take two columns.
///
/// ```swift
/// var canvas = Canvas(columns: 40, rows: 5)
/// canvas.box(0, 0, 39, 4, .double, .focused)
/// canvas.text("Check in", 2, 2, .heading)
/// let bytes = canvas.frame(replacing: previous)   // only the rows that changed
/// ```
public struct Canvas: Equatable, Sendable {
    /// The width in columns.
    public let columns: Int
    /// The height in rows.
    public let rows: Int
    private var cells: [Character]
    private var styles: [CellStyle]

    /// The widest and tallest a canvas gets, whatever size a terminal reports (1024: a 4K
    /// screen's worth of 4-pixel cells; 1 M cells, about 20 MB).
    public static let maximumSide = 1024

    /// The second column of a wide character: rendered as nothing.
    private static let continuation: Character = "\u{0}"

    /// Creates a blank canvas.
    ///
    /// - Parameters:
    ///   - columns: The width; at least 1.
    ///   - rows: The height; at least 1.
    public init(columns: Int, rows: Int) {
        self.columns = max(1, min(columns, Self.maximumSide))
        self.rows = max(1, min(rows, Self.maximumSide))
        cells = Array(repeating: " ", count: self.columns * self.rows)
        styles = Array(repeating: .plain, count: self.columns * self.rows)
    }

    /// The character in a cell (a space outside the grid or in a wide character's second column).
    ///
    /// - Parameters:
    ///   - column: The column, from 0.
    ///   - row: The row, from 0.
    public func character(_ column: Int, _ row: Int) -> Character {
        guard column >= 0, column < columns, row >= 0, row < rows else { return " " }
        let character = cells[row * columns + column]
        return character == Self.continuation ? " " : character
    }

    /// The style of a cell (``CellStyle/plain`` outside the grid).
    ///
    /// - Parameters:
    ///   - column: The column, from 0.
    ///   - row: The row, from 0.
    public func style(_ column: Int, _ row: Int) -> CellStyle {
        guard column >= 0, column < columns, row >= 0, row < rows else { return .plain }
        return styles[row * columns + column]
    }

    /// How many columns a character takes on a terminal: 2 for East Asian wide characters and
    /// emoji, 1 otherwise.
    ///
    /// - Parameter character: The character.
    public static func width(of character: Character) -> Int {
        guard let scalar = singleScalar(character) ?? character.unicodeScalars.first?.value else { return 1 }
        switch scalar {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// How many columns a text takes (see ``width(of:)``).
    ///
    /// - Parameter text: The text.
    public static func width(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// Draws one character; a control character, or one that takes no column of its own (a bidi
    /// control, a zero-width space, a combining mark with no base), is drawn as `�`.
    ///
    /// - Parameters:
    ///   - character: The character.
    ///   - column: The column, from 0; cells outside the grid are skipped.
    ///   - row: The row, from 0.
    ///   - style: How it looks.
    public mutating func put(_ character: Character, _ column: Int, _ row: Int, _ style: CellStyle) {
        guard column >= 0, column < columns, row >= 0, row < rows else { return }
        let safe = Self.isPrintable(character) ? character : "\u{FFFD}"
        let index = row * columns + column
        // Drawing over half of a wide character blanks its other half.
        if cells[index] == Self.continuation, column > 0 { cells[index - 1] = " " }
        if column + 1 < columns, cells[index + 1] == Self.continuation { cells[index + 1] = " " }
        if Self.width(of: safe) == 2 {
            guard column + 1 < columns else {
                cells[index] = " "
                styles[index] = style
                return
            }
            if column + 2 < columns, cells[index + 2] == Self.continuation { cells[index + 2] = " " }
            cells[index + 1] = Self.continuation
            styles[index + 1] = style
        }
        cells[index] = safe
        styles[index] = style
    }

    /// Draws text from a cell rightwards, on one row.
    ///
    /// - Parameters:
    ///   - text: The text; control characters are drawn as `�`.
    ///   - column: The first column.
    ///   - row: The row.
    ///   - style: How it looks.
    ///   - limit: The most columns to use.
    /// - Returns: The columns used.
    @discardableResult
    public mutating func text(
        _ text: some StringProtocol, _ column: Int, _ row: Int, _ style: CellStyle, limit: Int = .max
    ) -> Int {
        guard row >= 0, row < rows, column < columns else { return 0 }
        // Saturating: a column far left of the grid, or no limit, must not overflow.
        let (sum, overflow) = column.addingReportingOverflow(max(0, limit))
        let end = min(overflow ? Int.max : sum, columns)
        var x = column
        for character in text {
            let width = Self.width(of: character)
            guard x <= end - width else { break }
            put(character, x, row, style)
            x += width
        }
        return x - column
    }

    /// Draws text broken into lines at spaces, each at most `width` columns.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - column: The first column of each line.
    ///   - row: The first row.
    ///   - width: The widest a line may be.
    ///   - style: How it looks.
    /// - Returns: The rows used.
    @discardableResult
    public mutating func wrapped(
        _ text: String, _ column: Int, _ row: Int, width: Int, _ style: CellStyle
    ) -> Int {
        var used = 0
        var line = ""
        // `&+`: a row near Int.max wraps to a negative row, which `text` clips.
        for word in text.split(separator: " ") {
            if !line.isEmpty, Self.width(of: line) + 1 + Self.width(of: word) > width {
                self.text(line, column, row &+ used, style, limit: width)
                used += 1
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty {
            self.text(line, column, row &+ used, style, limit: width)
            used += 1
        }
        return used
    }

    /// Fills a rectangle, both corners included.
    ///
    /// - Parameters:
    ///   - left: The first column.
    ///   - top: The first row.
    ///   - right: The last column.
    ///   - bottom: The last row.
    ///   - character: What to fill with (a space clears).
    ///   - style: How it looks.
    public mutating func fill(
        _ left: Int, _ top: Int, _ right: Int, _ bottom: Int, _ character: Character = " ", _ style: CellStyle = .plain
    ) {
        let (left, top, right, bottom) = (max(left, 0), max(top, 0), min(right, columns - 1), min(bottom, rows - 1))
        guard right >= left, bottom >= top else { return }
        for y in top...bottom {
            for x in left...right { put(character, x, y, style) }
        }
    }

    /// Line weights: single for items, double for the focused item, heavy for the current focus
    /// group's outline.
    public enum Line: Sendable {
        /// `┌─┐`
        case single
        /// `╔═╗`
        case double
        /// `┏━┓`
        case heavy
    }

    private static func pieces(_ line: Line) -> (
        h: Character, v: Character, tl: Character, tr: Character, bl: Character, br: Character
    ) {
        switch line {
        case .single: return ("─", "│", "┌", "┐", "└", "┘")
        case .double: return ("═", "║", "╔", "╗", "╚", "╝")
        case .heavy: return ("━", "┃", "┏", "┓", "┗", "┛")
        }
    }

    /// Draws a box's border, both corners included; the inside is left as it is.
    ///
    /// - Parameters:
    ///   - left: The left border's column.
    ///   - top: The top border's row.
    ///   - right: The right border's column.
    ///   - bottom: The bottom border's row.
    ///   - line: The line weight.
    ///   - style: How it looks.
    public mutating func box(_ left: Int, _ top: Int, _ right: Int, _ bottom: Int, _ line: Line, _ style: CellStyle) {
        guard right > left, bottom > top else { return }
        let p = Self.pieces(line)
        // Only the part inside the grid is walked: huge or negative corners cost nothing.
        for x in Self.clipped(left, right, columns) {
            put(p.h, x, top, style)
            put(p.h, x, bottom, style)
        }
        for y in Self.clipped(top, bottom, rows) {
            put(p.v, left, y, style)
            put(p.v, right, y, style)
        }
        put(p.tl, left, top, style)
        put(p.tr, right, top, style)
        put(p.bl, left, bottom, style)
        put(p.br, right, bottom, style)
    }

    /// A box one row high: `├──┤`, `╞══╡` doubled, `┣━━┫` heavy.
    ///
    /// - Parameters:
    ///   - left: The left end's column.
    ///   - right: The right end's column.
    ///   - row: The row.
    ///   - line: The line weight.
    ///   - style: How it looks.
    public mutating func flat(_ left: Int, _ right: Int, _ row: Int, _ line: Line, _ style: CellStyle) {
        guard right > left else { return }
        let p = Self.pieces(line)
        let (l, r): (Character, Character)
        switch line {
        case .single: (l, r) = ("├", "┤")
        case .double: (l, r) = ("╞", "╡")
        case .heavy: (l, r) = ("┣", "┫")
        }
        for x in Self.clipped(left, right, columns) { put(p.h, x, row, style) }
        put(l, left, row, style)
        put(r, right, row, style)
    }

    /// The rows as text: with style escapes for a terminal, or plain with trailing spaces trimmed
    /// for tests and logs.
    ///
    /// - Parameter escapes: Whether to include style escapes.
    /// - Returns: One string per row.
    public func lines(escapes: Bool) -> [String] {
        (0..<rows).map { line($0, escapes: escapes) }
    }

    /// One row as text (see ``lines(escapes:)``).
    ///
    /// - Parameters:
    ///   - row: The row.
    ///   - escapes: Whether to include style escapes.
    public func line(_ row: Int, escapes: Bool) -> String {
        guard row >= 0, row < rows else { return "" }
        var line = ""
        var current = CellStyle.plain
        for column in 0..<columns {
            let index = row * columns + column
            let character = cells[index]
            if character == Self.continuation { continue }
            let style = styles[index]
            if escapes && style != current {
                line += style.escape
                current = style
            }
            line.append(character)
        }
        if escapes && current != .plain { line += CellStyle.plain.escape }
        if !escapes {
            while line.last == " " { line.removeLast() }
        }
        return line
    }

    /// The bytes that turn a terminal showing `previous` into this canvas: every row that
    /// differs, each placed with a cursor move and written whole (every column). With no
    /// previous canvas, or one of another size, the screen is cleared and every row written.
    ///
    /// - Parameter previous: What the terminal shows now.
    /// - Returns: The bytes to write (empty when nothing changed).
    public func frame(replacing previous: Canvas?) -> [UInt8] {
        var out = ""
        let full = previous.map { $0.columns != columns || $0.rows != rows } ?? true
        if full { out += "\u{1b}[0m\u{1b}[2J" }
        for row in 0..<rows {
            if !full, let previous, previous.rowEquals(self, row: row) { continue }
            out += "\u{1b}[\(row + 1);1H" + line(row, escapes: true)
        }
        return Array(out.utf8)
    }

    /// Whether a row holds the same characters in the same styles in both canvases (of the same
    /// size; `false` otherwise): what an output compares to draw only the rows that changed.
    ///
    /// - Parameters:
    ///   - other: The other canvas.
    ///   - row: The row, from 0.
    /// - Returns: Whether the row is the same.
    public func rowEquals(_ other: Canvas, row: Int) -> Bool {
        guard other.columns == columns, other.rows == rows, row >= 0, row < rows else { return false }
        let range = (row * columns)..<((row + 1) * columns)
        return cells[range] == other.cells[range] && styles[range] == other.styles[range]
    }

    /// The cells strictly between two borders that lie inside `0..<count`.
    private static func clipped(_ first: Int, _ last: Int, _ count: Int) -> Range<Int> {
        let lower = first < 0 ? 0 : first + 1
        let upper = min(last, count)
        return lower < upper ? lower..<upper : 0..<0
    }

    /// Whether a character is drawn as itself: not when it holds a control character (an escape
    /// could take over the terminal), and not when the terminal would give it no column of its
    /// own, which would shift the rest of the row: a format character standing alone (bidi
    /// overrides and isolates, which could also reorder what the row shows; zero-width spaces;
    /// a byte order mark; a soft hyphen), a line or paragraph separator, or a combining mark
    /// with nothing to sit on. Inside a grapheme cluster, joiners, marks and emoji tags are fine.
    /// Ranges with no format character, separator or combining mark: drawn without looking up
    /// the character's category.
    @inline(__always) private static func hasNoFormatOrMark(_ value: UInt32) -> Bool {
        switch value {
        case 0xA0..<0x300, 0x2010...0x2027, 0x2030...0x205F, 0x2190...0x2BFF, 0x3000...0x3029, 0x3041...0x3098,
            0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return true
        default:
            return false
        }
    }

    /// The scalar of a character that is one scalar (most of a screen: letters, box drawing,
    /// arrows), decoded from its UTF-8 bytes: cheaper than `unicodeScalars.first`, which
    /// validates a string index. `nil` for a cluster of several scalars.
    @inline(__always) static func singleScalar(_ character: Character) -> UInt32? {
        var iterator = character.utf8.makeIterator()
        guard let lead = iterator.next() else { return nil }
        let (count, initial): (Int, UInt32) =
            lead < 0x80
            ? (0, UInt32(lead))
            : lead < 0xE0 ? (1, UInt32(lead & 0x1F)) : lead < 0xF0 ? (2, UInt32(lead & 0x0F)) : (3, UInt32(lead & 0x07))
        var value = initial
        for _ in 0..<count {
            guard let byte = iterator.next() else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return iterator.next() == nil ? value : nil
    }

    private static func isPrintable(_ character: Character) -> Bool {
        if let value = singleScalar(character) {
            if value < 0x20 || (0x7F...0x9F).contains(value) { return false }
            // Latin text, punctuation, arrows, box drawing, blocks and shapes need no lookup.
            guard value >= 0xAD, value == 0xAD || !Self.hasNoFormatOrMark(value), let scalar = Unicode.Scalar(value)
            else { return true }
            switch scalar.properties.generalCategory {
            case .format, .lineSeparator, .paragraphSeparator, .nonspacingMark, .enclosingMark: return false
            default: return true
            }
        }
        var isFirst = true
        for scalar in character.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) { return false }
            // Latin text, punctuation, arrows, box drawing, blocks and shapes need no lookup.
            if isFirst && value >= 0xAD && (value == 0xAD || !Self.hasNoFormatOrMark(value)) {
                switch scalar.properties.generalCategory {
                case .format, .lineSeparator, .paragraphSeparator, .nonspacingMark, .enclosingMark: return false
                default: break
                }
            }
            isFirst = false
        }
        return true
    }
}
