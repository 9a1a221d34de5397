import Accessibility
import ResponderChain
import ResponderChainTesting
import Testing

@testable import KioskExample

/// The kiosk example's own tree, by ear: what its narrator says on each screen, driven by keys
/// through the real dispatcher and focus system (the end-to-end test hears the same through a
/// real speech-dispatcher).
@MainActor @Suite struct KioskNarrationTests {
    /// The kiosk at its home screen, a harness on it, and a narrator speaking into a list.
    func narrated() -> (Kiosk, AppHarness, Narrator, SpokenList) {
        let kiosk = Kiosk()
        let app = AppHarness(window: kiosk.window, root: kiosk.root)
        kiosk.activeKeyCommands = { app.dispatcher.discoverableKeyCommands() }
        let narrator = Narrator(window: kiosk.window, focusSystem: app.focusSystem, dispatcher: app.dispatcher)
        let list = SpokenList()
        narrator.output = list
        return (kiosk, app, narrator, list)
    }

    @Test("home: where am I names the first tile, its place among the six and its subtitle")
    func home() {
        let (kiosk, app, narrator, list) = narrated()
        defer { withExtendedLifetime((kiosk, narrator)) {} }
        narrator.speakFocusedItem()
        #expect(list.texts == ["Check in, button, 1 of 6, appointments"])
        app.keyboard.tap("right")
        #expect(list.texts.last == "Directory, button, 2 of 6, people, rooms")
        app.keyboard.tap("tab")
        #expect(list.texts.last == "Menu, Home, button, selected, 1 of 3", "the menu says which screen shows")
    }

    @Test("check-in by ear: name, PIN as dots, consent, the dialog; confirming says one announcement and one move")
    func checkIn() {
        let (kiosk, app, narrator, list) = narrated()
        defer { withExtendedLifetime((kiosk, narrator)) {} }
        app.keyboard.tap("return")
        #expect(list.texts.last == "Check in, Name, text field, 1 of 4", "the screen's name as the group entered")
        app.keyboard.typeText("Ada")
        #expect(Array(list.texts.suffix(3)) == ["A", "d", "a"])
        app.keyboard.tap("tab")
        #expect(list.texts.last == "PIN, secure text field, 2 of 4")
        app.keyboard.typeText("4721")
        #expect(Array(list.spoken.suffix(4)).allSatisfy { $0.text == "dot" && $0.isSecret })
        app.keyboard.tap("tab")
        #expect(list.texts.last == "I agree to be called by name in the waiting room, not checked, toggle, 3 of 4")
        app.keyboard.tap("space")
        #expect(list.texts.last == "checked")
        app.keyboard.tap("down")
        #expect(list.texts.last?.hasPrefix("Check in, button, 4 of 4") == true, "\(list.texts)")
        app.keyboard.tap("return")
        let dialog = Utterance("Check in as Ada?, dialog, Confirm, button, 1 of 2", kind: .modal, priority: .message)
        #expect(list.spoken.last == dialog)
        // Cancel, then again: the dialog opens on Confirm, its default, whichever was chosen last.
        app.keyboard.tap("right")
        app.keyboard.tap("return")
        #expect(list.texts.last == "Check in, Check in, button, 4 of 4", "back in the form: \(list.texts)")
        let count = list.spoken.count
        app.keyboard.tap("return")
        #expect(Array(list.spoken.dropFirst(count)) == [dialog])
        let before = list.spoken.count
        app.keyboard.tap("return")
        #expect(
            Array(list.spoken.dropFirst(before))
                == [
                    Utterance(
                        "Checked in: Ada. Please take a seat; we will call you.", kind: .announcement,
                        priority: .message),
                    Utterance("Home, Check in, button, 1 of 6, appointments", kind: .focus, priority: .text),
                ])
        // The PIN's digits are in no utterance, in any form.
        let words = list.texts.flatMap { $0.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) }
        for utterance in list.texts {
            #expect(!utterance.contains("4721") && !utterance.contains("4 7 2 1"), "\(utterance)")
        }
        #expect(!words.contains("7"), "7 is no position or count on these screens: \(list.texts)")
    }

    @Test("directory search by ear: the field's hint, its running count on where am I, the count on the way down")
    func search() {
        let (kiosk, app, narrator, list) = narrated()
        defer { withExtendedLifetime((kiosk, narrator)) {} }
        app.keyboard.tap("ctrl+f")
        #expect(list.texts.count == 1, "one move, one utterance: \(list.texts)")
        let field = try! #require(list.texts.last)
        #expect(
            field.hasPrefix("Directory, Search, text field, 1 of 241"),
            "the field is one of the screen's items: \(field)")
        #expect(field.hasSuffix("Down goes to the results; Escape closes the search"), "\(field)")
        app.keyboard.typeText("ada")
        narrator.speakFocusedItem()
        let count = try! #require(list.texts.last)
        #expect(count.hasPrefix("Search, ada, "), "\(count)")
        #expect(count.contains(" match, text field"), "\(count)")
        let before = list.spoken.count
        app.keyboard.tap("down")
        let said = Array(list.spoken.dropFirst(before))
        #expect(said.count == 2, "\(said)")
        #expect(said.first?.kind == .announcement && said.first?.text.hasSuffix("results") == true, "\(said)")
        #expect(said.last?.kind == .focus, "\(said)")
        app.keyboard.tap("escape")
        narrator.speakFocusedItem()
        #expect(list.texts.last?.hasSuffix("1 of 240") == true, "every row again: \(list.texts.last ?? "")")
    }

    @Test("the help overlay says its keys: the system keys, how to close it, how to hear the rest")
    func help() {
        let (kiosk, app, narrator, list) = narrated()
        defer { withExtendedLifetime((kiosk, narrator)) {} }
        app.keyboard.tap("f1")
        #expect(
            list.spoken.last
                == Utterance(
                    "Help: the keys, dialog, Tab: Move between the menu and the content. Arrows: Move inside an area. "
                        + "Return: Choose, Escape or F1 closes; Control Alt K reads the key commands aloud, Close, button",
                    kind: .modal, priority: .message))
        narrator.speakKeyCommands()
        #expect(list.texts.last?.hasPrefix("Key commands: Show or hide this help, F1") == true, "\(list.texts)")
        app.keyboard.tap("escape")
        #expect(list.texts.last == "Home, Check in, button, 1 of 6, appointments")
    }
}
