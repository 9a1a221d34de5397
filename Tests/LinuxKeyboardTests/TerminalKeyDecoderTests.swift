import LinuxKeyboard
import ResponderChain
import Testing

@Suite struct TerminalKeyDecoderTests {
    typealias Event = TerminalKeyDecoder.Event

    func decode(_ text: String, endOfInput: Bool = true, kitty: Bool = false) -> [String] {
        var decoder = TerminalKeyDecoder(reportsEventTypes: kitty)
        return decoder.decode(Array(text.utf8), endOfInput: endOfInput).map { "\($0.action) \($0.code.name)" }
    }

    func tap(_ keys: String...) -> [String] {
        let modifiers = keys.dropLast()
        return modifiers.map { "down \($0)" } + ["down \(keys.last!)", "up \(keys.last!)"]
            + modifiers.reversed().map { "up \($0)" }
    }

    @Test("text: each character is a tap at its US position, with Shift where the character needs it")
    func text() {
        #expect(decode("a") == tap("KeyA"))
        #expect(decode("A") == tap("ShiftLeft", "KeyA"))
        #expect(decode("?") == tap("ShiftLeft", "Slash"))
        #expect(decode(" ") == tap("Space"))
        #expect(decode("é").isEmpty, "a character no US key types is dropped")
    }

    @Test("control characters: Tab, Return, Backspace, Ctrl-letters; a lone ESC is Escape")
    func controls() {
        #expect(decode("\t") == tap("Tab"))
        #expect(decode("\r") == tap("Enter"))
        #expect(decode("\u{7f}") == tap("Backspace"))
        #expect(decode("\u{06}") == tap("ControlLeft", "KeyF"))
        #expect(decode("\u{1b}") == tap("Escape"))
        #expect(decode("\u{1b}", endOfInput: false).isEmpty, "ESC may start a sequence: wait for more")
    }

    @Test("legacy CSI and SS3 keys, with xterm modifier parameters; Alt as an ESC prefix")
    func legacySequences() {
        #expect(decode("\u{1b}[A") == tap("ArrowUp"))
        #expect(decode("\u{1b}OB") == tap("ArrowDown"))
        #expect(decode("\u{1b}[Z") == tap("ShiftLeft", "Tab"))
        #expect(decode("\u{1b}[1;5C") == tap("ControlLeft", "ArrowRight"))
        #expect(decode("\u{1b}[3~") == tap("Delete"))
        #expect(decode("\u{1b}[15;2~") == tap("ShiftLeft", "F5"))
        #expect(decode("\u{1b}OP") == tap("F1"))
        #expect(decode("\u{1b}x") == ["down AltLeft"] + tap("KeyX") + ["up AltLeft"])
    }

    @Test("the kitty protocol: real press, repeat and release events, modifiers as keys of their own")
    func kitty() {
        let text =
            "\u{1b}[57441u" + "\u{1b}[97;2u" + "\u{1b}[97;2:2u" + "\u{1b}[97;2:3u" + "\u{1b}[57441;1:3u"
            + "\u{1b}[1;1:1A" + "\u{1b}[1;1:3A" + "\u{1b}[9;1:1u" + "\u{1b}[9;1:3u"
        #expect(
            decode(text, kitty: true) == [
                "down ShiftLeft", "down KeyA", "repeat KeyA", "up KeyA", "up ShiftLeft", "down ArrowUp", "up ArrowUp",
                "down Tab", "up Tab",
            ])
    }

    @Test("replies to the protocol and device-attribute queries are not keys")
    func replies() {
        #expect(decode("\u{1b}[?11u\u{1b}[?62;22c").isEmpty)
    }

    @Test("a sequence split across reads is completed by the next read")
    func split() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.decode(Array("\u{1b}[1;".utf8), endOfInput: false).isEmpty)
        let events = decoder.decode(Array("5A".utf8), endOfInput: true)
        #expect(events.map(\.code) == [.leftControl, .upArrow, .upArrow, .leftControl])
    }
}
