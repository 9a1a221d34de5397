import ResponderChain
import Testing

/// The matching rules of the KeyCommandMatching article, one test per rule.
@MainActor @Suite struct KeyCommandMatchingTests {
    let us = USKeyboardLayout()

    func chords(
        _ command: KeyCommand, _ layout: any KeyboardLayout = USKeyboardLayout(),
        _ direction: LayoutDirection = .leftToRight
    ) -> [KeyChord] {
        command.resolution(on: layout, direction: direction).chords
    }

    @Test("letters match without regard to case; Shift is written explicitly")
    func letters() {
        #expect(chords(KeyCommand("f", modifierFlags: .control, action: .find)) == [KeyChord(.f, .control)])
        #expect(chords(KeyCommand("F", modifierFlags: .control, action: .find)) == [KeyChord(.f, .control)])
        #expect(
            chords(KeyCommand("f", modifierFlags: [.control, .shift], action: .find))
                == [KeyChord(.f, [.control, .shift])])
    }

    @Test("a character typed with Shift implies Shift: ? is Shift-/, a chord shift+/ also has")
    func shiftedSymbols() {
        let question = chords(KeyCommand("?", modifierFlags: .command, action: .help))
        let slash = chords(KeyCommand("/", modifierFlags: [.command, .shift], action: .help))
        #expect(question == [KeyChord(.slash, [.command, .shift])])
        // "/" is also on the keypad, so shift+/ also matches Shift with keypad divide.
        #expect(slash == [KeyChord(.slash, [.command, .shift]), KeyChord(.keypadDivide, [.command, .shift])])
    }

    @Test("digits match the main block and the keypad; numericPad restricts to the keypad")
    func keypad() {
        #expect(
            Set(chords(KeyCommand("1", modifierFlags: .command, action: .next)))
                == [KeyChord(.digit1, .command), KeyChord(.keypad1, .command)])
        #expect(
            chords(KeyCommand("1", modifierFlags: [.command, .numericPad], action: .next))
                == [KeyChord(.keypad1, .command)])
        #expect(Set(chords(KeyCommand("+", action: .next))) == [KeyChord(.equal, .shift), KeyChord(.keypadAdd)])
    }

    @Test("special keys match by identity; Return also matches keypad Enter")
    func specialKeys() {
        #expect(
            chords(KeyCommand(.upArrow, modifierFlags: .alternate, action: .next)) == [KeyChord(.upArrow, .alternate)])
        #expect(chords(KeyCommand(.return, action: .next)) == [KeyChord(.return), KeyChord(.keypadEnter)])
        #expect(chords(KeyCommand(.f13, action: .next)) == [KeyChord(.f13)])
        for key in KeyCommand.SpecialKey.allCases { #expect(!key.keyCodes.isEmpty, "\(key)") }
    }

    @Test("right-to-left windows mirror arrows and brackets unless mirroring is off")
    func mirroring() {
        let left = KeyCommand(.leftArrow, modifierFlags: .command, action: .next)
        #expect(chords(left, us, .rightToLeft) == [KeyChord(.rightArrow, .command)])
        #expect(left.resolution(on: us, direction: .rightToLeft).mirrored)
        var fixed = left
        fixed.allowsAutomaticMirroring = false
        #expect(chords(fixed, us, .rightToLeft) == [KeyChord(.leftArrow, .command)])
        #expect(
            chords(KeyCommand("[", modifierFlags: .command, action: .next), us, .rightToLeft)
                == [KeyChord(.rightBracket, .command)])
        #expect(
            chords(KeyCommand("a", modifierFlags: .command, action: .next), us, .rightToLeft)
                == [KeyChord(.a, .command)])
    }

    @Test("on another layout, characters match where that layout types them")
    func layoutAware() {
        let qwertz = QWERTZTestLayout()
        #expect(chords(KeyCommand("z", modifierFlags: .command, action: .next), qwertz) == [KeyChord(.y, .command)])
        #expect(
            chords(KeyCommand("/", modifierFlags: .command, action: .next), qwertz)
                == [KeyChord(.digit7, [.command, .shift]), KeyChord(.keypadDivide, .command)])
    }

    @Test("an input the layout cannot type moves to its US position, or is unreachable without localization")
    func localization() {
        let qwertz = QWERTZTestLayout()
        let bracket = KeyCommand("[", modifierFlags: .command, action: .next)
        let resolution = bracket.resolution(on: qwertz)
        #expect(resolution.placement == .localized)
        #expect(resolution.chords == [KeyChord(.leftBracket, .command)])
        var strict = bracket
        strict.allowsAutomaticLocalization = false
        #expect(strict.resolution(on: qwertz).placement == .unreachable)
        #expect(strict.resolution(on: qwertz).chords.isEmpty)
        #expect(KeyCommand("é", action: .next).resolution(on: us).placement == .unreachable)
    }
}
