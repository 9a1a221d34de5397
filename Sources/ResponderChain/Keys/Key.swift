/// A key as a responder sees it: the physical key, the key it acts as, the characters it
/// produced and the modifiers.
///
/// This is the counterpart of UIKit's `UIKey`.
public struct Key: Hashable, Sendable {
    /// The physical key.
    public var keyCode: KeyCode
    /// The key it acts as for focus, key commands and editing: ``keyCode``, unless the layout
    /// makes this key type a function key (Tab, Return, Escape, an arrow, Home, a function key…)
    /// that sits elsewhere on a standard keyboard. A keymap that moves Tab — a compositor's, or
    /// xkb's `caps:escape` — moves what the key does with it, as UIKit matches key commands on
    /// what a key types. A gamepad button acts as its ``KeyCode/gamepadRole``: the D-pad as the
    /// arrows, A (`BTN_SOUTH`) as ``KeyCode/select``, B (`BTN_EAST`) as ``KeyCode/back``, Start as
    /// ``KeyCode/menu``.
    public var logicalKeyCode: KeyCode
    /// The characters the key produced with Shift, Caps Lock and the layout's other levels
    /// applied (`"A"` for Shift-A, `"?"` for Shift-/ on a US layout). Control, Alt and Command do
    /// not change it. Empty for keys that type nothing (arrows, function keys, modifiers).
    public var characters: String
    /// The characters the key produces with no modifier applied (`"a"` for Shift-A, `"/"` for
    /// Shift-/ on a US layout). Key commands match on this; see <doc:KeyCommandMatching>.
    public var charactersIgnoringModifiers: String
    /// The modifiers held (and Caps Lock) when the key went down or last changed, plus
    /// ``ModifierFlags/numericPad`` for keypad keys.
    public var modifierFlags: ModifierFlags

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - keyCode: The physical key.
    ///   - characters: The characters with modifiers applied.
    ///   - charactersIgnoringModifiers: The characters with no modifier applied.
    ///   - modifierFlags: The modifier flags.
    ///   - logicalKeyCode: The key it acts as; `nil` for `keyCode`.
    public init(
        keyCode: KeyCode, characters: String, charactersIgnoringModifiers: String, modifierFlags: ModifierFlags,
        logicalKeyCode: KeyCode? = nil
    ) {
        self.keyCode = keyCode
        self.logicalKeyCode = logicalKeyCode ?? keyCode
        self.characters = characters
        self.charactersIgnoringModifiers = charactersIgnoringModifiers
        self.modifierFlags = modifierFlags
    }
}

extension Key {
    /// What trace records carry instead of a key typed into a secure text input: key code 0
    /// (`KEY_RESERVED`, which no keyboard sends), `•` as its characters, no modifiers.
    public static let redacted = Key(
        keyCode: KeyCode(rawValue: 0), characters: "•", charactersIgnoringModifiers: "•", modifierFlags: [])
}

extension Key: CustomStringConvertible {
    /// The modifiers and the name of the key it acts as, for example `ctrl+shift+KeyF`; a gamepad
    /// button is named as itself (`BTN_SOUTH`), not as its role.
    public var description: String {
        let mods = modifierFlags.subtracting([.alphaShift, .numericPad]).description
        // A character at a function key's place is named by what it types; a gamepad button by
        // itself (`BTN_SOUTH`), not by its role.
        let name =
            logicalKeyCode.rawValue >= KeyCode.characterPositionBase && !charactersIgnoringModifiers.isEmpty
            ? charactersIgnoringModifiers : keyCode.gamepadRole != nil ? keyCode.name : logicalKeyCode.name
        return mods.isEmpty ? name : mods + "+" + name
    }
}

/// An input device, as a small stable number chosen by the input source.
public struct DeviceID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number.
    public var rawValue: UInt32

    /// Creates a device identifier.
    ///
    /// - Parameter rawValue: A number unique among the devices of one dispatcher.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A device for sources that have only one (a terminal, a script).
    public static let primary = DeviceID(rawValue: 0)

    /// `device` followed by the number.
    public var description: String { "device" + String(rawValue) }
}

/// What a raw key event says happened to the key.
public enum KeyAction: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The key went down (evdev value 1).
    case down
    /// The key auto-repeated while held (evdev value 2).
    case `repeat`
    /// The key came up (evdev value 0).
    case up

    /// `down`, `repeat` or `up`.
    public var description: String {
        switch self {
        case .down: return "down"
        case .repeat: return "repeat"
        case .up: return "up"
        }
    }
}

/// One key transition from an input source, before any layout or responder is involved.
///
/// Every source (a Linux device, an evemu recording, a terminal, the virtual keyboard of
/// `ResponderChainTesting`) produces these and hands them on as ``InputEvent/key(_:)`` to an
/// ``InputSink`` (the dispatcher's ``Dispatcher/receive(_:)``), or to ``Dispatcher/handle(_:)``.
public struct KeyEvent: Hashable, Sendable {
    /// The device the key belongs to.
    public var device: DeviceID
    /// The physical key.
    public var code: KeyCode
    /// Down, repeat or up.
    public var action: KeyAction
    /// When it happened, in seconds (the source's clock; evdev time for Linux devices).
    public var timestamp: Double
    /// What the key typed, when the source knows it better than the layout: a terminal sends
    /// text already typed on its own layout (`é`, `ф`), which must not go through the system's
    /// layout again. `nil` (keyboards, recordings): the layout says.
    public var text: String?

    /// Creates a key event.
    ///
    /// - Parameters:
    ///   - code: The physical key (``KeyCode/unidentified`` for text with no key position).
    ///   - action: Down, repeat or up.
    ///   - device: The device; ``DeviceID/primary`` by default.
    ///   - timestamp: The time in seconds.
    ///   - text: What the key typed, when the source says (a terminal); `nil` for the layout's.
    public init(
        _ code: KeyCode, _ action: KeyAction, device: DeviceID = .primary, timestamp: Double = 0, text: String? = nil
    ) {
        self.device = device
        self.code = code
        self.action = action
        self.timestamp = timestamp
        self.text = text
    }
}
