import ResponderChain
import ResponderChainTesting
import Testing

/// Handlers may change the tree, the first responder, or post events while a key is dispatched:
/// events posted meanwhile are queued and run in order after the current one.
@MainActor @Suite struct ReentrancyTests {
    @Test("an event posted from a handler runs after the current event, not inside it")
    func postedEventsAreQueued() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].handlesAllKeys = true
        var order: [String] = []
        c[0].onDelivery = { delivery in
            guard case .press(let press) = delivery else { return }
            order.append("\(press.phase) \(press.key.keyCode)")
            if press.key.keyCode == .a && press.phase == .began {
                h.dispatcher.handle(KeyEvent(.b, .down, timestamp: 9))
                h.dispatcher.handle(KeyEvent(.b, .up, timestamp: 9))
                order.append("posted b")
            }
        }
        h.keyboard.press(.a)
        h.keyboard.release(.a)
        #expect(order == ["began KeyA", "posted b", "began KeyB", "ended KeyB", "ended KeyA"])
        let sequences = h.trace.records.map(\.sequence)
        #expect(sequences == sequences.sorted(), "trace records come in event order")
    }

    @Test("a handler that makes another responder first responder: the press still ends where it began")
    func firstResponderChangeInHandler() {
        let h = Harness()
        let c = h.chain("app", "a")
        let b = RecordingResponder("b", handles: [.x], canBecomeFirstResponder: true)
        c[0].addChild(b)
        c[1].becomeFirstResponder()
        c[1].handledKeys = [.x]
        c[1].onDelivery = { delivery in
            if case .press(let press) = delivery, press.phase == .began { b.becomeFirstResponder() }
        }
        h.keyboard.tap("x")
        h.keyboard.tap("x")
        #expect(c[1].presses.map(\.phase) == [.began, .ended])
        #expect(b.presses.map(\.phase) == [.began, .ended])
        #expect(h.trace.lines.contains("firstResponder a -> b"))
    }

    @Test("a handler that removes itself during began gets cancelled right after the event")
    func removeSelfDuringBegan() {
        let h = Harness()
        let c = h.chain("app", "row")
        c[1].becomeFirstResponder()
        c[0].handledKeys = [.x]
        let row = c[1]
        row.onDelivery = { delivery in
            if case .press(let press) = delivery, press.phase == .began { row.removeFromParent() }
        }
        h.keyboard.press(.x)
        #expect(row.presses.map(\.phase) == [.began, .cancelled])
        #expect(c[0].presses.map(\.phase) == [.began], "the walk goes on past the removed responder")
        h.keyboard.release(.x)
        #expect(c[0].presses.map(\.phase) == [.began, .ended])
        #expect(row.presses.count == 2)
    }

    @Test("a handler that removes the next responder ends the walk there: the press is unhandled beyond it")
    func removeLaterResponderDuringBegan() {
        let h = Harness()
        let c = h.chain("app", "list", "row")
        c[2].becomeFirstResponder()
        c[0].handledKeys = [.x]
        c[2].onDelivery = { delivery in
            if case .press(let press) = delivery, press.phase == .began {
                c[1].removeFromParent()  // takes row with it
            }
        }
        h.keyboard.press(.x)
        #expect(c[1].presses.isEmpty, "list left before its turn")
        #expect(c[2].presses.map(\.phase) == [.began, .cancelled], "row left the window with list")
        #expect(c[0].presses.isEmpty, "app is no longer above the first responder's old position")
        h.trace.expectUnhandled(.x)
        h.keyboard.release(.x)
        #expect(c[2].presses.count == 2)
    }

    @Test("a key command whose action removes the declaring responder swallows the rest of the press")
    func actionRemovesDeclarer() {
        let h = Harness()
        let c = h.chain("app", "sheet")
        c[1].becomeFirstResponder()
        c[1].keyCommands = [KeyCommand(.escape, action: .quit, repeatBehavior: .repeatable)]
        c[1].performableActions = [.quit]
        c[1].onDelivery = { delivery in
            if case .action = delivery { c[1].removeFromParent() }
        }
        h.keyboard.press(.escape)
        h.keyboard.autoRepeat(.escape, times: 2)
        h.keyboard.release(.escape)
        #expect(c[1].performedActions == [.quit])
        #expect(h.trace.lines.contains { $0.contains("swallowed: the press was cancelled (its owner left the tree)") })
        #expect(h.dispatcher.activePresses.isEmpty)
    }

    @Test("a handler that changes the key commands mid-dispatch: the change applies to the next key")
    func commandsChangedMidDispatch() {
        let h = Harness()
        let c = h.chain("app")
        c[0].becomeFirstResponder()
        c[0].performableActions = [.find, .next]
        c[0].keyCommands = [KeyCommand("k", modifierFlags: .control, action: .find)]
        c[0].onDelivery = { delivery in
            if case .action(.find, _) = delivery {
                c[0].keyCommands = [KeyCommand("k", modifierFlags: .control, action: .next)]
            }
        }
        h.keyboard.tap("ctrl+k")
        h.keyboard.tap("ctrl+k")
        #expect(c[0].performedActions == [.find, .next])
    }
}
