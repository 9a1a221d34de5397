import CXKBCommon
import Glibc
import ResponderChain
import Testing

@testable import XKBKeymap

/// The keymap a Wayland compositor sends (its text, not names) and the modifiers it serializes for
/// it (`wl_keyboard.modifiers`): the truth for what keys type and which modifiers are on.
@MainActor @Suite struct CompositorKeymapTests {
    /// A keymap's text as a compositor sends it (xkbcommon writes it; a trailing NUL, as in the
    /// compositor's file).
    static func keymapText(layout: String) throws -> [UInt8] {
        let context = try #require(xkb_context_new(XKB_CONTEXT_NO_FLAGS))
        defer { xkb_context_unref(context) }
        var names = xkb_rule_names(rules: nil, model: nil, layout: nil, variant: nil, options: nil)
        let keymap = try layout.withCString { layoutName in
            names.layout = layoutName
            return try #require(xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS))
        }
        defer { xkb_keymap_unref(keymap) }
        let text = try #require(xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1))
        defer { free(text) }
        return Array(String(cString: text).utf8) + [0]
    }

    static func layout(_ text: [UInt8]) throws(KeymapError) -> XKBKeyboardLayout {
        let result = text.withUnsafeBytes { raw in
            Result { () throws(KeymapError) in try XKBKeyboardLayout(keymapText: raw, composeLocale: nil) }
        }
        return try result.get()
    }

    /// The keymap's bit for a modifier.
    static func mask(_ name: String, in text: [UInt8]) throws -> UInt32 {
        let context = try #require(xkb_context_new(XKB_CONTEXT_NO_FLAGS))
        defer { xkb_context_unref(context) }
        let keymap = try text.withUnsafeBytes { raw in
            try #require(
                xkb_keymap_new_from_buffer(
                    context, raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count - 1,
                    XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS))
        }
        defer { xkb_keymap_unref(keymap) }
        return 1 << xkb_keymap_mod_get_index(keymap, name)
    }

    @Test("a compositor's keymap text drives the keys: de's text types z at KEY_Y, named by its layout")
    func keymapFromText() throws {
        let german = try Self.layout(Self.keymapText(layout: "de"))
        #expect(german.characters(for: .y, in: LayoutState()) == "z")
        #expect(german.names.layout?.contains("German") == true, "\(german.names)")
        let us = try Self.layout(Self.keymapText(layout: "us"))
        #expect(us.characters(for: .y, in: LayoutState()) == "y")
    }

    @Test("a keymap too large, empty, not xkb_v1 text or crashing xkbcommon 1.5 is an error, never a trap")
    func badKeymaps() throws {
        let tooLarge = [UInt8](repeating: 0x20, count: XKBKeyboardLayout.maximumKeymapSize + 1)
        for (bytes, words) in [
            (tooLarge, "at most 1048576 are read"), ([UInt8](repeating: 0, count: 8), "is empty"),
            (Array("xkb_keymap { garbage".utf8), "cannot compile the compositor's keymap"),
            // Syntax that crashes xkbcommon 1.5's parser: refused before it sees it.
            (Array("xkb_keymap { xkb_symbols { key <SPC> {, [ space ] }; }; };".utf8), "an empty element"),
            (Array("xkb_keymap { xkb_symbols { key <SPC> { vmods = [ ] }; }; };".utf8), "an empty bracket list"),
        ] {
            do {
                _ = try Self.layout(bytes)
                Issue.record("\(words): no error")
            } catch {
                #expect(error.message.contains(words), "\(error.message)")
            }
        }
    }

    @Test("serialized modifiers are the truth: Shift and Caps Lock from the masks, keys no longer apply")
    func serializedModifiers() throws {
        let text = try Self.keymapText(layout: "us")
        let layout = try Self.layout(text)
        let window = Window(identifier: "w")
        let dispatcher = Dispatcher(window: window, layout: layout)
        var typed: [String] = []
        _ = dispatcher.addTraceObserver { record in
            if case .input(_, let key, .pressed) = record.kind { typed.append(key.characters) }
        }
        let shift = try Self.mask("Shift", in: text)
        let lock = try Self.mask("Lock", in: text)
        dispatcher.receive(.modifiers(SerializedModifiers(depressed: shift), device: .primary, timestamp: 1))
        #expect(dispatcher.keyboardState.modifierFlags.contains(.shift))
        dispatcher.handle(KeyEvent(.a, .down, timestamp: 1.1))
        dispatcher.handle(KeyEvent(.a, .up, timestamp: 1.2))
        dispatcher.receive(.modifiers(SerializedModifiers(depressed: 0, locked: lock), device: .primary, timestamp: 2))
        #expect(!dispatcher.keyboardState.modifierFlags.contains(.shift))
        #expect(dispatcher.keyboardState.locks.contains(.capsLock))
        // A Shift key-down is not applied by the client: only the compositor's masks count.
        dispatcher.handle(KeyEvent(.leftShift, .down, timestamp: 2.1))
        dispatcher.handle(KeyEvent(.b, .down, timestamp: 2.2))
        dispatcher.handle(KeyEvent(.b, .up, timestamp: 2.3))
        dispatcher.handle(KeyEvent(.leftShift, .up, timestamp: 2.4))
        #expect(typed == ["A", "", "B"], "\(typed)")
    }

    @Test("a held key's press gets changed when the compositor's modifiers change")
    func heldPressChanges() throws {
        let text = try Self.keymapText(layout: "us")
        let window = Window(identifier: "w")
        let dispatcher = Dispatcher(window: window, layout: try Self.layout(text))
        var phases: [String] = []
        _ = dispatcher.addTraceObserver { record in
            switch record.kind {
            case .press(let press, _), .pressOwned(let press, _, _): phases.append("\(press.phase)")
            default: break
            }
        }
        dispatcher.handle(KeyEvent(.a, .down, timestamp: 1))
        dispatcher.receive(
            .modifiers(
                SerializedModifiers(depressed: try Self.mask("Control", in: text)), device: .primary, timestamp: 2))
        dispatcher.handle(KeyEvent(.a, .up, timestamp: 3))
        #expect(phases.contains("changed"), "\(phases)")
    }
}

