import LinuxKeyboard
import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct EvdevDecoderTests {
    func make() -> (Dispatcher, RecordingResponder) {
        let window = Window()
        let field = RecordingResponder("field", canBecomeFirstResponder: true)
        field.handlesAllKeys = true
        window.addChild(field)
        field.becomeFirstResponder()
        return (Dispatcher(window: window), field)
    }

    @Test("a recording replays through the decoder: Shift-A as the person typed it")
    func replay() throws {
        let (dispatcher, field) = make()
        let decoder = try EvemuRecording(parsing: EvemuRecordingTests.keyboard).replay(into: dispatcher)
        #expect(decoder.framesDecoded == 4)
        let a = field.presses.filter { $0.key.keyCode == .a }
        #expect(a.map(\.phase) == [.began, .ended])
        #expect(a.first?.key.characters == "A")
        #expect(a.first?.device == DeviceID(rawValue: 1))
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
    }

    @Test("kernel frames (SYN_REPORT 1): repeats are repeats, releases from an unplug are cancellations")
    func synthesizedFrames() throws {
        let (dispatcher, field) = make()
        let text = """
            N: usb keyboard
            E: 0.000 0004 0004 458756
            E: 0.000 0001 001e 0001
            E: 0.000 0000 0000 0000
            E: 0.000 0001 0030 0001
            E: 0.000 0000 0000 0000
            E: 0.250 0001 0030 0002
            E: 0.250 0000 0000 0001
            E: 0.500 0001 001e 0000
            E: 0.500 0001 0030 0000
            E: 0.500 0000 0000 0001
            """
        let decoder = try EvemuRecording(parsing: text).replay(into: dispatcher)
        #expect(decoder.keysReleasedByKernel == [.a, .b], "what the unplug cancelled, for the removal report")
        #expect(field.presses.filter { $0.key.keyCode == .a }.map(\.phase) == [.began, .cancelled])
        #expect(field.presses.filter { $0.key.keyCode == .b }.map(\.phase) == [.began, .repeated, .cancelled])
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty, "nothing stuck")
    }

    @Test("SYN_DROPPED discards up to the next SYN_REPORT, then resyncs from the device's state")
    func dropped() {
        let (dispatcher, field) = make()
        let decoder = EvdevDecoder(device: DeviceID(rawValue: 3), dispatcher: dispatcher)
        decoder.resync = { [.b] }
        decoder.decode(type: 1, code: KeyCode.a.rawValue, value: 1, time: 0)
        decoder.decode(type: 0, code: 0, value: 0, time: 0)
        decoder.decode(type: 1, code: KeyCode.c.rawValue, value: 1, time: 1)
        decoder.decode(type: 0, code: 3, value: 0, time: 1)
        decoder.decode(type: 1, code: KeyCode.a.rawValue, value: 0, time: 1)
        decoder.decode(type: 0, code: 0, value: 0, time: 2)
        #expect(decoder.drops == 1)
        #expect(field.presses.filter { $0.key.keyCode == .a }.map(\.phase) == [.began, .cancelled], "a found released")
        #expect(field.presses.filter { $0.key.keyCode == .c }.isEmpty, "the dropped frame never arrives")
        #expect(dispatcher.keyboardState.pressedKeys == [.b], "b recorded as held without a began")
        #expect(field.presses.filter { $0.key.keyCode == .b }.isEmpty)
    }

    @Test("a device removal cancels what it held")
    func removal() {
        let (dispatcher, field) = make()
        let decoder = EvdevDecoder(device: DeviceID(rawValue: 2), dispatcher: dispatcher)
        decoder.decode(type: 1, code: KeyCode.x.rawValue, value: 1, time: 0)
        decoder.decode(type: 0, code: 0, value: 0, time: 0)
        decoder.deviceRemoved(time: 1)
        #expect(field.presses.map(\.phase) == [.began, .cancelled])
    }
}
