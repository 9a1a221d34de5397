import CXKBCommon
import Glibc
import ResponderChain
import Testing

@testable import XKBKeymap

/// The dispatcher's key state on an xkbcommon keymap, compared with xkbcommon driven directly:
/// keymap options, layout groups, levels, locks and dead keys behave as xkbcommon says.
@MainActor @Suite struct XKBKeyStateTests {
    /// What a key-down gave: our dispatcher's view and xkbcommon's, side by side.
    struct Typed: Equatable, CustomStringConvertible {
        var key: KeyCode
        var characters: String
        var modifiers: ModifierFlags
        var locks: LockState
        var description: String { "\(key) \(characters.debugDescription) \(modifiers) locks \(locks.rawValue)" }
    }

    /// Drives a dispatcher on the layout with key downs (`+`) and ups (`-`) and records every
    /// key-down's characters, modifiers and locks as the dispatcher reported them.
    static func dispatch(
        _ names: KeymapNames, _ keys: [(KeyCode, Bool)], locks: LockState = [], composeLocale: String? = nil
    ) throws -> (typed: [Typed], dispatcher: Dispatcher) {
        let window = Window(identifier: "w")
        let dispatcher = Dispatcher(window: window, layout: try XKBKeyboardLayout(names, composeLocale: composeLocale))
        dispatcher.setLocks(locks)
        var typed: [Typed] = []
        _ = dispatcher.addTraceObserver { record in
            if case .input(let event, let key, .pressed) = record.kind {
                typed.append(
                    Typed(
                        key: event.code, characters: key.characters,
                        modifiers: key.modifierFlags.subtracting(.numericPad),
                        locks: dispatcher.keyboardState.locks))
            }
        }
        var time = 0.0
        for (code, down) in keys {
            time += 0.01
            dispatcher.handle(KeyEvent(code, down ? .down : .up, timestamp: time))
        }
        return (typed, dispatcher)
    }

    /// The same keys through a bare `xkb_state`: characters from the keysym before the key's
    /// update (Control not transforming them), modifiers and LEDs after it.
    static func reference(_ names: KeymapNames, _ keys: [(KeyCode, Bool)], locks: LockState = []) -> [Typed] {
        let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)!
        defer { xkb_context_unref(context) }
        var rmlvo = xkb_rule_names()
        let layout = strdup(names.layout ?? "us")
        let variant = names.variant.map { strdup($0) } ?? nil
        let options = names.options.map { strdup($0) } ?? nil
        defer { free(layout); free(variant); free(options) }
        rmlvo.layout = UnsafePointer(layout)
        rmlvo.variant = UnsafePointer(variant)
        rmlvo.options = UnsafePointer(options)
        let keymap = xkb_keymap_new_from_names(context, &rmlvo, XKB_KEYMAP_COMPILE_NO_FLAGS)!
        defer { xkb_keymap_unref(keymap) }
        let state = xkb_state_new(keymap)!
        defer { xkb_state_unref(state) }
        var locked: UInt32 = 0
        if locks.contains(.capsLock) { locked |= 1 << xkb_keymap_mod_get_index(keymap, "Lock") }
        if locks.contains(.numLock) { locked |= 1 << xkb_keymap_mod_get_index(keymap, "Mod2") }
        xkb_state_update_mask(state, 0, 0, locked, 0, 0, 0)
        func active(_ name: String) -> Bool { xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 }
        func lit(_ name: String) -> Bool { xkb_state_led_name_is_active(state, name) > 0 }
        var typed: [Typed] = []
        for (code, down) in keys {
            let keycode = UInt32(code.rawValue) + 8
            guard down else {
                xkb_state_update_key(state, keycode, XKB_KEY_UP)
                continue
            }
            var buffer = [CChar](repeating: 0, count: 16)
            let symbol = xkb_state_key_get_one_sym(state, keycode)
            let count = xkb_keysym_to_utf8(symbol, &buffer, 16)
            let characters =
                count > 1
                ? String(decoding: buffer.prefix(Int(count) - 1).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
            xkb_state_update_key(state, keycode, XKB_KEY_DOWN)
            var modifiers: ModifierFlags = []
            if active("Shift") { modifiers.insert(.shift) }
            if active("Control") { modifiers.insert(.control) }
            if active("Mod1") { modifiers.insert(.alternate) }
            if active("Mod4") { modifiers.insert(.command) }
            if active("Lock") { modifiers.insert(.alphaShift) }
            var ledLocks: LockState = []
            if lit("Caps Lock") { ledLocks.insert(.capsLock) }
            if lit("Num Lock") { ledLocks.insert(.numLock) }
            typed.append(Typed(key: code, characters: characters, modifiers: modifiers, locks: ledLocks))
        }
        return typed
    }

