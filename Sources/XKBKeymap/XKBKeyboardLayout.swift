internal import CXKBCommon
internal import Glibc
internal import LinuxSystem
public import ResponderChain

/// Why a keymap could not be compiled.
public struct KeymapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The names that were asked for.
    public var names: KeymapNames
    /// What went wrong and how to fix it.
    public var message: String

    /// The message, on one line with control characters escaped
    /// (`String.escapingControlCharacters(keepingNewlines:)`): a name from the command line or an
    /// `XKB_DEFAULT_*` variable cannot drive the terminal the error is printed on.
    public var description: String { message.escapingControlCharacters() }
}

/// A keyboard layout compiled by xkbcommon from RMLVO names: characters, keysym names and the
/// AltGr level as that layout defines them.
///
/// ```swift
/// let (names, _) = KeymapNames(layout: "de").resolved(environment: [:])
/// let german = try XKBKeyboardLayout(names)
/// german.characters(for: .y, in: LayoutState())    // "z": the key at KEY_Y types z on a German keyboard
/// dispatcher.layout = german
/// ```
public final class XKBKeyboardLayout: KeyboardLayout {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    private let shiftMask: UInt32
    private let lockMask: UInt32
    private let numLockMask: UInt32
    private let levelThreeMask: UInt32
    /// Characters by evdev code (below 256) and the four modifier bits, filled on first use.
    private var cache: [String?] = Array(repeating: nil, count: 256 * 16)

    /// The names the keymap was compiled from.
    public let names: KeymapNames
    /// `layout(variant)`, for example `de(nodeadkeys)`.
    public var name: String { names.description }
    /// Whether Right Alt is AltGr in this keymap (it produces `ISO_Level3_Shift`).
    public let rightAltIsLevelThree: Bool
    /// The locale whose compose table gives dead keys and compose sequences (`LC_ALL`,
    /// `LC_CTYPE`, `LANG`, else `C`); `nil` for none.
    public let composeLocale: String?
    private var composeTable: OpaquePointer?
    private var composeTableLoaded = false

    /// Compiles a keymap.
    ///
    /// - Parameter names: The RMLVO names; `nil` fields use xkbcommon's defaults (rules `evdev`,
    ///   model `pc105`). Resolve them first with ``KeymapNames/resolved(environment:keyboardFile:)``
    ///   to honour the environment and `/etc/default/keyboard`.
    /// - Throws: ``KeymapError`` naming the layout and how to list the valid ones. xkbcommon's own
    ///   error lines are silenced. Uses `xkb_keymap_new_from_names`.
    public convenience init(_ names: KeymapNames) throws(KeymapError) {
        try self.init(names, composeLocale: Self.locale(in: Self.localeEnvironment))
    }

