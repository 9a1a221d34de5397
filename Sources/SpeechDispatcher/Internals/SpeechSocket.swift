// The libc calls of the speech-dispatcher client: a non-blocking connect to a Unix socket or a TCP
// port that stays non-blocking, and its outcome. Sending and receiving go through LinuxSystem's
// UnixSocket (MSG_DONTWAIT | MSG_NOSIGNAL), which serves a TCP socket as well.
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; these are plain synchronous calls.
internal import LinuxSystem

/// A connection to the daemon as the kernel sees it: made without blocking, left non-blocking.
enum SpeechSocket {
    /// How a connect went.
    enum Outcome {
        /// Connected now (a Unix socket always answers at once).
        case connected(Int32)
        /// Connecting (TCP): the descriptor becomes writable when it is done; then ask
        /// ``pendingError(_:)``.
        case inProgress(Int32)
        /// Refused, missing, or not allowed: the error number and the call.
        case failed(errno: Errno, operation: String)
    }

    /// Connects without blocking. A Unix socket's listener with a full queue answers `EAGAIN`
    /// (the caller retries later, it never waits here); a TCP connect is left in progress.
    static func connect(_ transport: SpeechDispatcherAddress.Transport) -> Outcome {
        switch transport {
        case .unixSocket(let path):
            var address = sockaddr_un()
            let bytes = Array(path.utf8)
            guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path), !bytes.contains(0) else {
                return .failed(errno: .fileNameTooLong, operation: "connect")
            }
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            return connect(family: AF_UNIX, address: address)
        case .inetSocket(let host, let port):
            guard (1...65535).contains(port) else { return .failed(errno: .invalidArgument, operation: "port") }
            let numeric = host == "localhost" ? "127.0.0.1" : host
            var v4 = sockaddr_in()
            if inet_pton(AF_INET, numeric, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = in_port_t(UInt16(port).bigEndian)
                return connect(family: AF_INET, address: v4)
            }
            var v6 = sockaddr_in6()
            if inet_pton(AF_INET6, numeric, &v6.sin6_addr) == 1 {
                v6.sin6_family = sa_family_t(AF_INET6)
                v6.sin6_port = in_port_t(UInt16(port).bigEndian)
                return connect(family: AF_INET6, address: v6)
            }
            return .failed(errno: .invalidArgument, operation: "host")
        }
    }

    private static func connect<Address>(family: Int32, address: Address) -> Outcome {
        let fd = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(errno: .current, operation: "socket") }
        if family != AF_UNIX {
            var on: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = address
        while true {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<Address>.size))
                }
            }
            if result == 0 { return .connected(fd) }
            let code = errno
            if code == EINTR { continue }
            if code == EINPROGRESS { return .inProgress(fd) }
            Glibc.close(fd)
            return .failed(errno: Errno(rawValue: code), operation: "connect")
        }
    }

    /// The outcome of a connect that was in progress (`SO_ERROR`): `nil` when connected.
    static func pendingError(_ fd: Int32) -> Errno? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return .current }
        return code == 0 ? nil : Errno(rawValue: code)
    }

    /// The user's name for `CLIENT_NAME` (`$USER`, else the uid), as libspeechd sends it.
    static func userName() -> String {
        if let name = getenv("USER"), name.pointee != 0 { return String(cString: name) }
        return "uid\(getuid())"
    }
}
