extension Dispatcher {
    /// The chord that types `character` on the active layout in the current lock state, or `nil`
    /// when no key types it with or without Shift (it needs AltGr, a dead key or an input method).
    ///
    /// A key of the main block is preferred to the keypad, and the plain key to the shifted one;
    /// with Caps Lock on, a letter's case comes from Shift the other way round. `"\n"` and
    /// `"\r\n"` are typed with Return, as XCUITest's `typeText` does. `VirtualKeyboard.typeText`
    /// (ResponderChainTesting) types text through it.
    ///
    /// - Parameter character: The character.
    /// - Returns: The chord, checked against what the layout types for it.
    package func chord(typing character: Character) -> KeyChord? {
        let text = character == "\n" || character == "\r\n" ? "\r" : String(character)
        // The map files a capital under its small letter's key (Shift or Caps Lock makes it).
        let lowercased = text.lowercased()
        let entries = reverseMap.keys(typing: text) + (lowercased == text ? [] : reverseMap.keys(typing: lowercased))
        for keypad in [false, true] {
            for entry in entries where entry.code.isKeypad == keypad {
                for shifted in [entry.needsShift, !entry.needsShift] {
                    let chord = KeyChord(entry.code, shifted ? .shift : [])
                    if key(for: chord).characters == text { return chord }
                }
            }
        }
        return nil
    }
}