/// A key acts as the function key its keymap makes it type: a compositor's keymap (wtype's puts
/// each key it types at an arbitrary code) or an xkb option that moves Escape.
@MainActor @Suite struct LogicalKeyTests {
    static let tabOnA = """
        xkb_keymap {
            xkb_keycodes { include "evdev" };
            xkb_types { include "complete" };
            xkb_compat { include "complete" };
            xkb_symbols { include "pc+us" key <AC01> { [ Tab ] }; key <AC02> { [ Return ] }; key <AC03> { [ space ] }; };
        };
        """

    @Test("standard layouts remap nothing: every key acts as itself")
    func standardLayouts() throws {
        for layout in ["us", "de", "fr", "ru"] {
            let compiled = try XKBKeyboardLayout(KeymapNames(layout: layout), composeLocale: nil)
            let moved = (UInt16(1)..<256).filter { compiled.logicalKeyCode(for: KeyCode($0)) != nil }
            #expect(moved.isEmpty, "\(layout): \(moved)")
        }
    }

    @Test("caps:escape makes Caps Lock act as Escape; its key code stays Caps Lock's")
    func capsEscape() throws {
        let layout = try XKBKeyboardLayout(KeymapNames(layout: "us", options: "caps:escape"), composeLocale: nil)
        #expect(layout.logicalKeyCode(for: .capsLock) == .escape)
        let window = Window(identifier: "w")
        let dispatcher = Dispatcher(window: window, layout: layout)
        var keys: [Key] = []
        _ = dispatcher.addTraceObserver { record in
            if case .input(_, let key, .pressed) = record.kind { keys.append(key) }
        }
        dispatcher.handle(KeyEvent(.capsLock, .down, timestamp: 1))
        dispatcher.handle(KeyEvent(.capsLock, .up, timestamp: 1.1))
        #expect(keys.first?.keyCode == .capsLock && keys.first?.logicalKeyCode == .escape)
        #expect(keys.first?.description == "Escape")
        // It acts as Escape, not as a bare modifier: an Escape key command runs from it.
        let scene = try Scene(
            json: """
                {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
                  {"id": "one", "frame": [0, 0, 40, 20], "focusable": true}]}}
                """, file: "escape.json")
        let (sceneDispatcher, focus) = scene.makeDispatcher(layout: layout)
        focus.updateFocusIfNeeded()
        var closed = 0
        scene.root.keyCommands = [KeyCommand(.escape, action: "close", title: "Close")]
        scene.root.performableActions = ["close"]
        scene.root.onAction = { action, _ in if action.rawValue == "close" { closed += 1 } }
        sceneDispatcher.handle(KeyEvent(.capsLock, .down, timestamp: 2))
        sceneDispatcher.handle(KeyEvent(.capsLock, .up, timestamp: 2.1))
        #expect(closed == 1, "Caps Lock typing Escape ran the Escape key command")
        #expect(!sceneDispatcher.keyboardState.locks.contains(.capsLock))
    }

