internal import LinuxSystem
public import ResponderChain

/// What kind of keyboard a device's key capabilities make it.
public enum KeyboardKind: String, Hashable, Sendable {
    /// Letter keys: a full keyboard.
    case keyboard
    /// A numeric keypad.
    case keypad
    /// Arrows with a select key and no letters: a remote control or D-pad.
    case remote
    /// Not a keyboard (a mouse's buttons, a power button).
    case none

    /// Classifies a device by the keys it declares, as udev's input_id does when it tags
    /// `ID_INPUT_KEYBOARD`, extended to keypads and remote controls.
    ///
    /// - Parameter keys: The `EV_KEY` codes the device declares.
    /// - Returns: The kind.
    public static func classify(keys: Set<KeyCode>) -> KeyboardKind {
        let letters: [KeyCode] = [.q, .w, .e, .r, .t, .y, .a, .s, .d, .f, .z, .x, .c, .v]
        if letters.filter(keys.contains).count >= 10 { return .keyboard }
        let digits: [KeyCode] = [
            .keypad0, .keypad1, .keypad2, .keypad3, .keypad4, .keypad5, .keypad6, .keypad7, .keypad8, .keypad9,
        ]
        if digits.allSatisfy(keys.contains) { return .keypad }
        let arrows: [KeyCode] = [.upArrow, .downArrow, .leftArrow, .rightArrow]
        let selects: [KeyCode] = [.ok, .select, .return, .keypadEnter]
        if arrows.allSatisfy(keys.contains) && selects.contains(where: keys.contains) { return .remote }
        return .none
    }
}
