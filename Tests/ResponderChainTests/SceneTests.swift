import Foundation
import ResponderChain
import ResponderChainTesting
import Testing

/// The scene files shipped in `Scenes/`.
@MainActor
enum SceneFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenes")

    static func load(_ name: String) throws -> Scene {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return try Scene(json: text, file: name)
    }
}

@MainActor @Suite struct SceneTests {
    @Test("the Reminders scene without a sidebar group tabs search field, reminders, lists")
    func remindersFile() throws {
        let scene = try SceneFiles.load("reminders.json")
        let (dispatcher, focus) = scene.makeDispatcher()
        #expect(focus.tabLoop.map(\.focusDebugName) == ["search", "buyMilk", "today"])
        #expect(focus.focusedItem?.focusDebugName == "search", "initial focus from preferredFocus")
        let keyboard = VirtualKeyboard(dispatcher)
        keyboard.tap("tab")
        #expect(focus.focusedItem?.focusDebugName == "buyMilk")
        _ = dispatcher
    }

    @Test("the Reminders scene with a sidebar group tabs search field, lists, reminders")
    func remindersSidebarFile() throws {
        let scene = try SceneFiles.load("reminders-sidebar-group.json")
        let (_, focus) = scene.makeDispatcher()
        #expect(focus.tabLoop.map(\.focusDebugName) == ["search", "today", "buyMilk"])
    }

