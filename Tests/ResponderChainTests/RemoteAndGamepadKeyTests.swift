import ResponderChain
import ResponderChainTesting
import Testing

/// Remote-control keys (OK, Select, Back, Exit, Menu, Play/Pause) and gamepad buttons (the D-pad,
/// A, B, Start) as first-class keys: names, the chord grammar, logical roles, select, exit and
/// key commands, and the conflict report.
@MainActor @Suite struct RemoteAndGamepadKeyTests {
    /// A row of two tiles with primary actions under a root that performs them, and a dialog-like
    /// node with an exit command; the focus system installed.
    @MainActor struct Screen {
        let harness = FocusHarness()
        let first: ObservedNode
        let second: ObservedNode
        var performed: [String] { log.entries }
        let log = HandlerLog()

        init(exitCommand: Bool = true) {
            first = harness.node("first", 0, 0, 100, 40)
            second = harness.node("second", 200, 0, 100, 40)
            first.primaryAction = "openFirst"
            second.primaryAction = "openSecond"
            harness.root.performableActions = ["openFirst", "openSecond", "remote", "play", "back"]
            harness.root.onAction = { [log] action, _ in log.entries.append(action.rawValue) }
            if exitCommand {
                harness.root.onExitCommand { [log] in log.entries.append("exit") }
            }
            harness.focus.navigationStyle = .directional
            harness.focus.requestFocus(on: first)
            harness.focus.updateFocusIfNeeded()
        }
    }

    nonisolated static let named: [(KeyCode, String)] = [
        (.exit, "KEY_EXIT"), (.menu, "KEY_MENU"), (.playPause, "MediaPlayPause"), (.ok, "KEY_OK"),
        (.select, "KEY_SELECT"), (KeyCode(207), "KEY_PLAY"), (KeyCode(201), "KEY_PAUSECD"),
        (.gamepadSouth, "BTN_SOUTH"), (.gamepadEast, "BTN_EAST"), (.gamepadNorth, "BTN_NORTH"),
        (.gamepadWest, "BTN_WEST"), (.gamepadLeftShoulder, "BTN_TL"), (.gamepadRightShoulder, "BTN_TR"),
        (.gamepadSelect, "BTN_SELECT"), (.gamepadStart, "BTN_START"), (.gamepadMode, "BTN_MODE"),
        (.dpadUp, "BTN_DPAD_UP"), (.dpadDown, "BTN_DPAD_DOWN"), (.dpadLeft, "BTN_DPAD_LEFT"),
        (.dpadRight, "BTN_DPAD_RIGHT"),
    ]

