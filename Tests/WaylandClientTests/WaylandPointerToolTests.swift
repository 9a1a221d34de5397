import Foundation
import Glibc
import TestSupport
import Testing

/// `wayland-pointer` (Sources/wayland-pointer) is how these tests move and click the pointer under sway:
/// a small client of wlroots' `zwlr_virtual_pointer_v1` (no packaged tool does it: `wlrctl` is not in
/// the mirror and `ydotool` needs /dev/uinput). It runs a script such as
/// `wayland-pointer click 120 80; press right; release` — each request followed by `frame` and a
/// roundtrip, so sway has handled it before the next — or, with `--hold`, keeps one virtual pointer and
/// reads such lines from standard input, answering `ok` after each (`ready` first).
///
/// Hold one pointer for a whole test, as with `wtype -s` for keys: with `WLR_LIBINPUT_NO_DEVICES=1`
/// the seat has no pointer, so each run without `--hold` adds the seat's pointer capability and removes
/// it when it exits; a client binds a new `wl_pointer` each time, and the run's first motion can reach
/// sway before that client has asked for it (checked in ``perRunCapability()``).
///
/// The checks read what a window receives: ``PointerProbe`` is a bare libwayland client with a
/// full-screen window and a `wl_pointer` (WaylandClient has no pointer API yet), so the coordinates
/// sent are compared with the surface-local coordinates delivered.
@Suite("wayland-pointer drives sway's pointer", .serialized)
@MainActor
struct WaylandPointerToolTests {
    @Test("a held virtual pointer: the window gets enter, motion and buttons at the coordinates sent")
    func heldPointerReachesTheWindow() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let probe = try PointerProbe(socketPath: sway.directory + "/" + sway.socketName)
        defer { probe.close() }
        #expect(probe.dispatch(upTo: 5) { probe.shownSize == [800, 600] })
        #expect(!probe.hasPointer)
        let tool = try PointerTool(sway: sway, arguments: ["--hold"])
        defer { tool.stop() }
        #expect(tool.readLine() == "ready")
        #expect(probe.dispatch(upTo: 5) { probe.hasPointer })
        probe.roundtrip()
        // The pointer appears with sway's cursor over the full-screen window: an enter wherever it is.
        #expect(probe.events.first?.hasPrefix("enter ") == true)
        probe.events = []

        #expect(tool.send("move-abs 100 200") == "ok")
        probe.roundtrip()
        #expect(probe.position == [100, 200])
        #expect(probe.events == ["motion 100 200", "frame"])

