import Accessibility
import Graphics
import ResponderChain
import ResponderChainTesting
import Testing
import XKBKeymap

/// A check-in form on a touch-only kiosk: a name field, a PIN field (secure, number pad), a
/// button, and the on-screen keyboard docked at the bottom.
@MainActor
struct CheckInForm {
    let window = Window(identifier: "window")
    let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
    let name: TextFieldNode
    let pin: TextFieldNode
    let done: ButtonNode
    let keyboard: OnScreenKeyboard
    let app: AppHarness
    let device = DeviceID(rawValue: 900)

    init(layout: any KeyboardLayout = USKeyboardLayout()) {
        window.addChild(root)
        name = TextFieldNode(label: "Name", identifier: "name", frame: Rect(x: 40, y: 40, width: 600, height: 96))
        pin = TextFieldNode(label: "PIN", identifier: "pin", frame: Rect(x: 680, y: 40, width: 300, height: 96))
        pin.isSecureTextEntry = true
        pin.keyboardType = .numberPad
        done = ButtonNode("Done", identifier: "done", frame: Rect(x: 1000, y: 60, width: 200, height: 76))
        for node in [name, pin, done] as [FocusNode] { root.addChild(node) }
        root.preferredFocusIdentifiers = ["done"]
        app = AppHarness(window: window, root: root, layout: layout)
        keyboard = OnScreenKeyboard(layout: layout, sink: app.dispatcher, device: device)
        keyboard.frame = Rect(x: 0, y: 420, width: 1280, height: 380)
        root.addChild(keyboard)
        keyboard.attach(to: app.focusSystem)
    }

    func key(_ name: String) -> KeyNode? {
        keyboard.rows.joined().first { $0.identifier == "key-" + name }
    }

    func tap(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let key = key(name) else {
            Issue.record("no key \(name) on \(keyboard.page)", sourceLocation: sourceLocation)
            return
        }
        app.pointer.tap(at: Point(x: key.frame.midX, y: key.frame.midY))
    }

    var labels: [[String]] { keyboard.rows.map { $0.compactMap(\.accessibilityLabel) } }
}

@MainActor
@Suite("OnScreenKeyboard: typed by touch and walked by arrows, on the active layout")
struct OnScreenKeyboardTests {
    @Test("hidden until a text field becomes first responder; then the letters of us, each key labelled")
    func showsForField() {
        let form = CheckInForm()
        #expect(form.keyboard.isHidden)
        form.app.pointer.tap(at: Point(x: 300, y: 100))
        #expect(form.window.firstResponder === form.name)
        #expect(!form.keyboard.isHidden)
        #expect(form.keyboard.target === form.name)
        #expect(form.labels[0].prefix(10) == ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p"])
        #expect(form.labels[1].prefix(9) == ["a", "s", "d", "f", "g", "h", "j", "k", "l"])
        #expect(form.labels[2] == ["shift", "z", "x", "c", "v", "b", "n", "m", "delete"])
        #expect(form.labels[3].contains("space") && form.labels[3].contains("hide keyboard"))
        for key in form.keyboard.rows.joined() {
            #expect(key.frame.width >= 44 && key.frame.height >= 44, "\(key.identifier ?? "") \(key.frame)")
        }
    }

    @Test("a keyboard attached keeps it hidden for a field reached by keys or a click; the app can still show it")
    func hardwareKeyboard() {
        let form = CheckInForm()
        form.keyboard.hasHardwareKeyboard = { true }
        form.app.pointer.click(at: Point(x: 300, y: 100))
        #expect(form.window.firstResponder === form.name)
        #expect(form.window.lastInteraction == .mouse)
        #expect(form.keyboard.isHidden)
        form.app.keyboard.tap("tab")
        form.app.focusSystem.setNeedsFocusUpdate(on: form.pin)
        form.app.focusSystem.updateFocusIfNeeded()
        #expect(form.window.firstResponder === form.pin)
        #expect(form.keyboard.isHidden, "a field focused after a key: the keyboard types")
        form.keyboard.show(for: form.name)
        #expect(!form.keyboard.isHidden)
    }

