/// Why a chord or key sequence could not be read.
public struct KeyChordParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that was being read.
    public var text: String
    /// The offending part.
    public var token: String
    /// The 1-based position of the offending chord in a key sequence (1 for a single chord).
    public var position: Int
    /// What is wrong.
    public var reason: String

    /// Creates a parse error.
    ///
    /// - Parameters:
    ///   - text: The text that was being read.
    ///   - token: The offending part.
    ///   - position: The 1-based position of the chord in its sequence.
    ///   - reason: What is wrong.
    public init(text: String, token: String, position: Int, reason: String) {
        self.text = text
        self.token = token
        self.position = position
        self.reason = reason
    }

    /// A sentence naming the chord, the part and the fix.
    public var description: String {
        "key \(position) \"\(text)\": \(reason) (\"\(token)\"); write chords like ctrl+shift+f, tab, shift+tab, "
            + "up, return, f5, KeyA"
    }
}

extension KeyChord {
    /// Modifier names accepted in chords and in scene shortcuts.
    static let modifierNames: [String: ModifierFlags] = [
        "ctrl": .control, "control": .control, "alt": .alternate, "option": .alternate, "opt": .alternate,
        "shift": .shift, "cmd": .command, "command": .command, "super": .command, "meta": .command, "logo": .command,
    ]

    static let modifierKeys: [String: KeyCode] = [
        "ctrl": .leftControl, "control": .leftControl, "alt": .leftAlt, "option": .leftAlt, "opt": .leftAlt,
        "shift": .leftShift, "cmd": .leftMeta, "command": .leftMeta, "super": .leftMeta, "meta": .leftMeta,
        "logo": .leftMeta,
    ]

    static let aliases: [String: KeyCode] = [
        "tab": .tab, "return": .return, "enter": .return, "esc": .escape, "escape": .escape, "space": .space,
        "backspace": .backspace, "delete": .deleteForward, "del": .deleteForward, "up": .upArrow,
        "down": .downArrow, "left": .leftArrow, "right": .rightArrow, "home": .home, "end": .end,
        "pageup": .pageUp, "pagedown": .pageDown, "pgup": .pageUp, "pgdn": .pageDown, "insert": .insert,
        "capslock": .capsLock, "numlock": .numLock, "scrolllock": .scrollLock, "plus": .equal, "menu": .contextMenu,
        "back": .back, "select": .select, "ok": .ok, "kpenter": .keypadEnter,
        // Remote controls and gamepads (`menu` stays the keyboard's context menu key).
        "exit": .exit, "remotemenu": .menu, "playpause": .playPause, "dpadup": .dpadUp, "dpaddown": .dpadDown,
        "dpadleft": .dpadLeft, "dpadright": .dpadRight, "gamepada": .gamepadSouth, "gamepadb": .gamepadEast,
        "gamepadstart": .gamepadStart,
    ]

    /// Reads a chord such as `ctrl+shift+f`, `shift+tab`, `up`, `f5`, `KeyA` or `?`.
    ///
    /// Parts are joined with `+`; the last part is the key, the others are modifiers (`ctrl`,
    /// `alt`/`option`, `shift`, `cmd`/`super`/`meta`). The key is a name from ``KeyCode/init(name:)``,
    /// an alias (`tab`, `return`/`enter`, `esc`, `space`, `backspace`, `delete`, `up`, `down`,
    /// `left`, `right`, `home`, `end`, `pageup`, `pagedown`, `f1`…`f24`, `capslock`, `plus`; for
    /// remote controls `ok`, `select`, `back`, `exit`, `remotemenu` (`KEY_MENU`: `menu` is the
    /// keyboard's context menu key), `playpause`; for gamepads `dpadup`, `dpaddown`, `dpadleft`,
    /// `dpadright`, `gamepada`, `gamepadb`, `gamepadstart`, or a kernel name such as `BTN_SOUTH`),
    /// a modifier name alone (`shift` presses Left Shift), or one character typed on a US layout
    /// (`a`, `1`, `/`; a shifted character such as `?` adds Shift). Names are case-insensitive
    /// except W3C and kernel names.
    ///
    /// - Parameter text: The chord.
    /// - Throws: ``KeyChordParseError`` naming the part that is not a key or modifier.
    public init(parsing text: String) throws(KeyChordParseError) {
        try self.init(parsing: text, position: 1)
    }

    init(parsing text: String, position: Int) throws(KeyChordParseError) {
        let (modifiers, last) = try Self.split(text, position: position)
        func fail(_ reason: String) -> KeyChordParseError {
            KeyChordParseError(text: text, token: last, position: position, reason: reason)
        }
        if modifiers.contains(.numericPad) {
            guard last.count == 1,
                let entry = KeyCommand.usReverseMap.keys(typing: last).first(where: { $0.code.isKeypad })
            else { throw fail("no keypad key types it") }
            self.init(entry.code, modifiers.subtracting(.numericPad))
            return
        }
        guard let (code, shifted) = Self.key(named: last) else { throw fail("not a key name") }
        self.init(code, shifted ? modifiers.union(.shift) : modifiers)
    }

