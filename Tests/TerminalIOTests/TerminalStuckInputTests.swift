import LinuxSystem
import ResponderChain
import ResponderChainTesting
import TerminalIO
import Testing

/// What used to leave a terminal session stuck: a modifier whose release never came, a
/// kitty-style press without event types, a paste without its end, a sequence without an end.
/// In each, Ctrl-C must still quit.
@MainActor @Suite struct TerminalStuckInputTests {
    static let ctrlC = ["down ControlLeft", "down KeyC", "up KeyC", "up ControlLeft"]

    func describe(_ events: [InputEvent]) -> [String] {
        events.map(\.line)
    }

    func decode(_ text: String, kitty: Bool) -> [String] {
        var decoder = TerminalKeyDecoder(reportsEventTypes: kitty)
        return describe(decoder.decode(Array(text.utf8)))
    }

    /// A window whose text field takes every key, and a Ctrl-C reserved as KeyboardApp reserves
    /// its quit command; the input goes to the dispatcher as a sink, as a terminal's does.
    func quits(after text: String, kitty: Bool) -> (quits: Int, field: RecordingResponder, dispatcher: Dispatcher) {
        let window = Window()
        let field = RecordingResponder("field", canBecomeFirstResponder: true)
        field.handlesAllKeys = true
        window.addChild(field)
        field.becomeFirstResponder()
        let dispatcher = Dispatcher(window: window, layout: TerminalKeyboardLayout())
        var quits = 0
        dispatcher.reserve(
            ReservedShortcut(KeyCommand("c", modifierFlags: .control, action: "quit", title: "Quit")) { _ in quits += 1
            })
        var decoder = TerminalKeyDecoder(reportsEventTypes: kitty)
        for input in decoder.decode(Array(text.utf8)) { dispatcher.receive(input) }
        return (quits, field, dispatcher)
    }

    // MARK: Modifiers: the report is the truth

