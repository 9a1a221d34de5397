/// An action a responder can perform, named by a string instead of an Objective-C selector.
///
/// Declare actions as static members so that they read like selectors and are typed:
/// ```swift
/// extension Action {
///     static let newReminder: Action = "newReminder"
/// }
/// ```
public struct Action: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The action's name.
    public var rawValue: String

    /// Creates an action from its name.
    ///
    /// - Parameter rawValue: The name; two actions are the same action when their names are equal.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates an action from its name.
    ///
    /// - Parameter name: The name.
    public init(_ name: String) {
        self.rawValue = name
    }

    /// Creates an action from a string literal.
    ///
    /// - Parameter value: The name.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The name.
    public var description: String { rawValue }
}

/// Who sent an action: the argument of ``Responder/canPerformAction(_:sender:)`` and
/// ``Responder/perform(_:sender:)``.
public enum ActionSender: Sendable {
    /// A key command the user typed.
    case keyCommand(KeyCommand)
    /// The focus system, selecting the focused item (its primary action).
    case focusSelection
    /// Application code, through ``Window/sendAction(_:sender:)``.
    case application

    /// The key command, when the sender is one.
    public var keyCommand: KeyCommand? {
        if case .keyCommand(let command) = self { return command }
        return nil
    }
}
