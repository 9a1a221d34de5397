import DRMOutput
import FuzzSupport

// What a DRM device's descriptor delivers, as DRMCanvasOutput reads it: any bytes decode without a
// trap into at most one event per 8 bytes, each flip with a finite, non-negative time; the events
// before a malformed header are the same as those of the bytes cut there.
fuzz { data, count in
    let input = bytes(data, count)
    let (events, malformed) = DRMEvents.decode(input)
    guard events.count <= input.count / 8 else { fatalError("\(events.count) events from \(input.count) bytes") }
    for event in events where !(event.time.isFinite && event.time >= 0) {
        fatalError("an event at \(event.time)")
    }
    if !malformed, !input.isEmpty {
        // Decoding the bytes with one more garbage byte keeps every event and says it is malformed.
        let (again, bad) = DRMEvents.decode(input + [0])
        guard again == events, bad else { fatalError("a trailing byte changed the events: \(again) vs \(events)") }
    }
    return 0
}
