import ResponderChain
import Testing

@MainActor @Suite struct KeyCodeTests {
    @Test(
        "W3C names, kernel names and HID usages map to the evdev code",
        arguments: [
            (KeyCode.a, "KeyA", "KEY_A", HIDUsage(page: 7, usage: 0x04)),
            (KeyCode.z, "KeyZ", "KEY_Z", HIDUsage(page: 7, usage: 0x1D)),
            (KeyCode.digit1, "Digit1", "KEY_1", HIDUsage(page: 7, usage: 0x1E)),
            (KeyCode.digit0, "Digit0", "KEY_0", HIDUsage(page: 7, usage: 0x27)),
            (KeyCode.tab, "Tab", "KEY_TAB", HIDUsage(page: 7, usage: 0x2B)),
            (KeyCode.return, "Enter", "KEY_ENTER", HIDUsage(page: 7, usage: 0x28)),
            (KeyCode.leftArrow, "ArrowLeft", "KEY_LEFT", HIDUsage(page: 7, usage: 0x50)),
            (KeyCode.upArrow, "ArrowUp", "KEY_UP", HIDUsage(page: 7, usage: 0x52)),
            (KeyCode.leftShift, "ShiftLeft", "KEY_LEFTSHIFT", HIDUsage(page: 7, usage: 0xE1)),
            (KeyCode.rightMeta, "MetaRight", "KEY_RIGHTMETA", HIDUsage(page: 7, usage: 0xE7)),
            (KeyCode.f24, "F24", "KEY_F24", HIDUsage(page: 7, usage: 0x73)),
            (KeyCode.keypadEnter, "NumpadEnter", "KEY_KPENTER", HIDUsage(page: 7, usage: 0x58)),
            (KeyCode.intlBackslash, "IntlBackslash", "KEY_102ND", HIDUsage(page: 7, usage: 0x64)),
            (KeyCode.back, "BrowserBack", "KEY_BACK", HIDUsage(page: 0x0C, usage: 0x224)),
        ])
    func identities(code: KeyCode, w3c: String, evdev: String, hid: HIDUsage) {
        #expect(code.name == w3c)
        #expect(code.evdevName == evdev)
        #expect(code.hidUsage == hid)
        #expect(KeyCode(name: w3c) == code)
        #expect(KeyCode(name: evdev) == code)
        #expect(KeyCode(hidUsage: hid) == code)
    }

    @Test("every key in the table round-trips through its name and its HID usage")
    func tableRoundTrips() {
        #expect(KeyCode.allNamed.count > 140)
        for code in KeyCode.allNamed {
            #expect(KeyCode(name: code.name) == code, "\(code.rawValue)")
            if let usage = code.hidUsage { #expect(KeyCode(hidUsage: usage) == code, "\(code.name)") }
        }
    }

    @Test("keys outside the table are named by number and parse back")
    func unnamedKeys() {
        let code = KeyCode(700)
        #expect(code.name == "evdev700")
        #expect(code.hidUsage == nil)
        #expect(KeyCode(name: "evdev700") == code)
        #expect(KeyCode(name: "NoSuchKey") == nil)
        #expect(KeyCode(name: "KEY_OK") == .ok)
    }

    @Test("the ISO #~ usage maps to KEY_BACKSLASH as the Linux HID driver does")
    func isoHash() {
        #expect(KeyCode(hidUsage: HIDUsage(page: 7, usage: 0x32)) == .backslash)
    }

    @Test("function keys F1 to F24 follow the kernel's three blocks")
    func functionKeys() {
        #expect(KeyCode.function(1) == .f1)
        #expect(KeyCode.function(10) == .f10)
        #expect(KeyCode.function(11) == .f11)
        #expect(KeyCode.function(12) == .f12)
        #expect(KeyCode.function(13) == .f13)
        #expect(KeyCode.function(24) == .f24)
        #expect(KeyCode.function(0) == nil)
        #expect(KeyCode.function(25) == nil)
    }

    @Test("modifier, lock and keypad classification")
    func classification() {
        #expect(KeyCode.leftShift.isModifier && KeyCode.capsLock.isModifier && KeyCode.rightAlt.isModifier)
        #expect(!KeyCode.a.isModifier && !KeyCode.tab.isModifier)
        #expect(KeyCode.keypad7.isKeypad && KeyCode.keypadEnter.isKeypad && KeyCode.keypadDivide.isKeypad)
        #expect(!KeyCode.digit7.isKeypad && !KeyCode.return.isKeypad)
        #expect(KeyCode.rightMeta.heldModifier == .command)
        #expect(KeyCode.capsLock.heldModifier == nil)
    }

    @Test("modifier flags use UIKit's bit values and print in a fixed order")
    func modifierFlags() {
        #expect(ModifierFlags.alphaShift.rawValue == 1 << 16)
        #expect(ModifierFlags.command.rawValue == 1 << 20)
        #expect(ModifierFlags([.command, .shift, .control]).description == "ctrl+shift+cmd")
    }
}
