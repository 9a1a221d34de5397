// The key-down pipeline: one method per stage, in the order of <doc:DispatchOrder>.

extension Dispatcher {
    func processKey(_ event: KeyEvent) {
        beginInput(event.timestamp)
        let before = state.layoutState
        let transition = state.apply(event)
        let key = makeKey(event.code)
        trace(.input(event, key, transition))
        switch transition {
        case .pressed:
            beginPress(event, key: key)
        case .repeated:
            if let slot = activeIndex(device: event.device, code: event.code) {
                repeatPress(at: slot, key: key)
            } else {
                trace(.stage(.unhandled, .skipped, reason: "repeat of a key that has no press (held since a resync)"))
            }
        case .released:
            if let slot = activeIndex(device: event.device, code: event.code) {
                finishPress(at: slot, phase: .ended, key: key)
            } else {
                trace(.stage(.unhandled, .skipped, reason: "key-up of a key that has no press (held since a resync)"))
            }
        case .ignored:
            break
        }
        if state.layoutState != before {
            modifiersDidChange(except: transition == .pressed ? event : nil)
        }
    }

    private func beginPress(_ event: KeyEvent, key: Key) {
        let press = Press(
            id: PressID(rawValue: nextPressNumber), phase: .began, key: key, timestamp: event.timestamp,
            device: event.device)
        nextPressNumber &+= 1
        var record = ActivePress(press: press, owner: .responders(handler: nil), recipients: takeRecipientBuffer())
        let start = chainStart
        if event.code.isModifier {
            trace(.stage(.reservedShortcuts, .skipped, reason: "bare modifier key: delivered as a press only"))
            runPressesStage(&record, from: start)
        } else if runReservedShortcutStage(&record) {
        } else if runKeyCommandStage(priority: true, &record, from: start) {
        } else if runTextInputStage(&record, from: start) {
        } else if runSystemBehaviorStage(&record, from: start) {
        } else if runKeyCommandStage(priority: false, &record, from: start) {
        } else {
            runPressesStage(&record, from: start)
        }
        active.append(record)
    }

    // MARK: Stage 1

    /// Stage 1: shortcuts the embedding app reserved.
    func runReservedShortcutStage(_ record: inout ActivePress) -> Bool {
        guard !reservedShortcuts.isEmpty else { return false }
        if reservedIndex == nil {
            var table: [KeyChordID: Int] = [:]
            for (position, shortcut) in reservedShortcuts.enumerated() {
                for chord in shortcut.command.resolution(on: reverseMap, direction: .leftToRight).chords
                where table[chord.id] == nil {
                    table[chord.id] = position
                }
            }
            reservedIndex = table
        }
        let chord = KeyChordID(code: record.press.key.keyCode, modifiers: record.press.key.modifierFlags)
        guard let position = reservedIndex?[chord] else {
            trace(.stage(.reservedShortcuts, .declined, reason: "no reserved shortcut for " + record.press.key.description))
            return false
        }
        let shortcut = reservedShortcuts[position]
        trace(.stage(.reservedShortcuts, .took, reason: "reserved shortcut " + shortcut.command.description))
        record.owner = .reserved
        shortcut.handler(record.press)
        return true
    }

    // MARK: Stages 2 and 5

    /// Stage 2 (`priority`) or stage 5: key commands matching the key, nearest declaration first.
    func runKeyCommandStage(priority: Bool, _ record: inout ActivePress, from start: Responder) -> Bool {
        let stage: DispatchStage = priority ? .priorityKeyCommands : .keyCommands
        let candidates = currentIndex().lookup(record.press.key)
        var winner: KeyCommandIndex.Candidate?
        for candidate in candidates where candidate.command.wantsPriorityOverSystemBehavior == priority {
            let command = candidate.command
            if let winner {
                trace(
                    .keyCommandPassedOver(
                        command, declaredBy: candidate.declarer.map(ResponderReference.init),
                        reason: "shadowed by " + winner.command.description + " on "
                            + (winner.declarer?.traceName ?? "global commands")))
                continue
            }
            if command.isDisabled {
                trace(
                    .keyCommandPassedOver(
                        command, declaredBy: candidate.declarer.map(ResponderReference.init), reason: "disabled"))
                continue
            }
            let sender = ActionSender.keyCommand(command)
            guard let target = start.target(forAction: command.action, sender: sender) else {
                trace(
                    .keyCommandPassedOver(
                        command, declaredBy: candidate.declarer.map(ResponderReference.init),
                        reason: "no responder can perform " + command.action.rawValue))
                continue
            }
            winner = candidate
            record.owner = .keyCommand(command, declarer: candidate.declarer, priority: priority)
            trace(.stage(stage, .took, reason: "key command " + command.description))
            trace(
                .keyCommand(
                    command, declaredBy: candidate.declarer.map(ResponderReference.init),
                    target: ResponderReference(target), priority: priority))
            target.perform(command.action, sender: sender)
            if !tracing { break }
        }
        if winner == nil {
            trace(
                .stage(
                    stage, .declined,
                    reason: candidates.isEmpty
                        ? "no key command for " + record.press.key.description
                        : "no matching key command could take the key"))
        }
        return winner != nil
    }

