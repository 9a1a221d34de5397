import DispatchTrace
import KeytraceKit
import ResponderChain
import Testing

/// keytrace names remote-control and gamepad keys as the kernel does, in its plain lines, its
/// JSON (which reads back) and the live view's held keys, while focus follows their roles.
@MainActor @Suite struct GamepadTraceTests {
    @Test(
        "remote and gamepad keys are named in plain lines, JSON and the live view",
        arguments: [
            (KeyCode.dpadRight, "BTN_DPAD_RIGHT (code 547)"), (.gamepadSouth, "BTN_SOUTH (code 304)"),
            (.gamepadEast, "BTN_EAST (code 305)"), (.gamepadStart, "BTN_START (code 315)"),
            (.ok, "KEY_OK (code 352)"), (.exit, "KEY_EXIT (code 174)"), (.menu, "KEY_MENU (code 139)"),
        ])
    func named(code: KeyCode, text: String) throws {
        let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        var plain: [String] = []
        var json: [String] = []
        let session = TraceSession(scene: scene, layout: USKeyboardLayout(), explain: true) { event in
            plain.append(event.plainLine)
            json.append(event.json)
        }
        let view = LiveView(session: session, scene: scene, input: "keys", layout: "us")
        session.start(input: "keys", layout: "us")
        session.dispatcher.handle(KeyEvent(code, .down, timestamp: 1))
        let frame = view.render(columns: 120, rows: 40, escapes: false).joined(separator: "\n")
        session.dispatcher.handle(KeyEvent(code, .up, timestamp: 2))
        #expect(plain.contains { $0.contains("down \(text)") }, "\(plain)")
        #expect(frame.contains(code.name), "the held key in the status line:\n\(frame)")
        for line in json {
            let event = try TraceEvent(jsonLine: line)
            #expect(event.json == line, "reads back: \(line)")
        }
    }

    @Test("the D-pad moves focus in the trace as the arrow does, named as the button")
    func dpadFocus() throws {
        let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        var focused: [String?] = []
        var plain: [String] = []
        for code in [KeyCode.downArrow, .dpadDown] {
            let session = TraceSession(scene: scene, layout: USKeyboardLayout(), explain: true) { event in
                plain.append(event.plainLine)
            }
            session.start(input: "keys", layout: "us")
            // Out of the search field (which edits with the arrows) into the lists.
            session.dispatcher.handle(KeyEvent(.tab, .down, timestamp: 0.5))
            session.dispatcher.handle(KeyEvent(.tab, .up, timestamp: 0.6))
            let before = session.focusedID
            session.dispatcher.handle(KeyEvent(code, .down, timestamp: 1))
            session.dispatcher.handle(KeyEvent(code, .up, timestamp: 2))
            #expect(session.focusedID != before, "\(code.name) moved focus from \(before ?? "nothing")")
            focused.append(session.focusedID)
        }
        #expect(focused[0] != nil && focused[0] == focused[1], "\(focused)")
        #expect(plain.contains { $0.contains("BTN_DPAD_DOWN moves focus from") }, "\(plain)")
    }
}
