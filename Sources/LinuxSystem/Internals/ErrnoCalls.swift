// Glibc's errno and strerror carry no concurrency annotations; both are read on the calling thread,
// synchronously, and nothing is kept.
@preconcurrency internal import Glibc

/// The C library's errno, read here so that `Errno` itself imports no C.
enum ErrnoCalls {
    /// The calling thread's `errno`.
    static var current: Int32 { Glibc.errno }

    /// `strerror`'s words for a code.
    ///
    /// - Parameter code: The error number.
    /// - Returns: The text (`Permission denied`).
    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
