import Foundation
import ResponderChain
import ResponderChainTesting
import Testing

@testable import XKBKeymap

@MainActor @Suite struct XKBKeyboardLayoutTests {
    @Test("us and de from xkbcommon: on de the key at KEY_Y types z and the key at KEY_Z types y")
    func germanZY() throws {
        let us = try XKBKeyboardLayout(KeymapNames(layout: "us"))
        let de = try XKBKeyboardLayout(KeymapNames(layout: "de"))
        #expect(us.characters(for: .z, in: LayoutState()) == "z")
        #expect(de.characters(for: .y, in: LayoutState()) == "z")
        #expect(de.characters(for: .z, in: LayoutState()) == "y")
        #expect(de.charactersIgnoringModifiers(for: .y) == "z")
        #expect(de.characters(for: .y, in: LayoutState(modifierFlags: .shift)) == "Z")
        #expect(de.characters(for: .y, in: LayoutState(modifierFlags: .alphaShift)) == "Z")
        #expect(de.characters(for: .q, in: LayoutState(levelThree: true)) == "@", "AltGr-Q is @ on de")
        #expect(de.characters(for: .tab, in: LayoutState()) == "\t")
        #expect(de.characters(for: .upArrow, in: LayoutState()) == "")
        #expect(de.keysymName(for: .y) == "z")
        #expect(de.keysymName(for: .rightAlt) == "ISO_Level3_Shift")
        #expect(de.rightAltIsLevelThree && !us.rightAltIsLevelThree)
        #expect(de.name == "de")
    }

    @Test("the xkb us layout agrees with the built-in US layout on the printable keys")
    func agreesWithBuiltIn() throws {
        let xkb = try XKBKeyboardLayout(KeymapNames(layout: "us"))
        let builtIn = USKeyboardLayout()
        for code in KeyCode.allNamed where code.rawValue < 100 && !code.isModifier {
            for flags in [ModifierFlags(), .shift, .alphaShift] {
                let state = LayoutState(modifierFlags: flags)
                #expect(
                    xkb.characters(for: code, in: state) == builtIn.characters(for: code, in: state), "\(code) \(flags)"
                )
            }
        }
    }

    @Test("an unknown layout is an error that names it and the fix, without xkbcommon's log lines")
    func unknownLayout() {
        do {
            _ = try XKBKeyboardLayout(KeymapNames(layout: "klingon"))
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("unknown keyboard layout \"klingon\": xkbcommon could not compile it."))
            #expect(error.description.contains("localectl list-x11-keymap-layouts"))
        }
    }

    @Test("a ctrl+z key command fires from the key that types z on de (KEY_Y)")
    func germanShortcut() throws {
        let window = Window()
        let editor = RecordingResponder("editor", performs: ["undo"], canBecomeFirstResponder: true)
        window.addChild(editor)
        editor.becomeFirstResponder()
        editor.keyCommands = [KeyCommand("z", modifierFlags: .control, action: "undo")]
        let dispatcher = Dispatcher(window: window, layout: try XKBKeyboardLayout(KeymapNames(layout: "de")))
        let keyboard = VirtualKeyboard(dispatcher)
        keyboard.tap(KeyChord(.z, .control))
        #expect(editor.performedActions.isEmpty)
        keyboard.tap(KeyChord(.y, .control))
        #expect(editor.performedActions == ["undo"])
    }

    @Test(
        "on ru, a Latin shortcut moves to its US key unless localization is off; then the report says unreachable on ru"
    )
    func cyrillicLocalization() throws {
        let window = Window()
        let editor = RecordingResponder("editor", performs: ["undo", "find"], canBecomeFirstResponder: true)
        window.addChild(editor)
        editor.becomeFirstResponder()
        editor.keyCommands = [
            KeyCommand("z", modifierFlags: .control, action: "undo"),
            KeyCommand("f", modifierFlags: .control, action: "find", allowsAutomaticLocalization: false),
        ]
        let layout = try XKBKeyboardLayout(KeymapNames(layout: "ru"))
        let dispatcher = Dispatcher(window: window, layout: layout)
        VirtualKeyboard(dispatcher).tap(KeyChord(.z, .control))
        #expect(editor.performedActions == ["undo"], "KEY_Z types я on ru; the command moved there")
        let report = KeyCommandConflictReport(dispatcher)
        let find = try #require(report.entries.first { $0.command.action == "find" })
        #expect(find.status == .unreachable(layout: layout.name))
        #expect("\(report)".contains("unreachable on layout \(layout.name)"))
        #expect(layout.name.contains("ru"))
        let undo = try #require(report.entries.first { $0.command.action == "undo" })
        #expect(undo.localized)
        #expect(report.conflicts.map(\.command.action) == ["find"], "an unreachable command is a conflict")
    }
}

/// Names xkbcommon would silently ignore, or refuse without saying why, checked against the
/// rules' `.lst` file with a did-you-mean; rules that do not exist say where they were looked for.
@MainActor @Suite struct XKBNameCheckTests {
    static func message(_ names: KeymapNames) -> String? {
        do {
            _ = try XKBKeyboardLayout(names)
            return nil
        } catch {
            return error.description
        }
    }

