import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct VirtualKeyboardTests {
    final class Log {
        var events: [KeyEvent] = []
    }

    func make() -> (Dispatcher, VirtualKeyboard, Log) {
        let dispatcher = Dispatcher(window: Window())
        let log = Log()
        dispatcher.addTraceObserver { record in
            if case .input(let event, _, _) = record.kind { log.events.append(event) }
        }
        return (dispatcher, VirtualKeyboard(dispatcher, clock: 10, step: 0.5), log)
    }

    @Test("a chord presses modifiers in ctrl, alt, shift, cmd order and releases them in reverse")
    func chordOrder() {
        let (_, keyboard, log) = make()
        keyboard.tap("cmd+shift+ctrl+f")
        #expect(
            log.events.map { "\($0.action) \($0.code)" } == [
                "down ControlLeft", "down ShiftLeft", "down MetaLeft", "down KeyF",
                "up KeyF", "up MetaLeft", "up ShiftLeft", "up ControlLeft",
            ])
        #expect(log.events.map(\.timestamp) == [10, 10.5, 11, 11.5, 12, 12.5, 13, 13.5])
    }

    @Test("type taps each chord of a sequence; repeats and devices go through the same entry point")
    func sequenceRepeatAndDevices() {
        let (dispatcher, keyboard, log) = make()
        keyboard.type("tab shift+tab")
        #expect(log.events.count == 6)
        let second = VirtualKeyboard(dispatcher, device: DeviceID(rawValue: 4))
        second.press(.a)
        second.autoRepeat(.a, times: 2)
        #expect(log.events.suffix(3).map(\.action) == [.down, .repeat, .repeat])
        #expect(log.events.last?.device == DeviceID(rawValue: 4))
        #expect(dispatcher.keyboardState.isPressed(.a, on: DeviceID(rawValue: 4)))
        second.unplug()
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
        keyboard.press(.b)
        keyboard.loseKeyboard()
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
    }

    @Test("a chord that cannot be read records an issue at the caller and types nothing")
    func badChord() {
        let (_, keyboard, log) = make()
        let chord = keyboard.tapping("ctrl+nosuchkey")
        #expect(chord?.contains("nosuchkey") == true, "\(chord ?? "no failure")")
        let sequence = keyboard.typing("tab bogus")
        #expect(sequence?.contains("bogus") == true, "\(sequence ?? "no failure")")
        #expect(log.events.isEmpty)
        #expect(keyboard.tapping("tab") == nil)
        #expect(!log.events.isEmpty)
    }

    @Test("typeText types each character with its key, Shift where needed, a newline with Return")
    func typeTextKeys() {
        let (_, keyboard, log) = make()
        keyboard.typeText("aB!\n")
        #expect(
            log.events.map { "\($0.action) \($0.code)" } == [
                "down KeyA", "up KeyA",
                "down ShiftLeft", "down KeyB", "up KeyB", "up ShiftLeft",
                "down ShiftLeft", "down Digit1", "up Digit1", "up ShiftLeft",
                "down Enter", "up Enter",
            ])
    }

    @Test("typeText fills a text field; with Caps Lock on, Shift gives the lower case")
    func typeTextIntoField() {
        let window = Window()
        let field = TextInputNode(identifier: "plate")
        window.addChild(field)
        _ = field.becomeFirstResponder()
        let keyboard = VirtualKeyboard(Dispatcher(window: window))
        keyboard.typeText("Ki 42-x")
        #expect(field.text == "Ki 42-x")
        keyboard.tap("capslock")
        keyboard.typeText("aB")
        #expect(field.text == "Ki 42-xaB")
    }

    @Test("a character no key types arrives as text an input method committed, as XCUITest delivers any character")
    func typeTextUntypeable() {
        let (dispatcher, keyboard, log) = make()
        let field = TextInputNode(identifier: "name")
        dispatcher.window.addChild(field)
        _ = field.becomeFirstResponder()
        var inserted: [Int] = []
        dispatcher.addTraceObserver { record in
            if case .textInserted(let count, _) = record.kind { inserted.append(count) }
        }
        keyboard.typeText("Café Ørsted")
        #expect(field.text == "Café Ørsted")
        #expect(inserted == [1, 1], "é and Ø, each inserted between the keys around it")
        #expect(log.events.filter { $0.action == .down && $0.code != .leftShift }.count == 9)
    }
}
