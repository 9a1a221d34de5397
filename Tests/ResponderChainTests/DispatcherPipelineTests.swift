import ResponderChain
import ResponderChainTesting
import Testing

/// One suite per stage of the pipeline, in order; each test names the rule it checks.
@MainActor @Suite struct DispatcherPipelineTests {
    // MARK: Stage 1

    @Test("stage 1: a reserved shortcut takes its key before everything and owns the press")
    func reservedShortcut() {
        let h = Harness()
        let (root, leaf) = {
            let c = h.chain("root", "leaf"); return (c[0], c[1])
        }()
        leaf.becomeFirstResponder()
        leaf.handlesAllKeys = true
        leaf.keyCommands = [
            KeyCommand(
                .f12, modifierFlags: [.control, .alternate], action: .quit,
                wantsPriorityOverSystemBehavior: true)
        ]
        root.performableActions = [.quit]
        var fired: [PressID] = []
        h.dispatcher.reserve(
            ReservedShortcut(
                KeyCommand(
                    .f12, modifierFlags: [.control, .alternate],
                    action: "adminEscape")
            ) { fired.append($0.id) })
        h.keyboard.press(KeyChord(.f12, [.control, .alternate]))
        h.keyboard.autoRepeat(.f12, times: 2)
        h.keyboard.release(KeyChord(.f12, [.control, .alternate]))
        #expect(fired.count == 1)
        #expect(h.trace.takingStages == [.presses, .presses, .reservedShortcuts])  // ctrl, alt, then F12
        #expect(root.performedActions.isEmpty)
        #expect(!leaf.presses.contains { $0.key.keyCode == .f12 })
    }

    // MARK: Stage 2 and 4: wantsPriorityOverSystemBehavior both ways

