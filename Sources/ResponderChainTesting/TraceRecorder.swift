import ResponderChain
import Testing

/// Records a dispatcher's trace and answers questions about it, with assertions for Swift Testing.
///
/// ```swift
/// let trace = TraceRecorder(dispatcher)
/// keyboard.tap("ctrl+f")
/// trace.expectKeyCommand(.find, declaredBy: editor)
/// keyboard.tap("j")
/// trace.expectPressesBegan(on: editor, key: .j)
/// keyboard.tap("f9")
/// trace.expectUnhandled(.f9)
/// ```
/// Assertions look at everything recorded since the last ``clear()``.
@MainActor
public final class TraceRecorder {
    /// What was recorded, in order.
    public private(set) var records: [DispatchRecord] = []
    private let dispatcher: Dispatcher
    private var observation: TraceObservation?

    /// Starts recording a dispatcher's trace.
    ///
    /// - Parameter dispatcher: The dispatcher.
    public init(_ dispatcher: Dispatcher) {
        self.dispatcher = dispatcher
        observation = dispatcher.addTraceObserver { [unowned self] record in self.records.append(record) }
    }

    isolated deinit {
        if let observation { dispatcher.removeTraceObserver(observation) }
    }

    /// Forgets what was recorded so far.
    public func clear() { records.removeAll() }

    /// Every record as a readable line.
    public var lines: [String] { records.map(\.description) }

    /// The key commands that fired, on key-downs and on repeats: command, declaring responder
    /// (`nil` for global), target, priority, whether it fired on an auto-repeat.
    public var firedKeyCommands:
        [(
            command: KeyCommand, declaredBy: ResponderReference?, target: ResponderReference, priority: Bool,
            isRepeat: Bool
        )]
    {
        records.compactMap {
            if case .keyCommand(let command, let declarer, let target, let priority, let isRepeat) = $0.kind {
                return (command, declarer, target, priority, isRepeat)
            }
            return nil
        }
    }

    /// The presses delivered to a responder, in order, with their phases.
    ///
    /// - Parameter responder: The responder.
    /// - Returns: The presses.
    public func presses(deliveredTo responder: Responder) -> [Press] {
        records.compactMap {
            if case .press(let press, let reference) = $0.kind, reference.refers(to: responder) { return press }
            return nil
        }
    }

    /// The keys nobody took.
    public var unhandledKeys: [Key] {
        records.compactMap {
            if case .unhandled(let key) = $0.kind { return key }
            return nil
        }
    }

    /// The stages consulted for key-downs, with their outcomes and reasons, in order.
    public var stages: [(stage: DispatchStage, outcome: StageOutcome, reason: String)] {
        records.compactMap {
            if case .stage(let stage, let outcome, let reason) = $0.kind { return (stage, outcome, reason) }
            return nil
        }
    }

    /// The stage that took each key-down, in order.
    public var takingStages: [DispatchStage] {
        stages.filter { $0.outcome == .took }.map(\.stage)
    }

    // MARK: Assertions

    /// Expects that a key command with this action fired, optionally declared by a responder.
    ///
    /// - Parameters:
    ///   - action: The command's action.
    ///   - declarer: The responder that declares it; `nil` accepts any declarer, including global commands.
    ///   - sourceLocation: Where a failure is reported.
    public func expectKeyCommand(
        _ action: Action, declaredBy declarer: Responder? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        record(keyCommandFailure(action, declaredBy: declarer), at: sourceLocation)
    }

    /// Expects that no key command fired.
    ///
    /// - Parameter sourceLocation: Where a failure is reported.
    public func expectNoKeyCommand(sourceLocation: SourceLocation = #_sourceLocation) {
        record(noKeyCommandFailure(), at: sourceLocation)
    }

    /// Expects that a responder received `pressesBegan`, optionally for a given key.
    ///
    /// - Parameters:
    ///   - responder: The responder.
    ///   - code: The key; `nil` accepts any key.
    ///   - sourceLocation: Where a failure is reported.
    public func expectPressesBegan(
        on responder: Responder, key code: KeyCode? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        record(pressesBeganFailure(on: responder, key: code), at: sourceLocation)
    }

    /// Expects that a key went unhandled.
    ///
    /// - Parameters:
    ///   - code: The key; `nil` accepts any key.
    ///   - sourceLocation: Where a failure is reported.
    public func expectUnhandled(_ code: KeyCode? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        record(unhandledFailure(code), at: sourceLocation)
    }

    /// Expects that a stage took a key-down.
    ///
    /// - Parameters:
    ///   - stage: The stage.
    ///   - sourceLocation: Where a failure is reported.
    public func expectStageTook(_ stage: DispatchStage, sourceLocation: SourceLocation = #_sourceLocation) {
        record(stageTookFailure(stage), at: sourceLocation)
    }

    // The checks behind the expectations: `nil` when the trace shows what is expected, else the
    // failure message. The expectations record the message as a test issue; this package's tests
    // read it directly.

    package func keyCommandFailure(_ action: Action, declaredBy declarer: Responder? = nil) -> String? {
        let fired = firedKeyCommands
        let match = fired.contains { entry in
            entry.command.action == action && (declarer.map { entry.declaredBy?.refers(to: $0) ?? false } ?? true)
        }
        guard !match else { return nil }
        let seen = fired.map { "\($0.command) on \($0.declaredBy?.name ?? "global commands")" }
        return "expected key command \(action)\(declarer.map { " declared by \($0.traceName)" } ?? "") "
            + "to fire; fired: \(seen.isEmpty ? "none" : seen.joined(separator: ", "))\n"
            + lines.joined(separator: "\n")
    }

    package func noKeyCommandFailure() -> String? {
        let fired = firedKeyCommands
        guard !fired.isEmpty else { return nil }
        return "expected no key command; fired: " + fired.map { "\($0.command)" }.joined(separator: ", ")
    }

    package func pressesBeganFailure(on responder: Responder, key code: KeyCode? = nil) -> String? {
        let began = presses(deliveredTo: responder).filter { $0.phase == .began }
        guard !began.contains(where: { code == nil || $0.key.keyCode == code }) else { return nil }
        return "expected pressesBegan\(code.map { " for \($0)" } ?? "") on \(responder.traceName); "
            + "trace:\n" + lines.joined(separator: "\n")
    }

    package func unhandledFailure(_ code: KeyCode? = nil) -> String? {
        guard !unhandledKeys.contains(where: { code == nil || $0.keyCode == code }) else { return nil }
        return "expected \(code.map { "\($0)" } ?? "a key") to be unhandled; trace:\n" + lines.joined(separator: "\n")
    }

    package func stageTookFailure(_ stage: DispatchStage) -> String? {
        guard !stages.contains(where: { $0.stage == stage && $0.outcome == .took }) else { return nil }
        return "expected stage \(stage) to take a key; trace:\n" + lines.joined(separator: "\n")
    }

    private func record(_ failure: String?, at sourceLocation: SourceLocation) {
        if let failure { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    }
}
