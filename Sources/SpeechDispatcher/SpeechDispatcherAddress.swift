/// Where speech-dispatcher listens: a Unix socket (its default) or a TCP port, and where that
/// came from (`SPEECHD_ADDRESS`, the default, or the app), for the messages that name it.
///
/// ```swift
/// switch SpeechDispatcherAddress.resolve(environment: environment) {
/// case .success(let address): client = SpeechDispatcherClient(loop: loop, address: address, clientName: "kiosk")
/// case .failure(let error): print(error)  // names SPEECHD_ADDRESS, its value and the fix
/// }
/// ```
public struct SpeechDispatcherAddress: Hashable, Sendable, CustomStringConvertible {
    /// How the daemon is reached.
    public enum Transport: Hashable, Sendable {
        /// A Unix stream socket at an absolute path.
        case unixSocket(path: String)
        /// A TCP port. The host is an IPv4 or IPv6 address, or `localhost`: a host name is not
        /// looked up, since a DNS lookup would block the loop.
        case inetSocket(host: String, port: Int)
    }

    /// How the daemon is reached.
    public var transport: Transport
    /// Where the address came from, as messages name it: `SPEECHD_ADDRESS`, `the default`, or
    /// `the app`.
    public var origin: String

    /// speech-dispatcher's TCP port when `inet_socket` names none (`SPEECHD_DEFAULT_PORT`).
    public static let defaultPort = 6560

    /// Creates an address.
    ///
    /// - Parameters:
    ///   - transport: How the daemon is reached.
    ///   - origin: Where the address came from, for messages.
    public init(transport: Transport, origin: String = "the app") {
        self.transport = transport
        self.origin = origin
    }

    /// The Unix socket at `path`.
    ///
    /// - Parameter path: The socket's path.
    /// - Returns: The address.
    public static func unixSocket(_ path: String) -> Self {
        Self(transport: .unixSocket(path: path))
    }

    /// The TCP port `port` on `host` (an IP address or `localhost`).
    ///
    /// - Parameters:
    ///   - host: An IPv4 or IPv6 address, or `localhost`.
    ///   - port: The port.
    /// - Returns: The address.
    public static func inetSocket(_ host: String, port: Int = defaultPort) -> Self {
        Self(transport: .inetSocket(host: host, port: port))
    }

    /// The address as a person reads it: the socket's path, or `host:port`.
    public var description: String {
        switch transport {
        case .unixSocket(let path): return path
        case .inetSocket(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// The address libspeechd 0.11 would use: `SPEECHD_ADDRESS` when it is set (`unix_socket:/path`,
    /// `unix_socket` alone for the default path, `inet_socket:host:port`, `inet_socket:host`
    /// for port 6560, `inet_socket` alone for 127.0.0.1:6560), else the default socket,
    /// `$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock`.
    ///
    /// As in libspeechd (GLib's `g_get_user_runtime_dir`), an unset or empty `XDG_RUNTIME_DIR`
    /// falls back to the user's cache directory: `$XDG_CACHE_HOME`, else `$HOME/.cache`. An empty
    /// `SPEECHD_ADDRESS` counts as unset. Unlike libspeechd, a Unix socket path may hold colons
    /// (libspeechd cuts it at the first) and a port must be a number from 1 to 65535 (libspeechd's
    /// `atoi` reads a typo as port 0).
    ///
    /// - Parameter environment: The process's environment (`ProcessInfo.processInfo.environment`).
    /// - Returns: The address, or an error naming the variable, its value and the fix.
    public static func resolve(environment: [String: String]) -> Result<Self, SpeechDispatcherError> {
        guard let value = environment["SPEECHD_ADDRESS"], !value.isEmpty else {
            return defaultSocket(environment).map { Self(transport: .unixSocket(path: $0), origin: "the default") }
        }
        let origin = "SPEECHD_ADDRESS"
        let method = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let rest = method.count > 1 ? String(method[1]) : nil
        switch method[0] {
        case "unix_socket":
            guard let path = rest, !path.isEmpty else {
                return defaultSocket(environment).map { Self(transport: .unixSocket(path: $0), origin: origin) }
            }
            guard path.hasPrefix("/") else {
                return .failure(
                    malformed(
                        value, "the socket path \"\(path)\" is relative",
                        "an absolute path: unix_socket:/run/…/speechd.sock"))
            }
            return .success(Self(transport: .unixSocket(path: path), origin: origin))
        case "inet_socket":
            guard let rest, !rest.isEmpty else {
                return .success(Self(transport: .inetSocket(host: "127.0.0.1", port: defaultPort), origin: origin))
            }
            let host: Substring
            let portText: Substring?
            if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                host = rest[rest.index(after: rest.startIndex)..<close]
                let after = rest[rest.index(after: close)...]
                guard after.isEmpty || after.hasPrefix(":") else {
                    return .failure(malformed(value, "\"\(after)\" follows the IPv6 address", "inet_socket:[::1]:6560"))
                }
                portText = after.isEmpty ? nil : after.dropFirst()
            } else {
                let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count <= 2 else {
                    return .failure(
                        malformed(
                            value, "it has more than host and port", "inet_socket:HOST:PORT (an IPv6 host in [ ])"))
                }
                host = parts[0]
                portText = parts.count == 2 ? parts[1] : nil
            }
            guard !host.isEmpty else {
                return .failure(malformed(value, "the host is empty", "inet_socket:127.0.0.1:6560"))
            }
            var port = defaultPort
            if let portText {
                guard let number = Int(portText), (1...65535).contains(number) else {
                    return .failure(
                        malformed(
                            value, "the port \"\(portText)\" is not a number from 1 to 65535",
                            "inet_socket:\(host):6560"))
                }
                port = number
            }
            return .success(Self(transport: .inetSocket(host: String(host), port: port), origin: origin))
        default:
            return .failure(
                malformed(
                    value, "\"\(method[0])\" is not a method speech-dispatcher knows",
                    "unix_socket:/path/to/speechd.sock or inet_socket:HOST:PORT, or unset it for the default socket"))
        }
    }

    private static func defaultSocket(_ environment: [String: String]) -> Result<String, SpeechDispatcherError> {
        let suffix = "/speech-dispatcher/speechd.sock"
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return .success(runtime + suffix) }
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return .success(cache + suffix) }
        if let home = environment["HOME"], !home.isEmpty { return .success(home + "/.cache" + suffix) }
        return .failure(
            SpeechDispatcherError(
                code: .address,
                message: "no speech-dispatcher socket: XDG_RUNTIME_DIR, XDG_CACHE_HOME and HOME are all unset; "
                    + "set XDG_RUNTIME_DIR (as a login session does), or SPEECHD_ADDRESS=unix_socket:/path/to/speechd.sock"
            ))
    }

    private static func malformed(_ value: String, _ problem: String, _ fix: String) -> SpeechDispatcherError {
        SpeechDispatcherError(
            code: .address, message: "SPEECHD_ADDRESS=\"\(value)\" is malformed: \(problem); write \(fix)")
    }
}