    @Test("stage 4: the system behaviour takes Tab before an app key command without priority")
    func systemBeatsPlainCommand() {
        let h = Harness()
        let c = h.chain("editor", "field")
        c[1].becomeFirstResponder()
        c[0].keyCommands = [KeyCommand(.tab, action: .next, title: "Next")]
        c[0].performableActions = [.next]
        let navigator = TabNavigator()
        h.dispatcher.systemKeyHandler = navigator
        h.keyboard.tap("tab")
        #expect(navigator.moves == ["editor"])
        #expect(c[0].performedActions.isEmpty)
        #expect(h.trace.takingStages == [.systemBehavior])
        #expect(
            h.trace.lines.contains(
                "keyCommand tab \"Next\" on editor passed over: not considered: wantsPriorityOverSystemBehavior is false"
            ))
        #expect(h.trace.lines.contains("stage systemBehavior took: tabNavigator: Tab moves focus"))
    }

    @Test("stage 2: a command with wantsPriorityOverSystemBehavior beats the system behaviour")
    func priorityBeatsSystem() {
        let h = Harness()
        let c = h.chain("editor", "field")
        c[1].becomeFirstResponder()
        c[0].keyCommands = [KeyCommand(.tab, action: .next, title: "Indent", wantsPriorityOverSystemBehavior: true)]
        c[0].performableActions = [.next]
        let navigator = TabNavigator()
        h.dispatcher.systemKeyHandler = navigator
        h.keyboard.tap("tab")
        #expect(navigator.moves.isEmpty)
        #expect(c[0].performedActions == [.next])
        #expect(h.trace.takingStages == [.priorityKeyCommands])
        #expect(h.trace.firedKeyCommands.first?.priority == true)
        #expect(navigator.releases == 0)
    }

    @Test("stage 2: a disabled priority command leaves the key to the system behaviour")
    func disabledPriorityCommand() {
        let h = Harness()
        let c = h.chain("editor")
        c[0].becomeFirstResponder()
        c[0].keyCommands = [
            KeyCommand(.tab, action: .next, attributes: .disabled, wantsPriorityOverSystemBehavior: true)
        ]
        c[0].performableActions = [.next]
        let navigator = TabNavigator()
        h.dispatcher.systemKeyHandler = navigator
        h.keyboard.tap("tab")
        #expect(h.trace.takingStages == [.systemBehavior])
        #expect(h.trace.lines.contains { $0.hasSuffix("passed over: disabled") })
    }

    // MARK: Stage 3

    @Test("stage 3: a text-input first responder takes its editing keys before focus and key commands")
    func textInputTakesEditingKeys() {
        let h = Harness()
        let form = RecordingResponder("form", performs: [.delete, .next])
        h.window.addChild(form)
        let field = TextField("name")
        form.addChild(field)
        field.becomeFirstResponder()
        form.keyCommands = [KeyCommand(.backspace, action: .delete), KeyCommand(.downArrow, action: .next)]
        let navigator = TabNavigator()
        h.dispatcher.systemKeyHandler = navigator
        h.keyboard.type("shift+h i backspace down")
        #expect(field.text == "Hi\u{8}")
        #expect(form.performedActions.isEmpty)
        // Shift is a bare modifier: a press that the field and form pass on, so it ends unhandled.
        #expect(h.trace.takingStages == [.unhandled, .textInput, .textInput, .textInput, .textInput])
        #expect(!form.presses.contains { $0.key.keyCode == .h }, "text input presses are not passed up the chain")
    }

    @Test("stage 3: Tab and shortcuts with Control still pass a text field")
    func textInputLetsTabAndShortcutsThrough() {
        let h = Harness()
        let form = RecordingResponder("form", performs: [.find])
        h.window.addChild(form)
        let field = TextField("name")
        form.addChild(field)
        form.addChild(RecordingResponder("other", canBecomeFirstResponder: true))
        field.becomeFirstResponder()
        form.keyCommands = [KeyCommand("f", modifierFlags: .control, action: .find)]
        h.dispatcher.systemKeyHandler = TabNavigator()
        h.keyboard.tap("ctrl+f")
        #expect(form.performedActions == [.find])
        h.keyboard.tap("tab")
        #expect(h.window.firstResponder?.identifier == "other")
        #expect(h.trace.takingStages == [.unhandled, .keyCommands, .systemBehavior])
    }

    // MARK: Stage 5

    @Test("stage 5: the nearest responder's command wins; the farther duplicate is shadowed")
    func nearestWins() {
        let h = Harness()
        let c = h.chain("app", "list", "row")
        c[2].becomeFirstResponder()
        c[0].keyCommands = [KeyCommand("n", modifierFlags: .control, action: .newItem, title: "New Window")]
        c[1].keyCommands = [KeyCommand("n", modifierFlags: .control, action: .newItem, title: "New Item")]
        c[0].performableActions = [.newItem]
        h.keyboard.tap("ctrl+n")
        let fired = h.trace.firedKeyCommands
        #expect(fired.count == 1)
        #expect(fired.first?.command.title == "New Item")
        #expect(fired.first?.declaredBy?.refers(to: c[1]) == true)
        #expect(fired.first?.target.refers(to: c[0]) == true, "the action goes up from the first responder to app")
        #expect(
            h.trace.lines.contains {
                $0.contains("\"New Window\" on app passed over: shadowed by ctrl+n \"New Item\" on list")
            })
    }

    @Test("stage 5: the action goes to the first responder up the chain that can perform it")
    func actionTargetsFromFirstResponder() {
        let h = Harness()
        let c = h.chain("app", "list", "row")
        c[2].becomeFirstResponder()
        c[0].keyCommands = [KeyCommand(.deleteForward, action: .delete)]
        c[0].performableActions = [.delete]
        c[2].performableActions = [.delete]
        h.keyboard.tap("delete")
        #expect(c[2].performedActions == [.delete])
        #expect(c[0].performedActions.isEmpty)
    }

    @Test("stage 5: a disabled command, or one nobody can perform, does not take the key")
    func disabledAndUnperformable() {
        let h = Harness()
        let c = h.chain("app", "list")
        c[1].becomeFirstResponder()
        c[1].keyCommands = [
            KeyCommand("d", modifierFlags: .control, action: .delete, title: "Nobody", attributes: []),
            KeyCommand("e", modifierFlags: .control, action: .find, attributes: .disabled),
        ]
        c[0].keyCommands = [KeyCommand("e", modifierFlags: .control, action: .find, title: "App Find")]
        c[0].performableActions = [.find]
        c[1].handledKeys = [.d]
        h.keyboard.tap("ctrl+d")
        #expect(c[1].presses.contains { $0.key.keyCode == .d && $0.phase == .began }, "falls through to presses")
        #expect(h.trace.lines.contains { $0.hasSuffix("passed over: no responder can perform delete") })
        h.trace.clear()
        h.keyboard.tap("ctrl+e")
        #expect(h.trace.firedKeyCommands.map(\.command.title) == ["App Find"], "the farther command takes over")
    }

    @Test("stage 5: global commands come after the whole chain")
    func globalCommandsLast() {
        let h = Harness()
        let c = h.chain("app", "editor")
        c[1].becomeFirstResponder()
        c[0].performableActions = [.find, .quit]
        h.dispatcher.globalKeyCommands = [
            KeyCommand("f", modifierFlags: .control, action: .quit, title: "Global"),
            KeyCommand("q", modifierFlags: .control, action: .quit, title: "Quit"),
        ]
        c[1].keyCommands = [KeyCommand("f", modifierFlags: .control, action: .find, title: "Find")]
        h.keyboard.tap("ctrl+f")
        h.keyboard.tap("ctrl+q")
        #expect(h.trace.firedKeyCommands.map(\.command.title) == ["Find", "Quit"])
        #expect(h.trace.firedKeyCommands.last?.declaredBy == nil)
    }

    @Test("stage 5: Caps Lock does not change which command matches; Shift does")
    func capsLockIgnored() {
        let h = Harness()
        let c = h.chain("app")
        c[0].keyCommands = [
            KeyCommand("a", modifierFlags: .control, action: .find, title: "plain"),
            KeyCommand("a", modifierFlags: [.control, .shift], action: .find, title: "shifted"),
        ]
        c[0].performableActions = [.find]
        c[0].becomeFirstResponder()
        h.keyboard.tap("capslock")
        h.keyboard.tap("ctrl+a")
        h.keyboard.tap("ctrl+shift+a")
        #expect(h.trace.firedKeyCommands.map(\.command.title) == ["plain", "shifted"])
    }

    @Test("stage 5: commands follow the layout: ctrl+z fires from the key that types z")
    func layoutAwareDispatch() {
        let h = Harness(layout: QWERTZTestLayout())
        let c = h.chain("app")
        c[0].keyCommands = [KeyCommand("z", modifierFlags: .control, action: .find)]
        c[0].performableActions = [.find]
        c[0].becomeFirstResponder()
        h.keyboard.tap(KeyChord(.z, .control))
        #expect(c[0].performedActions.isEmpty)
        h.keyboard.tap(KeyChord(.y, .control))
        #expect(c[0].performedActions == [.find])
    }

    @Test("stage 5: commands resolved once follow a later change of layout and of direction")
    func resolutionsFollowLayoutAndDirection() {
        let h = Harness()
        let c = h.chain("app")
        c[0].keyCommands = [
            KeyCommand("z", modifierFlags: .control, action: .find),
            KeyCommand(.leftArrow, modifierFlags: .command, action: .next, title: "Back"),
        ]
        c[0].performableActions = [.find, .next]
        c[0].becomeFirstResponder()
        h.keyboard.tap(KeyChord(.z, .control))
        h.keyboard.tap("cmd+left")
        #expect(c[0].performedActions == [.find, .next])
        // The same command values, now on QWERTZ (z is on the Y key) and in a right-to-left window.
        h.dispatcher.layout = QWERTZTestLayout()
        h.keyboard.tap(KeyChord(.z, .control))
        #expect(c[0].performedActions == [.find, .next], "the Z key types y on QWERTZ")
        h.keyboard.tap(KeyChord(.y, .control))
        #expect(c[0].performedActions == [.find, .next, .find])
        h.window.layoutDirection = .rightToLeft
        h.keyboard.tap("cmd+left")
        #expect(c[0].performedActions == [.find, .next, .find], "mirrored: Back is on the right arrow now")
        h.keyboard.tap("cmd+right")
        #expect(c[0].performedActions == [.find, .next, .find, .next])
    }

    @Test("a key's characters follow a new layout: keys made on the old one are not reused")
    func keysFollowNewLayout() {
        let h = Harness()
        var typed: [String] = []
        h.window.onKeyPress([.z]) { press in
            typed.append(press.characters + "/" + press.key.charactersIgnoringModifiers)
            return .handled
        }
        h.keyboard.tap("z")
        h.keyboard.tap("z")
        h.dispatcher.layout = QWERTZTestLayout()
        h.keyboard.tap(KeyChord(.z))
        h.keyboard.tap(KeyChord(.z, .shift))
        #expect(typed == ["z/z", "z/z", "y/y", "Y/y"])
    }

    /// A layout object whose mapping the app changes in place (a remapping table).
    final class RemappableLayout: KeyboardLayout {
        var zTypes = "z"
        var name: String { "remappable" }
        func characters(for code: KeyCode, in state: LayoutState) -> String {
            code == .z ? zTypes : USKeyboardLayout().characters(for: code, in: state)
        }
    }

    @Test("a class layout is asked on every key: a mapping changed in place is seen at once")
    func classLayoutIsAskedEveryTime() {
        let layout = RemappableLayout()
        let h = Harness(layout: layout)
        var typed: [String] = []
        h.window.onKeyPress([.z]) { press in
            typed.append(press.characters)
            return .handled
        }
        h.keyboard.tap(KeyChord(.z))
        layout.zTypes = "ж"
        h.keyboard.tap(KeyChord(.z))
        #expect(typed == ["z", "ж"])
    }

    @Test("the key commands can be read while they are changed in place; the change counts at the next key")
    func keyCommandsReadDuringInPlaceChange() {
        let h = Harness()
        let c = h.chain("app")
        c[0].keyCommands = [
            KeyCommand("f", modifierFlags: .control, action: .find),
            KeyCommand("z", modifierFlags: .control, action: .next),
        ]
        c[0].performableActions = [.find, .next]
        c[0].becomeFirstResponder()
        var seenDuring: [Int] = []
        c[0].keyCommands.removeAll { command in
            // Reading the commands (directly, and through the index behind isSecureEntry) while
            // the list is being changed: the list reads as moved out, never half-changed.
            seenDuring.append(c[0].keyCommands.count)
            _ = h.dispatcher.isSecureEntry
            return command.action == .find
        }
        #expect(seenDuring == [0, 0])
        #expect(c[0].keyCommands.map(\.action) == [.next])
        h.keyboard.tap(KeyChord(.f, .control))
        h.keyboard.tap(KeyChord(.z, .control))
        #expect(c[0].performedActions == [.next])
    }

    @Test("stage 5: a right-to-left window mirrors arrow commands")
    func mirroredDispatch() {
        let h = Harness()
        let c = h.chain("app")
        c[0].keyCommands = [KeyCommand(.leftArrow, modifierFlags: .command, action: .next, title: "Back")]
        c[0].performableActions = [.next]
        c[0].becomeFirstResponder()
        h.window.layoutDirection = .rightToLeft
        h.keyboard.tap("cmd+right")
        #expect(c[0].performedActions == [.next])
    }

    // MARK: Stages 6 and 7

    @Test("stage 6: presses go up from the first responder until one does not call super")
    func pressesForwarding() {
        let h = Harness()
        let c = h.chain("app", "list", "row")
        c[2].becomeFirstResponder()
        c[1].handledKeys = [.j]
        h.keyboard.tap("j")
        #expect(c[2].presses.map(\.phase) == [.began, .ended])
        #expect(c[1].presses.map(\.phase) == [.began, .ended])
        #expect(c[0].presses.isEmpty)
        #expect(h.trace.lines.contains("stage presses took: list handled pressesBegan"))
    }

    @Test("stage 7: a key every responder passes on is unhandled, and each still gets its ended")
    func unhandled() {
        let h = Harness()
        let c = h.chain("app", "row")
        c[1].becomeFirstResponder()
        h.keyboard.tap("f9")
        h.trace.expectUnhandled(.f9)
        #expect(c[1].presses.map(\.phase) == [.began, .ended])
        #expect(c[0].presses.map(\.phase) == [.began, .ended])
        #expect(h.trace.takingStages == [.unhandled])
    }

    @Test("with no first responder, key commands and presses start at the window")
    func noFirstResponder() {
        let h = Harness()
        let c = h.chain("app")
        h.window.keyCommands = [KeyCommand("w", modifierFlags: .control, action: .quit)]
        c[0].performableActions = [.quit]
        h.keyboard.tap("ctrl+w")
        #expect(h.trace.firedKeyCommands.isEmpty, "app is not in the chain from the window, so nobody performs quit")
        #expect(h.trace.lines.contains { $0.hasSuffix("no responder can perform quit") })
    }

    @Test("a bare modifier key is a press of its own and skips the key-command stages")
    func bareModifier() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].handledKeys = [.leftShift]
        c[0].keyCommands = [KeyCommand(.tab, action: .next)]
        h.keyboard.tap("shift")
        #expect(c[0].presses.map(\.phase) == [.began, .ended])
        #expect(c[0].presses.first?.key.keyCode == .leftShift)
        #expect(h.trace.stages.first?.outcome == .skipped)
        #expect(h.trace.takingStages == [.presses])
    }

    @Test("every stage's decision is traced in pipeline order for a key that reaches presses")
    func fullTraceOrder() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        h.dispatcher.reserve(ReservedShortcut(KeyCommand(.f12, action: "admin")) { _ in })
        h.dispatcher.systemKeyHandler = TabNavigator()
        h.keyboard.press(.x)
        #expect(
            h.trace.stages.map(\.stage) == [
                .reservedShortcuts, .priorityKeyCommands, .textInput, .systemBehavior, .keyCommands, .presses,
                .unhandled,
            ])
        #expect(
            h.trace.stages.map(\.outcome) == [.declined, .declined, .declined, .declined, .declined, .declined, .took])
    }

    @Test("focus moving between items keeps key commands right: the chain's own, never the last item's")
    func commandsFollowFocus() {
        let window = Window(identifier: "w")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 300, height: 20))
        window.addChild(root)
        var performed: [String] = []
        func item(_ name: String, x: Double) -> FocusNode {
            let node = FocusNode(identifier: name, frame: Rect(x: x, y: 0, width: 20, height: 20), isFocusable: true)
            node.acceptsFirstResponder = true
            node.onAction = { action, _ in performed.append("\(name) \(action.rawValue)") }
            root.addChild(node)
            return node
        }
        let a = item("a", x: 0)
        let b = item("b", x: 40)
        let c = item("c", x: 80)
        root.keyCommands = [KeyCommand("r", modifierFlags: .control, action: "refresh")]
        root.performableActions = ["refresh"]
        root.onAction = { action, _ in performed.append("root \(action.rawValue)") }
        c.keyCommands = [KeyCommand("x", modifierFlags: .control, action: "cut")]
        c.performableActions = ["cut"]
        let focus = FocusSystem(window: window, root: root)
        let dispatcher = Dispatcher(window: window)
        dispatcher.systemKeyHandler = focus
        func press(_ codes: KeyCode...) {
            for code in codes { dispatcher.handle(KeyEvent(code, .down)) }
            for code in codes.reversed() { dispatcher.handle(KeyEvent(code, .up)) }
        }
        _ = focus.requestFocus(on: a)
        press(.leftControl, .r)
        press(.tab)  // to b: no commands of its own, the same declarers
        press(.leftControl, .r)
        press(.leftControl, .x)
        press(.tab)  // to c, which declares Ctrl+X
        press(.leftControl, .x)
        _ = focus.requestFocus(on: a)
        press(.leftControl, .x)
        b.keyCommands = [KeyCommand("x", modifierFlags: .control, action: "cut")]  // a new declarer
        b.performableActions = ["cut"]
        _ = focus.requestFocus(on: b)
        press(.leftControl, .x)
        #expect(performed == ["root refresh", "root refresh", "c cut", "b cut"])
        #expect(focus.focusedItem === b)
    }
}

