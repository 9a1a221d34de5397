import EventLoop
import Foundation
import SpeechDispatcher
import TestSupport
import Testing

/// The client against ``FakeSSIPServer``: what a real daemon does only now and then (events before
/// their reply, a refused command, malformed bytes, silence), on demand.
@Suite("SpeechDispatcherClient against a scripted server", .serialized)
@MainActor
struct SpeechDispatcherProtocolTests {
    func make(tcp: Bool = false, replyTimeout: Double = SpeechDispatcherClient.replyTimeout) throws -> (
        EventLoop, FakeSSIPServer, SpeechDispatcherClient, Recorder
    ) {
        let loop = try makeLoop()
        let server = try FakeSSIPServer(loop: loop, tcp: tcp)
        let address: SpeechDispatcherAddress =
            tcp ? .inetSocket(server.address, port: server.port) : .unixSocket(server.address)
        let client = SpeechDispatcherClient(
            loop: loop, address: address, clientName: "fake", replyTimeout: replyTimeout)
        return (loop, server, client, Recorder(client))
    }

    @Test("events that come before their message's 225 are reported after it, in order")
    func earlyEvents() throws {
        let (loop, server, client, recorder) = try make()
        defer { server.close() }
        server.answer = { $0 == "." ? "701-1\r\n701-9\r\n701 BEGIN\r\n225-1\r\n225 OK MESSAGE QUEUED\r\n" : nil }
        let id = client.speak("Early")
        #expect(run(loop, upTo: 5) { recorder.kinds(id).count == 2 })
        server.send("702-1\r\n702-9\r\n702 END\r\n")
        #expect(run(loop, upTo: 5) { recorder.finished(id) })
        #expect(recorder.kinds(id) == [.queued(messageID: 1), .began, .ended])
    }

    @Test("over TCP: the connect finishes on the loop, and speech goes as over a Unix socket")
    func tcp() throws {
        let (loop, server, client, recorder) = try make(tcp: true)
        defer { server.close() }
        let id = client.speak("Over TCP")
        #expect(run(loop, upTo: 5) { recorder.queued(id) != nil })
        #expect(client.isConnected)
        #expect(server.lines.suffix(3) == ["SPEAK", "Over TCP", "."])
    }

    @Test("a refused SPEAK: the utterance is cancelled and its text is not sent as commands")
    func refusedSpeak() throws {
        let (loop, server, client, recorder) = try make()
        defer { server.close() }
        var refuse = true
        server.answer = { line in
            guard line == "SPEAK", refuse else { return nil }
            refuse = false
            return "401 ERR NOT ALLOWED\r\n"
        }
        let refused = client.speak("QUIT")
        let next = client.speak("Next")
        #expect(run(loop, upTo: 5) { recorder.finished(refused) && recorder.queued(next) != nil })
        #expect(recorder.kinds(refused) == [.cancelled])
        #expect(!server.lines.contains("QUIT"))
        #expect(server.lines.contains("Next"))
    }

    @Test(
        "malformed bytes or a reply to no command: a protocol problem, utterances cancelled, the connection closed",
        arguments: ["garbage\r\n", "200 OK\r\n200 OK\r\n200 OK\r\n200 OK\r\n200 OK\r\n200 OK\r\n200 OK\r\n200 OK\r\n"])
    func malformed(bytes: String) throws {
        let (loop, server, client, recorder) = try make()
        defer { server.close() }
        server.answer = { $0 == "." ? "" : nil }  // the message is never queued
        let id = client.speak("Waiting")
        #expect(run(loop, upTo: 5) { server.lines.last == "." })
        server.send(bytes)
        #expect(run(loop, upTo: 5) { recorder.finished(id) })
        #expect(recorder.kinds(id) == [.cancelled])
        #expect(recorder.problems.first?.code == .protocolError)
        #expect(!client.isConnected)
    }

