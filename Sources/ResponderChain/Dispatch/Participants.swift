/// A responder that edits text: when it is the first responder, the keys it edits with reach it
/// before the focus system and key commands (stage 3 of <doc:DispatchOrder>).
///
/// The text-input stage takes a key-down when the first responder adopts this protocol and
/// ``wantsToEdit(with:)`` returns `true`. The responder then receives the press through
/// ``Responder/pressesBegan(_:with:)`` and owns its repeats, its `ended` and its `cancelled`;
/// the press is not passed further up the chain. Tab is never an editing key by default, so it
/// still moves focus from a text field.
///
/// A text input that also performs editing actions on Control chords (copy, paste, undo, as
/// ``TextInputNode`` does) should want those chords only while it can perform the action, so
/// that an ancestor's key command on the same chord runs otherwise, as UIKit sends `copy:` to the
/// first responder that can perform it.
@MainActor
public protocol TextInputResponder: Responder {
    /// Whether this text input edits with a key.
    ///
    /// - Parameter key: The key going down.
    /// - Returns: `true` to take it. The default takes printable characters without Control or
    ///   Command, the arrows, Backspace, forward Delete, Return, Home and End. The answer may
    ///   depend on the input's state (``TextInputNode`` takes Ctrl+C only with a selection); the
    ///   conflict report asks it in the current state.
    func wantsToEdit(with key: Key) -> Bool

    /// Whether what is typed here is secret (a password or PIN field), as UIKit's
    /// `isSecureTextEntry`. While such an input is the first responder, the dispatcher marks
    /// its presses ``Press/isSecureEntry`` and its trace records ``DispatchRecord/isSecureEntry``,
    /// and no record carries the keys' identity, characters or modifiers. `false` by default.
    var isSecureTextEntry: Bool { get }

    /// Inserts text that did not come from key presses: a paste (the terminal's bracketed
    /// paste), or an input method's commit. UIKit's `UIKeyInput.insertText(_:)`. Does nothing by
    /// default.
    ///
    /// - Parameter text: The text.
    func insertText(_ text: String)
}

extension TextInputResponder {
    /// Not secure.
    public var isSecureTextEntry: Bool { false }

    /// Ignores the text.
    ///
    /// - Parameter text: The text.
    public func insertText(_ text: String) {}

    /// The default editing keys; see ``TextInputResponder/wantsToEdit(with:)``.
    ///
    /// - Parameter key: The key going down.
    /// - Returns: Whether a plain text field edits with it.
    public func wantsToEdit(with key: Key) -> Bool {
        Self.isStandardEditingKey(key)
    }

    /// Whether a plain text field edits with a key: printable characters without Control or
    /// Command, the arrows, Backspace, forward Delete, Return, Home and End.
    ///
    /// - Parameter key: The key going down.
    /// - Returns: Whether it is a standard editing key.
    public static func isStandardEditingKey(_ key: Key) -> Bool {
        if !key.modifierFlags.isDisjoint(with: [.control, .command]) { return false }
        switch key.logicalKeyCode {
        case .leftArrow, .rightArrow, .upArrow, .downArrow, .backspace, .deleteForward, .return, .keypadEnter,
            .home, .end:
            return true
        case .tab, .escape:
            return false
        default:
            guard let scalar = key.characters.unicodeScalars.first else { return false }
            return scalar.value >= 0x20 && scalar.value != 0x7F
        }
    }
}

/// What a ``SystemKeyHandler`` says about a key-down.
public enum SystemKeyDecision: Sendable {
    /// The system behaviour takes the key and owns its lifecycle. The reason appears in the trace;
    /// for a press with ``Press/isSecureEntry`` it must not name the key (write `•`).
    case take(reason: String)
    /// The system behaviour leaves the key to the later stages. The reason appears in the trace.
    case decline(reason: String)
}

/// The system behaviour stage (stage 4 of <doc:DispatchOrder>): the focus system plugs in here.
///
/// The stage sees every key-down that earlier stages did not take. A handler that takes a key
/// owns its repeats, its key-up and its cancellation: it gets ``keyRepeated(_:in:)``,
/// ``keyReleased(_:in:)`` or ``keyCancelled(_:in:)``, and no responder sees presses for it.
///
/// Keys taken here beat app key commands unless a command sets
/// ``KeyCommand/wantsPriorityOverSystemBehavior``.
@MainActor
public protocol SystemKeyHandler: AnyObject {
    /// A short name for traces, such as `focus`.
    var name: String { get }

    /// Whether this handler would take a key in the window's current state, without doing
    /// anything. The conflict report asks this.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - window: The window.
    /// - Returns: Whether ``keyDown(_:in:)`` would take it.
    func claims(_ key: Key, in window: Window) -> Bool

    /// A key went down and no earlier stage took it.
    ///
    /// - Parameters:
    ///   - press: The press, in phase `began`.
    ///   - window: The window.
    /// - Returns: Whether the handler took it, and why.
    func keyDown(_ press: Press, in window: Window) -> SystemKeyDecision

    /// A key this handler took auto-repeated.
    ///
    /// - Parameters:
    ///   - press: The press, in phase `changed`.
    ///   - window: The window.
    func keyRepeated(_ press: Press, in window: Window)

    /// A key this handler took came up.
    ///
    /// - Parameters:
    ///   - press: The press, in phase `ended`.
    ///   - window: The window.
    func keyReleased(_ press: Press, in window: Window)

    /// A key this handler took was cancelled.
    ///
    /// - Parameters:
    ///   - press: The press, in phase `cancelled`.
    ///   - window: The window.
    func keyCancelled(_ press: Press, in window: Window)
}

extension SystemKeyHandler {
    /// Does nothing.
    public func keyRepeated(_ press: Press, in window: Window) {}
    /// Does nothing.
    public func keyReleased(_ press: Press, in window: Window) {}
    /// Does nothing.
    public func keyCancelled(_ press: Press, in window: Window) {}
}

/// A shortcut the embedding app reserves for itself (stage 1 of <doc:DispatchOrder>), such as a
/// kiosk's admin escape. It never reaches responders, key commands or the focus system.
public struct ReservedShortcut {
    /// The key command describing the input and modifiers; its action names the shortcut in traces.
    public var command: KeyCommand
    /// Called on the key-down. Repeats, the key-up and cancellation are swallowed.
    public var handler: (Press) -> Void

    /// Creates a reserved shortcut.
    ///
    /// - Parameters:
    ///   - command: The input, modifiers and a title for traces.
    ///   - handler: Called on the key-down.
    public init(_ command: KeyCommand, handler: @escaping (Press) -> Void) {
        self.command = command
        self.handler = handler
    }
}
