// The libc calls of terminal input: termios, window size, signals. Signal handlers cannot
// capture context, so what they need lives in the globals below, written before the handlers
// are installed and read only by them.
internal import EventLoop
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; these are plain synchronous calls.
internal import LinuxSystem

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
    /// Writes all of `bytes`, waiting while the terminal is full: its descriptor shares its file
    /// description with the input, which the loop reads non-blocking, so a frame written to a
    /// terminal that reads slowly (a busy tmux, a slow serial line) meets `EAGAIN` part-way. Gives
    /// up after `patience` seconds in all.
    ///
    /// - Returns: Whether every byte was written.
    @discardableResult
    static func write(_ fd: Int32, _ bytes: [UInt8], patience: Double = 2) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            let deadline = EventLoop.monotonicNow + patience
            while offset < buffer.count {
                let (written, failure) = Syscalls.writeAll(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                offset += written
                guard let failure else { break }
                guard failure == .resourceTemporarilyUnavailable else { return false }
                let left = deadline - EventLoop.monotonicNow
                guard left > 0 else { return false }
                var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, Int32(min(left, 0.5) * 1000) + 1)
            }
            return offset == buffer.count
        }
    }

    // MARK: Signals

    static let crashSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

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
        for signal in crashSignals { SignalCalls.install(signal, handler: restoreAndDie) }
    }

    static func removeCrashHandlers() {
        for signal in crashSignals { _ = Glibc.signal(signal, SIG_DFL) }
        crashInputFD = -1
    }

}

nonisolated(unsafe) private var crashRestoreBytes: UnsafeBufferPointer<UInt8>?
nonisolated(unsafe) private var crashRestoreCount = 0
nonisolated(unsafe) private var crashOutputFD: Int32 = -1
nonisolated(unsafe) private var crashInputFD: Int32 = -1
nonisolated(unsafe) private var crashSavedTermios: UnsafeMutablePointer<termios>?

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
