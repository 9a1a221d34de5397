// The libc calls of terminal input: termios, window size, signals. Signal handlers cannot
// capture context, so what they need lives in the globals below, written before the handlers
// are installed and read only by them.
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; these are plain synchronous calls.

enum TerminalCalls {
    typealias Settings = termios
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Switches to raw input (no echo, no line editing, no signals from keys), keeping output
    /// processing so that `\n` still starts a new line. Returns the settings to restore.
    static func makeRaw(_ fd: Int32) -> termios? {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
        return saved
    }

    static func restore(_ fd: Int32, _ saved: termios) {
        var saved = saved
        _ = tcsetattr(fd, TCSANOW, &saved)
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Columns and rows.
    static func size(_ fd: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Puts a Linux virtual console back into text mode (`KDSETMODE KD_TEXT`) when something
    /// (a seat manager taking the VT) switched it to graphics mode, in which nothing written to it
    /// shows. Does nothing on any other terminal (`KDGETMODE` fails there).
    ///
    /// - Returns: Whether the console was in graphics mode and is in text mode now.
    static func showTextOnConsole(_ fd: Int32) -> Bool {
        let getMode: UInt = 0x4B3B  // KDGETMODE
        let setMode: UInt = 0x4B3A  // KDSETMODE
        var mode: Int32 = 0
        guard ioctl(fd, getMode, &mode) == 0, mode != 0 else { return false }  // 0: KD_TEXT
        return ioctl(fd, setMode, 0) == 0
    }

    /// Writes all of `bytes` (``Syscalls/writeAll(_:_:)``); what a failing terminal does not
    /// take is dropped.
    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Syscalls.writeAll(fd, $0) }
    }

    /// Reads what is available (non-blocking); `nil` at end of file or on error other than EAGAIN.
    static func readAvailable(_ fd: Int32, into buffer: inout [UInt8]) -> Int? {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count > 0 { return count }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return 0 }
        return nil
    }

    /// Waits up to `milliseconds` for input on `fd`.
    static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    // MARK: Signals

    static let interrupt = SIGINT
    static let terminate = SIGTERM
    static let hangUp = SIGHUP
    static let windowChanged = SIGWINCH
    static let crashSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Makes a pipe whose write end signal handlers write the signal number to.
    static func makeSignalPipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    static func forward(_ signals: [Int32], toPipe fd: Int32) {
        signalPipeWriteEnd = fd
        for signal in signals { install(signal, handler: forwardSignal) }
    }

    /// Gives `signals` their default action again and stops writing to the pipe `fd`.
    static func stopForwarding(_ signals: [Int32], toPipe fd: Int32) {
        for signal in signals { _ = Glibc.signal(signal, SIG_DFL) }
        if signalPipeWriteEnd == fd { signalPipeWriteEnd = -1 }
        close(fd)
    }

    static func ignoreBrokenPipe() {
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
    }

    /// On a crash signal: write `bytes` to `fd`, restore `saved` on `inputFD`, then die of the
    /// signal as before.
    static func restoreOnCrash(outputFD: Int32, bytes: [UInt8], inputFD: Int32, saved: termios) {
        crashRestoreBytes?.deallocate()
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = buffer.initialize(from: bytes)
        crashRestoreBytes = UnsafeBufferPointer(buffer)
        crashRestoreCount = bytes.count
        crashOutputFD = outputFD
        crashInputFD = inputFD
        // On the heap, not in a global of the C struct's type: with Swift 6.3.1, AddressSanitizer
        // reports a global-buffer-overflow when a termios is assigned to such a global.
        if crashSavedTermios == nil { crashSavedTermios = .allocate(capacity: 1) }
        crashSavedTermios?.initialize(to: saved)
        for signal in crashSignals { install(signal, handler: restoreAndDie) }
    }

    static func removeCrashHandlers() {
        for signal in crashSignals { _ = Glibc.signal(signal, SIG_DFL) }
        crashInputFD = -1
    }

    private static func install(_ signal: Int32, handler: @convention(c) (Int32) -> Void) {
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
nonisolated(unsafe) private var crashRestoreBytes: UnsafeBufferPointer<UInt8>?
nonisolated(unsafe) private var crashRestoreCount = 0
nonisolated(unsafe) private var crashOutputFD: Int32 = -1
nonisolated(unsafe) private var crashInputFD: Int32 = -1
nonisolated(unsafe) private var crashSavedTermios: UnsafeMutablePointer<termios>?

/// Async-signal-safe: one `write` of the signal number.
private func forwardSignal(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
}

/// Async-signal-safe: `write`, `tcsetattr`, `signal` and `raise` only.
private func restoreAndDie(_ signal: Int32) {
    if crashInputFD >= 0 {
        if let bytes = crashRestoreBytes, let base = bytes.baseAddress {
            _ = write(crashOutputFD, base, crashRestoreCount)
        }
        if let saved = crashSavedTermios { _ = tcsetattr(crashInputFD, TCSANOW, saved) }
    }
    _ = Glibc.signal(signal, SIG_DFL)
    _ = raise(signal)
}