    @Test("an app that cannot tell (a compositor's seat): a finger on a field shows it, a key or a click does not")
    func fingerShowsIt() {
        let form = CheckInForm()
        form.keyboard.hasHardwareKeyboard = { nil }
        form.app.pointer.click(at: Point(x: 300, y: 100))
        #expect(form.window.firstResponder === form.name)
        #expect(form.keyboard.isHidden)
        form.app.pointer.click(at: Point(x: 1100, y: 100))
        form.app.pointer.tap(at: Point(x: 300, y: 100))
        #expect(form.window.lastInteraction == .touch)
        #expect(form.window.firstResponder === form.name)
        #expect(!form.keyboard.isHidden)
        // Its own keys are not the user's keyboard: tapping them keeps it shown for the next field.
        form.tap("a")
        #expect(form.window.lastInteraction == .touch)
        form.app.pointer.tap(at: Point(x: 800, y: 100))
        #expect(form.window.firstResponder === form.pin)
        #expect(!form.keyboard.isHidden && form.keyboard.page == .numberPad)
        // Hidden with its key, it comes back when a finger taps the field that is first responder.
        form.tap("hide")
        #expect(form.keyboard.isHidden)
        form.app.pointer.tap(at: Point(x: 800, y: 100))
        #expect(!form.keyboard.isHidden)
    }

    @Test(
        "a remote's Down from the field reaches the keyboard and Up comes back, in both navigation styles",
        arguments: [FocusSystem.NavigationStyle.keyboard, .directional])
    func reachedByArrows(style: FocusSystem.NavigationStyle) {
        let form = CheckInForm()
        form.app.focusSystem.navigationStyle = style
        form.app.pointer.tap(at: Point(x: 300, y: 100))
        form.tap("a")
        form.tap("b")
        #expect(form.name.inputView === form.keyboard)
        form.app.focusSystem.setNeedsFocusUpdate(on: form.name)
        form.app.focusSystem.updateFocusIfNeeded()
        form.app.keyboard.tap("left")
        #expect(form.name.cursorPosition == 1, "Left and Right still move the cursor")
        form.app.keyboard.tap("down")
        let key = form.app.focusSystem.focusedItem as? KeyNode
        #expect(key != nil && form.keyboard.rows.first?.contains { $0 === key } == true, "\(String(describing: key))")
        #expect(form.window.firstResponder === form.name)
        form.app.keyboard.tap("return")  // select types the key
        #expect(form.name.text.count == 3)
        form.app.keyboard.tap("up")
        #expect(form.app.focusSystem.focusedItem === form.name)
        #expect(form.name.cursorPosition == 2, "Up moved focus, not the cursor")
        // Hidden, the keyboard is no neighbour: Up and Down are the field's again.
        form.keyboard.hide()
        #expect(form.name.inputView == nil)
        form.app.keyboard.tap("down")
        #expect(form.app.focusSystem.focusedItem === form.name)
        #expect(form.name.cursorPosition == 3)
    }

    @Test("taps type through the dispatcher as keys of the keyboard's device: shift, space, backspace")
    func tapsType() {
        let form = CheckInForm()
        var inputs: [String] = []
        let observation = form.app.dispatcher.addTraceObserver { record in
            if case .input(let event, _, _) = record.kind, event.device == form.device {
                inputs.append(record.description)
            }
        }
        defer { form.app.dispatcher.removeTraceObserver(observation) }
        form.app.pointer.tap(at: Point(x: 300, y: 100))
        form.tap("shift")
        #expect(form.keyboard.page == .shifted)
        form.tap("A")
        #expect(form.keyboard.page == .letters, "shift lasts one character")
        for letter in ["d", "a", "x"] { form.tap(letter) }
        form.tap("backspace")
        form.tap("space")
        form.tap("l")
        #expect(form.name.text == "Ada l")
        #expect(form.window.firstResponder === form.name)
        #expect(inputs.count == 2 * 7, "\(inputs)")
        #expect(inputs.first?.contains("device900") == true)
    }

