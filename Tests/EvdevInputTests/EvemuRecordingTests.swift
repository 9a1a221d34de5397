import EvdevInput
import Foundation
import LinuxSystem
import ResponderChain
import Testing

@MainActor @Suite struct EvemuRecordingTests {
    static let keyboard = """
        # EVEMU 1.3
        # A minimal keyboard, as evemu-record writes it.
        N: kernel-vm test keyboard
        I: 0003 1209 0001 0001
        P: 00 00 00 00 00 00 00 00
        B: 00 03 00 00 00 00 00 00 00
        B: 01 fe ff ff ff ff ff ff ff
        B: 01 ff ff ff ff ff ff ff ff
        E: 0.000000 0001 002a 0001
        E: 0.000000 0000 0000 0000
        E: 0.010000 0001 001e 0001   # KEY_A down
        E: 0.010000 0000 0000 0000
        E: 0.020000 0001 001e 0000
        E: 0.020000 0000 0000 0000
        E: 1589816498.5 0001 002a 0000
        E: 1589816498.5 0000 0000 0000
        """

    @Test("reads the header, the bitmasks and the events, with evemu's time and number formats")
    func parse() throws {
        let recording = try EvemuRecording(parsing: Self.keyboard, file: "kbd.evemu")
        #expect(recording.name == "kernel-vm test keyboard")
        #expect(recording.id == (bus: 3, vendor: 0x1209, product: 1, version: 1))
        #expect(recording.supports(type: 1, code: KeyCode.a.rawValue))
        #expect(recording.supports(type: 0, code: 1))
        #expect(!recording.supports(type: 1, code: 0))
        #expect(recording.declaredKeys.count == 127)
        #expect(recording.events.count == 8)
        #expect(recording.events[2] == .init(seconds: 0, microseconds: 10000, type: 1, code: 0x1e, value: 1))
        #expect(recording.events[6].microseconds == 500_000 && recording.events[6].seconds == 1_589_816_498)
    }