    @Test("the demo's deliberate collisions: plain Tab command shadowed, priority Return wins, presses handled")
    func remindersBehaviour() throws {
        let scene = try SceneFiles.load("reminders-sidebar-group.json")
        let (dispatcher, focus) = scene.makeDispatcher()
        let trace = TraceRecorder(dispatcher)
        let keyboard = VirtualKeyboard(dispatcher)
        var actions: [String] = []
        for node in scene.nodes.values { node.onAction = { action, _ in actions.append(action.rawValue) } }
        var pressed: [String] = []
        for node in scene.nodes.values { node.onPress = { _ in pressed.append(node.traceName) } }
        keyboard.type("shift+h i")
        #expect((scene.nodes["search"] as? TextInputNode)?.text == "Hi")
        keyboard.type("tab down")
        #expect(focus.focusedItem?.focusDebugName == "scheduled")
        #expect(actions == ["showList", "showList"], "selection follows focus in the lists")
        keyboard.tap("return")
        #expect(actions.last == "renameList", "the priority command beats select")
        keyboard.type("tab space")
        #expect(pressed.last == "buyMilk")
        keyboard.tap("tab")
        #expect(focus.focusedItem?.focusDebugName == "search", "Tab moved focus; the plain Indent command did not fire")
        #expect(
            trace.lines.contains {
                $0
                    == "keyCommand tab \"Indent\" on reminders passed over: not considered: wantsPriorityOverSystemBehavior is false"
            })
        keyboard.tap("ctrl+n")
        #expect(actions.last == "newReminder")
        let report = KeyCommandConflictReport(dispatcher)
        #expect(report.conflicts.isEmpty, "at the search field, the reminders commands are not in the chain")
    }

    @Test(
        "malformed scenes name the file, line, column and field",
        arguments: [
            ("{\n  \"root\": {\"id\": \"a\",}\n}", "bad.json:2:22: expected a field name in double quotes"),
            (
                "{\"root\": {\"id\": \"a\", \"focusble\": true}}",
                "bad.json:1:34: root.focusble: unknown field \"focusble\" (did you mean \"focusable\"?); known fields: id, kind, frame, focusable, interactions, hidden, group, groupKind, priority, order, layoutDirection, firstResponder, preferredFocus, primaryAction, selectionFollowsFocus, handlesKeys, actions, keyCommands, secure, enabled, label, children"
            ),
            (
                "{\"root\": {\"id\": \"a\", \"frame\": [0, 0, 10]}}",
                "bad.json:1:31: root.frame: expected 4 numbers [x, y, width, height], got 3"
            ),
            (
                "{\"root\": {\"id\": \"a\", \"children\": [{\"id\": \"a\"}]}}",
                "bad.json:1:42: root.children[0].id: id \"a\" is used twice"
            ),
            (
                "{\"root\": {\"id\": \"a\", \"preferredFocus\": [\"ghost\"]}}",
                "bad.json:1:41: root.preferredFocus[0]: no node has id \"ghost\""
            ),
            (
                "{\"root\": {\"id\": \"a\", \"focusable\": \"yes\"}}",
                "bad.json:1:35: root.focusable: expected true or false, got a string"
            ),
            ("{\"name\": \"x\"}", "bad.json:1:1: root: missing: a scene needs a root node"),
            (
                "{\"root\": {\"id\": \"a\", \"keyCommands\": [{\"shortcut\": \"hyper+x\", \"action\": \"x\"}]}}",
                "bad.json:1:51: root.keyCommands[0].shortcut: \"hyper\" in \"hyper+x\": not a modifier; write shortcuts as keytrace's --keys does: ctrl+f, shift+tab, cmd+?, ctrl++, pgdn, f5, numpad+1 (modifiers: ctrl, alt, shift, cmd, numpad)"
            ),
            (
                "{\"root\": {\"id\": \"a\", \"priority\": \"urgent\"}}",
                "bad.json:1:34: root.priority: \"urgent\" is not a priority: write a number, ignored, previouslyFocused, prioritized, currentlyFocused, or one of those plus or minus a number (\"previouslyFocused+10\", \"prioritized-5\")"
            ),
            (
                "{\"root\": {\"id\": \"a\", \"handlesKeys\": [\"ctrl+j\"]}}",
                "bad.json:1:38: root.handlesKeys[0]: \"ctrl+j\": give a key without modifiers, such as \"j\" or \"return\""
            ),
            ("", "bad.json:1:1: unexpected end of input: expected a value"),
        ])
    func malformed(json: String, message: String) {
        do {
            _ = try Scene(json: json, file: "bad.json")
            Issue.record("expected an error for \(json)")
        } catch {
            #expect(error.description == message)
        }
    }

    /// Inputs the black-box fuzzing of keytrace found: a trap, and values accepted that mean nothing.
    @Test(
        "bad priorities, numbers and bytes are errors that name the place, never a trap or a guess",
        arguments: [
            ("{\"root\": {\"id\": \"a\", \"priority\": \"+\"}}", "1:34: root.priority: \"+\" is not a priority"),
            ("{\"root\": {\"id\": \"a\", \"priority\": \"\"}}", "1:34: root.priority: \"\" is not a priority"),
            ("{\"root\": {\"id\": \"a\", \"priority\": \"+5\"}}", "1:34: root.priority: \"+5\" is not a priority"),
            (
                "{\"root\": {\"id\": \"a\", \"priority\": \"prioritized+\"}}",
                "1:34: root.priority: \"prioritized+\" is not a priority"
            ),
            (
                "{\"root\": {\"id\": \"a\", \"priority\": \"prioritized+-5\"}}",
                "1:34: root.priority: \"prioritized+-5\" is not a priority"
            ),
            (
                "{\"root\": {\"id\": \"a\", \"priority\": \"currentlyFocused+1\"}}",
                "1:34: root.priority: \"currentlyFocused+1\" is out of range"
            ),
            (
                "{\"root\": {\"id\": \"a\", \"priority\": 1e20}}",
                "1:34: root.priority: 1e20 is out of range: a priority is a whole number from"
            ),
            (
                "{\"root\": {\"id\": \"a\", \"priority\": 99999999999999999999}}",
                "1:34: root.priority: 99999999999999999999 is out of range"
            ),
            ("{\"root\": {\"id\": \"a\", \"priority\": 1.5}}", "1:34: root.priority: a priority is a whole number"),
            ("{\"root\": {\"id\": \"a\", \"frame\": [0, 0, 1e400, 1]}}", "1:38: number 1e400 is out of range"),
            ("{\"root\": {\"id\": \"a\", \"frame\": [0, 0, 010, 1]}}", "1:38: a number must not start with 0"),
            ("{\"root\": {\"id\": \"a\", \"frame\": [-01, 0, 1, 1]}}", "1:33: a number must not start with 0"),
        ])
    func fuzzedScenes(json: String, message: String) {
        #expect(throws: SceneError.self) { try Scene(json: json, file: "bad.json") }
        do {
            _ = try Scene(json: json, file: "bad.json")
        } catch {
            #expect(error.description.hasPrefix("bad.json:" + message), "got \(error.description)")
        }
    }

    @Test("a priority can be a name plus or minus a number, or any whole number an Int holds")
    func priorities() throws {
        func priority(_ value: String) throws -> FocusGroupPriority? {
            let scene = try Scene(json: "{\"root\": {\"id\": \"a\", \"priority\": \(value)}}")
            return scene.root.focusGroupPriority
        }
        #expect(try priority("\"prioritized + 5\"") == .prioritized + 5)
        #expect(try priority("\"previouslyFocused-10\"") == FocusGroupPriority(rawValue: 990))
        #expect(try priority("1000000000000000") == FocusGroupPriority(rawValue: 1_000_000_000_000_000))
        #expect(try priority("9223372036854775807") == FocusGroupPriority(rawValue: Int.max))
        #expect(try priority("-7") == FocusGroupPriority(rawValue: -7))
        #expect(try priority("2e3") == FocusGroupPriority(rawValue: 2000))
    }

    @Test("invalid UTF-8 in a scene is an error at its byte, not a replacement character")
    func invalidUTF8() {
        var bytes = Array("{\"name\": \"caf".utf8)
        bytes += [0xC3, 0x28]  // a lead byte followed by an ASCII byte
        bytes += Array("\", \"root\": {\"id\": \"a\"}}".utf8)
        #expect(throws: SceneError.self) { try Scene(json: bytes, file: "bad.json") }
        do {
            _ = try Scene(json: bytes, file: "bad.json")
        } catch {
            #expect(
                error.description == "bad.json:1:14: unexpected byte 0xC3 in a string: the file is not valid UTF-8 text"
            )
        }
        do {
            _ = try Scene(json: [0xFF], file: "bad.json")
        } catch {
            #expect(error.description == "bad.json:1:1: unexpected byte 0xFF: expected a value")
        }
        let valid = try? Scene(json: Array("{\"name\": \"café ☕\", \"root\": {\"id\": \"a\"}}".utf8))
        #expect(valid?.name == "café ☕")
    }

    @Test("a scene over the size limit is refused before it is parsed")
    func sizeLimit() {
        let bytes = [UInt8](repeating: 0x20, count: Scene.maximumSize + 1)
        do {
            _ = try Scene(json: bytes, file: "huge.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("huge.json:1:1: the scene is 4194305 bytes, over the limit of 4194304"))
        }
    }

    @Test(
        "with nothing focusable, a root that accepts first responder takes the keys: its commands fire and are reported"
    )
    func rootKeyCommandsWithoutFocus() throws {
        let json = """
            {"root": {"id": "kiosk", "firstResponder": true, "actions": ["refresh", "help"],
              "keyCommands": [{"shortcut": "ctrl+r", "action": "refresh"}, {"shortcut": "f1", "action": "help"}],
              "children": [{"id": "banner", "focusable": false, "frame": [0, 0, 10, 1]}]}}
            """
        let scene = try Scene(json: json)
        let (dispatcher, focus) = scene.makeDispatcher()
        #expect(focus.focusedItem == nil)
        #expect(scene.window.firstResponder === scene.root)
        var actions: [String] = []
        scene.root.onAction = { action, _ in actions.append(action.rawValue) }
        VirtualKeyboard(dispatcher).type("ctrl+r f1")
        #expect(actions == ["refresh", "help"])
        let report = KeyCommandConflictReport(dispatcher)
        #expect(report.description.hasPrefix("Key commands at kiosk on layout us: 2 commands, 0 conflicts"))
    }

    @Test(
        "scene shortcuts use the chord grammar of --keys: every key name it accepts, one parser",
        arguments: [
            ("pgup", Expected(.special(.pageUp), [])), ("pgdn", Expected(.special(.pageDown), [])),
            ("del", Expected(.special(.deleteForward), [])), ("insert", Expected(.special(.insert), [])),
            ("ctrl+pageup", Expected(.special(.pageUp), .control)), ("escape", Expected(.special(.escape), [])),
            ("enter", Expected(.special(.return), [])), ("ArrowUp", Expected(.special(.upArrow), [])),
            ("KEY_F5", Expected(.special(.f5), [])), ("shift+f12", Expected(.special(.f12), .shift)),
            ("ctrl++", Expected(.character("+"), .control)), ("cmd+plus", Expected(.character("+"), .command)),
            ("cmd+?", Expected(.character("?"), .command)), ("numpad+1", Expected(.character("1"), .numericPad)),
            ("super+space", Expected(.special(.space), .command)),
        ])
    func sharedShortcutGrammar(shortcut: String, expected: Expected) throws {
        let json = "{\"root\": {\"id\": \"a\", \"keyCommands\": [{\"shortcut\": \"\(shortcut)\", \"action\": \"x\"}]}}"
        let command = try #require(try Scene(json: json).root.keyCommands.first)
        #expect(command.input == expected.input)
        #expect(command.modifierFlags == expected.modifiers)
        #expect(try KeyChord(parsing: shortcut).code.rawValue > 0, "--keys reads the same notation")
    }

    struct Expected: Sendable {
        var input: KeyCommand.Input
        var modifiers: ModifierFlags
        init(_ input: KeyCommand.Input, _ modifiers: ModifierFlags) {
            self.input = input
            self.modifiers = modifiers
        }
    }

    @Test("a shortcut naming a key no key command can match says so")
    func unmatchableShortcut() {
        let json =
            "{\"root\": {\"id\": \"a\", \"keyCommands\": [{\"shortcut\": \"ctrl+capslock\", \"action\": \"x\"}]}}"
        #expect {
            try Scene(json: json, file: "bad.json")
        } throws: { error in
            "\(error)".hasPrefix(
                "bad.json:1:51: root.keyCommands[0].shortcut: \"capslock\" in \"ctrl+capslock\": a key command cannot name this key"
            )
        }
    }

    @Test("every node property loads: kinds, groups, priorities, direction, guides and sections")
    func properties() throws {
        let json = """
            {"name": "props", "layoutDirection": "rightToLeft", "navigationStyle": "directional",
             "fullKeyboardAccess": false, "selectKeys": ["space", "ok"],
             "root": {"id": "root", "frame": [0, 0, 100, 100], "children": [
               {"id": "g", "kind": "guide", "enabled": false, "preferredFocus": ["t"]},
               {"id": "s", "kind": "section", "group": "sec", "layoutDirection": "leftToRight", "children": [
                 {"id": "t", "frame": [0, 0, 10, 10], "focusable": true, "priority": "previouslyFocused+10",
                  "interactions": ["edit"], "hidden": true, "primaryAction": "go", "selectionFollowsFocus": true,
                  "firstResponder": true, "handlesKeys": ["j", "return"], "actions": ["go"]},
                 {"id": "p", "kind": "textInput", "secure": true, "groupKind": "none", "priority": 7,
                  "keyCommands": [{"shortcut": "cmd+shift+?", "action": "help", "title": "Help", "discoverabilityTitle": "Show Help",
                    "attributes": ["hidden", "destructive"], "state": "mixed", "wantsPriorityOverSystemBehavior": true,
                    "allowsAutomaticLocalization": false, "allowsAutomaticMirroring": false, "repeats": true}]}
               ]}
             ]}}
            """
        let scene = try Scene(json: json, file: "props.json")
        #expect(scene.window.layoutDirection == .rightToLeft)
        #expect(scene.navigationStyle == .directional && !scene.fullKeyboardAccess)
        #expect(scene.selectKeys == [.space, .ok])
        #expect(scene.nodeOrder == ["root", "g", "s", "t", "p"])
        let t = try #require(scene.nodes["t"])
        #expect(t.focusGroupPriority == .previouslyFocused + 10 && t.focusInteractions == .edit && t.isHidden)
        #expect(t.primaryAction == "go" && t.selectionFollowsFocus == true && t.acceptsFirstResponder)
        #expect(t.handledKeys == [.j, .return] && t.performableActions == ["go"])
        #expect(scene.nodes["g"]?.focusRole == .guide(isEnabled: false))
        #expect(scene.nodes["g"]?.preferredFocusEnvironments.first === t)
        #expect(scene.nodes["s"]?.focusRole == .section && scene.nodes["s"]?.focusGroupIdentifier == "sec")
        #expect(scene.nodes["s"]?.layoutDirection == .leftToRight)
        let p = try #require(scene.nodes["p"] as? TextInputNode)
        #expect(p.isSecureTextEntry && p.focusGroupKind == .none && p.focusGroupPriority.rawValue == 7)
        let command = try #require(p.keyCommands.first)
        #expect(command.input == .character("?") && command.modifierFlags == [.command, .shift])
        #expect(command.discoverabilityTitle == "Show Help" && command.attributes == [.hidden, .destructive])
        #expect(
            command.state == .mixed && command.wantsPriorityOverSystemBehavior && command.repeatBehavior == .repeatable)
        #expect(!command.allowsAutomaticLocalization && !command.allowsAutomaticMirroring)
    }
}
