import LinuxSystem
import ResponderChain
import TerminalIO
import Testing

@MainActor @Suite struct TerminalKeyDecoderTests {
    func decode(_ text: String, endOfInput: Bool = true, kitty: Bool = false) -> [String] {
        var decoder = TerminalKeyDecoder(reportsEventTypes: kitty)
        return decoder.decode(Array(text.utf8), endOfInput: endOfInput).map(\.line)
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
        #expect(decode("é") == tap("Unidentified"), "a character no US key types has no position")
    }

    @Test("what a key typed travels with it as the terminal sent it: UTF-8, kitty's associated text, never a control")
    func textTravels() {
        func texts(_ input: String, kitty: Bool = false) -> [String?] {
            var decoder = TerminalKeyDecoder(reportsEventTypes: kitty)
            let typed = decoder.decode(Array(input.utf8)).filter { $0.action != .up && $0.code?.isModifier == false }
            return typed.map(\.keyText)
        }
        #expect(texts("aA?é ф日") == ["a", "A", "?", "é", " ", "ф", "日"])
        #expect(texts("\u{1}\t\r\u{7f}") == [nil, nil, nil, nil], "Ctrl+A, Tab, Return, Backspace: the layout says")
        #expect(texts("\u{1b}a") == ["a"], "Alt+a keeps its text")
        // Kitty: Shift+2 on a German keyboard reports the key 2 with the text " (34).
        var kitty = TerminalKeyDecoder(reportsEventTypes: true)
        let shifted = kitty.decode(Array("\u{1b}[50;2;34u".utf8)).filter { $0.code?.isModifier == false }
        #expect(shifted.map(\.code) == [.digit2] && shifted.first?.keyText == "\"")
        // The é key of a French keyboard: its code point, no US position.
        #expect(texts("\u{1b}[233u", kitty: true) == ["é"])
        #expect(texts("\u{1b}[233;1:3u", kitty: true) == [], "a release types nothing")
        // é and è held at once: two taps, not one key repeating.
        var overlap = TerminalKeyDecoder(reportsEventTypes: true)
        let both = overlap.decode(Array("\u{1b}[233u\u{1b}[232u\u{1b}[233;1:3u\u{1b}[232;1:3u".utf8))
        let described = both.map { "\($0.action?.description ?? "-") \($0.keyText ?? "-")" }
        #expect(described == ["down é", "up -", "down è", "up -"])
        #expect(texts("\u{1b}[97;1;7u", kitty: true) == [nil], "a control character never arrives as text")
        #expect(texts("\u{1b}[57399u", kitty: true) == [nil], "keypad 0: a functional key, the layout says")
    }

    @Test("invalid UTF-8 and C1 control characters are no keys")
    func invalidText() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.decode([0xC3]).isEmpty, "a cut-off character")
        #expect(decoder.decode([0xC3, 0x28]).map(\.code) == [.leftShift, .digit9, .digit9, .leftShift], "( survives")
        #expect(decoder.decode([0xC2, 0x9B]).isEmpty, "U+009B, the C1 CSI")
        #expect(decoder.decode([0xBF, 0x61]).map(\.code) == [.a, .a], "a stray continuation byte, then a")
    }

    @Test("a bracketed paste is one paste event with its text, whole or a byte at a time; keys around it stay keys")
    func bracketedPaste() {
        let bytes = Array("a\u{1b}[200~héllo\n\u{1b}x\u{1b}[201~b".utf8)
        func describe(_ events: [InputEvent]) -> [String] { events.map(\.line) }
        var whole = TerminalKeyDecoder()
        let expected = tap("KeyA") + ["paste \"héllo\\n\\u{1B}x\""] + tap("KeyB")
        #expect(describe(whole.decode(bytes)) == expected)
        var split = TerminalKeyDecoder()
        var events: [InputEvent] = []
        for byte in bytes {
            events += split.decode([byte], endOfInput: false)
            #expect(split.pendingByteCount <= TerminalKeyDecoder.maximumSequenceLength)
        }
        events += split.decode([], endOfInput: true)
        #expect(describe(events) == expected)
        #expect(!split.isPasting && split.pendingByteCount == 0)
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

    @Test(
        "extreme or malformed numbers in a sequence are ignored, never a trap",
        arguments: [
            "\u{1b}[97;-9223372036854775808u", "\u{1b}[97;-9223372036854775807:3u", "\u{1b}[99999999999999999999;5u",
            "\u{1b}[97;99999999999999999999:2u", "\u{1b}[-1u", "\u{1b}[1;0A", "\u{1b}[1;-5A",
            "\u{1b}[9223372036854775807~",
            "\u{1b}[1114112u", "\u{1b}[55296u",
        ])
    func extremeParameters(text: String) {
        for kitty in [false, true] {
            var decoder = TerminalKeyDecoder(reportsEventTypes: kitty)
            _ = decoder.decode(Array(text.utf8))
            #expect(decoder.pendingByteCount == 0)
        }
    }

    @Test("bytes that never end a sequence are dropped, so the decoder's buffer stays bounded")
    func unterminatedSequence() {
        var decoder = TerminalKeyDecoder(reportsEventTypes: true)
        var events: [InputEvent] = []
        events += decoder.decode(Array("\u{1b}[".utf8), endOfInput: false)
        for _ in 0..<10_000 {
            events += decoder.decode(Array("1;".utf8), endOfInput: false)
            #expect(decoder.pendingByteCount < TerminalKeyDecoder.maximumSequenceLength)
        }
        events += decoder.decode(Array("ab".utf8), endOfInput: true)
        #expect(events.map(\.code) == [.b, .b], "none of the garbage is a key; after its final byte, keys again")
    }

    @Test("a control character inside a sequence ends it and is read as a key")
    func cutOffSequence() {
        #expect(decode("\u{1b}[1;\t") == tap("Tab"))
        #expect(decode("\u{1b}[1\u{1b}[A") == tap("ArrowUp"))
    }

    @Test("a modifier whose release the terminal lost is cancelled when a key reports it up")
    func lostModifierRelease() {
        // Shift goes down, the terminal loses focus (no release), then Ctrl-C arrives with only Ctrl.
        let text = "\u{1b}[57441;2u" + "\u{1b}[57442;6u" + "\u{1b}[99;5u" + "\u{1b}[99;5:3u"
        #expect(
            decode(text, kitty: true) == [
                "down ShiftLeft", "down ControlLeft", "cancel ShiftLeft", "down KeyC", "up KeyC",
            ])
    }

    @Test("a modifier the terminal reports held that the decoder never saw go down is pressed first")
    func missedModifierPress() {
        // Ctrl was down before keytrace started: the first key says so.
        let text = "\u{1b}[99;5u" + "\u{1b}[99;5:3u" + "\u{1b}[97;1u"
        #expect(
            decode(text, kitty: true) == [
                "down ControlLeft", "down KeyC", "up KeyC", "cancel ControlLeft", "down KeyA",
            ])
    }
}
