internal import CXKBCommon
internal import LinuxSystem
public import ResponderChain

/// The live state of an xkbcommon keymap: every key goes through `xkb_state_update_key`, the
/// modifiers come from `xkb_state_mod_index_is_active`, the locks from the keymap's LEDs
/// (`xkb_state_led_index_is_active`), the active layout from `xkb_state_serialize_layout`, and
/// dead keys and compose sequences through `xkb_compose_state` with the locale's compose table.
/// So keymap options behave as xkbcommon says: `ctrl:nocaps` makes Caps Lock a Control key,
/// `caps:escape` an Escape key, `grp:alt_shift_toggle` switches `us,ru` on Alt+Shift, and
/// `´` then `e` types `é` on a layout with dead keys.
///
/// Made by ``XKBKeyboardLayout/makeKeyStateTracker()``; the dispatcher owns it.
public final class XKBKeyState: KeyStateTracker {
    private let keymap: OpaquePointer
    private var xkbState: OpaquePointer
    private let compose: OpaquePointer?
    private let shift: xkb_mod_index_t
    private let control: xkb_mod_index_t
    private let alt: xkb_mod_index_t
    private let logo: xkb_mod_index_t
    private let lock: xkb_mod_index_t
    private let numLock: xkb_mod_index_t
    private let levelThree: xkb_mod_index_t
    private let capsLED: xkb_led_index_t
    private let numLED: xkb_led_index_t
    private let scrollLED: xkb_led_index_t

    private var current = TrackedKeyState()
    /// The dead keys (and Compose key) of the sequence in progress.
    private var composing: [xkb_keysym_t] = []
    private var scrollLock = false
    /// Whether a compositor's serialized modifiers are the truth (``updateModifiers(_:)``): keys
    /// then only say what they type.
    private var followsSerializedModifiers = false

    /// The state after the keys applied so far.
    public var state: TrackedKeyState { current }

    /// Whether a dead key or compose sequence is in progress.
    public var isComposing: Bool {
        guard let compose else { return false }
        return xkb_compose_state_get_status(compose) == XKB_COMPOSE_COMPOSING
    }

    init?(keymap: OpaquePointer, composeTable: OpaquePointer?) {
        guard let xkbState = xkb_state_new(keymap) else { return nil }
        self.keymap = xkb_keymap_ref(keymap)
        self.xkbState = xkbState
        compose = composeTable.flatMap { xkb_compose_state_new($0, XKB_COMPOSE_STATE_NO_FLAGS) }
        shift = xkb_keymap_mod_get_index(keymap, "Shift")
        control = xkb_keymap_mod_get_index(keymap, "Control")
        alt = xkb_keymap_mod_get_index(keymap, "Mod1")
        logo = xkb_keymap_mod_get_index(keymap, "Mod4")
        lock = xkb_keymap_mod_get_index(keymap, "Lock")
        numLock = xkb_keymap_mod_get_index(keymap, "Mod2")
        levelThree = xkb_keymap_mod_get_index(keymap, "Mod5")
        capsLED = xkb_keymap_led_get_index(keymap, "Caps Lock")
        numLED = xkb_keymap_led_get_index(keymap, "Num Lock")
        scrollLED = xkb_keymap_led_get_index(keymap, "Scroll Lock")
        refresh()
    }

    deinit {
        if let compose { xkb_compose_state_unref(compose) }
        xkb_state_unref(xkbState)
        xkb_keymap_unref(keymap)
    }

