import Foundation
import LinuxKeyboard
import ResponderChain
import Synchronization
import Testing

/// What main-actor work did, in order.
@MainActor final class MainActorLog {
    var entries: [String] = []
}

// The loop against real devices (typing, hot-plug, unplug, grab, LEDs, repeats) is tested in the
// VM by Tools/vm-test; these tests cover what needs no input device.
@MainActor @Suite struct KeyboardEventLoopTests {
    @Test("a missing device path fails to start with the path and how to list keyboards")
    func missingPath() throws {
        let loop = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: Window()), options: .init(devices: ["/dev/input/event999"], hotPlug: false))
        #expect(throws: InputError.opening("/dev/input/event999", errno: InputError.noSuchFile)) { try loop.start() }
        #expect(loop.keyboards.isEmpty)
    }

    @Test("no seat manager: a required seat fails naming seatd and how to start it; an automatic one opens directly")
    func seatUnreachable() throws {
        // seatd is asked at a socket that cannot exist, so the answer is the same on any machine.
        setenv("SEATD_SOCK", "/nonexistent/seatd.sock", 1)
        defer { unsetenv("SEATD_SOCK") }
        #expect {
            _ = try Seat(backends: ["seatd"])
        } throws: { error in
            let message = (error as? InputError)?.message ?? ""
            return message.contains("seatd is not running") && message.contains("seatd -g")
        }
        var options = KeyboardEventLoop.Options(devices: ["/dev/input/event999"], hotPlug: false)
        options.seatAccess = .required
        let required = try KeyboardEventLoop(dispatcher: Dispatcher(window: Window()), options: options)
        setenv("LIBSEAT_BACKEND", "seatd", 1)
        defer { unsetenv("LIBSEAT_BACKEND") }
        #expect(throws: InputError.self) { try required.start() }
        #expect(required.seat == nil && required.seatUnavailable?.message.contains("seatd") == true)
        options.seatAccess = .automatic
        let automatic = try KeyboardEventLoop(dispatcher: Dispatcher(window: Window()), options: options)
        #expect(throws: InputError.opening("/dev/input/event999", errno: InputError.noSuchFile)) {
            try automatic.start()
        }
        #expect(automatic.seat == nil && automatic.seatUnavailable != nil, "no seat: the device was opened directly")
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
        var options = KeyboardEventLoop.Options(hotPlug: false, requireKeyboard: false)
        // Other tests' main-actor work would wake it too; that path has its own test below.
        options.drainsMainQueue = false
        let loop = try KeyboardEventLoop(dispatcher: Dispatcher(window: Window()), options: options)
        var wakeups = 0
        loop.afterDispatch = { wakeups += 1 }
        let loopThread = pthread_self()
        let ranOn = MainActorLog()
        let control = loop.control
        Thread.detachNewThread {
            usleep(150_000)
            control.perform { ranOn.entries.append(pthread_equal(pthread_self(), loopThread) != 0 ? "loop" : "other") }
            usleep(250_000)
            control.stop()
        }
        try loop.run()
        #expect(ranOn.entries == ["loop"], "the work ran once, on the loop's thread")
        #expect(
            wakeups >= 1 && wakeups <= 2, "one wake-up for the work and one for stop (they may coalesce), none idle")
    }

    @Test("a main-actor task awaits work off the main actor, then updates the tree, while `await run()` waits")
    func mainActorTaskResumesInsideRun() async throws {
        let window = Window(identifier: "window")
        let node = FocusNode(identifier: "loading")
        window.addChild(node)
        let loop = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: window), options: .init(hotPlug: false, requireKeyboard: false))
        // A watchdog, so that a loop that never runs the task fails instead of hanging. Generous:
        // the other main-actor tests of the run share the actor, and under a sanitizer the
        // million-event test alone holds it for over a minute.
        let control = loop.control
        let watchdog = Thread {
            sleep(600)
            control.stop()
        }
        watchdog.start()
        var steps: [String] = []
        Task { @MainActor in
            steps.append("task started")
            let sum = await Task.detached { (1...1000).reduce(0, +) }.value
            try? await Task.sleep(for: .milliseconds(20))
            node.identifier = "loaded \(sum)"
            MainActor.assertIsolated()
            steps.append("resumed on the main actor")
            loop.control.stop()
        }
        try await loop.run()
        watchdog.cancel()
        #expect(steps == ["task started", "resumed on the main actor"])
        #expect(node.identifier == "loaded 500500", "the task stopped the loop, not the watchdog")
    }

    @Test("Control.perform runs its closure isolated to the main actor: it may change the tree")
    func performTouchesTree() async throws {
        let window = Window(identifier: "window")
        let node = FocusNode(identifier: "before")
        window.addChild(node)
        let loop = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: window), options: .init(hotPlug: false, requireKeyboard: false))
        let control = loop.control
        Thread.detachNewThread {
            control.perform {
                node.identifier = "after"
                control.stop()
            }
        }
        try await loop.run()
        #expect(node.identifier == "after")
    }

    @Test(
        "the blocking run() off the main thread (here, in an async test) refuses to starve the main actor, and says what to call"
    )
    func blockingRunOffMainThread() throws {
        let loop = try KeyboardEventLoop(
            dispatcher: Dispatcher(window: Window()), options: .init(hotPlug: false, requireKeyboard: false))
        #expect {
            try loop.run()
        } throws: { error in
            "\(error)".contains("call `try await loop.run()` from async code")
        }
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
