import ResponderChain
import ResponderChainTesting
import Testing

/// What handlers saw, in order.
@MainActor final class HandlerLog {
    var entries: [String] = []
}

@MainActor @Suite struct KeyPressHandlerTests {
    /// window > outer > inner (first responder), plain responders with handlers only.
    @MainActor struct Chain {
        let harness = Harness()
        let outer = Responder(identifier: "outer")
        let inner = FocusNode(identifier: "inner")
        let log = HandlerLog()

        init() {
            harness.window.addChild(outer)
            outer.addChild(inner)
            inner.acceptsFirstResponder = true
            _ = inner.becomeFirstResponder()
        }

        func record(_ name: String, _ result: KeyPress.Result) -> (KeyPress) -> KeyPress.Result {
            { [log] press in
                log.entries.append("\(name) \(press.phase) \(press.key.keyCode)")
                return result
            }
        }
    }

    @Test("a handler that handles the key-down owns the press: its repeats and its key-up come back to it")
    func handledOwnsPress() {
        let chain = Chain()
        chain.outer.onKeyPress([.f5], phases: .all, action: chain.record("outer", .handled))
        chain.harness.keyboard.press(.f5)
        chain.harness.keyboard.autoRepeat(.f5)
        chain.harness.keyboard.release(.f5)
        #expect(chain.log.entries == ["outer down F5", "outer repeat F5", "outer up F5"])
        #expect(chain.harness.trace.stages.contains { $0.reason == "outer handled pressesBegan" })
    }

    @Test("ignored goes on: to the responder's next handler, then up the chain; unmatched keys skip a handler")
    func ignoredContinues() {
        let chain = Chain()
        chain.inner.onKeyPress(action: chain.record("inner first", .ignored))
        chain.inner.onKeyPress(characters: ["x"], action: chain.record("inner x", .handled))
        chain.outer.onKeyPress(action: chain.record("outer", .handled))
        chain.harness.keyboard.tap("a")
        chain.harness.keyboard.tap("x")
        #expect(
            chain.log.entries == [
                "inner first down KeyA", "outer down KeyA", "inner first down KeyX", "inner x down KeyX",
            ])
    }

    @Test("phases: a handler for key-up only sees the up of a press another responder took")
    func upOnly() {
        let chain = Chain()
        chain.inner.onKeyPress([.a], phases: .up, action: chain.record("inner", .handled))
        chain.outer.onKeyPress([.a], phases: .down, action: chain.record("outer", .handled))
        chain.harness.keyboard.press(.a)
        chain.harness.keyboard.autoRepeat(.a)
        chain.harness.keyboard.release(.a)
        #expect(chain.log.entries == ["outer down KeyA", "inner up KeyA"])
    }

    @Test("onExitCommand on an ancestor gets Escape typed in a text field; the field keeps its text")
    func exitFromTextField() {
        let chain = Chain()
        let field = TextInputNode(identifier: "field")
        chain.inner.addChild(field)
        _ = field.becomeFirstResponder()
        var exits = 0
        chain.outer.onExitCommand { exits += 1 }
        chain.harness.keyboard.type("h i escape f5")
        #expect(field.text == "hi")
        #expect(exits == 1)
        #expect(chain.harness.trace.unhandledKeys.map(\.keyCode) == [.f5], "F5 went up the chain and nobody took it")
    }

    @Test("onMoveCommand gets the arrows that reach it, mirrored in a right-to-left window unless told not to")
    func moveCommand() {
        let chain = Chain()
        var moves: [MoveCommandDirection] = []
        chain.outer.onMoveCommand { moves.append($0) }
        chain.harness.keyboard.type("left right up down")
        chain.harness.window.layoutDirection = .rightToLeft
        chain.harness.keyboard.type("left right")
        #expect(moves == [.left, .right, .up, .down, .right, .left])
        let unmirrored = Chain()
        unmirrored.harness.window.layoutDirection = .rightToLeft
        var raw: [MoveCommandDirection] = []
        unmirrored.outer.onMoveCommand(mirrorsInRightToLeft: false) { raw.append($0) }
        unmirrored.harness.keyboard.type("left right")
        #expect(raw == [.left, .right])
    }

    @Test("a removed handler no longer runs")
    func removal() {
        let chain = Chain()
        let token = chain.outer.onKeyPress(action: chain.record("outer", .handled))
        chain.harness.keyboard.tap("a")
        chain.outer.removeKeyPressHandler(token)
        chain.harness.keyboard.tap("b")
        #expect(chain.log.entries == ["outer down KeyA"])
        #expect(chain.harness.trace.unhandledKeys.map(\.keyCode) == [.b])
    }

    @Test("a handler for many keys runs for each of them and for no key between them")
    func manyKeys() {
        let chain = Chain()
        // More than eight keys: the handler's key set is searched by halves, so every member and
        // the codes around them are tried.
        let keys: [KeyCode] = [.a, .c, .e, .g, .i, .k, .m, .o, .q, .s, .u, .w]
        chain.outer.onKeyPress(Set(keys), action: chain.record("outer", .handled))
        // Key codes do not follow the alphabet: Tab (15) and comma (51) lie below and above every
        // member's code.
        let tried: [KeyCode] = [
            .tab, .a, .b, .c, .d, .e, .f, .g, .h, .i, .j, .k, .l, .m, .n, .o, .p, .q, .r, .s, .t, .u, .v, .w, .x,
            .comma,
        ]
        for code in tried { chain.harness.keyboard.tap(KeyChord(code)) }
        #expect(chain.log.entries == keys.map { "outer down \($0)" })
        #expect(chain.harness.trace.unhandledKeys.map(\.keyCode) == tried.filter { !keys.contains($0) })
    }

    @Test("a focus node's handled keys changed in place (insert, remove) take effect on the next key")
    func handledKeysChangedInPlace() {
        let chain = Chain()
        var taken: [KeyCode] = []
        chain.inner.onPress = { taken.append($0.key.keyCode) }
        chain.harness.keyboard.tap("d")
        chain.inner.handledKeys.insert(.d)
        chain.harness.keyboard.tap("d")
        chain.inner.handledKeys.remove(.d)
        chain.harness.keyboard.tap("d")
        #expect(taken == [.d])
        #expect(chain.harness.trace.unhandledKeys.map(\.keyCode) == [.d, .d])
    }
}
