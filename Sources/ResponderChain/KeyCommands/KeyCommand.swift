/// A keyboard shortcut: an input with modifier flags that sends an action up the responder chain.
///
/// The counterpart of UIKit's `UIKeyCommand`. Declare commands on a responder's
/// ``Responder/keyCommands`` (active while it is in the chain) or in
/// ``Dispatcher/globalKeyCommands`` (menu-bar-like, always active):
/// ```swift
/// KeyCommand("f", modifierFlags: .control, action: .find, title: "Find")
/// KeyCommand(.escape, action: .cancel, title: "Cancel")
/// KeyCommand(.tab, modifierFlags: .control, action: .nextTab, title: "Next Tab",
///            wantsPriorityOverSystemBehavior: true)
/// ```
/// How a command's input is matched against keys is described in <doc:KeyCommandMatching>.
public struct KeyCommand: Hashable, Sendable {
    /// What a command listens for: a character or a special key.
    public enum Input: Hashable, Sendable, CustomStringConvertible {
        /// A character, matched against what the key types (see <doc:KeyCommandMatching>).
        case character(String)
        /// A key that types nothing printable, matched by its identity.
        case special(SpecialKey)

        /// The character, or the special key's name.
        public var description: String {
            switch self {
            case .character(let text): return text
            case .special(let key): return key.rawValue
            }
        }
    }

    /// Keys that key commands name by identity rather than by character.
    public enum SpecialKey: String, Hashable, Sendable, CaseIterable {
        /// Up arrow.
        case upArrow
        /// Down arrow.
        case downArrow
        /// Left arrow.
        case leftArrow
        /// Right arrow.
        case rightArrow
        /// Escape.
        case escape
        /// Tab.
        case tab
        /// Return, on the main block or the keypad.
        case `return`
        /// Backspace (the key labelled Delete on Apple keyboards).
        case backspace
        /// Forward delete.
        case deleteForward
        /// Home.
        case home
        /// End.
        case end
        /// Page Up.
        case pageUp
        /// Page Down.
        case pageDown
        /// Space.
        case space
        /// F1.
        case f1
        /// F2.
        case f2
        /// F3.
        case f3
        /// F4.
        case f4
        /// F5.
        case f5
        /// F6.
        case f6
        /// F7.
        case f7
        /// F8.
        case f8
        /// F9.
        case f9
        /// F10.
        case f10
        /// F11.
        case f11
        /// F12.
        case f12
        /// F13.
        case f13
        /// F14.
        case f14
        /// F15.
        case f15
        /// F16.
        case f16
        /// F17.
        case f17
        /// F18.
        case f18
        /// F19.
        case f19
        /// F20.
        case f20
        /// F21.
        case f21
        /// F22.
        case f22
        /// F23.
        case f23
        /// F24.
        case f24
        /// Insert.
        case insert
        /// A remote control's OK or Select key (`KEY_OK`, `KEY_SELECT`), and a gamepad's A button
        /// through its role (``KeyCode/gamepadRole``). The focus system selects with these keys
        /// (``FocusSystem/selectKeys``), so a command on it needs
        /// ``KeyCommand/wantsPriorityOverSystemBehavior`` to fire.
        case select
        /// A remote control's Back or Exit key (`KEY_BACK`, `KEY_EXIT`), and a gamepad's B button
        /// through its role. These are exit keys (``Window/exitKeys``): where an exit command
        /// (``Responder/onExitCommand(perform:)``) is in the chain it takes them, so a command on
        /// it needs ``KeyCommand/wantsPriorityOverSystemBehavior`` to fire there.
        case back
        /// A remote control's Menu key (`KEY_MENU`), and a gamepad's Start button through its role.
        /// Not the keyboard's context menu key (`KEY_COMPOSE`).
        case menu
        /// A remote control's or media keyboard's Play/Pause key (`KEY_PLAYPAUSE`).
        case playPause

