import DispatchTrace
import KeytraceKit
import ResponderChain
import Testing

/// A layout that is not xkbcommon's but names keysyms: traces ask it through
/// `KeyboardLayout.keysymName(for:in:)`.
struct NamingLayout: KeyboardLayout {
    var name: String { "naming" }

    func characters(for code: KeyCode, in state: LayoutState) -> String {
        USKeyboardLayout().characters(for: code, in: state)
    }

    func keysymName(for code: KeyCode, in state: LayoutState) -> String? {
        code == .a ? (state.modifierFlags.contains(.shift) ? "sym-A" : "sym-a") : nil
    }
}

/// The trace's one typed model: what TraceSession makes of dispatch records, and its renderings.
@MainActor @Suite struct TraceEventTests {
    static let formJSON = """
        {"root": {"id": "form", "children": [
          {"id": "pin", "kind": "textInput", "secure": true, "frame": [0, 0, 100, 20]},
          {"id": "name", "kind": "textInput", "frame": [0, 30, 100, 20]}]}}
        """

    func session(layout: any KeyboardLayout = USKeyboardLayout(), _ json: String = formJSON) throws -> (
        TraceSession, () -> [TraceEvent]
    ) {
        let scene = try Scene(json: json, file: "form.json")
        var events: [TraceEvent] = []
        let session = TraceSession(scene: scene, layout: layout, explain: true) { events.append($0) }
        session.deviceNames[.primary] = "keys"
        session.start(input: "keys", layout: layout.name)
        return (session, { events })
    }

    @Test("the session event carries the schema version right after its name")
    func version() throws {
        let (_, events) = try session()
        let first = try #require(events().first)
        #expect(TraceEvent.schemaVersion == 1)
        #expect(
            first.json == #"{"t":0.000000,"event":"session","version":1,"input":"keys","scene":"form.json","#
                + #""layout":"us","note":null}"#)
        #expect(first.plainLine == "    0.000000  session        input keys, scene \"form.json\", layout us")
    }

