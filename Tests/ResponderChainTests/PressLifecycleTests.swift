import ResponderChain
import ResponderChainTesting
import Testing

/// The lifecycle rules of the DispatchOrder article, one test per rule.
@MainActor @Suite struct PressLifecycleTests {
    @Test("the key command that took the down owns the repeats and the up; no responder sees presses")
    func commandOwnsLifecycle() {
        let h = Harness()
        let c = h.chain("app", "row")
        c[1].becomeFirstResponder()
        c[0].keyCommands = [
            KeyCommand(.downArrow, action: .scroll, repeatBehavior: .repeatable),
            KeyCommand(.deleteForward, action: .delete),
        ]
        c[0].performableActions = [.scroll, .delete]
        h.keyboard.press(.downArrow)
        h.keyboard.autoRepeat(.downArrow, times: 3)
        h.keyboard.release(.downArrow)
        #expect(c[0].performedActions == [.scroll, .scroll, .scroll, .scroll], "repeatable: once per repeat")
        h.keyboard.press(.deleteForward)
        h.keyboard.autoRepeat(.deleteForward, times: 3)
        h.keyboard.release(.deleteForward)
        #expect(c[0].performedActions.filter { $0 == .delete } == [.delete], "non-repeatable: once")
        #expect(c[0].presses.isEmpty && c[1].presses.isEmpty)
        #expect(h.trace.lines.contains { $0.contains("swallowed: key command deleteForward") })
    }

    @Test("the system behaviour that took the down gets its repeats and its release")
    func systemOwnsLifecycle() {
        let h = Harness()
        let c = h.chain("a", "b")
        let navigator = TabNavigator()
        h.dispatcher.systemKeyHandler = navigator
        h.keyboard.press(.tab)
        h.keyboard.autoRepeat(.tab, times: 2)
        h.keyboard.release(.tab)
        #expect(navigator.moves == ["a", "b", "a"])
        #expect(navigator.repeats == 2 && navigator.releases == 1 && navigator.cancels == 0)
        #expect(c[0].presses.isEmpty && c[1].presses.isEmpty)
    }

    @Test("the text input that took the down gets the repeats and the up; nothing goes up the chain")
    func textInputOwnsLifecycle() {
        let h = Harness()
        let form = RecordingResponder("form")
        h.window.addChild(form)
        let field = TextField("name")
        form.addChild(field)
        field.becomeFirstResponder()
        h.keyboard.press(.x)
        h.keyboard.autoRepeat(.x, times: 2)
        field.removeFromParent()
        h.keyboard.release(.x)
        #expect(field.presses.map(\.phase) == [.began, .repeated, .repeated, .cancelled])
        #expect(field.presses.map(\.repeatCount) == [0, 1, 2, 2])
        #expect(form.presses.isEmpty)
        #expect(h.dispatcher.activePresses.isEmpty)
    }

    @Test("a responder that got began gets exactly one ended even after the first responder moved")
    func endedFollowsBeganAfterFirstResponderChange() {
        let h = Harness()
        let c = h.chain("app", "left")
        let right = RecordingResponder("right", handles: [.x], canBecomeFirstResponder: true)
        c[0].addChild(right)
        c[1].becomeFirstResponder()
        c[1].handledKeys = [.x]
        h.keyboard.press(.x)
        right.becomeFirstResponder()
        h.keyboard.autoRepeat(.x)
        h.keyboard.release(.x)
        #expect(c[1].presses.map(\.phase) == [.began, .repeated, .ended])
        #expect(right.presses.isEmpty)
        #expect(Set(c[1].presses.map(\.id)).count == 1, "one identity for the whole press")
        #expect(c[1].presses.last?.repeatCount == 1)
    }

