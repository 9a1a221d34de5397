// What happens to a press after its key-down: repeats, modifier changes, key-up, cancellation,
// and responders leaving the tree. See "Lifecycle rules" in <doc:DispatchOrder>.

extension Dispatcher {
    /// The key auto-repeated: `repeat` for responders, the command again if it repeats, the
    /// system behaviour's repeat.
    func repeatPress(at slot: Int, key: Key) {
        active[slot].press.phase = .repeated
        active[slot].press.repeatCount += 1
        active[slot].press.key = key
        active[slot].press.timestamp = currentTimestamp
        let press = active[slot].press
        switch active[slot].owner {
        case .responders, .textInput:
            deliver(press, to: active[slot].recipients)
        case .keyCommand(let command, let declarer, let priority):
            let owner = active[slot].owner.stage
            let label = command.traceLabel(secure: press.isSecureEntry)
            guard command.repeatBehavior == .repeatable else {
                trace(.pressOwned(press, owner: owner, reason: "swallowed: key command " + label + " does not repeat"))
                return
            }
            let sender = ActionSender.keyCommand(command)
            guard let target = chainStart.target(forAction: command.action, sender: sender) else {
                trace(
                    .pressOwned(
                        press, owner: owner,
                        reason: "swallowed: no responder can perform " + command.action.rawValue + " now"))
                return
            }
            if tracing {
                trace(
                    .pressOwned(press, owner: owner, reason: "repeats key command " + label + " on " + target.traceName)
                )
                trace(
                    .keyCommand(
                        command, declaredBy: declarer.map(ResponderReference.init), target: ResponderReference(target),
                        priority: priority, isRepeat: true))
            }
            target.perform(command.action, sender: sender)
        case .system(let handler):
            trace(.pressOwned(press, owner: .systemBehavior, reason: "goes to system behaviour " + handler.name))
            handler.keyRepeated(press, in: window)
        case .reserved:
            trace(.pressOwned(press, owner: .reservedShortcuts, reason: "swallowed: owned by a reserved shortcut"))
        case .cancelled(let reason, let stage):
            trace(.pressOwned(press, owner: stage, reason: "swallowed: the press was cancelled (" + reason + ")"))
        }
    }

    /// Ends or cancels the press in `slot` and forgets it.
    func finishPress(at slot: Int, phase: Press.Phase, key: Key? = nil) {
        let record = active.remove(at: slot)
        record.press.phase = phase
        record.press.timestamp = currentTimestamp
        if let key { record.press.key = key }
        let press = record.press
        switch record.owner {
        case .responders, .textInput:
            deliver(press, to: record.recipients)
        case .keyCommand(let command, _, _):
            trace(
                .pressOwned(
                    press, owner: record.owner.stage,
                    reason: "owned by key command " + command.traceLabel(secure: press.isSecureEntry)))
        case .system(let handler):
            trace(.pressOwned(press, owner: .systemBehavior, reason: "goes to system behaviour " + handler.name))
            if phase == .ended {
                handler.keyReleased(press, in: window)
            } else {
                handler.keyCancelled(press, in: window)
            }
        case .reserved:
            trace(.pressOwned(press, owner: .reservedShortcuts, reason: "owned by a reserved shortcut"))
        case .cancelled(let reason, let stage):
            trace(
                .pressOwned(press, owner: stage, reason: "swallowed: the press was already cancelled (" + reason + ")"))
        }
        recycle(record)
    }

