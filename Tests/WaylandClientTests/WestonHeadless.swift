import Foundation
import Glibc

/// weston 10 headless with its kiosk shell (`--shell=kiosk-shell.so`, the pixman renderer, one
/// 800x600 output), as the unprivileged user ``SwayHeadless`` uses, in a fresh `XDG_RUNTIME_DIR`
/// of its own. It has no input device, so it offers no `wl_seat` global: a signage screen, or a
/// touch screen not plugged in yet. (`weston-screenshooter` gives a black screen under the kiosk
/// shell headless, with any client: a test reads what reached the compositor from the client's
/// `WAYLAND_DEBUG` log instead.)
/// ``stop()`` ends it and removes the directory: call it in a `defer`.
final class WestonHeadless {
    let directory: String
    let socketName = "wayland-1"
    let uid: UInt32
    let gid: UInt32
    private let process = Process()
    private var stopped = false

    /// Starts weston and waits until its socket takes connections.
    init() throws {
        (uid, gid) = try SwayHeadless.compositorUser()
        var template = Array("/tmp/rcweston-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw SwayHeadless.Failure(description: "mkdtemp failed") }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chown(directory, uid, gid)
        chmod(directory, 0o700)
        let log = directory + "/weston.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            SwayHeadless.asUser(uid, gid) + [
                "weston", "--backend=headless-backend.so", "--shell=kiosk-shell.so", "--use-pixman",
                "--width=800", "--height=600", "--socket=\(socketName)", "--idle-time=0",
            ]
        process.environment = [
            "XDG_RUNTIME_DIR": directory, "HOME": SwayHeadless.home(uid), "PATH": "/usr/bin:/bin:/usr/sbin:/sbin",
        ]
        let handle = FileHandle(forWritingAtPath: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !SwayHeadless.accepts(directory + "/" + socketName) {
            guard Date() < deadline, process.isRunning else {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                stop()
                throw SwayHeadless.Failure(description: "weston did not start: \(text.suffix(2000))")
            }
            usleep(20_000)
        }
    }

    deinit { stop() }

    /// Ends weston and removes its directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.terminate(graceSeconds: 2)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
