// The key-down pipeline: one method per stage, in the order of <doc:DispatchOrder>.

extension Dispatcher {
    func processKey(_ event: KeyEvent) {
        beginInput(event.timestamp)
        let before = state.layoutState
        let wasHeld = tracker != nil && state.isPressed(event.code)
        let transition = state.apply(event)
        // A layout that keeps its own state (xkbcommon) hears of the first down and the last up.
        var typed: String?
        if let tracker {
            if transition == .pressed && !wasHeld {
                typed = tracker.keyDown(event.code)
                state.adopt(tracker.state)
            } else if transition == .released && !state.isPressed(event.code) {
                tracker.keyUp(event.code)
                state.adopt(tracker.state)
            }
        }
        // A source that knows the text (a terminal) has the last word on what the key typed.
        if transition == .pressed, let text = event.text { typed = text }
        let slot =
            transition == .repeated || transition == .released
            ? activeIndex(device: event.device, code: event.code) : nil
        // A repeat or key-up is as secure as its press; a new key as the input it goes to.
        // (No closures on this path: a closure formed on the main actor checks the executor at
        // every call, about 220 instructions.)
        if let slot {
            secureContext = active[slot].press.isSecureEntry
        } else {
            secureContext = chainIsSecure || (inputViewTarget(for: event.device)?.isSecureTextEntry ?? false)
        }
        trace(.input(event, makeKey(event.code, typed: typed), transition))
        switch transition {
        case .pressed:
            if window.inputViewDevices.isEmpty || !window.inputViewDevices.contains(event.device) {
                window.lastInteraction = .keys
            }
            beginPress(event, key: makeKey(event.code, typed: typed))
        case .repeated:
            // A held key's press already carries the current key: modifier changes update every
            // active press, so repeats and key-ups need no layout lookup.
            if let slot {
                repeatPress(at: slot, key: active[slot].press.key)
            } else {
                trace(.stage(.unhandled, .skipped, reason: "repeat of a key that has no press (held since a resync)"))
            }
        case .released:
            if let slot {
                finishPress(at: slot, phase: .ended)
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
            device: event.device, isSecureEntry: secureContext)
        nextPressNumber &+= 1
        let record = makeRecord(for: press)
        let start = chainStart
        // The stages borrow `press`: reading `record.press` would copy it (and its strings).
        // What the key acts as decides (a keymap may put Escape on Caps Lock, or a letter on Control).
        if key.logicalKeyCode.isModifier {
            trace(.stage(.reservedShortcuts, .skipped, reason: "bare modifier key: delivered as a press only"))
            runPressesStage(press, record, from: start)
        } else if runReservedShortcutStage(press, record) {
        } else {
            let index = currentIndex()
            let candidates = index.lookup(key)
            if runKeyCommandStage(priority: true, candidates, press, record, from: start) {
            } else if runTextInputStage(
                press, record, textInput: index.hasTextInput ? index.textInput : inputViewTarget(for: press.device))
            {
            } else if runSystemBehaviorStage(press, record, candidates) {
            } else if runKeyCommandStage(priority: false, candidates, press, record, from: start) {
            } else {
                runPressesStage(press, record, from: start)
            }
        }
        active.append(record)
    }

    // MARK: Stage 1

    /// Stage 1: shortcuts the embedding app reserved.
    func runReservedShortcutStage(_ press: Press, _ record: ActivePress) -> Bool {
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
        let chord = KeyChordID(code: press.key.logicalKeyCode, modifiers: press.key.modifierFlags)
        guard let position = reservedIndex?[chord] else {
            trace(.stage(.reservedShortcuts, .declined, reason: "no reserved shortcut for " + keyLabel(press)))
            return false
        }
        let shortcut = reservedShortcuts[position]
        trace(
            .stage(
                .reservedShortcuts, .took,
                reason: "reserved shortcut " + shortcut.command.traceLabel(secure: press.isSecureEntry)))
        record.owner = .reserved
        shortcut.handler(press)
        return true
    }

    // MARK: Stages 2 and 5

    /// Stage 2 (`priority`) or stage 5: key commands matching the key, nearest declaration first.
    func runKeyCommandStage(
        priority: Bool, _ candidates: [KeyCommandIndex.Candidate], _ press: Press, _ record: ActivePress,
        from start: Responder
    ) -> Bool {
        let stage: DispatchStage = priority ? .priorityKeyCommands : .keyCommands
        let tracing = self.tracing
        var winner: Int?
        for position in candidates.indices
        where candidates[position].command.wantsPriorityOverSystemBehavior == priority {
            if let winner {
                if tracing { traceShadowed(candidates[position], by: candidates[winner]) }
                continue
            }
            if candidates[position].command.isDisabled {
                if tracing { tracePassedOver(candidates[position], reason: "disabled") }
                continue
            }
            let action = candidates[position].command.action
            let sender = ActionSender.keyCommand(candidates[position].command)
            guard let target = start.target(forAction: action, sender: sender) else {
                if tracing {
                    tracePassedOver(candidates[position], reason: "no responder can perform " + action.rawValue)
                }
                continue
            }
            winner = position
            let candidate = candidates[position]
            record.owner = .keyCommand(candidate.command, declarer: candidate.declarer, priority: priority)
            if tracing {
                trace(
                    .stage(
                        stage, .took,
                        reason: "key command " + candidate.command.traceLabel(secure: press.isSecureEntry)))
                trace(
                    .keyCommand(
                        candidate.command, declaredBy: candidate.declarer.map(ResponderReference.init),
                        target: ResponderReference(target), priority: priority, isRepeat: false))
            }
            target.perform(action, sender: sender)
            if !tracing { break }
        }
        if winner == nil {
            trace(
                .stage(
                    stage, .declined,
                    reason: candidates.isEmpty
                        ? "no key command for " + keyLabel(press)
                        : "no matching key command could take the key"))
        }
        return winner != nil
    }

    private func tracePassedOver(_ candidate: KeyCommandIndex.Candidate, reason: String) {
        trace(
            .keyCommandPassedOver(
                candidate.command, declaredBy: candidate.declarer.map(ResponderReference.init), reason: reason))
    }

    private func traceShadowed(_ candidate: KeyCommandIndex.Candidate, by winner: KeyCommandIndex.Candidate) {
        tracePassedOver(
            candidate,
            reason: "shadowed by " + winner.command.traceLabel(secure: secureContext) + " on "
                + (winner.declarer?.traceName ?? "global commands"))
    }

    // MARK: Stage 3

    /// Stage 3: the first responder's text input.
    /// The text field an input view's key goes to: the first responder's text input, when the key
    /// comes from an input view's device (an on-screen keyboard typing while focus is on its keys).
    func inputViewTarget(for device: DeviceID) -> (any TextInputResponder)? {
        guard !window.inputViewDevices.isEmpty, window.inputViewDevices.contains(device) else { return nil }
        return window.firstResponder?.asTextInputResponder
    }

    func runTextInputStage(_ press: Press, _ record: ActivePress, textInput: (any TextInputResponder)?) -> Bool {
        guard let textInput else {
            trace(.stage(.textInput, .declined, reason: "the first responder is not a text input"))
            return false
        }
        guard textInput.wantsToEdit(with: press.key) else {
            trace(.stage(.textInput, .declined, reason: textInput.traceName + " does not edit with this key"))
            return false
        }
        trace(.stage(.textInput, .took, reason: textInput.traceName + " edits with " + keyLabel(press)))
        if tracing {
            traceCommandsNotConsidered(
                currentIndex().lookup(press.key), reason: "not considered: the text input took the key first")
        }
        record.owner = .textInput(textInput)
        pressEvent.timestamp = press.timestamp
        pressEvent.modifierFlags = press.key.modifierFlags
        _ = deliverBegan(press, to: textInput, record: record, event: pressEvent, tracing: tracing)
        return true
    }

    // MARK: Stage 4

    /// Stage 4: the system behaviour (the focus system).
    func runSystemBehaviorStage(_ press: Press, _ record: ActivePress, _ candidates: [KeyCommandIndex.Candidate])
        -> Bool
    {
        guard let handler = systemKeyHandler else {
            trace(.stage(.systemBehavior, .declined, reason: "no system behaviour installed"))
            return false
        }
        switch handler.keyDown(press, in: window) {
        case .decline(let reason):
            trace(.stage(.systemBehavior, .declined, reason: handler.name + ": " + reason))
            return false
        case .take(let reason):
            trace(.stage(.systemBehavior, .took, reason: handler.name + ": " + reason))
            if tracing {
                traceCommandsNotConsidered(
                    candidates, reason: "not considered: wantsPriorityOverSystemBehavior is false")
            }
            record.owner = .system(handler)
            return true
        }
    }

    private func traceCommandsNotConsidered(_ candidates: [KeyCommandIndex.Candidate], reason: String) {
        for candidate in candidates where !candidate.command.wantsPriorityOverSystemBehavior {
            tracePassedOver(candidate, reason: reason)
        }
    }

    // MARK: Stages 6 and 7

    /// Stage 6: `pressesBegan` up the chain from the first responder, until a responder does not
    /// pass it on; stage 7 when every responder passes it on.
    func runPressesStage(_ press: Press, _ record: ActivePress, from start: Responder) {
        // Follow the chain from the start, taking each next link before the responder's handler
        // runs. A responder that is no longer in the window when its turn comes ends the walk: a
        // handler removed it, and with it the link from the first responder to the ancestors.
        let window = self.window
        let tracing = self.tracing
        let event = pressEvent
        event.timestamp = press.timestamp
        event.modifierFlags = press.key.modifierFlags
        // The walk borrows each responder instead of retaining it: a responder is in the tree
        // when its turn comes, and one removed during the walk is kept alive by
        // `removedDuringEvent` until the event ends.
        // (A loop, not a closure per responder: a closure formed on the main actor checks the
        // executor at every call, which cost the walk two thirds of its instructions.)
        var handler: Responder?
        var next: UnownedRef<Responder>? = UnownedRef(start)
        while let link = next {
            let current = link.target
            guard current.isIn(window) else { break }
            next = current.unretainedParent
            if deliverBegan(press, to: current, record: record, event: event, tracing: tracing) {
                handler = current
                break
            }
        }
        record.owner = .responders(handler: handler)
        if let handler {
            trace(.stage(.presses, .took, reason: handler.traceName + " handled pressesBegan"))
        } else {
            trace(.stage(.presses, .declined, reason: "every responder passed the press on"))
            trace(.stage(.unhandled, .took, reason: "nobody took " + keyLabel(press)))
            trace(.unhandled(press.key))
        }
    }

    /// Delivers `began` to one responder and records it as a recipient.
    ///
    /// - Returns: `true` when the responder kept the press (did not call `super`).
    @inline(__always)
    func deliverBegan(
        _ press: Press, to responder: Responder, record: ActivePress, event: PressEvent, tracing: Bool
    ) -> Bool {
        record.recipients.append(UnownedRef(responder))
        event.handshake = PressEvent.Handshake(recipient: ObjectIdentifier(responder), passedOn: false)
        if tracing { trace(.press(press, ResponderReference(responder))) }
        responder.pressesBegan(press, with: event)
        let passedOn = event.handshake.passedOn
        event.handshake.recipient = nil
        return !passedOn
    }
}