    /// Delivers `changed`, `ended` or `cancelled` to every recipient, nearest first. A recipient
    /// that has left the window gets `cancelled` instead of `ended`; for `changed` it is skipped
    /// (its `cancelled` follows when the event is finished).
    func deliver(_ press: Press, to recipients: [UnownedRef<Responder>]) {
        pressEvent.timestamp = press.timestamp
        pressEvent.modifierFlags = press.key.modifierFlags
        let window = self.window
        let tracing = self.tracing
        let event = pressEvent
        for recipient in recipients {
            // See ActivePress.recipients for why every entry is alive. (A loop body, not a
            // closure: a closure formed on the main actor checks the executor at every call.)
            do {
                let responder = recipient.target
                let inWindow = responder.isIn(window)
                switch press.phase {
                case .changed, .repeated:
                    guard inWindow else { continue }
                    if tracing { trace(.press(press, ResponderReference(responder))) }
                    responder.pressesChanged(press, with: event)
                case .ended where inWindow:
                    if tracing { trace(.press(press, ResponderReference(responder))) }
                    responder.pressesEnded(press, with: event)
                case .ended, .cancelled:
                    var cancelled = press
                    cancelled.phase = .cancelled
                    if tracing { trace(.press(cancelled, ResponderReference(responder))) }
                    responder.pressesCancelled(cancelled, with: event)
                case .began:
                    preconditionFailure("began is delivered by the presses stage")
                }
            }
        }
    }

    /// The modifiers or locks changed: every other held key's press gets `changed` with its new key.
    func modifiersDidChange(except event: KeyEvent?) {
        var slot = 0
        while slot < active.count {
            defer { slot += 1 }
            let press = active[slot].press
            if let event, press.device == event.device && press.key.keyCode == event.code { continue }
            // A key with no position carries its source's text, which no modifier changes.
            if press.key.keyCode == .unidentified { continue }
            var key = makeKey(press.key.keyCode)
            // A press acts as the key it began as, whatever keymap came since.
            key.logicalKeyCode = press.key.logicalKeyCode
            guard key != press.key else { continue }
            active[slot].press.key = key
            active[slot].press.phase = .changed
            active[slot].press.timestamp = currentTimestamp
            let changed = active[slot].press
            switch active[slot].owner {
            case .responders, .textInput:
                deliver(changed, to: active[slot].recipients)
            default:
                trace(
                    .pressOwned(
                        changed, owner: active[slot].owner.stage,
                        reason: "modifiers changed; not delivered: the press is not owned by responders"))
            }
        }
    }

    func processCancelKey(_ code: KeyCode, device: DeviceID) {
        let before = state.layoutState
        guard state.forceRelease(code, on: device) else { return }
        trackKeys(released: [code])
        if let slot = activeIndex(device: device, code: code) {
            finishPress(at: slot, phase: .cancelled)
        }
        if state.layoutState != before { modifiersDidChange(except: nil) }
    }

    func processResync(device: DeviceID, pressedKeys: [KeyCode]) {
        let before = state.layoutState
        var released: [KeyCode] = []
        var found: [KeyCode] = []
        for code in state.pressedKeys(on: device) where !pressedKeys.contains(code) {
            state.forceRelease(code, on: device)
            released.append(code)
            if let slot = activeIndex(device: device, code: code) {
                finishPress(at: slot, phase: .cancelled)
            }
        }
        for code in pressedKeys where !state.isPressed(code, on: device) {
            if !state.isPressed(code) { found.append(code) }
            state.noteHeld(code, on: device)
        }
        trackKeys(released: released, held: found)
        if state.layoutState != before { modifiersDidChange(except: nil) }
    }

    func processDeviceRemoved(_ device: DeviceID) {
        trace(.deviceRemoved(device))
        let before = state.layoutState
        trackKeys(released: state.removeDevice(device))
        var slot = 0
        while slot < active.count {
            if active[slot].press.device == device {
                finishPress(at: slot, phase: .cancelled)
            } else {
                slot += 1
            }
        }
        if state.layoutState != before { modifiersDidChange(except: nil) }
    }