    @Test("repeat on auto-repeat, changed on a modifier change while the key is held")
    func changedPhases() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].handledKeys = [.a, .leftShift]
        h.keyboard.press(.a)
        h.keyboard.autoRepeat(.a)
        h.keyboard.press(.leftShift)
        h.keyboard.release(.leftShift)
        h.keyboard.release(.a)
        let aPresses = c[0].presses.filter { $0.key.keyCode == .a }
        #expect(aPresses.map(\.phase) == [.began, .repeated, .changed, .changed, .ended])
        #expect(aPresses.map(\.key.characters) == ["a", "a", "A", "a", "a"])
        #expect(aPresses.map(\.repeatCount) == [0, 1, 1, 1, 1])
        #expect(aPresses[2].key.modifierFlags == .shift)
    }

    @Test("a responder that leaves the tree gets cancelled; the others get their ended later")
    func forwarderLeavesTree() {
        let h = Harness()
        let c = h.chain("app", "list", "row")
        c[2].becomeFirstResponder()
        c[1].handledKeys = [.j]
        h.keyboard.press(.j)
        let row = c[2]
        row.removeFromParent()
        #expect(row.presses.map(\.phase) == [.began, .cancelled])
        #expect(h.window.firstResponder == nil)
        h.keyboard.release(.j)
        #expect(c[1].presses.map(\.phase) == [.began, .ended])
        #expect(row.presses.map(\.phase) == [.began, .cancelled], "nothing after the end")
    }

    @Test("moving a responder inside the window keeps its press: ended, not cancelled")
    func moveKeepsPress() {
        let h = Harness()
        let c = h.chain("app", "list", "row")
        let other = RecordingResponder("other")
        h.window.addChild(other)
        c[2].becomeFirstResponder()
        c[2].handledKeys = [.j]
        h.keyboard.press(.j)
        other.addChild(c[2])
        #expect(c[2].isFirstResponder)
        h.keyboard.release(.j)
        #expect(c[2].presses.map(\.phase) == [.began, .ended])
    }

    @Test("when the responder that took the press leaves, the press is cancelled for everyone")
    func ownerLeavesTree() {
        let h = Harness()
        let c = h.chain("app", "list", "row")
        c[2].becomeFirstResponder()
        c[1].handledKeys = [.j]
        h.keyboard.press(.j)
        c[1].removeFromParent()
        #expect(c[1].presses.map(\.phase) == [.began, .cancelled])
        #expect(c[2].presses.map(\.phase) == [.began, .cancelled])
        h.keyboard.autoRepeat(.j)
        h.keyboard.release(.j)
        #expect(c[2].presses.count == 2 && c[1].presses.count == 2, "repeats and the up are swallowed")
        #expect(h.dispatcher.activePresses.isEmpty)
        #expect(!h.dispatcher.keyboardState.isPressed(.j))
    }

    @Test("a device that disappears cancels its presses; the other keyboard's presses go on")
    func deviceLoss() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].handlesAllKeys = true
        let second = VirtualKeyboard(h.dispatcher, device: DeviceID(rawValue: 2))
        h.keyboard.press(.a)
        h.keyboard.press(.leftShift)
        second.press(.b)
        h.keyboard.unplug()
        let byKey = Dictionary(grouping: c[0].presses, by: \.key.keyCode)
        #expect(byKey[.a]?.map(\.phase) == [.began, .changed, .cancelled])
        #expect(byKey[.leftShift]?.map(\.phase) == [.began, .cancelled])
        #expect(byKey[.b]?.map(\.phase) == [.began, .changed], "b: began with shift, changed when shift vanished")
        #expect(byKey[.b]?.last?.key.modifierFlags == [])
        second.release(.b)
        #expect(c[0].presses.last?.phase == .ended)
        #expect(h.dispatcher.keyboardState.pressedKeys.isEmpty)
        #expect(h.trace.lines.contains("device removed device0"))
    }

    @Test("losing the keyboard cancels every press, and the later ups are ignored")
    func keyboardLost() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].handlesAllKeys = true
        let navigator = TabNavigator()
        h.dispatcher.systemKeyHandler = navigator
        h.keyboard.press(.a)
        h.keyboard.press(.tab)
        h.keyboard.loseKeyboard()
        h.keyboard.release(.a)
        h.keyboard.release(.tab)
        #expect(c[0].presses.map(\.phase) == [.began, .cancelled])
        #expect(navigator.cancels == 1 && navigator.releases == 0)
        #expect(h.dispatcher.activePresses.isEmpty)
    }

    @Test("a resync cancels keys found released and records keys found held without a began")
    func resync() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].handlesAllKeys = true
        h.keyboard.press(.a)
        h.dispatcher.resynchronize(device: .primary, pressedKeys: [.b, .leftControl], timestamp: 1)
        #expect(c[0].presses.map(\.phase) == [.began, .cancelled])
        #expect(h.dispatcher.keyboardState.pressedKeys == [.leftControl, .b])
        #expect(h.dispatcher.keyboardState.modifierFlags == .control)
        h.keyboard.autoRepeat(.b)
        h.keyboard.release(.b)
        #expect(c[0].presses.count == 2, "no press was invented for b")
        h.keyboard.tap("x")
        #expect(c[0].presses.last?.key.modifierFlags == .control, "the held Control counts")
    }

    @Test("cancelKey cancels one press without a key-up")
    func cancelOneKey() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].handlesAllKeys = true
        h.keyboard.press(.a)
        h.keyboard.press(.b)
        h.dispatcher.cancelKey(.a, on: .primary, timestamp: 5)
        #expect(c[0].phases(of: c[0].presses[0].id) == [.began, .cancelled])
        #expect(h.dispatcher.activePresses.map(\.key.keyCode) == [.b])
        #expect(c[0].presses.last?.timestamp == 5)
    }

    @Test("two keyboards pressing the same key make two presses")
    func sameKeyTwoDevices() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].handlesAllKeys = true
        let second = VirtualKeyboard(h.dispatcher, device: DeviceID(rawValue: 7))
        h.keyboard.press(.a)
        second.press(.a)
        h.keyboard.release(.a)
        #expect(h.dispatcher.keyboardState.isPressed(.a))
        second.release(.a)
        let ids = Set(c[0].presses.map(\.id))
        #expect(ids.count == 2)
        for id in ids { #expect(c[0].phases(of: id) == [.began, .ended]) }
        #expect(Set(c[0].presses.map(\.device)) == [.primary, DeviceID(rawValue: 7)])
    }

    @Test("switching windows cancels presses in the old one; held keys stay swallowed")
    func switchWindow() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].handlesAllKeys = true
        let other = Window(identifier: "other")
        let otherApp = RecordingResponder("otherApp", canBecomeFirstResponder: true)
        otherApp.handlesAllKeys = true
        other.addChild(otherApp)
        otherApp.becomeFirstResponder()
        h.keyboard.press(.a)
        h.dispatcher.setWindow(other, timestamp: 1)
        h.keyboard.release(.a)
        h.keyboard.tap("b")
        #expect(c[0].presses.map(\.phase) == [.began, .cancelled])
        #expect(otherApp.presses.map(\.key.keyCode) == [.b, .b])
        #expect(h.dispatcher.window === other)
    }
}