    @Test("a recording file reads straight from its bytes and gives what its text gives")
    func readsFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("evemu-\(UUID()).evemu").path
        try Self.keyboard.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try EvemuRecording(contentsOfFile: path) == EvemuRecording(parsing: Self.keyboard, file: path))
    }

    @Test(
        "a file that cannot be read: the error names the file, the reason and the fix",
        arguments: [
            (
                "/nonexistent/keys.evemu",
                "/nonexistent/keys.evemu: cannot read the recording: No such file or directory (check the path)"
            ),
            ("/tmp", "/tmp: cannot read the recording: Is a directory (give a file, not a directory)"),
        ])
    func unreadableFile(path: String, message: String) {
        #expect(throws: RecordingError.self) { try EvemuRecording(contentsOfFile: path) }
        do {
            _ = try EvemuRecording(contentsOfFile: path)
        } catch {
            #expect(error.description == message)
            #expect(error.line == 0)
        }
    }

    @Test("writing and reading again gives the same recording")
    func roundTrip() throws {
        let recording = try EvemuRecording(parsing: Self.keyboard)
        let again = try EvemuRecording(parsing: recording.text)
        #expect(again == recording)
        #expect(recording.text.contains("E: 1589816498.500000 0001 002a 0"))
        var made = EvemuRecording(name: "made")
        made.declare(type: 1, code: KeyCode.f24.rawValue)
        made.events.append(.init(seconds: 1, microseconds: 5, type: 1, code: KeyCode.f24.rawValue, value: 1))
        let read = try EvemuRecording(parsing: made.text)
        #expect(read == made)
        #expect(read.declaredKeys == [.f24])
        #expect(read.supports(type: 0, code: 1), "declaring a key code declares EV_KEY")
    }

    @Test("a device name with carriage returns, control characters or surrounding blanks survives writing")
    func nameRoundTrip() throws {
        // Found by the evemu fuzz target: the trailing carriage return and the other control
        // characters were kept when reading, then lost or misread after writing.
        let text = "N: \r\r#\r\u{1A}E \r\r000\r\r\r\nE: 0.000000 0001 001e 1\n"
        let recording = try EvemuRecording(parsing: text, file: "name.evemu")
        #expect(recording.name == "#\u{FFFD}\u{FFFD}E \u{FFFD}\u{FFFD}000")
        #expect(try EvemuRecording(parsing: recording.text) == recording)
        // Found by the evemu fuzz target: a name beginning with a combining mark joined the space
        // after "N:" when read back.
        let marked = try EvemuRecording(parsing: "N: \r\r\u{5AF}x\r\nE: 0.000000 0001 001e 1\n")
        #expect(marked.name == "\u{FFFD}x")
        #expect(try EvemuRecording(parsing: marked.text) == marked)
        // Found by the evemu fuzz target: a header kept as text lost its last carriage return.
        let headers = try EvemuRecording(parsing: "N: x\nA: 00 0\r1\u{0}\r\r\nE: 0.000000 0001 001e 1\n")
        #expect(headers.otherHeaders == ["A: 00 0\u{FFFD}1\u{FFFD}"])
        #expect(try EvemuRecording(parsing: headers.text) == headers)
        var named = recording
        named.name = "\tKeyboard\u{7F}name\r"
        #expect(try EvemuRecording(parsing: named.text).name == "Keyboard\u{FFFD}name")
    }

    @Test(
        "malformed lines give the file, the line number and what was expected",
        arguments: [
            ("N: x\nE: 0.0 0001 001e", "bad.evemu:2: E: needs \"seconds.microseconds type code value\", got 3 fields"),
            ("N: x\nE: zero 0001 001e 1", "bad.evemu:2: E: \"zero\" is not a time like 12.345678"),
            ("N: x\n\nE: 0.1 00zz 001e 1", "bad.evemu:3: E: type \"00zz\" is not hex"),
            ("N: x\nE: 0.1 0001 001e one", "bad.evemu:2: E: value \"one\" is not a decimal integer"),
            ("N: x\nI: 0003 1209", "bad.evemu:2: I: needs 4 hex numbers (bus vendor product version), got 2"),
            ("N: x\nQ: what", "bad.evemu:2: unknown line type \"Q:\" (expected N:, I:, P:, B:, A:, L:, S: or E:)"),
            (
                "hello",
                "bad.evemu:1: expected a line like \"E: 0.000000 0001 001e 0001\" (N:, I:, P:, B:, A:, E:), got \"hello\""
            ),
            ("# only a comment", "bad.evemu:1: not an evemu recording: no N: line and no E: events"),
            // Found by fuzzing keytrace: read as -0.5 before.
            (
                "N: x\nE: -1.500000 0001 001e 1",
                "bad.evemu:2: E: time \"-1.500000\" is negative; evemu times count up from 0, like 12.345678"
            ),
            // Found by fuzzing keytrace: writing such a time trapped.
            (
                "N: x\nE: 99999999999999999.000000 0001 001e 1",
                "bad.evemu:2: E: time \"99999999999999999.000000\" is out of range: at most 4294967295 seconds (a 32-bit time)"
            ),
            (
                "N: x\nE: 4294967296.0 0001 001e 1",
                "bad.evemu:2: E: time \"4294967296.0\" is out of range: at most 4294967295 seconds (a 32-bit time)"
            ),
            // Found by the evemu fuzz target: written back as type 00, a different recording.
            (
                "N: x\nB: 100 01",
                "bad.evemu:2: B: event type \"100\" is beyond the kernel's last type EV_MAX (1f); evemu writes types as 00 to 1f"
            ),
            ("N: x\nE: +1.000000 0001 001e 1", "bad.evemu:2: E: \"+1.000000\" is not a time like 12.345678"),
            ("N: x\nE: 1.-5 0001 001e 1", "bad.evemu:2: E: \"1.-5\" is not a time like 12.345678"),
        ])
    func malformed(text: String, message: String) {
        do {
            _ = try EvemuRecording(parsing: text, file: "bad.evemu")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a recording over the size limit is refused before it is read")
    func sizeLimit() {
        let text = String(repeating: "#", count: EvemuRecording.maximumSize + 1)
        #expect {
            try EvemuRecording(parsing: text, file: "huge.evemu")
        } throws: { error in
            "\(error)" == "huge.evemu: the recording is 67108865 bytes, over the limit of 67108864 bytes (64 MiB); "
                + "record a shorter session or split the file"
        }
    }

    @Test("the largest time a recording may hold is read by both readers")
    func largestTime() throws {
        let recording = try EvemuRecording(
            parsing: "N: x\nE: 4294967295.999999 0001 001e 1\nE: 4294967295.5 0001 001e 0\n")
        #expect(recording.events.map(\.seconds) == [4_294_967_295, 4_294_967_295])
        #expect(recording.events.map(\.microseconds) == [999_999, 500_000])
    }

    @Test("event lines read from bytes and by the general reader agree, keep file order, and keep line numbers")
    func fastAndGeneralReaders() throws {
        let text =
            "N: mixed\r\n"
            + "E: 1.000000 0001 001E 1\r\n"  // fast: uppercase hex, CRLF
            + "E: 1.5 0001 0030 1\r\n"  // general: short fraction
            + "E: 2.000000 0003 0000 -42 # a comment\r\n"  // fast: negative value and a comment
            + "E:   3.250000\t0000 0000 0\r\n"  // fast: tabs and extra spaces
        let recording = try EvemuRecording(parsing: text)
        #expect(recording.events.map(\.time) == [1, 1.5, 2, 3.25])
        #expect(recording.events.map(\.code) == [0x1e, 0x30, 0, 0])
        #expect(recording.events.map(\.value) == [1, 1, -42, 0])
        #expect(recording.name == "mixed")
        #expect {
            _ = try EvemuRecording(parsing: "N: x\nE: 0.000000 0001 001e 1\nE: 0.000000 0001 zz 1\n", file: "f.evemu")
        } throws: { error in
            "\(error)" == "f.evemu:3: E: code \"zz\" is not hex"
        }
    }
}
