import EventLoop
import Foundation
import TestSupport

/// A scripted SSIP server on the test's loop, for what a real daemon will not do on demand: events
/// before a reply, a refused command, malformed bytes, silence. It listens on a Unix socket (or on
/// 127.0.0.1 at a free TCP port), accepts one client, records every line, and answers like the
/// daemon (`2xx` to settings, `251-en` to `GET LANGUAGE`, `230` to `SPEAK`, `225-N` after the data)
/// unless ``answer`` says otherwise.
@MainActor
final class FakeSSIPServer {
    /// What the server does with a command line: `nil` answers as the daemon does, or these bytes.
    var answer: (String) -> String? = { _ in nil }
    /// Every line received, CRLF removed (text lines as sent).
    private(set) var lines: [String] = []
    /// The path or port the client connects to.
    let address: String
    let port: Int

    private let loop: EventLoop
    private let listener: Int32
    private var connection: Int32 = -1
    private var tokens: [EventLoop.Watch] = []
    private var buffer: [UInt8] = []
    private var inData = false
    private var nextMessage = 1

    init(loop: EventLoop, tcp: Bool = false) throws {
        self.loop = loop
        let fd: Int32
        if tcp {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
            self.address = "127.0.0.1"
        } else {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            let path = "/tmp/fake-ssip-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: Array(path.utf8) + [0])
            }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            port = 0
            self.address = path
        }
        listener = fd
        guard Glibc.listen(listener, 4) == 0 else { throw PrivateDaemon.Failure(description: "listen failed") }
        tokens.append(try loop.watch(listener) { [weak self] in self?.accept() })
    }

    /// Closes the listener and the connection (the client sees the end of its connection).
    func close() {
        for token in tokens { loop.unwatch(token) }
        tokens = []
        if let connectionToken { loop.unwatch(connectionToken) }
        connectionToken = nil
        if connection >= 0 { Glibc.close(connection) }
        connection = -1
        if listener >= 0 { Glibc.close(listener) }
        if port == 0 { unlink(address) }
    }

    /// Whether a `SPEAK` waits for ``release()`` before its `230`.
    var holdsSpeak = false

    /// Answers the `SPEAK` held: `230`, and the text is read.
    func release() {
        inData = true
        send("230 OK RECEIVING DATA\r\n")
    }

    /// Sends bytes to the client as they are.
    func send(_ text: String) {
        guard connection >= 0 else { return }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// How many connections the server accepted (a client that connects again adds one).
    private(set) var connections = 0
    private var connectionToken: EventLoop.Watch?

    private func accept() {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return }
        // A client that connects again has left its last connection: the server leaves it too,
        // and what the last connection held half read.
        if let connectionToken { loop.unwatch(connectionToken) }
        if connection >= 0 { Glibc.close(connection) }
        buffer = []
        inData = false
        connections += 1
        connection = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        connectionToken = try? loop.watch(fd) { [weak self] in self?.read() }
    }

    private func read() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard count > 0 else { return }
        buffer += chunk[0..<count]
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self).replacingOccurrences(of: "\r", with: "")
            buffer.removeSubrange(...newline)
            lines.append(line)
            respond(to: line)
        }
    }

    private func respond(to line: String) {
        if inData {
            guard line == "." else { return }
            inData = false
            if let custom = answer(".") {
                send(custom)
            } else {
                send("225-\(nextMessage)\r\n225 OK MESSAGE QUEUED\r\n")
                nextMessage += 1
            }
            return
        }
        if let custom = answer(line) {
            if custom.hasPrefix("230") { inData = true }
            send(custom)
            return
        }
        switch line {
        case "SPEAK" where holdsSpeak:
            break
        case "SPEAK":
            inData = true
            send("230 OK RECEIVING DATA\r\n")
        case "GET LANGUAGE": send("251-en\r\n251 OK GET RETURNED\r\n")
        case "CANCEL self": send("213 OK CANCELED\r\n")
        default: send("200 OK\r\n")
        }
    }
}
