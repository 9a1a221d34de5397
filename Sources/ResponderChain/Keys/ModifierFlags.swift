/// The modifier keys and lock states that accompany a key.
///
/// The raw values are UIKit's `UIKeyModifierFlags` bits, so code and logs that print them read the same.
public struct ModifierFlags: OptionSet, Hashable, Sendable {
    /// The bit pattern (UIKit's values).
    public var rawValue: Int

    /// Creates flags from a bit pattern.
    ///
    /// - Parameter rawValue: UIKit `UIKeyModifierFlags` bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Caps Lock is on.
    public static let alphaShift = ModifierFlags(rawValue: 1 << 16)
    /// A Shift key is held.
    public static let shift = ModifierFlags(rawValue: 1 << 17)
    /// A Control key is held.
    public static let control = ModifierFlags(rawValue: 1 << 18)
    /// An Alt (Option) key is held.
    public static let alternate = ModifierFlags(rawValue: 1 << 19)
    /// A Super (Windows, Command, Logo) key is held.
    public static let command = ModifierFlags(rawValue: 1 << 20)
    /// The key is on the numeric keypad.
    public static let numericPad = ModifierFlags(rawValue: 1 << 21)

    /// The flags that key-command matching compares: shift, control, alternate and command.
    ///
    /// Caps Lock never changes which command a key matches, and the keypad flag only matters
    /// when a command asks for it (see <doc:KeyCommandMatching>).
    public static let deviceIndependentChord: ModifierFlags = [.shift, .control, .alternate, .command]
}

extension ModifierFlags: CustomStringConvertible {
    /// The flags joined with `+` in the order ctrl, alt, shift, cmd, then `capsLock` and `numpad`
    /// (`"ctrl+shift"`); empty when no flag is set.
    public var description: String {
        var parts: [String] = []
        if contains(.control) { parts.append("ctrl") }
        if contains(.alternate) { parts.append("alt") }
        if contains(.shift) { parts.append("shift") }
        if contains(.command) { parts.append("cmd") }
        if contains(.alphaShift) { parts.append("capsLock") }
        if contains(.numericPad) { parts.append("numpad") }
        return parts.joined(separator: "+")
    }
}
