public import DispatchTrace

extension TraceSession {
    /// Reports a `KeyboardApp` change that the dispatcher and the focus system do not trace
    /// themselves: a keyboard opened (named from then on in `key` events), a device that failed,
    /// hot-plug unavailable, the seat disabled or enabled again. Removals, focus and
    /// first-responder changes come through their own records; a resize is not traced. The
    /// event's time is ``KeyboardEventLoop/monotonicNow`` less `timeOrigin`.
    ///
    /// - Parameter change: The change, from `KeyboardApp.onChange`.
    public func report(_ change: KeyboardApp.Change) {
        let t = KeyboardEventLoop.monotonicNow - timeOrigin
        switch change {
        case .keyboardAdded(let keyboard):
            deviceNames[keyboard.id] = keyboard.name
            let detail = "\(keyboard.kind), repeats: \(keyboard.repeatSource)" + (keyboard.isGrabbed ? ", grabbed" : "")
            emit(TraceEvent(t: t, .device(.added, name: keyboard.name, path: keyboard.path, detail: detail)))
        case .deviceFailed(let path, let message):
            emit(TraceEvent(t: t, .device(.failed, name: path, path: path, detail: message)))
        case .hotPlugUnavailable(let message):
            emit(TraceEvent(t: t, .device(.hotPlugUnavailable, name: "", path: nil, detail: message)))
        case .seatDisabled(let cancelled):
            // Presses are cancelled through the dispatcher's own records; this says why.
            let detail = "another session has the seat; \(cancelled.count) held key(s) cancelled"
            emit(TraceEvent(t: t, .device(.seatDisabled, name: "seat", path: nil, detail: detail)))
        case .seatEnabled:
            emit(TraceEvent(t: t, .device(.seatEnabled, name: "seat", path: nil, detail: nil)))
        case .keyboardRemoved, .focusMoved, .firstResponderChanged, .resized:
            break
        }
    }
}
