import FuzzSupport
import LibinputInput
import ResponderChain

// libinput's events (devices added and removed, motion, buttons, touches) in any order with any
// values, a dispatch at a time: the decoder never traps, every point it passes on is finite, every
// contact that went down ends (up or cancel) exactly once, and after cancelAll nothing is held.
fuzz { data, count in
    let input = bytes(data, count)
    MainActor.assumeIsolated { LibinputFuzz.run(input) }
    return 0
}

@MainActor
enum LibinputFuzz {
    static let scene = """
        {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
          {"id": "open", "frame": [0, 0, 40, 20], "focusable": true, "primaryAction": "open", "actions": ["open"]},
          {"id": "name", "kind": "textInput", "frame": [50, 30, 40, 10]}]}}
        """

    static func run(_ input: [UInt8]) {
        guard let scene = try? Scene(json: scene, file: "libinput.json") else { fatalError("the fuzz scene") }
        let (dispatcher, focus) = scene.makeDispatcher()
        focus.updateFocusIfNeeded()
        let decoder = LibinputDecoder(
            sink: dispatcher, makeDeviceID: { [unowned dispatcher] in dispatcher.makeDeviceID() })
        decoder.screen = { (1000, 600) }
        decoder.mapPoint = { Point(x: $0 / 10, y: $1 / 10) }
        decoder.outputName = "Virtual-1"
        decoder.releaseGrace = 0.05
        var down: Set<String> = []
        let watch = dispatcher.addTraceObserver { record in
            guard case .pointer(let event, _, _) = record.kind else { return }
            precondition(event.point.x.isFinite && event.point.y.isFinite, "a point that is not finite: \(event)")
            let contact = "\(event.device.rawValue)/\(event.contact)"
            switch event.phase {
            case .down: precondition(down.insert(contact).inserted, "\(contact) went down twice")
            case .move: precondition(down.contains(contact), "\(contact) moved while up")
            case .up, .cancel: precondition(down.remove(contact) != nil, "\(contact) ended while up")
            }
        }
        for batch in LibinputEvent.script(input) {
            decoder.receive(batch: batch)
            if let time = batch.compactMap(\.time).last { decoder.flush(now: time) }
            precondition(decoder.touchCount <= LibinputDecoder.maximumTouches, "too many touches")
        }
        decoder.cancelAll(time: 1_000)
        precondition(down.isEmpty, "contacts never ended: \(down)")
        precondition(decoder.touchCount == 0 && !decoder.isButtonDown, "something left held")
        decoder.removeAll()
        precondition(decoder.deviceInfos.isEmpty, "devices left")
        _ = watch
    }
}