    @Test("arrows walk the keys (a focus group) and select types; the field stays first responder")
    func arrowsAndSelect() {
        let form = CheckInForm()
        form.app.pointer.tap(at: Point(x: 300, y: 100))
        #expect(form.window.firstResponder === form.name)
        // Tab reaches the keyboard's group when the app orders it after the field.
        form.keyboard.focusTraversalOrder = 2
        form.name.focusTraversalOrder = 1
        form.app.keyboard.tap("tab")
        #expect(form.app.focusSystem.focusedItem is KeyNode)
        #expect(form.window.firstResponder === form.name)
        form.app.focusSystem.setNeedsFocusUpdate(on: form.key("q")!)
        form.app.focusSystem.updateFocusIfNeeded()
        #expect(form.app.focusSystem.focusedItem === form.key("q"))
        #expect(form.window.firstResponder === form.name, "walking the keyboard keeps the field first responder")
        form.app.keyboard.tap("right")
        #expect(form.app.focusSystem.focusedItem === form.key("w"))
        form.app.keyboard.tap("down")
        #expect((form.app.focusSystem.focusedItem as? KeyNode)?.accessibilityLabel == "s")
        form.app.keyboard.tap("return")  // the select key
        form.app.keyboard.tap("left")
        form.app.keyboard.tap("return")
        #expect(form.name.text == "sa")
        #expect(form.window.firstResponder === form.name)
    }

    @Test("de: QWERTZ with ü, ö, ä and ß, typed into the field")
    func german() throws {
        let layout = try XKBKeyboardLayout(KeymapNames(layout: "de"))
        let form = CheckInForm(layout: layout)
        form.app.pointer.tap(at: Point(x: 300, y: 100))
        #expect(form.labels[0].prefix(6) == ["q", "w", "e", "r", "t", "z"])
        #expect(form.labels[0].contains("ü") && form.labels[0].contains("ß"))
        #expect(form.labels[1].contains("ö") && form.labels[1].contains("ä"))
        #expect(form.labels[2].contains("y"))
        for key in ["g", "r", "ü", "ß", "e"] { form.tap(key) }
        #expect(form.name.text == "grüße")
    }

    @Test("a number pad for a PIN: digits only; nothing secret in the trace; no key preview")
    func securePad() {
        let form = CheckInForm()
        var trace: [String] = []
        let observation = form.app.dispatcher.addTraceObserver { trace.append($0.description) }
        defer { form.app.dispatcher.removeTraceObserver(observation) }
        form.app.pointer.tap(at: Point(x: 800, y: 100))
        #expect(form.window.firstResponder === form.pin)
        #expect(form.keyboard.page == .numberPad)
        #expect(
            form.labels == [
                ["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["delete", "0", "return", "hide keyboard"],
            ])
        #expect(form.keyboard.rows.joined().allSatisfy { !$0.showsPreviewForTests })
        for digit in ["2", "7", "9", "4"] { form.tap(digit) }
        #expect(form.pin.text == "2794")
        let typing = trace.filter { $0.contains("device900") || $0.contains("key-") }
        #expect(!typing.isEmpty)
        for line in trace {
            for digit in ["2", "7", "9", "4"] {
                #expect(!line.contains("key-\(digit)"), "\(line)")
            }
            #expect(!line.contains("KEY_2") && !line.contains("KEY_7"), "\(line)")
        }
        // Walking the pad with arrows while the PIN is first responder: the keys it sends stay secret.
        form.app.focusSystem.setNeedsFocusUpdate(on: form.key("5")!)
        form.app.focusSystem.updateFocusIfNeeded()
        #expect(form.window.firstResponder === form.pin)
        trace.removeAll()
        form.app.keyboard.tap("return")
        #expect(form.pin.text == "27945")
        #expect(trace.allSatisfy { !$0.contains("KEY_5") }, "\(trace)")
    }

    @Test("hide keeps the field first responder; leaving the field hides the keyboard")
    func hiding() {
        let form = CheckInForm()
        var shown: [Bool] = []
        form.keyboard.onVisibilityChange = { shown.append($0) }
        form.app.pointer.tap(at: Point(x: 300, y: 100))
        form.tap("hide")
        #expect(form.keyboard.isHidden)
        #expect(form.window.firstResponder === form.name)
        form.app.pointer.tap(at: Point(x: 800, y: 100))
        #expect(!form.keyboard.isHidden && form.keyboard.page == .numberPad)
        form.app.pointer.tap(at: Point(x: 1100, y: 100))  // the Done button: no text field
        form.app.focusSystem.setNeedsFocusUpdate(on: form.done)
        form.app.focusSystem.updateFocusIfNeeded()
        #expect(form.window.firstResponder !== form.pin)
        #expect(form.keyboard.isHidden)
        #expect(shown == [true, false, true, false])
    }
}

