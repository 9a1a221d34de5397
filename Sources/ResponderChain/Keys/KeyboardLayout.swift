/// The modifier and lock state a layout needs to pick a character.
public struct LayoutState: Hashable, Sendable {
    /// Held modifiers and Caps Lock (``ModifierFlags/alphaShift``).
    public var modifierFlags: ModifierFlags
    /// Whether Num Lock is on.
    public var numLock: Bool
    /// Whether a level-three shift (AltGr on most European layouts) is held.
    public var levelThree: Bool
    /// The active layout of a multi-layout keymap, from 0.
    public var group: Int

    /// Creates a layout state.
    ///
    /// - Parameters:
    ///   - modifierFlags: Held modifiers and Caps Lock.
    ///   - numLock: Whether Num Lock is on.
    ///   - levelThree: Whether AltGr (level three) is held.
    ///   - group: The active layout, from 0.
    public init(modifierFlags: ModifierFlags = [], numLock: Bool = true, levelThree: Bool = false, group: Int = 0) {
        self.modifierFlags = modifierFlags
        self.numLock = numLock
        self.levelThree = levelThree
        self.group = group
    }
}

/// Turns physical keys and modifier state into characters.
///
/// The core ships ``USKeyboardLayout``; the Linux module adds layouts compiled by xkbcommon.
/// A layout is asked for characters on every key-down, so implementations should answer from a
/// table without allocating (strings of up to 15 UTF-8 bytes are stored inline). The dispatcher
/// keeps the keys a layout that is a value type (a struct or an enum) made, until its layout is
/// set again: such a layout's answers must depend on the arguments alone. A class layout is asked
/// on every key; a layout whose answers follow the keys typed (xkbcommon's) keeps that state in
/// the tracker ``makeKeyStateTracker()`` returns.
public protocol KeyboardLayout {
    /// A short name shown in traces and reports, such as `us` or `de(nodeadkeys)`.
    var name: String { get }

    /// The characters a key types in a given state.
    ///
    /// - Parameters:
    ///   - code: The physical key.
    ///   - state: Modifiers and locks. Control, Alt and Command must not change the result.
    /// - Returns: The characters, or an empty string for keys that type nothing.
    func characters(for code: KeyCode, in state: LayoutState) -> String

    /// Whether the Right Alt key acts as a level-three shift (AltGr) instead of as Alt.
    var rightAltIsLevelThree: Bool { get }

    /// A tracker that keeps the live modifier, lock and layout state as this layout's keymap
    /// defines it, or `nil` (the default): the dispatcher then derives modifiers and locks from
    /// the key codes (Shift keys shift, Caps Lock locks). A dispatcher makes one when its layout
    /// is set.
    func makeKeyStateTracker() -> (any KeyStateTracker)?

    /// The name of the keysym a key produces in a state, as xkbcommon names keysyms (`z`,
    /// `Return`, `ISO_Level3_Shift`), or `nil` (the default) for a layout without keysyms.
    ///
    /// Traces show it next to the key code (keytrace's `keysym` field). A trace asks once per
    /// key and state and keeps the answer, so the answer must depend on the arguments alone.
    ///
    /// - Parameters:
    ///   - code: The physical key.
    ///   - state: Modifiers, locks and the active layout.
    /// - Returns: The keysym's name, or `nil` when the layout has none.
    func keysymName(for code: KeyCode, in state: LayoutState) -> String?

    /// The key a physical key acts as (``Key/logicalKeyCode``): the standard key of the function
    /// key it types with no modifier (Tab, Return, Escape, an arrow…), when that is another key;
    /// `nil` (the default) when it acts as itself. The dispatcher asks for every code once, when
    /// its layout is set.
    ///
    /// - Parameter code: The physical key.
    /// - Returns: The key it acts as, or `nil`.
    func logicalKeyCode(for code: KeyCode) -> KeyCode?
}

extension KeyboardLayout {
    /// `false`: Right Alt is an ordinary Alt key unless a layout says otherwise.
    public var rightAltIsLevelThree: Bool { false }

    /// `nil`: modifiers and locks follow the key codes.
    public func makeKeyStateTracker() -> (any KeyStateTracker)? { nil }

    /// `nil`: every key acts as itself.
    public func logicalKeyCode(for code: KeyCode) -> KeyCode? { nil }

    /// `nil`: the layout has no keysym names.
    ///
    /// - Parameters:
    ///   - code: The physical key.
    ///   - state: Modifiers, locks and the active layout.
    /// - Returns: `nil`.
    public func keysymName(for code: KeyCode, in state: LayoutState) -> String? { nil }

    /// The characters a key types with no modifier applied (keypad keys as with Num Lock on).
    ///
    /// - Parameter code: The physical key.
    /// - Returns: What ``Key/charactersIgnoringModifiers`` reports for this key.
    public func charactersIgnoringModifiers(for code: KeyCode) -> String {
        characters(for: code, in: LayoutState())
    }
}