    func processPointer(_ event: PointerEvent) {
        secureContext = isSecureEntry
        guard let focusSystem = window.focusSystem else {
            trace(.pointer(event, item: nil, outcome: "the window has no focus system: nothing to hit"))
            return
        }
        let tracker: PointerActivationTracker
        if let current = pointerTracker, current.focusSystem === focusSystem {
            tracker = current
        } else {
            tracker = PointerActivationTracker(focusSystem: focusSystem)
            pointerTracker = tracker
        }
        switch event.phase {
        case .down:
            window.lastInteraction = event.kind == .touch ? .touch : .mouse
            // One hit test per event, shared by the tracker and the trace.
            let hit = focusSystem.item(at: event.point)
            tracker.down(event.contact, hit: hit)
            trace(.pointer(event, item: hit?.focusDebugName, outcome: nil))
        case .move:
            tracker.move(event.contact, to: event.point)
        case .up:
            let hit = focusSystem.item(at: event.point)
            let outcome = tracker.up(event.contact, at: event.point, hit: hit)
            trace(.pointer(event, item: hit?.focusDebugName, outcome: outcome.description))
        case .cancel:
            tracker.cancelAll()
            trace(.pointer(event, item: nil, outcome: "cancelled: nothing is activated"))
        }
    }

    func processModifiers(_ modifiers: SerializedModifiers) {
        guard let tracker else { return }
        let before = state.layoutState
        tracker.updateModifiers(modifiers)
        state.adopt(tracker.state)
        if state.layoutState != before { modifiersDidChange(except: nil) }
    }

    func processKeyboardLost() {
        trace(.keyboardLost)
        let before = state.layoutState
        state.releaseAll()
        if let tracker {
            tracker.reset()
            state.adopt(tracker.state)
        }
        if state.layoutState != before { modifiersDidChange(except: nil) }
        while !active.isEmpty {
            finishPress(at: 0, phase: .cancelled)
        }
    }

    func processSwitchWindow(_ newWindow: Window) {
        cancelAllPressesKeepingKeys(reason: "the window changed")
        if window !== newWindow {
            window.dispatcher = nil
            window = newWindow
            newWindow.dispatcher = self
        }
    }

    /// Cancels every press for its owners but keeps the records, so the keys stay swallowed until
    /// they come up.
    private func cancelAllPressesKeepingKeys(reason: String) {
        for slot in active.indices {
            var press = active[slot].press
            press.phase = .cancelled
            press.timestamp = currentTimestamp
            switch active[slot].owner {
            case .responders, .textInput:
                deliver(press, to: active[slot].recipients)
                active[slot].recipients.removeAll(keepingCapacity: true)
            case .system(let handler):
                handler.keyCancelled(press, in: window)
            case .keyCommand, .reserved, .cancelled:
                break
            }
            if case .cancelled = active[slot].owner { continue }
            active[slot].owner = .cancelled(reason: reason, stage: active[slot].owner.stage)
        }
    }

    /// Responders left the tree: each gets `cancelled` for the presses it received; a press whose
    /// owner left is cancelled for everyone, and its key stays swallowed until it comes up.
    func reconcile() {
        for slot in active.indices {
            let record = active[slot]
            var press = record.press
            press.phase = .cancelled
            press.timestamp = currentTimestamp
            let ownerLeft: Bool
            switch record.owner {
            case .responders(let handler?):
                ownerLeft = handler.window !== window
            case .textInput(let handler):
                ownerLeft = handler.window !== window
            case .keyCommand(_, let declarer?, _):
                ownerLeft = declarer.window !== window
            default:
                ownerLeft = false
            }
            if ownerLeft {
                deliver(press, to: record.recipients)
                active[slot].recipients.removeAll(keepingCapacity: true)
                active[slot].owner = .cancelled(reason: "its owner left the tree", stage: record.owner.stage)
                continue
            }
            let window = self.window
            guard record.recipients.contains(where: { !$0.target.isIn(window) }) else { continue }
            var leaving: [UnownedRef<Responder>] = []
            record.recipients.removeAll { recipient in
                guard !recipient.target.isIn(window) else { return false }
                leaving.append(recipient)
                return true
            }
            deliver(press, to: leaving)
        }
    }
}
