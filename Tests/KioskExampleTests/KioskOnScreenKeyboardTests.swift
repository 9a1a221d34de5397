import Graphics
import ResponderChain
import ResponderChainTesting
import Testing

@testable import KioskExample

/// The on-screen keyboard in the kiosk: shown for the name, the PIN and the search when no
/// keyboard is attached, typing through the app's dispatcher, in the tab loop between the fields
/// and the rest of the form.
@MainActor
@Suite struct KioskOnScreenKeyboardTests {
    @Test("the name field with no keyboard attached shows the letters; taps on its keys type \"Ada\"")
    func typesByTaps() throws {
        let kiosk = GraphicalKiosk()
        #expect(kiosk.keyboard.isHidden, "no field takes the keys on the home screen")
        kiosk.tap(kiosk.kiosk.tiles[0])  // Check in: focus goes to the name
        #expect(kiosk.kiosk.screen == .checkIn)
        #expect(kiosk.kiosk.window.firstResponder === kiosk.kiosk.nameField)
        #expect(!kiosk.keyboard.isHidden && kiosk.keyboard.page == .letters)
        // The keyboard is on the screen, under the form, clear of it.
        for node in [kiosk.kiosk.nameField, kiosk.kiosk.pinField, kiosk.kiosk.consent, kiosk.kiosk.submit]
            as [FocusNode]
        {
            #expect(!node.frame.intersects(kiosk.keyboard.frame), "\(node.traceName)")
        }
        var typed: [String] = []
        let observation = kiosk.app.dispatcher.addTraceObserver { record in
            if case .input(let event, _, _) = record.kind, event.device == kiosk.device {
                typed.append(record.description)
            }
        }
        defer { kiosk.app.dispatcher.removeTraceObserver(observation) }
        for name in ["shift", "A", "d", "a"] { kiosk.tap(try #require(kiosk.key(name), "key \(name)")) }
        #expect(kiosk.kiosk.nameField.text == "Ada")
        #expect(kiosk.kiosk.window.firstResponder === kiosk.kiosk.nameField, "the taps left the field first responder")
        #expect(typed.count == 2 * 3, "three keys of the keyboard's device, down and up: \(typed)")
    }

    @Test("the PIN gets the number pad, without previews (secure), at the trailing side under the PIN")
    func numberPadForPIN() throws {
        let kiosk = GraphicalKiosk()
        kiosk.tap(kiosk.kiosk.tiles[0])
        kiosk.tap(kiosk.kiosk.pinField)
        #expect(kiosk.keyboard.page == .numberPad)
        #expect(kiosk.keyboard.rows.joined().allSatisfy { !$0.showsPreviewForTests })
        #expect(kiosk.keyboard.frame.maxX == kiosk.kiosk.pinField.frame.maxX)
        #expect(kiosk.keyboard.frame.width < kiosk.kiosk.content.frame.width / 2)
        for digit in ["4", "7", "2", "1"] { kiosk.tap(try #require(kiosk.key(digit))) }
        #expect(kiosk.kiosk.pinField.text == "4721")
        #expect(kiosk.kiosk.pinField.displayText == "••••")
    }

    @Test("a keyboard attached: no on-screen keyboard; the form's frames stay where they were")
    func hardwareKeyboard() {
        let kiosk = GraphicalKiosk(hardwareKeyboard: true)
        kiosk.tap(kiosk.kiosk.tiles[0])
        let name = kiosk.kiosk.nameField.frame
        kiosk.tap(kiosk.kiosk.nameField)
        #expect(kiosk.keyboard.isHidden)
        #expect(kiosk.kiosk.nameField.frame == name)
        kiosk.app.keyboard.typeText("Ada")
        #expect(kiosk.kiosk.nameField.text == "Ada")
    }

    @Test(
        "Tab goes from the fields to the keyboard, then to the consent and Check in (the keyboard goes); Shift-Tab back"
    )
    func tabOrder() {
        let kiosk = GraphicalKiosk()
        kiosk.tap(kiosk.kiosk.tiles[0])
        kiosk.tap(kiosk.kiosk.nameField)
        let focus = kiosk.app.focusSystem
        kiosk.app.keyboard.tap("tab")
        #expect(focus.focusedItem === kiosk.kiosk.pinField)
        kiosk.app.keyboard.tap("tab")
        #expect(
            focus.focusedItem is KeyNode, "the keyboard after the fields: \(focus.focusedItem?.focusDebugName ?? "")")
        #expect(kiosk.kiosk.window.firstResponder === kiosk.kiosk.pinField, "walking the keys keeps the PIN's")
        kiosk.app.keyboard.tap("tab")
        #expect(focus.focusedItem === kiosk.kiosk.consent)
        #expect(kiosk.keyboard.isHidden, "no field takes the keys: the keyboard goes")
        kiosk.app.keyboard.tap("shift+tab")
        #expect(focus.focusedItem === kiosk.kiosk.pinField)
        #expect(!kiosk.keyboard.isHidden && kiosk.keyboard.page == .numberPad)
        kiosk.app.keyboard.tap("shift+tab")
        #expect(focus.focusedItem === kiosk.kiosk.nameField)
        #expect(kiosk.keyboard.page == .letters)
    }

    @Test("the search gets the keyboard too, and the list shortens over it")
    func search() {
        let kiosk = GraphicalKiosk()
        kiosk.tap(kiosk.kiosk.navigation[.directory]!)
        let list = kiosk.kiosk.list.frame
        kiosk.tap(kiosk.kiosk.search)
        #expect(!kiosk.keyboard.isHidden)
        #expect(kiosk.kiosk.list.frame.height < list.height)
        #expect(kiosk.kiosk.list.frame.maxY <= kiosk.keyboard.frame.minY)
        for name in ["k", "i", "m"] { kiosk.tap(kiosk.key(name)!) }
        #expect(kiosk.kiosk.search.text == "kim")
        #expect(kiosk.kiosk.rows.filter { !$0.isHidden }.allSatisfy { $0.entry.line.lowercased().contains("kim") })
    }
}