    @Test("keysym names come through the layout protocol: a layout that is not xkb's names them too")
    func keysymThroughTheProtocol() throws {
        let (session, events) = try session(
            layout: NamingLayout(), #"{"root": {"id": "list", "firstResponder": true}}"#)
        session.dispatcher.handle(KeyEvent(.a, .down, timestamp: 1))
        session.dispatcher.handle(KeyEvent(.a, .up, timestamp: 1.1))
        session.dispatcher.handle(KeyEvent(.leftShift, .down, timestamp: 2))
        session.dispatcher.handle(KeyEvent(.a, .down, timestamp: 2.1))
        session.dispatcher.handle(KeyEvent(.b, .down, timestamp: 2.2))
        let keys = events().compactMap { event -> (KeyCode, String?)? in
            guard case .key(.down, .value(let key), _) = event.kind else { return nil }
            return (key.code, key.keysym)
        }
        #expect(keys.map(\.0) == [.a, .leftShift, .a, .b])
        #expect(keys.map(\.1) == ["sym-a", nil, "sym-A", nil])
        let lines = events().map(\.json).filter { $0.contains(#""event":"key""#) }
        #expect(lines.first?.contains(#""key":"KeyA","code":30,"keysym":"sym-a","characters":"a""#) == true)
        #expect(lines.last?.contains(#""keysym":null"#) == true)
        #expect(USKeyboardLayout().keysymName(for: .a, in: LayoutState()) == nil, "the default names none")
    }

    @Test("keys typed into a secure field are redacted values, written as before: • and a null code")
    func redactionIsTyped() throws {
        let (session, events) = try session()
        #expect(session.focusedID == "pin")
        let before = events().count
        session.dispatcher.handle(KeyEvent(.leftShift, .down, timestamp: 1))
        session.dispatcher.handle(KeyEvent(.digit7, .down, timestamp: 1.1))
        session.dispatcher.handle(KeyEvent(.digit7, .up, timestamp: 1.2))
        session.dispatcher.handle(KeyEvent(.leftShift, .up, timestamp: 1.3))
        let typed = events().dropFirst(before)
        let keys = typed.filter { if case .key = $0.kind { true } else { false } }
        #expect(keys.count == 4)
        for event in keys {
            guard case .key(_, let key, let device) = event.kind else { continue }
            #expect(key == .redacted)
            #expect(device == "keys")
        }
        let presses = typed.compactMap { event -> TraceEvent.Redactable<KeyCode>? in
            if case .press(_, let key, _, _) = event.kind { return key } else { return nil }
        }
        #expect(!presses.isEmpty)
        #expect(presses.allSatisfy { $0 == .redacted })
        let down = try #require(keys.dropFirst().first)
        #expect(
            down.json
                == #"{"t":1.100000,"event":"key","phase":"down","key":"•","code":null,"keysym":"•","characters":"•","#
                + #""modifiers":[],"device":"keys"}"#)
        #expect(down.plainLine == "    1.100000  key            down • keysym • \"•\" on keys")
        let unhandled = TraceEvent(t: 2, .unhandled(.redacted))
        #expect(unhandled.json == #"{"t":2.000000,"event":"unhandled","key":"•"}"#)
        let command = TraceEvent(
            t: 2,
            .keyCommand(
                title: "Go", action: "go", shortcut: .redacted, declaredBy: nil, responder: "pin", priority: false,
                isRepeat: false))
        #expect(command.json.contains(#""shortcut":"•""#))
        #expect(command.plainLine.hasSuffix("• \"Go\" (go) declared by global commands, performed by pin"))
    }

    @Test("a key's modifiers, stage numbers and press recipients render as the core names them")
    func renderings() {
        let key = TraceEvent(
            t: 0.5,
            .key(
                .repeat,
                .value(
                    TraceEvent.KeyDetails(
                        code: .a, keysym: "A", characters: "A", modifierFlags: [.numericPad, .shift, .control])),
                device: "kbd"))
        #expect(
            key.json
                == #"{"t":0.500000,"event":"key","phase":"repeat","key":"KeyA","code":30,"keysym":"A","characters":"A","#
                + #""modifiers":["ctrl","shift","numpad"],"device":"kbd"}"#)
        #expect(key.plainDetail == "repeat KeyA (code 30) keysym A \"A\" [ctrl shift numpad] on kbd")
        for stage in DispatchStage.allCases {
            let event = TraceEvent(t: 0, .stage(stage, .declined, reason: ""))
            let number = DispatchStage.allCases.firstIndex(of: stage)! + 1
            #expect(event.json.contains(#""number":\#(number),"stage":"\#(stage)""#))
            #expect(event.plainDetail == "\(number) \(stage): declined")
        }
        let owned = TraceEvent(
            t: 0,
            .press(.repeated, key: .value(.tab), to: .owner(.keyCommands, reason: "x"), press: PressID(rawValue: 3)))
        #expect(
            owned.json.hasSuffix(
                #""phase":"repeat","key":"Tab","responder":null,"owner":"keyCommands","reason":"x","press":3}"#))
        #expect(owned.plainDetail == "repeat Tab (press 3): x")
        let delivered = TraceEvent(
            t: 0, .press(.began, key: .value(.tab), to: .responder("list"), press: PressID(rawValue: 4)))
        #expect(delivered.json.hasSuffix(#""responder":"list","owner":null,"reason":null,"press":4}"#))
        #expect(delivered.plainDetail == "began Tab -> list (press 4)")
        let device = TraceEvent(t: 0, .device(.seatDisabled, name: "seat", path: nil, detail: "why"))
        #expect(
            device.json.hasSuffix(
                #""event":"device","change":"seatDisabled","name":"seat","path":null,"detail":"why"}"#))
    }
}
