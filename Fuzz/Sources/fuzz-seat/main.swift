import FuzzSupport
import ResponderChain
import WaylandClient

// The compositor's seat events (wl_keyboard, wl_pointer, wl_touch) in any order with any values:
// the decoder never traps, and when the devices go away every press that began has ended exactly
// once and no key is left held.
fuzz { data, count in
    let input = bytes(data, count)
    MainActor.assumeIsolated { SeatFuzz.run(input) }
    return 0
}

@MainActor
enum SeatFuzz {
    static let scene = """
        {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
          {"id": "open", "frame": [0, 0, 40, 20], "focusable": true, "primaryAction": "open", "actions": ["open"]},
          {"id": "name", "kind": "textInput", "frame": [50, 30, 40, 10]}]}}
        """

    static func run(_ input: [UInt8]) {
        guard let scene = try? Scene(json: scene, file: "seat.json") else { fatalError("the fuzz scene") }
        let (dispatcher, focus) = scene.makeDispatcher()
        focus.updateFocusIfNeeded()
        let repeater = SoftwareRepeater(timing: .standard, next: dispatcher)
        var now = 1.0
        let decoder = WaylandSeatDecoder(
            sink: repeater, repeater: repeater, clock: { now },
            makeDeviceID: { [unowned dispatcher] in dispatcher.makeDeviceID() })
        var open: Set<PressID> = []
        var endings: [PressID: Press.Phase] = [:]
        let watch = dispatcher.addTraceObserver { record in
            switch record.kind {
            case .press(let press, _), .pressOwned(let press, _, _):
                switch press.phase {
                case .began: open.insert(press.id)
                case .ended, .cancelled:
                    // A press is traced once per responder it reached: one phase may repeat, never both.
                    if let earlier = endings[press.id] {
                        precondition(earlier == press.phase, "press \(press.id) both \(earlier) and \(press.phase)")
                    }
                    endings[press.id] = press.phase
                    open.remove(press.id)
                default: break
                }
            default: break
            }
        }
        for event in WaylandSeatEvent.script(input) {
            now += 0.013
            decoder.receive(event)
            repeater.fire(now: now)
        }
        decoder.cancelAll()
        precondition(open.isEmpty, "presses never ended: \(open)")
        precondition(dispatcher.keyboardState.pressedKeys.isEmpty, "keys left held")
        _ = watch
    }
}
