/// A physical key plus the chord modifiers (shift, control, alternate, command) held with it:
/// what the key-command index is keyed by. Four modifier bits and the evdev code in one word.
struct KeyChordID: Hashable, Sendable {
    var rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    init(code: KeyCode, modifiers: ModifierFlags) {
        rawValue = UInt32(code.rawValue) << 4 | UInt32((modifiers.rawValue >> 17) & 0xF)
    }

    var code: KeyCode { KeyCode(UInt16(rawValue >> 4)) }
    var modifiers: ModifierFlags { ModifierFlags(rawValue: Int(rawValue & 0xF) << 17) }
}
