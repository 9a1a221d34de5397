import EvdevInput
import Glibc
import LinuxSystem
import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct EvemuRecorderTests {
    static var header: EvemuRecording {
        var header = EvemuRecording(name: "kiosk keyboard")
        header.id = (bus: 3, vendor: 0x46d, product: 0xc31c, version: 0x110)
        for key in [KeyCode.a, .b, .leftShift] { header.declare(type: 1, code: key.rawValue) }
        return header
    }

    @Test("recorded events get times relative to the first, and the text reads back the same")
    func inMemory() throws {
        let recorder = EvemuRecorder(header: Self.header)
        recorder.record(type: 1, code: 30, value: 1, seconds: 5000, microseconds: 999_990)
        recorder.record(type: 0, code: 0, value: 0, seconds: 5000, microseconds: 999_990)
        recorder.record(type: 1, code: 30, value: 0, seconds: 5001, microseconds: 20)
        recorder.record(type: 0, code: 0, value: 0, seconds: 5001, microseconds: 20)
        let recording = recorder.recording
        #expect(recording.events.map(\.time) == [0, 0, 0.00003, 0.00003])
        #expect(recorder.eventCount == 4)
        let reread = try EvemuRecording(parsing: recording.text)
        #expect(reread == recording)
        #expect(reread.supports(type: 1, code: KeyCode.leftShift.rawValue))
        #expect(reread.supports(type: 0, code: 1), "EV_KEY is declared among the types")
    }

    @Test("a file recording streams the header and events, and parses back into what was sent")
    func file() throws {
        let path = "/tmp/evemu-recorder-test-\(getpid()).evemu"
        defer { unlink(path) }
        do {
            let recorder = try EvemuRecorder(path: path, header: Self.header)
            recorder.record(type: 1, code: 48, value: 1, seconds: 1, microseconds: 0)
            recorder.record(type: 0, code: 0, value: 0, seconds: 1, microseconds: 0)
            recorder.record(type: 1, code: 48, value: 0, seconds: 1, microseconds: 250_000)
            recorder.record(type: 0, code: 0, value: 0, seconds: 1, microseconds: 250_000)
        }
        let file = try #require(fopen(path, "r"))
        var bytes: [UInt8] = []
        while true {
            let c = fgetc(file)
            if c == EOF { break }
            bytes.append(UInt8(c))
        }
        fclose(file)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("E: 0.250000 0001 0030 0"))
        let recording = try EvemuRecording(parsing: text, file: path)
        #expect(recording.name == "kiosk keyboard")
        #expect(recording.events.count == 4)

        let window = Window()
        let field = RecordingResponder("field", canBecomeFirstResponder: true)
        field.handlesAllKeys = true
        window.addChild(field)
        field.becomeFirstResponder()
        recording.replay(into: Dispatcher(window: window))
        #expect(field.presses.map(\.phase) == [.began, .ended])
        #expect(field.presses.first?.key.keyCode == .b)
    }

    @Test("a recorder that cannot create its file names the file and the fix")
    func unwritable() {
        #expect {
            _ = try EvemuRecorder(path: "/nonexistent-dir/rec.evemu", header: Self.header)
        } throws: { error in
            "\(error)".hasPrefix("record /nonexistent-dir/rec.evemu: cannot create the recording file")
                && "\(error)".contains("writable")
        }
    }

    @Test("a recording that cannot be written (a full disk) keeps the error: the file, the reason and the fix")
    func fullDisk() throws {
        let recorder = try EvemuRecorder(path: "/dev/full", header: Self.header)
        recorder.record(type: 1, code: 30, value: 1, seconds: 1, microseconds: 0)
        recorder.record(type: 0, code: 0, value: 0, seconds: 1, microseconds: 0)
        let error = try #require(recorder.writeError)
        #expect(error.errno == .noSpace)
        #expect("\(error)".hasPrefix("record /dev/full: cannot write the recording (No space left on device)"))
    }

    @Test("in secure text entry a drop and the sync delta after it are still written, the keys left out")
    func secureEntryKeepsDrops() throws {
        final class Flag { var on = false }
        let recorder = EvemuRecorder(header: Self.header)
        let secure = Flag()
        recorder.isSecureEntry = { secure.on }
        recorder.record(type: 1, code: 48, value: 1, seconds: 1, microseconds: 0)  // B, before
        recorder.record(type: 0, code: 0, value: 0, seconds: 1, microseconds: 0)
        secure.on = true
        recorder.record(type: 4, code: 4, value: 0x70004, seconds: 1, microseconds: 10)
        recorder.record(type: 1, code: 30, value: 1, seconds: 1, microseconds: 10)  // A, in the field
        recorder.record(type: 0, code: 3, value: 0, seconds: 1, microseconds: 20)  // SYN_DROPPED
        recorder.record(type: 1, code: 30, value: 0, seconds: 1, microseconds: 30)  // the delta: A up, B up
        recorder.record(type: 1, code: 48, value: 0, seconds: 1, microseconds: 30)
        recorder.record(type: 0, code: 0, value: 0, seconds: 1, microseconds: 30)
        let written = recorder.recording.events.map { [Int($0.type), Int($0.code), Int($0.value)] }
        #expect(written == [[1, 48, 1], [0, 0, 0], [0, 3, 0], [1, 48, 0], [0, 0, 0]])
        #expect(recorder.keyPressesLeftOut == 1)
        let window = Window()
        let dispatcher = Dispatcher(window: window)
        recorder.recording.replay(into: dispatcher)
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
    }

    @Test("replay at recorded speed waits the recorded gaps, scaled; as fast as possible waits not at all")
    func pacing() throws {
        let text = """
            N: paced
            E: 10.000000 0001 001e 0001
            E: 10.000000 0000 0000 0000
            E: 10.500000 0001 001e 0000
            E: 10.500000 0000 0000 0000
            E: 11.250000 0001 0030 0001
            E: 11.250000 0000 0000 0000
            """
        let recording = try EvemuRecording(parsing: text)
        let dispatcher = Dispatcher(window: Window())
        var waits: [Double] = []
        recording.replay(into: dispatcher, speed: .realTime) { waits.append($0) }
        #expect(waits == [0.5, 0.75])
        waits = []
        recording.replay(into: Dispatcher(window: Window()), speed: .recorded(scale: 2)) { waits.append($0) }
        #expect(waits == [0.25, 0.375])
        waits = []
        recording.replay(into: Dispatcher(window: Window()), speed: .asFastAsPossible) { waits.append($0) }
        #expect(waits.isEmpty)
    }

    @Test("a recorded drop replays as a resync: the sync delta ends released keys cancelled and invents no began")
    func recordedDrop() throws {
        let text = """
            N: dropped
            E: 0.000000 0001 001e 0001
            E: 0.000000 0000 0000 0000
            E: 0.100000 0000 0003 0000
            E: 0.100000 0001 001e 0000
            E: 0.100000 0001 0030 0001
            E: 0.100000 0000 0000 0000
            E: 0.200000 0001 0030 0000
            E: 0.200000 0000 0000 0000
            """
        let window = Window()
        let field = RecordingResponder("field", canBecomeFirstResponder: true)
        field.handlesAllKeys = true
        window.addChild(field)
        field.becomeFirstResponder()
        let dispatcher = Dispatcher(window: window)
        let decoder = try EvemuRecording(parsing: text).replay(into: dispatcher)
        #expect(decoder.drops == 1)
        #expect(field.presses.filter { $0.key.keyCode == .a }.map(\.phase) == [.began, .cancelled])
        #expect(field.presses.filter { $0.key.keyCode == .b }.isEmpty, "B was held by the resync, never began")
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty, "B's release is swallowed, nothing stuck")
    }
}
