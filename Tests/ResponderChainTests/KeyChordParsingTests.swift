import ResponderChain
import Testing

@MainActor @Suite struct KeyChordParsingTests {
    @Test(
        "chords read as modifiers then a key",
        arguments: [
            ("ctrl+shift+f", KeyChord(.f, [.control, .shift])),
            ("shift+tab", KeyChord(.tab, .shift)),
            ("tab", KeyChord(.tab)),
            ("up", KeyChord(.upArrow)),
            ("Return", KeyChord(.return)),
            ("enter", KeyChord(.return)),
            ("esc", KeyChord(.escape)),
            ("f5", KeyChord(.f5)),
            ("F24", KeyChord(.f24)),
            ("cmd+KeyA", KeyChord(.a, .command)),
            ("super+KEY_Q", KeyChord(.q, .command)),
            ("alt+option+x", KeyChord(.x, .alternate)),
            ("?", KeyChord(.slash, .shift)),
            ("ctrl+?", KeyChord(.slash, [.control, .shift])),
            ("A", KeyChord(.a)),
            ("/", KeyChord(.slash)),
            ("ctrl++", KeyChord(.equal, [.control, .shift])),
            ("shift", KeyChord(.leftShift)),
            ("ctrl+shift", KeyChord(.leftShift, .control)),
            ("evdev30", KeyChord(.a)),
        ])
    func chords(text: String, expected: KeyChord) throws {
        #expect(try KeyChord(parsing: text) == expected)
    }

    @Test(
        "errors name the bad part and the chord's position",
        arguments: [
            ("ctrl+", "", "empty part"),
            ("hyper+a", "hyper", "not a modifier"),
            ("ctrl+nosuchkey", "nosuchkey", "not a key name"),
            ("", "", "empty part"),
        ])
    func errors(text: String, token: String, reason: String) {
        #expect(
            throws: KeyChordParseError(
                text: text, token: text.isEmpty || text.hasSuffix("+") ? text : token,
                position: 1, reason: reason)
        ) {
            try KeyChord(parsing: text)
        }
    }

    @Test("sequences split on spaces and report the position of the bad chord")
    func sequences() throws {
        let chords = try KeyChord.parseSequence("tab tab down return shift+tab ctrl+f")
        #expect(chords.map(\.description) == ["Tab", "Tab", "ArrowDown", "Enter", "shift+Tab", "ctrl+KeyF"])
        do {
            _ = try KeyChord.parseSequence("tab tab bogus")
            Issue.record("expected an error")
        } catch {
            #expect(error.position == 3)
            #expect(error.token == "bogus")
            #expect(error.description.contains("key 3 \"bogus\": not a key name"))
        }
    }

    @Test("a chord's modifier keys come in ctrl, alt, shift, cmd order and exclude the key itself")
    func modifierKeys() throws {
        #expect(
            try KeyChord(parsing: "cmd+shift+ctrl+alt+k").modifierKeys == [
                .leftControl, .leftAlt, .leftShift, .leftMeta,
            ])
        #expect(try KeyChord(parsing: "ctrl+shift").modifierKeys == [.leftControl])
    }

    @Test("every key code prints as a name that parses back to the same key (Select is evdev 132, select KEY_SELECT)")
    func everyNameParsesBack() throws {
        for raw in UInt16(0)...0x2ff {
            let chord = KeyChord(KeyCode(raw), [])
            #expect((try? KeyChord(parsing: chord.description)) == chord, "\(chord.description)")
        }
        #expect(try KeyChord(parsing: "Select").code == KeyCode(132))
        #expect(try KeyChord(parsing: "select").code == .select)
    }
}
