// The libc calls of signal handling. Signal handlers cannot capture context, so what they need
// lives in the global below, written before the handlers are installed and read only by them.
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; these are plain synchronous calls.

/// The signal calls of the package (the terminal's crash handlers install through it too).
package enum SignalCalls {
    package static let interrupt = SIGINT
    package static let terminate = SIGTERM
    package static let hangUp = SIGHUP
    package static let windowChanged = SIGWINCH
    /// Makes a pipe whose write end signal handlers write the signal number to.
    package static func makeSignalPipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    package static func forward(_ signals: [Int32], toPipe fd: Int32) {
        signalPipeWriteEnd = fd
        for signal in signals { install(signal, handler: forwardSignal) }
    }

    /// Gives `signals` their default action again and stops writing to the pipe `fd`.
    package static func stopForwarding(_ signals: [Int32], toPipe fd: Int32) {
        for signal in signals { _ = Glibc.signal(signal, SIG_DFL) }
        if signalPipeWriteEnd == fd { signalPipeWriteEnd = -1 }
        close(fd)
    }

    package static func ignoreBrokenPipe() {
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
    }

    /// Installs `handler` for `signal` (restarting interrupted calls) and unblocks the signal.
    package static func install(_ signal: Int32, handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        _ = sigaction(signal, &action, nil)
        // A blocked signal inherited from the parent (test runners and some supervisors block
        // INT and TERM) would never reach the handler, and the terminal would stay raw.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, signal)
        _ = pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }
}

nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Async-signal-safe: one `write` of the signal number.
private func forwardSignal(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
}
