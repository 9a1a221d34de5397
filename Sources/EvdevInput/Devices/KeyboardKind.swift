internal import LinuxSystem
public import ResponderChain

/// What kind of keyboard a device's key capabilities make it (a gamepad counts: its D-pad and
/// buttons act as keys).
public enum KeyboardKind: String, Hashable, Sendable {
    /// Letter keys: a full keyboard.
    case keyboard
    /// A numeric keypad.
    case keypad
    /// Arrows with a select key and no letters: a remote control or D-pad.
    case remote
    /// A gamepad: its D-pad (`BTN_DPAD_*`, or the hat `ABS_HAT0X`/`ABS_HAT0Y`, which
    /// ``EvdevDecoder`` turns into `BTN_DPAD_*` presses) and its buttons, which act as keys
    /// through their roles (`KeyCode.gamepadRole`: the D-pad as arrows, A as Select, B as Back).
    /// Its sticks are not read.
    case gamepad
    /// Not a keyboard (a mouse's buttons, a power button).
    case none

    /// `ABS_HAT0X`, the D-pad's horizontal axis on most gamepads.
    nonisolated public static let hatX: UInt16 = 0x10
    /// `ABS_HAT0Y`, the D-pad's vertical axis on most gamepads.
    nonisolated public static let hatY: UInt16 = 0x11

    /// Classifies a device by the keys it declares, as udev's input_id does when it tags
    /// `ID_INPUT_KEYBOARD`, extended to keypads and remote controls.
    ///
    /// - Parameter keys: The `EV_KEY` codes the device declares.
    /// - Returns: The kind.
    public static func classify(keys: Set<KeyCode>) -> KeyboardKind {
        classify(keys: keys, absoluteAxes: [])
    }

    /// Classifies a device by the keys and absolute axes it declares: keyboards, keypads and
    /// remote controls as ``classify(keys:)`` does, and a gamepad when it has no letters and
    /// declares `BTN_SOUTH`, a `BTN_DPAD_*` button or the hat axis `ABS_HAT0X` (what udev's
    /// input_id tags `ID_INPUT_JOYSTICK` for, without udevd).
    ///
    /// - Parameters:
    ///   - keys: The `EV_KEY` codes the device declares.
    ///   - absoluteAxes: The `EV_ABS` codes the device declares.
    /// - Returns: The kind.
    public static func classify(keys: Set<KeyCode>, absoluteAxes: Set<UInt16>) -> KeyboardKind {
        let letters: [KeyCode] = [.q, .w, .e, .r, .t, .y, .a, .s, .d, .f, .z, .x, .c, .v]
        if letters.filter(keys.contains).count >= 10 { return .keyboard }
        let gamepadKeys: [KeyCode] = [.gamepadSouth, .dpadUp, .dpadDown, .dpadLeft, .dpadRight]
        if gamepadKeys.contains(where: keys.contains) || absoluteAxes.contains(hatX) { return .gamepad }
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
