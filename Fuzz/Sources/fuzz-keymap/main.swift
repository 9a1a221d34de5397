import FuzzSupport
import ResponderChain
import XKBKeymap

// The keymap a Wayland compositor sends (wl_keyboard.keymap): any bytes compile or fail with a
// KeymapError, never a trap; a keymap that compiles types keys and takes serialized modifiers.
fuzz { data, count in
    let input = bytes(data, count)
    MainActor.assumeIsolated {
        let layout = input.withUnsafeBytes { raw in try? XKBKeyboardLayout(keymapText: raw, composeLocale: nil) }
        guard let layout else { return }
        for code in [KeyCode.a, .y, .digit1, .space, .leftShift] {
            _ = layout.characters(for: code, in: LayoutState())
        }
        let tracker = layout.makeKeyStateTracker()
        tracker?.updateModifiers(SerializedModifiers(depressed: 1, latched: 0, locked: 2, group: 1))
        _ = tracker?.keyDown(.a)
        tracker?.keyUp(.a)
    }
    return 0
}
