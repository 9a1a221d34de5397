import Foundation
import Glibc
import WaylandClient

/// sway headless as the unprivileged user `rcwayland` (compositors refuse to run as root; not root, as
/// the user running the tests), in a fresh
/// `XDG_RUNTIME_DIR` of its own; the test process (root) connects to its socket in-process.
/// ``stop()`` kills it and removes the directory: call it in a `defer`.
final class SwayHeadless {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A screenshot read from `grim -t ppm`.
    struct Screenshot {
        var width: Int
        var height: Int
        var rgb: [UInt8]

        /// The pixel at (x, y) as red, green, blue.
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let start = (y * width + x) * 3
            return Array(rgb[start..<start + 3])
        }
    }

    static let user = "rcwayland"
    let directory: String
    let socketName: String
    let uid: UInt32
    let gid: UInt32
    private let process: Process
    private var helpers: [Process] = []
    private var stopped = false

    /// The environment a client in the test process uses.
    var environment: WaylandEnvironment {
        WaylandEnvironment(display: socketName, runtimeDirectory: directory)
    }

    /// The user a compositor runs as: as root (CI), the test's unprivileged user, made if needed
    /// (compositors refuse to run as root); else this user, as on a desktop.
    static func compositorUser() throws -> (uid: UInt32, gid: UInt32) {
        guard getuid() == 0 else { return (getuid(), getgid()) }
        try ensureUser()
        guard let entry = getpwnam(user) else { throw Failure(description: "no user \(user)") }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Starts sway with one headless output and waits for its socket.
    ///
    /// - Parameters:
    ///   - resolution: The output's mode in pixels (`1920x1080`); 800x600 by default.
    ///   - scale: The output's scale (`output HEADLESS-1 scale 2`): clients see it from their first
    ///     frame, as on a screen configured so before the kiosk starts.
    init(resolution: String = "800x600", scale: Int = 1) throws {
        (uid, gid) = try Self.compositorUser()
        var template = Array("/tmp/rcwayland-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw Failure(description: "mkdtemp failed") }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chown(directory, uid, gid)
        chmod(directory, 0o700)
        let config = directory + "/sway.conf"
        try "output HEADLESS-1 resolution \(resolution) scale \(scale)\nxwayland disable\n".write(
            toFile: config, atomically: false, encoding: .utf8)
        chown(config, uid, gid)
        let log = directory + "/sway.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = Self.asUser(uid, gid) + ["sway", "-c", config]
        process.environment = [
            "XDG_RUNTIME_DIR": directory, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman",
            "WLR_LIBINPUT_NO_DEVICES": "1", "HOME": Self.home(uid), "PATH": "/usr/bin:/bin:/usr/sbin:/sbin",
        ]
        let handle = FileHandle(forWritingAtPath: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // The socket's name is read from the directory: sway 1.7 picks wayland-1 even in an empty one.
        let deadline = Date().addingTimeInterval(5)
        var socket: String?
        while socket == nil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            socket = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            if socket != nil { break }
            guard Date() < deadline, process.isRunning else {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                socketName = ""
                stop()
                throw Failure(description: "sway did not start: \(text.suffix(2000))")
            }
            usleep(20_000)
        }
        socketName = socket ?? ""
        // The file appears at bind(2), before listen(2): connect once to know sway takes connections.
        while !Self.accepts(directory + "/" + socketName) {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw Failure(description: "sway's socket \(socketName) never took a connection")
            }
            usleep(10_000)
        }
    }

    deinit { stop() }

    /// The command prefix that runs a program as the sway user: `setpriv` from root, nothing otherwise.
    static func asUser(_ uid: UInt32, _ gid: UInt32) -> [String] {
        getuid() == 0 ? ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"] : []
    }

    static func home(_ uid: UInt32) -> String {
        getpwuid(uid).map { String(cString: $0.pointee.pw_dir) } ?? "/tmp"
    }

    /// Whether a Unix socket takes a connection now.
    static func accepts(_ path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    static func ensureUser() throws {
        if getpwnam(user) != nil { return }
        let useradd = Process()
        useradd.executableURL = URL(fileURLWithPath: "/usr/sbin/useradd")
        useradd.arguments = ["-m", user]
        try useradd.run()
        useradd.waitUntilExit()
        // Another test process may have made it at the same moment.
        guard getpwnam(user) != nil else { throw Failure(description: "useradd -m \(user) failed") }
    }

    /// Runs a program as the sway user, connected to sway; waits for it unless `background`.
    @discardableResult
    func run(_ arguments: [String], background: Bool = false) throws -> Int32 {
        if background {
            _ = try start(arguments)
            return 0
        }
        let child = try launch(arguments)
        child.waitUntilExit()
        return child.terminationStatus
    }

    /// Starts a program as the sway user, connected to sway, and returns it running (a `wtype`
    /// holding a key down); ``stop()`` kills it if it still runs.
    func start(_ arguments: [String]) throws -> Process {
        let child = try launch(arguments)
        helpers.append(child)
        return child
    }

    /// A program started as the sway user with sway's environment, its output discarded.
    private func launch(_ arguments: [String]) throws -> Process {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        child.arguments = Self.asUser(uid, gid) + arguments
        child.environment = [
            "XDG_RUNTIME_DIR": directory, "WAYLAND_DISPLAY": socketName, "HOME": Self.home(uid),
            "PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "SWAYSOCK": swaySocket() ?? "",
        ]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        return child
    }

    /// sway's IPC socket in the runtime directory (for swaymsg).
    private func swaySocket() -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.first { $0.hasPrefix("sway-ipc.") }.map { directory + "/" + $0 }
    }

    /// The output's pixels, through grim (wlr-screencopy) as a PPM.
    func screenshot() throws -> Screenshot {
        let path = directory + "/shot.ppm"
        try? FileManager.default.removeItem(atPath: path)
        let status = try run(["grim", "-t", "ppm", path])
        guard status == 0, let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "grim failed with status \(status)")
        }
        return try Self.parsePPM(Array(data))
    }

    /// A binary PPM (P6, maximum 255).
    static func parsePPM(_ bytes: [UInt8]) throws -> Screenshot {
        var index = 0
        func token() -> String {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
            var text = ""
            while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0A, bytes[index] != 0x0D {
                text.append(Character(UnicodeScalar(bytes[index])))
                index += 1
            }
            return text
        }
        guard token() == "P6", let width = Int(token()), let height = Int(token()), token() == "255" else {
            throw Failure(description: "not a P6 PPM")
        }
        index += 1
        guard bytes.count - index >= width * height * 3 else { throw Failure(description: "short PPM") }
        return Screenshot(width: width, height: height, rgb: Array(bytes[index..<index + width * height * 3]))
    }

    /// Kills sway now (SIGKILL), as a crash would; the directory stays until ``stop()``.
    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Stops sway (SIGSTOP) without ending it, as a debugger or a hung compositor would: its socket
    /// still takes connections (the kernel queues them) and nothing answers.
    func pause() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGSTOP) }
    }

    /// Stops sway and the helpers started, and removes the runtime directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGCONT) }
        for helper in helpers where helper.isRunning {
            Glibc.kill(helper.processIdentifier, SIGKILL)
            helper.waitUntilExit()
        }
        process.terminate(graceSeconds: 2)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension Process {
    /// Ends a compositor: `SIGTERM`, then `SIGKILL` if it is still running after `graceSeconds`; waits for it.
    func terminate(graceSeconds: Double) {
        guard isRunning else { return }
        Glibc.kill(processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(graceSeconds)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning { Glibc.kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}