    // MARK: Stage 3

    /// Stage 3: the first responder's text input.
    func runTextInputStage(_ record: inout ActivePress, from start: Responder) -> Bool {
        guard let textInput = currentIndex().textInput else {
            trace(.stage(.textInput, .declined, reason: "the first responder is not a text input"))
            return false
        }
        guard textInput.wantsToEdit(with: record.press.key) else {
            trace(.stage(.textInput, .declined, reason: textInput.traceName + " does not edit with this key"))
            return false
        }
        trace(.stage(.textInput, .took, reason: textInput.traceName + " edits with " + record.press.key.description))
        traceCommandsNotConsidered(for: record.press.key, reason: "not considered: the text input took the key first")
        record.owner = .textInput(textInput)
        deliverBegan(to: textInput, record: &record)
        return true
    }

    // MARK: Stage 4

    /// Stage 4: the system behaviour (the focus system).
    func runSystemBehaviorStage(_ record: inout ActivePress, from start: Responder) -> Bool {
        guard let handler = systemKeyHandler else {
            trace(.stage(.systemBehavior, .declined, reason: "no system behaviour installed"))
            return false
        }
        switch handler.keyDown(record.press, in: window) {
        case .decline(let reason):
            trace(.stage(.systemBehavior, .declined, reason: handler.name + ": " + reason))
            return false
        case .take(let reason):
            trace(.stage(.systemBehavior, .took, reason: handler.name + ": " + reason))
            traceCommandsNotConsidered(
                for: record.press.key, reason: "not considered: wantsPriorityOverSystemBehavior is false")
            record.owner = .system(handler)
            return true
        }
    }

    private func traceCommandsNotConsidered(for key: Key, reason: String) {
        guard tracing else { return }
        for candidate in currentIndex().lookup(key) where !candidate.command.wantsPriorityOverSystemBehavior {
            trace(
                .keyCommandPassedOver(
                    candidate.command, declaredBy: candidate.declarer.map(ResponderReference.init), reason: reason))
        }
    }

    // MARK: Stages 6 and 7

    /// Stage 6: `pressesBegan` up the chain from the first responder, until a responder does not
    /// pass it on; stage 7 when every responder passes it on.
    func runPressesStage(_ record: inout ActivePress, from start: Responder) {
        var responder: Responder? = start
        while let current = responder {
            chainBuffer.append(current)
            responder = current.nextResponder
        }
        var handler: Responder?
        for current in chainBuffer where current.window === window {
            if deliverBegan(to: current, record: &record) {
                handler = current
                break
            }
        }
        chainBuffer.removeAll(keepingCapacity: true)
        record.owner = .responders(handler: handler)
        if let handler {
            trace(.stage(.presses, .took, reason: handler.traceName + " handled pressesBegan"))
        } else {
            trace(.stage(.presses, .declined, reason: "every responder passed the press on"))
            trace(.stage(.unhandled, .took, reason: "nobody took " + record.press.key.description))
            trace(.unhandled(record.press.key))
        }
    }

    /// Delivers `began` to one responder and records it as a recipient.
    ///
    /// - Returns: `true` when the responder kept the press (did not call `super`).
    @discardableResult
    func deliverBegan(to responder: Responder, record: inout ActivePress) -> Bool {
        record.recipients.append(responder)
        pressEvent.timestamp = record.press.timestamp
        pressEvent.modifierFlags = record.press.key.modifierFlags
        pressEvent.currentRecipient = responder
        pressEvent.passedOn = false
        trace(.press(record.press, ResponderReference(responder)))
        responder.pressesBegan(record.press, with: pressEvent)
        pressEvent.currentRecipient = nil
        return !pressEvent.passedOn
    }
}
