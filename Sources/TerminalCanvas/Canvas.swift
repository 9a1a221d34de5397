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
    /// Each cell's character and style, row by row.
    private var cells: [Cell]
    /// The characters of several scalars (a letter with its marks, an emoji sequence) that cells
    /// refer to, and where each is: most screens have none.
    private var clusters: [Character] = []
    /// Where each cluster is, by its scalars: two spellings of one character (a letter with its marks
    /// in another order) are two clusters, each shown as drawn.
    private var clusterIndex: [[UInt32]: UInt32] = [:]
    /// How many clusters are listed, in use or not (internal for tests).
    var clusterCount: Int { clusters.count }

    /// The widest and tallest a canvas gets, whatever size a terminal reports (1024: a 4K
    /// screen's worth of 4-pixel cells; 1 M cells, 8 MB).
    public static let maximumSide = 1024

    /// One cell: its character as a code (``Cell/code``) and its style packed in 16 bits: a cell is
    /// compared, copied and cleared as two integers, not as a `Character` (a string) and a struct.
    package struct Cell: Equatable, Sendable {
        /// A Unicode scalar's value when the character is one scalar (almost every cell); `0` for a
        /// wide character's second column; ``clusterFlag`` plus an index into the canvas's clusters
        /// for a character of several scalars.
        package var code: UInt32
        /// The style (see ``Canvas/pack(_:)``).
        package var style: UInt16

        static let blank = Cell(code: 0x20, style: 0)
    }

    /// The code of a wide character's second column: rendered as nothing.
    package static let continuation: UInt32 = 0
    /// Set in a code that refers to a character of several scalars.
    package static let clusterFlag: UInt32 = 0x8000_0000

    /// Creates a blank canvas.
    ///
    /// - Parameters:
    ///   - columns: The width; at least 1.
    ///   - rows: The height; at least 1.
    public init(columns: Int, rows: Int) {
        self.columns = max(1, min(columns, Self.maximumSide))
        self.rows = max(1, min(rows, Self.maximumSide))
        cells = Array(repeating: .blank, count: self.columns * self.rows)
    }

    /// Canvases are equal when they are the same size and every cell shows the same character, scalar
    /// for scalar (no normalization: `Å` as U+00C5 and as U+212B differ, as their glyphs may), in the
    /// same style.
    public static func == (lhs: Canvas, rhs: Canvas) -> Bool {
        guard lhs.columns == rhs.columns, lhs.rows == rhs.rows else { return false }
        if lhs.clusters.isEmpty && rhs.clusters.isEmpty { return lhs.cells == rhs.cells }
        return lhs.cells.indices.allSatisfy { lhs.sameCell(rhs, at: $0) }
    }

    /// The character in a cell (a space outside the grid or in a wide character's second column).
    ///
    /// - Parameters:
    ///   - column: The column, from 0.
    ///   - row: The row, from 0.
    public func character(_ column: Int, _ row: Int) -> Character {
        guard column >= 0, column < columns, row >= 0, row < rows else { return " " }
        return character(code: cells[row * columns + column].code)
    }

    /// The character a code stands for (a space for a wide character's second column).
    private func character(code: UInt32) -> Character {
        if code == Self.continuation { return " " }
        if code & Self.clusterFlag != 0 { return clusters[Int(code & ~Self.clusterFlag)] }
        return Character(Unicode.Scalar(code) ?? "\u{FFFD}")
    }

    /// The style of a cell (``CellStyle/plain`` outside the grid).
    ///
    /// - Parameters:
    ///   - column: The column, from 0.
    ///   - row: The row, from 0.
    public func style(_ column: Int, _ row: Int) -> CellStyle {
        guard column >= 0, column < columns, row >= 0, row < rows else { return .plain }
        return Self.unpack(cells[row * columns + column].style)
    }

    /// A style in 16 bits: bold, dim, underline and inverse in bits 0–3, the foreground in bits 4–7
    /// and the background in bits 8–11 (0 for none, else the colour's raw value plus 1).
    package static func pack(_ style: CellStyle) -> UInt16 {
        var bits: UInt16 = 0
        if style.bold { bits |= 1 }
        if style.dim { bits |= 2 }
        if style.underline { bits |= 4 }
        if style.inverse { bits |= 8 }
        if let foreground = style.foreground { bits |= UInt16(foreground.rawValue + 1) << 4 }
        if let background = style.background { bits |= UInt16(background.rawValue + 1) << 8 }
        return bits
    }

    /// The style ``pack(_:)`` packed.
    package static func unpack(_ bits: UInt16) -> CellStyle {
        let foreground = (bits >> 4) & 0xF
        let background = (bits >> 8) & 0xF
        return CellStyle(
            bold: bits & 1 != 0, dim: bits & 2 != 0, underline: bits & 4 != 0, inverse: bits & 8 != 0,
            foreground: foreground == 0 ? nil : CellStyle.Color(rawValue: UInt8(foreground - 1)),
            background: background == 0 ? nil : CellStyle.Color(rawValue: UInt8(background - 1)))
    }

    /// A cell, for outputs that compare and draw cells (a cell outside the grid is blank).
    package func cell(_ column: Int, _ row: Int) -> Cell {
        guard column >= 0, column < columns, row >= 0, row < rows else { return .blank }
        return cells[row * columns + column]
    }

    /// Whether a cell holds a character that takes two columns (its second column follows it).
    package func isWide(_ column: Int, _ row: Int) -> Bool {
        guard column >= 0, column + 1 < columns, row >= 0, row < rows else { return false }
        return cells[row * columns + column + 1].code == Self.continuation
    }

    /// Whether a cell shows the same character in the same style in both canvases (of the same size).
    package func sameCell(_ other: Canvas, _ column: Int, _ row: Int) -> Bool {
        guard column >= 0, column < columns, row >= 0, row < rows, other.columns == columns, other.rows == rows
        else { return false }
        return sameCell(other, at: row * columns + column)
    }

    private func sameCell(_ other: Canvas, at index: Int) -> Bool {
        let (mine, theirs) = (cells[index], other.cells[index])
        if mine == theirs && mine.code & Self.clusterFlag == 0 { return true }
        guard mine.style == theirs.style, (mine.code | theirs.code) & Self.clusterFlag != 0 else { return false }
        return character(code: mine.code).unicodeScalars.elementsEqual(
            other.character(code: theirs.code).unicodeScalars)
    }

    /// How many columns a character takes on a terminal: 2 for East Asian wide characters and
    /// emoji, 1 otherwise.
    ///
    /// - Parameter character: The character.
    public static func width(of character: Character) -> Int {
        guard let scalar = singleScalar(character) ?? character.unicodeScalars.first?.value else { return 1 }
        return width(scalar: scalar)
    }

    /// How many columns a scalar takes (see ``width(of:)``).
    @inline(__always) static func width(scalar: UInt32) -> Int {
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
        let (code, width) = code(for: character)
        put(code, wide: width == 2, column, row, Self.pack(style))
    }

    /// The code a character is kept as and the columns it takes: its scalar, `U+FFFD` when it is not
    /// printable, or a new or known cluster's.
    private mutating func code(for character: Character) -> (code: UInt32, width: Int) {
        if let value = Self.singleScalar(character) {
            return Self.isPrintable(scalar: value) ? (value, Self.width(scalar: value)) : (0xFFFD, 1)
        }
        guard Self.isPrintable(character) else { return (0xFFFD, 1) }
        let width = Self.width(of: character)
        let scalars = character.unicodeScalars.map(\.value)
        if let index = clusterIndex[scalars] { return (Self.clusterFlag | index, width) }
        // Clusters drawn over stay listed until there are as many as cells: then only those in use are kept.
        if clusters.count >= cells.count { compactClusters() }
        let index = UInt32(clusters.count)
        clusters.append(character)
        clusterIndex[scalars] = index
        return (Self.clusterFlag | index, width)
    }

    /// Keeps only the clusters some cell shows, and renumbers the cells' references to them.
    private mutating func compactClusters() {
        var renumbered: [UInt32: UInt32] = [:]
        var kept: [Character] = []
        for index in cells.indices where cells[index].code & Self.clusterFlag != 0 {
            let old = cells[index].code & ~Self.clusterFlag
            let new =
                renumbered[old]
                ?? {
                    kept.append(clusters[Int(old)])
                    renumbered[old] = UInt32(kept.count - 1)
                    return UInt32(kept.count - 1)
                }()
            cells[index].code = Self.clusterFlag | new
        }
        clusters = kept
        clusterIndex = Dictionary(
            uniqueKeysWithValues: kept.enumerated().map { ($1.unicodeScalars.map(\.value), UInt32($0)) })
    }

    /// Puts a code in a cell (skipped outside the grid); drawing over half of a wide character
    /// blanks its other half, and a wide character in the last column is drawn as a space.
    @inline(__always) private mutating func put(_ code: UInt32, wide: Bool, _ column: Int, _ row: Int, _ style: UInt16)
    {
        guard column >= 0, column < columns, row >= 0, row < rows else { return }
        let index = row * columns + column
        if cells[index].code == Self.continuation, column > 0 { cells[index - 1].code = 0x20 }
        if column + 1 < columns, cells[index + 1].code == Self.continuation { cells[index + 1].code = 0x20 }
        if wide {
            guard column + 1 < columns else {
                cells[index] = Cell(code: 0x20, style: style)
                return
            }
            if column + 2 < columns, cells[index + 2].code == Self.continuation { cells[index + 2].code = 0x20 }
            cells[index + 1] = Cell(code: Self.continuation, style: style)
        }
        cells[index] = Cell(code: code, style: style)
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
        // Text whose every scalar is a character of its own, printable as it is (Latin text, box
        // drawing, arrows: almost all an app draws) is drawn scalar by scalar, with no grapheme breaking.
        // Only the scalars that can fit are checked (each takes a column at least), and one more, which
        // could join the last: a long text drawn in a short field is not read to its end.
        let (span, spanOverflow) = end.subtractingReportingOverflow(column)
        let checked = spanOverflow || span == .max ? Int.max : max(0, span) + 1
        if text.unicodeScalars.prefix(checked).allSatisfy({ Self.standsAlone($0.value) }) {
            let style = Self.pack(style)
            for scalar in text.unicodeScalars {
                let width = Self.width(scalar: scalar.value)
                guard x <= end - width else { break }
                put(scalar.value, wide: width == 2, x, row, style)
                x += width
            }
            return x - column
        }
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
        let (code, width) = code(for: character)
        let style = Self.pack(style)
        for y in top...bottom {
            for x in left...right { put(code, wide: width == 2, x, y, style) }
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

    /// A line weight's pieces as codes (one-column, printable scalars).
    private static func pieces(_ line: Line) -> (
        h: UInt32, v: UInt32, tl: UInt32, tr: UInt32, bl: UInt32, br: UInt32
    ) {
        switch line {
        case .single: return (0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518)  // ─│┌┐└┘
        case .double: return (0x2550, 0x2551, 0x2554, 0x2557, 0x255A, 0x255D)  // ═║╔╗╚╝
        case .heavy: return (0x2501, 0x2503, 0x250F, 0x2513, 0x2517, 0x251B)  // ━┃┏┓┗┛
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
        let style = Self.pack(style)
        // Only the part inside the grid is walked: huge or negative corners cost nothing.
        for x in Self.clipped(left, right, columns) {
            put(p.h, wide: false, x, top, style)
            put(p.h, wide: false, x, bottom, style)
        }
        for y in Self.clipped(top, bottom, rows) {
            put(p.v, wide: false, left, y, style)
            put(p.v, wide: false, right, y, style)
        }
        put(p.tl, wide: false, left, top, style)
        put(p.tr, wide: false, right, top, style)
        put(p.bl, wide: false, left, bottom, style)
        put(p.br, wide: false, right, bottom, style)
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
        let style = Self.pack(style)
        let (l, r): (UInt32, UInt32)
        switch line {
        case .single: (l, r) = (0x251C, 0x2524)  // ├┤
        case .double: (l, r) = (0x255E, 0x2561)  // ╞╡
        case .heavy: (l, r) = (0x2523, 0x252B)  // ┣┫
        }
        for x in Self.clipped(left, right, columns) { put(p.h, wide: false, x, row, style) }
        put(l, wide: false, left, row, style)
        put(r, wide: false, right, row, style)
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
        var current: UInt16 = 0
        for column in 0..<columns {
            let cell = cells[row * columns + column]
            if cell.code == Self.continuation { continue }
            if escapes && cell.style != current {
                line += Self.unpack(cell.style).escape
                current = cell.style
            }
            if cell.code & Self.clusterFlag == 0, let scalar = Unicode.Scalar(cell.code) {
                line.unicodeScalars.append(scalar)
            } else {
                line.append(character(code: cell.code))
            }
        }
        if escapes && current != 0 { line += CellStyle.plain.escape }
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
        if clusters.isEmpty && other.clusters.isEmpty { return cells[range] == other.cells[range] }
        return range.allSatisfy { sameCell(other, at: $0) }
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

    /// Whether a scalar is a character of its own, printable as it is, with no lookup: in
    /// ``hasNoFormatOrMark(_:)``'s ranges (but the soft hyphen) or printable ASCII. Grapheme
    /// clusters only join scalars of which one is a control, a mark, a joiner, a Hangul jamo, a
    /// regional indicator or a prepended mark; none is in these ranges.
    @inline(__always) private static func standsAlone(_ value: UInt32) -> Bool {
        switch value {
        case 0x20..<0x7F, 0xA0..<0xAD, 0xAE..<0x300, 0x2010...0x2027, 0x2030...0x205F, 0x2190...0x2BFF,
            0x3000...0x3029, 0x3041...0x3096, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return true
        default:
            return false
        }
    }

    /// Whether a one-scalar character is drawn as itself (see ``isPrintable(_:)``).
    @inline(__always) private static func isPrintable(scalar value: UInt32) -> Bool {
        if value < 0x20 || (0x7F...0x9F).contains(value) { return false }
        // Latin text, punctuation, arrows, box drawing, blocks and shapes need no lookup.
        guard value >= 0xAD, value == 0xAD || !Self.hasNoFormatOrMark(value), let scalar = Unicode.Scalar(value)
        else { return true }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .nonspacingMark, .enclosingMark: return false
        default: return true
        }
    }

    private static func isPrintable(_ character: Character) -> Bool {
        if let value = singleScalar(character) { return isPrintable(scalar: value) }
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
