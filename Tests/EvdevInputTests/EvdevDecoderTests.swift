import EvdevInput
import LinuxSystem
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

    @Test("SYN_DROPPED on a live device discards frames until the device gives its own state")
    func dropped() {
        let (dispatcher, field) = make()
        let decoder = EvdevDecoder(device: DeviceID(rawValue: 3), sink: dispatcher, isLive: true)
        decoder.decode(type: 1, code: KeyCode.a.rawValue, value: 1, time: 0)
        decoder.decode(type: 0, code: 0, value: 0, time: 0)
        decoder.decode(type: 1, code: KeyCode.c.rawValue, value: 1, time: 1)
        decoder.decode(type: 0, code: 3, value: 0, time: 1)
        decoder.decode(type: 1, code: KeyCode.a.rawValue, value: 0, time: 1)
        decoder.decode(type: 0, code: 0, value: 0, time: 2)
        #expect(field.presses.filter { $0.key.keyCode == .a }.map(\.phase) == [.began], "nothing until the state")
        decoder.resynchronize(pressedKeys: [.b], time: 2)
        #expect(decoder.drops == 1)
        #expect(field.presses.filter { $0.key.keyCode == .a }.map(\.phase) == [.began, .cancelled], "a found released")
        #expect(field.presses.filter { $0.key.keyCode == .c }.isEmpty, "the dropped frame never arrives")
        #expect(dispatcher.keyboardState.pressedKeys == [.b], "b recorded as held without a began")
        #expect(field.presses.filter { $0.key.keyCode == .b }.isEmpty)
    }

    @Test("a device removal cancels what it held")
    func removal() {
        let (dispatcher, field) = make()
        let decoder = EvdevDecoder(device: DeviceID(rawValue: 2), sink: dispatcher)
        decoder.decode(type: 1, code: KeyCode.x.rawValue, value: 1, time: 0)
        decoder.decode(type: 0, code: 0, value: 0, time: 0)
        decoder.deviceRemoved(time: 1)
        #expect(field.presses.map(\.phase) == [.began, .cancelled])
    }

    /// A sink that keeps what it receives: the decoder's output as values, no dispatcher.
    final class Collected: InputSink {
        var inputs: [InputEvent] = []
        func receive(_ input: InputEvent) { inputs.append(input) }
    }

    @Test("input runs one way: the decoder and the repeater hand values to a sink and read nothing back")
    func oneWay() {
        let collected = Collected()
        let repeater = SoftwareRepeater(timing: RepeatTiming(delay: 0.5, interval: 0.25), next: collected)
        let device = DeviceID(rawValue: 7)
        let decoder = EvdevDecoder(device: device, sink: repeater, isLive: true)
        decoder.dropsKernelRepeats = true
        func frame(_ key: KeyCode, _ value: Int32, at time: Double, kernel: Bool = false) {
            decoder.decode(type: 1, code: key.rawValue, value: value, time: time)
            decoder.decode(type: 0, code: 0, value: kernel ? 1 : 0, time: time)
        }
        frame(.a, 1, at: 1)
        frame(.a, 2, at: 1.3, kernel: true)  // a kernel repeat: dropped, the repeater makes them
        repeater.fire(now: 1.5)
        decoder.decode(type: 0, code: 3, value: 0, time: 1.6)  // SYN_DROPPED
        frame(.b, 1, at: 1.6)  // discarded: the device's state comes next
        #expect(repeater.fire(now: 1.75), "still repeating: the resync has not said a is up")
        decoder.resynchronize(pressedKeys: [.b], time: 1.8)
        #expect(!repeater.fire(now: 2), "the resync found a released: no more repeats")
        frame(.b, 0, at: 2.1, kernel: true)
        decoder.deviceRemoved(time: 2.2)
        #expect(
            collected.inputs == [
                .key(KeyEvent(.a, .down, device: device, timestamp: 1)),
                .key(KeyEvent(.a, .repeat, device: device, timestamp: 1.5)),
                .key(KeyEvent(.a, .repeat, device: device, timestamp: 1.75)),
                .resynchronize(device: device, pressedKeys: [.b], timestamp: 1.8),
                .cancelKey(.b, device: device, timestamp: 2.1),
                .deviceRemoved(device, timestamp: 2.2),
            ])
        #expect(decoder.keysReleasedByKernel == [.b])
    }
}
