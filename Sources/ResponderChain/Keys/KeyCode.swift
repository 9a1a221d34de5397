/// A physical key, identified by its Linux evdev key code (the kernel's `KEY_*` number).
///
/// A key code names a position on the keyboard, not a character: `KeyCode.z` is the key that
/// the kernel reports as `KEY_Z`, which types `y` on a German layout. Characters come from a
/// ``KeyboardLayout``.
///
/// Every code converts to and from two other well-known identities:
/// - ``name``: the W3C UI Events `code` name (`KeyA`, `ArrowLeft`, `Tab`), the name people know
///   from web and Flutter keyboard APIs;
/// - ``hidUsage``: the USB HID usage, which is what UIKit's `UIKey.keyCode` reports.
///
/// ```swift
/// KeyCode.tab.name                        // "Tab"
/// KeyCode(name: "ArrowLeft")              // KeyCode.leftArrow (evdev 105)
/// KeyCode.a.hidUsage                      // HIDUsage(page: 0x07, usage: 0x04)
/// KeyCode(hidUsage: HIDUsage(page: 7, usage: 0x2B)) // KeyCode.tab
/// ```
public struct KeyCode: RawRepresentable, Hashable, Comparable, Sendable {
    /// The evdev key code, as in `<linux/input-event-codes.h>`.
    public var rawValue: UInt16

    /// Creates a key code from an evdev key code.
    ///
    /// - Parameter rawValue: The kernel's `KEY_*` number.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Creates a key code from an evdev key code.
    ///
    /// - Parameter evdev: The kernel's `KEY_*` number.
    public init(_ evdev: UInt16) {
        self.rawValue = evdev
    }

