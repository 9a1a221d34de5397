import ResponderChain

/// A responder for tests that records every press phase and action it receives.
///
/// Configure what it does: which keys it handles in `pressesBegan` (others are passed on with
/// `super`), which actions it performs, and whether it can become first responder.
///
/// ```swift
/// let list = RecordingResponder("list", handles: [.j, .k], performs: [.delete], canBecomeFirstResponder: true)
/// ```
open class RecordingResponder: Responder {
    /// One thing the responder received.
    public enum Delivery: Equatable, Sendable, CustomStringConvertible {
        /// A press phase, with the press as delivered.
        case press(Press)
        /// An action performed, with the command that sent it, if any.
        case action(Action, KeyCommand?)

        /// For example `began KeyA` or `action find`.
        public var description: String {
            switch self {
            case .press(let press): return "\(press.phase) \(press.key.keyCode)"
            case .action(let action, _): return "action \(action)"
            }
        }
    }

    /// The keys this responder takes in `pressesBegan`.
    public var handledKeys: Set<KeyCode>
    /// Whether it takes every key in `pressesBegan`.
    public var handlesAllKeys = false
    /// The actions it performs.
    public var performableActions: Set<Action>
    /// Whether it can become first responder.
    public var acceptsFirstResponder: Bool
    /// Whether it agrees to resign first responder.
    public var acceptsResigning = true
    /// Called at the start of each delivery, before it is recorded: a hook for re-entrancy tests.
    public var onDelivery: ((Delivery) -> Void)?

    /// Everything received, in order.
    public private(set) var log: [Delivery] = []

    /// Creates a recording responder.
    ///
    /// - Parameters:
    ///   - identifier: The name traces use.
    ///   - keys: The keys it takes in `pressesBegan`.
    ///   - actions: The actions it performs.
    ///   - canBecomeFirstResponder: Whether it can become first responder.
    public init(
        _ identifier: String, handles keys: Set<KeyCode> = [], performs actions: Set<Action> = [],
        canBecomeFirstResponder: Bool = false
    ) {
        handledKeys = keys
        performableActions = actions
        acceptsFirstResponder = canBecomeFirstResponder
        super.init(identifier: identifier)
    }

    /// The presses received, in order.
    public var presses: [Press] {
        log.compactMap {
            if case .press(let press) = $0 { return press }
            return nil
        }
    }

    /// The actions performed, in order.
    public var performedActions: [Action] {
        log.compactMap {
            if case .action(let action, _) = $0 { return action }
            return nil
        }
    }

    /// The phases received for one press, in order.
    ///
    /// - Parameter id: The press.
    /// - Returns: The phases.
    public func phases(of id: PressID) -> [Press.Phase] {
        presses.filter { $0.id == id }.map(\.phase)
    }

    /// Forgets the log.
    public func clearLog() { log.removeAll() }

    private func record(_ delivery: Delivery) {
        onDelivery?(delivery)
        log.append(delivery)
    }

    /// ``acceptsFirstResponder``.
    open override var canBecomeFirstResponder: Bool { acceptsFirstResponder }
    /// ``acceptsResigning``.
    open override var canResignFirstResponder: Bool { acceptsResigning }

    /// Whether the action is in ``performableActions``.
    open override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool {
        performableActions.contains(action)
    }

    /// Records the action.
    open override func perform(_ action: Action, sender: ActionSender) {
        record(.action(action, sender.keyCommand))
    }

    /// Records the press; keeps it when the key is handled, else calls `super`.
    open override func pressesBegan(_ press: Press, with event: PressEvent) {
        record(.press(press))
        if !(handlesAllKeys || handledKeys.contains(press.key.keyCode)) {
            super.pressesBegan(press, with: event)
        }
    }

    /// Records the press.
    open override func pressesChanged(_ press: Press, with event: PressEvent) { record(.press(press)) }
    /// Records the press.
    open override func pressesEnded(_ press: Press, with event: PressEvent) { record(.press(press)) }
    /// Records the press.
    open override func pressesCancelled(_ press: Press, with event: PressEvent) { record(.press(press)) }
}