        /// The physical keys this input matches.
        public var keyCodes: [KeyCode] {
            switch self {
            case .upArrow: return [.upArrow]
            case .downArrow: return [.downArrow]
            case .leftArrow: return [.leftArrow]
            case .rightArrow: return [.rightArrow]
            case .escape: return [.escape]
            case .tab: return [.tab]
            case .return: return [.return, .keypadEnter]
            case .backspace: return [.backspace]
            case .deleteForward: return [.deleteForward]
            case .home: return [.home]
            case .end: return [.end]
            case .pageUp: return [.pageUp]
            case .pageDown: return [.pageDown]
            case .space: return [.space]
            case .insert: return [.insert]
            case .select: return [.ok, .select]
            case .back: return [.back, .exit]
            case .menu: return [.menu]
            case .playPause: return [.playPause]
            default:
                let number = Int(rawValue.dropFirst())!
                return [KeyCode.function(number)!]
            }
        }

        /// The same key mirrored for right-to-left layouts (left and right arrows swap).
        public var mirrored: SpecialKey {
            switch self {
            case .leftArrow: return .rightArrow
            case .rightArrow: return .leftArrow
            default: return self
            }
        }
    }

    /// Attributes that change how a command behaves and is shown.
    public struct Attributes: OptionSet, Hashable, Sendable {
        /// The bits.
        public var rawValue: UInt8

        /// Creates attributes from bits.
        ///
        /// - Parameter rawValue: The bits.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// The command does not take its key; the key goes on down the pipeline.
        public static let disabled = Attributes(rawValue: 1 << 0)
        /// The command works but is not listed in discoverability lists.
        public static let hidden = Attributes(rawValue: 1 << 1)
        /// The command destroys data; lists show it as such.
        public static let destructive = Attributes(rawValue: 1 << 2)
    }

    /// A checkmark-like state shown next to the command's title.
    public enum State: String, Hashable, Sendable {
        /// Unchecked.
        case off
        /// Checked.
        case on
        /// Partly checked.
        case mixed
    }

    /// Whether holding the key fires the command again on each auto-repeat.
    public enum RepeatBehavior: String, Hashable, Sendable {
        /// The action is sent again on every auto-repeat of the key.
        case repeatable
        /// The action is sent once per key-down; repeats are swallowed.
        case nonRepeatable
    }

    /// The values, in an immutable shared box: a key command is copied into press owners, action
    /// senders and index entries on every key, and one retain is cheaper than copying five strings.
    final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    struct Fields: Hashable, Sendable {
        var input: Input
        var modifierFlags: ModifierFlags
        var action: Action
        var title: String
        var discoverabilityTitle: String?
        var attributes: Attributes
        var state: State
        var wantsPriorityOverSystemBehavior: Bool
        var allowsAutomaticLocalization: Bool
        var allowsAutomaticMirroring: Bool
        var repeatBehavior: RepeatBehavior
    }

    private var storage: Storage

    /// The shared box: its identity names these values while they are unchanged (the dispatcher
    /// remembers resolutions by it).
    var storageObject: AnyObject { storage }

    /// The input: a character or a special key.
    public var input: Input {
        get { storage.fields.input }
        set {
            var fields = storage.fields
            fields.input = newValue
            storage = Storage(fields)
        }
    }

    /// The modifiers that must be held: any of shift, control, alternate, command, and
    /// ``ModifierFlags/numericPad`` to accept keypad keys only.
    public var modifierFlags: ModifierFlags {
        get { storage.fields.modifierFlags }
        set {
            var fields = storage.fields
            fields.modifierFlags = newValue
            storage = Storage(fields)
        }
    }

    /// The action sent up the responder chain from the first responder.
    public var action: Action {
        get { storage.fields.action }
        set {
            var fields = storage.fields
            fields.action = newValue
            storage = Storage(fields)
        }
    }

    /// The title shown in lists of commands.
    public var title: String {
        get { storage.fields.title }
        set {
            var fields = storage.fields
            fields.title = newValue
            storage = Storage(fields)
        }
    }