    /// Orders key codes by their evdev number.
    public static func < (lhs: KeyCode, rhs: KeyCode) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension KeyCode {
    /// Whether this key is a modifier (Shift, Control, Alt, Super on either side) or a lock key
    /// (Caps Lock, Num Lock, Scroll Lock).
    ///
    /// Modifier keys never match key commands and never reach the focus system; they are
    /// delivered to responders as presses of their own.
    public var isModifier: Bool {
        switch self {
        case .leftShift, .rightShift, .leftControl, .rightControl, .leftAlt, .rightAlt,
            .leftMeta, .rightMeta, .capsLock, .numLock, .scrollLock:
            return true
        default:
            return false
        }
    }

    /// Whether this key sits on the numeric keypad. Presses of these keys carry
    /// ``ModifierFlags/numericPad``.
    public var isKeypad: Bool {
        switch rawValue {
        case 55, 71...83, 96, 98, 117, 121:
            return true
        default:
            return false
        }
    }

    /// The modifier flag that holding this key adds, if it is a held modifier key.
    ///
    /// Lock keys (Caps Lock) toggle state instead of being held and return `nil`.
    public var heldModifier: ModifierFlags? {
        switch self {
        case .leftShift, .rightShift: return .shift
        case .leftControl, .rightControl: return .control
        case .leftAlt, .rightAlt: return .alternate
        case .leftMeta, .rightMeta: return .command
        default: return nil
        }
    }
}

// MARK: - Named keys

extension KeyCode {
    /// No key position (`KEY_RESERVED`, W3C `Unidentified`): a character a terminal sent that
    /// no key of the US layout types (`é`, `ф`); its ``KeyEvent/text`` says what it typed.
    public static let unidentified = KeyCode(0)
    /// Escape (`KEY_ESC`).
    public static let escape = KeyCode(1)
    /// The digit 1 on the main block (`KEY_1`).
    public static let digit1 = KeyCode(2)
    /// The digit 2 on the main block (`KEY_2`).
    public static let digit2 = KeyCode(3)
    /// The digit 3 on the main block (`KEY_3`).
    public static let digit3 = KeyCode(4)
    /// The digit 4 on the main block (`KEY_4`).
    public static let digit4 = KeyCode(5)
    /// The digit 5 on the main block (`KEY_5`).
    public static let digit5 = KeyCode(6)
    /// The digit 6 on the main block (`KEY_6`).
    public static let digit6 = KeyCode(7)
    /// The digit 7 on the main block (`KEY_7`).
    public static let digit7 = KeyCode(8)
    /// The digit 8 on the main block (`KEY_8`).
    public static let digit8 = KeyCode(9)
    /// The digit 9 on the main block (`KEY_9`).
    public static let digit9 = KeyCode(10)
    /// The digit 0 on the main block (`KEY_0`).
    public static let digit0 = KeyCode(11)
    /// Minus (`KEY_MINUS`).
    public static let minus = KeyCode(12)
    /// Equal (`KEY_EQUAL`).
    public static let equal = KeyCode(13)
    /// Backspace, labelled Delete on Apple keyboards (`KEY_BACKSPACE`).
    public static let backspace = KeyCode(14)
    /// Tab (`KEY_TAB`).
    public static let tab = KeyCode(15)
    /// Q (`KEY_Q`).
    public static let q = KeyCode(16)
    /// W (`KEY_W`).
    public static let w = KeyCode(17)
    /// E (`KEY_E`).
    public static let e = KeyCode(18)
    /// R (`KEY_R`).
    public static let r = KeyCode(19)
    /// T (`KEY_T`).
    public static let t = KeyCode(20)
    /// Y (`KEY_Y`).
    public static let y = KeyCode(21)
    /// U (`KEY_U`).
    public static let u = KeyCode(22)
    /// I (`KEY_I`).
    public static let i = KeyCode(23)
    /// O (`KEY_O`).
    public static let o = KeyCode(24)
    /// P (`KEY_P`).
    public static let p = KeyCode(25)
    /// Left bracket (`KEY_LEFTBRACE`).
    public static let leftBracket = KeyCode(26)
    /// Right bracket (`KEY_RIGHTBRACE`).
    public static let rightBracket = KeyCode(27)
    /// Return or Enter on the main block (`KEY_ENTER`).
    public static let `return` = KeyCode(28)
    /// Left Control (`KEY_LEFTCTRL`).
    public static let leftControl = KeyCode(29)
    /// A (`KEY_A`).
    public static let a = KeyCode(30)
    /// S (`KEY_S`).
    public static let s = KeyCode(31)
    /// D (`KEY_D`).
    public static let d = KeyCode(32)
    /// F (`KEY_F`).
    public static let f = KeyCode(33)
    /// G (`KEY_G`).
    public static let g = KeyCode(34)
    /// H (`KEY_H`).
    public static let h = KeyCode(35)
    /// J (`KEY_J`).
    public static let j = KeyCode(36)
    /// K (`KEY_K`).
    public static let k = KeyCode(37)
    /// L (`KEY_L`).
    public static let l = KeyCode(38)
    /// Semicolon (`KEY_SEMICOLON`).
    public static let semicolon = KeyCode(39)
    /// Quote (`KEY_APOSTROPHE`).
    public static let quote = KeyCode(40)
    /// Backquote (`KEY_GRAVE`).
    public static let backquote = KeyCode(41)
    /// Left Shift (`KEY_LEFTSHIFT`).
    public static let leftShift = KeyCode(42)
    /// Backslash (`KEY_BACKSLASH`).
    public static let backslash = KeyCode(43)
    /// Z (`KEY_Z`).
    public static let z = KeyCode(44)
    /// X (`KEY_X`).
    public static let x = KeyCode(45)
    /// C (`KEY_C`).
    public static let c = KeyCode(46)
    /// V (`KEY_V`).
    public static let v = KeyCode(47)
    /// B (`KEY_B`).
    public static let b = KeyCode(48)
    /// N (`KEY_N`).
    public static let n = KeyCode(49)
    /// M (`KEY_M`).
    public static let m = KeyCode(50)
    /// Comma (`KEY_COMMA`).
    public static let comma = KeyCode(51)
    /// Period (`KEY_DOT`).
    public static let period = KeyCode(52)
    /// Slash (`KEY_SLASH`).
    public static let slash = KeyCode(53)
    /// Right Shift (`KEY_RIGHTSHIFT`).
    public static let rightShift = KeyCode(54)
    /// Keypad multiply (`KEY_KPASTERISK`).
    public static let keypadMultiply = KeyCode(55)
    /// Left Alt, Option on Apple keyboards (`KEY_LEFTALT`).
    public static let leftAlt = KeyCode(56)
    /// Space (`KEY_SPACE`).
    public static let space = KeyCode(57)
    /// Caps Lock (`KEY_CAPSLOCK`).
    public static let capsLock = KeyCode(58)
    /// F1 (`KEY_F1`).
    public static let f1 = KeyCode(59)
    /// F2 (`KEY_F2`).
    public static let f2 = KeyCode(60)
    /// F3 (`KEY_F3`).
    public static let f3 = KeyCode(61)
    /// F4 (`KEY_F4`).
    public static let f4 = KeyCode(62)
    /// F5 (`KEY_F5`).
    public static let f5 = KeyCode(63)
    /// F6 (`KEY_F6`).
    public static let f6 = KeyCode(64)
    /// F7 (`KEY_F7`).
    public static let f7 = KeyCode(65)
    /// F8 (`KEY_F8`).
    public static let f8 = KeyCode(66)
    /// F9 (`KEY_F9`).
    public static let f9 = KeyCode(67)
    /// F10 (`KEY_F10`).
    public static let f10 = KeyCode(68)
    /// Num Lock (`KEY_NUMLOCK`).
    public static let numLock = KeyCode(69)
    /// Scroll Lock (`KEY_SCROLLLOCK`).
    public static let scrollLock = KeyCode(70)
    /// Keypad 7 (`KEY_KP7`).
    public static let keypad7 = KeyCode(71)
    /// Keypad 8 (`KEY_KP8`).
    public static let keypad8 = KeyCode(72)
    /// Keypad 9 (`KEY_KP9`).
    public static let keypad9 = KeyCode(73)
    /// Keypad minus (`KEY_KPMINUS`).
    public static let keypadSubtract = KeyCode(74)
    /// Keypad 4 (`KEY_KP4`).
    public static let keypad4 = KeyCode(75)
    /// Keypad 5 (`KEY_KP5`).
    public static let keypad5 = KeyCode(76)
    /// Keypad 6 (`KEY_KP6`).
    public static let keypad6 = KeyCode(77)
    /// Keypad plus (`KEY_KPPLUS`).
    public static let keypadAdd = KeyCode(78)
    /// Keypad 1 (`KEY_KP1`).
    public static let keypad1 = KeyCode(79)
    /// Keypad 2 (`KEY_KP2`).
    public static let keypad2 = KeyCode(80)
    /// Keypad 3 (`KEY_KP3`).
    public static let keypad3 = KeyCode(81)
    /// Keypad 0 (`KEY_KP0`).
    public static let keypad0 = KeyCode(82)
    /// Keypad decimal point (`KEY_KPDOT`).
    public static let keypadDecimal = KeyCode(83)
    /// The extra key between Left Shift and Z on ISO keyboards (`KEY_102ND`).
    public static let intlBackslash = KeyCode(86)
    /// F11 (`KEY_F11`).
    public static let f11 = KeyCode(87)
    /// F12 (`KEY_F12`).
    public static let f12 = KeyCode(88)
    /// Keypad Enter (`KEY_KPENTER`).
    public static let keypadEnter = KeyCode(96)
    /// Right Control (`KEY_RIGHTCTRL`).
    public static let rightControl = KeyCode(97)
    /// Keypad divide (`KEY_KPSLASH`).
    public static let keypadDivide = KeyCode(98)
    /// Print Screen (`KEY_SYSRQ`).
    public static let printScreen = KeyCode(99)
    /// Right Alt, AltGr on many layouts (`KEY_RIGHTALT`).
    public static let rightAlt = KeyCode(100)
    /// Home (`KEY_HOME`).
    public static let home = KeyCode(102)
    /// Up arrow (`KEY_UP`).
    public static let upArrow = KeyCode(103)
    /// Page Up (`KEY_PAGEUP`).
    public static let pageUp = KeyCode(104)
    /// Left arrow (`KEY_LEFT`).
    public static let leftArrow = KeyCode(105)
    /// Right arrow (`KEY_RIGHT`).
    public static let rightArrow = KeyCode(106)
    /// End (`KEY_END`).
    public static let end = KeyCode(107)
    /// Down arrow (`KEY_DOWN`).
    public static let downArrow = KeyCode(108)
    /// Page Down (`KEY_PAGEDOWN`).
    public static let pageDown = KeyCode(109)
    /// Insert (`KEY_INSERT`).
    public static let insert = KeyCode(110)
    /// Forward delete (`KEY_DELETE`).
    public static let deleteForward = KeyCode(111)
    /// Keypad equal (`KEY_KPEQUAL`).
    public static let keypadEqual = KeyCode(117)
    /// Pause (`KEY_PAUSE`).
    public static let pause = KeyCode(119)
    /// Left Super, Windows or Command key (`KEY_LEFTMETA`).
    public static let leftMeta = KeyCode(125)
    /// Right Super, Windows or Command key (`KEY_RIGHTMETA`).
    public static let rightMeta = KeyCode(126)
    /// The context menu key (`KEY_COMPOSE`).
    public static let contextMenu = KeyCode(127)
    /// Menu, on remote controls (`KEY_MENU`; not the keyboard's context menu key, ``contextMenu``).
    public static let menu = KeyCode(139)
    /// Back, on remote controls and browser keyboards (`KEY_BACK`).
    public static let back = KeyCode(158)
    /// Play/Pause, on remote controls and media keyboards (`KEY_PLAYPAUSE`).
    public static let playPause = KeyCode(164)
    /// Exit, on remote controls (`KEY_EXIT`): leaves the current screen, as Back does.
    public static let exit = KeyCode(174)
    /// F13 (`KEY_F13`).
    public static let f13 = KeyCode(183)
    /// F14 (`KEY_F14`).
    public static let f14 = KeyCode(184)
    /// F15 (`KEY_F15`).
    public static let f15 = KeyCode(185)
    /// F16 (`KEY_F16`).
    public static let f16 = KeyCode(186)
    /// F17 (`KEY_F17`).
    public static let f17 = KeyCode(187)
    /// F18 (`KEY_F18`).
    public static let f18 = KeyCode(188)
    /// F19 (`KEY_F19`).
    public static let f19 = KeyCode(189)
    /// F20 (`KEY_F20`).
    public static let f20 = KeyCode(190)
    /// F21 (`KEY_F21`).
    public static let f21 = KeyCode(191)
    /// F22 (`KEY_F22`).
    public static let f22 = KeyCode(192)
    /// F23 (`KEY_F23`).
    public static let f23 = KeyCode(193)
    /// F24 (`KEY_F24`).
    public static let f24 = KeyCode(194)
    /// OK, the select key of remote controls (`KEY_OK`).
    public static let ok = KeyCode(352)
    /// Select, on remote controls and D-pads (`KEY_SELECT`).
    public static let select = KeyCode(353)

