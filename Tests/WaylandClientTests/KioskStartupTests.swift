import Foundation
import Glibc
import Testing

/// The built `kiosk-example --wayland` started where a kiosk builder meets trouble: a compositor
/// that accepts the connection and never answers (a socket nobody serves, sway stopped with
/// SIGSTOP), `WAYLAND_DISPLAY` naming something that is not a socket.
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
        #expect(status != nil && status != 0, "still running after 20 s: \(kiosk.stderr)")
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
        #expect(status != nil && status != 0, "still running after 20 s: \(kiosk.stderr)")
        #expect(kiosk.elapsed < 15)
        let message = kiosk.stderr
        #expect(message.contains(sway.directory + "/" + sway.socketName), "\(message)")
        #expect(message.contains("did not answer the registry"), "\(message)")
        #expect(message.contains("stopped (SIGSTOP"), "\(message)")
    }

    @Test(
        "WAYLAND_DISPLAY naming a regular file or a directory: the kiosk says what the path is and that a socket was expected",
        arguments: ["file", "directory"])
    func displayPathNotASocket(kind: String) throws {
        let directory = NSTemporaryDirectory() + "rcwayland-kiosk-notsocket-\(getpid())-\(kind)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/wayland-0"
        if kind == "file" {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("not a socket".utf8)))
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
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
