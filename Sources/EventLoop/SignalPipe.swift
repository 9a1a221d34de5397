public import LinuxSystem

/// Signals delivered as readable bytes on a pipe, so that an event loop handles them between
/// events instead of inside a signal handler.
public final class SignalPipe {
    /// `SIGINT`.
    public static let interrupt = SignalCalls.interrupt
    /// `SIGTERM`.
    public static let terminate = SignalCalls.terminate
    /// `SIGHUP`.
    public static let hangUp = SignalCalls.hangUp
    /// `SIGWINCH`: the terminal was resized.
    public static let windowChanged = SignalCalls.windowChanged

    /// The read end, for ``EventLoop/watch(_:handler:)``.
    public let fileDescriptor: Int32
    private let writeEnd: Int32
    private let signals: [Int32]

    /// Routes signals to the pipe. Only one pipe per process receives signals.
    ///
    /// - Parameter signals: The signals.
    /// - Throws: `InputError` when no pipe can be made.
    public init(_ signals: [Int32]) throws(InputError) {
        guard let (read, write) = SignalCalls.makeSignalPipe() else {
            throw InputError(operation: "signals", path: nil, message: "cannot create a pipe for signals")
        }
        fileDescriptor = read
        writeEnd = write
        self.signals = signals
        SignalCalls.forward(signals, toPipe: write)
    }

    /// Gives the signals their default action again (Ctrl-C and `SIGTERM` end the process) and
    /// closes the pipe.
    deinit {
        SignalCalls.stopForwarding(signals, toPipe: writeEnd)
        Syscalls.close(fileDescriptor)
    }

    /// The signals received since the last call.
    public func drain() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while let count = Syscalls.readAvailable(fileDescriptor, into: &buffer), count > 0 {
            signals += buffer[0..<count].map { Int32($0) }
        }
        return signals
    }

    /// Makes writing to a closed pipe an error instead of a fatal signal (`keytrace | head`).
    public static func ignoreBrokenPipe() {
        SignalCalls.ignoreBrokenPipe()
    }
}