    @Test(
        "an unknown model, option or variant, or a variant without a layout, is an error with the nearest name",
        arguments: [
            (
                KeymapNames(layout: "us", options: "garbage"),
                #"unknown xkb option "garbage"; options are group:name, listed under "! option" in /usr/share/X11/xkb/rules/evdev.lst (or `localectl list-x11-keymap-options`)"#
            ),
            (
                KeymapNames(layout: "us", options: "compose:ralt,ctrl:nocap"),
                #"unknown xkb option "ctrl:nocap" (did you mean "ctrl:nocaps"?); options are group:name, listed under "! option" in /usr/share/X11/xkb/rules/evdev.lst (or `localectl list-x11-keymap-options`)"#
            ),
            (
                KeymapNames(layout: "us", options: "grp"),
                #"unknown xkb option "grp"; options are group:name, listed under "! option" in /usr/share/X11/xkb/rules/evdev.lst (or `localectl list-x11-keymap-options`)"#
            ),
            (
                KeymapNames(model: "pc015", layout: "us"),
                #"unknown keyboard model "pc015" (did you mean "pc105"?); the models are listed under "! model" in /usr/share/X11/xkb/rules/evdev.lst"#
            ),
            (
                KeymapNames(layout: "us", variant: "dvorakk"),
                #"unknown variant "dvorakk" of layout "us" (did you mean "dvorak"?): xkbcommon could not compile it. List its variants with `localectl list-x11-keymap-variants us`, or read /usr/share/X11/xkb/rules/evdev.lst."#
            ),
            (
                KeymapNames(layout: "us,dee"),
                #"unknown keyboard layout "dee" (did you mean "de"?): xkbcommon could not compile it. List the layouts with `localectl list-x11-keymap-layouts`, or read /usr/share/X11/xkb/rules/evdev.lst."#
            ),
            (
                KeymapNames(layout: "us", variant: "dvorak,intl"),
                #"the variant "intl" has no layout: give one layout per variant (layout "us,de" with variant "dvorak,")"#
            ),
        ])
    func unknownNames(names: KeymapNames, message: String) {
        #expect(Self.message(names) == message)
    }

    @Test("rules that do not exist: where they were looked for and the rules there")
    func missingRules() throws {
        let message = try #require(Self.message(KeymapNames(rules: "nonexistent", layout: "us")))
        #expect(message.hasPrefix(#"no xkb rules file "nonexistent": looked in "#), "\(message)")
        #expect(message.contains("/usr/share/X11/xkb/rules"), "\(message)")
        #expect(message.hasSuffix("rules there: base, evdev, xfree98, xorg"), "\(message)")
    }

    @Test("valid names from the list and from the extras compile: models, options, variants, extras layouts")
    func validNames() throws {
        let dvorak = try XKBKeyboardLayout(
            KeymapNames(
                rules: "evdev", model: "pc105", layout: "us,de", variant: "dvorak,nodeadkeys",
                options: "ctrl:nocaps,compose:ralt,lv3:4_switch_isolated"))
        #expect(dvorak.characters(for: .q, in: LayoutState()) == "'")
        _ = try XKBKeyboardLayout(KeymapNames(rules: "base", layout: "apl"))
    }

    @Test("without a .lst file the names are not checked, as xkbcommon does not check them")
    func noListFile() {
        #expect(XKBRulesList(rulesFile: "/nonexistent/rules/evdev") == nil)
        let list = XKBRulesList(lst: "! model\n  pc105   Generic 105-key PC\n", path: "x.lst")
        #expect(list.ignoredName(in: KeymapNames(model: "pc105", layout: "us")) == nil)
        #expect(
            list.ignoredName(in: KeymapNames(model: "pc106", layout: "us"))?.hasPrefix("unknown keyboard model") == true
        )
    }
}

@MainActor @Suite struct KeymapNamesTests {
    func keyboardFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keyboard-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("explicit names win, then XKB_DEFAULT_*, then /etc/default/keyboard, then us")
    func order() throws {
        let file = try keyboardFile(
            """
            # KEYBOARD CONFIGURATION FILE
            XKBMODEL="pc105"
            XKBLAYOUT="fr"
            XKBVARIANT="azerty"
            XKBOPTIONS="ctrl:nocaps"
            BACKSPACE="guess"
            """)
        let environment = [
            "XKB_DEFAULT_LAYOUT": "de", "XKB_DEFAULT_VARIANT": "nodeadkeys", "XKB_DEFAULT_MODEL": "pc104",
        ]
        let explicit = KeymapNames(layout: "us").resolved(environment: environment, keyboardFile: file)
        #expect(explicit.names == KeymapNames(model: "pc104", layout: "us", options: "ctrl:nocaps"))
        #expect(explicit.layoutSource == .explicit)
        let fromEnvironment = KeymapNames().resolved(environment: environment, keyboardFile: file)
        #expect(fromEnvironment.names.layout == "de" && fromEnvironment.names.variant == "nodeadkeys")
        #expect(fromEnvironment.layoutSource == .environment)
        let fromFile = KeymapNames().resolved(environment: [:], keyboardFile: file)
        #expect(fromFile.names == KeymapNames(model: "pc105", layout: "fr", variant: "azerty", options: "ctrl:nocaps"))
        #expect(fromFile.layoutSource == .keyboardFile)
        let fallback = KeymapNames().resolved(environment: [:], keyboardFile: "/nonexistent/keyboard")
        #expect(fallback.names == KeymapNames(layout: "us") && fallback.layoutSource == .fallback)
        #expect(try XKBKeyboardLayout(fromFile.names).name == "fr(azerty)")
    }

    @Test("the variant travels with its layout: an explicit layout never takes another source's variant")
    func variantStaysWithLayout() throws {
        let file = try keyboardFile("XKBLAYOUT=de\nXKBVARIANT=nodeadkeys\n")
        let resolved = KeymapNames(layout: "us").resolved(environment: [:], keyboardFile: file)
        #expect(resolved.names.variant == nil)
        #expect(resolved.names.description == "us")
    }
}
