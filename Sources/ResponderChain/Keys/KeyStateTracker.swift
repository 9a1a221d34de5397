/// The modifier, lock, level and group state a ``KeyStateTracker`` reports.
public struct TrackedKeyState: Hashable, Sendable {
    /// The modifiers in effect: shift, control, alternate, command, and
    /// ``ModifierFlags/alphaShift`` while Caps Lock is on.
    public var modifierFlags: ModifierFlags
    /// The locks that are on (what the keyboard's LEDs show).
    public var locks: LockState
    /// Whether a level-three shift (AltGr) is in effect.
    public var levelThree: Bool
    /// The active layout of a multi-layout keymap, from 0 (`us,ru`: 0 is `us`, 1 is `ru`).
    public var group: Int

    /// Creates a state.
    ///
    /// - Parameters:
    ///   - modifierFlags: The modifiers in effect.
    ///   - locks: The locks that are on.
    ///   - levelThree: Whether a level-three shift is in effect.
    ///   - group: The active layout.
    public init(modifierFlags: ModifierFlags = [], locks: LockState = [], levelThree: Bool = false, group: Int = 0) {
        self.modifierFlags = modifierFlags
        self.locks = locks
        self.levelThree = levelThree
        self.group = group
    }
}

/// Keeps a keyboard's modifiers, locks, levels and active layout the way its keymap defines
/// them, as xkbcommon's `xkb_state` does: which key is Control (`ctrl:nocaps` makes Caps Lock
/// one), which key locks what, how layouts switch (`grp:alt_shift_toggle`), dead keys and
/// compose sequences.
///
/// A layout that has one returns it from ``KeyboardLayout/makeKeyStateTracker()``; the dispatcher
/// then feeds it every key that goes down on the first keyboard to hold it, and every key that
/// comes up on the last, and takes the modifiers, locks and characters from it instead of from
/// the key codes. Key commands still match physical chords: a command on Ctrl+C fires for Caps
/// Lock+C under `ctrl:nocaps` because the tracker reports Control, not because the key changed.
public protocol KeyStateTracker: AnyObject {
    /// The state after the keys applied so far.
    var state: TrackedKeyState { get }

    /// A key went down: returns what it types, worked out before the key changes the state (as
    /// xkbcommon requires), then applies it. A dead key that starts a composition types `""`,
    /// the key that completes it types the composed text.
    ///
    /// - Parameter code: The key.
    /// - Returns: The characters it types.
    func keyDown(_ code: KeyCode) -> String

    /// A key came up.
    ///
    /// - Parameter code: The key.
    func keyUp(_ code: KeyCode)

    /// What a key types in the current state, without applying it (a held key's characters
    /// after the modifiers changed).
    ///
    /// - Parameter code: The key.
    /// - Returns: The characters.
    func characters(for code: KeyCode) -> String

    /// Sets the locks, as an app does at start or to follow a keyboard's LEDs.
    ///
    /// - Parameter locks: The locks that are on.
    func setLocks(_ locks: LockState)

    /// Every key is up (the keyboard was lost) and any composition is dropped; locks and the
    /// active layout stay.
    func reset()

    /// Takes the modifiers, locks and layout group a compositor serialized for this keymap
    /// (`wl_keyboard.modifiers`): from then on they are the truth, and key-downs and key-ups
    /// only say what a key types, as xkbcommon asks of a client (`xkb_state_update_mask`). A
    /// tracker whose keymap has no serialized form ignores it (the default).
    ///
    /// - Parameter modifiers: The masks.
    func updateModifiers(_ modifiers: SerializedModifiers)
}

extension KeyStateTracker {
    /// Ignores serialized modifiers: a tracker without a serialized form.
    ///
    /// - Parameter modifiers: The masks.
    public func updateModifiers(_ modifiers: SerializedModifiers) {}
}

/// Modifiers, locks and the layout group as a compositor serializes them for the keymap it sent
/// (`wl_keyboard.modifiers`): bit masks of the keymap's own modifier indices, meaningful only to
/// a tracker of that keymap (``KeyStateTracker/updateModifiers(_:)``).
public struct SerializedModifiers: Hashable, Sendable {
    /// Modifiers held down.
    public var depressed: UInt32
    /// Modifiers latched (sticky keys: on for the next key).
    public var latched: UInt32
    /// Modifiers locked (Caps Lock, Num Lock).
    public var locked: UInt32
    /// The active layout group.
    public var group: UInt32

    /// Creates masks.
    ///
    /// - Parameters:
    ///   - depressed: Modifiers held down.
    ///   - latched: Modifiers latched.
    ///   - locked: Modifiers locked.
    ///   - group: The active layout group.
    public init(depressed: UInt32, latched: UInt32 = 0, locked: UInt32 = 0, group: UInt32 = 0) {
        self.depressed = depressed
        self.latched = latched
        self.locked = locked
        self.group = group
    }
}
