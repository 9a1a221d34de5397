import EventLoop

/// Runs the loop until `condition` holds or `seconds` pass; returns whether it held.
///
/// Synchronous on purpose: a test holds the main actor while its loop runs, so that no other suite's
/// main-actor test runs in between (with `await`s that let them in, a run beside InspectionServerTests
/// now and then saw a Wayland window never configured within 5 s).
@MainActor
public func run(_ loop: EventLoop, upTo seconds: Double, until condition: () -> Bool) -> Bool {
    let deadline = EventLoop.monotonicNow + seconds
    while !condition() {
        let left = deadline - EventLoop.monotonicNow
        if left <= 0 { return false }
        loop.runOnce(timeout: min(left, 0.05))
    }
    return true
}

/// A loop for a test: it does not drain the main queue, so that the test holds the main actor.
@MainActor
public func makeLoop() throws -> EventLoop {
    var options = EventLoop.Options()
    options.drainsMainQueue = false
    return try EventLoop(options: options)
}