/// Layout and lock changes are input values: a source sends them through its sink, never sets the
/// dispatcher (the one-way source contract).
@MainActor @Suite struct InputContextTests {
    @Test("a layout sent as input becomes the dispatcher's; locks sent as input are its locks; a repeater passes both")
    func layoutAndLocksAsInput() {
        let dispatcher = Dispatcher(window: Window())
        let repeater = SoftwareRepeater(timing: .standard, next: dispatcher)
        let change = KeyboardLayoutChange(TestLayout())
        repeater.receive(.layout(change, device: DeviceID(rawValue: 2), timestamp: 1))
        #expect(dispatcher.layout.name == "test-layout")
        repeater.receive(.locks([.numLock, .capsLock], device: DeviceID(rawValue: 2), timestamp: 1))
        #expect(dispatcher.keyboardState.locks == [.numLock, .capsLock])
        #expect(change == change && change != KeyboardLayoutChange(TestLayout()), "compared by identity")
    }

    @Test("a dispatcher's context hands out its ids and reads its state, and its sink is the dispatcher")
    func dispatcherContext() {
        let dispatcher = Dispatcher(window: Window())
        let context = dispatcher.inputContext
        let first = context.makeDeviceID()
        #expect(dispatcher.makeDeviceID().rawValue == first.rawValue + 1, "one sequence of ids")
        context.sink.receive(.locks(.scrollLock, device: first, timestamp: 0))
        #expect(context.keyboardState.locks == .scrollLock)
        #expect(context.sink as AnyObject === dispatcher)
    }

    /// A layout of its own name, to see it arrive.
    struct TestLayout: KeyboardLayout {
        var name: String { "test-layout" }
        func characters(for code: KeyCode, in state: LayoutState) -> String {
            USKeyboardLayout().characters(for: code, in: state)
        }
    }
}
