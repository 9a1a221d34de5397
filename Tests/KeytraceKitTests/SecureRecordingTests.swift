import DispatchTrace
import Foundation
import KeytraceKit
import LinuxKeyboard
import ResponderChain
import Testing

/// `keytrace --record` on the demo scene, whose passcode field is secure: the recording leaves
/// out what is typed there, says so in comment lines, and still replays with every key released.
@MainActor @Suite struct SecureRecordingTests {
    /// The raw events a keyboard sends, fed the way `InputDevice.readAvailable` does: each event
    /// is recorded, then decoded (a frame is dispatched at its `SYN_REPORT`).
    @MainActor final class Keyboard {
        let recorder: EvemuRecorder
        let decoder: EvdevDecoder
        var time = 1000.0

        init(recorder: EvemuRecorder, dispatcher: Dispatcher) {
            self.recorder = recorder
            decoder = EvdevDecoder(device: DeviceID(rawValue: 1), sink: dispatcher, isLive: true)
        }

        func event(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            let seconds = Int(time)
            let microseconds = Int((time - Double(seconds)) * 1_000_000)
            recorder.record(type: type, code: code, value: value, seconds: seconds, microseconds: microseconds)
            decoder.decode(type: type, code: code, value: value, time: time)
        }

        /// One frame: a scan code and a key event per key, then `SYN_REPORT`.
        func frame(_ keys: [(KeyCode, Int32)]) {
            time += 0.05
            for (key, value) in keys {
                event(4, 4, Int32(0x70000 + Int32(key.rawValue)))  // EV_MSC MSC_SCAN
                event(1, key.rawValue, value)
            }
            event(0, 0, 0)
        }

        func tap(_ key: KeyCode) {
            frame([(key, 1)])
            frame([(key, 0)])
        }
    }

    /// Keys only typed into the passcode field (each in the field alone).
    static let secretKeys: [KeyCode] = [.q, .z, .digit7, .x, .leftShift]

    @Test("keys typed into a secure field are left out with a marker, and the recording replays with no key held")
    func leavesOutSecureEntry() throws {
        let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        let session = TraceSession(scene: scene, layout: USKeyboardLayout()) { _ in }
        session.start(input: "keyboards", layout: "us")
        let dispatcher = session.dispatcher
        let path = "/tmp/secure-recording-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).evemu"
        defer { unlink(path) }
        var recorder: EvemuRecorder? = try EvemuRecorder(path: path, header: EvemuRecording(name: "test keyboard"))
        recorder?.isSecureEntry = { dispatcher.isSecureEntry }
        let keyboard = Keyboard(recorder: try #require(recorder), dispatcher: dispatcher)

        // Search, lists, reminders, notes: three Tabs; the fourth goes into the passcode field.
        for _ in 0..<3 { keyboard.tap(.tab) }
        #expect(session.focusedID == "notes")
        keyboard.frame([(.tab, 1)])
        #expect(session.focusedID == "passcode")
        keyboard.frame([(.tab, 0)])  // pressed outside the field: its release is recorded
        // Shift-Q, then Z held with a repeat, 7, X.
        keyboard.frame([(.leftShift, 1)])
        keyboard.tap(.q)
        keyboard.frame([(.leftShift, 0)])
        keyboard.frame([(.z, 1)])
        keyboard.frame([(.z, 2)])
        keyboard.frame([(.z, 0)])
        keyboard.tap(.digit7)
        // X held while Tab leaves the field: both belong to the field, and their releases too.
        keyboard.frame([(.x, 1)])
        keyboard.frame([(.tab, 1)])
        #expect(session.focusedID == "search")
        keyboard.frame([(.tab, 0)])
        keyboard.frame([(.x, 0)])
        // Outside the field again: recorded.
        keyboard.tap(.a)
        // Back to notes (four Tabs from search), then one frame with Tab and Q: Tab moves into the
        // field and Q is typed there, though the frame began outside it.
        for _ in 0..<3 { keyboard.tap(.tab) }
        #expect(session.focusedID == "notes")
        keyboard.frame([(.tab, 1), (.q, 1)])
        #expect(session.focusedID == "passcode")
        keyboard.frame([(.tab, 0), (.q, 0)])
        keyboard.tap(.tab)  // typed in the field too: left out
        #expect(session.focusedID == "search")
        keyboard.tap(.a)
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
        let leftOut = try #require(recorder).keyPressesLeftOut
        recorder = nil  // finishes the file

        let text = try String(contentsOfFile: path, encoding: .utf8)
        let recording = try EvemuRecording(parsing: text, file: path)
        // No secret key, no scan code naming one.
        for key in Self.secretKeys {
            let hex = String(key.rawValue, radix: 16)
            let code = String(repeating: "0", count: 4 - hex.count) + hex
            #expect(!text.contains(" 0001 \(code) "), "KEY code \(key.rawValue) was recorded:\n\(text)")
            #expect(!text.contains(" 0004 0004 \(0x70000 + Int(key.rawValue))"), "its scan code was recorded")
        }
        #expect(leftOut == 9, "Shift, Q, Z, 7, X, Tab out of the field; the Tab+Q frame's two presses, Tab out")
        // The markers, for whoever reads the recording.
        let comments = text.split(separator: "\n").filter { $0.hasPrefix("# ") && $0.contains("secure text") }
        #expect(comments.count == 4, "\(comments)")
        #expect(comments.first?.contains("left out from here") == true)
        #expect(comments.contains { $0.contains("ended: 6 key press(es) left out") }, "\(comments)")
        #expect(comments.last?.contains("ended: 3 key press(es) left out") == true, "\(comments)")
        // Every press recorded is released, and the replay leaves nothing held.
        var down: Set<UInt16> = []
        for event in recording.events where event.type == 1 {
            if event.value == 1 {
                #expect(down.insert(event.code).inserted, "\(event.code) pressed twice")
            } else if event.value == 0 {
                #expect(down.remove(event.code) != nil, "\(event.code) released but never pressed")
            }
        }
        #expect(down.isEmpty)
        #expect(recording.events.contains { $0.type == 1 && $0.code == KeyCode.a.rawValue && $0.value == 1 })
        let replayScene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        let replay = TraceSession(scene: replayScene, layout: USKeyboardLayout()) { _ in }
        replay.start(input: "replay", layout: "us")
        recording.replay(into: replay.dispatcher)
        #expect(replay.dispatcher.keyboardState.pressedKeys.isEmpty)
        #expect(replay.dispatcher.activePresses.isEmpty)
    }

    @Test("without a secure-entry question the recorder writes every key, as before")
    func recordsEverythingWithoutTheQuestion() throws {
        let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        let session = TraceSession(scene: scene, layout: USKeyboardLayout()) { _ in }
        session.start(input: "keyboards", layout: "us")
        let recorder = EvemuRecorder(header: EvemuRecording(name: "k"))
        let keyboard = Keyboard(recorder: recorder, dispatcher: session.dispatcher)
        for _ in 0..<4 { keyboard.tap(.tab) }
        keyboard.tap(.q)
        #expect(recorder.recording.events.count == 5 * 2 * 3)
        #expect(recorder.keyPressesLeftOut == 0)
    }
}