    /// A longer title shown in discoverability lists, when it differs from ``title``.
    public var discoverabilityTitle: String? {
        get { storage.fields.discoverabilityTitle }
        set {
            var fields = storage.fields
            fields.discoverabilityTitle = newValue
            storage = Storage(fields)
        }
    }

    /// Disabled, hidden, destructive.
    public var attributes: Attributes {
        get { storage.fields.attributes }
        set {
            var fields = storage.fields
            fields.attributes = newValue
            storage = Storage(fields)
        }
    }

    /// The checkmark-like state.
    public var state: State {
        get { storage.fields.state }
        set {
            var fields = storage.fields
            fields.state = newValue
            storage = Storage(fields)
        }
    }

    /// Whether the command beats the system's focus keys (Tab, Shift-Tab, arrows, select) and a
    /// text field's editing keys. `false` by default, as in UIKit.
    public var wantsPriorityOverSystemBehavior: Bool {
        get { storage.fields.wantsPriorityOverSystemBehavior }
        set {
            var fields = storage.fields
            fields.wantsPriorityOverSystemBehavior = newValue
            storage = Storage(fields)
        }
    }

    /// Whether a command whose character cannot be typed on the active layout moves to the key
    /// at the same position on a US layout. `true` by default, as in UIKit.
    public var allowsAutomaticLocalization: Bool {
        get { storage.fields.allowsAutomaticLocalization }
        set {
            var fields = storage.fields
            fields.allowsAutomaticLocalization = newValue
            storage = Storage(fields)
        }
    }

    /// Whether left/right arrows and brackets swap in a right-to-left window. `true` by default, as in UIKit.
    public var allowsAutomaticMirroring: Bool {
        get { storage.fields.allowsAutomaticMirroring }
        set {
            var fields = storage.fields
            fields.allowsAutomaticMirroring = newValue
            storage = Storage(fields)
        }
    }

    /// Whether auto-repeat fires the command again. ``RepeatBehavior/nonRepeatable`` by default.
    public var repeatBehavior: RepeatBehavior {
        get { storage.fields.repeatBehavior }
        set {
            var fields = storage.fields
            fields.repeatBehavior = newValue
            storage = Storage(fields)
        }
    }

    /// Creates a key command for a character.
    ///
    /// - Parameters:
    ///   - character: What the key types, for example `"f"`, `"?"` or `"1"`. Letters are matched
    ///     without regard to case; write Shift in `modifierFlags`.
    ///   - modifierFlags: The modifiers that must be held.
    ///   - action: The action to send.
    ///   - title: The title shown in lists.
    ///   - discoverabilityTitle: A longer title, if any.
    ///   - attributes: Disabled, hidden, destructive.
    ///   - state: The checkmark-like state.
    ///   - wantsPriorityOverSystemBehavior: Whether it beats the system's focus keys.
    ///   - allowsAutomaticLocalization: Whether it moves on layouts that cannot type the character.
    ///   - allowsAutomaticMirroring: Whether it mirrors in right-to-left windows.
    ///   - repeatBehavior: Whether auto-repeat fires it again.
    public init(
        _ character: String, modifierFlags: ModifierFlags = [], action: Action, title: String = "",
        discoverabilityTitle: String? = nil, attributes: Attributes = [], state: State = .off,
        wantsPriorityOverSystemBehavior: Bool = false, allowsAutomaticLocalization: Bool = true,
        allowsAutomaticMirroring: Bool = true, repeatBehavior: RepeatBehavior = .nonRepeatable
    ) {
        self.init(
            input: .character(character), modifierFlags: modifierFlags, action: action, title: title,
            discoverabilityTitle: discoverabilityTitle, attributes: attributes, state: state,
            wantsPriorityOverSystemBehavior: wantsPriorityOverSystemBehavior,
            allowsAutomaticLocalization: allowsAutomaticLocalization,
            allowsAutomaticMirroring: allowsAutomaticMirroring, repeatBehavior: repeatBehavior)
    }

