/// One key command as a help screen or a hold-Super overlay lists it: UIKit's discoverability
/// HUD entry.
public struct DiscoverableKeyCommand: Sendable {
    /// The command.
    public var command: KeyCommand
    /// What to show: the ``KeyCommand/discoverabilityTitle`` when set, else the title.
    public var title: String
    /// The shortcut as people read it, for example `Ctrl+Shift+F` or `Alt+↑`.
    public var shortcut: String
    /// Whether the command would run now: `false` when it is ``KeyCommand/Attributes/disabled``
    /// or no responder can perform its action (lists show it greyed, as UIKit does).
    public var isEnabled: Bool
    /// Whether the command destroys data (``KeyCommand/Attributes/destructive``).
    public var isDestructive: Bool
    /// Its on, off or mixed state.
    public var state: KeyCommand.State
}

/// The commands one declarer contributes to the list.
public struct DiscoverableKeyCommandGroup: Sendable {
    /// Who declares them.
    public enum Source: Hashable, Sendable {
        /// A responder on the chain from the first responder (or focused item) up.
        case responder(ResponderReference)
        /// The dispatcher's global commands.
        case global
        /// The app's reserved shortcuts (they beat every other command).
        case reserved
    }

    /// Who declares them.
    public var source: Source
    /// A heading: the responder's ``Responder/discoverabilityTitle`` (its trace name when it has
    /// none), "Global" or "App".
    public var title: String
    /// The commands, in declaration order.
    public var commands: [DiscoverableKeyCommand]
}

extension Dispatcher {
    /// The key commands active at the current first responder, for a help screen or a hold-Super
    /// overlay, grouped by who declares them: the chain nearest first, then the global commands,
    /// then the reserved shortcuts.
    ///
    /// Judged by the same rules as dispatch: a command is listed when its key would reach it now
    /// (not shadowed by a nearer declaration, not taken by the focus system or a text input
    /// first, typeable on the layout); ``KeyCommand/Attributes/hidden`` commands and commands
    /// without a title are left out; disabled ones and ones no responder can perform now are
    /// listed with ``DiscoverableKeyCommand/isEnabled`` `false`. Groups left empty are dropped.
    /// A responder's group is headed by its ``Responder/discoverabilityTitle``, else its trace
    /// name.
    ///
    /// - Returns: The groups.
    public func discoverableKeyCommands() -> [DiscoverableKeyCommandGroup] {
        var groups: [DiscoverableKeyCommandGroup] = []
        // The headings of the declarers, which are on the chain the standings were judged on.
        var titles: [ObjectIdentifier: String] = [:]
        var link: Responder? = chainStart
        while let responder = link {
            if let title = responder.discoverabilityTitle { titles[ObjectIdentifier(responder)] = title }
            link = responder.nextResponder
        }
        func add(_ command: KeyCommand, enabled: Bool, to source: DiscoverableKeyCommandGroup.Source, title: String) {
            guard !command.attributes.contains(.hidden) else { return }
            let shown = command.discoverabilityTitle ?? command.title
            guard !shown.isEmpty else { return }
            let entry = DiscoverableKeyCommand(
                command: command, title: shown, shortcut: command.readableShortcut, isEnabled: enabled,
                isDestructive: command.attributes.contains(.destructive), state: command.state)
            if let last = groups.indices.last, groups[last].source == source {
                groups[last].commands.append(entry)
            } else {
                groups.append(DiscoverableKeyCommandGroup(source: source, title: title, commands: [entry]))
            }
        }
        for standing in keyCommandStandings() {
            let enabled: Bool
            switch standing.status {
            case .active: enabled = true
            case .disabled, .noPerformer: enabled = false
            case .shadowed, .duplicateInSameResponder, .takenBySystem, .takenByTextInput, .takenByReservedShortcut,
                .unreachable:
                continue
            }
            if let declarer = standing.declaredBy {
                add(
                    standing.command, enabled: enabled, to: .responder(declarer),
                    title: titles[declarer.id] ?? declarer.name)
            } else {
                add(standing.command, enabled: enabled, to: .global, title: "Global")
            }
        }
        for reserved in reservedShortcuts {
            add(reserved.command, enabled: !reserved.command.isDisabled, to: .reserved, title: "App")
        }
        return groups
    }
}

extension KeyCommand {
    /// The shortcut as people read it: `Ctrl+Alt+Shift+Super+` and the key, a letter in capitals,
    /// arrows as arrows.
    public var readableShortcut: String {
        var parts: [String] = []
        if modifierFlags.contains(.control) { parts.append("Ctrl") }
        if modifierFlags.contains(.alternate) { parts.append("Alt") }
        if modifierFlags.contains(.shift) { parts.append("Shift") }
        if modifierFlags.contains(.command) { parts.append("Super") }
        switch input {
        case .character(let text):
            parts.append(text == " " ? "Space" : text.uppercased())
        case .special(let key):
            let names: [SpecialKey: String] = [
                .upArrow: "↑", .downArrow: "↓", .leftArrow: "←", .rightArrow: "→", .escape: "Esc",
                .return: "Return", .tab: "Tab", .backspace: "Backspace", .deleteForward: "Delete", .space: "Space",
                .pageUp: "Page Up", .pageDown: "Page Down", .home: "Home", .end: "End", .insert: "Insert",
                .select: "Select", .back: "Back", .menu: "Menu", .playPause: "Play/Pause",
            ]
            parts.append(names[key] ?? key.rawValue.prefix(1).uppercased() + key.rawValue.dropFirst())
        }
        return parts.joined(separator: "+")
    }
}
