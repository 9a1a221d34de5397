import ResponderChain
import ResponderChainTesting
import Testing

@testable import Accessibility

/// Where a narrator's utterances go in these tests: a list, with the controls it was given.
@MainActor final class SpokenList: SpeechOutput {
    var spoken: [Utterance] = []
    var stops = 0
    var settings: [(rate: Int, volume: Int)] = []
    func speak(_ utterance: Utterance) { spoken.append(utterance) }
    func stopSpeaking() { stops += 1 }
    func apply(rate: Int, volume: Int) { settings.append((rate, volume)) }
    var texts: [String] { spoken.map(\.text) }
}

/// A check-in screen: a menu (a group labelled "Menu") of three buttons, the current one selected;
/// a form (a group labelled "Check in form") with a name field, a PIN field, a check box and a
/// submit button; a confirmation dialog, presented on demand.
@MainActor struct CheckInScreen {
    let window = Window(identifier: "kiosk")
    let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 80, height: 24))
    let menu = FocusNode(identifier: "menu", frame: Rect(x: 0, y: 0, width: 20, height: 24))
    let home = FocusNode(identifier: "home", frame: Rect(x: 0, y: 1, width: 20, height: 1), isFocusable: true)
    let directory = FocusNode(identifier: "directory", frame: Rect(x: 0, y: 3, width: 20, height: 1), isFocusable: true)
    let checkIn = FocusNode(identifier: "checkIn", frame: Rect(x: 0, y: 5, width: 20, height: 1), isFocusable: true)
    let form = FocusNode(identifier: "form", frame: Rect(x: 20, y: 0, width: 60, height: 24))
    let name = TextInputNode(identifier: "name", frame: Rect(x: 22, y: 2, width: 30, height: 1))
    let pin = TextInputNode(identifier: "pin", frame: Rect(x: 22, y: 4, width: 30, height: 1))
    let remember = FocusNode(identifier: "remember", frame: Rect(x: 22, y: 6, width: 30, height: 1), isFocusable: true)
    let submit = FocusNode(identifier: "submit", frame: Rect(x: 22, y: 8, width: 10, height: 1), isFocusable: true)
    let decoration = FocusNode(identifier: "logo", frame: Rect(x: 60, y: 8, width: 10, height: 1), isFocusable: true)
    let dialog = FocusNode(identifier: "dialog", frame: Rect(x: 30, y: 10, width: 30, height: 6))
    let yes = FocusNode(identifier: "yes", frame: Rect(x: 32, y: 14, width: 8, height: 1), isFocusable: true)
    let no = FocusNode(identifier: "no", frame: Rect(x: 44, y: 14, width: 8, height: 1), isFocusable: true)

    init() {
        window.addChild(root)
        root.addChild(menu)
        root.addChild(form)
        menu.focusGroupIdentifier = "menu"
        menu.accessibilityLabel = "Menu"
        form.focusGroupIdentifier = "form"
        form.accessibilityLabel = "Check in form"
        for (button, title) in [(home, "Home"), (directory, "Directory"), (checkIn, "Check in")] {
            button.accessibilityLabel = title
            button.primaryAction = "open"
            menu.addChild(button)
        }
        home.accessibilityTraits.insert(.selected)
        name.accessibilityLabel = "Name"
        pin.accessibilityLabel = "PIN"
        pin.isSecureTextEntry = true
        remember.accessibilityLabel = "Remember me"
        remember.accessibilityTraits = .toggle
        remember.accessibilityValue = "not checked"
        submit.accessibilityLabel = "Check in"
        submit.primaryAction = "submit"
        submit.accessibilityHint = "Checks you in for your appointment"
        decoration.isAccessibilityElement = false
        for node in [name, pin, remember, submit, decoration] { form.addChild(node) }
        dialog.accessibilityLabel = "Confirm check-in"
        dialog.accessibilityTraits = .modal
        dialog.focusGroupIdentifier = "dialog"
        dialog.isHidden = true
        yes.accessibilityLabel = "Yes"
        yes.primaryAction = "confirm"
        no.accessibilityLabel = "No"
        no.primaryAction = "cancel"
        dialog.addChild(yes)
        dialog.addChild(no)
        root.addChild(dialog)
        root.keyCommands = [KeyCommand("f", modifierFlags: .control, action: "search", title: "Search")]
        root.performableActions = ["search"]
    }
}

