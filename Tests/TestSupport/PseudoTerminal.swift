import Foundation

/// A pseudo-terminal: the app reads and draws on the `follower` side; the test plays the
/// terminal emulator on the `leader` side.
public final class PseudoTerminal: Sendable {
    /// The terminal emulator's side, where the test types and reads.
    public let leader: Int32
    /// The app's side, its terminal input and output.
    public let follower: Int32

    /// Opens a new pseudo-terminal pair.
    ///
    /// - Throws: `POSIXError` when /dev/ptmx cannot be opened or its follower named.
    public init() throws {
        // posix_openpt and friends are not in Swift's Glibc module: /dev/ptmx and its ioctls.
        leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let tiocsptlck: UInt = 0x4004_5431
        let tiocgptn: UInt = 0x8004_5430
        guard leader >= 0, ioctl(leader, tiocsptlck, &unlock) == 0, ioctl(leader, tiocgptn, &number) == 0 else {
            throw POSIXError(.ENXIO)
        }
        follower = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard follower >= 0 else { throw POSIXError(.ENOENT) }
    }

    deinit {
        close(follower)
        close(leader)
    }

    /// Types bytes, as a user at the terminal would.
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(leader, $0.baseAddress, $0.count) }
    }

    /// Reads what the app wrote, waiting up to `timeout` seconds for the first byte.
    public func read(timeout: Double) -> String {
        var descriptor = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(leader, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    /// The follower's local flags (echo, canonical mode).
    public var localFlags: tcflag_t {
        var settings = termios()
        tcgetattr(follower, &settings)
        return settings.c_lflag
    }

    /// Answers the app's terminal query like a terminal without the kitty protocol.
    public func answerQuery() {
        var query = ""
        for _ in 0..<20 where !query.contains("\u{1b}[c") { query += read(timeout: 0.5) }
        type("\u{1b}[?62;22c")
    }
}
