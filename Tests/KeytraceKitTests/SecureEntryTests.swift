import DispatchTrace
import KeytraceKit
import ResponderChain
import Testing

/// A secret typed into the demo's passcode field must not appear in any output: trace record
/// descriptions (what `TraceRecorder` messages and app logs print), keytrace's JSON and plain
/// lines with every stage explained, the live view's trace pane and status line, and the
/// conflict report.
@MainActor @Suite struct SecureEntryTests {
    /// The secret: Shift-Q, Z, 7, X (none of these keys appears anywhere else in the demo).
    static let secret: [(KeyCode, ModifierFlags)] = [(.q, .shift), (.z, []), (.digit7, []), (.x, [])]
    /// Every way an output could name the secret's keys: W3C and kernel names, key codes,
    /// characters and keysyms as JSON strings or quoted in plain lines, and the modifier.
    static let tokens = [
        "KeyQ", "KeyZ", "Digit7", "KeyX", "KEY_Q", "KEY_Z", "KEY_7", "KEY_X", "\"q\"", "\"Q\"", "\"z\"", "\"7\"",
        "\"x\"", "keysym q", "keysym Q", "keysym z", "keysym 7", "keysym x", "code 16", "code 44", "code 8", "code 45",
        "\"code\":16", "\"code\":44", "\"code\":8", "\"code\":45", "shift", "Shift",
    ]

    @Test("a secret typed into a secure field appears in no output path")
    func noOutputNamesTheSecret() throws {
        let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        var output: [String] = []
        let session = TraceSession(scene: scene, layout: USKeyboardLayout(), explain: true) { event in
            output.append(event.json)
            output.append(event.plainLine)
        }
        session.keepsHistory = true
        var descriptions: [String] = []
        session.dispatcher.addTraceObserver { record in
            descriptions.append(record.description)
            descriptions.append(String(reflecting: record))
        }
        let view = LiveView(session: session, scene: scene, input: "keys", layout: "us")
        session.start(input: "keys", layout: "us")
        var time = 0.0
        func send(_ code: KeyCode, _ action: KeyAction) {
            time += 0.01
            session.dispatcher.handle(KeyEvent(code, action, timestamp: time))
        }
        for _ in 0..<4 {
            send(.tab, .down)
            send(.tab, .up)
        }
        #expect(session.focusedID == "passcode")
        output.removeAll()
        descriptions.removeAll()
        var frames: [String] = []
        for (code, modifiers) in Self.secret {
            if modifiers.contains(.shift) { send(.leftShift, .down) }
            send(code, .down)
            // Held: the status line must not name the key or the modifier.
            frames.append(view.render(columns: 120, rows: 40, escapes: false).joined(separator: "\n"))
            send(code, .repeat)
            send(code, .up)
            if modifiers.contains(.shift) { send(.leftShift, .up) }
            frames.append(view.render(columns: 120, rows: 40, escapes: false).joined(separator: "\n"))
        }
        let report = KeyCommandConflictReport(session.dispatcher).description
        #expect(
            (scene.nodes["passcode"] as? TextInputNode)?.text == "QQzz77xx",
            "the field received the secret, each key typed on the down and again on its repeat")
        #expect(!output.isEmpty && !descriptions.isEmpty && output.contains { $0.contains("•") })
        for (name, texts) in [
            ("trace", output), ("records", descriptions), ("live view", frames), ("report", [report]),
        ] {
            for text in texts {
                for token in Self.tokens {
                    #expect(!text.contains(token), "\(name) names the secret with \(token): \(text)")
                }
            }
        }
    }

    @Test("presses typed into a secure field stay secure after focus leaves it, until they end")
    func pressOutlivesFocus() throws {
        let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        let (dispatcher, focus) = scene.makeDispatcher()
        var records: [DispatchRecord] = []
        dispatcher.addTraceObserver { records.append($0) }
        let passcode = try #require(scene.nodes["passcode"])
        #expect(focus.requestFocus(on: passcode))
        dispatcher.handle(KeyEvent(.q, .down, timestamp: 1))
        #expect(dispatcher.isSecureEntry)
        #expect(dispatcher.activePresses.first?.isSecureEntry == true)
        let notes = try #require(scene.nodes["notes"])
        #expect(focus.requestFocus(on: notes))
        #expect(dispatcher.isSecureEntry, "a key typed into the secure field is still held")
        records.removeAll()
        dispatcher.handle(KeyEvent(.q, .up, timestamp: 2))
        #expect(!records.isEmpty)
        #expect(records.allSatisfy { $0.isSecureEntry }, "\(records.map(\.description))")
        #expect(!records.map(\.description).joined().contains("KeyQ"))
        #expect(!dispatcher.isSecureEntry)
        records.removeAll()
        dispatcher.handle(KeyEvent(.q, .down, timestamp: 3))
        #expect(records.contains { $0.description.contains("KeyQ") }, "keys typed outside the field are traced")
        #expect(!records.contains { $0.isSecureEntry })
    }
}
