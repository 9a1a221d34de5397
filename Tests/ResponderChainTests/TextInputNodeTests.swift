import ResponderChain
import ResponderChainTesting
import Testing

@MainActor @Suite struct TextInputNodeTests {
    /// A window with one text field as first responder, and a trace.
    @MainActor struct Field {
        let harness = Harness()
        let field = TextInputNode(identifier: "field")

        init(text: String = "") {
            harness.window.addChild(field)
            _ = field.becomeFirstResponder()
            field.text = text
        }

        /// The text with the selection in brackets, or `|` at the cursor.
        var shown: String {
            var characters = field.text.map(String.init)
            let range = field.selectedRange
            if range.isEmpty {
                characters.insert("|", at: range.lowerBound)
            } else {
                characters.insert("]", at: range.upperBound)
                characters.insert("[", at: range.lowerBound)
            }
            return characters.joined()
        }
    }

    @Test(
        "the editing table: keys typed into a field give this text and selection",
        arguments: [
            ("", "h e l l o", "hello|"),
            ("hello", "left left x", "helx|lo"),
            ("hello", "home x end y", "xhelloy|"),
            ("hello", "backspace backspace", "hel|"),
            ("hello", "home delete", "|ello"),
            ("hello", "shift+left shift+left", "hel[lo]"),
            ("hello", "shift+left shift+left x", "helx|"),
            ("hello", "shift+home backspace", "|"),
            ("hello", "shift+left left", "hell|o"),
            ("hello", "home shift+right right", "h|ello"),
            ("one two three", "ctrl+left", "one two |three"),
            ("one two three", "ctrl+left ctrl+left", "one |two three"),
            ("one two three", "home ctrl+right", "one| two three"),
            ("one two three", "ctrl+backspace", "one two |"),
            ("one two three", "home ctrl+delete", "| two three"),
            ("one two three", "ctrl+shift+left", "one two [three]"),
            ("ab", "left left left backspace right right right delete", "ab|"),
            ("hello", "left left up x", "x|hello"),
            ("hello", "home right down x", "hellox|"),
            ("hello", "left left shift+up", "[hel]lo"),
            ("hello", "home right shift+down", "h[ello]"),
            ("hello", "shift+left shift+left up", "|hello"),
            ("hello", "home shift+right down", "hello|"),
        ])
    func editing(start: String, keys: String, expected: String) {
        let field = Field(text: start)
        field.harness.keyboard.type(keys)
        #expect(field.shown == expected, "\(keys) on \"\(start)\"")
    }

    @Test("keys it does not edit with go on: Tab moves focus, Escape and F-keys and ctrl chords reach the chain")
    func passesOn() {
        let field = Field(text: "hi")
        field.harness.keyboard.type("escape f7 ctrl+k")
        #expect(field.field.text == "hi")
        #expect(field.harness.trace.unhandledKeys.map(\.keyCode) == [.escape, .f7, .leftControl, .k])
    }

    @Test("Up and Down are the field's, as in UIKit: a window's plain command and an ancestor's presses never see them")
    func upAndDownStayInTheField() {
        let harness = Harness()
        let form = RecordingResponder("form", performs: ["next", "previous", "jump"])
        let field = TextInputNode(identifier: "field")
        harness.window.addChild(form)
        form.addChild(field)
        _ = field.becomeFirstResponder()
        field.text = "plate"
        harness.window.keyCommands = [
            KeyCommand(.downArrow, action: "next"), KeyCommand(.upArrow, modifierFlags: .shift, action: "previous"),
        ]
        harness.keyboard.type("left left down shift+up")
        harness.trace.expectNoKeyCommand()
        // Only the bare Shift, a press of its own, goes up the chain.
        let seen = harness.trace.presses(deliveredTo: form).map(\.key.keyCode).filter { !$0.isModifier }
        #expect(seen.isEmpty, "no ancestor sees Up or Down")
        #expect(harness.trace.unhandledKeys.map(\.keyCode) == [.leftShift])
        #expect(field.selectedRange == 0..<5 && field.cursorPosition == 0)
        harness.window.keyCommands = [KeyCommand(.downArrow, action: "jump", wantsPriorityOverSystemBehavior: true)]
        harness.keyboard.tap("down")
        harness.trace.expectKeyCommand("jump")
        #expect(form.performedActions == ["jump"], "a priority command still beats the field")
        #expect(field.selectedRange == 0..<5, "and the field did not move")
    }

