import EvdevInput
import LinuxSystem
import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct SoftwareRepeaterTests {
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

    @Test("the held key repeats after the delay, then at the interval, and stops on release")
    func delayAndInterval() {
        frame(.a, 1, at: 10)
        #expect(repeater.nextDeadline == 10.5)
        #expect(!repeater.fire(now: 10.49))
        #expect(repeater.fire(now: 10.5))
        #expect(repeater.nextDeadline == 10.75)
        #expect(!repeater.fire(now: 10.74))
        #expect(repeater.fire(now: 10.75))
        frame(.a, 0, at: 10.8)
        #expect(repeater.nextDeadline == nil, "nothing to wake up for")
        #expect(!repeater.fire(now: 11))
        #expect(phases(.a) == [.began, .repeated, .repeated, .ended])
    }

    @Test("text passes through to the next sink and leaves a held key repeating")
    func textPassesThrough() {
        let received = RecordingInputSink()
        let repeater = SoftwareRepeater(timing: RepeatTiming(delay: 0.5, interval: 0.25), next: received)
        let device = DeviceID(rawValue: 4)
        repeater.receive(.key(KeyEvent(.a, .down, device: device, timestamp: 10)))
        repeater.receive(.text("pasted", device: device, timestamp: 10.2))
        #expect(repeater.repeatingKey?.key == .a && repeater.nextDeadline == 10.5)
        #expect(repeater.fire(now: 10.5))
        #expect(
            received.inputs == [
                .key(KeyEvent(.a, .down, device: device, timestamp: 10)),
                .text("pasted", device: device, timestamp: 10.2),
                .key(KeyEvent(.a, .repeat, device: device, timestamp: 10.5)),
            ])
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

    @Test("the newest key takes the repeat over; modifiers neither repeat nor interrupt")
    func newestKeyRepeats() {
        frame(.a, 1, at: 0)
        frame(.b, 1, at: 0.1)
        #expect(repeater.repeatingKey?.key == .b)
        frame(.leftShift, 1, at: 0.2)
        #expect(repeater.repeatingKey?.key == .b, "Shift does not take the repeat")
        #expect(repeater.fire(now: 0.6))
        frame(.a, 0, at: 0.62)
        #expect(repeater.repeatingKey?.key == .b, "releasing A leaves B repeating")
        // Shift going down changes both held presses; only B repeats.
        #expect(phases(.a) == [.began, .changed, .ended])
        #expect(phases(.b) == [.began, .changed, .repeated])
        #expect(phases(.leftShift) == [.began])
    }

    @Test("after a stall the repeater delivers one repeat, not a burst, and keeps the interval from now")
    func stall() {
        frame(.a, 1, at: 0)
        #expect(repeater.fire(now: 3))
        #expect(!repeater.fire(now: 3))
        #expect(repeater.nextDeadline == 3.25)
        #expect(phases(.a) == [.began, .repeated])
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

    @Test("a lost keyboard, passed through the repeater, stops the repeat and cancels the press")
    func notHeld() {
        frame(.a, 1, at: 0)
        repeater.receive(.keyboardLost(timestamp: 0.1))
        #expect(!repeater.fire(now: 0.5))
        #expect(repeater.nextDeadline == nil)
        #expect(phases(.a) == [.began, .cancelled])
    }

    @Test("timings have a floor, so a zero interval cannot spin the loop")
    func floor() {
        let timing = RepeatTiming(delay: 0, interval: 0)
        #expect(timing.delay == 0.01)
        #expect(timing.interval == 0.005)
        #expect(RepeatTiming.standard == RepeatTiming(delay: 0.4, interval: 0.04))
    }

    @Test("a compositor's announced timing: rate per second and delay in ms; a rate of 0 turns repeat off")
    func announcedTiming() {
        #expect(RepeatTiming.announced(rate: 25, delay: 600) == RepeatTiming(delay: 0.6, interval: 0.04))
        #expect(RepeatTiming.announced(rate: 0, delay: 600) == nil)
        #expect(RepeatTiming.announced(rate: -1, delay: 600) == nil)
        frame(.a, 1, at: 10)
        #expect(repeater.nextDeadline == 10.5)
        repeater.isEnabled = false
        #expect(repeater.nextDeadline == nil, "turning it off stops the key repeating now")
        frame(.a, 0, at: 10.1)
        frame(.b, 1, at: 11)
        #expect(repeater.nextDeadline == nil && !repeater.fire(now: 20), "no key starts repeating while off")
        frame(.b, 0, at: 20.1)
        #expect(phases(.b) == [.began, .ended])
        repeater.isEnabled = true
        frame(.c, 1, at: 30)
        #expect(repeater.nextDeadline == 30.5)
    }
}