    /// What the key types now, then applies it; a dead key or an unfinished compose sequence
    /// types `""`, the key that finishes one types the composed text.
    ///
    /// - Parameter code: The key.
    /// - Returns: The characters.
    public func keyDown(_ code: KeyCode) -> String {
        let keycode = UInt32(code.rawValue) + 8
        var text = characters(keycode: keycode)
        if let compose {
            let symbol = xkb_state_key_get_one_sym(xkbState, keycode)
            if xkb_compose_state_feed(compose, symbol) == XKB_COMPOSE_FEED_ACCEPTED {
                switch xkb_compose_state_get_status(compose) {
                case XKB_COMPOSE_COMPOSING:
                    composing.append(symbol)
                    text = ""
                case XKB_COMPOSE_COMPOSED:
                    text = Self.string(capacity: 64) { xkb_compose_state_get_utf8(compose, $0, $1) }
                    composing.removeAll()
                    xkb_compose_state_reset(compose)
                case XKB_COMPOSE_CANCELLED:
                    // A sequence that matches nothing types its dead keys' own characters, then
                    // the key's (´ then q types ´q), as iPadOS and macOS do.
                    text = composing.map(Self.spacingCharacter).joined() + text
                    composing.removeAll()
                    xkb_compose_state_reset(compose)
                default:
                    composing.removeAll()
                }
            }
        }
        // Under a compositor its modifiers event is the truth; a client does not apply keys.
        if followsSerializedModifiers { return text }
        let scrollLit = isLit(scrollLED)
        xkb_state_update_key(xkbState, keycode, XKB_KEY_DOWN)
        // Usual keymaps bind no modifier to Scroll Lock: its key toggles the lock here instead.
        if xkb_state_key_get_one_sym(xkbState, keycode) == 0xFF14 && isLit(scrollLED) == scrollLit {
            scrollLock.toggle()
        }
        refresh()
        return text
    }

    /// Applies a key-up.
    ///
    /// - Parameter code: The key.
    public func keyUp(_ code: KeyCode) {
        if followsSerializedModifiers { return }
        xkb_state_update_key(xkbState, UInt32(code.rawValue) + 8, XKB_KEY_UP)
        refresh()
    }

    /// Takes a compositor's serialized modifiers, locks and layout group (`wl_keyboard.modifiers`,
    /// through `xkb_state_update_mask`) as the truth: from now on key-downs and key-ups only say
    /// what a key types, as xkbcommon asks of a Wayland client.
    ///
    /// - Parameter modifiers: The masks, for this tracker's keymap.
    public func updateModifiers(_ modifiers: SerializedModifiers) {
        followsSerializedModifiers = true
        xkb_state_update_mask(
            xkbState, modifiers.depressed, modifiers.latched, modifiers.locked, 0, 0, modifiers.group)
        refresh()
    }

    /// What the key types in the current state, without applying it.
    ///
    /// - Parameter code: The key.
    /// - Returns: The characters.
    public func characters(for code: KeyCode) -> String {
        characters(keycode: UInt32(code.rawValue) + 8)
    }

    /// Locks Caps Lock and Num Lock as given (their modifiers, so the LEDs follow); Scroll Lock
    /// has no modifier in the usual keymaps and is kept here.
    ///
    /// - Parameter locks: The locks that are on.
    public func setLocks(_ locks: LockState) {
        var locked = xkb_state_serialize_mods(xkbState, XKB_STATE_MODS_LOCKED)
        for (index, on) in [(lock, locks.contains(.capsLock)), (numLock, locks.contains(.numLock))]
        where index != XKB_MOD_INVALID {
            if on { locked |= 1 << index } else { locked &= ~(1 << index) }
        }
        xkb_state_update_mask(
            xkbState, xkb_state_serialize_mods(xkbState, XKB_STATE_MODS_DEPRESSED),
            xkb_state_serialize_mods(xkbState, XKB_STATE_MODS_LATCHED), locked,
            xkb_state_serialize_layout(xkbState, XKB_STATE_LAYOUT_DEPRESSED),
            xkb_state_serialize_layout(xkbState, XKB_STATE_LAYOUT_LATCHED),
            xkb_state_serialize_layout(xkbState, XKB_STATE_LAYOUT_LOCKED))
        scrollLock = locks.contains(.scrollLock)
        refresh()
    }