    static func taps(_ codes: KeyCode...) -> [(KeyCode, Bool)] { codes.flatMap { [($0, true), ($0, false)] } }
    static func chord(_ codes: KeyCode...) -> [(KeyCode, Bool)] {
        codes.map { ($0, true) } + codes.reversed().map { ($0, false) }
    }

    /// Layouts and options, each with keys that exercise what it changes.
    static let table: [(KeymapNames, [(KeyCode, Bool)], LockState)] = [
        (KeymapNames(layout: "us"), taps(.a, .capsLock, .a, .digit1, .capsLock) + chord(.leftShift, .a), []),
        (KeymapNames(layout: "de"), taps(.y, .z) + chord(.rightAlt, .q) + chord(.leftShift, .digit2), []),
        (KeymapNames(layout: "fr"), taps(.q, .a, .digit1) + chord(.leftShift, .digit1) + chord(.rightAlt, .digit0), []),
        (
            KeymapNames(layout: "us,ru", options: "grp:alt_shift_toggle"),
            taps(.a) + chord(.leftAlt, .leftShift) + taps(.a, .s) + chord(.leftAlt, .leftShift) + taps(.a), []
        ),
        (KeymapNames(layout: "us", options: "ctrl:nocaps"), chord(.capsLock, .c) + taps(.capsLock, .a), []),
        (KeymapNames(layout: "us", options: "caps:escape"), taps(.capsLock, .a, .capsLock), []),
        (KeymapNames(layout: "us", variant: "intl", options: "lv3:ralt_switch"), chord(.rightAlt, .e) + taps(.e), []),
        (KeymapNames(layout: "us"), taps(.keypad1, .numLock, .keypad1, .numLock, .keypad1), [.numLock]),
        (KeymapNames(layout: "us", options: "altwin:swap_alt_win"), chord(.leftAlt, .a) + chord(.leftMeta, .a), []),
    ]

    @Test("characters, modifiers and LEDs match xkbcommon's own state for each layout and option", arguments: 0..<9)
    func matchesXKBCommon(_ row: Int) throws {
        let (names, keys, locks) = Self.table[row]
        let ours = try Self.dispatch(names, keys, locks: locks).typed
        let theirs = Self.reference(names, keys, locks: locks)
        #expect(ours.count == theirs.count, "\(names)")
        for (mine, reference) in zip(ours, theirs) {
            #expect(mine == reference, "\(names): ours \(mine), xkbcommon \(reference)")
        }
    }

    @Test("ctrl:nocaps: Caps Lock is Control — Ctrl+C fires, Caps Lock never locks, its keysym is Control_L")
    func controlNoCaps() throws {
        let names = KeymapNames(layout: "us", options: "ctrl:nocaps")
        let window = Window(identifier: "w")
        let root = FocusNode(identifier: "root")
        root.acceptsFirstResponder = true
        window.addChild(root)
        var copied = 0
        root.keyCommands = [KeyCommand("c", modifierFlags: .control, action: "copy", title: "Copy")]
        root.performableActions = ["copy"]
        root.onAction = { _, _ in copied += 1 }
        let dispatcher = Dispatcher(window: window, layout: try XKBKeyboardLayout(names, composeLocale: nil))
        root.becomeFirstResponder()
        for (code, down) in Self.chord(.capsLock, .c) + Self.taps(.capsLock, .a) {
            dispatcher.handle(KeyEvent(code, down ? .down : .up))
        }
        #expect(copied == 1)
        #expect(!dispatcher.keyboardState.locks.contains(.capsLock))
        let layout = try XKBKeyboardLayout(names, composeLocale: nil)
        #expect(layout.keysymName(for: .capsLock) == "Control_L")
        let typed = try Self.dispatch(names, Self.taps(.capsLock, .a)).typed
        #expect(typed.last?.characters == "a", "no Caps Lock: a stays lower case")
    }

