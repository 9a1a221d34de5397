public import ResponderChain

/// An `InputSink` that keeps every input value it receives, in order, instead
/// of dispatching it: for testing an input source or decoder of your own (what it makes from a
/// device's bytes), apart from what the dispatcher then does with it.
///
/// ```swift
/// let sink = RecordingInputSink()
/// let source = MyRemoteControlSource(sink: sink)
/// source.feed(bytes)
/// #expect(sink.inputs == [.key(KeyEvent(.a, .down, timestamp: 0))])
/// ```
@MainActor
public final class RecordingInputSink: InputSink {
    /// What was received, in order.
    public private(set) var inputs: [InputEvent] = []

    /// An empty sink.
    public init() {}

    /// Keeps the value.
    ///
    /// - Parameter input: The value.
    public func receive(_ input: InputEvent) { inputs.append(input) }

    /// Forgets what was received.
    public func removeAll() { inputs.removeAll() }
}
