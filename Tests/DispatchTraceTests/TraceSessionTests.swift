import DispatchTrace
import KeytraceKit
import ResponderChain
import Testing

@MainActor @Suite struct TraceSessionTests {
    @Test("a repeatable command performed on each repeat is a keyCommand event marked as a repeat")
    func keyCommandOnRepeat() throws {
        let json = """
            {"root": {"id": "list", "firstResponder": true, "actions": ["delete"],
              "keyCommands": [{"shortcut": "backspace", "action": "delete", "title": "Delete", "repeats": true}]}}
            """
        let scene = try Scene(json: json, file: "list.json")
        var lines: [String] = []
        let session = TraceSession(scene: scene, layout: USKeyboardLayout()) { lines.append($0.json) }
        session.start(input: "keys", layout: "us")
        var performed = 0
        scene.root.onAction = { _, _ in performed += 1 }
        for (time, action) in [(1.0, KeyAction.down), (1.5, .repeat), (1.54, .repeat), (1.6, .up)] {
            session.dispatcher.handle(KeyEvent(.backspace, action, timestamp: time))
        }
        let commands = lines.filter { $0.contains(#""event":"keyCommand""#) }
        #expect(performed == 3)
        #expect(commands.count == 3)
        #expect(commands.filter { $0.contains(#""repeat":true"#) }.count == 2)
        #expect(commands.first?.contains(#""repeat":false"#) == true)
        let owned = lines.filter { $0.contains(#""event":"press""#) && $0.contains(#""phase":"repeat""#) }
        #expect(owned.count == 2)
        #expect(owned.allSatisfy { $0.contains(#""owner":"keyCommands""#) }, "the owner is a stage name")
    }

    @Test("text through the dispatcher's sink is a paste event: how many characters and where, never the text")
    func textIsPaste() throws {
        let json = """
            {"root": {"id": "form", "children": [
              {"id": "name", "kind": "textInput", "frame": [0, 0, 100, 20], "firstResponder": true},
              {"id": "ok", "frame": [0, 30, 100, 20], "focusable": true, "firstResponder": true}]}}
            """
        let scene = try Scene(json: json, file: "form.json")
        var lines: [String] = []
        let session = TraceSession(scene: scene, layout: USKeyboardLayout()) { lines.append($0.json) }
        session.start(input: "terminal", layout: "terminal")
        lines.removeAll()
        session.dispatcher.receive(.text("secret words", device: .primary, timestamp: 2))
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""event":"paste","characters":12,"responder":"name""#) == true)
        #expect(lines.allSatisfy { !$0.contains("secret") })
        let ok = try #require(scene.nodes["ok"])
        #expect(ok.becomeFirstResponder())
        lines.removeAll()
        session.dispatcher.receive(.text("lost", device: .primary, timestamp: 3))
        #expect(lines.contains { $0.contains(#""event":"paste","characters":4,"responder":null"#) })
    }

    @Test("events reported before start follow the session event: a trace always begins with it")
    func heldUntilStart() throws {
        let scene = try Scene(
            json:
                #"{"root": {"id": "form", "children": [{"id": "name", "frame": [0, 0, 100, 20], "focusable": true}]}}"#)
        var lines: [String] = []
        let session = TraceSession(scene: scene, layout: USKeyboardLayout()) { lines.append($0.json) }
        session.emit(
            TraceEvent(t: 0.2, .device(.added, name: "USB Keyboard", path: "/dev/input/event3", detail: nil)))
        #expect(lines.isEmpty, "nothing is written before the session starts")
        session.start(input: "keyboards", layout: "us")
        #expect(lines.count >= 3)
        #expect(lines.first?.contains(#""event":"session""#) == true)
        #expect(lines.dropFirst().first?.contains(#""name":"USB Keyboard""#) == true)
        #expect(lines.contains { $0.contains(#""event":"focus""#) && $0.contains(#""to":"name""#) })
    }

    @Test("join follows a running window without a session event or a focus move; stop ends the events")
    func joinAndStop() throws {
        let json = """
            {"root": {"id": "row", "children": [
              {"id": "a", "frame": [0, 0, 10, 10], "focusable": true},
              {"id": "b", "frame": [20, 0, 10, 10], "focusable": true}]}}
            """
        let scene = try Scene(json: json, file: "row.json")
        let running = TraceSession(scene: scene, layout: USKeyboardLayout()) { _ in }
        running.start(input: "keys", layout: "us")
        #expect(running.focusedID == "a")
        var lines: [String] = []
        let watcher = TraceSession(
            name: "watcher", window: scene.window, dispatcher: running.dispatcher, focusSystem: running.focusSystem
        ) { lines.append($0.json) }
        watcher.join(t: 5)
        #expect(lines.isEmpty, "no session event and no focus move of its own")
        running.dispatcher.handle(KeyEvent(.tab, .down, timestamp: 6))
        running.dispatcher.handle(KeyEvent(.tab, .up, timestamp: 6.1))
        #expect(lines.first?.contains(#""event":"key""#) == true)
        #expect(lines.contains { $0.contains(#""event":"focus""#) && $0.contains(#""to":"b""#) })
        let count = lines.count
        watcher.stop()
        running.dispatcher.handle(KeyEvent(.tab, .down, timestamp: 7))
        running.dispatcher.handle(KeyEvent(.tab, .up, timestamp: 7.1))
        #expect(lines.count == count, "nothing after stop")
        #expect(running.focusedID == "a", "the window went on")
    }

    @Test("a tap through the dispatcher is a pointer event with the device's name, the item and what it did")
    func tapIsPointerEvent() throws {
        let json = """
            {"root": {"id": "screen", "frame": [0, 0, 100, 50], "children": [
              {"id": "open", "frame": [0, 0, 40, 20], "focusable": true, "primaryAction": "open", "actions": ["open"]}]}}
            """
        let scene = try Scene(json: json, file: "tap.json")
        var lines: [String] = []
        let session = TraceSession(scene: scene, layout: USKeyboardLayout()) { lines.append($0.json) }
        session.deviceNames[DeviceID(rawValue: 9)] = "touchscreen"
        session.start(input: "wayland", layout: "us")
        for (phase, time) in [(PointerEvent.Phase.down, 1.0), (.up, 1.1)] {
            session.dispatcher.receive(
                .pointer(
                    PointerEvent(
                        phase, .touch, contact: 0, at: Point(x: 5, y: 5), device: DeviceID(rawValue: 9), timestamp: time
                    )))
        }
        let pointer = lines.filter { $0.contains(#""event":"pointer""#) }
        #expect(pointer.count == 2, "\(lines)")
        #expect(
            pointer.last?.contains(
                #""phase":"up","kind":"touch","contact":0,"x":5.000000,"y":5.000000,"device":"touchscreen","item":"open""#
            ) == true, "\(pointer)")
        #expect(pointer.last?.contains("performed open of open") == true)
    }
}
