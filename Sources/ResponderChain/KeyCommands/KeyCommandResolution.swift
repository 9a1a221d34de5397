/// Where a key command lands on the keyboard for a given layout and reading direction.
///
/// The rules are those of <doc:KeyCommandMatching>; the dispatcher, the conflict report and
/// keytrace all use this one resolution, so they never disagree.
public struct KeyCommandResolution: Hashable, Sendable {
    /// How the command was placed.
    public enum Placement: Hashable, Sendable {
        /// The layout types the input directly.
        case direct
        /// The layout cannot type the input; the command moved to the key that types it on a US
        /// layout (``KeyCommand/allowsAutomaticLocalization``).
        case localized
        /// The layout cannot type the input and the command may not move: no key triggers it.
        case unreachable
    }

    /// How the command was placed.
    public var placement: Placement
    /// Whether the input was mirrored for a right-to-left window.
    public var mirrored: Bool
    /// The physical chords that trigger the command: a key and the modifiers to hold with it.
    public var chords: [KeyChord]
}

/// A physical key with the modifiers held with it, as typed on a keyboard.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    /// The key.
    public var code: KeyCode
    /// The modifiers: any of shift, control, alternate, command.
    public var modifierFlags: ModifierFlags

    /// Creates a chord.
    ///
    /// - Parameters:
    ///   - code: The key.
    ///   - modifierFlags: The modifiers held with it (other flags are dropped).
    public init(_ code: KeyCode, _ modifierFlags: ModifierFlags = []) {
        self.code = code
        self.modifierFlags = modifierFlags.intersection(.deviceIndependentChord)
    }

    /// For example `ctrl+shift+KeyF`.
    public var description: String {
        let mods = modifierFlags.description
        return mods.isEmpty ? code.name : mods + "+" + code.name
    }

    var id: KeyChordID { KeyChordID(code: code, modifiers: modifierFlags) }
}

/// Which keys type which characters on one layout, at the base and Shift levels.
struct LayoutReverseMap: Sendable {
    struct Entry: Sendable {
        var code: KeyCode
        var needsShift: Bool
    }

    let layoutName: String
    private var entries: [String: [Entry]] = [:]

    /// - Parameters:
    ///   - layout: The layout.
    ///   - logicalKeys: The keys it makes act as others, when the caller already asked it.
    init(_ layout: any KeyboardLayout, logicalKeys: LogicalKeyMap? = nil) {
        layoutName = layout.name
        let logicalKeys = logicalKeys ?? LogicalKeyMap(layout)
        for raw in UInt16(1)..<256 {
            let code = KeyCode(raw)
            // Chords are on the key a key acts as (a character at Escape's place is not Escape).
            let chordCode = logicalKeys.logical(code) ?? code
            if chordCode.isModifier { continue }
            let base = layout.characters(for: code, in: LayoutState())
            let shifted = layout.characters(for: code, in: LayoutState(modifierFlags: .shift))
            if !base.isEmpty { entries[base, default: []].append(Entry(code: chordCode, needsShift: false)) }
            if !shifted.isEmpty && shifted != base && shifted.lowercased() != base {
                entries[shifted, default: []].append(Entry(code: chordCode, needsShift: true))
            }
        }
    }

    func keys(typing character: String) -> [Entry] {
        entries[character] ?? []
    }
}

extension KeyCommand {
    static let mirroredCharacters: [String: String] = ["[": "]", "]": "[", "{": "}", "}": "{"]

    /// Where this command lands on a layout.
    ///
    /// - Parameters:
    ///   - layout: The active layout.
    ///   - direction: The window's reading direction.
    /// - Returns: The chords that trigger it and how they were found.
    public func resolution(on layout: any KeyboardLayout, direction: LayoutDirection = .leftToRight)
        -> KeyCommandResolution
    {
        resolution(on: LayoutReverseMap(layout), direction: direction)
    }

    func resolution(on map: LayoutReverseMap, direction: LayoutDirection) -> KeyCommandResolution {
        let mirror = direction == .rightToLeft && allowsAutomaticMirroring
        let chordModifiers = modifierFlags.intersection(.deviceIndependentChord)
        switch input {
        case .special(let key):
            let effective = mirror ? key.mirrored : key
            let chords = effective.keyCodes.map { KeyChord($0, chordModifiers) }
            return KeyCommandResolution(placement: .direct, mirrored: effective != key, chords: chords)
        case .character(let text):
            var character = text
            var mirrored = false
            if mirror, let swapped = Self.mirroredCharacters[text] {
                character = swapped
                mirrored = true
            }
            let isLetter = character.count == 1 && character.lowercased() != character.uppercased()
            if isLetter { character = character.lowercased() }
            var chords = chordsTyping(character, on: map, modifiers: chordModifiers)
            var placement = KeyCommandResolution.Placement.direct
            if chords.isEmpty {
                if allowsAutomaticLocalization {
                    chords = chordsTyping(character, on: Self.usReverseMap, modifiers: chordModifiers)
                }
                placement = chords.isEmpty ? .unreachable : .localized
            }
            return KeyCommandResolution(placement: placement, mirrored: mirrored, chords: chords)
        }
    }

    private func chordsTyping(_ character: String, on map: LayoutReverseMap, modifiers: ModifierFlags) -> [KeyChord] {
        let keypadOnly = modifierFlags.contains(.numericPad)
        var chords: [KeyChord] = []
        for entry in map.keys(typing: character) where !keypadOnly || entry.code.isKeypad {
            let chord = KeyChord(entry.code, entry.needsShift ? modifiers.union(.shift) : modifiers)
            if !chords.contains(chord) { chords.append(chord) }
        }
        return chords
    }

    static let usReverseMap = LayoutReverseMap(USKeyboardLayout())
}
