import Foundation
import Testing

/// Runs the built `keytrace` binary, as a user would.
struct KeytraceBinary {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = directory.deletingLastPathComponent().deletingLastPathComponent()

    /// The binary next to the test bundle (`swift build` builds it with the tests).
    static var path: String { product("keytrace") }

    /// A product of the package built next to the test bundle.
    static func product(_ name: String) -> String {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for candidate in [products, products.deletingLastPathComponent()] {
            let binary = candidate.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        }
        return repository.appendingPathComponent(".build/debug/\(name)").path
    }

    static func fixture(_ name: String) -> String { directory.appendingPathComponent("Fixtures/\(name)").path }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        // Golden traces must not depend on the machine's keyboard configuration.
        for key in ["XKB_DEFAULT_LAYOUT", "XKB_DEFAULT_VARIANT", "XKB_DEFAULT_MODEL", "XKB_DEFAULT_OPTIONS"] {
            env[key] = nil
        }
        env["XKB_DEFAULT_LAYOUT"] = "us"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Compares with a golden file; `UPDATE_GOLDEN=1` rewrites it.
    static func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent("Golden/\(name)")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        let got = text.split(separator: "\n", omittingEmptySubsequences: false)
        let want = golden.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, pair) in zip(got, want).enumerated() where pair.0 != pair.1 {
            Issue.record(
                "\(name):\(index + 1) differs\n  got:  \(pair.0)\n  want: \(pair.1)\n(UPDATE_GOLDEN=1 rewrites golden files)",
                sourceLocation: sourceLocation)
            return
        }
        #expect(
            got.count == want.count, "\(name): \(got.count) lines, golden has \(want.count)",
            sourceLocation: sourceLocation)
    }
}