    @Test("kitty: a Shift press whose release never came is cancelled by a Ctrl-C byte, which quits")
    func kittyShiftThenControlByte() {
        #expect(
            decode("\u{1b}[57441;2u" + "\u{3}", kitty: true) == ["down ShiftLeft", "cancel ShiftLeft"] + Self.ctrlC)
        let (quits, field, dispatcher) = quits(after: "\u{1b}[57441;2u" + "\u{3}", kitty: true)
        #expect(quits == 1, "Ctrl-C, not Ctrl+Shift+C")
        #expect(field.presses.filter { $0.key.keyCode == .leftShift }.map(\.phase) == [.began, .cancelled])
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty, "nothing stuck")
    }

    @Test("kitty: a repeat of a key never seen pressed is its press; a Control held that way still lets Ctrl-C quit")
    func kittyRepeatWithoutPress() {
        // Control held when the terminal gained focus: its first report is a repeat (type 2).
        let control = "\u{1b}[57442;5:2u"
        #expect(decode(control, kitty: true) == ["down ControlLeft"])
        #expect(decode(control + "\u{1b}[57442;5:2u", kitty: true) == ["down ControlLeft", "repeat ControlLeft"])
        let (quits, _, dispatcher) = quits(after: control + "\u{3}", kitty: true)
        #expect(quits == 1, "fuzz-terminal found Ctrl-C lost here: the repeat had left Control down unseen")
        #expect(dispatcher.keyboardState.pressedKeys == [.leftControl], "the terminal still holds Control")
    }

    @Test("kitty: a lost Shift is cancelled by any report without it, a modifier key's included")
    func kittyModifierReports() {
        // Shift down, focus lost; then Ctrl goes down, reported with Ctrl alone (5).
        #expect(
            decode("\u{1b}[57441;2u" + "\u{1b}[57442;5u" + "\u{1b}[99;5u" + "\u{1b}[99;5:3u", kitty: true) == [
                "down ShiftLeft", "cancel ShiftLeft", "down ControlLeft", "down KeyC", "up KeyC",
            ])
        // Alt lost, then a plain Return typed as a legacy byte.
        #expect(
            decode("\u{1b}[57443;3u" + "\r", kitty: true) == [
                "down AltLeft", "cancel AltLeft", "down Enter", "up Enter",
            ])
    }

    @Test("kitty: a Ctrl the terminal holds stays held through a Ctrl-C byte; its release ends it")
    func kittyHeldControlThenControlByte() {
        #expect(
            decode("\u{1b}[57442;5u" + "\u{3}" + "\u{1b}[57442;1:3u", kitty: true) == [
                "down ControlLeft", "down KeyC", "up KeyC", "up ControlLeft",
            ])
        let (quits, field, _) = quits(after: "\u{1b}[57442;5u" + "\u{3}", kitty: true)
        #expect(quits == 1)
        #expect(field.presses.filter { $0.key.keyCode == .leftControl }.map(\.phase) == [.began])
    }

    @Test("kitty: a key whose release never came is cancelled when it is pressed or typed again, so Ctrl-C quits")
    func kittyLostKeyRelease() {
        #expect(
            decode("\u{1b}[97u" + "\u{1b}[97u" + "\u{1b}[97;1:3u", kitty: true) == [
                "down KeyA", "cancel KeyA", "down KeyA", "up KeyA",
            ])
        #expect(decode("\u{1b}[99u" + "\u{3}", kitty: true) == ["down KeyC", "cancel KeyC"] + Self.ctrlC)
        let (quits, field, dispatcher) = quits(after: "\u{1b}[99u" + "\u{3}", kitty: true)
        #expect(quits == 1, "a fresh press of C, not a repeat")
        #expect(field.presses.filter { $0.key.keyCode == .c }.map(\.phase) == [.began, .cancelled], "the lost one")
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
    }

    @Test("legacy: a kitty-style press-only report is typed, so no later key carries Alt and Ctrl-C quits")
    func legacyPressOnlyReport() {
        #expect(
            decode("\u{1b}[97;3:1u" + "x" + "\u{3}", kitty: false)
                == ["down AltLeft", "down KeyA", "up KeyA", "up AltLeft", "down KeyX", "up KeyX"] + Self.ctrlC)
        #expect(decode("\u{1b}[57441;2:1u", kitty: false) == ["down ShiftLeft", "up ShiftLeft"], "a modifier too")
        #expect(decode("\u{1b}[97;3:2u", kitty: false) == ["down AltLeft", "down KeyA", "up KeyA", "up AltLeft"])
        #expect(decode("\u{1b}[97;3:3u", kitty: false).isEmpty, "a release has nothing to end")
        let (quits, _, dispatcher) = quits(after: "\u{1b}[97;3:1u" + "\u{1b}[57443;3:1u" + "\u{3}", kitty: false)
        #expect(quits == 1, "Ctrl-C, not Ctrl+Alt+C")
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
    }

    @Test(
        "an event type outside 1–3, or modifiers that are no number, is bad input: ignored, in either mode",
        arguments: [
            "\u{1b}[97;3:4u", "\u{1b}[97;3:0u", "\u{1b}[97;3:99999999u", "\u{1b}[57443;3:4u", "\u{1b}[1;3:4A",
            "\u{1b}[97;2=:1u", "\u{1b}[97;99999999u", "\u{1b}[99999999~",
        ])
    func badEventType(report: String) {
        for kitty in [false, true] {
            #expect(decode(report, kitty: kitty).isEmpty)
            #expect(decode(report + "\u{3}", kitty: kitty) == Self.ctrlC)
        }
    }

    // MARK: A paste without its end

    @Test("a paste without its end is over after a second without a byte: delivered, and Ctrl-C quits")
    func pasteTimeout() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.decode(Array("\u{1b}[200~one".utf8), time: 10).isEmpty)
        #expect(decoder.decode(Array(" two\u{3}".utf8), time: 10.9).isEmpty, "within the pause: still text")
        #expect(decoder.isPasting)
        let events = decoder.decode([0x03], time: 10.9 + TerminalKeyDecoder.pasteTimeout)
        #expect(describe(events) == ["paste \"one two\\u{03}\""] + Self.ctrlC)
        #expect(!decoder.isPasting && decoder.pendingByteCount == 0)
        // A partial end marker held back is text too.
        var cut = TerminalKeyDecoder()
        _ = cut.decode(Array("\u{1b}[200~x\u{1b}[20".utf8), time: 0)
        #expect(describe(cut.decode(Array("a".utf8), time: 5)) == ["paste \"x\\u{1B}[20\"", "down KeyA", "up KeyA"])
    }

    @Test("an open paste has a deadline a second after its last bytes; expire delivers it then, not before")
    func pasteDeadline() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.deadline == nil)
        #expect(decoder.decode(Array("\u{1b}[200~one".utf8), time: 10).isEmpty)
        #expect(decoder.deadline == 10 + TerminalKeyDecoder.pasteTimeout)
        #expect(decoder.decode(Array(" two".utf8), time: 10.5).isEmpty)
        #expect(decoder.deadline == 10.5 + TerminalKeyDecoder.pasteTimeout, "each byte moves it")
        #expect(decoder.expire(time: 11.4).isEmpty, "not yet")
        #expect(describe(decoder.expire(time: 11.5)) == ["paste \"one two\""])
        #expect(decoder.deadline == nil && !decoder.isPasting)
        #expect(decoder.expire(time: 20).isEmpty)
    }

    @Test("a paste whose bytes keep coming stays a paste, past 1 MiB, and keeps its first MiB")
    func longPaste() {
        var decoder = TerminalKeyDecoder()
        _ = decoder.decode(Array("\u{1b}[200~".utf8), time: 0)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16)
        for step in 0..<20 {
            #expect(decoder.decode(chunk + [0x03], endOfInput: false, time: Double(step) * 0.5).isEmpty)
        }
        #expect(decoder.isPasting)
        let events = decoder.decode(Array("\u{1b}[201~".utf8), time: 10)
        #expect(events.count == 1)
        #expect(events.first?.pastedText?.utf8.count == TerminalKeyDecoder.maximumPasteLength)
    }

    // MARK: Sequences without an end

    @Test("a CSI with 200,000 digits is dropped whole, quickly, and the Ctrl-C after it quits")
    func longParameters() throws {
        let digits = [UInt8](repeating: UInt8(ascii: "7"), count: 200_000)
        let clock = ContinuousClock()
        var events: [InputEvent] = []
        let elapsed = clock.measure {
            var whole = TerminalKeyDecoder(reportsEventTypes: true)
            events = whole.decode(Array("\u{1b}[".utf8) + digits + Array("u\u{3}".utf8))
        }
        try #require(events.count == 4, "no digit typed (a failure here would print every one of them)")
        #expect(describe(events) == Self.ctrlC)
        #expect(elapsed < .seconds(1), "\(elapsed)")
        // In reads of 4096 bytes, as a terminal delivers it; a Ctrl-C inside ends it too.
        var split = TerminalKeyDecoder()
        var splitEvents: [InputEvent] = []
        let bytes = Array("\u{1b}[".utf8) + digits + [0x03]
        for start in stride(from: 0, to: bytes.count, by: 4096) {
            splitEvents += split.decode(bytes[start..<min(start + 4096, bytes.count)], endOfInput: true)
            #expect(split.pendingByteCount <= TerminalKeyDecoder.maximumSequenceLength)
        }
        try #require(splitEvents.count == 4)
        #expect(describe(splitEvents) == Self.ctrlC)
    }

    @Test("an overlong sequence ends at its final byte, at a byte no sequence holds, or after a pause")
    func overlongSequenceEnds() {
        let garbage = "\u{1b}[" + String(repeating: "1;", count: 40)
        #expect(decode(garbage + "~b", kitty: false) == ["down KeyB", "up KeyB"])
        #expect(decode(garbage + "\t", kitty: false) == ["down Tab", "up Tab"])
        var decoder = TerminalKeyDecoder()
        #expect(decoder.decode(Array(garbage.utf8), time: 0).isEmpty)
        #expect(decoder.decode(Array("5".utf8), time: 0.5).isEmpty, "still the sequence")
        #expect(describe(decoder.decode(Array("5".utf8), time: 2)) == ["down Digit5", "up Digit5"])
    }
}