    @Test("us,ru with grp:alt_shift_toggle: Alt+Shift switches to ru and back; the trace's keysym follows")
    func layoutGroups() throws {
        let names = KeymapNames(layout: "us,ru", options: "grp:alt_shift_toggle")
        let (typed, dispatcher) = try Self.dispatch(
            names, Self.chord(.leftAlt, .leftShift) + Self.taps(.a) + Self.chord(.leftAlt, .leftShift) + Self.taps(.a))
        #expect(typed.filter { $0.key == .a }.map(\.characters) == ["ф", "a"])
        #expect(dispatcher.keyboardState.layoutState.group == 0)
        let layout = try XKBKeyboardLayout(names, composeLocale: nil)
        #expect(layout.keysymName(for: .a, in: LayoutState(group: 1)) == "Cyrillic_ef")
        #expect(layout.characters(for: .a, in: LayoutState(group: 1)) == "ф")
    }

    @Test("caps:escape: the Caps Lock key types Escape and locks nothing")
    func capsEscape() throws {
        let (typed, dispatcher) = try Self.dispatch(
            KeymapNames(layout: "us", options: "caps:escape"), Self.taps(.capsLock, .a))
        #expect(typed.map(\.characters) == ["\u{1b}", "a"])
        #expect(dispatcher.keyboardState.locks.isEmpty)
    }

    @Test("dead keys compose through the locale's table: ´ then e types é on de; ´ then q types ´q")
    func deadKeys() throws {
        let names = KeymapNames(layout: "de")
        let (typed, _) = try Self.dispatch(
            names, Self.taps(.equal, .e, .equal, .q, .equal, .equal) + Self.chord(.leftShift, .equal) + Self.taps(.a),
            composeLocale: "C.UTF-8")
        // Shift+´ is the dead grave: ` then a is à. Shift itself types nothing and does not cancel.
        #expect(typed.map(\.characters) == ["", "é", "", "´q", "", "´", "", "", "à"])
        let (plain, _) = try Self.dispatch(names, Self.taps(.equal, .e), composeLocale: nil)
        #expect(plain.map(\.characters) == ["", "e"], "without a compose table a dead key types nothing (xkbcommon)")
        let (unknown, _) = try Self.dispatch(names, Self.taps(.equal, .e), composeLocale: "xx_XX.NONE")
        #expect(unknown.map(\.characters) == ["", "e"], "a locale without a table: no composition, nothing fails")
    }

    @Test("Num Lock set by the app reaches the keymap: the keypad types digits until Num Lock is pressed")
    func appSetsNumLock() throws {
        let (typed, dispatcher) = try Self.dispatch(
            KeymapNames(layout: "us"), Self.taps(.keypad1, .numLock, .keypad1), locks: [.numLock])
        #expect(typed.map(\.characters) == ["1", "", ""])
        #expect(!dispatcher.keyboardState.locks.contains(.numLock))
        dispatcher.setLocks([.numLock, .capsLock])
        #expect(dispatcher.keyboardState.locks == [.numLock, .capsLock])
        #expect(dispatcher.keyboardState.modifierFlags.contains(.alphaShift))
    }

    @Test("two keyboards: Shift held on both stays down until both let go; unplugging one keeps the other's")
    func mergedAcrossKeyboards() throws {
        let window = Window(identifier: "w")
        let dispatcher = Dispatcher(
            window: window, layout: try XKBKeyboardLayout(KeymapNames(layout: "us"), composeLocale: nil))
        let one = DeviceID(rawValue: 1)
        let two = DeviceID(rawValue: 2)
        dispatcher.handle(KeyEvent(.leftShift, .down, device: one))
        dispatcher.handle(KeyEvent(.leftShift, .down, device: two))
        dispatcher.handle(KeyEvent(.leftShift, .up, device: one))
        #expect(dispatcher.keyboardState.modifierFlags.contains(.shift), "the second keyboard still holds Shift")
        dispatcher.deviceRemoved(two, timestamp: 1)
        #expect(!dispatcher.keyboardState.modifierFlags.contains(.shift), "unplugged: its Shift is up")
        dispatcher.handle(KeyEvent(.leftControl, .down, device: one))
        dispatcher.setLocks(.numLock)
        dispatcher.keyboardLost(timestamp: 2)
        #expect(dispatcher.keyboardState.modifierFlags.isEmpty, "a lost keyboard leaves no modifier held")
        #expect(dispatcher.keyboardState.locks == .numLock, "locks survive")
        // Control never came up, yet pressing it again is Control (a VT switch with Ctrl+Alt held).
        dispatcher.handle(KeyEvent(.leftControl, .down, device: one, timestamp: 3))
        #expect(dispatcher.keyboardState.modifierFlags.contains(.control))
    }
}
