import Foundation
import Testing

/// Sources/terminal-example: a console app on AppRuntime alone, reading the terminal, drawing
/// through its output, and linking no device library.
@Suite struct TerminalExampleTests {
    /// The shared libraries a built program links, by name (`libseat.so.1`), from `ldd`.
    static func linkedLibraries(_ product: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [KeytraceBinary.product(product)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "ldd \(product)")
        return output.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
    }

    /// Libraries of device, display and font stacks: an app links one only when it uses it.
    static let deviceAndDisplayLibraries = [
        "libevdev", "libudev", "libseat", "libxkbcommon", "libwayland", "libdrm", "libinput", "libfreetype",
        "libharfbuzz",
    ]

    @Test(
        "a terminal app on AppRuntime links no device, display or font library; a KeyboardApp links evdev's, Wayland's and DRM's"
    )
    func links() throws {
        let terminalApp = try Self.linkedLibraries("terminal-example")
        #expect(terminalApp.contains { $0.hasPrefix("libc.so") }, "ldd listed the libraries: \(terminalApp)")
        for library in Self.deviceAndDisplayLibraries {
            #expect(!terminalApp.contains { $0.hasPrefix(library + ".") }, "terminal-example links \(library)")
        }
        // The KeyboardApp of embed-example reads keyboards (evdev, udev, libseat, xkbcommon), or a
        // compositor's seat in a window of its own when WAYLAND_DISPLAY is set (libwayland-client
        // and the font stack), or draws straight on the display (libdrm, which links libc alone) with
        // touch and pointer through libinput.
        let keyboardApp = try Self.linkedLibraries("embed-example")
        for library in [
            "libevdev", "libudev", "libseat", "libxkbcommon", "libwayland-client", "libfreetype", "libdrm", "libinput",
        ] {
            #expect(keyboardApp.contains { $0.hasPrefix(library + ".") }, "embed-example links \(library)")
        }
    }

    @Test("in tmux: Tab and Return press the buttons, a key command resets, Ctrl-C quits and restores the terminal")
    func runs() throws {
        let session = TmuxSession()
        defer { session.stop() }
        try session.start(columns: 60, rows: 8, binary: KeytraceBinary.product("terminal-example"), arguments: "")
        let first = try session.waitFor("terminal · Ctrl-R resets")
        #expect(first.contains("count: 0") && first.contains("[minus]"), "initial focus on the first button")
        try session.send("Tab", "Enter", "Enter")
        let pressed = try session.waitFor("count: 2")
        #expect(pressed.contains("[plus]"))
        try session.send("C-r")
        try session.waitFor("count: 0")
        try session.send("C-c")
        try session.waitFor("EXITED 0")
        #expect(try session.settingsRestored())
    }
}
