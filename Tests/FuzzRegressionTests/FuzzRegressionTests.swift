import DispatchTrace
import Foundation
import Inspection
import KeytraceKit
import LinuxKeyboard
import ResponderChain
import Testing
import WaylandClient

/// Every input a fuzzer (or the black-box fuzzing of keytrace) crashed on is kept in
/// `Fuzz/Regressions/<target>/` and read here through the same path as keytrace reads it: a crash
/// comes back as a crashed test run, a hang as a test that never ends.
@MainActor @Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions")

    static func inputs(_ target: String) -> [URL] {
        let directory = root.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test("the regression inputs are there", arguments: ["scene", "evemu", "terminal", "keys", "trace", "keymap"])
    func present(target: String) {
        #expect(!Self.inputs(target).isEmpty, "Fuzz/Regressions/\(target) is empty")
    }

    @Test("scene inputs load, or fail with an error; a scene that loads takes keys")
    func scenes() throws {
        for url in Self.inputs("scene") {
            let bytes = try [UInt8](Data(contentsOf: url))
            guard let scene = try? Scene(json: bytes, file: url.lastPathComponent) else { continue }
            let (dispatcher, _) = scene.makeDispatcher()
            for code in [KeyCode.tab, .downArrow, .return, .a] {
                dispatcher.handle(KeyEvent(code, .down))
                dispatcher.handle(KeyEvent(code, .up))
            }
        }
    }

    @Test("recording inputs parse, or fail with an error; a recording that parses replays to JSON and back")
    func recordings() throws {
        for url in Self.inputs("evemu") {
            guard let recording = try? EvemuRecording(contentsOfFile: url.path) else { continue }
            #expect((try? EvemuRecording(parsing: recording.text)) == recording, "\(url.lastPathComponent)")
            let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
            var writer = ByteWriter()
            let session = TraceSession(scene: scene, layout: USKeyboardLayout(), explain: true) {
                $0.writeJSON(to: &writer)
            }
            session.start(input: "replay", layout: "us", t: recording.events.first?.time ?? 0)
            recording.replay(into: session.dispatcher)
            #expect(writer.count > 0)
        }
    }

    @Test("terminal inputs decode, whole and byte by byte, with and without the kitty protocol")
    func terminal() throws {
        for url in Self.inputs("terminal") {
            let bytes = try [UInt8](Data(contentsOf: url))
            for kitty in [false, true] {
                var whole = TerminalKeyDecoder(reportsEventTypes: kitty)
                _ = whole.decode(bytes)
                var split = TerminalKeyDecoder(reportsEventTypes: kitty)
                for byte in bytes { _ = split.decode([byte], endOfInput: false) }
                _ = split.decode([], endOfInput: true)
                #expect(split.pendingByteCount == 0 || split.isPasting)
            }
        }
    }

    @Test("key-sequence inputs parse, or fail with an error; a chord that parses prints as text that parses back")
    func keys() throws {
        for url in Self.inputs("keys") {
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            _ = try? KeyChord.parseSequence(text)
            _ = try? KeyCommand.parseShortcut(text)
            if let chord = try? KeyChord(parsing: text) {
                #expect((try? KeyChord(parsing: chord.description)) == chord, "\(url.lastPathComponent)")
            }
        }
    }

    @Test("trace-line inputs decode, or fail with an error; an event that decodes writes a line that decodes equal")
    func traceLines() throws {
        for url in Self.inputs("trace") {
            let bytes = try [UInt8](Data(contentsOf: url))
            guard let event = try? TraceEvent(jsonLine: bytes) else { continue }
            let line = event.json
            let again = try? TraceEvent(jsonLine: line)
            #expect(again == event, "\(url.lastPathComponent): \(line)")
            #expect(again?.json == line, "\(url.lastPathComponent)")
        }
    }

    @Test("inspection inputs read as lines and messages, or fail with an error; a snapshot's scene loads or fails")
    func inspectionLines() throws {
        for url in Self.inputs("inspection") + Self.corpus("inspection") {
            var reader = InspectionLineReader(maximumLength: InspectionProtocol.maximumLineLength)
            reader.append(try [UInt8](Data(contentsOf: url)) + [UInt8(ascii: "\n")])
            while let line = try? reader.nextLine() {
                guard let message = try? InspectionMessage(jsonLine: line) else { continue }
                #expect(
                    (try? InspectionMessage(jsonLine: Array(message.json.utf8))) == message, "\(url.lastPathComponent)")
                if case .snapshot(let snapshot) = message, let scene = try? snapshot.makeScene() {
                    _ = scene.makeDispatcher()
                }
            }
        }
    }

    @Test("keymap inputs compile or fail with an error; the ones that crashed xkbcommon 1.5 are refused before it")
    func keymaps() throws {
        for url in Self.inputs("keymap") + Self.corpus("keymap") {
            let bytes = try [UInt8](Data(contentsOf: url))
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(KeymapError) in try XKBKeyboardLayout(keymapText: raw, composeLocale: nil) }
            }
            if Self.inputs("keymap").contains(url) {
                guard case .failure(let error) = result else {
                    Issue.record("\(url.lastPathComponent) compiled")
                    continue
                }
                #expect(error.message.contains("malformed"), "\(url.lastPathComponent): \(error.message)")
            } else if case .failure(let error) = result {
                Issue.record("the seed \(url.lastPathComponent) does not compile: \(error.message)")
            }
        }
    }

    @Test("seat scripts (fuzz-seat's corpus and crashes) decode without a trap and leave no press open or key held")
    func seatScripts() throws {
        let urls = Self.inputs("seat") + Self.corpus("seat")
        #expect(!urls.isEmpty)
        for url in urls {
            let scene = try Scene(json: WaylandSeatDecoderScene.json, file: "seat.json")
            let (dispatcher, focus) = scene.makeDispatcher()
            focus.updateFocusIfNeeded()
            let repeater = SoftwareRepeater(timing: .standard, next: dispatcher)
            var now = 1.0
            let decoder = WaylandSeatDecoder(
                sink: repeater, repeater: repeater, clock: { now },
                makeDeviceID: { [unowned dispatcher] in dispatcher.makeDeviceID() })
            var open: Set<PressID> = []
            let watch = dispatcher.addTraceObserver { record in
                switch record.kind {
                case .press(let press, _), .pressOwned(let press, _, _):
                    if press.phase == .began { open.insert(press.id) }
                    if press.phase == .ended || press.phase == .cancelled { open.remove(press.id) }
                default: break
                }
            }
            let events = WaylandSeatEvent.script(try [UInt8](Data(contentsOf: url)))
            #expect(!events.isEmpty, "\(url.lastPathComponent)")
            for event in events {
                now += 0.013
                decoder.receive(event)
                repeater.fire(now: now)
            }
            decoder.cancelAll()
            #expect(open.isEmpty, "\(url.lastPathComponent): presses never ended")
            #expect(dispatcher.keyboardState.pressedKeys.isEmpty, "\(url.lastPathComponent): keys left held")
            _ = watch
        }
    }

    @Test("request inputs give a request only for one whole line with nothing after it")
    func requests() throws {
        for url in Self.inputs("request") + Self.corpus("request") {
            let bytes = try [UInt8](Data(contentsOf: url))
            var reader = InspectionRequestReader()
            if case .request = reader.consume(bytes) {
                #expect(bytes.last == UInt8(ascii: "\n"), "\(url.lastPathComponent)")
            }
        }
    }

    /// The seeds a fuzz target starts from (Fuzz/Corpus), read through the same path.
    static func corpus(_ target: String) -> [URL] {
        let directory = root.deletingLastPathComponent().appendingPathComponent("Corpus/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }
}

/// The scene fuzz-seat drives: a tile with a primary action and a text field.
enum WaylandSeatDecoderScene {
    static let json = """
        {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
          {"id": "open", "frame": [0, 0, 40, 20], "focusable": true, "primaryAction": "open", "actions": ["open"]},
          {"id": "name", "kind": "textInput", "frame": [50, 30, 40, 10]}]}}
        """
}
