public import DispatchTrace
internal import EventLoop

extension TraceSession {
    /// Reports an app's change that the dispatcher and the focus system do not trace
    /// themselves: a keyboard opened (named from then on in `key` events), a device that failed,
    /// hot-plug unavailable, the seat disabled or enabled again. Removals, focus and
    /// first-responder changes come through their own records; a resize is not traced. The
    /// event's time is `EventLoop.monotonicNow` less `timeOrigin`.
    ///
    /// - Parameter change: The change, from `Application.onChange` (or `KeyboardApp.onChange`).
    public func report(_ change: Application.Change) {
        let t = EventLoop.monotonicNow - timeOrigin
        switch change {
        case .deviceAdded(let device):
            deviceNames[device.id] = device.name
            emit(
                TraceEvent(t: t, .device(.added, name: device.name, path: device.path, detail: device.detail)))
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
        case .deviceRemoved, .focusMoved, .firstResponderChanged, .resized, .screenResized:
            break
        }
    }
}
