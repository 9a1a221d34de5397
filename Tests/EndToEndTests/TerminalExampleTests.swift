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

    /// The console platform's libraries: the keyboards (evdev, udev), the seat, the keymap.
    static let consoleLibraries = ["libevdev", "libudev", "libseat", "libxkbcommon"]
    /// The graphics stack: a window, the display, touch and pointer, fonts. Only the platforms that
    /// draw in pixels (PlatformWayland, PlatformDisplay) link them.
    static let graphicsLibraries = [
        "libwayland-client", "libdrm", "libinput", "libcairo", "libfreetype", "libharfbuzz", "libfontconfig",
    ]

    @Test(
        "a terminal app links no device or graphics library; a console KeyboardApp links the console's and no graphics; the kiosk with every platform links both"
    )
    func links() throws {
        let terminalApp = try Self.linkedLibraries("terminal-example")
        #expect(terminalApp.contains { $0.hasPrefix("libc.so") }, "ldd listed the libraries: \(terminalApp)")
        for library in Self.consoleLibraries + Self.graphicsLibraries {
            #expect(!terminalApp.contains { $0.hasPrefix(library + ".") }, "terminal-example links \(library)")
        }
        // A console app (embed-example) and the kiosk built for the console alone read keyboards
        // (evdev, udev, libseat, xkbcommon) and draw in the terminal: no graphics stack at all.
        for program in ["embed-example", "kiosk-console-example"] {
            let consoleApp = try Self.linkedLibraries(program)
            for library in Self.consoleLibraries {
                #expect(consoleApp.contains { $0.hasPrefix(library + ".") }, "\(program) links \(library)")
            }
            for library in Self.graphicsLibraries {
                #expect(!consoleApp.contains { $0.hasPrefix(library + ".") }, "\(program) links \(library)")
            }
        }
        // The kiosk with every platform: a compositor's window (libwayland-client and the font
        // stack), the display (libdrm) with touch and pointer through libinput, and the console.
        let kiosk = try Self.linkedLibraries("kiosk-example")
        for library in Self.consoleLibraries + Self.graphicsLibraries {
            #expect(kiosk.contains { $0.hasPrefix(library + ".") }, "kiosk-example links \(library)")
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
