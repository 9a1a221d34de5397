import Foundation
import Glibc
import Testing

/// The built `kiosk-example --wayland` started where a kiosk builder meets trouble: a compositor
/// that accepts the connection and never answers (a socket nobody serves, sway stopped with
/// SIGSTOP), `WAYLAND_DISPLAY` naming something that is not a socket, and weston's kiosk shell with
/// no input device (no `wl_seat`), where a seat appears later and goes away again; and, on the
/// keyboards, a seat manager that never answers.
@Suite("kiosk-example --wayland at start: hung compositors, wrong paths, no seat", .serialized)
@MainActor
struct KioskStartupTests {
    /// A kiosk-example process, its standard error in a file.
    final class KioskProcess {
        let process = Process()
        let stderrPath: String
        let started = Date()

        init(environment: [String: String], arguments: [String], directory: String) throws {
            stderrPath = directory + "/kiosk-\(UInt32.random(in: 0...UInt32.max)).stderr"
            _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
            process.executableURL = URL(fileURLWithPath: KioskUnderSwayTests.Kiosk.binary("kiosk-example"))
            process.arguments = arguments
            process.environment = ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "HOME": "/root"].merging(
                environment
            ) { $1 }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle(forWritingAtPath: stderrPath)
            try process.run()
        }

        /// Waits up to `seconds` for the process to exit; returns its status, or `nil` (then it is killed).
        func exitStatus(upTo seconds: Double) -> Int32? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            guard !process.isRunning else {
                stop()
                return nil
            }
            return process.terminationStatus
        }

        var elapsed: Double { Date().timeIntervalSince(started) }

        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        func stop() {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: stderrPath)
        }
    }

    static let globals: [(String, UInt32)] = [("wl_compositor", 5), ("wl_shm", 1), ("xdg_wm_base", 2)]

    @Test(
        "a socket that accepts and never answers: the kiosk exits 2 within its 5 s timeout, naming the socket and the registry"
    )
    func silentSocket() throws {
        let server = try FakeCompositor(globals: Self.globals, silent: true)
        defer { server.stop() }
        let kiosk = try KioskProcess(
            environment: ["XDG_RUNTIME_DIR": server.directory, "WAYLAND_DISPLAY": server.socketName],
            arguments: ["--wayland"], directory: server.directory)
        defer { kiosk.stop() }
        let status = kiosk.exitStatus(upTo: 20)
        #expect(status == 2, "exit status 2 (start-up failure); still running after 20 s if nil: \(kiosk.stderr)")
        #expect(kiosk.elapsed < 15)
        let message = kiosk.stderr
        #expect(message.contains(server.socketPath), "\(message)")
        #expect(message.contains("did not answer the registry"), "\(message)")
    }

    @Test(
        "sway stopped (SIGSTOP) before the kiosk starts: it exits 2 in bounded time, naming the socket and the registry"
    )
    func stoppedSway() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        sway.pause()
        let kiosk = try KioskProcess(
            environment: ["XDG_RUNTIME_DIR": sway.directory, "WAYLAND_DISPLAY": sway.socketName],
            arguments: ["--wayland"], directory: "/tmp")
        defer { kiosk.stop() }
        let status = kiosk.exitStatus(upTo: 20)
        #expect(status == 2, "exit status 2 (start-up failure); still running after 20 s if nil: \(kiosk.stderr)")
        #expect(kiosk.elapsed < 15)
        let message = kiosk.stderr
        #expect(message.contains(sway.directory + "/" + sway.socketName), "\(message)")
        #expect(message.contains("did not answer the registry"), "\(message)")
        #expect(message.contains("stopped (SIGSTOP"), "\(message)")
    }

    @Test(
        "a seat manager (seatd) that accepts and never answers: kiosk-example --keyboards goes on without it after 2 s")
    func silentSeatManager() throws {
        // libseat's seatd backend waits for seatd's answer with no timeout of its own.
        let seatd = try FakeCompositor(globals: [], silent: true)
        defer { seatd.stop() }
        let kiosk = try KioskProcess(
            environment: ["SEATD_SOCK": seatd.socketPath, "LIBSEAT_BACKEND": "seatd"],
            arguments: ["--keyboards", "--device", "/dev/input/event999"], directory: seatd.directory)
        defer { kiosk.stop() }
        let status = kiosk.exitStatus(upTo: 20)
        #expect(status != nil && status != 0, "still running after 20 s: \(kiosk.stderr)")
        #expect(kiosk.elapsed < 10)
        // Past the seat: the device is opened directly, and is not there.
        #expect(kiosk.stderr.contains("open /dev/input/event999"), "\(kiosk.stderr)")
    }

    @Test(
        "WAYLAND_DISPLAY naming a regular file or a directory: the kiosk says what the path is and that a socket was expected",
        arguments: ["file", "directory"])
    func displayPathNotASocket(kind: String) throws {
        try WaylandConnectionTests.withNotASocket(kind, name: "kiosk-notsocket") { directory, path in
            let kiosk = try KioskProcess(
                environment: ["XDG_RUNTIME_DIR": directory, "WAYLAND_DISPLAY": "wayland-0"], arguments: ["--wayland"],
                directory: directory)
            defer { kiosk.stop() }
            let status = kiosk.exitStatus(upTo: 20)
            #expect(status != nil && status != 0)
            let message = kiosk.stderr
            let what = kind == "file" ? "a regular file" : "a directory"
            #expect(message.contains("\(path), which is \(what), not a socket"), "\(message)")
            #expect(message.contains("a Wayland compositor's socket was expected there"), "\(message)")
            #expect(!message.contains("stale socket"), "\(message)")
        }
    }

    @Test(
        "weston's kiosk shell with no input device (no wl_seat): the kiosk starts, is configured and commits its frame")
    func westonWithoutSeat() throws {
        let weston = try WestonHeadless()
        defer { weston.stop() }
        let trace = weston.directory + "/trace.jsonl"
        let kiosk = try KioskProcess(
            environment: [
                "XDG_RUNTIME_DIR": weston.directory, "WAYLAND_DISPLAY": weston.socketName, "WAYLAND_DEBUG": "client",
            ], arguments: ["--wayland", "--trace", trace], directory: "/tmp")
        defer { kiosk.stop() }
        // libwayland's log of every request and event: weston configures the window, and the
        // kiosk attaches a buffer with its frame and commits it. (Weston 10's kiosk shell with no
        // seat sends no frame callback and shows nothing, to any client, weston-simple-shm too:
        // what it does with the frame is weston's.)
        func drawn() -> Bool {
            let log = kiosk.stderr
            guard let configure = log.range(of: "xdg_surface@"),
                log[configure.lowerBound...].contains(".configure("),
                let attach = log.range(of: ".attach(wl_buffer@")
            else { return false }
            return log[attach.upperBound...].contains(".commit()")
        }
        let deadline = Date().addingTimeInterval(10)
        while kiosk.process.isRunning && !drawn() && Date() < deadline { usleep(50_000) }
        #expect(drawn(), "no frame committed: \(kiosk.stderr.suffix(1500))")
        usleep(1_000_000)
        #expect(kiosk.process.isRunning, "the kiosk exited: \(kiosk.stderr.suffix(1500))")
        #expect(!kiosk.stderr.contains("offers no wl_seat global"), "\(kiosk.stderr.suffix(1500))")
        #expect(!kiosk.stderr.contains("wl_seat"), "it binds no seat: weston offers none")
        let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        #expect(text.contains("offers no seat yet"), "\(text.prefix(1000))")
    }

    @Test("a seat that appears after the start is taken (its keyboard types), and its removal cancels the held key")
    func seatArrivesAndGoes() throws {
        let server = try FakeCompositor(globals: Self.globals)
        defer { server.stop() }
        let trace = server.directory + "/trace.jsonl"
        let kiosk = try KioskProcess(
            environment: ["XDG_RUNTIME_DIR": server.directory, "WAYLAND_DISPLAY": server.socketName],
            arguments: ["--wayland", "--trace", trace], directory: server.directory)
        defer { kiosk.stop() }
        // Drawn without a seat: a buffer attached (wl_surface.attach) and committed.
        #expect(server.wait(upTo: 10) { $0.received("wl_surface", opcode: 1) }, "\(kiosk.stderr)")
        #expect(kiosk.process.isRunning, "\(kiosk.stderr)")
        func traceLines() -> [[String: Any]] {
            let text = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        func waitForTrace(_ what: String, _ match: @escaping ([String: Any]) -> Bool) -> Bool {
            let found = server.wait(upTo: 5) { _ in traceLines().contains(where: match) }
            if !found { Issue.record("no \(what) in the trace: \(traceLines().suffix(12))") }
            return found
        }
        #expect(
            waitForTrace("the note") { ($0["note"] as? String)?.contains("offers no seat yet") == true })
        let name = server.addGlobal("wl_seat", version: 7)
        #expect(server.wait { $0.object(of: "wl_keyboard") != nil }, "the kiosk bound no keyboard: \(kiosk.stderr)")
        #expect(
            waitForTrace("the keyboard added") {
                $0["event"] as? String == "device" && $0["change"] as? String == "added"
                    && $0["name"] as? String == "seat-fake keyboard"
            })
        server.enterAndPress(key: 30)  // KEY_A, held
        #expect(waitForTrace("a down") { $0["event"] as? String == "press" && $0["phase"] as? String == "began" })
        server.removeGlobal(name)
        #expect(server.wait { $0.received("wl_seat", opcode: 3) }, "no wl_seat.release: \(kiosk.stderr)")
        #expect(
            waitForTrace("the press cancelled") {
                $0["event"] as? String == "press" && $0["phase"] as? String == "cancelled"
            })
        #expect(!traceLines().contains { $0["event"] as? String == "press" && $0["phase"] as? String == "ended" })
        #expect(
            waitForTrace("the keyboard removed") {
                $0["event"] as? String == "device" && $0["change"] as? String == "removed"
            })
        #expect(kiosk.process.isRunning, "\(kiosk.stderr)")
    }
}
