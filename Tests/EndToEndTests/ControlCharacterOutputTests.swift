import DispatchTrace
import Foundation
import KeytraceKit
import LinuxKeyboard
import ResponderChain
import Testing

/// Every text output on inputs full of control characters: scenes whose name, ids, groups,
/// actions and titles hold every C0 control, DEL, every C1 control and escape sequences; bad
/// scene and recording lines quoting them; file names, layout names, `XKB_DEFAULT_*` values and
/// arguments holding them. No raw control byte but the line feed may reach the output (a crafted
/// file must not retitle, clear or colour the user's terminal), and JSON stays valid JSON.
@MainActor @Suite struct ControlCharacterOutputTests {
    /// Every C0 control, DEL, every C1 control, and sequences that retitle, clear or colour a
    /// terminal (7-bit and 8-bit forms).
    static let hostile: [String] =
        (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + ["\u{7F}"]
        + (0x80..<0xA0).map { String(UnicodeScalar(UInt8($0))) }
        + [
            "\u{1B}]0;pwned\u{07}", "\u{1B}[2J\u{1B}[H", "\u{1B}[31mred\u{1B}[0m", "\u{9B}31m", "\u{9D}2;x\u{9C}",
            "\u{1B}P+q\u{1B}\\", "line\nforged: No conflicts.", "\r\u{1B}[Kover",
        ]

    /// The raw control bytes in output: C0 but the line feed, DEL, and C1 (`C2 80`…`C2 9F`).
    static func rawControls(_ bytes: [UInt8]) -> [String] {
        var found: [String] = []
        for (index, byte) in bytes.enumerated() {
            if (byte < 0x20 && byte != 0x0A) || byte == 0x7F {
                found.append(String(format: "0x%02x at %d", byte, index))
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80..<0xA0).contains(bytes[index + 1]) {
                found.append(String(format: "C1 0x%02x at %d", bytes[index + 1], index))
            }
        }
        return found
    }

    /// A JSON string literal with every control character as `\uXXXX`.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0..<0x20, 0x7F, 0x80..<0xA0: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A scene whose every name holds a control character: a button per hostile string, each in
    /// its own group, each declaring ctrl+k as the root does (so the conflict report names them).
    static func hostileScene() -> String {
        let buttons = hostile.enumerated().map { index, text in
            """
            { "id": \(json("b\(index)\(text)x")), "frame": [10, \(10 + index * 50), 100, 40], "focusable": true,
              "group": \(json("g\(index)\(text)")), "actions": [\(json("act\(text)"))],
              "keyCommands": [{ "shortcut": "ctrl+k", "action": \(json("act\(text)")), "title": \(json("T\(text)")) }] }
            """
        }
        return """
            { "name": \(json("scene\u{1B}]0;pwned\u{07}\n\u{9B}2J")),
              "globalKeyCommands": [{ "shortcut": "ctrl+g", "action": \(json("g\u{1B}[2J")), "title": \(json("\u{07}")) }],
              "root": { "id": \(json("root\u{1B}[31m")), "frame": [0, 0, 2000, 9000], "firstResponder": true,
                "actions": [\(json("rootAct\u{1B}c"))],
                "keyCommands": [{ "shortcut": "ctrl+k", "action": \(json("rootAct\u{1B}c")), "title": \(json("R\u{9D}x")) }],
                "children": [\(buttons.joined(separator: ",\n"))] } }
            """
    }

    static func temporaryPath(_ suffix: String) -> String {
        "/tmp/control-output-\(getpid())-\(UInt32.random(in: 0...UInt32.max))\(suffix)"
    }

    /// Runs keytrace in-process with its output going to a file; returns the bytes written and
    /// what `printError` would have written for an error.
    static func run(_ options: KeytraceOptions) throws -> (output: [UInt8], status: Int32?) {
        let path = temporaryPath(".out")
        defer { unlink(path) }
        var status: Int32?
        do {
            let output = try OutputBuffer(path: path)
            do { status = try Keytrace.run(options, output: output) } catch {
                // What printError writes: the same `line` to standard error.
                output.line("keytrace: \(error)")
            }
            output.flush()
        }
        return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), status)
    }

    @Test("the escaping function writes every control character visibly and leaves other text alone")
    func escapingFunction() {
        #expect(
            "plain ids, ünïcödé, 你好, \\u{1B} as text".escapingControlCharacters()
                == "plain ids, ünïcödé, 你好, \\u{1B} as text")
        #expect("a\u{1B}]0;x\u{07}b".escapingControlCharacters() == "a\\u{1B}]0;x\\u{7}b")
        #expect("\t\n\r\u{0}\u{7F}\u{85}\u{9B}".escapingControlCharacters() == "\\t\\n\\r\\u{0}\\u{7F}\\u{85}\\u{9B}")
        #expect("two\nlines\u{1B}".escapingControlCharacters(keepingNewlines: true) == "two\nlines\\u{1B}")
        for text in Self.hostile {
            #expect(Self.rawControls(Array(text.escapingControlCharacters().utf8)).isEmpty, "\(text.debugDescription)")
        }
    }

    @Test("--focus-debug, --conflicts --all-focus and the plain trace of a hostile scene write no control byte")
    func textOutputs() throws {
        let scenePath = Self.temporaryPath(".json")
        defer { unlink(scenePath) }
        try Self.hostileScene().write(toFile: scenePath, atomically: false, encoding: .utf8)
        _ = try Scene.load(contentsOfFile: scenePath)  // the scene is valid: every output below runs

        var focusDebug = KeytraceOptions()
        focusDebug.scenePath = scenePath
        focusDebug.focusDebug = true
        var conflicts = KeytraceOptions()
        conflicts.scenePath = scenePath
        conflicts.conflicts = true
        conflicts.allFocus = true
        var plain = KeytraceOptions()
        plain.scenePath = scenePath
        plain.format = .plain
        plain.explain = true
        plain.keys = Array(repeating: "tab", count: Self.hostile.count + 2).joined(separator: " ") + " ctrl+k ctrl+g x"
        for (name, options, marker) in [
            ("focus-debug", focusDebug, "tab loop"), ("conflicts", conflicts, "conflicts."),
            ("plain", plain, "keyCommand"),
        ] {
            let (bytes, status) = try Self.run(options)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(status != nil, "\(name) failed: \(text)")
            #expect(text.contains(marker), "\(name) did not run: \(text.prefix(500))")
            #expect(text.contains("\\u{1B}"), "\(name) shows the escapes")
            let raw = Self.rawControls(bytes)
            #expect(raw.isEmpty, "\(name): raw control bytes \(raw.prefix(5))")
            // A value's line feed is escaped too: no value forges a line of its own.
            #expect(!text.contains("\nforged: No conflicts."), "\(name)")
        }
    }

    @Test("the JSON trace of a hostile scene is valid JSON with no raw control byte")
    func jsonOutput() throws {
        let scenePath = Self.temporaryPath(".json")
        defer { unlink(scenePath) }
        try Self.hostileScene().write(toFile: scenePath, atomically: false, encoding: .utf8)
        var options = KeytraceOptions()
        options.scenePath = scenePath
        options.format = .json
        options.explain = true
        options.keys = Array(repeating: "tab", count: Self.hostile.count + 2).joined(separator: " ") + " ctrl+k"
        let (bytes, status) = try Self.run(options)
        #expect(status == 0)
        #expect(Self.rawControls(bytes).isEmpty)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count > Self.hostile.count)
        var ids: Set<String> = []
        for line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            if let to = object["to"] as? String { ids.insert(to) }
        }
        // The ids come back exactly, control characters and all, from the JSON.
        #expect(ids.contains("b1\u{1}x") && ids.contains("b34\u{81}x") && ids.contains("b65\u{1B}]0;pwned\u{07}x"))
    }

    @Test("errors quoting a bad scene line, a bad recording line, a file name or a layout write no control byte")
    func errorMessages() throws {
        var cases: [(String, KeytraceOptions)] = []
        for (index, text) in Self.hostile.enumerated() {
            // A scene whose shortcut is not a key: the error quotes it.
            let badScene = Self.temporaryPath("-\(index).json")
            try """
            { "name": "x", "root": { "id": "r", "frame": [0, 0, 10, 10],
              "keyCommands": [{ "shortcut": \(Self.json("ctrl+nokey\(text)")), "action": "a" }] } }
            """.write(toFile: badScene, atomically: false, encoding: .utf8)
            var scene = KeytraceOptions()
            scene.scenePath = badScene
            scene.focusDebug = true
            cases.append(("bad scene \(index)", scene))
            // A scene that is not JSON at all, with the control character where a value should be.
            let brokenScene = Self.temporaryPath("-broken-\(index).json")
            try "{ \"name\": x\(text) }".write(toFile: brokenScene, atomically: false, encoding: .utf8)
            var broken = KeytraceOptions()
            broken.scenePath = brokenScene
            broken.focusDebug = true
            cases.append(("broken scene \(index)", broken))
            // A recording whose event line holds it.
            let badRecording = Self.temporaryPath("-\(index).evemu")
            try "N: kbd\nE: 0.000000 0001 001e 1\nE: \(text)x 0001 001e 0\n".write(
                toFile: badRecording, atomically: false, encoding: .utf8)
            var replay = KeytraceOptions()
            replay.replayPath = badRecording
            replay.format = .plain
            cases.append(("bad recording \(index)", replay))
            // A file that is not there, named with it.
            var missing = KeytraceOptions()
            missing.scenePath = "/tmp/no such \(text) scene.json"
            missing.focusDebug = true
            cases.append(("missing file \(index)", missing))
            // A layout that does not exist (every eighth: xkbcommon takes a while to say so).
            guard index % 8 == 0 else { continue }
            var layout = KeytraceOptions()
            layout.keymap.layout = "zz\(text)"
            layout.conflicts = true
            cases.append(("layout \(index)", layout))
        }
        defer {
            for (_, options) in cases {
                for path in [options.scenePath, options.replayPath].compactMap({ $0 }) { unlink(path) }
            }
        }
        for (name, options) in cases {
            let (bytes, status) = try Self.run(options)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(status == nil, "\(name) should fail: \(text)")
            #expect(text.hasPrefix("keytrace: "), "\(name): \(text)")
            let raw = Self.rawControls(bytes)
            #expect(raw.isEmpty, "\(name): raw control bytes \(raw.prefix(5)) in \(text.debugDescription)")
        }
        // An output file named with control characters.
        #expect {
            _ = try OutputBuffer(path: "/nonexistent-\u{1B}[2J/trace.jsonl")
        } throws: { error in
            Self.rawControls(Array("\(error)".utf8)).isEmpty && "\(error)".contains("\\u{1B}[2J")
        }
    }

    @Test("the keytrace binary escapes an unknown option, an XKB_DEFAULT_LAYOUT value and a file name on stderr")
    func binaryStderr() throws {
        let runs: [([String], [String: String])] = [
            (["--\u{1B}]0;pwned\u{07}"], [:]),
            (["--scene", "/tmp/missing\u{1B}[2J\u{9B}31m.json", "--focus-debug"], [:]),
            (["--conflicts"], ["XKB_DEFAULT_LAYOUT": "zz\u{1B}]0;pwned\u{07}"]),
            (["--keys", "tab \u{1B}[31m"], [:]),
        ]
        for (arguments, environment) in runs {
            let result = try KeytraceBinary.run(arguments, environment: environment)
            #expect(result.status != 0, "\(arguments)")
            #expect(!result.stderr.isEmpty, "\(arguments)")
            let raw = Self.rawControls(Array(result.stderr.utf8)) + Self.rawControls(Array(result.stdout.utf8))
            #expect(raw.isEmpty, "\(arguments): \(raw.prefix(5)) in \(result.stderr.debugDescription)")
        }
    }
}