@MainActor @Suite struct NarratorTests {
    /// The screen, its harness and a narrator speaking into a list.
    func narrated() -> (CheckInScreen, AppHarness, Narrator, SpokenList) {
        let screen = CheckInScreen()
        let app = AppHarness(window: screen.window, root: screen.root)
        let narrator = Narrator(window: screen.window, focusSystem: app.focusSystem, dispatcher: app.dispatcher)
        let list = SpokenList()
        narrator.output = list
        return (screen, app, narrator, list)
    }

    @Test("defaults from the tree: a node with a primary action is a button, a field a text field; set traits win")
    func defaults() {
        let screen = CheckInScreen()
        #expect(screen.directory.accessibilityTraits == .button)
        #expect(screen.home.accessibilityTraits == [.button, .selected])
        #expect(screen.name.accessibilityTraits == .textField)
        #expect(screen.remember.accessibilityTraits == .toggle)
        #expect(screen.menu.accessibilityTraits.isEmpty && !screen.menu.isAccessibilityElement)
        #expect(screen.directory.isAccessibilityElement && !screen.decoration.isAccessibilityElement)
        screen.name.text = "Ada"
        #expect(screen.name.accessibilityValue == "Ada")
        screen.pin.text = "1234"
        #expect(screen.pin.accessibilityValue == "4 characters", "a secure field never gives its characters")
        screen.pin.text = "1"
        #expect(screen.pin.accessibilityValue == "1 character")
        screen.pin.text = ""
        #expect(screen.pin.accessibilityValue == nil, "an empty secure field has no value to speak")
        screen.name.accessibilityValue = "set by the app"
        #expect(screen.name.accessibilityValue == "set by the app")
    }

