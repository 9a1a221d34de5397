/// The US English layout (`us` in XKB), built in and pure Swift.
///
/// Letters follow Shift and Caps Lock (Shift with Caps Lock types lower case); other keys follow
/// Shift only. Keypad digits and the decimal point type when Num Lock is on, Shift inverting it;
/// Shift-Tab types nothing; the ISO key next to Left Shift types `<` and `>`. This matches
/// xkbcommon's `us` keymap (pc105), which the Linux module's tests check key by key. Tab, Return,
/// Backspace, Escape and forward Delete type their control characters (`"\t"`, `"\r"`,
/// `"\u{8}"`, `"\u{1B}"`, `"\u{7F}"`) as UIKit's `UIKey` does; arrows, function keys and
/// modifiers type nothing.
public struct USKeyboardLayout: KeyboardLayout, Sendable {
    /// Creates the layout.
    public init() {}

    /// `us`.
    public var name: String { "us" }

    private struct Entry {
        var base: String
        var shifted: String
        /// Caps Lock inverts Shift for this key (letters).
        var followsCapsLock = false
        /// A keypad digit or point: types only with Num Lock on.
        var needsNumLock = false
    }

    /// One entry per evdev code below 128.
    private static let table: [Entry] = {
        var table = [Entry](repeating: Entry(base: "", shifted: ""), count: 128)
        func set(_ code: KeyCode, _ base: String, _ shifted: String) {
            table[Int(code.rawValue)] = Entry(base: base, shifted: shifted)
        }
        let rows: [(String, String, [KeyCode])] = [
            (
                "1234567890", "!@#$%^&*()",
                [.digit1, .digit2, .digit3, .digit4, .digit5, .digit6, .digit7, .digit8, .digit9, .digit0]
            ),
            ("qwertyuiop", "QWERTYUIOP", [.q, .w, .e, .r, .t, .y, .u, .i, .o, .p]),
            ("asdfghjkl", "ASDFGHJKL", [.a, .s, .d, .f, .g, .h, .j, .k, .l]),
            ("zxcvbnm", "ZXCVBNM", [.z, .x, .c, .v, .b, .n, .m]),
            (
                "-=[];'`\\,./", "_+{}:\"~|<>?",
                [
                    .minus, .equal, .leftBracket, .rightBracket, .semicolon, .quote, .backquote,
                    .backslash, .comma, .period, .slash,
                ]
            ),
        ]
        for (base, shifted, codes) in rows {
            for (index, (b, s)) in zip(base, shifted).enumerated() {
                set(codes[index], String(b), String(s))
                table[Int(codes[index].rawValue)].followsCapsLock = b.isLetter
            }
        }
        let keypad: [(KeyCode, String)] = [
            (.keypad0, "0"), (.keypad1, "1"), (.keypad2, "2"), (.keypad3, "3"), (.keypad4, "4"), (.keypad5, "5"),
            (.keypad6, "6"), (.keypad7, "7"), (.keypad8, "8"), (.keypad9, "9"), (.keypadDecimal, "."),
        ]
        for (code, digit) in keypad {
            table[Int(code.rawValue)] = Entry(base: digit, shifted: digit, needsNumLock: true)
        }
        set(.intlBackslash, "<", ">")  // the ISO key of a pc105 keyboard, as xkbcommon's us has it
        set(.space, " ", " ")
        set(.tab, "\t", "")  // Shift-Tab is ISO_Left_Tab, which types nothing
        set(.return, "\r", "\r")
        set(.keypadEnter, "\r", "\r")
        set(.backspace, "\u{8}", "\u{8}")
        set(.escape, "\u{1B}", "\u{1B}")
        set(.deleteForward, "\u{7F}", "\u{7F}")
        set(.keypadDivide, "/", "/")
        set(.keypadMultiply, "*", "*")
        set(.keypadSubtract, "-", "-")
        set(.keypadAdd, "+", "+")
        set(.keypadEqual, "=", "=")
        return table
    }()

    /// The characters a key types on a US keyboard.
    ///
    /// - Parameters:
    ///   - code: The physical key.
    ///   - state: Shift, Caps Lock and Num Lock are used; other modifiers are ignored.
    /// - Returns: The characters, or `""`.
    public func characters(for code: KeyCode, in state: LayoutState) -> String {
        let index = Int(code.rawValue)
        guard index < Self.table.count else { return "" }
        let entry = Self.table[index]
        // Keypad digits type when Num Lock is on, and Shift inverts it (xkb's KEYPAD key type).
        if entry.needsNumLock { return state.numLock != state.modifierFlags.contains(.shift) ? entry.base : "" }
        var shift = state.modifierFlags.contains(.shift)
        if entry.followsCapsLock && state.modifierFlags.contains(.alphaShift) { shift.toggle() }
        return shift ? entry.shifted : entry.base
    }
}
