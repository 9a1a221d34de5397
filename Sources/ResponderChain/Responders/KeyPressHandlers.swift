/// A key press as a handler sees it: SwiftUI's `KeyPress`.
///
/// Handlers are added with ``Responder/onKeyPress(_:phases:action:)`` and its relatives, beside
/// the override API (``Responder/pressesBegan(_:with:)``); they run from the responder's default
/// press methods, so a subclass that overrides those without calling `super` runs none.
public struct KeyPress: Sendable {
    /// Where the key is.
    public enum Phase: Hashable, Sendable {
        /// The key went down.
        case down
        /// The key auto-repeated.
        case `repeat`
        /// The key came up.
        case up
    }

    /// A set of phases a handler runs for.
    public struct Phases: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt8

        /// Makes a set from raw bits.
        ///
        /// - Parameter rawValue: The bits.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// Key-down.
        public static let down = Phases(rawValue: 1)
        /// Auto-repeat.
        public static let `repeat` = Phases(rawValue: 2)
        /// Key-up.
        public static let up = Phases(rawValue: 4)
        /// Every phase.
        public static let all: Phases = [.down, .repeat, .up]
    }

    /// What a handler did with a press.
    public enum Result: Hashable, Sendable {
        /// The handler took it: on key-down the responder owns the press (its repeats and its
        /// key-up come back to it) and the chain stops here.
        case handled
        /// The handler did not want it: other handlers, then the next responder, get it.
        case ignored
    }

    /// The phase.
    public var phase: Phase
    /// The key: its code, the characters it types now, and the modifiers held.
    public var key: Key
    /// The press it belongs to (identity, device, repeat count, timestamp).
    public var press: Press

    /// The characters the key types with the modifiers held.
    public var characters: String { key.characters }
    /// The modifiers held.
    public var modifiers: ModifierFlags { key.modifierFlags }
}

/// What an ``Responder/onMoveCommand(mirrorsInRightToLeft:perform:)`` handler receives.
public enum MoveCommandDirection: Hashable, Sendable {
    /// Up arrow.
    case up
    /// Down arrow.
    case down
    /// Left arrow (right arrow in a right-to-left window when mirrored).
    case left
    /// Right arrow (left arrow in a right-to-left window when mirrored).
    case right
}

/// One registered handler.
struct KeyPressHandler {
    enum Match {
        case any
        case keys(KeyCodeSet)
        case characters(Set<Character>)
        /// The window's exit keys (``Window/exitKeys``), read at each press.
        case exit
    }

    let id: UInt64
    let match: Match
    let phases: KeyPress.Phases
    let action: (KeyPress) -> KeyPress.Result

    /// Whether the handler runs for `key` in `phase` (asked before a ``KeyPress`` is made).
    func accepts(_ key: Key, phase: KeyPress.Phase, exitKeys: KeyCodeSet) -> Bool {
        switch phase {
        case .down: guard phases.contains(.down) else { return false }
        case .repeat: guard phases.contains(.repeat) else { return false }
        case .up: guard phases.contains(.up) else { return false }
        }
        switch match {
        case .any: return true
        case .keys(let codes): return codes.contains(key.logicalKeyCode)
        case .exit: return exitKeys.contains(key.logicalKeyCode)
        case .characters(let set):
            guard let character = key.characters.first, key.characters.count == 1 else { return false }
            return set.contains(character)
        }
    }
}

/// A token for removing a handler with ``Responder/removeKeyPressHandler(_:)``.
public struct KeyPressHandlerToken: Hashable, Sendable {
    let id: UInt64
}

extension Responder {
    /// Runs `action` for presses of any key that reach this responder, in `phases`.
    ///
    /// Handlers run in the order they were added, from this responder's default
    /// ``pressesBegan(_:with:)`` (key-down), ``pressesChanged(_:with:)`` (repeat) and
    /// ``pressesEnded(_:with:)`` (key-up). A key-down reaches them in the presses stage: after
    /// reserved shortcuts, key commands and the focus system's keys (Tab, arrows, select), as in
    /// <doc:DispatchOrder>. Returning ``KeyPress/Result/handled`` on key-down takes the press:
    /// this responder receives its repeats and its key-up, and the chain stops. Repeats and
    /// key-ups are delivered to every responder that received the key-down, nearest first.
    ///
    /// A handler that captures its responder should capture it `unowned`: the responder keeps
    /// its handlers.
    ///
    /// - Parameters:
    ///   - phases: The phases to run for; key-down and repeat by default.
    ///   - action: The handler.
    /// - Returns: A token for ``removeKeyPressHandler(_:)``.
    @discardableResult
    public final func onKeyPress(
        phases: KeyPress.Phases = [.down, .repeat], action: @escaping (KeyPress) -> KeyPress.Result
    ) -> KeyPressHandlerToken {
        addKeyPressHandler(.any, phases: phases, action: action)
    }

    /// Runs `action` for presses of the given keys that reach this responder.
    ///
    /// - Parameters:
    ///   - keys: The physical keys.
    ///   - phases: The phases to run for; key-down and repeat by default.
    ///   - action: The handler.
    /// - Returns: A token for ``removeKeyPressHandler(_:)``.
    @discardableResult
    public final func onKeyPress(
        _ keys: Set<KeyCode>, phases: KeyPress.Phases = [.down, .repeat],
        action: @escaping (KeyPress) -> KeyPress.Result
    ) -> KeyPressHandlerToken {
        addKeyPressHandler(.keys(KeyCodeSet(keys)), phases: phases, action: action)
    }

