/// Every key command active where a window's dispatch starts now (the focused item, else the first
/// responder), with its status: what app developers check in their unit tests
/// (ResponderChainTesting adds `expectNoConflicts()`) and what `keytrace --conflicts` prints, to
/// catch shortcuts that can never fire.
///
/// ```swift
/// let report = KeyCommandConflictReport(dispatcher)
/// #expect(report.conflicts.isEmpty, "\(report)")
/// // or
/// report.expectNoConflicts()
/// ```
/// The report uses the dispatcher's own resolution and index, so it says exactly what dispatch
/// would do with the current layout, first responder, system behaviour and reserved shortcuts.
public struct KeyCommandConflictReport: CustomStringConvertible {
    /// A command's status.
    public enum Status: Equatable, Sendable, CustomStringConvertible {
        /// The command fires when its key is typed.
        case active
        /// A nearer responder's (or a priority) command with the same key fires instead.
        case shadowed(by: KeyCommand, declaredBy: ResponderReference?)
        /// The same responder declares another command on the same key before this one.
        case duplicateInSameResponder(of: KeyCommand)
        /// The system behaviour (the focus system) takes the key, and the command lacks
        /// `KeyCommand.wantsPriorityOverSystemBehavior`.
        case shadowedBySystemFocusKey(handler: String)
        /// The first responder is a text input that edits with the key.
        case shadowedByTextInput(ResponderReference)
        /// A shortcut reserved by the app takes the key.
        case shadowedByReservedShortcut(KeyCommand)
        /// The command is disabled.
        case disabled
        /// No responder from the first responder up can perform the command's action.
        case noResponderCanPerform
        /// The active layout cannot type the command's input and the command may not be localized.
        case unreachable(layout: String)

        /// Whether this status means the command can never fire as declared.
        ///
        /// `disabled` and `noResponderCanPerform` describe the current state, not a conflict
        /// between declarations, and are not conflicts.
        public var isConflict: Bool {
            switch self {
            case .active, .disabled, .noResponderCanPerform: return false
            default: return true
            }
        }

        /// A short sentence.
        public var description: String {
            switch self {
            case .active: return "active"
            case .shadowed(let command, let declarer):
                return "shadowed by \(command) on \(declarer?.name ?? "global commands")"
            case .duplicateInSameResponder(let command): return "duplicate of \(command) in the same responder"
            case .shadowedBySystemFocusKey(let handler):
                return "shadowed by the system focus key (\(handler)); set wantsPriorityOverSystemBehavior to win"
            case .shadowedByTextInput(let responder): return "taken by text input \(responder.name)"
            case .shadowedByReservedShortcut(let command): return "taken by reserved shortcut \(command)"
            case .disabled: return "disabled"
            case .noResponderCanPerform: return "no responder can perform its action"
            case .unreachable(let layout): return "unreachable on layout \(layout)"
            }
        }
    }

    /// One command in the report.
    public struct Entry: Sendable, CustomStringConvertible {
        /// The command.
        public var command: KeyCommand
        /// The responder that declares it, or `nil` for a global command.
        public var declaredBy: ResponderReference?
        /// The physical chords that trigger it on the active layout.
        public var chords: [KeyChord]
        /// Whether it was moved to a US key position because the layout cannot type its input.
        public var localized: Bool
        /// Whether it was mirrored for a right-to-left window.
        public var mirrored: Bool
        /// Its status.
        public var status: Status

        /// One line: chords, command, declarer, status. Control characters in names and titles
        /// are escaped (`String.escapingControlCharacters(keepingNewlines:)`): a name cannot
        /// forge a line of the report or reach a terminal raw.
        public var description: String {
            let keys = chords.isEmpty ? "-" : chords.map(\.description).joined(separator: " | ")
            var notes = ""
            if localized { notes += " (localized)" }
            if mirrored { notes += " (mirrored)" }
            let line =
                "\(keys)  \(command.displayTitle) [\(command.action)] on \(declaredBy?.name ?? "global commands")"
                + notes + ": " + status.description
            return line.escapingControlCharacters()
        }
    }

    /// Every command, nearest responder first, then global commands.
    public var entries: [Entry]
    /// The layout the report was made for.
    public var layoutName: String
    /// Where the report was made: the chain start dispatch uses, which is the focused item (or its
    /// nearest responder), else the first responder, else the window.
    public var chainStart: String

    /// Makes the report for a dispatcher's window where dispatch starts now: the focused item, else
    /// the first responder, else the window.
    ///
    /// - Parameter dispatcher: The dispatcher.
    @MainActor
    public init(_ dispatcher: Dispatcher) {
        layoutName = dispatcher.layout.name
        chainStart = dispatcher.chainStart.traceName
        entries = dispatcher.keyCommandStandings().map { standing in
            let status: Status
            switch standing.status {
            case .active: status = .active
            case .shadowed(let command, let declarer): status = .shadowed(by: command, declaredBy: declarer)
            case .duplicateInSameResponder(let command): status = .duplicateInSameResponder(of: command)
            case .takenBySystem(let handler): status = .shadowedBySystemFocusKey(handler: handler)
            case .takenByTextInput(let responder): status = .shadowedByTextInput(responder)
            case .takenByReservedShortcut(let command): status = .shadowedByReservedShortcut(command)
            case .disabled: status = .disabled
            case .noPerformer: status = .noResponderCanPerform
            case .unreachable(let layout): status = .unreachable(layout: layout)
            }
            return Entry(
                command: standing.command, declaredBy: standing.declaredBy, chords: standing.chords,
                localized: standing.localized, mirrored: standing.mirrored, status: status)
        }
    }

    /// The entries whose status is a conflict.
    public var conflicts: [Entry] { entries.filter(\.status.isConflict) }

    /// The report as text: a heading, then one line per command, control characters escaped.
    public var description: String {
        let heading =
            "Key commands at \(chainStart) on layout \(layoutName): \(entries.count) commands, "
            + "\(conflicts.count) conflicts"
        var text = heading.escapingControlCharacters() + "\n"
        for entry in entries { text += "  " + entry.description + "\n" }
        return text
    }
}