@MainActor
@Suite("OnScreenKeyboard with a narrator")
struct OnScreenKeyboardNarrationTests {
    @Test("keys are spoken as focus reaches them; a PIN typed on the pad is spoken only as dots")
    func narration() {
        let form = CheckInForm()
        let narrator = Narrator(window: form.window, focusSystem: form.app.focusSystem, dispatcher: form.app.dispatcher)
        var spoken: [String] = []
        narrator.onUtterance = { spoken.append($0.text) }
        form.app.pointer.tap(at: Point(x: 300, y: 100))
        form.app.focusSystem.setNeedsFocusUpdate(on: form.key("q")!)
        form.app.focusSystem.updateFocusIfNeeded()
        #expect(spoken.last?.hasPrefix("q") == true, "\(spoken)")
        form.app.pointer.tap(at: Point(x: 800, y: 100))
        #expect(form.window.firstResponder === form.pin)
        spoken.removeAll()
        for digit in ["3", "1", "4", "1"] { form.tap(digit) }
        #expect(form.pin.text == "3141")
        #expect(!spoken.isEmpty)
        for text in spoken {
            #expect(text == "dot" || !text.contains(where: \.isNumber), "\(text)")
        }
        #expect(spoken.filter { $0 == "dot" }.count == 4, "\(spoken)")
        withExtendedLifetime(narrator) {}
    }
}

@MainActor
@Suite("Right to left: the keyboard keeps its keys' places, the caret follows the text's direction")
struct RightToLeftTypingTests {
    /// Text, cursor, the screen's direction, and the caret's x in a box from 100 to 400, each
    /// character 10 wide.
    nonisolated static let caretCases: [(String, Int, LayoutDirection, Double)] = [
        // English on an English screen: from the left edge.
        ("kim", 3, .leftToRight, 130),
        // English on a Hebrew screen: the block at the right, the caret after "m", at the right.
        ("kim", 3, .rightToLeft, 400), ("kim", 0, .rightToLeft, 370),
        // Hebrew on a Hebrew screen: after its last letter is its left end.
        ("שלום", 4, .rightToLeft, 360), ("שלום", 1, .rightToLeft, 390),
        // Hebrew on an English screen: the block at the left, the start at its right end.
        ("שלום", 0, .leftToRight, 140),
        // Digits alone are weak: the screen's direction decides.
        ("123", 3, .rightToLeft, 370),
    ]

    @Test("on a Hebrew screen the letters still read q w e … from the left (a keyboard is never mirrored)")
    func keyboardNotMirrored() {
        let form = CheckInForm()
        form.window.layoutDirection = .rightToLeft
        form.app.pointer.tap(at: Point(x: 300, y: 100))
        #expect(!form.keyboard.isHidden)
        for row in form.keyboard.rows {
            let byX = row.sorted { $0.frame.minX < $1.frame.minX }.compactMap(\.accessibilityLabel)
            #expect(byX == row.compactMap(\.accessibilityLabel))
        }
        #expect(form.keyboard.rows[0].first?.accessibilityLabel == "q")
        #expect(form.keyboard.rows[0].first!.frame.minX < form.keyboard.rows[0].last!.frame.minX)
    }

    @Test(
        "the caret after the cursor's characters in the text's own direction, in a block at the screen's leading side",
        arguments: RightToLeftTypingTests.caretCases)
    func caret(text: String, cursor: Int, direction: LayoutDirection, expected: Double) {
        let box = Rect(x: 100, y: 0, width: 300, height: 40)
        let x = TextFieldNode.caretX(text, cursor: cursor, in: box, direction: direction) { Double($0.count) * 10 }
        #expect(x == expected)
    }
}
