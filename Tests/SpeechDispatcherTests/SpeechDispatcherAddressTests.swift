import SpeechDispatcher
import Testing

@Suite struct SpeechDispatcherAddressTests {
    static let session = ["XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/kiosk"]

    @Test(
        "SPEECHD_ADDRESS in each form, and libspeechd's default socket without it",
        arguments: [
            ([:], "/run/user/1000/speech-dispatcher/speechd.sock", "the default"),
            (["SPEECHD_ADDRESS": ""], "/run/user/1000/speech-dispatcher/speechd.sock", "the default"),
            (["SPEECHD_ADDRESS": "unix_socket"], "/run/user/1000/speech-dispatcher/speechd.sock", "SPEECHD_ADDRESS"),
            (["SPEECHD_ADDRESS": "unix_socket:"], "/run/user/1000/speech-dispatcher/speechd.sock", "SPEECHD_ADDRESS"),
            (["SPEECHD_ADDRESS": "unix_socket:/tmp/s d/sock"], "/tmp/s d/sock", "SPEECHD_ADDRESS"),
            (["SPEECHD_ADDRESS": "unix_socket:/tmp/a:b.sock"], "/tmp/a:b.sock", "SPEECHD_ADDRESS"),
        ] as [([String: String], String, String)])
    func unixSockets(variables: [String: String], path: String, origin: String) throws {
        let address = try SpeechDispatcherAddress.resolve(environment: Self.session.merging(variables) { $1 }).get()
        #expect(address.transport == .unixSocket(path: path))
        #expect(address.origin == origin)
        #expect(address.description == path)
    }

    @Test("without XDG_RUNTIME_DIR (unset or empty): XDG_CACHE_HOME, else HOME/.cache, as GLib's runtime dir")
    func fallbacks() throws {
        let home = try SpeechDispatcherAddress.resolve(environment: ["HOME": "/home/k"]).get()
        #expect(home.transport == .unixSocket(path: "/home/k/.cache/speech-dispatcher/speechd.sock"))
        let empty = try SpeechDispatcherAddress.resolve(environment: ["XDG_RUNTIME_DIR": "", "HOME": "/home/k"]).get()
        #expect(empty.transport == .unixSocket(path: "/home/k/.cache/speech-dispatcher/speechd.sock"))
        let cache = try SpeechDispatcherAddress.resolve(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/home/k"]).get()
        #expect(cache.transport == .unixSocket(path: "/c/speech-dispatcher/speechd.sock"))
        guard case .failure(let error) = SpeechDispatcherAddress.resolve(environment: [:]) else {
            Issue.record("an empty environment has no socket")
            return
        }
        #expect(error.code == .address)
        #expect(error.message.contains("XDG_RUNTIME_DIR"))
    }

    @Test(
        "inet_socket with and without host and port, IPv6 in brackets",
        arguments: [
            ("inet_socket", "127.0.0.1", 6560, "127.0.0.1:6560"),
            ("inet_socket:", "127.0.0.1", 6560, "127.0.0.1:6560"),
            ("inet_socket:10.0.0.2", "10.0.0.2", 6560, "10.0.0.2:6560"),
            ("inet_socket:localhost:7000", "localhost", 7000, "localhost:7000"),
            ("inet_socket:[::1]:6561", "::1", 6561, "[::1]:6561"),
            ("inet_socket:[::1]", "::1", 6560, "[::1]:6560"),
        ])
    func inetSockets(value: String, host: String, port: Int, description: String) throws {
        let address = try SpeechDispatcherAddress.resolve(environment: ["SPEECHD_ADDRESS": value]).get()
        #expect(address.transport == .inetSocket(host: host, port: port))
        #expect(address.description == description)
        #expect(address.origin == "SPEECHD_ADDRESS")
    }

    @Test(
        "a malformed SPEECHD_ADDRESS is an error naming the variable, its value and the fix",
        arguments: [
            ("dbus", "unix_socket:/path/to/speechd.sock"),
            ("unix_socket:relative/sock", "absolute path"),
            ("inet_socket:host:port", "inet_socket:host:6560"),
            ("inet_socket:host:0", "1 to 65535"),
            ("inet_socket:host:70000", "1 to 65535"),
            ("inet_socket::6560", "inet_socket:127.0.0.1:6560"),
            ("inet_socket:a:1:2", "IPv6 host in [ ]"),
            ("inet_socket:[::1]x", "inet_socket:[::1]:6560"),
        ])
    func malformed(value: String, fix: String) {
        guard case .failure(let error) = SpeechDispatcherAddress.resolve(environment: ["SPEECHD_ADDRESS": value])
        else {
            Issue.record("\(value) was accepted")
            return
        }
        #expect(error.code == .address)
        #expect(error.message.contains("SPEECHD_ADDRESS=\"\(value)\""))
        #expect(error.message.contains(fix), "\(error.message)")
    }

    @Test("addresses made by the app say so")
    func explicit() {
        #expect(SpeechDispatcherAddress.unixSocket("/s").origin == "the app")
        #expect(SpeechDispatcherAddress.inetSocket("127.0.0.1").transport == .inetSocket(host: "127.0.0.1", port: 6560))
    }
}