    /// A gamepad's bottom face button, A on Xbox-style pads (`BTN_SOUTH`, also `BTN_A`). It selects:
    /// its ``Key/logicalKeyCode`` is ``select``.
    public static let gamepadSouth = KeyCode(0x130)
    /// A gamepad's right face button, B on Xbox-style pads (`BTN_EAST`, also `BTN_B`). It goes back:
    /// its ``Key/logicalKeyCode`` is ``back``.
    public static let gamepadEast = KeyCode(0x131)
    /// A gamepad's top face button, Y on Xbox-style pads (`BTN_NORTH`, also `BTN_X` in the kernel's
    /// older naming).
    public static let gamepadNorth = KeyCode(0x133)
    /// A gamepad's left face button, X on Xbox-style pads (`BTN_WEST`, also `BTN_Y` in the kernel's older
    /// naming).
    public static let gamepadWest = KeyCode(0x134)
    /// A gamepad's left shoulder button (`BTN_TL`).
    public static let gamepadLeftShoulder = KeyCode(0x136)
    /// A gamepad's right shoulder button (`BTN_TR`).
    public static let gamepadRightShoulder = KeyCode(0x137)
    /// A gamepad's Select, Back or View button (`BTN_SELECT`).
    public static let gamepadSelect = KeyCode(0x13a)
    /// A gamepad's Start or Menu button (`BTN_START`). It acts as the remote's Menu: its
    /// ``Key/logicalKeyCode`` is ``menu``.
    public static let gamepadStart = KeyCode(0x13b)
    /// A gamepad's Mode, Home or Guide button (`BTN_MODE`).
    public static let gamepadMode = KeyCode(0x13c)
    /// A gamepad's D-pad up (`BTN_DPAD_UP`; also made from `ABS_HAT0Y` -1). Acts as ``upArrow``.
    public static let dpadUp = KeyCode(0x220)
    /// A gamepad's D-pad down (`BTN_DPAD_DOWN`; also made from `ABS_HAT0Y` 1). Acts as ``downArrow``.
    public static let dpadDown = KeyCode(0x221)
    /// A gamepad's D-pad left (`BTN_DPAD_LEFT`; also made from `ABS_HAT0X` -1). Acts as ``leftArrow``.
    public static let dpadLeft = KeyCode(0x222)
    /// A gamepad's D-pad right (`BTN_DPAD_RIGHT`; also made from `ABS_HAT0X` 1). Acts as ``rightArrow``.
    public static let dpadRight = KeyCode(0x223)

