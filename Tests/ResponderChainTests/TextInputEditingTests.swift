import ResponderChain
import ResponderChainTesting
import Testing

/// The input filter, the pasteboard chords and undo of ``TextInputNode``.
@MainActor @Suite struct TextInputEditingTests {
    typealias Field = TextInputNodeTests.Field

    // MARK: Input filter

    @Test("a filter that upper-cases: typing and pasting arrive upper-cased, the cursor right after")
    func upperCasing() {
        let field = Field(text: "")
        field.field.inputFilter = { _, replacement in .replace(with: replacement.uppercased()) }
        field.harness.keyboard.type("a b")
        field.field.insertText("c1")
        field.harness.keyboard.type("left left left x")
        #expect(field.shown == "AX|BC1")
    }

    @Test("a digits-only filter rejects letters typed and pasted; a rejected key leaves text and selection alone")
    func digitsOnly() {
        let field = Field(text: "12")
        field.field.inputFilter = { _, replacement in replacement.allSatisfy(\.isNumber) ? .accept : .reject }
        field.harness.keyboard.type("shift+left a 3")
        #expect(field.shown == "13|")
        field.harness.keyboard.type("shift+left b")
        #expect(field.shown == "1[3]", "the rejected b kept the selection")
        field.field.insertText("x")
        #expect(field.field.text == "13")
        field.harness.trace.clear()
        field.harness.keyboard.tap("b")
        field.harness.trace.expectStageTook(.textInput)
    }

    @Test("the filter sees deletions: range and an empty replacement; it can refuse them")
    func deletions() {
        let field = Field(text: "AB-12")
        var seen: [String] = []
        field.field.inputFilter = { range, replacement in
            seen.append("\(range.lowerBound)..<\(range.upperBound) \"\(replacement)\"")
            return range.lowerBound == 2 ? .reject : .accept
        }
        field.harness.keyboard.type("backspace left backspace home delete")
        #expect(field.field.text == "B-1")
        #expect(seen == ["4..<5 \"\"", "2..<3 \"\"", "0..<1 \"\""])
        #expect(field.shown == "|B-1")
    }

    @Test("the filter's replacement is cleaned to one line and cut to the length limit; the filter sees all of a paste")
    func filterThenLimit() {
        let field = Field(text: "")
        field.field.maximumLength = 3
        var proposals: [String] = []
        field.field.inputFilter = { _, replacement in
            proposals.append(replacement)
            return .replace(with: replacement.filter(\.isNumber) + "\n")
        }
        field.field.insertText("a1b2c3d4")
        #expect(proposals == ["a1b2c3d4"])
        #expect(field.shown == "123|")
    }

    @Test("a filter that replaces a deletion: the cursor goes after what it put in")
    func replacedDeletion() {
        let field = Field(text: "abc")
        field.field.inputFilter = { _, replacement in replacement.isEmpty ? .replace(with: "_") : .accept }
        field.harness.keyboard.type("left backspace")
        #expect(field.shown == "a_|c")
    }

    // MARK: Select all, copy, cut, paste

    @Test("Ctrl+A selects all; Ctrl+C then Ctrl+V in another field copies; Ctrl+X cuts")
    func copyCutPaste() {
        let harness = Harness()
        let pasteboard = Pasteboard()
        let from = TextInputNode(identifier: "from")
        let to = TextInputNode(identifier: "to")
        for field in [from, to] {
            harness.window.addChild(field)
            field.pasteboard = pasteboard
        }
        from.text = "AB 123"
        _ = from.becomeFirstResponder()
        harness.keyboard.type("ctrl+a")
        #expect(from.selectedRange == 0..<6)
        harness.keyboard.type("ctrl+c")
        #expect(pasteboard.string == "AB 123" && from.text == "AB 123")
        harness.keyboard.type("left shift+right shift+right ctrl+x")
        #expect(pasteboard.string == "AB" && from.text == " 123" && from.cursorPosition == 0)
        _ = to.becomeFirstResponder()
        to.text = "[]"
        harness.keyboard.type("left ctrl+v ctrl+v")
        #expect(to.text == "[ABAB]" && to.cursorPosition == 5)
        let unhandled = harness.trace.unhandledKeys.filter { !$0.keyCode.isModifier }
        #expect(unhandled.isEmpty)
        harness.trace.expectNoKeyCommand()
    }

    @Test("a paste honours the length limit and the filter, and loses its line breaks")
    func pasteLimits() {
        let field = Field(text: "")
        let pasteboard = Pasteboard()
        field.field.pasteboard = pasteboard
        field.field.maximumLength = 5
        field.field.inputFilter = { _, replacement in .replace(with: replacement.uppercased()) }
        pasteboard.string = "ab\ncdefg"
        field.harness.keyboard.tap("ctrl+v")
        #expect(field.shown == "AB CD|")
    }

