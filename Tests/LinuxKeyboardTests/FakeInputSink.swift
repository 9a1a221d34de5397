import ResponderChain

/// A fake sink: keeps every input value it receives, in order, instead of dispatching it.
@MainActor
final class FakeInputSink: InputSink {
    /// What was received, in order.
    private(set) var inputs: [InputEvent] = []

    func receive(_ input: InputEvent) { inputs.append(input) }
}