    @Test("a keymap that types Tab and Return at other keys: they move focus and select, presses end as usual")
    func tabElsewhere() throws {
        let layout = try Array(Self.tabOnA.utf8).withUnsafeBytes { raw in
            try XKBKeyboardLayout(keymapText: raw, composeLocale: nil)
        }
        #expect(layout.logicalKeyCode(for: .a) == .tab && layout.logicalKeyCode(for: .s) == .return)
        #expect(layout.logicalKeyCode(for: .d) == .space, "space selects wherever it is")
        let scene = try Scene(
            json: """
                {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
                  {"id": "one", "frame": [0, 0, 40, 20], "focusable": true, "primaryAction": "open", "actions": ["open"]},
                  {"id": "two", "frame": [50, 0, 40, 20], "focusable": true, "primaryAction": "open", "actions": ["open"]}]}}
                """, file: "tab.json")
        let (dispatcher, focus) = scene.makeDispatcher(layout: layout)
        focus.updateFocusIfNeeded()
        var performed: [String] = []
        scene.nodes["two"]?.onAction = { action, _ in performed.append(action.rawValue) }
        var phases: [String] = []
        _ = dispatcher.addTraceObserver { record in
            if case .press(let press, _) = record.kind { phases.append("\(press.phase)") }
        }
        #expect(focus.focusedItem?.focusDebugName == "one")
        dispatcher.handle(KeyEvent(.a, .down, timestamp: 1))
        dispatcher.handle(KeyEvent(.a, .up, timestamp: 1.1))
        #expect(focus.focusedItem?.focusDebugName == "two", "the key typing Tab moved focus")
        dispatcher.handle(KeyEvent(.s, .down, timestamp: 2))
        dispatcher.handle(KeyEvent(.s, .up, timestamp: 2.1))
        #expect(performed == ["open"], "the key typing Return selected")
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
    }

    static let letterOnEscape = """
        xkb_keymap {
            xkb_keycodes { include "evdev" };
            xkb_types { include "complete" };
            xkb_compat { include "complete" };
            xkb_symbols { include "pc+us" key <ESC> { [ f ] }; key <TAB> { [ a ] }; key <LCTL> { [ q ] }; };
        };
        """

    @Test("letters at Escape's and Tab's places type into a text field and match ctrl+f; focus does not move")
    func lettersAtFunctionPlaces() throws {
        let layout = try Array(Self.letterOnEscape.utf8).withUnsafeBytes { raw in
            try XKBKeyboardLayout(keymapText: raw, composeLocale: nil)
        }
        #expect(layout.logicalKeyCode(for: .escape) == KeyCode.escape.atCharacterPosition)
        #expect(KeyCode.escape.atCharacterPosition.physicalKey == .escape)
        let scene = try Scene(
            json: """
                {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
                  {"id": "name", "kind": "textInput", "frame": [0, 0, 40, 20], "firstResponder": true},
                  {"id": "two", "frame": [50, 0, 40, 20], "focusable": true}]}}
                """, file: "letters.json")
        let (dispatcher, focus) = scene.makeDispatcher(layout: layout)
        focus.updateFocusIfNeeded()
        var found = 0
        scene.root.keyCommands = [KeyCommand("f", modifierFlags: .control, action: "find", title: "Find")]
        scene.root.performableActions = ["find"]
        scene.root.onAction = { action, _ in if action.rawValue == "find" { found += 1 } }
        for code in [KeyCode.escape, .tab, .leftControl] {
            dispatcher.handle(KeyEvent(code, .down, timestamp: 1))
            dispatcher.handle(KeyEvent(code, .up, timestamp: 1.1))
        }
        let field = try #require(scene.window.firstResponder as? TextInputNode)
        #expect(field.text == "faq", "the letters were typed, not taken as Escape, Tab and Control")
        #expect(focus.focusedItem?.focusDebugName == "name")
        dispatcher.handle(KeyEvent(.rightControl, .down, timestamp: 2))
        dispatcher.handle(KeyEvent(.escape, .down, timestamp: 2.1))
        dispatcher.handle(KeyEvent(.escape, .up, timestamp: 2.2))
        dispatcher.handle(KeyEvent(.rightControl, .up, timestamp: 2.3))
        #expect(found == 1, "ctrl+f is the key that types f")
    }
}