    @Test("a focus move speaks the item: label, value, role, state, position in its group, hint")
    func focusMove() {
        let (screen, app, narrator, list) = narrated()
        #expect(app.focusSystem.isFocused(screen.home))
        narrator.speakFocusedItem()
        app.keyboard.tap("down")
        app.keyboard.tap("down")
        #expect(
            list.texts == ["Home, button, selected, 1 of 3", "Directory, button, 2 of 3", "Check in, button, 3 of 3"])
        #expect(list.spoken.allSatisfy { $0.kind == .focus && $0.priority == .text })
        #expect(
            narrator.description(of: screen.submit) == "Check in, button, 4 of 4, Checks you in for your appointment")
        #expect(narrator.description(of: screen.remember) == "Remember me, not checked, toggle, 3 of 4")
    }

    @Test("entering another group speaks its label first; moving inside it does not")
    func groupEntry() {
        let (screen, app, narrator, list) = narrated()
        defer { withExtendedLifetime(narrator) {} }
        app.keyboard.tap("tab")
        #expect(app.focusSystem.isFocused(screen.name))
        app.keyboard.tap("tab")
        #expect(list.texts == ["Check in form, Name, text field, 1 of 4", "PIN, secure text field, 2 of 4"])
    }

    @Test("typing echoes what went in or out; a secure field says dot and never its characters")
    func typing() {
        let (screen, app, narrator, list) = narrated()
        defer { withExtendedLifetime(narrator) {} }
        app.keyboard.tap("tab")
        list.spoken.removeAll()
        app.keyboard.type("shift+a space b backspace")
        #expect(list.texts == ["A", "space", "b", "b deleted"])
        app.keyboard.tap("ctrl+z")
        #expect(list.texts.last == "b", "undo says what came back")
        #expect(list.spoken.allSatisfy { $0.kind == .typing && $0.priority == .text })
        app.keyboard.tap("tab")
        list.spoken.removeAll()
        app.keyboard.type("1 2 backspace")
        #expect(list.texts == ["dot", "dot", "dot deleted"])
        #expect(list.spoken.allSatisfy { $0.isSecret }, "a trace shows them as •")
        #expect(screen.pin.text == "1")
        app.keyboard.tap("shift+tab")
        app.keyboard.tap("tab")
        #expect(list.texts.last == "PIN, 1 character, secure text field, 2 of 4")
        let echoes = list.spoken.filter { $0.kind == .typing }.map(\.text)
        #expect(!echoes.contains { $0.contains("1") || $0.contains("2") }, "a PIN digit was echoed: \(echoes)")
    }

    @Test("a dialog presented speaks its title and first item as one message; dismissed, focus returns and speaks")
    func modal() {
        let (screen, app, narrator, list) = narrated()
        defer { withExtendedLifetime(narrator) {} }
        screen.dialog.isHidden = false
        app.focusSystem.presentModal(screen.dialog)
        app.focusSystem.updateFocusIfNeeded()
        #expect(list.spoken.count == 1)
        #expect(
            list.spoken.first
                == Utterance("Confirm check-in, dialog, Yes, button, 1 of 2", kind: .modal, priority: .message))
        app.keyboard.tap("right")
        #expect(list.texts.last == "No, button, 2 of 2")
        app.focusSystem.dismissModal(screen.dialog)
        screen.dialog.isHidden = true
        app.focusSystem.updateFocusIfNeeded()
        #expect(list.texts.last == "Menu, Home, button, selected, 1 of 3", "focus entered the menu from the dialog")
        #expect(list.spoken.count == 3)
    }

    @Test(
        "a dialog that moves no focus is still spoken once: around the focused item, with nothing to focus, or a silent first item"
    )
    func modalWithoutFocusMove() {
        let (screen, app, narrator, list) = narrated()
        defer { withExtendedLifetime(narrator) {} }
        // Around the focused item: the dialog's words and the item, once.
        let sure = FocusNode(identifier: "sure", frame: Rect(x: 30, y: 10, width: 20, height: 3))
        sure.accessibilityLabel = "Are you sure?"
        sure.accessibilityHint = "Escape goes back"
        let go = FocusNode(identifier: "go", frame: Rect(x: 31, y: 11, width: 4, height: 1), isFocusable: true)
        go.accessibilityLabel = "Go"
        go.primaryAction = "go"
        sure.addChild(go)
        screen.root.addChild(sure)
        _ = app.focusSystem.requestFocus(on: go)
        app.focusSystem.updateFocusIfNeeded()
        list.spoken.removeAll()
        app.focusSystem.presentModal(sure)
        #expect(
            list.spoken
                == [Utterance("Are you sure?, dialog, Escape goes back, Go, button", kind: .modal, priority: .message)])
        app.focusSystem.dismissModal(sure)
        #expect(list.spoken.count == 1, "dismissed with focus staying: nothing more")
        app.focusSystem.presentModal(sure)
        #expect(list.texts == Array(repeating: "Are you sure?, dialog, Escape goes back, Go, button", count: 2))
        app.focusSystem.dismissModal(sure)
        _ = app.focusSystem.requestFocus(on: screen.submit)
        app.focusSystem.updateFocusIfNeeded()
        // Nothing inside to focus: "Please wait, dialog", and nothing when it goes.
        list.spoken.removeAll()
        let wait = FocusNode(identifier: "wait", frame: Rect(x: 30, y: 10, width: 20, height: 3))
        wait.accessibilityLabel = "Please wait"
        wait.accessibilityValue = "Printing your ticket"
        screen.root.addChild(wait)
        app.focusSystem.presentModal(wait)
        #expect(
            list.spoken == [Utterance("Please wait, dialog, Printing your ticket", kind: .modal, priority: .message)])
        app.focusSystem.dismissModal(wait)
        #expect(list.texts.count == 2 && list.texts[1].hasPrefix("Check in form, Check in, button"), "\(list.texts)")
        // A first item that is not an element: the dialog alone.
        list.spoken.removeAll()
        let notice = FocusNode(identifier: "notice", frame: Rect(x: 30, y: 10, width: 20, height: 3))
        notice.accessibilityLabel = "Card declined"
        let ok = FocusNode(identifier: "ok", frame: Rect(x: 31, y: 11, width: 4, height: 1), isFocusable: true)
        ok.isAccessibilityElement = false
        notice.addChild(ok)
        screen.root.addChild(notice)
        app.focusSystem.presentModal(notice)
        #expect(list.spoken == [Utterance("Card declined, dialog", kind: .modal, priority: .message)])
    }

    @Test("a dialog presented from inside a focus update is spoken once, with its first item, once focus is in it")
    func modalFromFocusChange() {
        let (screen, app, narrator, list) = narrated()
        defer { withExtendedLifetime(narrator) {} }
        screen.dialog.isHidden = false
        let focusSystem = app.focusSystem
        screen.checkIn.onFocusChange = { [unowned focusSystem] focused in
            if focused { focusSystem.presentModal(screen.dialog) }
        }
        _ = focusSystem.requestFocus(on: screen.checkIn)
        #expect(focusSystem.focusedItem === screen.yes, "focus went on into the dialog")
        #expect(
            list.spoken == [
                Utterance("Confirm check-in, dialog, Yes, button, 1 of 2", kind: .modal, priority: .message)
            ])
    }

    @Test("speech off with a watcher: each change described to onUtterance only; the output and repeat get nothing")
    func describedWhileSilent() {
        let (screen, app, narrator, list) = narrated()
        var watched: [Utterance] = []
        narrator.onUtterance = { watched.append($0) }
        var watching = true
        narrator.describesWhileSilent = { watching }
        _ = app.focusSystem.requestFocus(on: screen.name)
        app.focusSystem.updateFocusIfNeeded()
        narrator.setEnabled(false)
        list.spoken.removeAll()
        watched.removeAll()
        app.keyboard.tap("tab")
        app.keyboard.type("4")
        screen.window.postAccessibilityNotification(.announcement("Welcome"))
        #expect(list.spoken.isEmpty)
        #expect(watched.map(\.text) == ["PIN, secure text field, 2 of 4", "dot", "Welcome"])
        #expect(watched[1].isSecret)
        narrator.repeatLast()
        #expect(list.spoken.isEmpty && watched.count == 3, "repeat is the listener's, who hears nothing")
        watching = false
        app.keyboard.tap("tab")
        #expect(watched.count == 3)
    }

    @Test("an announcement is spoken whole as a message, which a focus move does not cut off")
    func announcement() {
        let (screen, app, narrator, list) = narrated()
        screen.window.postAccessibilityNotification(.announcement("Checked in. Please take a seat."))
        app.keyboard.tap("down")
        #expect(
            list.spoken == [
                Utterance("Checked in. Please take a seat.", kind: .announcement, priority: .message),
                Utterance("Directory, button, 2 of 3", kind: .focus, priority: .text),
            ])
        #expect(list.spoken[0].priority > list.spoken[1].priority, "speech-dispatcher never cancels a message for text")
        narrator.announce("")
        #expect(list.spoken.count == 2, "an empty announcement says nothing")
    }

    @Test("one change is spoken once: focus asked again for the focused item says nothing")
    func nothingTwice() {
        let (screen, app, narrator, list) = narrated()
        defer { withExtendedLifetime(narrator) {} }
        app.keyboard.tap("down")
        _ = app.focusSystem.requestFocus(on: screen.directory)
        app.focusSystem.updateFocusIfNeeded()
        app.focusSystem.setNeedsFocusUpdate(on: screen.directory)
        app.focusSystem.updateFocusIfNeeded()
        #expect(list.texts == ["Directory, button, 2 of 3"])
    }

    @Test("an item that is not an accessibility element is not spoken and not counted")
    func notAnElement() {
        let (screen, app, narrator, list) = narrated()
        _ = app.focusSystem.requestFocus(on: screen.decoration)
        app.focusSystem.updateFocusIfNeeded()
        #expect(app.focusSystem.isFocused(screen.decoration))
        #expect(list.spoken.isEmpty)
        #expect(narrator.description(of: screen.submit).contains("4 of 4"))
    }

    @Test("the listener's controls: repeat, stop, key commands read aloud, speech off and on, rate and volume")
    func controls() {
        let (_, app, narrator, list) = narrated()
        app.keyboard.tap("down")
        narrator.repeatLast()
        #expect(list.texts == ["Directory, button, 2 of 3", "Directory, button, 2 of 3"])
        narrator.stopSpeaking()
        #expect(list.stops == 1)
        narrator.speakKeyCommands()
        let commands = list.spoken.last
        #expect(commands?.kind == .keyCommands && commands?.priority == .text)
        #expect(commands?.text.hasPrefix("Key commands: ") == true)
        #expect(commands?.text.contains("Search, Control F") == true)
        narrator.setEnabled(false)
        #expect(list.spoken.last == Utterance("Speech off", kind: .control, priority: .important))
        let count = list.spoken.count
        app.keyboard.tap("down")
        narrator.repeatLast()
        #expect(list.spoken.count == count, "nothing is said while speech is off")
        narrator.setEnabled(true)
        #expect(list.texts.suffix(2) == ["Speech on", "Check in, button, 3 of 3"], "then where the listener is")
        #expect(list.stops == 2, "speech off stopped what was waiting first")
        narrator.adjustRate(by: 30)
        narrator.adjustRate(by: 100)
        narrator.adjustVolume(by: -20)
        #expect(list.texts.suffix(3) == ["Rate 30", "Rate 100", "Volume 80"])
        narrator.repeatLast()
        #expect(
            list.texts.last == "Check in, button, 3 of 3", "repeat says what the app said, not the listener's changes")
        #expect(list.settings.last.map { [$0.rate, $0.volume] } == [100, 80])
        #expect(narrator.rate == 100 && narrator.volume == 80)
    }

    @Test("an element's language goes with what is said about it")
    func language() {
        let (screen, app, narrator, list) = narrated()
        defer { withExtendedLifetime(narrator) {} }
        screen.directory.accessibilityLabel = "Wegweiser"
        screen.directory.accessibilityLanguage = "de"
        app.keyboard.tap("down")
        #expect(list.spoken.last?.language == "de")
        app.keyboard.tap("down")
        #expect(list.spoken.last?.language == nil)
    }

    @Test("without a label the item's name is spoken, so a missing label is heard while testing")
    func missingLabel() {
        let (screen, app, narrator, list) = narrated()
        defer { withExtendedLifetime(narrator) {} }
        screen.directory.accessibilityLabel = nil
        app.keyboard.tap("down")
        #expect(list.texts == ["directory, button, 2 of 3"])
    }

    @Test("shortcuts and edits in words")
    func words() {
        #expect(Narrator.spokenShortcut("Ctrl+Shift+F") == "Control Shift F")
        #expect(Narrator.spokenShortcut("↑") == "Up arrow")
        #expect(Narrator.spokenShortcut("Esc") == "Escape")
        #expect(Narrator.spokenShortcut("Ctrl++") == "Control plus")
        #expect(Narrator.echo(TextEdit(field: nil, inserted: "•••", removed: "", isSecure: true)) == "3 dots")
        #expect(Narrator.echo(TextEdit(field: nil, inserted: "", removed: "ab", isSecure: false)) == "ab deleted")
        #expect(Narrator.echo(TextEdit(field: nil, inserted: "", removed: "", isSecure: false)) == nil)
    }

    @Test("positions follow reading order: top to bottom, then leading edge first, right to left in an RTL group")
    func readingOrderPositions() {
        let window = Window(identifier: "w")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 30, height: 10))
        let row = FocusNode(identifier: "row", frame: Rect(x: 0, y: 0, width: 30, height: 1))
        row.focusGroupIdentifier = "row"
        row.layoutDirection = .rightToLeft
        // Added in tree order a, b, c from left to right; below them, d.
        let nodes = ["a", "b", "c"].enumerated().map { index, name in
            FocusNode(
                identifier: name, frame: Rect(x: Double(index) * 10, y: 0, width: 8, height: 1), isFocusable: true)
        }
        let below = FocusNode(identifier: "d", frame: Rect(x: 0, y: 2, width: 8, height: 1), isFocusable: true)
        window.addChild(root)
        root.addChild(row)
        for node in nodes + [below] { row.addChild(node) }
        let app = AppHarness(window: window, root: root)
        let positions = (nodes + [below]).map { app.focusSystem.accessibilityPosition(of: $0).map { [$0.0, $0.1] } }
        #expect(positions == [[3, 4], [2, 4], [1, 4], [4, 4]])
        below.isAccessibilityElement = false
        #expect(app.focusSystem.accessibilityPosition(of: below) == nil)
        #expect(app.focusSystem.accessibilityPosition(of: nodes[0]).map { [$0.0, $0.1] } == [3, 3])
        // Found again after each change: a frame moved (c goes below), an item hidden, one shown.
        nodes[2].frame = Rect(x: 0, y: 4, width: 8, height: 1)
        #expect(app.focusSystem.accessibilityPosition(of: nodes[2]).map { [$0.0, $0.1] } == [3, 3])
        #expect(app.focusSystem.accessibilityPosition(of: nodes[1]).map { [$0.0, $0.1] } == [1, 3])
        nodes[1].isHidden = true
        #expect(app.focusSystem.accessibilityPosition(of: nodes[0]).map { [$0.0, $0.1] } == [1, 2])
        below.isAccessibilityElement = true
        #expect(app.focusSystem.accessibilityPosition(of: below).map { [$0.0, $0.1] } == [2, 3])
    }

    @Test("back to an item after one that is not an element: spoken again; speech off: nothing built at all")
    func backAfterSilentItem() {
        let (screen, app, narrator, list) = narrated()
        _ = app.focusSystem.requestFocus(on: screen.submit)
        app.focusSystem.updateFocusIfNeeded()
        _ = app.focusSystem.requestFocus(on: screen.decoration)
        app.focusSystem.updateFocusIfNeeded()
        _ = app.focusSystem.requestFocus(on: screen.submit)
        app.focusSystem.updateFocusIfNeeded()
        #expect(list.texts.count == 2 && list.texts.allSatisfy { $0.contains("Check in, button") }, "\(list.texts)")
        narrator.setEnabled(false)
        list.spoken.removeAll()
        app.keyboard.tap("shift+tab")
        app.keyboard.tap("tab")
        #expect(list.spoken.isEmpty)
    }

    @Test("an observer removed by another while a notification is posted is not called")
    func observerRemovedDuringPost() {
        let window = Window(identifier: "w")
        var calls: [String] = []
        var second: UInt64 = 0
        window.addAccessibilityObserver { _ in
            calls.append("first")
            window.removeAccessibilityObserver(second)
        }
        second = window.addAccessibilityObserver { _ in calls.append("second") }
        window.postAccessibilityNotification(.announcement("hi"))
        window.postAccessibilityNotification(.announcement("again"))
        #expect(calls == ["first", "first"])
    }
}
