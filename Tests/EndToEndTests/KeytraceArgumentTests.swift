import Foundation
import Testing

/// keytrace's command line, run through the built binary: flags that would be ignored are refused,
/// every refusal names the flags and the fix, and the exit status says what kind of failure it was.
@MainActor @Suite struct KeytraceArgumentTests {
    @Test(
        "flags that would be silently ignored are usage errors (64) that name both flags",
        arguments: [
            (["--grab", "--keys", "tab"], "--grab"),
            (["--grab", "--replay", "x.evemu"], "--grab"),
            (["--grab", "--terminal"], "--grab"),
            (["--seat", "seat1", "--keys", "tab"], "--seat"),
            (["--seat", "seat1", "--terminal"], "--seat"),
            (["--keys", "tab", "--conflicts"], "--conflicts"),
            (["--keys", "tab", "--focus-debug"], "--focus-debug"),
            (["--replay", "x.evemu", "--conflicts"], "--conflicts"),
            (["--conflicts", "--json"], "--conflicts"),
            (["--focus-debug", "--explain"], "--focus-debug"),
            (["--focus-debug", "--device", "kbd"], "--focus-debug"),
            (["--keys", "tab", "--print-demo-scene"], "--print-demo-scene"),
            (["--print-demo-scene", "--layout", "de"], "--print-demo-scene"),
            (["--record", "out.evemu", "--conflicts"], "--conflicts"),
            (["--record", "out.evemu", "--focus-debug"], "--focus-debug"),
            (["--record", "out.evemu", "--list-devices"], "--list-devices"),
            (["--list-devices", "--scene", "s.json"], "--list-devices"),
            (["--list-devices", "--json"], "--list-devices"),
        ])
    func ignoredFlags(arguments: [String], mode: String) throws {
        let result = try KeytraceBinary.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        let other = arguments.first { $0.hasPrefix("--") && $0 != mode }!
        #expect(result.stderr.contains(mode) && result.stderr.contains(other), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "empty values and a variant without its layout are usage errors (64) that say what to write",
        arguments: [
            (["--replay", ""], #"--replay "": an empty path; give the recording's file name"#),
            (["--scene", "", "--keys", "tab"], #"--scene "": an empty path; give the scene's file name"#),
            (["--record", ""], #"--record "": an empty path; give the file to write the recording to"#),
            (["--seat", ""], #"--seat "": an empty name; give a seat, e.g. seat0"#),
            (["--device", ""], #"--device "": an empty name; give a device path or part of its name"#),
            (["--keys", "a", "--layout", ""], #"--layout "": an empty name; give one such as us or de"#),
            (["--keys", "a", "--rules", ""], #"--rules "": an empty name; give one such as evdev"#),
            (
                ["--keys", "a", "--variant", "dvorak"],
                "--variant needs --layout, e.g. --layout us --variant dvorak (a variant belongs to a layout)"
            ),
        ])
    func emptyValues(arguments: [String], message: String) throws {
        let result = try KeytraceBinary.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(
        "unknown xkb names are bad input (2) with a did-you-mean, and a missing rules file says where it looked",
        arguments: [
            (["--xkb-options", "garbage"], #"unknown xkb option "garbage""#),
            (["--xkb-options", "ctrl:nocap"], #"(did you mean "ctrl:nocaps"?)"#),
            (["--model", "bogus"], #"unknown keyboard model "bogus""#),
            (["--model", "pc015"], #"(did you mean "pc105"?)"#),
            (
                ["--layout", "us", "--variant", "dvorakk"],
                #"unknown variant "dvorakk" of layout "us" (did you mean "dvorak"?)"#
            ),
            (["--layout", "dee"], #"unknown keyboard layout "dee" (did you mean "de"?)"#),
            (["--rules", "nonexistent"], #"no xkb rules file "nonexistent": looked in "#),
            (["--rules", "nonexistent"], "/usr/share/X11/xkb/rules"),
            (["--rules", "nonexistent"], "rules there: base, evdev"),
        ])
    func unknownNames(arguments: [String], message: String) throws {
        let result = try KeytraceBinary.run(["--keys", "a"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("valid xkb names still work: a variant, a model, options and the rules named explicitly")
    func validNames() throws {
        let result = try KeytraceBinary.run([
            "--keys", "q", "--plain", "--rules", "evdev", "--model", "pc105", "--layout", "us", "--variant", "dvorak",
            "--xkb-options", "ctrl:nocaps,compose:ralt",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("us(dvorak)"))
        #expect(result.stdout.contains("'"), "KEY_Q types ' on Dvorak: \(result.stdout)")
    }

    @Test("without the rules' .lst file the model and options are not checked (xkbcommon compiles them)")
    func noListFile() throws {
        // An XKB root that links to the system's data, with the rules files but not their lists.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("xkb-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let system = URL(fileURLWithPath: "/usr/share/X11/xkb")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("rules"), withIntermediateDirectories: true)
        for folder in ["keycodes", "symbols", "types", "compat", "geometry"] {
            try FileManager.default.createSymbolicLink(
                at: root.appendingPathComponent(folder), withDestinationURL: system.appendingPathComponent(folder))
        }
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("rules/evdev"),
            withDestinationURL: system.appendingPathComponent("rules/evdev"))
        let environment = ["XKB_CONFIG_ROOT": root.path, "HOME": root.path]
        let checked = try KeytraceBinary.run(["--keys", "a", "--model", "bogus"])
        #expect(checked.status == 2, "with the list: \(checked.stderr)")
        let unchecked = try KeytraceBinary.run(["--keys", "a", "--model", "bogus"], environment: environment)
        #expect(unchecked.status == 0, "without the list: \(unchecked.stderr)")
    }

    @Test(
        "--keys takes a value that begins with -: the minus key",
        arguments: [("- a", ["Minus", "KeyA"]), ("-", ["Minus"]), ("-- a", [])])
    func keysBeginningWithMinus(sequence: String, keys: [String]) throws {
        let result = try KeytraceBinary.run(["--keys", sequence, "--json"])
        if keys.isEmpty {
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(#"key 1 "--""#), "\(result.stderr)")
            return
        }
        #expect(result.status == 0, "\(result.stderr)")
        let pressed = result.stdout.split(separator: "\n").filter { $0.contains(#""event":"key","phase":"down""#) }
        #expect(pressed.count == keys.count, "\(result.stdout)")
        for (line, key) in zip(pressed, keys) { #expect(line.contains(#""key":"\#(key)""#), "\(line)") }
    }

    @Test("bad input files are named with the problem and the fix (exit 2)")
    func badFiles() throws {
        let empty = try KeytraceBinary.run(["--scene", "/dev/null", "--keys", "tab"])
        #expect(empty.status == 2)
        #expect(empty.stderr == "keytrace: /dev/null:1:1: the file is empty; a scene is a JSON object\n")
        let endless = try KeytraceBinary.run(["--replay", "/dev/zero"])
        #expect(endless.status == 2)
        #expect(endless.stderr.hasPrefix("keytrace: /dev/zero: the recording is a character device that sent more"))
        let missing = try KeytraceBinary.run(["--scene", "/nonexistent/s.json", "--keys", "tab"])
        #expect(missing.status == 2)
        #expect(
            missing.stderr == "keytrace: read scene /nonexistent/s.json: No such file or directory (check the path)\n")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keytrace-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\n  \"name\": \"".utf8 + [0xC3, 0x28] + "\"\n}\n".utf8).write(to: URL(fileURLWithPath: path))
        let invalid = try KeytraceBinary.run(["--scene", path, "--keys", "tab"])
        #expect(invalid.status == 2, "a scene that is not UTF-8 is refused, not read with U+FFFD")
        #expect(invalid.stderr.hasPrefix("keytrace: \(path):2:"), "\(invalid.stderr)")
    }
}
