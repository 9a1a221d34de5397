public import EventLoop
public import LinuxSystem
public import ResponderChain

/// The terminal as an `InputSource`: its keys (escape sequences, or the kitty keyboard
/// protocol's real presses and releases) and pastes, read on an `EventLoop` and dispatched.
/// The end of the terminal's input (its window closed) stops the loop.
@MainActor
public final class TerminalSource: InputSource {
    /// The terminal read.
    public let terminal: TerminalKeyboard
    /// The loop its descriptor is watched on.
    public let loop: EventLoop
    /// Where its keys go.
    public let context: InputContext
    /// Unused: a terminal reports no device changes (its end stops the loop).
    public var onDeviceChange: ((InputDeviceChange) -> Void)?
    private var watch: EventLoop.Watch?
    private var deadline: EventLoop.Deadline?

    /// Reads a terminal on a loop into a sink, once started.
    ///
    /// - Parameters:
    ///   - terminal: The terminal, in raw mode.
    ///   - loop: The loop.
    ///   - context: Where its keys go (`Dispatcher.inputContext`, or `Application.inputContext`).
    public init(terminal: TerminalKeyboard, loop: EventLoop, context: InputContext) {
        self.terminal = terminal
        self.loop = loop
        self.context = context
    }

    /// `terminal`.
    public var inputName: String { "terminal" }

    /// Whether the terminal reports real releases (the kitty keyboard protocol), and that the
    /// characters arrive already typed on the terminal's own layout.
    public var inputNote: String? {
        let events =
            terminal.reportsEventTypes
            ? "kitty keyboard protocol: real presses, repeats and releases"
            : "no kitty keyboard protocol: each key is a press followed at once by a release"
        return events + "; characters as the terminal typed them"
    }

    isolated deinit {
        if let watch { loop.unwatch(watch) }
        if let deadline { loop.removeDeadline(deadline) }
    }

    /// Watches the terminal on the loop, and sends the terminal's layout
    /// (`TerminalKeyboardLayout`) through the sink: its characters arrive already typed on the
    /// terminal's own layout and must not go through the system's again.
    ///
    /// - Throws: The loop's `InputError` (operation `epoll_ctl`, with its errno) when it cannot
    ///   watch the terminal's descriptor: input redirected from a regular file, a descriptor closed.
    public func start() throws(InputError) {
        guard watch == nil else { return }
        let control = loop.control
        let terminal = terminal
        let sink = context.sink
        do {
            watch = try loop.watch(terminal.inputDescriptor) { _ in
                if !terminal.read(into: sink, time: EventLoop.monotonicNow) { control.stop() }
            }
        } catch {
            var error = error
            error.message = "the terminal's input: " + error.message
            throw error
        }
        // A paste whose end never comes is delivered when its time is up, not with the next key.
        deadline = loop.addDeadline({ terminal.inputDeadline }) { now in
            terminal.expireInput(into: sink, time: now)
        }
        sink.receive(
            .layout(
                KeyboardLayoutChange(TerminalKeyboardLayout()), device: terminal.device,
                timestamp: EventLoop.monotonicNow))
    }

    /// Stops watching the terminal; keys held on it end `cancelled`.
    public func stop() {
        if let deadline { loop.removeDeadline(deadline) }
        deadline = nil
        guard let watch else { return }
        loop.unwatch(watch)
        self.watch = nil
        context.sink.receive(.deviceRemoved(terminal.device, timestamp: EventLoop.monotonicNow))
    }
}
