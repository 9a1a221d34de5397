// The libc calls the Linux modules share (descriptors, paths, the environment, the clock), so
// there is one place to see (and trace) what the package asks of the kernel. Each module's own
// calls (epoll, termios, libevdev…) stay in that module's Internals/.
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; these are plain synchronous calls.

/// The libc calls the Linux modules share.
package enum Syscalls {
    /// Opens a path read-write (for LEDs) or, failing that, read-only; non-blocking, close-on-exec.
    ///
    /// - Returns: The descriptor, or the errno of the read-only attempt.
    package static func openForReading(_ path: String) -> Result<Int32, Errno> {
        let readWrite = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if readWrite >= 0 { return .success(readWrite) }
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        return fd >= 0 ? .success(fd) : .failure(.current)
    }

    /// An environment variable, or `nil`.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Sets (or, with `nil`, removes) an environment variable. Not thread-safe (libc's
    /// environment is not): for start-up, before other threads read it.
    package static func setEnvironment(_ name: String, _ value: String?) {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }

    /// Switches a descriptor to non-blocking reads.
    package static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether two descriptors are open on the same file (the same terminal, say): the same device and
    /// inode. Uses `fstat`.
    package static func sameFile(_ first: Int32, _ second: Int32) -> Bool {
        var a = stat()
        var b = stat()
        guard fstat(first, &a) == 0, fstat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_rdev == b.st_rdev
    }

    /// The device number of a character device node (following links), or `nil`.
    package static func characterDeviceNumber(_ path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return nil }
        return UInt64(info.st_rdev)
    }

    /// The path with every symbolic link resolved (`realpath`); `nil` when it does not exist.
    package static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `CLOCK_MONOTONIC` in seconds: the clock devices are switched to, so that event times and
    /// software repeats share one clock.
    package static func monotonicNow() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }

    /// The id of `CLOCK_MONOTONIC`, for `libevdev_set_clock_id`.
    package static let monotonicClockID = CLOCK_MONOTONIC

    /// Sleeps, resuming after signals; returns at once for a time that is not positive or not
    /// finite. Uses `nanosleep`.
    package static func sleep(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        // At most 68 years: a longer (or infinite) gap would trap converting to Int.
        let seconds = min(seconds, Double(Int32.max))
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && Glibc.errno == EINTR { request = remaining }
    }

    /// Ends the process. Uses `exit`.
    package static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Writes all of `bytes` to a descriptor: the one write path of the package (trace output,
    /// terminal output, recordings). Partial writes go on with the rest and `EINTR` is retried;
    /// it stops at the first other failure, `EAGAIN` included (a non-blocking descriptor that is
    /// full: the caller keeps the rest), or when `write` takes nothing. Uses `write`.
    ///
    /// - Parameters:
    ///   - descriptor: Where to write.
    ///   - bytes: What to write.
    /// - Returns: How many bytes were written, and the error number of the failure that stopped it
    ///   (`nil` when everything was written, or when `write` returned 0).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> (
        written: Int, failure: Errno?
    ) {
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if result > 0 {
                written += result
            } else if result < 0 {
                let code = Errno.current
                if code == .interrupted { continue }
                return (written, code)
            } else {
                return (written, nil)
            }
        }
        return (written, nil)
    }

    /// The process environment, from `environ`.
    package static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// Reads what is available (non-blocking); `nil` at end of file or on error other than EAGAIN.
    package static func readAvailable(_ fd: Int32, into buffer: inout [UInt8]) -> Int? {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count > 0 { return count }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return 0 }
        return nil
    }

    /// Waits up to `milliseconds` for input on `fd`.
    package static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }
}