    /// Runs `action` for presses that type one of `characters` (on the current layout, with the
    /// modifiers held) and reach this responder.
    ///
    /// - Parameters:
    ///   - characters: The characters.
    ///   - phases: The phases to run for; key-down and repeat by default.
    ///   - action: The handler.
    /// - Returns: A token for ``removeKeyPressHandler(_:)``.
    @discardableResult
    public final func onKeyPress(
        characters: Set<Character>, phases: KeyPress.Phases = [.down, .repeat],
        action: @escaping (KeyPress) -> KeyPress.Result
    ) -> KeyPressHandlerToken {
        addKeyPressHandler(.characters(characters), phases: phases, action: action)
    }

    /// Runs `action` when an arrow key reaches this responder (key-down and repeats), and takes
    /// the press. Arrows reach the presses stage when the focus system passes them on: focus
    /// cannot move that way, or the window has no focus system; to take arrows before focus
    /// moves, declare key commands with ``KeyCommand/wantsPriorityOverSystemBehavior``.
    ///
    /// - Parameters:
    ///   - mirrorsInRightToLeft: Whether left and right swap in a right-to-left window (by default).
    ///   - action: The handler, given the direction.
    /// - Returns: A token for ``removeKeyPressHandler(_:)``.
    @discardableResult
    public final func onMoveCommand(
        mirrorsInRightToLeft: Bool = true, perform action: @escaping (MoveCommandDirection) -> Void
    ) -> KeyPressHandlerToken {
        addKeyPressHandler(
            .keys(KeyCodeSet([.upArrow, .downArrow, .leftArrow, .rightArrow])), phases: [.down, .repeat]
        ) {
            [unowned self] press in
            let mirrored = mirrorsInRightToLeft && self.window?.layoutDirection == .rightToLeft
            switch press.key.logicalKeyCode {
            case .upArrow: action(.up)
            case .downArrow: action(.down)
            case .leftArrow: action(mirrored ? .right : .left)
            default: action(mirrored ? .left : .right)
            }
            return .handled
        }
    }

    /// Runs `action` when an exit key goes down with this responder in the chain, and takes the
    /// press: Escape, a remote control's Back and Exit keys, a gamepad's B button (through its
    /// role, ``KeyCode/gamepadRole``) — the window's ``Window/exitKeys``.
    ///
    /// Where the window has a focus system, the nearest exit command from the focused item up
    /// runs at the system-behaviour stage (stage 4 of <doc:DispatchOrder>), as a select key
    /// selects: it beats key commands on the same key unless they set
    /// ``KeyCommand/wantsPriorityOverSystemBehavior``, and the conflict report says so. Without a
    /// focus system it runs when the press reaches this responder up the chain.
    ///
    /// - Parameter action: The handler.
    /// - Returns: A token for ``removeKeyPressHandler(_:)``.
    @discardableResult
    public final func onExitCommand(perform action: @escaping () -> Void) -> KeyPressHandlerToken {
        addKeyPressHandler(.exit, phases: .down) { _ in
            action()
            return .handled
        }
    }

    /// Removes a handler.
    ///
    /// - Parameter token: What the `on…` method returned.
    public final func removeKeyPressHandler(_ token: KeyPressHandlerToken) {
        keyPressHandlers.removeAll { $0.id == token.id }
    }

    private func addKeyPressHandler(
        _ match: KeyPressHandler.Match, phases: KeyPress.Phases, action: @escaping (KeyPress) -> KeyPress.Result
    ) -> KeyPressHandlerToken {
        let id = KeyPressHandlerIDs.next()
        keyPressHandlers.append(KeyPressHandler(id: id, match: match, phases: phases, action: action))
        return KeyPressHandlerToken(id: id)
    }

    /// Runs the handlers for a press in `phase`; `true` when one handled it.
    final func runKeyPressHandlers(_ press: Press, phase: KeyPress.Phase) -> Bool {
        // The handler is matched before its `KeyPress` is made (two copies of the key, one of
        // the press), and the list is walked by index: no handler copied for one that declines.
        let handlers = keyPressHandlers
        let exitKeys = window?.exitKeyCodes ?? Window.defaultExitKeyCodes
        for position in handlers.indices where handlers[position].accepts(press.key, phase: phase, exitKeys: exitKeys) {
            if handlers[position].action(KeyPress(phase: phase, key: press.key, press: press)) == .handled {
                return true
            }
        }
        return false
    }
}

/// Handler identities, unique within the process.
@MainActor
enum KeyPressHandlerIDs {
    static var last: UInt64 = 0

    static func next() -> UInt64 {
        last += 1
        return last
    }
}

extension Responder {
    /// Runs this responder's exit commands for a key-down, in the order they were added; `true` when one handled it.
    final func runExitCommand(_ press: Press) -> Bool {
        for handler in keyPressHandlers {
            guard case .exit = handler.match, handler.phases.contains(.down) else { continue }
            if handler.action(KeyPress(phase: .down, key: press.key, press: press)) == .handled { return true }
        }
        return false
    }

    /// Whether a key-press handler of this responder other than an exit command would run for the
    /// key going down.
    final func handlesKeyPress(_ key: Key) -> Bool {
        keyPressHandlers.contains { handler in
            if case .exit = handler.match { return false }
            return handler.accepts(key, phase: .down, exitKeys: KeyCodeSet([]))
        }
    }

    /// Whether this responder has an exit command (``onExitCommand(perform:)``).
    final var hasExitCommand: Bool {
        keyPressHandlers.contains { if case .exit = $0.match { true } else { false } }
    }
}
