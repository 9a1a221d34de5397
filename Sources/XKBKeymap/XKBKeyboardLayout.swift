internal import CXKBCommon
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
    public init(_ names: KeymapNames, composeLocale: String?) throws(KeymapError) {
        self.names = names
        self.composeLocale = composeLocale
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
        let list = rulesFile.flatMap { XKBRulesList(rulesFile: $0) }
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
            throw Self.compileError(names, list: list)
        }
        // xkbcommon compiles an unknown model or option, or a variant without a layout, without a
        // word: the rules' list catches them.
        if let problem = list?.ignoredName(in: names) {
            xkb_keymap_unref(compiled)
            xkb_context_unref(context)
            throw KeymapError(names: names, message: problem)
        }
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
