import ResponderChain
import ResponderChainTesting
import Testing

/// Text as an input value: `InputEvent.text` through a dispatcher's `receive`, as a terminal's
/// paste and later an input method's commit arrive.
@MainActor @Suite struct TextInputEventTests {
    /// The records about inserted text: how many characters, where, and whether masked.
    func insertions(_ trace: TraceRecorder) -> [(characters: Int, into: String?, secure: Bool)] {
        trace.records.compactMap { record in
            guard case .textInserted(let count, let target) = record.kind else { return nil }
            return (count, target?.name, record.isSecureEntry)
        }
    }

    @Test("text through the sink reaches the first responder's text input; the trace says how many characters where")
    func reachesTextInput() throws {
        let harness = Harness()
        let field = TextInputNode(identifier: "name")
        harness.window.addChild(field)
        _ = field.becomeFirstResponder()
        harness.trace.clear()
        let sink: any InputSink = harness.dispatcher
        sink.receive(.text("Café 42", device: DeviceID(rawValue: 3), timestamp: 7.5))
        #expect(field.text == "Café 42")
        let inserted = insertions(harness.trace)
        try #require(inserted.count == 1)
        #expect(inserted[0].characters == 7 && inserted[0].into == "name" && !inserted[0].secure)
        let record = harness.trace.records.first { if case .textInserted = $0.kind { true } else { false } }
        #expect(record?.timestamp == 7.5)
        #expect(harness.trace.lines.contains("text inserted: 7 characters into name"))
        #expect(!harness.trace.lines.joined().contains("Café"), "the trace never holds the text")
    }

    @Test("text into a secure field is inserted, and its record is marked secure")
    func secureField() throws {
        let harness = Harness()
        let pin = TextInputNode(identifier: "pin")
        pin.isSecureTextEntry = true
        harness.window.addChild(pin)
        _ = pin.becomeFirstResponder()
        harness.trace.clear()
        harness.dispatcher.receive(.text("1234", device: .primary, timestamp: 1))
        #expect(pin.text == "1234")
        let inserted = insertions(harness.trace)
        try #require(inserted.count == 1)
        #expect(inserted[0].characters == 4 && inserted[0].into == "pin" && inserted[0].secure)
        #expect(harness.dispatcher.isSecureEntry, "the secure field is still first responder")
    }

    @Test("text with no text input first responder is dropped, and the trace reports it dropped")
    func droppedWithoutTextInput() throws {
        let harness = Harness()
        let button = RecordingResponder("button", canBecomeFirstResponder: true)
        harness.window.addChild(button)
        let field = TextInputNode(identifier: "field")
        harness.window.addChild(field)
        #expect(button.becomeFirstResponder())
        harness.dispatcher.receive(.text("lost", device: .primary, timestamp: 1))
        #expect(field.text.isEmpty)
        #expect(button.log.isEmpty, "nothing reaches a responder that is not a text input")
        // No first responder at all.
        #expect(button.resignFirstResponder() && harness.window.firstResponder == nil)
        harness.dispatcher.receive(.text("gone", device: .primary, timestamp: 2))
        #expect(field.text.isEmpty)
        let inserted = insertions(harness.trace)
        #expect(inserted.map(\.characters) == [4, 4] && inserted.allSatisfy { $0.into == nil })
        #expect(harness.trace.lines.filter { $0 == "text inserted: 4 characters dropped (no text input)" }.count == 2)
    }

    @Test("key and text values keep their order through the sink")
    func ordering() throws {
        let harness = Harness()
        let field = TextInputNode(identifier: "field")
        harness.window.addChild(field)
        _ = field.becomeFirstResponder()
        let inputs: [InputEvent] = [
            .key(KeyEvent(.a, .down, timestamp: 1)), .key(KeyEvent(.a, .up, timestamp: 1.1)),
            .text("XY", device: .primary, timestamp: 2),
            .key(KeyEvent(.b, .down, timestamp: 3)),
            .text("Z", device: .primary, timestamp: 3.5),
            .key(KeyEvent(.b, .up, timestamp: 4)),
        ]
        for input in inputs { harness.dispatcher.receive(input) }
        #expect(field.text == "aXYbZ")
        let timestamps = harness.trace.records.filter {
            if case .textInserted = $0.kind { true } else { false }
        }.map(\.timestamp)
        #expect(timestamps == [2, 3.5])
    }
}