        probe.events = []
        #expect(tool.send("click 300 400") == "ok")
        probe.roundtrip()
        #expect(
            probe.events == [
                "motion 300 400", "frame", "button 272 pressed", "frame", "button 272 released", "frame",
            ])

        probe.events = []
        #expect(tool.send("press right; move 10 -5; release") == "ok")
        probe.roundtrip()
        #expect(
            probe.events == [
                "button 273 pressed", "frame", "motion 310 395", "frame", "button 273 released", "frame",
            ])

        // An extent of its own: 50,50 in 100x100 is the middle of the 800x600 output.
        probe.events = []
        #expect(tool.send("move-abs 50 50 100 100") == "ok")
        probe.roundtrip()
        #expect(probe.events == ["motion 400 300", "frame"])

        // A bad line is answered and the pointer stays.
        let answer = tool.send("click 900 10")
        #expect(answer?.hasPrefix("error: the position 900,10 is outside the extent 800x600") == true)
        #expect(tool.send("move-abs 0 0") == "ok")
        probe.roundtrip()
        #expect(probe.position == [0, 0])
        #expect(tool.finish() == 0)
        #expect(probe.dispatch(upTo: 5) { !probe.hasPointer })
    }

    @Test(
        "each run without --hold adds the seat's pointer and removes it at exit: a client binding on the capability misses it"
    )
    func perRunCapability() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let probe = try PointerProbe(socketPath: sway.directory + "/" + sway.socketName)
        defer { probe.close() }
        #expect(probe.dispatch(upTo: 5) { probe.shownSize == [800, 600] })
        let pointerBit = UInt32(1)
        #expect(probe.capabilities.allSatisfy { $0 & pointerBit == 0 })
        let tool = try PointerTool(sway: sway, arguments: ["click", "100", "100"])
        #expect(tool.finish() == 0)
        probe.roundtrip()
        #expect(probe.capabilities.suffix(2).map { $0 & pointerBit } == [pointerBit, 0])
        #expect(!probe.hasPointer)
        // The probe read nothing while the run went on, so its wl_pointer came after the pointer was gone:
        // a client that takes wl_pointer when the capability comes misses what a run sends before that.
        #expect(probe.events == [])
    }

    @Test("with a pointer held in the background, a run without --hold reaches the window")
    func runBesideHeldPointer() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let probe = try PointerProbe(socketPath: sway.directory + "/" + sway.socketName)
        defer { probe.close() }
        #expect(probe.dispatch(upTo: 5) { probe.shownSize == [800, 600] })
        let held = try PointerTool(sway: sway, arguments: ["--hold"])
        defer { held.stop() }
        #expect(held.readLine() == "ready")
        #expect(probe.dispatch(upTo: 5) { probe.hasPointer })
        probe.roundtrip()
        let capabilities = probe.capabilities.count
        probe.events = []
        let run = try PointerTool(sway: sway, arguments: ["click", "250", "150", "right"])
        #expect(run.finish() == 0)
        probe.roundtrip()
        // The seat's pointer stays (one more device on it), so the probe's wl_pointer gets the click.
        #expect(probe.capabilities.count == capabilities)
        #expect(
            probe.events == [
                "motion 250 150", "frame", "button 273 pressed", "frame", "button 273 released", "frame",
            ])
        #expect(held.finish() == 0)
    }

    @Test(
        "a script that does not parse exits 2 with a message, before connecting",
        arguments: [
            (["bogus"], "unknown command \"bogus\""),
            (["click", "900", "10"], "outside the extent 800x600"),
            (["--extent", "0x5", "click", "0", "0"], "the extent 0x5 is empty"),
            (["press", "left", "sleep"], "sleep needs MS"),
            ([], "no commands"),
            (["--fast"], "unknown option --fast"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        // No compositor anywhere: a usage error must be found before the connection is tried.
        let result = try PointerTool.run(arguments, environment: ["XDG_RUNTIME_DIR": "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(message))
    }

    @Test("no compositor: exit 1 with a message naming WAYLAND_DISPLAY")
    func noCompositor() throws {
        let result = try PointerTool.run(
            ["click", "1", "1"], environment: ["XDG_RUNTIME_DIR": "/nonexistent", "WAYLAND_DISPLAY": "wayland-9"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("WAYLAND_DISPLAY=wayland-9"))
        #expect(result.stderr.contains("cannot connect"))
    }

    @Test("a compositor without the virtual-pointer protocol: exit 1 naming the protocol and a compositor that has it")
    func compositorWithoutProtocol() throws {
        let server = try FakeCompositor(globals: [("wl_compositor", 4), ("wl_shm", 1), ("wl_seat", 5)])
        defer { server.stop() }
        let result = try PointerTool.run(
            ["click", "1", "1"],
            environment: ["XDG_RUNTIME_DIR": server.directory, "WAYLAND_DISPLAY": server.socketName])
        #expect(result.status == 1)
        #expect(result.stderr.contains("offers no zwlr_virtual_pointer_manager_v1"))
        #expect(result.stderr.contains("such as sway"))
        #expect(result.stderr.contains("offered: wl_compositor wl_seat wl_shm"))
    }

    @Test("the compositor killed while a pointer is held: it exits 1 at once with a message")
    func compositorGoesAway() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let errors = Pipe()
        let tool = try PointerTool(sway: sway, arguments: ["--hold"], standardError: errors)
        defer { tool.stop() }
        #expect(tool.readLine() == "ready")
        sway.kill()
        // Its input stays open: the hang-up alone ends it.
        #expect(tool.readLine() == nil)
        #expect(tool.waitForExit(upTo: 5) == 1)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("went away"))
    }
}

/// The built `wayland-pointer`, run by the test process (root can use the sway user's socket).
final class PointerTool {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// Starts it connected to `sway`, with standard input and output piped.
    init(sway: SwayHeadless, arguments: [String], standardError: Pipe? = nil) throws {
        process.executableURL = URL(fileURLWithPath: Self.path)
        process.arguments = arguments
        process.environment = ["XDG_RUNTIME_DIR": sway.directory, "WAYLAND_DISPLAY": sway.socketName]
        process.standardInput = input
        process.standardOutput = output
        if let standardError { process.standardError = standardError }
        try process.run()
    }

    /// Sends one line and returns the answer (`ok`, or `error: …`).
    func send(_ line: String) -> String? {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        return readLine()
    }

    /// The next line of output, or `nil` at its end or after `timeout` seconds.
    func readLine(timeout: Double = 5) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let end = buffered.firstIndex(of: 0x0A) {
                let line = String(decoding: buffered[..<end], as: UTF8.self)
                buffered.removeSubrange(...end)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
        }
    }

    /// Closes its input and waits for it to exit; returns its status.
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Waits for it to exit with its input open; returns its status, or `nil` if it still runs after `seconds`.
    func waitForExit(upTo seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Kills it if it still runs.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    struct Result {
        var status: Int32
        var stderr: String
    }

    /// Runs it to the end with `environment` alone; returns its status and standard error.
    static func run(_ arguments: [String], environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stderr: String(decoding: data, as: UTF8.self))
    }

    /// The binary next to the test bundle (`swift build` builds it with the tests).
    static var path: String {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for candidate in [products, products.deletingLastPathComponent()] {
            let binary = candidate.appendingPathComponent("wayland-pointer").path
            if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.appendingPathComponent(".build/debug/wayland-pointer").path
    }
}
