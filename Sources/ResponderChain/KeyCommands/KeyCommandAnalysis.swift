/// How one key command stands in a window at the current first responder: the data behind the
/// conflict report of `ResponderChainTesting` and keytrace's `--conflicts`.
package struct KeyCommandStanding {
    package enum Status: Equatable {
        case active
        case shadowed(by: KeyCommand, declaredBy: ResponderReference?)
        case duplicateInSameResponder(of: KeyCommand)
        case takenBySystem(handler: String)
        case takenByTextInput(ResponderReference)
        case takenByReservedShortcut(KeyCommand)
        case disabled
        case noPerformer
        case unreachable(layout: String)
    }

    package var command: KeyCommand
    package var declaredBy: ResponderReference?
    package var chords: [KeyChord]
    package var localized: Bool
    package var mirrored: Bool
    package var status: Status
}

extension Dispatcher {
    /// A key as it would be typed for a chord on the active layout.
    package func key(for chord: KeyChord) -> Key {
        let layoutState = LayoutState(
            modifierFlags: chord.modifierFlags.union(state.locks.contains(.capsLock) ? .alphaShift : []),
            numLock: state.locks.contains(.numLock), levelThree: false)
        var flags = layoutState.modifierFlags
        if chord.code.isKeypad { flags.insert(.numericPad) }
        return Key(
            keyCode: chord.code, characters: layout.characters(for: chord.code, in: layoutState),
            charactersIgnoringModifiers: layout.charactersIgnoringModifiers(for: chord.code), modifierFlags: flags)
    }

    /// Every key command of the active chain and the global list, nearest first, with the status
    /// dispatch would give it now, judged by the same index and rules as dispatch.
    package func keyCommandStandings() -> [KeyCommandStanding] {
        let index = currentIndex()
        let start = chainStart
        var standings: [KeyCommandStanding] = []
        struct SeenInput {
            var command: KeyCommand
            /// The declaring responder (a responder appears once in a chain), `nil` for global.
            var declarerID: ObjectIdentifier?
        }
        var seenInputs: [SeenInput] = []

        func standing(for candidate: KeyCommandIndex.Candidate, chord: KeyChord) -> KeyCommandStanding.Status {
            let command = candidate.command
            if command.isDisabled { return .disabled }
            if start.target(forAction: command.action, sender: .keyCommand(command)) == nil { return .noPerformer }
            let key = key(for: chord)
            if let reserved = reservedShortcuts.first(where: {
                $0.command.resolution(on: reverseMap, direction: .leftToRight).chords.contains(chord)
            }) {
                return .takenByReservedShortcut(reserved.command)
            }
            func eligible(_ other: KeyCommandIndex.Candidate) -> Bool {
                !other.command.isDisabled
                    && start.target(forAction: other.command.action, sender: .keyCommand(other.command)) != nil
            }
            let all = index.lookup(key)
            let priorityWinner = all.first { $0.command.wantsPriorityOverSystemBehavior && eligible($0) }
            if !command.wantsPriorityOverSystemBehavior {
                if let text = index.textInput, text.wantsToEdit(with: key) {
                    return .takenByTextInput(ResponderReference(text))
                }
                if let system = systemKeyHandler, system.claims(key, in: window) {
                    return .takenBySystem(handler: system.name)
                }
            }
            let winner =
                priorityWinner
                ?? all.first { !$0.command.wantsPriorityOverSystemBehavior && eligible($0) }
            guard let winner else { return .noPerformer }
            // The same declarer is the same place in the chain: a responder appears once in it.
            if winner.command == command && winner.declarer === candidate.declarer { return .active }
            if winner.declarer === candidate.declarer {
                return .duplicateInSameResponder(of: winner.command)
            }
            return .shadowed(by: winner.command, declaredBy: winner.declarer.map(ResponderReference.init))
        }

        var responder: Responder? = start
        var declarations: [(KeyCommand, Responder?)] = []
        while let current = responder {
            for command in current.keyCommands { declarations.append((command, current)) }
            responder = current.nextResponder
        }
        for command in globalKeyCommands { declarations.append((command, nil)) }

        for (command, declarer) in declarations {
            let resolution = command.resolution(on: reverseMap, direction: window.layoutDirection)
            let candidate = KeyCommandIndex.Candidate(
                command: command, declarer: declarer, localized: resolution.placement == .localized,
                mirrored: resolution.mirrored)
            let declarerID = declarer.map(ObjectIdentifier.init)
            var status: KeyCommandStanding.Status = .unreachable(layout: layout.name)
            if !resolution.chords.isEmpty {
                // A command declared twice in one responder: the second copy is the duplicate.
                var twin: KeyCommand?
                for earlier in seenInputs
                where earlier.declarerID == declarerID && earlier.command.input == command.input
                    && earlier.command.modifierFlags == command.modifierFlags
                {
                    twin = earlier.command
                    break
                }
                if let twin {
                    status = .duplicateInSameResponder(of: twin)
                } else {
                    // The best status over the command's chords: active on any chord is active.
                    status = standing(for: candidate, chord: resolution.chords[0])
                    for chord in resolution.chords.dropFirst() where status != .active {
                        if standing(for: candidate, chord: chord) == .active { status = .active }
                    }
                }
            }
            seenInputs.append(SeenInput(command: command, declarerID: declarerID))
            standings.append(
                KeyCommandStanding(
                    command: command, declaredBy: declarer.map(ResponderReference.init), chords: resolution.chords,
                    localized: resolution.placement == .localized,
                    mirrored: resolution.mirrored, status: status))
        }
        return standings
    }
}