@MainActor @Suite struct KeytraceEndToEndTests {
    @Test("--keys on the demo: focus keys beat colliding commands, the priority command wins, JSON golden")
    func demoKeys() throws {
        let result = try KeytraceBinary.run([
            "--keys", "tab tab down return shift+tab ctrl+f space cmd+]", "--json", "--explain",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        try KeytraceBinary.expectGolden(result.stdout, "demo-keys.jsonl")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.contains(#""event":"session","version":1,"input":"keys""#) == true)
        #expect(lines.contains { $0.contains(#""event":"focus","from":"search","to":"buyMilk","cause":"tab""#) })
        #expect(
            lines.contains {
                $0.contains(#""event":"keyCommand","title":"Rename List""#) && $0.contains(#""priority":true"#)
            })
        #expect(
            lines.contains {
                $0.contains(#""event":"keyCommand","title":"Indent","action":"indent","shortcut":"cmd+]""#)
            })
        #expect(
            !lines.contains {
                $0.contains(#""event":"keyCommand","title":"Indent","action":"indent","shortcut":"tab""#)
            }, "Tab never fires Indent")
    }

    @Test("--keys on a scene file, plain output, golden")
    func sceneKeysPlain() throws {
        let scene = KeytraceBinary.repository.appendingPathComponent("Scenes/reminders-sidebar-group.json").path
        let result = try KeytraceBinary.run([
            "--scene", scene, "--keys", "tab tab tab shift+tab down ctrl+n", "--plain",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        try KeytraceBinary.expectGolden(
            result.stdout.replacingOccurrences(of: KeytraceBinary.repository.path + "/", with: ""),
            "sidebar-keys.txt")
    }

    @Test("--replay of a recording: kernel repeats are changes, unplug releases cancel, JSON golden")
    func replay() throws {
        let result = try KeytraceBinary.run(["--replay", KeytraceBinary.fixture("typing.evemu"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout.replacingOccurrences(of: KeytraceBinary.directory.path + "/", with: "")
        try KeytraceBinary.expectGolden(text, "replay-typing.jsonl")
        #expect(text.contains(#""event":"key","phase":"repeat","key":"KeyB""#))
        #expect(text.contains(#""event":"press","phase":"cancelled","key":"KeyA""#))
        #expect(!text.contains(#""phase":"ended","key":"KeyA""#))
        #expect(text.contains(#""device":"QEMU QEMU USB Keyboard""#))
    }

    @Test("characters typed into a secure field show as • in JSON and plain output")
    func secureEntry() throws {
        for format in ["--json", "--plain"] {
            let result = try KeytraceBinary.run(["--keys", "tab tab tab tab s e shift+c", format])
            #expect(result.status == 0)
            let afterPasscode = result.stdout.components(separatedBy: "passcode").dropFirst().joined()
            #expect(afterPasscode.contains("•"))
            #expect(
                !afterPasscode.contains("KeyS") && !afterPasscode.contains("\"s\"") && !afterPasscode.contains("KeyC"))
        }
    }

    @Test(
        "--conflicts exits 1 when commands collide (the demo's Tab and Shift-Tab, once a reminder is focused) and 0 when none do"
    )
    func conflicts() throws {
        let demo = try KeytraceBinary.run(["--conflicts"])
        #expect(
            demo.status == 0, "at the initial focus (the search field) the reminders' commands are not in the chain")
        let all = try KeytraceBinary.run(["--conflicts", "--all-focus"])
        #expect(all.status == 1)
        #expect(all.stdout.contains("With passcode focused:"))
        #expect(all.stdout.contains("shadowed by the system focus key"))
        let clean = try KeytraceBinary.run(["--conflicts", "--scene", KeytraceBinary.fixture("no-conflicts.json")])
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("No conflicts."))
    }

    @Test(
        "--conflicts also says where taps land: an item another covers whole is a conflict (exit 1), named with its cover"
    )
    func pointerTargets() throws {
        let result = try KeytraceBinary.run(["--conflicts", "--scene", KeytraceBinary.fixture("covered-button.json")])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("Touch and pointer targets: 3 items, 1 conflicts\n"))
        #expect(result.stdout.contains("  pay (2, 2, 20×3): covered by banner: a tap never reaches it\n"))
        #expect(result.stdout.contains("  banner (0, 1, 40×5): reachable; a tap: screen performs cancel\n"))
        #expect(result.stdout.contains("  help (50, 2, 20×3): reachable; a tap: nothing: help has no primary action\n"))
        #expect(result.stdout.hasSuffix("1 conflicts.\n"))
    }

    @Test("--conflicts flags a target smaller than the scene's minimumTargetSize and fails, as a kiosk's CI wants")
    func smallTargets() throws {
        let result = try KeytraceBinary.run(["--conflicts", "--scene", KeytraceBinary.fixture("small-targets.json")])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("Touch and pointer targets: 2 items, 0 conflicts, 1 smaller than 60×60\n"))
        #expect(
            result.stdout.contains(
                "  help (1200, 20, 40×40): reachable; a tap: screen performs help; too small for a finger\n"))
        #expect(!result.stdout.contains("pay (40, 600, 400×120): reachable; a tap: screen performs pay; too small"))
        #expect(result.stdout.hasSuffix("No conflicts, 1 target too small for a finger.\n"), "\(result.stdout)")
    }

    @Test("--focus-debug prints the groups and the tab loop in reading order")
    func focusDebug() throws {
        let result = try KeytraceBinary.run(["--focus-debug"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("1. search"))
        #expect(result.stdout.contains("2. buyMilk"))
        #expect(result.stdout.contains("5. passcode"))
        let rtl = try KeytraceBinary.run(["--focus-debug", "--rtl"])
        #expect(rtl.stdout.contains("1. buyMilk"), "right to left: the reminders list leads")
    }

    @Test("a malformed scene names the file, line, column and field; exit 2")
    func brokenScene() throws {
        let path = KeytraceBinary.fixture("broken.json")
        let result = try KeytraceBinary.run(["--scene", path, "--keys", "tab"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("keytrace: \(path):5:"))
        #expect(result.stderr.contains("root.frame"))
        #expect(result.stdout.isEmpty)
    }

    @Test("a malformed recording names the line; exit 2")
    func brokenRecording() throws {
        let path = KeytraceBinary.fixture("broken.evemu")
        let result = try KeytraceBinary.run(["--replay", path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("keytrace: \(path):4: "))
    }

    @Test("a malformed key sequence names the chord and its position; an unknown layout names the layout")
    func badKeysAndLayout() throws {
        let keys = try KeytraceBinary.run(["--keys", "tab ctrl+bogus down"])
        #expect(keys.status == 2)
        #expect(keys.stderr.contains("bogus"))
        #expect(keys.stderr.contains("2"))
        let layout = try KeytraceBinary.run(["--keys", "tab", "--layout", "xx-nonexistent"])
        #expect(layout.status == 2)
        #expect(layout.stderr.contains("xx-nonexistent"))
    }

    @Test("conflicting flags are usage errors")
    func usage() throws {
        let result = try KeytraceBinary.run(["--keys", "tab", "--replay", "x.evemu"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("choose one input"))
        for arguments in [
            ["--wayland", "--terminal"], ["--wayland", "--grab"], ["--wayland", "--attach"],
            ["--wayland", "--layout", "de"],
        ] {
            let wayland = try KeytraceBinary.run(arguments)
            #expect(wayland.status == 64, "\(arguments): \(wayland.stderr)")
        }
        // --wayland with no compositor: the error names the variable.
        let alone = try KeytraceBinary.run(["--wayland", "--plain"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(alone.status != 0 && alone.stderr.contains("WAYLAND_DISPLAY"), "\(alone.stderr)")
    }

    @Test("--list-devices lists every input device and ends with a count and where hot-plug comes from")
    func listDevices() throws {
        let result = try KeytraceBinary.run(["--list-devices"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let last = try #require(lines.last)
        #expect(last.contains(" input device") && last.contains(" keyboard"), "\(last)")
        #expect(last.contains("udevd"), "says where hot-plug comes from: \(last)")
        // One line per device (links indented below it): as many as the count says.
        let devices = lines.dropLast().filter { $0.hasPrefix("/dev/input/event") }
        #expect(last.hasPrefix("\(devices.count) input device"), "\(result.stdout)")
    }

    @Test(
        "exit status: 0 done, 1 conflicts found, 2 bad input, 64 a usage error; --help says exactly that",
        arguments: [
            (["--keys", "tab"], 0),
            (["--conflicts", "--all-focus"], 1),
            (["--keys", "ctrl+bogus"], 2),
            (["--replay", "/nonexistent.evemu"], 2),
            (["--keys", "tab", "--layout", "xx-nonexistent"], 2),
            (["--keys", "tab", "--grab"], 64),
            (["--no-such-flag"], 64),
        ] as [([String], Int32)])
    func exitStatus(arguments: [String], status: Int32) throws {
        let result = try KeytraceBinary.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        let help = try KeytraceBinary.run(["--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        #expect(
            help.contains(
                "Exit status: 0 when done (or the attached app exited); 1 when --conflicts found conflicts; 2 for bad input"
            ), "\(help)")
        #expect(help.contains("64 for a usage error"), "\(help)")
    }
}