    /// Compiles a keymap, with dead keys and compose sequences from a locale's compose table.
    ///
    /// - Parameters:
    ///   - names: The RMLVO names (see ``init(_:)``).
    ///   - composeLocale: The locale whose compose table to use (`en_US.UTF-8`, `de_DE.UTF-8`;
    ///     `C.UTF-8` uses the `en_US.UTF-8` table), or `nil` for none: dead keys then type
    ///     nothing. A locale without a table also means none.
    /// - Throws: ``KeymapError``.
    public convenience init(_ names: KeymapNames, composeLocale: String?) throws(KeymapError) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else {
            throw KeymapError(names: names, message: "xkbcommon could not create a context (out of memory?)")
        }
        // xkbcommon prints about ten ERROR lines for an unknown layout; the thrown error says it once.
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        let rulesFile: String?
        do { rulesFile = try Self.findRulesFile(names, context: context) } catch {
            xkb_context_unref(context)
            throw error
        }
        // The rules' list (evdev.lst, about 3 ms to read) explains errors and catches the names
        // xkbcommon ignores (a model, an option, a variant beyond the layouts): read only when needed.
        let variants = names.variant.map { $0.split(separator: ",", omittingEmptySubsequences: false).count } ?? 0
        let layouts = names.layout.map { $0.split(separator: ",", omittingEmptySubsequences: false).count } ?? 0
        let checksNames =
            !(names.model ?? "").isEmpty && names.model != "pc105" || !(names.options ?? "").isEmpty
            || variants > layouts
        var list = checksNames ? rulesFile.flatMap { XKBRulesList(rulesFile: $0) } : nil
        let compiled: OpaquePointer? = Self.withOptionalCString(names.rules) { rules in
            Self.withOptionalCString(names.model) { model in
                Self.withOptionalCString(names.layout) { layout in
                    Self.withOptionalCString(names.variant) { variant in
                        Self.withOptionalCString(names.options) { options in
                            var rmlvo = xkb_rule_names(
                                rules: rules, model: model, layout: layout, variant: variant, options: options)
                            return xkb_keymap_new_from_names(context, &rmlvo, XKB_KEYMAP_COMPILE_NO_FLAGS)
                        }
                    }
                }
            }
        }
        guard let compiled else {
            xkb_context_unref(context)
            if list == nil { list = rulesFile.flatMap { XKBRulesList(rulesFile: $0) } }
            throw Self.compileError(names, list: list)
        }
        // xkbcommon compiles an unknown model or option, or a variant without a layout, without a
        // word: the rules' list catches them.
        if let problem = list?.ignoredName(in: names) {
            xkb_keymap_unref(compiled)
            xkb_context_unref(context)
            throw KeymapError(names: names, message: problem)
        }
        try self.init(compiled: compiled, context: context, names: names, composeLocale: composeLocale)
    }

    /// Compiles the keymap a compositor sent, with the compose table of the process's locale
    /// (`LC_ALL`, `LC_CTYPE`, `LANG`), as ``init(_:)`` does.
    ///
    /// - Parameter keymapText: The keymap's text (a trailing NUL is allowed); at most
    ///   ``maximumKeymapSize`` bytes.
    /// - Throws: ``KeymapError``, as ``init(keymapText:composeLocale:)`` does.
    public convenience init(keymapText: UnsafeRawBufferPointer) throws(KeymapError) {
        try self.init(keymapText: keymapText, composeLocale: Self.locale(in: Self.localeEnvironment))
    }

    /// The keymap as xkb v1 text, as a compositor sends it in `wl_keyboard.keymap` (without the
    /// trailing NUL): for a test that plays a compositor, or a fuzzer's seed.
    ///
    /// Uses `xkb_keymap_get_as_string`.
    public var keymapText: String {
        guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// The longest keymap a compositor may send, in bytes (a full desktop keymap is 50–100 KiB).
    public static let maximumKeymapSize = 1 << 20

    /// Compiles the keymap a compositor sent (`wl_keyboard.keymap`, format `xkb_v1`): its text,
    /// not names. Its layouts' names (from the keymap) make ``names``.
    ///
    /// - Parameters:
    ///   - keymapText: The keymap's text, as the compositor's file holds it (a trailing NUL is
    ///     allowed); at most ``maximumKeymapSize`` bytes.
    ///   - composeLocale: The locale whose compose table to use, as for ``init(_:composeLocale:)``.
    /// - Throws: ``KeymapError`` for a keymap that is too large, empty or that xkbcommon cannot
    ///   compile, naming the size or the problem. Uses `xkb_keymap_new_from_buffer`.
    public convenience init(keymapText: UnsafeRawBufferPointer, composeLocale: String?) throws(KeymapError) {
        let unnamed = KeymapNames(layout: "compositor keymap")
        guard keymapText.count <= Self.maximumKeymapSize else {
            throw KeymapError(
                names: unnamed,
                message:
                    "the compositor's keymap is \(keymapText.count) bytes; at most \(Self.maximumKeymapSize) are read")
        }
        var length = keymapText.count
        while length > 0 && keymapText[length - 1] == 0 { length -= 1 }
        guard length > 0, let base = keymapText.baseAddress else {
            throw KeymapError(names: unnamed, message: "the compositor's keymap is empty")
        }
        if let problem = Self.knownCrash(in: UnsafeRawBufferPointer(rebasing: keymapText[0..<length])) {
            throw KeymapError(names: unnamed, message: "the compositor's keymap is malformed: \(problem)")
        }
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else {
            throw KeymapError(names: unnamed, message: "xkbcommon could not create a context (out of memory?)")
        }
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        guard
            let compiled = xkb_keymap_new_from_buffer(
                context, base.assumingMemoryBound(to: CChar.self), length, XKB_KEYMAP_FORMAT_TEXT_V1,
                XKB_KEYMAP_COMPILE_NO_FLAGS)
        else {
            xkb_context_unref(context)
            throw KeymapError(
                names: unnamed,
                message: "xkbcommon cannot compile the compositor's keymap (\(length) bytes of xkb_v1 text): "
                    + "the compositor sent a malformed keymap")
        }
        var layouts: [String] = []
        for index in 0..<min(xkb_keymap_num_layouts(compiled), 4) {
            if let name = xkb_keymap_layout_get_name(compiled, index) { layouts.append(String(cString: name)) }
        }
        let names = KeymapNames(layout: layouts.isEmpty ? "compositor keymap" : layouts.joined(separator: ","))
        try self.init(compiled: compiled, context: context, names: names, composeLocale: composeLocale)
    }

    /// Syntax that crashes the parser of the xkbcommon releases in use (1.5 in Debian 12) instead
    /// of failing: an empty element in a list (`key <SPC> {, [space] }`, fixed in xkbcommon 1.7,
    /// libxkbcommon#423) and an empty bracket list (`vmods = []`, libxkbcommon#608). Neither means
    /// anything, and no keymap a compositor writes holds one; they are refused before xkbcommon
    /// sees them. `fuzz-keymap` found the first; each new one found gets a guard here and a
    /// regression input.
    ///
    /// - Parameter text: The keymap's text.
    /// - Returns: What is wrong, or `nil`.
    static func knownCrash(in text: UnsafeRawBufferPointer) -> String? {
        var last: UInt8 = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\""):
                // A string: to its closing quote (a backslash escapes the next byte).
                index += 1
                while index < text.count && text[index] != UInt8(ascii: "\"") {
                    index += text[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                last = UInt8(ascii: "\"")
            case UInt8(ascii: "#"):
                while index < text.count && text[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "/"):
                while index < text.count && text[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            case UInt8(ascii: ","):
                if last == UInt8(ascii: "{") || last == UInt8(ascii: "[") || last == UInt8(ascii: ",") {
                    return
                        "an empty element in a list (a comma after \(Character(Unicode.Scalar(last)))) at byte \(index)"
                }
                last = byte
            case UInt8(ascii: "]"):
                if last == UInt8(ascii: "[") { return "an empty bracket list ([]) at byte \(index)" }
                last = byte
            default:
                last = byte
            }
            index += 1
        }
        return nil
    }

    /// Takes a compiled keymap and its context (released on failure).
    private init(compiled: OpaquePointer, context: OpaquePointer, names: KeymapNames, composeLocale: String?)
        throws(KeymapError)
    {
        self.names = names
        self.composeLocale = composeLocale
        guard let state = xkb_state_new(compiled) else {
            xkb_keymap_unref(compiled)
            xkb_context_unref(context)
            throw KeymapError(names: names, message: "xkbcommon could not create a keyboard state")
        }
        self.context = context
        self.keymap = compiled
        self.state = state
        func mask(_ name: String) -> UInt32 {
            let index = xkb_keymap_mod_get_index(compiled, name)
            return index == XKB_MOD_INVALID ? 0 : 1 << index
        }
        shiftMask = mask("Shift")
        lockMask = mask("Lock")
        numLockMask = mask("Mod2")
        levelThreeMask = mask("Mod5")
        var symbols: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(compiled, 100 + 8, 0, 0, &symbols)
        rightAltIsLevelThree = count > 0 && symbols?[0] == 0xFE03  // XKB_KEY_ISO_Level3_Shift
    }

    deinit {
        if let composeTable { xkb_compose_table_unref(composeTable) }
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// A tracker for the live key state (``XKBKeyState``): xkbcommon's own modifiers, locks and
    /// layout switching, with the compose table of ``composeLocale`` (read on the first call).
    public func makeKeyStateTracker() -> (any KeyStateTracker)? {
        if !composeTableLoaded {
            composeTableLoaded = true
            composeTable = composeLocale.flatMap { locale in
                xkb_compose_table_new_from_locale(context, locale, XKB_COMPOSE_COMPILE_NO_FLAGS)
            }
        }
        return XKBKeyState(keymap: keymap, composeTable: composeTable)
    }

    /// The process's `LC_ALL`, `LC_CTYPE` and `LANG`.
    static var localeEnvironment: [String: String] {
        var values: [String: String] = [:]
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = Syscalls.environment(name) { values[name] = value }
        }
        return values
    }

    /// The locale the environment names for characters: `LC_ALL`, `LC_CTYPE`, `LANG`, else `C`.
    static func locale(in environment: [String: String]) -> String {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return "C"
    }

    /// The rules file xkbcommon will read: `rules/<name>` in the first of the context's include
    /// paths that has it (`evdev` when the names give none); `nil` when there is no XKB data at
    /// all, which the compile error then explains.
    ///
    /// - Throws: ``KeymapError`` naming the rules, where they were looked for and the rules there.
    private static func findRulesFile(_ names: KeymapNames, context: OpaquePointer) throws(KeymapError) -> String? {
        let rules = names.rules.flatMap { $0.isEmpty ? nil : $0 } ?? "evdev"
        let directories = (0..<xkb_context_num_include_paths(context)).compactMap { index in
            xkb_context_include_path_get(context, index).map { String(cString: $0) + "/rules" }
        }
        if let found = directories.lazy.map({ $0 + "/" + rules }).first(where: Syscalls.exists) { return found }
        let available = Set(
            directories.flatMap { directory in
                directoryEntries(directory).filter { !$0.contains(".") && $0 != "README" }
            }
        ).sorted()
        guard !available.isEmpty else { return nil }
        throw KeymapError(
            names: names,
            message: "no xkb rules file \"\(rules)\": looked in \(directories.joined(separator: ", ")); "
                + "rules there: \(available.joined(separator: ", "))")
    }

    /// Why xkbcommon could not compile the names: the unknown layout or variant and the nearest
    /// known one when the rules' list says which, and how to list the valid names.
    private static func compileError(_ names: KeymapNames, list: XKBRulesList?) -> KeymapError {
        let listPath = list?.path ?? "/usr/share/X11/xkb/rules/evdev.lst"
        let what: String
        let hint: String
        switch list?.unknownLayoutOrVariant(in: names) {
        case .layout(let message):
            what = message
            hint = " List the layouts with `localectl list-x11-keymap-layouts`, or read \(listPath)."
        case .variant(let message, let layout):
            what = message
            hint = " List its variants with `localectl list-x11-keymap-variants \(layout)`, or read \(listPath)."
        case nil:
            what =
                "unknown keyboard layout \"\(names.description)\""
                + (names.options.map { " with options \"\($0)\"" } ?? "")
            hint =
                " List the valid names with `localectl list-x11-keymap-layouts` (layouts) and "
                + "`localectl list-x11-keymap-variants \(names.layout ?? "us")` (variants), or read \(listPath)."
        }
        let dataHint =
            Syscalls.exists("/usr/share/X11/xkb/rules/evdev")
            ? hint : " The XKB data is missing: install the xkb-data package."
        return KeymapError(names: names, message: what + ": xkbcommon could not compile it." + dataHint)
    }

    private static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    private func setState(_ layoutState: LayoutState) {
        var depressed: UInt32 = 0
        if layoutState.modifierFlags.contains(.shift) { depressed |= shiftMask }
        if layoutState.levelThree { depressed |= levelThreeMask }
        var locked: UInt32 = 0
        if layoutState.modifierFlags.contains(.alphaShift) { locked |= lockMask }
        if layoutState.numLock { locked |= numLockMask }
        xkb_state_update_mask(state, depressed, 0, locked, 0, 0, UInt32(clamping: max(0, layoutState.group)))
    }

    /// The characters the key types with Shift, Caps Lock, Num Lock and AltGr as given; Control,
    /// Alt and Command are ignored. Uses `xkb_state_key_get_utf8`.
    ///
    /// - Parameters:
    ///   - code: The physical key.
    ///   - layoutState: The modifiers and locks.
    /// - Returns: The characters, or `""`.
    public func characters(for code: KeyCode, in layoutState: LayoutState) -> String {
        let flags = layoutState.modifierFlags
        let bits =
            (flags.contains(.shift) ? 1 : 0) | (flags.contains(.alphaShift) ? 2 : 0) | (layoutState.numLock ? 4 : 0)
            | (layoutState.levelThree ? 8 : 0)
        // The cache holds the first layout; others are looked up each time.
        let slot = layoutState.group == 0 ? Int(code.rawValue) * 16 + bits : Int.max
        if slot < cache.count, let cached = cache[slot] { return cached }
        setState(layoutState)
        let keycode = UInt32(code.rawValue) + 8
        let length = Int(xkb_state_key_get_utf8(state, keycode, nil, 0))
        var text = ""
        if length > 0 {
            var buffer = [CChar](repeating: 0, count: length + 1)
            _ = xkb_state_key_get_utf8(state, keycode, &buffer, buffer.count)
            text = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if slot < cache.count { cache[slot] = text }
        return text
    }

    /// The key a physical key acts as: the standard key of the function keysym it types with no
    /// modifier in the first layout (a keymap that puts `Tab` on another key makes that key act
    /// as Tab: focus, key commands and editing follow it); for a key at a function key's place
    /// that types a character instead, the same key as a character key
    /// (`KeyCode.atCharacterPosition`), which acts as no function key; `nil` when it acts as itself.
    ///
    /// - Parameter code: The physical key.
    /// - Returns: The standard key of its function keysym, when that is another key.
    ///
    /// Uses `xkb_keymap_key_get_syms_by_level` (level 1 of group 1).
    public func logicalKeyCode(for code: KeyCode) -> KeyCode? {
        var symbols: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(keymap, UInt32(code.rawValue) + 8, 0, 0, &symbols)
        guard count == 1, let symbols else { return nil }
        if let standard = Self.functionKeys[symbols[0]] { return standard == code ? nil : standard }
        // A character at a function key's place (wtype puts its letters at Escape, Tab…): it types,
        // and acts as no function key.
        guard Self.functionPositions.contains(code), xkb_keysym_to_utf32(symbols[0]) >= 0x20 else { return nil }
        return code.atCharacterPosition
    }

    /// The standard places of the function and modifier keys.
    static let functionPositions = Set(functionKeys.values)

    /// Function keysyms and the standard key of each (evdev's), for ``logicalKeyCode(for:)``.
    static let functionKeys: [UInt32: KeyCode] = [
        0x20: .space, 0xff09: .tab, 0xfe20: .tab, 0xff0d: .return, 0xff8d: .keypadEnter, 0xff1b: .escape,
        0xff08: .backspace,
        0xffff: .deleteForward, 0xff63: .insert, 0xff50: .home, 0xff57: .end, 0xff55: .pageUp, 0xff56: .pageDown,
        0xff51: .leftArrow, 0xff52: .upArrow, 0xff53: .rightArrow, 0xff54: .downArrow, 0xffbe: .f1, 0xffbf: .f2,
        0xffc0: .f3, 0xffc1: .f4, 0xffc2: .f5, 0xffc3: .f6, 0xffc4: .f7, 0xffc5: .f8, 0xffc6: .f9, 0xffc7: .f10,
        0xffc8: .f11, 0xffc9: .f12,
        // Modifiers and locks: ctrl:nocaps makes Caps Lock a Control key; a letter at Control's place is a letter.
        0xffe1: .leftShift, 0xffe2: .rightShift, 0xffe3: .leftControl, 0xffe4: .rightControl, 0xffe5: .capsLock,
        0xffe9: .leftAlt, 0xffea: .rightAlt, 0xffeb: .leftMeta, 0xffec: .rightMeta, 0xff7f: .numLock,

    ]

    /// The keysym name the key produces in a state, such as `z`, `ISO_Level3_Shift` or `Return`:
    /// this layout's answer to `KeyboardLayout.keysymName(for:in:)`, which traces show.
    /// Uses `xkb_state_key_get_one_sym` and `xkb_keysym_get_name`.
    ///
    /// - Parameters:
    ///   - code: The physical key.
    ///   - layoutState: The modifiers and locks.
    /// - Returns: The name, or `NoSymbol` for a key without one; never `nil`.
    public func keysymName(for code: KeyCode, in layoutState: LayoutState = LayoutState()) -> String? {
        setState(layoutState)
        let symbol = xkb_state_key_get_one_sym(state, UInt32(code.rawValue) + 8)
        var buffer = [CChar](repeating: 0, count: 64)
        let length = Int(xkb_keysym_get_name(symbol, &buffer, buffer.count))
        guard length > 0 else { return "NoSymbol" }
        return String(decoding: buffer.prefix(min(length, 63)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