    /// Creates a key command for a special key.
    ///
    /// - Parameters:
    ///   - key: The special key.
    ///   - modifierFlags: The modifiers that must be held.
    ///   - action: The action to send.
    ///   - title: The title shown in lists.
    ///   - discoverabilityTitle: A longer title, if any.
    ///   - attributes: Disabled, hidden, destructive.
    ///   - state: The checkmark-like state.
    ///   - wantsPriorityOverSystemBehavior: Whether it beats the system's focus keys.
    ///   - allowsAutomaticLocalization: Whether it moves on layouts that cannot type the character.
    ///   - allowsAutomaticMirroring: Whether it mirrors in right-to-left windows.
    ///   - repeatBehavior: Whether auto-repeat fires it again.
    public init(
        _ key: SpecialKey, modifierFlags: ModifierFlags = [], action: Action, title: String = "",
        discoverabilityTitle: String? = nil, attributes: Attributes = [], state: State = .off,
        wantsPriorityOverSystemBehavior: Bool = false, allowsAutomaticLocalization: Bool = true,
        allowsAutomaticMirroring: Bool = true, repeatBehavior: RepeatBehavior = .nonRepeatable
    ) {
        self.init(
            input: .special(key), modifierFlags: modifierFlags, action: action, title: title,
            discoverabilityTitle: discoverabilityTitle, attributes: attributes, state: state,
            wantsPriorityOverSystemBehavior: wantsPriorityOverSystemBehavior,
            allowsAutomaticLocalization: allowsAutomaticLocalization,
            allowsAutomaticMirroring: allowsAutomaticMirroring, repeatBehavior: repeatBehavior)
    }

    /// Creates a key command from an input.
    ///
    /// - Parameters:
    ///   - input: A character or a special key.
    ///   - modifierFlags: The modifiers that must be held.
    ///   - action: The action to send.
    ///   - title: The title shown in lists.
    ///   - discoverabilityTitle: A longer title, if any.
    ///   - attributes: Disabled, hidden, destructive.
    ///   - state: The checkmark-like state.
    ///   - wantsPriorityOverSystemBehavior: Whether it beats the system's focus keys.
    ///   - allowsAutomaticLocalization: Whether it moves on layouts that cannot type the character.
    ///   - allowsAutomaticMirroring: Whether it mirrors in right-to-left windows.
    ///   - repeatBehavior: Whether auto-repeat fires it again.
    public init(
        input: Input, modifierFlags: ModifierFlags = [], action: Action, title: String = "",
        discoverabilityTitle: String? = nil, attributes: Attributes = [], state: State = .off,
        wantsPriorityOverSystemBehavior: Bool = false, allowsAutomaticLocalization: Bool = true,
        allowsAutomaticMirroring: Bool = true, repeatBehavior: RepeatBehavior = .nonRepeatable
    ) {
        storage = Storage(
            Fields(
                input: input, modifierFlags: modifierFlags, action: action, title: title,
                discoverabilityTitle: discoverabilityTitle, attributes: attributes, state: state,
                wantsPriorityOverSystemBehavior: wantsPriorityOverSystemBehavior,
                allowsAutomaticLocalization: allowsAutomaticLocalization,
                allowsAutomaticMirroring: allowsAutomaticMirroring, repeatBehavior: repeatBehavior))
    }

    /// Two commands are equal when all their properties are.
    public static func == (lhs: KeyCommand, rhs: KeyCommand) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes all properties.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    /// Whether the command has the ``Attributes/disabled`` attribute.
    public var isDisabled: Bool { attributes.contains(.disabled) }

    /// The title to show: ``title``, else the action's name.
    public var displayTitle: String { title.isEmpty ? action.rawValue : title }
}

extension KeyCommand: CustomStringConvertible {
    /// The chord and title, for example `ctrl+f "Find"`.
    public var description: String {
        let mods = modifierFlags.description
        let chord = mods.isEmpty ? input.description : mods + "+" + input.description
        return chord + " \"" + displayTitle + "\""
    }
}
