import ResponderChain
import ResponderChainTesting
import Testing

@Suite struct DispatchTraceTests {
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