    @Test("remote and gamepad keys have their kernel names, and every name reads back", arguments: named)
    func names(code: KeyCode, name: String) {
        #expect(code.name == name)
        #expect(KeyCode(name: name) == code)
        #expect(code.evdevName?.hasPrefix("KEY_BTN") == false)
        if name.hasPrefix("BTN_") || name.hasPrefix("KEY_") { #expect(code.evdevName == name) }
    }

    @Test(
        "the chord grammar reads remote and gamepad names and aliases",
        arguments: [
            ("BTN_SOUTH", KeyCode.gamepadSouth), ("gamepada", .gamepadSouth), ("gamepadb", .gamepadEast),
            ("gamepadstart", .gamepadStart), ("dpadup", .dpadUp), ("BTN_DPAD_RIGHT", .dpadRight), ("exit", .exit),
            ("KEY_EXIT", .exit), ("remotemenu", .menu), ("playpause", .playPause), ("ok", .ok), ("select", .select),
            ("back", .back), ("menu", .contextMenu),
        ])
    func chords(text: String, code: KeyCode) throws {
        #expect(try KeyChord(parsing: text) == KeyChord(code, []))
        #expect(try KeyChord.parseSequence("\(text) tab") == [KeyChord(code, []), KeyChord(.tab, [])])
    }

    @Test(
        "a shortcut on a remote or gamepad key names the special key it acts as",
        arguments: [
            ("select", KeyCommand.SpecialKey.select), ("ok", .select), ("KEY_SELECT", .select), ("BTN_SOUTH", .select),
            ("gamepada", .select), ("back", .back), ("exit", .back), ("BTN_EAST", .back), ("remotemenu", .menu),
            ("KEY_MENU", .menu), ("BTN_START", .menu), ("playpause", .playPause), ("BTN_DPAD_UP", .upArrow),
            ("dpadleft", .leftArrow),
        ])
    func shortcuts(text: String, special: KeyCommand.SpecialKey) throws {
        let parsed = try KeyCommand.parseShortcut(text)
        #expect(parsed.input == .special(special))
        #expect(parsed.modifierFlags == [])
    }

    @Test("the new special keys match their keys and read as people name them")
    func specialKeys() {
        #expect(KeyCommand.SpecialKey.select.keyCodes == [.ok, .select])
        #expect(KeyCommand.SpecialKey.back.keyCodes == [.back, .exit])
        #expect(KeyCommand.SpecialKey.menu.keyCodes == [.menu])
        #expect(KeyCommand.SpecialKey.playPause.keyCodes == [.playPause])
        #expect(KeyCommand(.playPause, action: "play").readableShortcut == "Play/Pause")
        #expect(KeyCommand(.select, action: "x").readableShortcut == "Select")
        #expect(throws: KeyChordParseError.self) { try KeyCommand.parseShortcut("BTN_NORTH") }
    }

    nonisolated static let roles: [(KeyCode, KeyCode)] = [
        (.dpadUp, .upArrow), (.dpadDown, .downArrow), (.dpadLeft, .leftArrow), (.dpadRight, .rightArrow),
        (.gamepadSouth, .select), (.gamepadEast, .back), (.gamepadStart, .menu),
    ]

    @Test("gamepad buttons act as their role on the dispatcher; other buttons act as themselves", arguments: roles)
    func roles(button: KeyCode, role: KeyCode) {
        let harness = FocusHarness()
        #expect(button.gamepadRole == role)
        #expect(harness.dispatcher.logicalKeyCode(for: button) == role)
    }

    @Test(
        "buttons without a role, and keyboard keys, act as themselves",
        arguments: [KeyCode.gamepadNorth, .gamepadWest, .gamepadMode, .gamepadSelect, .ok, .back, .a, .upArrow])
    func noRole(code: KeyCode) {
        #expect(code.gamepadRole == nil)
        #expect(FocusHarness().dispatcher.logicalKeyCode(for: code) == code)
    }

    @Test(
        "the D-pad moves focus as the arrows do; the press keeps the button's own code",
        arguments: [
            KeyCode.rightArrow, .dpadRight,
        ])
    func dpadMovesFocus(code: KeyCode) throws {
        let screen = Screen()
        screen.harness.trace.clear()
        screen.harness.keyboard.press(code)
        #expect(screen.harness.focusedName == "second")
        let took = try #require(screen.harness.trace.stages.first { $0.outcome == .took })
        #expect(took.stage == .systemBehavior)
        #expect(took.reason == "focus: \(code.name) moves focus from first to second")
        screen.harness.keyboard.autoRepeat(code)
        screen.harness.keyboard.release(code)
        #expect(screen.harness.focusedName == "second", "nothing further right: a repeat stays")
    }

    @Test(
        "Return, the remote's OK and Select, and a gamepad's A select the focused item",
        arguments: [KeyCode.return, .ok, .select, .gamepadSouth])
    func selectKeys(code: KeyCode) throws {
        let screen = Screen()
        screen.harness.trace.clear()
        screen.harness.keyboard.press(code)
        screen.harness.keyboard.release(code)
        #expect(screen.performed == ["openFirst"])
        let took = try #require(screen.harness.trace.stages.first { $0.outcome == .took })
        #expect(took.reason.hasPrefix("focus: \(code == .return ? "Enter" : code.name) selects first"))
    }

    @Test("the default select keys are Return, keypad Enter, OK and Select, in a scene too")
    func defaultSelectKeys() throws {
        #expect(FocusHarness().focus.selectKeys == [.return, .keypadEnter, .ok, .select])
        let scene = try Scene(json: #"{"root": {"id": "root"}}"#, file: "plain.json")
        #expect(scene.selectKeys == [.return, .keypadEnter, .ok, .select])
    }

    @Test(
        "Escape, the remote's Back and Exit, and a gamepad's B run the exit command",
        arguments: [KeyCode.escape, .back, .exit, .gamepadEast])
    func exitKeys(code: KeyCode) throws {
        let screen = Screen()
        screen.harness.trace.clear()
        screen.harness.keyboard.press(code)
        screen.harness.keyboard.release(code)
        #expect(screen.performed == ["exit"])
        let took = try #require(screen.harness.trace.stages.first { $0.outcome == .took })
        #expect(took.stage == .systemBehavior)
        #expect(took.reason == "focus: \(code.name) runs the exit command of root")
    }

    @Test("the window's exit keys are settable: without Back in them, Back runs no exit command")
    func exitKeysSettable() {
        let screen = Screen()
        #expect(screen.harness.window.exitKeys == [.escape, .back, .exit])
        screen.harness.window.exitKeys = [.escape]
        screen.harness.keyboard.press(.back)
        screen.harness.keyboard.press(.gamepadEast)
        #expect(screen.performed == [])
        screen.harness.keyboard.press(.escape)
        #expect(screen.performed == ["exit"])
    }

    @Test("an exit key with a modifier is a chord for key commands, not the exit command")
    func exitKeyWithModifier() {
        let screen = Screen()
        screen.harness.root.keyCommands = [KeyCommand(.escape, modifierFlags: .shift, action: "back", title: "Back")]
        screen.harness.keyboard.tap("shift+escape")
        #expect(screen.performed == ["back"])
        screen.harness.keyboard.tap("escape")
        #expect(screen.performed == ["back", "exit"])
    }

    @Test("a nearer responder's own Escape handler keeps the key: the outer exit command does not run")
    func nearerEscapeHandler() {
        let screen = Screen()
        var cleared = 0
        screen.first.onKeyPress([.escape]) { _ in
            cleared += 1
            return .handled
        }
        screen.harness.keyboard.tap("escape")
        #expect(cleared == 1)
        #expect(screen.performed == [])
        // From the other tile, with no handler of its own, the exit command runs.
        screen.harness.focus.requestFocus(on: screen.second)
        screen.harness.focus.updateFocusIfNeeded()
        screen.harness.keyboard.tap("escape")
        #expect(screen.performed == ["exit"])
    }

    @Test("without a focus system an exit command still runs when Back reaches it up the chain")
    func exitWithoutFocusSystem() {
        let chain = KeyPressHandlerTests.Chain()
        var exits = 0
        chain.outer.onExitCommand { exits += 1 }
        chain.harness.keyboard.press(.back)
        chain.harness.keyboard.press(.exit)
        chain.harness.keyboard.press(.gamepadEast)
        chain.harness.keyboard.press(.menu)
        #expect(exits == 3)
    }

    @Test(
        "key commands on Menu and Play/Pause fire for the remote's keys and the gamepad's Start",
        arguments: [(KeyCode.menu, "remote"), (.gamepadStart, "remote"), (.playPause, "play")])
    func menuAndPlayPause(code: KeyCode, action: String) {
        let screen = Screen()
        screen.harness.root.keyCommands = [
            KeyCommand(.menu, action: "remote", title: "Menu"), KeyCommand(.playPause, action: "play", title: "Play"),
        ]
        screen.harness.keyboard.press(code)
        #expect(screen.performed == [action])
        #expect(screen.harness.trace.firedKeyCommands.map(\.command.action.rawValue) == [action])
    }

    @Test(
        "a command on select or back is taken by the system unless it wants priority; with priority it fires",
        arguments: [KeyCode.ok, .gamepadSouth, .back, .gamepadEast])
    func systemKeysAndPriority(code: KeyCode) {
        let plain = Screen()
        plain.harness.root.keyCommands = [
            KeyCommand(.select, action: "remote", title: "Select"), KeyCommand(.back, action: "back", title: "Back"),
        ]
        plain.harness.keyboard.press(code)
        #expect(plain.performed == [(code.gamepadRole ?? code) == .back ? "exit" : "openFirst"])
        let report = KeyCommandConflictReport(plain.harness.dispatcher)
        #expect(
            report.entries.map(\.status) == [
                .shadowedBySystemFocusKey(handler: "focus"), .shadowedBySystemFocusKey(handler: "focus"),
            ])

        let priority = Screen()
        priority.harness.root.keyCommands = [
            KeyCommand(.select, action: "remote", title: "Select", wantsPriorityOverSystemBehavior: true),
            KeyCommand(.back, action: "back", title: "Back", wantsPriorityOverSystemBehavior: true),
        ]
        priority.harness.keyboard.press(code)
        #expect(priority.performed == [(code.gamepadRole ?? code) == .back ? "back" : "remote"])
        KeyCommandConflictReport(priority.harness.dispatcher).expectNoConflicts()
    }

    @Test("a shortcut written as a gamepad button is a command on its role, shadowed like it")
    func gamepadShortcutInReport() throws {
        let screen = Screen()
        let (input, flags) = try KeyCommand.parseShortcut("BTN_SOUTH")
        screen.harness.root.keyCommands = [KeyCommand(input: input, modifierFlags: flags, action: "remote", title: "A")]
        let entry = try #require(KeyCommandConflictReport(screen.harness.dispatcher).entries.first)
        #expect(entry.status == .shadowedBySystemFocusKey(handler: "focus"))
        #expect(entry.chords == [KeyChord(.ok, []), KeyChord(.select, [])])
    }

    @Test("without an exit command in the chain a command on back is active and fires")
    func backCommandWithoutExit() {
        let screen = Screen(exitCommand: false)
        screen.harness.root.keyCommands = [KeyCommand(.back, action: "back", title: "Back")]
        #expect(KeyCommandConflictReport(screen.harness.dispatcher).entries.map(\.status) == [.active])
        screen.harness.keyboard.press(.gamepadEast)
        #expect(screen.performed == ["back"])
    }

    @Test("a gamepad press is described by its button, not its role")
    func description() {
        let harness = FocusHarness()
        let key = Key(
            keyCode: .gamepadSouth, characters: "", charactersIgnoringModifiers: "", modifierFlags: [],
            logicalKeyCode: harness.dispatcher.logicalKeyCode(for: .gamepadSouth))
        #expect(key.logicalKeyCode == .select)
        #expect(key.description == "BTN_SOUTH")
        let arrow = Key(
            keyCode: .dpadLeft, characters: "", charactersIgnoringModifiers: "", modifierFlags: .shift,
            logicalKeyCode: .leftArrow)
        #expect(arrow.description == "shift+BTN_DPAD_LEFT")
    }
}
