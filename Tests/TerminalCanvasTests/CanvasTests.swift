import Testing

@testable import TerminalCanvas

@Suite struct CanvasTests {
    @Test("boxes, flat boxes and text land in their cells; drawing outside the grid is clipped")
    func drawing() {
        var canvas = Canvas(columns: 12, rows: 4)
        canvas.box(0, 0, 11, 3, .double, .focused)
        canvas.text("Check in", 2, 1, .heading)
        canvas.flat(1, 10, 2, .single, .plain)
        canvas.text("far away", 20, 20, .plain)
        canvas.put("x", -1, 0, .plain)
        #expect(
            canvas.lines(escapes: false) == [
                "╔══════════╗", "║ Check in ║", "║├────────┤║", "╚══════════╝",
            ])
        #expect(canvas.style(0, 0) == .focused && canvas.style(2, 1) == .heading)
    }

    @Test("control characters and escapes in drawn text reach the terminal as �, never as a sequence")
    func noEscapeInjection() {
        var canvas = Canvas(columns: 20, rows: 1)
        canvas.text("a\u{1b}[2Jb\u{9b}c\u{7}", 0, 0, .plain)
        let line = canvas.line(0, escapes: true)
        #expect(!line.unicodeScalars.contains { $0.value == 0x07 || $0.value == 0x9B })
        #expect(canvas.lines(escapes: false) == ["a�[2Jb�c�"])
        #expect(!line.unicodeScalars.contains("\u{1b}"), "no escape at all: the row is plain")
    }

    @Test("characters with no column of their own (bidi controls, zero-width, lone marks) are drawn as �, one each")
    func zeroWidthCharacters() {
        var canvas = Canvas(columns: 30, rows: 1)
        // Right-to-left override, zero-width space, byte order mark, line separator, a combining
        // acute with no base, left-to-right isolate: each one column, so the row does not shift.
        let drawn = canvas.text("a\u{202E}b\u{200B}c\u{FEFF}d\u{2028}e\u{2066}", 0, 0, .plain)
        #expect(drawn == 10)
        #expect(canvas.lines(escapes: false) == ["a�b�c�d�e�"])
        var hidden = Canvas(columns: 6, rows: 1)
        hidden.text("a\u{AD}b\u{2060}c", 0, 0, .plain)
        #expect(hidden.lines(escapes: false) == ["a�b�c"], "a soft hyphen and a word joiner standing alone")
        var lone = Canvas(columns: 4, rows: 1)
        lone.text("\u{301}x", 0, 0, .plain)
        #expect(lone.lines(escapes: false) == ["�x"])
        // Inside a grapheme cluster they are part of one character and stay.
        var joined = Canvas(columns: 10, rows: 1)
        #expect(joined.text("e\u{301}\u{1F469}\u{200D}\u{1F4BB}!", 0, 0, .plain) == 4)
        #expect(joined.lines(escapes: false) == ["e\u{301}\u{1F469}\u{200D}\u{1F4BB}!"])
        #expect(Canvas.width(of: "\u{202E}") == 1 && Canvas.width(of: "e\u{301}") == 1)
    }

    @Test("wide characters take two columns; drawing over half of one blanks the other half")
    func wideCharacters() {
        var canvas = Canvas(columns: 6, rows: 1)
        #expect(canvas.text("日本x", 0, 0, .plain) == 5)
        #expect(canvas.lines(escapes: false) == ["日本x"])
        canvas.put("y", 1, 0, .plain)
        #expect(canvas.lines(escapes: false) == [" y本x"])
        var edge = Canvas(columns: 3, rows: 1)
        edge.text("ab日", 0, 0, .plain, limit: 3)
        #expect(edge.lines(escapes: false) == ["ab"], "a wide character that does not fit is not drawn")
    }

    @Test("styles become one SGR escape each, reset at the end of the row")
    func escapes() {
        #expect(CellStyle.focused.escape == "\u{1b}[0;1;7m")
        #expect(CellStyle.overlay.escape == "\u{1b}[0;1;30;43m")
        #expect(CellStyle.plain.escape == "\u{1b}[0m")
        var canvas = Canvas(columns: 3, rows: 1)
        canvas.text("ab", 0, 0, .group)
        #expect(canvas.line(0, escapes: true) == "\u{1b}[0;36mab\u{1b}[0m ")
    }

    @Test("a frame writes only the rows that changed; a new size or no previous frame clears and writes all")
    func frames() {
        var first = Canvas(columns: 4, rows: 3)
        first.text("abc", 0, 0, .plain)
        let full = String(decoding: first.frame(replacing: nil), as: UTF8.self)
        #expect(full.hasPrefix("\u{1b}[0m\u{1b}[2J"))
        #expect(full.contains("\u{1b}[1;1H") && full.contains("\u{1b}[2;1H") && full.contains("\u{1b}[3;1H"))
        var second = first
        second.text("xy", 0, 2, .plain)
        let diff = String(decoding: second.frame(replacing: first), as: UTF8.self)
        #expect(diff == "\u{1b}[3;1Hxy  ")
        #expect(second.frame(replacing: second).isEmpty)
        let resized = Canvas(columns: 5, rows: 3)
        #expect(String(decoding: resized.frame(replacing: first), as: UTF8.self).contains("\u{1b}[2J"))
    }

    @Test("fill and wrapped text stay inside the grid")
    func fillAndWrap() {
        var canvas = Canvas(columns: 10, rows: 3)
        canvas.fill(-5, -5, 50, 50, "#", .plain)
        #expect(canvas.lines(escapes: false) == Array(repeating: "##########", count: 3))
        canvas.fill(0, 0, 9, 2)
        #expect(canvas.wrapped("one two three four", 0, 0, width: 9, .plain) == 3)
        #expect(canvas.lines(escapes: false) == ["one two", "three", "four"])
    }

    @Test("coordinates far outside the grid are clipped without overflow or a long walk")
    func extremeCoordinates() {
        var canvas = Canvas(columns: 8, rows: 3)
        #expect(canvas.text("abcdef", -3, 0, .plain) == 6)
        #expect(canvas.text("x", Int.min, 1, .plain) == 1)
        #expect(canvas.text("x", Int.max, 1, .plain) == 0)
        #expect(canvas.text("abc", 6, 2, .plain, limit: Int.max) == 2)
        canvas.wrapped("one two", Int.min, Int.max, width: 4, .plain)
        canvas.box(Int.min, Int.min, Int.max, Int.max, .single, .plain)
        canvas.box(-1, 1, Int.max, 2, .heavy, .plain)
        canvas.flat(Int.min, Int.max, 1, .double, .plain)
        canvas.fill(Int.min, Int.min, Int.max, Int.max, "#", .plain)
        #expect(canvas.lines(escapes: false) == Array(repeating: "########", count: 3))
        #expect(Canvas(columns: 100_000, rows: Int.max).columns == Canvas.maximumSide)
    }

    @Test("a wide character in the last column is not drawn; a style-only change rewrites its row")
    func edges() {
        var canvas = Canvas(columns: 4, rows: 2)
        canvas.put("日", 3, 0, .plain)
        #expect(canvas.lines(escapes: false) == ["", ""])
        var styled = canvas
        styled.fill(0, 1, 3, 1, " ", .focused)
        #expect(String(decoding: styled.frame(replacing: canvas), as: UTF8.self).hasPrefix("\u{1b}[2;1H"))
    }

    @Test("rowEquals compares one row's characters and styles; another size or a row outside is not equal")
    func rowEquals() {
        var canvas = Canvas(columns: 6, rows: 2)
        canvas.text("ab中", 0, 0, CellStyle())
        var other = canvas
        #expect(canvas.rowEquals(other, row: 0) && canvas.rowEquals(other, row: 1))
        other.fill(0, 1, 2, 1, " ", .focused)
        #expect(canvas.rowEquals(other, row: 0) && !canvas.rowEquals(other, row: 1), "a style alone differs")
        other.put("c", 1, 0, CellStyle())
        #expect(!canvas.rowEquals(other, row: 0))
        #expect(!canvas.rowEquals(Canvas(columns: 5, rows: 2), row: 0))
        #expect(!canvas.rowEquals(canvas, row: 2) && !canvas.rowEquals(canvas, row: -1))
        // ASCII takes one column and control characters are still replaced.
        #expect(Canvas.width(of: "a") == 1 && Canvas.width(of: "中") == 2)
        var controls = Canvas(columns: 3, rows: 1)
        controls.text("\u{7}\u{7F}x", 0, 0, CellStyle())
        #expect(controls.character(0, 0) == "\u{FFFD}" && controls.character(1, 0) == "\u{FFFD}")
        #expect(controls.character(2, 0) == "x")
    }

    /// The reference for ``Canvas/text(_:_:_:_:limit:)``: character by character, as it drew before
    /// it drew text of standalone scalars scalar by scalar.
    private func textByCharacters(
        _ canvas: inout Canvas, _ text: String, _ column: Int, _ row: Int, _ style: CellStyle, limit: Int
    ) {
        let end = min(column + limit, canvas.columns)
        var x = column
        for character in text {
            let width = Canvas.width(of: character)
            guard x <= end - width else { break }
            canvas.put(character, x, row, style)
            x += width
        }
    }

    @Test("text of any three scalars lands as drawing it character by character does (grapheme clusters kept whole)")
    func textMatchesCharacterByCharacter() {
        // Scalars that stand alone, and every kind that joins a cluster or is replaced: CR LF, controls,
        // the soft hyphen, combining marks, a joiner, regional indicators, Hangul jamo, variation selectors,
        // prepended and spacing marks, bidi overrides, wide characters, an emoji modifier after a symbol.
        let alphabet: [UInt32] = [
            0x41, 0x7A, 0x20, 0x0D, 0x0A, 0x09, 0x7F, 0xAD, 0xE9, 0x300, 0x301, 0x200D, 0x1F1E9, 0x1F1EA, 0x1F600,
            0x1100, 0x1161, 0xAC00, 0x11A8, 0x2500, 0x2764, 0xFE0F, 0x3099, 0x302A, 0x3042, 0x4E2D, 0x202E, 0x600,
            0x93F, 0x915, 0xB7, 0x2014, 0x25B8, 0x1F3FB, 0x261D, 0x20E3, 0xE33,
        ]
        // Every text of up to three scalars (52,060), at columns and limits that vary with it.
        var texts: [[UInt32]] = [[]]
        for length in 1...3 {
            texts += texts.filter { $0.count == length - 1 }.flatMap { text in alphabet.map { text + [$0] } }
        }
        for (index, scalars) in texts.enumerated() {
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars.map { Unicode.Scalar($0)! })
            let column = index % 10 - 2
            let limit = index % 14
            var fast = Canvas(columns: 8, rows: 1)
            fast.text("中x中", 0, 0, .faint)
            var reference = fast
            fast.text(text, column, 0, .heading, limit: limit)
            textByCharacters(&reference, text, column, 0, .heading, limit: limit)
            #expect(
                fast == reference,
                "\(text.unicodeScalars.map { String($0.value, radix: 16) }) at \(column), limit \(limit)")
            #expect(fast.lines(escapes: true) == reference.lines(escapes: true))
        }
    }

    @Test(
        "characters of several scalars: kept whole, drawn over many times without growing, and canvases drawn in another order compare equal"
    )
    func clusters() {
        let flags = ["🇩🇪", "🇫🇷", "🇮🇹", "🇪🇸", "🇬🇧", "🇯🇵"]
        var canvas = Canvas(columns: 4, rows: 1)
        // Far more distinct clusters than cells, each drawn over the last.
        for index in 0..<200 {
            canvas.put(Character("e" + String(repeating: "\u{301}", count: 1 + index % 7)), index % 3, 0, .plain)
            canvas.put(Character(flags[index % flags.count]), 2, 0, .heading)
        }
        #expect(canvas.character(0, 0) == Character("e" + String(repeating: "\u{301}", count: 1 + 198 % 7)))
        #expect(canvas.character(1, 0) == Character("e" + String(repeating: "\u{301}", count: 1 + 199 % 7)))
        #expect(canvas.character(2, 0) == Character(flags[199 % flags.count]))
        #expect(canvas.character(3, 0) == " ", "the flag's second column")
        #expect(canvas.clusterCount <= 4 + 1, "clusters drawn over were kept: \(canvas.clusterCount)")

        var one = Canvas(columns: 6, rows: 2)
        one.text("x\u{301}🇩🇪", 0, 0, .plain)
        one.text("🇫🇷", 0, 1, .plain)
        var other = Canvas(columns: 6, rows: 2)
        other.text("🇫🇷", 0, 1, .plain)
        other.text("x\u{301}🇩🇪", 0, 0, .plain)
        #expect(one == other)
        #expect(one.rowEquals(other, row: 0) && one.rowEquals(other, row: 1))
        other.text("🇮🇹", 0, 1, .plain)
        #expect(one != other)
        #expect(one.rowEquals(other, row: 0) && !one.rowEquals(other, row: 1))
        #expect(one.lines(escapes: false) == ["x\u{301}🇩🇪", "🇫🇷"])

        // Scalar for scalar: canonically equivalent spellings are different cells, each shown as drawn.
        var angstrom = Canvas(columns: 4, rows: 1)
        angstrom.text("\u{212B}e\u{301}\u{327}", 0, 0, .plain)
        var ring = Canvas(columns: 4, rows: 1)
        ring.text("\u{C5}e\u{327}\u{301}", 0, 0, .plain)
        #expect(angstrom != ring && !angstrom.rowEquals(ring, row: 0))
        #expect(angstrom.character(0, 0).unicodeScalars.map(\.value) == [0x212B])
        #expect(angstrom.character(1, 0).unicodeScalars.map(\.value) == [0x65, 0x301, 0x327])
        #expect(ring.character(1, 0).unicodeScalars.map(\.value) == [0x65, 0x327, 0x301])
        ring.text("e\u{301}\u{327}", 1, 0, .plain)
        ring.put("\u{212B}", 0, 0, .plain)
        #expect(angstrom == ring)
    }

    @Test("a long text in a short space: drawn as far as it fits, the same as character by character")
    func longText() {
        let long = String(repeating: "abc ", count: 10_000) + "e\u{301}"
        var fast = Canvas(columns: 20, rows: 1)
        fast.text(long, 2, 0, .plain, limit: 5)
        var reference = Canvas(columns: 20, rows: 1)
        textByCharacters(&reference, long, 2, 0, .plain, limit: 5)
        #expect(fast == reference && fast.lines(escapes: false) == ["  abc a"])
        // The scalar after the last that fits joins it: the whole text goes character by character.
        var joined = Canvas(columns: 4, rows: 1)
        joined.text("abe\u{301}", 0, 0, .plain, limit: 3)
        #expect(joined.lines(escapes: false) == ["abé"])
    }
}
