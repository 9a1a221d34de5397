/// A USB HID usage: a usage page and a usage id on that page.
///
/// Keyboard keys live on page `0x07` (the number UIKit's `UIKey.keyCode` reports);
/// remote-control keys such as Back live on the consumer page `0x0C`.
public struct HIDUsage: Hashable, Sendable, CustomStringConvertible {
    /// The usage page (`0x07` keyboard, `0x0C` consumer).
    public var page: UInt16
    /// The usage id on that page.
    public var usage: UInt16

    /// Creates a usage from its page and id.
    ///
    /// - Parameters:
    ///   - page: The usage page.
    ///   - usage: The usage id on that page.
    public init(page: UInt16, usage: UInt16) {
        self.page = page
        self.usage = usage
    }

    /// The usage written as `0xPPPPUUUU`-style hex, for example `0x07:0x04`.
    public var description: String {
        "0x" + String(page, radix: 16) + ":0x" + String(usage, radix: 16)
    }
}

extension KeyCode {
    private static let rowsByCode: [UInt16: TableRow] = {
        var rows: [UInt16: TableRow] = [:]
        for row in table { rows[row.evdev] = row }
        return rows
    }()

    private static let codesByName: [String: KeyCode] = {
        var codes: [String: KeyCode] = [:]
        for row in table {
            if let name = row.w3c { codes[name] = KeyCode(row.evdev) }
            codes[row.kernelName] = KeyCode(row.evdev)
        }
        return codes
    }()

    private static let codesByHID: [UInt32: KeyCode] = {
        var codes: [UInt32: KeyCode] = [:]
        for row in table where row.hid != 0 { codes[row.hid] = KeyCode(row.evdev) }
        // USB 0x07:0x32 (the ISO "#~" key) has no evdev code of its own: Linux reports it as KEY_BACKSLASH.
        codes[0x07_0032] = .backslash
        return codes
    }()

    /// The name people know this key by.
    ///
    /// The W3C UI Events `code` name when it has one (`KeyA`, `ArrowLeft`, `Tab`, `ShiftLeft`,
    /// `Numpad1`); otherwise the kernel's name (`KEY_OK`, `BTN_SOUTH`); otherwise `evdev` followed by the
    /// number (`evdev700`). ``init(name:)`` accepts every form this property returns.
    public var name: String {
        if let row = Self.rowsByCode[rawValue] {
            return row.w3c ?? row.kernelName
        }
        return "evdev" + String(rawValue)
    }

    /// The kernel's name for this key (`KEY_A`, `KEY_LEFTSHIFT`; a gamepad button's `BTN_SOUTH`), when it is in
    /// the built-in table.
    public var evdevName: String? {
        Self.rowsByCode[rawValue]?.kernelName
    }

    /// The W3C UI Events `code` name, when the W3C list has one for this key.
    public var w3cName: String? {
        Self.rowsByCode[rawValue]?.w3c
    }

    /// Looks a key up by name.
    ///
    /// - Parameter name: A W3C `code` name (`KeyA`, `ArrowLeft`), a kernel name (`KEY_A`, `BTN_SOUTH`), or
    ///   `evdev` followed by a decimal code (`evdev30`). Names are case-sensitive, as in the W3C list.
    public init?(name: String) {
        if let code = Self.codesByName[name] {
            self = code
        } else if name.hasPrefix("evdev"), let number = UInt16(name.dropFirst(5)) {
            self.init(number)
        } else {
            return nil
        }
    }

    /// The USB HID usage of this key, when it has one.
    ///
    /// For keyboard keys this is page `0x07` and the usage UIKit reports as `UIKey.keyCode`.
    public var hidUsage: HIDUsage? {
        guard let row = Self.rowsByCode[rawValue], row.hid != 0 else { return nil }
        return HIDUsage(page: UInt16(row.hid >> 16), usage: UInt16(row.hid & 0xFFFF))
    }

    /// Looks a key up by its USB HID usage.
    ///
    /// - Parameter hidUsage: The usage; page `0x07:0x32` (the ISO `#~` key) maps to
    ///   ``backslash``, as the Linux HID driver does.
    public init?(hidUsage: HIDUsage) {
        guard let code = Self.codesByHID[UInt32(hidUsage.page) << 16 | UInt32(hidUsage.usage)] else { return nil }
        self = code
    }

    /// Every key in the built-in table, in evdev order.
    public static var allNamed: [KeyCode] {
        table.map { KeyCode($0.evdev) }
    }
}

extension KeyCode: CustomStringConvertible {
    /// The key's ``name``.
    public var description: String { name }
}

extension KeyCode {
    /// The first of the codes that stand for a key at a function key's place typing a character
    /// (``atCharacterPosition``): above every evdev code.
    static let characterPositionBase: UInt16 = 0x1000

    /// This key, as a character key: the ``Key/logicalKeyCode`` of a key at a function key's place
    /// (Escape, Tab…) that its keymap makes type a character (as wtype's keymaps do), so that it
    /// acts as no function key. Its ``name`` is its own number (`evdev4097`): names stay unique.
    public var atCharacterPosition: KeyCode {
        rawValue >= Self.characterPositionBase ? self : KeyCode(Self.characterPositionBase | rawValue)
    }

    /// The physical key a code stands for: itself, or the key an ``atCharacterPosition`` code is.
    public var physicalKey: KeyCode {
        rawValue >= Self.characterPositionBase ? KeyCode(rawValue & 0x0FFF) : self
    }
}
