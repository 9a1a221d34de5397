import EvdevInput
import ResponderChain
import ResponderChainTesting
import Testing

/// The evdev decoder in front of a SoftwareRepeater, as EvdevSource pairs them: the kernel's own repeats
/// are dropped, and an unplugged device or a resync stops the software repeat. The repeater on its own is
/// in ResponderChainTests' SoftwareRepeaterTests.
@MainActor @Suite struct EvdevDecoderRepeaterTests {
    let dispatcher: Dispatcher
    let field: RecordingResponder
    let decoder: EvdevDecoder
    let repeater: SoftwareRepeater

    init() {
        let window = Window()
        field = RecordingResponder("field", canBecomeFirstResponder: true)
        field.handlesAllKeys = true
        window.addChild(field)
        field.becomeFirstResponder()
        dispatcher = Dispatcher(window: window)
        repeater = SoftwareRepeater(timing: RepeatTiming(delay: 0.5, interval: 0.25), next: dispatcher)
        decoder = EvdevDecoder(device: DeviceID(rawValue: 4), sink: repeater)
        decoder.dropsKernelRepeats = true
    }

    func frame(_ key: KeyCode, _ value: Int32, at time: Double, kernel: Bool = false) {
        decoder.decode(type: 1, code: key.rawValue, value: value, time: time)
        decoder.decode(type: 0, code: 0, value: kernel ? 1 : 0, time: time)
    }

    func phases(_ key: KeyCode) -> [Press.Phase] {
        field.presses.filter { $0.key.keyCode == key }.map(\.phase)
    }

    @Test("kernel repeats are dropped while software repeats: never both")
    func kernelRepeatsDropped() {
        frame(.a, 1, at: 0)
        frame(.a, 2, at: 0.25, kernel: true)
        frame(.a, 2, at: 0.283, kernel: true)
        repeater.fire(now: 0.5)
        frame(.a, 0, at: 0.6)
        #expect(phases(.a) == [.began, .repeated, .ended], "one repeat, the software one")
    }

    @Test("unplugging, or a resync that finds the key released, stops the repeat and cancels the press")
    func stopsOnRemovalAndResync() {
        frame(.a, 1, at: 0)
        decoder.deviceRemoved(time: 0.1)
        #expect(repeater.nextDeadline == nil)
        #expect(phases(.a) == [.began, .cancelled])

        frame(.b, 1, at: 1)
        decoder.decode(type: 0, code: 3, value: 0, time: 1.1)  // SYN_DROPPED
        decoder.decode(type: 1, code: KeyCode.b.rawValue, value: 0, time: 1.1)  // the sync delta: B is up
        decoder.decode(type: 0, code: 0, value: 0, time: 1.1)
        #expect(repeater.nextDeadline == nil)
        #expect(!repeater.fire(now: 2))
        #expect(phases(.b) == [.began, .cancelled])
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
    }
}
