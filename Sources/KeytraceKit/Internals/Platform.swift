// Every libc call of the module goes through this file (as swift-system gathers its syscalls).
internal import Glibc

/// The C calls keytrace makes itself.
enum Platform {
    /// Sleeps, resuming after signals until the time has passed. Uses `nanosleep`.
    ///
    /// - Parameter seconds: How long.
    static func sleep(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        let whole = min(seconds.rounded(.down), Double(Int32.max))
        var pause = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
    }

    /// Ends the process. Uses `exit`.
    ///
    /// - Parameter status: The exit status.
    static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
