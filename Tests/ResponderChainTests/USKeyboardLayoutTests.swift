import ResponderChain
import Testing

@MainActor @Suite struct USKeyboardLayoutTests {
    let layout = USKeyboardLayout()

    @Test(
        "characters follow Shift, and Caps Lock for letters only",
        arguments: [
            (KeyCode.a, ModifierFlags(), "a"),
            (KeyCode.a, ModifierFlags.shift, "A"),
            (KeyCode.a, ModifierFlags.alphaShift, "A"),
            (KeyCode.a, ModifierFlags([.alphaShift, .shift]), "a"),
            (KeyCode.digit1, ModifierFlags.alphaShift, "1"),
            (KeyCode.digit1, ModifierFlags.shift, "!"),
            (KeyCode.slash, ModifierFlags.shift, "?"),
            (KeyCode.a, ModifierFlags([.control, .command, .alternate]), "a"),
            (KeyCode.tab, ModifierFlags(), "\t"),
            (KeyCode.return, ModifierFlags(), "\r"),
            (KeyCode.upArrow, ModifierFlags(), ""),
            (KeyCode.f5, ModifierFlags.shift, ""),
            (KeyCode.leftShift, ModifierFlags.shift, ""),
        ])
    func characters(code: KeyCode, flags: ModifierFlags, expected: String) {
        #expect(layout.characters(for: code, in: LayoutState(modifierFlags: flags)) == expected)
    }

    @Test("keypad digits type only with Num Lock on; charactersIgnoringModifiers assumes it on")
    func keypad() {
        #expect(layout.characters(for: .keypad7, in: LayoutState(numLock: true)) == "7")
        #expect(layout.characters(for: .keypad7, in: LayoutState(numLock: false)) == "")
        #expect(layout.characters(for: .keypadAdd, in: LayoutState(numLock: false)) == "+")
        #expect(layout.charactersIgnoringModifiers(for: .keypad7) == "7")
        #expect(layout.charactersIgnoringModifiers(for: .a) == "a")
    }
}
