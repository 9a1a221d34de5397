extension Action {
    /// Select the whole text: UIKit's `selectAll:`. A ``TextInputNode`` performs it, on Ctrl+A.
    public static let selectAll: Action = "selectAll"
    /// Copy the selection: UIKit's `copy:`. A ``TextInputNode`` performs it, on Ctrl+C.
    public static let copy: Action = "copy"
    /// Cut the selection: UIKit's `cut:`. A ``TextInputNode`` performs it, on Ctrl+X.
    public static let cut: Action = "cut"
    /// Paste: UIKit's `paste:`. A ``TextInputNode`` performs it, on Ctrl+V.
    public static let paste: Action = "paste"
    /// Undo the last change: UIKit's `undo:`. A ``TextInputNode`` performs it, on Ctrl+Z.
    public static let undo: Action = "undo"
    /// Redo the last undone change: UIKit's `redo:`. A ``TextInputNode`` performs it, on
    /// Ctrl+Shift+Z and Ctrl+Y.
    public static let redo: Action = "redo"
}

extension TextInputNode {
    /// What ``TextInputNode/inputFilter`` decides about a change.
    public enum FilterResult: Hashable, Sendable {
        /// Make the change as proposed.
        case accept
        /// Make no change: the text and the selection stay as they are.
        case reject
        /// Put this text in the range instead of the proposed replacement (an empty string
        /// deletes the range).
        case replace(with: String)
    }

    /// The editing action a Control chord stands for: Ctrl+A, C, X, V, Z, Ctrl+Shift+Z and
    /// Ctrl+Y, by the letter the layout types on the key (so Ctrl+Z follows a German layout's Z),
    /// or by the US letter at the key's place when the layout types no Latin letter there.
    ///
    /// - Parameter key: The key going down.
    /// - Returns: The action, or `nil` for any other key.
    static func editingAction(for key: Key) -> Action? {
        let chord = key.modifierFlags.intersection(.deviceIndependentChord)
        guard chord == .control || chord == [.control, .shift] else { return nil }
        switch (latinLetter(of: key), chord == .control) {
        case ("a", true): return .selectAll
        case ("c", true): return .copy
        case ("x", true): return .cut
        case ("v", true): return .paste
        case ("z", true): return .undo
        case ("z", false), ("y", true): return .redo
        default: return nil
        }
    }

    /// The lower-case Latin letter the key types with no modifier; for a key that types no ASCII
    /// character (a Cyrillic or Greek layout), the letter at its place on a US keyboard.
    private static func latinLetter(of key: Key) -> Character? {
        let base = key.charactersIgnoringModifiers.unicodeScalars
        if let scalar = base.first, scalar.isASCII {
            let value = scalar.value | 0x20
            return base.count == 1 && (0x61...0x7A).contains(value) ? Character(Unicode.Scalar(UInt8(value))) : nil
        }
        switch key.logicalKeyCode {
        case .a: return "a"
        case .c: return "c"
        case .x: return "x"
        case .v: return "v"
        case .z: return "z"
        case .y: return "y"
        default: return nil
        }
    }
}