    @Test("the server closing: in-flight utterances cancelled, one connection-lost problem naming the socket")
    func serverCloses() throws {
        let (loop, server, client, recorder) = try make()
        server.answer = { $0 == "." ? "" : nil }
        let id = client.speak("Waiting")
        #expect(run(loop, upTo: 5) { server.lines.last == "." })
        server.close()
        #expect(run(loop, upTo: 5) { recorder.finished(id) })
        #expect(recorder.problems.map(\.code) == [.connectionLost])
        #expect(recorder.problems.first?.message.contains(server.address) == true)
        // The next utterance waits for the back-off on a loop deadline, not a busy retry.
        let lostAt = EventLoop.monotonicNow
        #expect(loop.nextDeadline == nil)
        let again = client.speak("Again")
        let due = try #require(loop.nextDeadline)
        #expect(due > lostAt && due <= lostAt + SpeechDispatcherClient.reconnectDelays.lowerBound)
        #expect(recorder.kinds(again).isEmpty)
        #expect(run(loop, upTo: 5) { recorder.finished(again) })
        #expect(EventLoop.monotonicNow >= due)
        #expect(recorder.kinds(again) == [.cancelled])
        #expect(recorder.problems.count == 1)
        #expect(loop.nextDeadline == nil)
    }

    @Test("a silent daemon: the queue keeps 32; text, notification and progress go first, then message")
    func queueBound() throws {
        let (loop, server, client, recorder) = try make()
        defer { server.close() }
        server.answer = { $0 == "SPEAK" ? "" : nil }  // never answers a SPEAK
        let inFlight = client.speak("In flight")
        #expect(run(loop, upTo: 5) { server.lines.last == "SPEAK" })
        let messages = (0..<31).map { client.speak("Message \($0)", priority: .message) }
        let text = client.speak("Text", priority: .text)
        #expect(recorder.events.isEmpty)
        let extra = client.speak("One more", priority: .message)
        #expect(recorder.kinds(text) == [.cancelled])
        let important = client.speak("Important", priority: .important)
        #expect(recorder.kinds(messages[0]) == [.cancelled])
        #expect(recorder.events.count == 2)
        #expect(recorder.kinds(inFlight).isEmpty)
        // cancel() drops what waits here at once; the in-flight one waits for the daemon.
        client.cancel()
        for id in messages.dropFirst() + [extra, important] { #expect(recorder.kinds(id) == [.cancelled]) }
        #expect(recorder.kinds(inFlight).isEmpty)
        client.close()
        #expect(recorder.kinds(inFlight) == [.cancelled])
    }

    @Test("rate and volume changed while connected are sent at once, clamped to -100...100")
    func settings() throws {
        let (loop, server, client, recorder) = try make()
        defer { server.close() }
        let id = client.speak("Hi")
        #expect(run(loop, upTo: 5) { recorder.queued(id) != nil })
        client.rate = -250
        client.volume = 40
        client.volume = 40
        #expect(run(loop, upTo: 5) { server.lines.contains("SET SELF VOLUME 40") })
        #expect(client.rate == -100)
        #expect(server.lines.filter { $0.hasPrefix("SET SELF RATE") } == ["SET SELF RATE 0", "SET SELF RATE -100"])
        #expect(
            server.lines.filter { $0.hasPrefix("SET SELF VOLUME") } == ["SET SELF VOLUME 100", "SET SELF VOLUME 40"])
    }

    @Test("settings changed while a SPEAK waits replace each other; repeated cancels send one CANCEL")
    func coalesced() throws {
        let (loop, server, client, recorder) = try make()
        defer { server.close() }
        server.holdsSpeak = true
        let id = client.speak("Held")
        #expect(run(loop, upTo: 5) { server.lines.last == "SPEAK" })
        for value in 1...50 { client.rate = value }
        client.cancel()
        client.cancel()
        server.holdsSpeak = false
        server.release()
        #expect(run(loop, upTo: 5) { recorder.queued(id) != nil && server.lines.contains("SET SELF RATE 50") })
        _ = run(loop, upTo: 0.1) { false }
        #expect(server.lines.filter { $0.hasPrefix("SET SELF RATE") } == ["SET SELF RATE 0", "SET SELF RATE 50"])
        #expect(server.lines.filter { $0 == "CANCEL self" }.count == 1)
    }

