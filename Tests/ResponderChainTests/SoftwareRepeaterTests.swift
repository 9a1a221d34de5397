import ResponderChain
import ResponderChainTesting
import Testing

/// The repeater fed key events as any source hands them on (`InputEvent` values). EvdevInputTests'
/// EvdevDecoderRepeaterTests put the evdev decoder in front of it.
@MainActor @Suite struct SoftwareRepeaterTests {
    let dispatcher: Dispatcher
    let field: RecordingResponder
    let repeater: SoftwareRepeater
    let device = DeviceID(rawValue: 4)

    init() {
        let window = Window()
        field = RecordingResponder("field", canBecomeFirstResponder: true)
        field.handlesAllKeys = true
        window.addChild(field)
        field.becomeFirstResponder()
        dispatcher = Dispatcher(window: window)
        repeater = SoftwareRepeater(timing: RepeatTiming(delay: 0.5, interval: 0.25), next: dispatcher)
    }

    /// The key event a source sends: it goes through the repeater to the dispatcher.
    func key(_ key: KeyCode, _ action: KeyAction, at time: Double) {
        repeater.receive(.key(KeyEvent(key, action, device: device, timestamp: time)))
    }

    func phases(_ key: KeyCode) -> [Press.Phase] {
        field.presses.filter { $0.key.keyCode == key }.map(\.phase)
    }

    @Test("the held key repeats after the delay, then at the interval, and stops on release")
    func delayAndInterval() {
        key(.a, .down, at: 10)
        #expect(repeater.nextDeadline == 10.5)
        #expect(!repeater.fire(now: 10.49))
        #expect(repeater.fire(now: 10.5))
        #expect(repeater.nextDeadline == 10.75)
        #expect(!repeater.fire(now: 10.74))
        #expect(repeater.fire(now: 10.75))
        key(.a, .up, at: 10.8)
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

    @Test("the newest key takes the repeat over; modifiers neither repeat nor interrupt")
    func newestKeyRepeats() {
        key(.a, .down, at: 0)
        key(.b, .down, at: 0.1)
        #expect(repeater.repeatingKey?.key == .b)
        key(.leftShift, .down, at: 0.2)
        #expect(repeater.repeatingKey?.key == .b, "Shift does not take the repeat")
        #expect(repeater.fire(now: 0.6))
        key(.a, .up, at: 0.62)
        #expect(repeater.repeatingKey?.key == .b, "releasing A leaves B repeating")
        // Shift going down changes both held presses; only B repeats.
        #expect(phases(.a) == [.began, .changed, .ended])
        #expect(phases(.b) == [.began, .changed, .repeated])
        #expect(phases(.leftShift) == [.began])
    }

    @Test("after a stall the repeater delivers one repeat, not a burst, and keeps the interval from now")
    func stall() {
        key(.a, .down, at: 0)
        #expect(repeater.fire(now: 3))
        #expect(!repeater.fire(now: 3))
        #expect(repeater.nextDeadline == 3.25)
        #expect(phases(.a) == [.began, .repeated])
    }

    @Test("a lost keyboard, passed through the repeater, stops the repeat and cancels the press")
    func notHeld() {
        key(.a, .down, at: 0)
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
        key(.a, .down, at: 10)
        #expect(repeater.nextDeadline == 10.5)
        repeater.isEnabled = false
        #expect(repeater.nextDeadline == nil, "turning it off stops the key repeating now")
        key(.a, .up, at: 10.1)
        key(.b, .down, at: 11)
        #expect(repeater.nextDeadline == nil && !repeater.fire(now: 20), "no key starts repeating while off")
        key(.b, .up, at: 20.1)
        #expect(phases(.b) == [.began, .ended])
        repeater.isEnabled = true
        key(.c, .down, at: 30)
        #expect(repeater.nextDeadline == 30.5)
    }
}
