import ResponderChain
import ResponderChainTesting
import Testing

/// Runs `body` when it goes away: an object an observer's closure owns.
@MainActor final class OnDeinit {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
    isolated deinit { body() }
}

/// The dispatcher's own trace: its observers, and the records (`DispatchRecord`) they are given.
@MainActor @Suite struct DispatchRecordTests {
    @Test("observers that add or remove observers: on removal, while records are delivered")
    func observersChangingObservers() {
        let dispatcher = Dispatcher(window: Window())
        var seen: [String] = []
        let other = dispatcher.addTraceObserver { _ in seen.append("other") }
        var holder: TraceObservation?
        do {
            // The closure is the only owner of an object whose deinit removes `other`: removing
            // the closure frees it, and that removal runs inside the first one.
            let owned = OnDeinit { dispatcher.removeTraceObserver(other) }
            holder = dispatcher.addTraceObserver { [owned] _ in _ = owned }
        }
        dispatcher.removeTraceObserver(holder!)
        dispatcher.handle(KeyEvent(.a, .down))
        #expect(seen.isEmpty, "both observers are gone")
        // An observer that removes itself and adds another while a record is being delivered.
        var later = 0
        var selfToken: TraceObservation?
        selfToken = dispatcher.addTraceObserver { _ in
            guard let token = selfToken else { return }
            selfToken = nil
            dispatcher.removeTraceObserver(token)
            dispatcher.addTraceObserver { _ in later += 1 }
        }
        dispatcher.handle(KeyEvent(.a, .up))
        dispatcher.handle(KeyEvent(.b, .down))
        #expect(selfToken == nil)
        #expect(later > 0)
    }

    @Test("records come only to subscribed observers, and stop after removal")
    func observers() {
        let window = Window()
        let dispatcher = Dispatcher(window: window)
        var first: [String] = []
        var second: [String] = []
        let a = dispatcher.addTraceObserver { first.append($0.description) }
        dispatcher.addTraceObserver { second.append($0.description) }
        dispatcher.handle(KeyEvent(.a, .down))
        dispatcher.removeTraceObserver(a)
        dispatcher.handle(KeyEvent(.a, .up))
        #expect(first.count > 0)
        #expect(second.count > first.count)
        #expect(first.first == "key down KeyA on device0 characters \"a\"")
    }

    @Test("each input event gets the next sequence number and its timestamp")
    func sequenceAndTime() {
        let h = Harness()
        h.dispatcher.handle(KeyEvent(.a, .down, timestamp: 1.5))
        h.dispatcher.handle(KeyEvent(.a, .up, timestamp: 1.75))
        let inputs = h.trace.records.filter { if case .input = $0.kind { return true } else { return false } }
        #expect(inputs.map(\.sequence) == [1, 2])
        #expect(inputs.map(\.timestamp) == [1.5, 1.75])
    }

    @Test("ignored input says so")
    func ignoredInput() {
        let h = Harness()
        h.dispatcher.handle(KeyEvent(.q, .up))
        #expect(
            h.trace.lines == ["key up KeyQ on device0 characters \"q\" (ignored: does not match the keyboard state)"])
    }

    @Test("the example from the issue reads as a sentence")
    func readableReason() {
        let h = Harness()
        let editor = RecordingResponder("EditorView", performs: [.next], canBecomeFirstResponder: true)
        h.window.addChild(editor)
        editor.becomeFirstResponder()
        editor.keyCommands = [KeyCommand(.tab, action: .next, title: "Next")]
        h.dispatcher.systemKeyHandler = TabNavigator()
        h.keyboard.tap("tab")
        let lines = h.trace.lines
        #expect(lines.contains("stage systemBehavior took: tabNavigator: Tab moves focus"))
        #expect(
            lines.contains(
                "keyCommand tab \"Next\" on EditorView passed over: not considered: wantsPriorityOverSystemBehavior is false"
            ))
    }
}

@MainActor @Suite struct RepeatAndOwnerTraceTests {
    @Test("a repeatable command performed on a repeat is recorded as a key command, marked as a repeat")
    func keyCommandOnRepeat() {
        let h = Harness()
        let list = RecordingResponder("list", performs: [.delete], canBecomeFirstResponder: true)
        h.window.addChild(list)
        list.becomeFirstResponder()
        list.keyCommands = [KeyCommand(.backspace, action: .delete, title: "Delete", repeatBehavior: .repeatable)]
        h.dispatcher.handle(KeyEvent(.backspace, .down, timestamp: 1))
        h.dispatcher.handle(KeyEvent(.backspace, .repeat, timestamp: 2))
        h.dispatcher.handle(KeyEvent(.backspace, .repeat, timestamp: 3))
        h.dispatcher.handle(KeyEvent(.backspace, .up, timestamp: 4))
        #expect(h.trace.firedKeyCommands.map(\.isRepeat) == [false, true, true])
        #expect(
            h.trace.firedKeyCommands.allSatisfy {
                $0.target.refers(to: list) && $0.declaredBy?.refers(to: list) == true
            })
        #expect(
            h.trace.lines.contains(
                "keyCommand backspace \"Delete\" declared by list performed by list (repeat)"))
    }

    @Test("a press owned outside the responders names the stage that took its key-down")
    func ownerStage() {
        let h = Harness()
        let list = RecordingResponder("list", performs: [.find], canBecomeFirstResponder: true)
        h.window.addChild(list)
        list.becomeFirstResponder()
        list.keyCommands = [KeyCommand("f", modifierFlags: .control, action: .find, title: "Find")]
        h.dispatcher.systemKeyHandler = TabNavigator()
        h.dispatcher.reserve(ReservedShortcut(KeyCommand(.f12, action: "admin")) { _ in })
        h.keyboard.tap("ctrl+f")
        h.keyboard.tap("tab")
        h.keyboard.tap("f12")
        var owners: [DispatchStage] = []
        for record in h.trace.records {
            if case .pressOwned(let press, let owner, _) = record.kind, press.phase == .ended { owners.append(owner) }
        }
        #expect(owners == [.keyCommands, .systemBehavior, .reservedShortcuts])
    }
}