    @Test("a secure field never copies or cuts: Ctrl+C and Ctrl+X go on to the chain; paste and select-all work")
    func secureNeverCopies() {
        let harness = Harness()
        let form = RecordingResponder("form", performs: ["copyTicket", "cutTicket"])
        let field = TextInputNode(identifier: "pin")
        let pasteboard = Pasteboard()
        field.pasteboard = pasteboard
        field.isSecureTextEntry = true
        harness.window.addChild(form)
        form.addChild(field)
        _ = field.becomeFirstResponder()
        form.keyCommands = [
            KeyCommand("c", modifierFlags: .control, action: "copyTicket"),
            KeyCommand("x", modifierFlags: .control, action: "cutTicket"),
        ]
        pasteboard.string = "1234"
        harness.keyboard.type("ctrl+v ctrl+a ctrl+c ctrl+x")
        #expect(field.text == "1234" && field.selectedRange == 0..<4)
        #expect(pasteboard.string == "1234" && pasteboard.changeCount == 1)
        #expect(form.performedActions == ["copyTicket", "cutTicket"])
        field.perform(.copy, sender: .application)
        field.cut()
        #expect(pasteboard.changeCount == 1 && field.text == "1234")
        #expect(!field.canPerformAction(.cut, sender: .application))
    }

    @Test("the general pasteboard is shared by fields that have none of their own, and can be replaced")
    func generalPasteboard() {
        let saved = Pasteboard.general
        defer { Pasteboard.general = saved }
        Pasteboard.general = Pasteboard()
        let field = Field(text: "abc")
        #expect(field.field.pasteboard === Pasteboard.general)
        #expect(!Pasteboard.general.hasStrings)
        field.harness.keyboard.type("ctrl+a ctrl+c")
        #expect(Pasteboard.general.string == "abc" && Pasteboard.general.hasStrings)
    }

    @Test(
        "a chord the field cannot perform goes on to the chain's command; when it can, the field wins, priority beats it"
    )
    func chordsYieldWhenTheyCannotPerform() {
        let harness = Harness()
        let form = RecordingResponder("form", performs: ["copyTicket", "undoScan"])
        let field = TextInputNode(identifier: "field")
        field.pasteboard = Pasteboard()
        harness.window.addChild(form)
        form.addChild(field)
        _ = field.becomeFirstResponder()
        form.keyCommands = [
            KeyCommand("c", modifierFlags: .control, action: "copyTicket"),
            KeyCommand("z", modifierFlags: .control, action: "undoScan"),
        ]
        harness.keyboard.type("ctrl+c ctrl+z")
        #expect(form.performedActions == ["copyTicket", "undoScan"], "no selection, nothing to undo")
        harness.keyboard.type("x shift+left ctrl+c")
        #expect(field.pasteboard.string == "x")
        harness.keyboard.type("ctrl+z")
        #expect(field.text.isEmpty)
        #expect(form.performedActions == ["copyTicket", "undoScan"], "the field took both")
        form.keyCommands = [
            KeyCommand(
                "z", modifierFlags: [.control, .shift], action: "undoScan", wantsPriorityOverSystemBehavior: true)
        ]
        harness.keyboard.tap("ctrl+shift+z")
        #expect(field.text.isEmpty && form.performedActions.last == "undoScan", "a priority command beats redo")
    }

    @Test("the editing actions reach the field up the chain, as an Edit menu sends them")
    func actionsThroughTheChain() {
        let field = Field(text: "plate")
        field.field.pasteboard = Pasteboard()
        #expect(field.harness.window.sendAction(.selectAll))
        #expect(field.harness.window.sendAction(.cut))
        #expect(field.field.text.isEmpty && field.field.pasteboard.string == "plate")
        #expect(!field.harness.window.sendAction(.copy), "nothing selected")
        #expect(field.harness.window.sendAction(.undo))
        #expect(field.field.text == "plate")
        #expect(field.harness.window.sendAction(.redo))
        #expect(field.field.text.isEmpty)
        #expect(field.harness.window.sendAction(.paste))
        #expect(field.field.text == "plate")
    }

    @Test("the chords follow the layout's letters: Ctrl+Z is the key that types z")
    func chordsFollowTheLayout() {
        let harness = Harness(layout: QWERTZTestLayout())
        let field = TextInputNode(identifier: "field")
        harness.window.addChild(field)
        _ = field.becomeFirstResponder()
        harness.keyboard.type("a b")
        harness.keyboard.tap(KeyChord(.y, .control))
        #expect(field.text.isEmpty, "KEY_Y types z here: undo")
        harness.keyboard.tap(KeyChord(.z, .control))
        #expect(field.text == "ab", "KEY_Z types y here: redo")
    }

    // MARK: Undo