    /// Splits `ctrl+shift+f` into its modifiers and its key (`ctrl++` is Control and the `+`
    /// key), checking every modifier name. `numpad` is accepted as a modifier: in a chord it picks
    /// the keypad key, in a key command the ``ModifierFlags/numericPad`` flag.
    static func split(_ text: String, position: Int) throws(KeyChordParseError) -> (
        ModifierFlags, String
    ) {
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("++") {
            parts.removeLast(2)
            parts.append("+")
        }
        guard let last = parts.last, !last.isEmpty, !parts.dropLast().contains("") else {
            throw KeyChordParseError(text: text, token: text, position: position, reason: "empty part")
        }
        var modifiers: ModifierFlags = []
        for part in parts.dropLast() {
            let name = part.lowercased()
            guard let flag = name == "numpad" ? .numericPad : modifierNames[name] else {
                throw KeyChordParseError(
                    text: text, token: part, position: position,
                    reason: "not a modifier")
            }
            modifiers.insert(flag)
        }
        return (modifiers, last)
    }

    /// The key named in a chord: the key code, and whether typing the named character needs Shift.
    static func key(named name: String) -> (KeyCode, Bool)? {
        // An exact W3C or kernel name comes first: `Select` is the keyboard's Select key (evdev 132,
        // the name `KeyCode.name` prints), `select` the remote control's (`KEY_SELECT`).
        if let code = KeyCode(name: name) { return (code, false) }
        let lower = name.lowercased()
        if let code = modifierKeys[lower] ?? aliases[lower] { return (code, false) }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), let code = KeyCode.function(number) {
            return (code, false)
        }
        if name.count == 1 {
            let character = lower != name.uppercased() ? lower : name
            if let entry = KeyCommand.usReverseMap.keys(typing: character).first(where: { !$0.code.isKeypad }) {
                return (entry.code, entry.needsShift)
            }
        }
        return nil
    }

    /// Reads a key sequence: chords separated by spaces, such as `tab tab down return shift+tab ctrl+f`.
    ///
    /// - Parameter text: The sequence.
    /// - Returns: The chords in order.
    /// - Throws: ``KeyChordParseError`` naming the first chord that cannot be read and its position.
    public static func parseSequence(_ text: String) throws(KeyChordParseError) -> [KeyChord] {
        var chords: [KeyChord] = []
        for (offset, token) in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).enumerated() {
            chords.append(try KeyChord(parsing: String(token), position: offset + 1))
        }
        return chords
    }

    /// The modifier keys to hold for this chord (left-hand keys), in the order ctrl, alt, shift, cmd.
    public var modifierKeys: [KeyCode] {
        var keys: [KeyCode] = []
        if modifierFlags.contains(.control) { keys.append(.leftControl) }
        if modifierFlags.contains(.alternate) { keys.append(.leftAlt) }
        if modifierFlags.contains(.shift) { keys.append(.leftShift) }
        if modifierFlags.contains(.command) { keys.append(.leftMeta) }
        return keys.filter { $0 != code }
    }
}

extension KeyCommand {
    /// Reads a shortcut in the chord notation of ``KeyChord/init(parsing:)`` (the notation of
    /// keytrace's `--keys` and of scene files): modifiers joined with `+`, then one character
    /// (`ctrl+f`, `cmd+?`, `ctrl++`) or a key name (`shift+tab`, `esc`, `pgdn`, `del`, `insert`,
    /// `f5`, `select`, `back`, `remotemenu`, `playpause`). `numpad` among the modifiers sets
    /// ``ModifierFlags/numericPad`` (`numpad+1`). A gamepad button names the key it acts as
    /// (``KeyCode/gamepadRole``): `BTN_SOUTH` and `ok` are ``SpecialKey/select``.
    ///
    /// A character becomes a ``Input/character(_:)`` input, matched by what the layout types; a
    /// key name becomes the ``SpecialKey`` that matches that key. A key that no key command can
    /// name (a modifier or lock key, a key with no ``SpecialKey``) is an error.
    ///
    /// - Parameter shortcut: The shortcut.
    /// - Returns: The input and the modifiers.
    /// - Throws: ``KeyChordParseError`` naming the part that is not a modifier or a key.
    public static func parseShortcut(_ shortcut: String) throws(KeyChordParseError) -> (
        input: Input, modifierFlags: ModifierFlags
    ) {
        let (modifiers, last) = try KeyChord.split(shortcut, position: 1)
        if last.count == 1 { return (.character(last), modifiers) }
        if last.lowercased() == "plus" { return (.character("+"), modifiers) }
        guard let (code, _) = KeyChord.key(named: last) else {
            throw KeyChordParseError(text: shortcut, token: last, position: 1, reason: "not a key name")
        }
        // A gamepad button names the key it acts as: `BTN_SOUTH` is a command on `select`.
        let role = code.gamepadRole ?? code
        guard let special = SpecialKey.allCases.first(where: { $0.keyCodes.contains(role) }) else {
            throw KeyChordParseError(
                text: shortcut, token: last, position: 1,
                reason: "a key command cannot name this key (use a character or tab, return, esc, space, backspace, "
                    + "delete, insert, up, down, left, right, home, end, pageup, pagedown, f1…f24, select, back, "
                    + "remotemenu, playpause)")
        }
        return (.special(special), modifiers)
    }
}
