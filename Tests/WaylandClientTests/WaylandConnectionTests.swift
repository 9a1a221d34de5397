import EventLoop
import Foundation
import TestSupport
import Testing
import WaylandClient

/// Runs the loop until `condition` holds or `seconds` pass; returns whether it held.
///
@Suite("WaylandConnection against sway headless", .serialized)
@MainActor
struct WaylandConnectionTests {
    @Test("connects to sway and binds its globals; the seat's capabilities follow a keyboard appearing")
    func connectsAndBindsGlobals() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        #expect(connection.socketPath == sway.directory + "/" + sway.socketName)
        #expect(connection.seatName == "seat0")
        #expect(connection.disconnectError == nil)
        // WLR_LIBINPUT_NO_DEVICES: no keyboard until a virtual one is held.
        #expect(!connection.seatCapabilities.contains(.keyboard))
        var reported: [SeatCapabilities] = []
        connection.onSeatCapabilitiesChange = { reported.append($0) }
        try sway.run(["wtype", "-s", "3600000"], background: true)
        #expect(run(loop, upTo: 5) { connection.seatCapabilities.contains(.keyboard) })
        #expect(reported.last?.contains(.keyboard) == true)
    }

    @Test("WAYLAND_SOCKET: a connected socket handed over is used before WAYLAND_DISPLAY")
    func connectsThroughWaylandSocket() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = sway.directory + "/" + sway.socketName
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(connected == 0)
        let loop = try makeLoop()
        // libwayland owns the descriptor from here. WAYLAND_DISPLAY names nothing: only the socket can work.
        let environment = WaylandEnvironment(display: "wayland-none", socket: "\(fd)", runtimeDirectory: "/nowhere")
        let connection = try WaylandConnection(loop: loop, environment: environment)
        #expect(connection.socketPath == nil)
        #expect(connection.seatName == "seat0")
    }

    @Test("WAYLAND_SOCKET that is not a number: the error names it and the fix")
    func waylandSocketInvalid() throws {
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: "wayland-0", socket: "three", runtimeDirectory: "/run/user/0")
        let error = #expect(throws: WaylandError.self) {
            _ = try WaylandConnection(loop: loop, environment: environment)
        }
        #expect(error?.message.contains("WAYLAND_SOCKET is \"three\", not a descriptor number") == true)
    }

    @Test("WaylandEnvironment.current reads the process's variables")
    func currentEnvironment() {
        let variables = ProcessInfo.processInfo.environment
        let current = WaylandEnvironment.current
        #expect(current.display == variables["WAYLAND_DISPLAY"])
        #expect(current.socket == variables["WAYLAND_SOCKET"])
        #expect(current.runtimeDirectory == variables["XDG_RUNTIME_DIR"])
    }

    @Test("WAYLAND_DISPLAY unset: the error names the variable and the fix")
    func displayUnset() throws {
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: nil, runtimeDirectory: "/run/user/0")
        let error = #expect(throws: WaylandError.self) {
            _ = try WaylandConnection(loop: loop, environment: environment)
        }
        #expect(error?.message.contains("WAYLAND_DISPLAY is not set") == true)
        #expect(error?.message.contains("run the app under a compositor (cage, sway, weston)") == true)
    }

    @Test("a socket that is not there: the error names the path tried and XDG_RUNTIME_DIR")
    func socketMissing() throws {
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: "wayland-none", runtimeDirectory: "/tmp/no-such-runtime-dir")
        let error = #expect(throws: WaylandError.self) {
            _ = try WaylandConnection(loop: loop, environment: environment)
        }
        let message = error?.message ?? ""
        #expect(message.contains("/tmp/no-such-runtime-dir/wayland-none"))
        #expect(message.contains("XDG_RUNTIME_DIR=/tmp/no-such-runtime-dir"))
        #expect(message.contains("is the compositor running"))
        #expect(error?.errno == .noSuchFileOrDirectory)
    }

    @Test("a socket nobody listens on: the error says the compositor refused")
    func socketRefused() throws {
        let directory = NSTemporaryDirectory() + "rcwayland-refused-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A bound socket that never listens: connect(2) is refused, as with a compositor's stale socket.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = directory + "/wayland-stale"
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        let loop = try makeLoop()
        let environment = WaylandEnvironment(display: "wayland-stale", runtimeDirectory: directory)
        let error = #expect(throws: WaylandError.self) {
            _ = try WaylandConnection(loop: loop, environment: environment)
        }
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("refused") == true)
        #expect(error?.errno == .connectionRefused)
    }

    @Test("WAYLAND_DISPLAY relative without XDG_RUNTIME_DIR: the error names XDG_RUNTIME_DIR")
    func runtimeDirectoryUnset() throws {
        let loop = try makeLoop()
        let error = #expect(throws: WaylandError.self) {
            _ = try WaylandConnection(
                loop: loop, environment: WaylandEnvironment(display: "wayland-0", runtimeDirectory: nil))
        }
        #expect(error?.message.contains("XDG_RUNTIME_DIR is not set") == true)
    }

    @Test("killing the compositor reports the disconnect once, and nothing traps afterwards")
    func disconnectReportedOnce() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let window = try WaylandWindow(connection: connection, options: .init(title: "Test", appID: "rc.test"))
        #expect(run(loop, upTo: 5) { window.isConfigured })
        var reports: [WaylandError] = []
        connection.onDisconnect = { reports.append($0) }
        sway.kill()
        #expect(run(loop, upTo: 5) { !reports.isEmpty })
        _ = run(loop, upTo: 0.3) { false }
        #expect(reports.count == 1)
        #expect(reports.first?.message.contains("the Wayland compositor at \(sway.directory)/") == true)
        #expect(connection.disconnectError == reports.first)
        #expect(window.present { _ in [] } == false)
        #expect(throws: WaylandError.self) { try connection.roundtrip() }
        #expect(reports.count == 1)
    }

    /// A runtime directory whose `wayland-0` is a regular file (`kind` "file") or a directory, for
    /// `body`; removed after it.
    static func withNotASocket(
        _ kind: String, name: String, _ body: (_ directory: String, _ path: String) throws -> Void
    ) throws {
        let directory = NSTemporaryDirectory() + "rcwayland-\(name)-\(getpid())-\(kind)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/wayland-0"
        if kind == "file" {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("not a socket".utf8)))
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        try body(directory, path)
    }

    @Test(
        "WAYLAND_DISPLAY naming a regular file or a directory: the error says what the path is and that a socket was expected",
        arguments: ["file", "directory"])
    func displayPathNotASocket(kind: String) throws {
        try Self.withNotASocket(kind, name: "notsocket") { directory, path in
            let loop = try makeLoop()
            let environment = WaylandEnvironment(display: "wayland-0", runtimeDirectory: directory)
            let error = #expect(throws: WaylandError.self) {
                _ = try WaylandConnection(loop: loop, environment: environment)
            }
            let message = error?.message ?? ""
            let what = kind == "file" ? "a regular file" : "a directory"
            #expect(message.contains("names \(path), which is \(what), not a socket"), "\(message)")
            #expect(message.contains("a Wayland compositor's socket was expected there"), "\(message)")
            #expect(!message.contains("stale socket"), "\(message)")
        }
    }
}