    @Test(
        "a reply not given in time: the connection dropped as lost, utterances cancelled, one problem naming the socket; no deadline while nothing is awaited"
    )
    func replyTimeout() throws {
        let (loop, server, client, recorder) = try make(replyTimeout: 0.3)
        defer { server.close() }
        #expect(SpeechDispatcherClient.replyTimeout == 5)
        let spoken = client.speak("Answered")
        #expect(run(loop, upTo: 5) { recorder.queued(spoken) != nil })
        #expect(loop.nextDeadline == nil, "connected and idle: no deadline, no wake-ups")
        server.answer = { $0 == "SPEAK" ? "" : nil }  // never answers a SPEAK
        let sent = EventLoop.monotonicNow
        let held = client.speak("Held")
        let waiting = client.speak("Waiting behind it")
        let due = try #require(loop.nextDeadline, "a reply awaited: the deadline armed")
        #expect(due >= sent + 0.3 && due <= EventLoop.monotonicNow + 0.3)
        #expect(run(loop, upTo: 5) { recorder.finished(held) && recorder.finished(waiting) })
        #expect(EventLoop.monotonicNow >= sent + 0.3)
        #expect(recorder.kinds(held) == [.cancelled])
        #expect(recorder.kinds(waiting) == [.cancelled])
        #expect(!client.isConnected)
        #expect(recorder.problems.map(\.code) == [.notAnswering])
        #expect(
            recorder.problems.first?.message
                == "speech-dispatcher at \(server.address) (the app) stopped answering (0.3 s): it is stopped or hung "
                + "(a process stopped with SIGSTOP, an output module that does not return); restart it "
                + "(speech-dispatcher -s as the app's user) and see its log")
        #expect(loop.nextDeadline == nil, "lost, nothing to say: no deadline")
        // The daemon answers again: the next speak connects after the back-off and is queued.
        server.answer = { _ in nil }
        let again = client.speak("Again")
        #expect(run(loop, upTo: 5) { recorder.queued(again) != nil })
        #expect(recorder.problems.count == 1)
        #expect(loop.nextDeadline == nil)
    }

    @Test("a TCP connect never answered (a host that drops the packets): given up after the timeout, said once")
    func connectTimeout() throws {
        let loop = try makeLoop()
        let hole = try BlackHole()
        defer { hole.close() }
        let client = SpeechDispatcherClient(
            loop: loop, address: .inetSocket("127.0.0.1", port: hole.port), clientName: "fake", replyTimeout: 0.3)
        let recorder = Recorder(client)
        let started = EventLoop.monotonicNow
        let id = client.speak("Into the void")
        #expect(!client.isConnected)
        #expect(recorder.kinds(id).isEmpty, "the connect is in progress")
        #expect(loop.nextDeadline != nil)
        #expect(run(loop, upTo: 5) { recorder.finished(id) })
        #expect(EventLoop.monotonicNow - started >= 0.3)
        #expect(recorder.kinds(id) == [.cancelled])
        #expect(recorder.problems.map(\.code) == [.notAnswering])
        #expect(
            recorder.problems.first?.message
                == "speech-dispatcher at 127.0.0.1:\(hole.port) (the app) did not answer the connect (0.3 s): the host "
                + "is down or drops the packets; check the host and port, and that speech-dispatcher listens there "
                + "(CommunicationMethod \"inet_socket\")")
        #expect(loop.nextDeadline == nil)
        let again = client.speak("Still nothing")
        #expect(run(loop, upTo: 5) { recorder.finished(again) })
        #expect(recorder.problems.count == 1, "one outage, one problem")
    }

    @Test("a daemon that answers once and then sends garbage, on every reconnect: one outage, said once")
    func garbageAfterFirstReply() throws {
        let (loop, server, client, recorder) = try make()
        defer { server.close() }
        // The client's name is answered; everything after it is garbage.
        server.answer = { $0.hasPrefix("SET SELF CLIENT_NAME") ? nil : "garbage\r\n" }
        // Four seconds of keys, each one spoken.
        let end = EventLoop.monotonicNow + 4
        var spoken = 0
        while EventLoop.monotonicNow < end {
            client.speak("Key \(spoken)")
            spoken += 1
            _ = run(loop, upTo: 0.1) { false }
        }
        #expect(server.connections >= 3, "the client connected again and again: \(server.connections)")
        #expect(
            recorder.problems.map(\.code) == [.protocolError],
            "\(recorder.problems.count) reports over \(server.connections) connections")
        // Back-off doubles while the outage lasts (0.25, 0.5, 1, 2 s): not a reconnect every 0.25 s.
        #expect(server.connections <= 6, "\(server.connections) connections in 4 s")
    }

    @Test("an outage ends once the daemon has worked for the recovery time: a later loss is said again")
    func outageEndsAfterRecovery() throws {
        let loop = try makeLoop()
        let server = try FakeSSIPServer(loop: loop)
        defer { server.close() }
        let client = SpeechDispatcherClient(
            loop: loop, address: .unixSocket(server.address), clientName: "fake", replyTimeout: 5, recoveryTime: 0.5)
        let recorder = Recorder(client)
        server.answer = { $0.hasPrefix("SET SELF CLIENT_NAME") ? nil : "garbage\r\n" }
        let first = client.speak("Lost")
        #expect(run(loop, upTo: 5) { recorder.finished(first) })
        #expect(recorder.problems.count == 1)
        // The daemon works again: an utterance accepted; garbage 0.1 s later is the same outage.
        server.answer = { _ in nil }
        var next = client.speak("Back")
        #expect(run(loop, upTo: 5) { recorder.queued(next) != nil })
        _ = run(loop, upTo: 0.1) { false }
        server.send("garbage\r\n")
        #expect(run(loop, upTo: 5) { !client.isConnected })
        #expect(recorder.problems.count == 1, "worked for 0.1 s only: the same outage")
        // Worked for longer than the recovery time: the outage is over, the next loss is said.
        next = client.speak("Back again")
        #expect(run(loop, upTo: 5) { recorder.queued(next) != nil })
        _ = run(loop, upTo: 0.6) { false }
        server.send("garbage\r\n")
        #expect(run(loop, upTo: 5) { recorder.problems.count == 2 })
        #expect(recorder.problems.map(\.code) == [.protocolError, .protocolError])
    }

    @Test("a refused SET SELF is said once per connection, and does not hide a later outage")
    func refusalThenOutage() throws {
        let (loop, server, client, recorder) = try make()
        server.answer = { $0.hasPrefix("SET SELF RATE") ? "409 ERR RATE TOO HIGH\r\n" : nil }
        let id = client.speak("Hi")
        #expect(run(loop, upTo: 5) { recorder.queued(id) != nil })
        client.rate = 10
        #expect(run(loop, upTo: 5) { server.lines.contains("SET SELF RATE 10") })
        _ = run(loop, upTo: 0.1) { false }
        #expect(recorder.problems.map(\.code) == [.protocolError], "two refusals on one connection, said once")
        #expect(recorder.problems.first?.message.contains("refused SET SELF RATE: 409") == true)
        server.close()
        #expect(run(loop, upTo: 5) { recorder.problems.count == 2 })
        #expect(recorder.problems.map(\.code) == [.protocolError, .connectionLost])
    }
}

/// A TCP port on 127.0.0.1 that never answers a connect: a listener with a backlog of 0 whose
/// one place is taken and which never accepts, so the kernel drops the next SYN, as a host behind
/// a firewall that drops packets does.
private final class BlackHole {
    let port: Int
    private let listener: Int32
    private let filler: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let size = length
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, size) == 0 && listen(listener, 0) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else { throw PrivateDaemon.Failure(description: "black hole: bind or listen failed") }
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(filler, $0, size) == 0 }
        }
        guard connected else { throw PrivateDaemon.Failure(description: "black hole: the filler did not connect") }
        self.listener = listener
        self.filler = filler
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        Glibc.close(filler)
        Glibc.close(listener)
    }
}