    /// Every key up, any composition dropped; locked modifiers and the locked layout stay.
    public func reset() {
        // A fresh state: xkbcommon's per-key filters of keys that never came up would otherwise
        // swallow the next press of the same modifier (Ctrl held across a VT switch would never
        // count as Control again). Locked modifiers and the locked layout carry over.
        let locked = xkb_state_serialize_mods(xkbState, XKB_STATE_MODS_LOCKED)
        let layout = xkb_state_serialize_layout(xkbState, XKB_STATE_LAYOUT_LOCKED)
        if let fresh = xkb_state_new(keymap) {
            xkb_state_unref(xkbState)
            xkbState = fresh
        }
        xkb_state_update_mask(xkbState, 0, 0, locked, 0, 0, layout)
        if let compose { xkb_compose_state_reset(compose) }
        composing.removeAll()
        refresh()
    }

    /// The character a dead key stands for on its own: `´` for `dead_acute`; `""` for the
    /// Compose key and dead keys without one.
    static func spacingCharacter(_ symbol: xkb_keysym_t) -> String {
        switch symbol {
        case 0xFE50: "`"
        case 0xFE51: "´"
        case 0xFE52: "^"
        case 0xFE53: "~"
        case 0xFE54: "¯"
        case 0xFE55: "˘"
        case 0xFE56: "˙"
        case 0xFE57: "¨"
        case 0xFE58: "°"
        case 0xFE59: "˝"
        case 0xFE5A: "ˇ"
        case 0xFE5B: "¸"
        case 0xFE5C: "˛"
        default: ""
        }
    }

    /// The keysym name a key produces now, such as `Control_L` under `ctrl:nocaps` or
    /// `Cyrillic_ef` in the `ru` layout of `us,ru`.
    ///
    /// - Parameter code: The key.
    /// - Returns: The name, or `NoSymbol`.
    public func keysymName(for code: KeyCode) -> String {
        let symbol = xkb_state_key_get_one_sym(xkbState, UInt32(code.rawValue) + 8)
        return Self.string(capacity: 64) { xkb_keysym_get_name(symbol, $0, $1) }
    }

    private func isActive(_ index: xkb_mod_index_t) -> Bool {
        index != XKB_MOD_INVALID && xkb_state_mod_index_is_active(xkbState, index, XKB_STATE_MODS_EFFECTIVE) > 0
    }

    private func isLit(_ index: xkb_led_index_t) -> Bool {
        index != XKB_LED_INVALID && xkb_state_led_index_is_active(xkbState, index) > 0
    }

    private func refresh() {
        var flags: ModifierFlags = []
        if isActive(shift) { flags.insert(.shift) }
        if isActive(control) { flags.insert(.control) }
        if isActive(alt) { flags.insert(.alternate) }
        if isActive(logo) { flags.insert(.command) }
        if isActive(lock) { flags.insert(.alphaShift) }
        var locks: LockState = []
        if capsLED == XKB_LED_INVALID ? isActive(lock) : isLit(capsLED) { locks.insert(.capsLock) }
        if numLED == XKB_LED_INVALID ? isActive(numLock) : isLit(numLED) { locks.insert(.numLock) }
        if isLit(scrollLED) || scrollLock { locks.insert(.scrollLock) }
        current = TrackedKeyState(
            modifierFlags: flags, locks: locks, levelThree: isActive(levelThree),
            group: Int(xkb_state_serialize_layout(xkbState, XKB_STATE_LAYOUT_EFFECTIVE)))
    }

    /// The key's characters with Shift, Caps Lock, Num Lock, the level and the layout applied,
    /// but not Control's transformation into control characters (Ctrl+C types `c`, not `U+0003`):
    /// the keysym (`xkb_state_key_get_one_sym`, which applies Caps Lock) to UTF-8.
    private func characters(keycode: UInt32) -> String {
        let symbol = xkb_state_key_get_one_sym(xkbState, keycode)
        guard symbol != 0 else { return "" }
        return Self.string(capacity: 16) { xkb_keysym_to_utf8(symbol, $0, $1) }
    }

    /// Reads a C string that a function writes into a buffer of `capacity` bytes.
    static func string(capacity: Int, _ write: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            let written = Int(write(buffer.baseAddress!, capacity))
            guard written > 0 else { return "" }
            let length = min(written, capacity - 1)
            return String(
                decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: length).bindMemory(to: UInt8.self)
                    .prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