    @Test(
        "undo steps: a typing run, a Backspace run, a Delete run, a paste; moving the cursor starts a new step",
        arguments: [
            ("", "h e l l o ctrl+z", "|"),
            ("", "h e l l o left x ctrl+z", "hell|o"),
            ("", "h e l l o left x ctrl+z ctrl+z", "|"),
            ("hello", "backspace backspace backspace ctrl+z", "hello|"),
            ("hello", "backspace backspace x ctrl+z", "hel|"),
            ("hello", "home delete delete ctrl+z", "|hello"),
            ("hello", "shift+left shift+left x y ctrl+z", "hel[lo]"),
            ("hello", "shift+left shift+left backspace backspace ctrl+z", "hel[lo]"),
            ("one two", "ctrl+backspace ctrl+backspace ctrl+z", "one two|"),
            ("hello", "h ctrl+z ctrl+shift+z", "helloh|"),
            ("hello", "x y ctrl+z ctrl+y", "helloxy|"),
            ("hello", "x ctrl+z z ctrl+y", "helloz|"),
            ("ab", "ctrl+z ctrl+y", "ab|"),
        ])
    func undoSteps(start: String, keys: String, expected: String) {
        let field = Field(text: start)
        field.harness.keyboard.type(keys)
        #expect(field.shown == expected, "\(keys) on \"\(start)\"")
    }

    @Test("undo and redo put back exactly what changed where characters join across an edit, and report the change")
    func undoJoiningCharacters() {
        let field = Field(text: "caf")
        var changes: [String] = []
        field.field.onTextChange = { changes.append($0) }
        field.harness.keyboard.tap("e")
        field.field.insertText("\u{301}")
        #expect(field.shown == "café|")
        field.field.undo()
        #expect(field.field.text == "cafe" && field.shown == "cafe|")
        field.field.undo()
        #expect(field.field.text == "caf" && field.shown == "caf|")
        field.field.redo()
        field.field.redo()
        #expect(field.field.text == "cafe\u{301}" && field.shown == "café|")
        field.harness.keyboard.tap("x")
        #expect(field.field.text == "cafe\u{301}x")
        #expect(!field.field.canRedo, "a new edit forgets what was undone")
        #expect(changes == ["cafe", "cafe\u{301}", "cafe", "caf", "cafe", "cafe\u{301}", "cafe\u{301}x"])
    }

    @Test("setting the text forgets the undo steps; the field keeps the last 100")
    func undoLimits() {
        let field = Field(text: "")
        field.harness.keyboard.type("a b")
        field.field.text = "reset"
        #expect(!field.field.canUndo)
        for _ in 0..<150 { field.harness.keyboard.type("x left") }
        var undone = 0
        while field.field.canUndo {
            field.field.undo()
            undone += 1
        }
        #expect(undone == 100)
        #expect(field.field.text == "reset" + String(repeating: "x", count: 50))
    }

    @Test("a held Ctrl+Z undoes step after step")
    func heldUndo() {
        let field = Field(text: "")
        field.harness.keyboard.type("a left b left c")
        field.harness.keyboard.press(.leftControl)
        field.harness.keyboard.press(.z)
        field.harness.keyboard.autoRepeat(.z, times: 1)
        field.harness.keyboard.release(.z)
        field.harness.keyboard.release(.leftControl)
        #expect(field.field.text == "a")
    }
}

@MainActor @Suite struct TextInputUndoPropertyTests {
    @Test(
        "random edits over joining characters: the count holds, undoing all gives the first text, redoing all the last",
        arguments: [1, 2, 3] as [UInt64])
    func undoRedoRoundTrip(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pieces = ["a", "b", " ", "e", "\u{301}", "\u{1F1FA}", "\u{1F1F8}", "\u{915}", "\u{93E}", "ß"]
        let keys = [
            "left", "right", "home", "end", "shift+left", "shift+right", "backspace", "delete", "ctrl+backspace", "a",
            "b", "space",
        ]
        for round in 0..<200 {
            let field = TextInputNodeTests.Field(text: "")
            field.field.pasteboard = Pasteboard()
            field.field.pasteboard.string = "b\u{301}"
            // A secure field shows the kept character count, so the check below can see it drift.
            field.field.isSecureTextEntry = round.isMultiple(of: 2)
            let first = (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            field.field.text = first.joined()
            for _ in 0..<40 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4: field.field.insertText(pieces.randomElement(using: &random)!)
                case 4..<8: field.harness.keyboard.tap(keys.randomElement(using: &random)!)
                case 8:
                    field.harness.keyboard.tap(["ctrl+a", "ctrl+x", "ctrl+c", "ctrl+v"].randomElement(using: &random)!)
                default: field.harness.keyboard.tap(Bool.random(using: &random) ? "ctrl+z" : "ctrl+y")
                }
                let count = field.field.text.count
                #expect(!field.field.isSecureTextEntry || field.field.displayText.count == count, "the count drifted")
                #expect(field.field.selectedRange.upperBound <= count && field.field.cursorPosition <= count)
            }
            // Steps undone at the end are still there to redo: the last text is the one after them.
            while field.field.canRedo { field.field.redo() }
            let last = field.field.text
            while field.field.canUndo { field.field.undo() }
            #expect(field.field.text == first.joined(), "round \(round) of seed \(seed)")
            while field.field.canRedo { field.field.redo() }
            #expect(field.field.text == last, "round \(round) of seed \(seed)")
        }
    }
}
