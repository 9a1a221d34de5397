import EventLoop

/// Runs the loop until `condition` holds or `seconds` pass; returns whether it held.
@MainActor
func run(_ loop: EventLoop, upTo seconds: Double, until condition: () -> Bool) -> Bool {
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
func makeLoop() throws -> EventLoop {
    var options = EventLoop.Options()
    options.drainsMainQueue = false
    return try EventLoop(options: options)
}
