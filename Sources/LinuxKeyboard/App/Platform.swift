/// The process calls keytrace's library makes (sleeping between replayed events, exiting with
/// a status), so that it needs no C library of its own. Package-wide, not public: an app calls
/// its platform's own functions.
package enum Platform {
    /// Sleeps, resuming after signals until the time has passed; returns at once for a time that
    /// is not positive or not finite, and sleeps at most 68 years. Uses `nanosleep`.
    ///
    /// - Parameter seconds: How long.
    package static func sleep(seconds: Double) {
        Syscalls.sleep(seconds: seconds)
    }

    /// Ends the process (`exit`: buffered C output is flushed, `atexit` handlers run).
    /// Uses `exit`.
    ///
    /// - Parameter status: The exit status.
    package static func exit(_ status: Int32) -> Never {
        Syscalls.exit(status)
    }
}