    /// The key a gamepad button acts as, its role: the D-pad acts as the arrows, ``gamepadSouth``
    /// (A) as ``select``, ``gamepadEast`` (B) as ``back``, ``gamepadStart`` as ``menu``; `nil` for
    /// every other key.
    ///
    /// The dispatcher puts the role in ``Key/logicalKeyCode`` and keeps the button's own code in
    /// ``Key/keyCode``, so focus, select keys, exit commands and key commands follow the role while
    /// traces name the button.
    public var gamepadRole: KeyCode? {
        switch rawValue {
        case 0x130: return .select
        case 0x131: return .back
        case 0x13b: return .menu
        case 0x220: return .upArrow
        case 0x221: return .downArrow
        case 0x222: return .leftArrow
        case 0x223: return .rightArrow
        default: return nil
        }
    }

    /// The function key F`n`, for `n` in 1...24.
    ///
    /// - Parameter n: The number printed on the key.
    /// - Returns: The key code, or `nil` when `n` is outside 1...24.
    public static func function(_ n: Int) -> KeyCode? {
        switch n {
        case 1...10: return KeyCode(UInt16(58 + n))
        case 11, 12: return KeyCode(UInt16(76 + n))
        case 13...24: return KeyCode(UInt16(170 + n))
        default: return nil
        }
    }
}