    @Test("a field that joins its parent's focus group keeps Up and Down; Tab still leaves it for the next group")
    func arrowsDoNotLeaveAFieldInAGroup() {
        let h = FocusHarness()
        let form = h.node("form", 0, 0, 400, 400, focusable: false, group: "form")
        let field = TextInputNode(identifier: "field", frame: Rect(x: 0, y: 0, width: 200, height: 40))
        field.focusGroupKind = .none
        form.addChild(field)
        h.node("below", 0, 100, 200, 40, in: form)
        h.node("after", 0, 500, 200, 40)
        h.focus.requestFocus(on: field)
        field.text = "ab"
        h.keyboard.tap("down")
        #expect(h.focusedName == "field", "Down moved the caret, not focus")
        h.keyboard.type("up x")
        #expect(field.text == "xab")
        h.keyboard.tap("tab")
        #expect(h.focusedName == "after")
    }

    @Test("Return submits when there is a submit action, and otherwise goes on to key commands")
    func submit() {
        let harness = Harness()
        let form = RecordingResponder("form", performs: ["defaultButton"])
        let field = TextInputNode(identifier: "field")
        harness.window.addChild(form)
        form.addChild(field)
        _ = field.becomeFirstResponder()
        form.keyCommands = [KeyCommand(.return, action: "defaultButton")]
        field.text = "hi"
        harness.keyboard.tap("return")
        harness.trace.expectKeyCommand("defaultButton")
        var submitted: [String] = []
        field.onSubmit { [unowned field] in submitted.append(field.text) }
        harness.trace.clear()
        harness.keyboard.tap("return")
        #expect(submitted == ["hi"])
        harness.trace.expectStageTook(.textInput)
        harness.trace.expectNoKeyCommand()
    }

    @Test("a held editing key repeats its edit")
    func repeats() {
        let field = Field(text: "abcdef")
        field.harness.keyboard.press(.backspace)
        field.harness.keyboard.autoRepeat(.backspace, times: 3)
        field.harness.keyboard.release(.backspace)
        field.harness.keyboard.press(.x)
        field.harness.keyboard.autoRepeat(.x, times: 2)
        field.harness.keyboard.release(.x)
        #expect(field.field.text == "abxxx")
    }

    @Test("the length limit stops typing and pasting; a paste loses its line breaks and control characters")
    func limitAndPaste() {
        let field = Field()
        field.field.maximumLength = 6
        field.harness.keyboard.type("a b")
        field.field.insertText("c\nd\u{7}e\tfgh")
        #expect(field.field.text == "abc de")
        field.harness.keyboard.tap("z")
        #expect(field.field.text == "abc de")
        field.harness.keyboard.type("home shift+end")
        field.field.insertText("new")
        #expect(field.field.text == "new")
    }

    @Test("a combining mark joins the character before it: one character, and the cursor stays after it")
    func combiningMark() {
        let field = Field(text: "caf")
        field.harness.keyboard.tap("e")
        field.field.insertText("\u{301}")
        #expect(field.field.text == "cafe\u{301}")
        #expect(field.shown == "café|")
        field.harness.keyboard.type("x left backspace")
        #expect(field.field.text == "cafx")
    }

    @Test("marks that join across an edit keep the count right: spacing marks, flags meeting after a deletion")
    func joiningAcrossEdits() {
        // Found by review: the count drifted above text.count and Home, Delete, Delete trapped.
        let field = Field()
        field.field.insertText("\u{915}")
        field.field.insertText("\u{93E}")
        field.field.insertText("\u{93E}")
        #expect(field.field.text.count == 1)
        field.harness.keyboard.type("home delete delete")
        #expect(field.field.text.isEmpty && field.shown == "|")
        field.field.text = "\u{1F1FA}x\u{1F1F8}"
        field.harness.keyboard.type("left backspace")
        #expect(field.field.text == "\u{1F1FA}\u{1F1F8}")
        #expect(field.shown == "\u{1F1FA}\u{1F1F8}|", "the two indicators are one flag now")
        field.harness.keyboard.type("backspace")
        #expect(field.field.text.isEmpty)
    }

    @Test("a secure field shows a dot per character and edits like any other")
    func secure() {
        let field = Field()
        field.field.isSecureTextEntry = true
        field.harness.keyboard.type("1 2 3 4 backspace 5")
        #expect(field.field.text == "1235")
        #expect(field.field.displayText == "••••")
    }

    @Test("setting the text puts the cursor at its end; text changes are reported")
    func programmatic() {
        let field = Field()
        var changes: [String] = []
        field.field.onTextChange = { changes.append($0) }
        field.field.text = "preset"
        #expect(field.shown == "preset|")
        field.harness.keyboard.type("backspace x")
        #expect(changes == ["prese", "presex"])
    }
}
