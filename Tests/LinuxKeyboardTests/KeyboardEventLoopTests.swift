import Foundation
import LinuxKeyboard
import ResponderChain
import Synchronization
import Testing

// The loop against real devices (typing, hot-plug, unplug, grab, LEDs, repeats) is tested in the
// VM by Tools/vm-test; these tests cover what needs no input device.
@Suite struct KeyboardEventLoopTests {
    @Test("a missing device path fails to start with the path and how to list keyboards")
    func missingPath() throws {
        let loop = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: Window()), options: .init(devices: ["/dev/input/event999"], hotPlug: false))
        #expect(throws: InputError.opening("/dev/input/event999", errno: InputError.noSuchFile)) { try loop.start() }
        #expect(loop.keyboards.isEmpty)
    }

    @Test("a device name nothing matches says what was asked for and where to look")
    func unmatchedName() throws {
        let loop = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: Window()), options: .init(devices: ["No Such Keyboard 9000"], hotPlug: false)
        )
        #expect {
            try loop.start()
        } throws: { error in
            let text = "\(error)"
            return text.contains("\"No Such Keyboard 9000\"") && text.contains("ls -l /dev/input/by-id")
                || text.contains("permission denied")
        }
    }

    @Test("with no keyboard and requireKeyboard, start fails with the discovery error; without it, the loop waits")
    func noKeyboards() throws {
        let found = try KeyboardDiscovery.inputDevices()
        let strict = try KeyboardEventLoop(dispatcher: Dispatcher(window: Window()), options: .init(hotPlug: false))
        if found.allSatisfy({ ($0.kind ?? KeyboardKind.none) == KeyboardKind.none }) {
            #expect(throws: InputError.noKeyboards(searched: found.count)) { try strict.start() }
        } else {
            // A host with keyboards: the loop reads them, or names the permission fix.
            do {
                try strict.start()
                #expect(!strict.keyboards.isEmpty)
            } catch {
                #expect(error.errno == InputError.permissionDenied)
            }
        }
        let waiting = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: Window()), options: .init(hotPlug: false, requireKeyboard: false))
        try waiting.start()
        #expect(waiting.nextDeadline == nil, "nothing is due, so the loop may block without a timeout")
    }

    @Test("hot-plug listens to the udev source when udevd runs, the kernel source otherwise, or says it cannot")
    func hotPlugSource() throws {
        let loop = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: Window()), options: .init(hotPlug: true, requireKeyboard: false))
        var changes: [KeyboardEventLoop.Change] = []
        loop.onChange = { changes.append($0) }
        try loop.start()
        if let monitor = loop.monitor {
            #expect(monitor.source == (KeyboardDiscovery.udevIsRunning ? "udev" : "kernel"))
            #expect(monitor.fileDescriptor >= 0)
        } else {
            guard case .hotPlugUnavailable(let error) = changes.first else {
                Issue.record("no monitor and no hotPlugUnavailable change: \(changes)")
                return
            }
            #expect(error.message.contains("keyboards plugged in later will not be seen"))
        }
    }

    @Test(
        "an idle loop sleeps: it wakes only when another thread hands it work or stops it, and runs work on its own thread"
    )
    func idleAndControl() throws {
        let loop = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: Window()), options: .init(hotPlug: false, requireKeyboard: false))
        var wakeups = 0
        loop.afterDispatch = { wakeups += 1 }
        let loopThread = pthread_self()
        let ranOn = Mutex<[Bool]>([])
        let control = loop.control
        Thread.detachNewThread {
            usleep(150_000)
            control.perform { ranOn.withLock { $0.append(pthread_equal(pthread_self(), loopThread) != 0) } }
            usleep(250_000)
            control.stop()
        }
        try loop.run()
        #expect(ranOn.withLock { $0 } == [true], "the work ran once, on the loop's thread")
        #expect(
            wakeups >= 1 && wakeups <= 2, "one wake-up for the work and one for stop (they may coalesce), none idle")
    }

    @Test("runOnce returns after its timeout when nothing happens, and false once stopped")
    func runOnce() throws {
        let loop = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: Window()), options: .init(hotPlug: false, requireKeyboard: false))
        try loop.start()
        #expect(loop.runOnce(timeout: 0.01))
        loop.control.stop()
        #expect(!loop.runOnce(timeout: 0))
        loop.dispatchPending()
        #expect(loop.fileDescriptor >= 0)
    }
}
