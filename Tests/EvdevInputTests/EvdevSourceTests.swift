import EvdevInput
import EventLoop
import Glibc
import LinuxSystem
import ResponderChain
import Seat
import Testing

/// A source on a loop of its own, feeding a dispatcher of its own.
@MainActor private func makeSource(_ options: EvdevSource.Options) throws -> EvdevSource {
    EvdevSource(loop: try EventLoop(), context: Dispatcher(window: Window()).inputContext, options: options)
}

// The source against real devices (typing, hot-plug, unplug, grab, LEDs, repeats) is tested in the
// VM by Tools/vm-test; these tests cover what needs no input device.
@MainActor @Suite struct EvdevSourceTests {
    @Test("a missing device path fails to start with the path and how to list keyboards")
    func missingPath() throws {
        let loop = try makeSource(
            .init(devices: ["/dev/input/event999"], hotPlug: false))
        #expect(throws: InputError.opening("/dev/input/event999", errno: .noSuchFileOrDirectory)) { try loop.start() }
        #expect(loop.keyboards.isEmpty)
        // A failed start leaves nothing behind: a second one tries again, and fails the same way.
        #expect(throws: InputError.opening("/dev/input/event999", errno: .noSuchFileOrDirectory)) { try loop.start() }
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
        var options = EvdevSource.Options(devices: ["/dev/input/event999"], hotPlug: false)
        options.seatAccess = .required
        let required = try makeSource(options)
        setenv("LIBSEAT_BACKEND", "seatd", 1)
        defer { unsetenv("LIBSEAT_BACKEND") }
        #expect(throws: InputError.self) { try required.start() }
        #expect(required.seat == nil && required.seatUnavailable?.message.contains("seatd") == true)
        options.seatAccess = .automatic
        let automatic = try makeSource(options)
        #expect(throws: InputError.opening("/dev/input/event999", errno: .noSuchFileOrDirectory)) {
            try automatic.start()
        }
        #expect(automatic.seat == nil && automatic.seatUnavailable != nil, "no seat: the device was opened directly")
    }

    @Test("a seatd that accepts the connection and never answers (stopped): the seat gives up after its timeout")
    func seatManagerSilent() throws {
        // A socket that listens and is never read: connect(2) succeeds through the backlog, as
        // with a seatd stopped by SIGSTOP, and libseat's request is never answered.
        let path = "/tmp/rc-silent-seatd-\(getpid()).sock"
        unlink(path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(listener)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(listener, 4) == 0)
        setenv("SEATD_SOCK", path, 1)
        defer { unsetenv("SEATD_SOCK") }
        let started = Syscalls.monotonicNow()
        #expect {
            _ = try Seat(backends: ["seatd"], timeout: 0.5)
        } throws: { error in
            let message = (error as? InputError)?.message ?? ""
            return message.contains("seatd: it accepted the connection but did not answer within 0.5 s")
        }
        let elapsed = Syscalls.monotonicNow() - started
        #expect(elapsed >= 0.5 && elapsed < 3, "\(elapsed) s")
    }

    @Test("a device name nothing matches says what was asked for and where to look")
    func unmatchedName() throws {
        let loop = try makeSource(
            .init(devices: ["No Such Keyboard 9000"], hotPlug: false)
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
        let strict = try makeSource(.init(hotPlug: false))
        if found.allSatisfy({ ($0.kind ?? KeyboardKind.none) == KeyboardKind.none }) {
            #expect(throws: InputError.noKeyboards(searched: found.count)) { try strict.start() }
        } else {
            // A host with keyboards: the loop reads them, or names the permission fix.
            do {
                try strict.start()
                #expect(!strict.keyboards.isEmpty)
            } catch {
                #expect(error.errno == .permissionDenied)
            }
        }
        let waiting = try makeSource(
            .init(hotPlug: false, requireKeyboard: false))
        try waiting.start()
        #expect(waiting.loop.nextDeadline == nil, "nothing is due, so the loop may block without a timeout")
    }

    @Test("hot-plug listens to the udev source when udevd runs, the kernel source otherwise, or says it cannot")
    func hotPlugSource() throws {
        let loop = try makeSource(
            .init(hotPlug: true, requireKeyboard: false))
        var changes: [EvdevSource.Change] = []
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
}
