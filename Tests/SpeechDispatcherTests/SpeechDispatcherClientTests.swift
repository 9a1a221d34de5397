import EventLoop
import Foundation
import SpeechDispatcher
import TestSupport
import Testing

/// What a client saw: its events in order, and its problems.
@MainActor
final class Recorder {
    var events: [SpeechEvent] = []
    var problems: [SpeechDispatcherError] = []

    init(_ client: SpeechDispatcherClient) {
        client.onEvent = { [unowned self] in events.append($0) }
        client.onProblem = { [unowned self] in problems.append($0) }
    }

    func kinds(_ id: SpeechRequestID) -> [SpeechEvent.Kind] {
        events.filter { $0.requestID == id }.map(\.kind)
    }

    /// Whether the utterance ended or was cancelled.
    func finished(_ id: SpeechRequestID) -> Bool {
        kinds(id).contains { $0 == .ended || $0 == .cancelled }
    }

    func queued(_ id: SpeechRequestID) -> SpeechEvent? {
        events.first {
            guard $0.requestID == id, case .queued = $0.kind else { return false }
            return true
        }
    }
}

/// The client against a real speech-dispatcher of the test's own (``PrivateDaemon``): what the
/// daemon received (its protocol log), what the client reported, and what espeak-ng said (sox).
/// speech-dispatcher, its espeak-ng module and sox must be installed (Tools/test installs them): without
/// them each test fails saying so, rather than being skipped.
@Suite("SpeechDispatcherClient against a private speech-dispatcher", .serialized)
@MainActor
struct SpeechDispatcherClientTests {
    /// A private daemon, started; a loop; a client of the daemon and what it saw. The caller stops
    /// the daemon (`defer { daemon.stop() }`).
    func started(replyTimeout: Double = SpeechDispatcherClient.replyTimeout) throws -> (
        PrivateDaemon, EventLoop, SpeechDispatcherClient, Recorder
    ) {
        let daemon = try PrivateDaemon()
        try daemon.start()
        let loop = try makeLoop()
        let client = SpeechDispatcherClient(
            loop: loop, address: .unixSocket(daemon.socketPath), clientName: "tests", replyTimeout: replyTimeout)
        return (daemon, loop, client, Recorder(client))
    }

    /// Text long enough to be sounding when the next utterance comes (the file plugin does not
    /// play in real time: a sentence takes 25-50 ms).
    static let long = String(repeating: "This sentence is long enough to take a while to say. ", count: 120)

    @Test("speak: queued with the daemon's id, began, ended; the daemon got the settings, priority and text")
    func speaks() throws {
        let (daemon, loop, client, recorder) = try started()
        defer { daemon.stop() }
        client.rate = 20
        client.volume = 150  // clamped
        #expect(client.volume == 100)
        #expect(!client.isConnected)
        let first = client.speak("Hello.\n.hidden line")
        #expect(client.isConnected)
        #expect(client.lastConnectDuration != nil)
        #expect(run(loop, upTo: 10) { recorder.finished(first) })
        guard case .queued(let messageID)? = recorder.queued(first)?.kind else {
            Issue.record("no queued event: \(recorder.events)")
            return
        }
        #expect(messageID >= 1)
        #expect(recorder.kinds(first) == [.queued(messageID: messageID), .began, .ended])
        #expect(loop.nextDeadline == nil, "connected, nothing awaited: no deadline, no wake-ups")
        let second = client.speak("Bonjour", priority: .message, language: "fr")
        let third = client.speak("Back to the default language", priority: .message)
        #expect(run(loop, upTo: 10) { recorder.finished(second) && recorder.finished(third) })
        #expect(recorder.kinds(third).last == .ended)
        #expect(recorder.problems.isEmpty)
        let received = daemon.received
        let expected = [
            "SET SELF CLIENT_NAME \"\(ProcessInfo.processInfo.environment["USER"] ?? "uid\(getuid())"):tests:main\"",
            "SET SELF NOTIFICATION ALL on", "SET SELF RATE 20", "SET SELF VOLUME 100", "GET LANGUAGE",
            "SET SELF PRIORITY text", "SPEAK", "Hello.", "..hidden line", ".",
            "SET SELF PRIORITY message", "SET SELF LANGUAGE fr", "SPEAK", "Bonjour", ".",
            "SET SELF LANGUAGE en", "SPEAK", "Back to the default language", ".",
        ]
        #expect(received == expected)
        client.close()
        #expect(!client.isConnected)
        let afterClose = client.speak("not spoken")
        #expect(recorder.kinds(afterClose) == [.cancelled])
        #expect(loop.nextDeadline == nil)
    }

    @Test("cancel: the utterance sounding and those queued in the daemon end cancelled")
    func cancels() throws {
        let (daemon, loop, client, recorder) = try started()
        defer { daemon.stop() }
        let long = Self.long
        // `message` does not interrupt itself: the second waits in the daemon's queue.
        let sounding = client.speak(long, priority: .message)
        let waiting = client.speak(long, priority: .message)
        #expect(run(loop, upTo: 10) { recorder.kinds(sounding).contains(.began) && recorder.queued(waiting) != nil })
        client.cancel()
        #expect(run(loop, upTo: 10) { recorder.finished(sounding) && recorder.finished(waiting) })
        #expect(recorder.kinds(sounding).last == .cancelled)
        #expect(recorder.kinds(waiting).last == .cancelled)
        #expect(daemon.received.contains("CANCEL self"))
        // Cancelling what is still waiting in the client reports it at once.
        client.close()
    }

    @Test(
        "the daemon killed: in-flight utterances cancelled, one problem; restarted: the next speak reconnects, settings sent again"
    )
    func reconnects() throws {
        let (daemon, loop, client, recorder) = try started()
        defer { daemon.stop() }
        client.rate = -30
        client.volume = 50
        let before = client.speak("First.")
        #expect(run(loop, upTo: 10) { recorder.finished(before) })
        let inFlight = client.speak(String(repeating: "Interrupted by a crash. ", count: 200), priority: .message)
        #expect(run(loop, upTo: 10) { recorder.kinds(inFlight).contains(.began) })
        daemon.killNow()
        #expect(run(loop, upTo: 5) { !client.isConnected })
        #expect(recorder.kinds(inFlight).last == .cancelled)
        #expect(recorder.problems.count == 1)
        #expect(recorder.problems.first?.code == .connectionLost)
        #expect(recorder.problems.first?.message.contains(daemon.socketPath) == true)
        // The stale socket file refuses (ECONNREFUSED): no second message for the same outage.
        let refused = client.speak("Nobody there.")
        #expect(run(loop, upTo: 10) { recorder.finished(refused) })
        #expect(recorder.kinds(refused) == [.cancelled])
        #expect(recorder.problems.count == 1)
        #expect(loop.nextDeadline == nil, "nothing to say: no deadline, no wake-ups")
        try daemon.start()
        client.rate = -20
        let after = client.speak("Back again.")
        #expect(run(loop, upTo: 15) { recorder.finished(after) })
        #expect(recorder.kinds(after).last == .ended)
        #expect(client.isConnected)
        // What the daemon received since the client's last CLIENT_NAME: the new connection.
        let all = daemon.received
        let received = all[(all.lastIndex { $0.hasPrefix("SET SELF CLIENT_NAME") } ?? 0)...]
        #expect(received.contains("SET SELF RATE -20"))
        #expect(received.contains("SET SELF VOLUME 50"))
        #expect(received.contains("Back again."))
        #expect(recorder.problems.count == 1)
        client.close()
    }

    @Test("no daemon: speak returns at once, one clear problem, every utterance cancelled, nothing thrown")
    func noDaemon() throws {
        let daemon = try PrivateDaemon()  // its directory, never started
        let loop = try makeLoop()
        let client = SpeechDispatcherClient(
            loop: loop,
            address: SpeechDispatcherAddress(
                transport: .unixSocket(path: daemon.socketPath), origin: "SPEECHD_ADDRESS"),
            clientName: "tests")
        let recorder = Recorder(client)
        let started = EventLoop.monotonicNow
        let ids = (0..<5).map { client.speak("Nobody hears \($0)") }
        let elapsed = EventLoop.monotonicNow - started
        #expect(elapsed < 0.5, "5 speaks took \(elapsed) s")
        #expect(run(loop, upTo: 5) { ids.allSatisfy(recorder.finished) })
        for id in ids { #expect(recorder.kinds(id) == [.cancelled]) }
        #expect(recorder.problems.count == 1)
        let problem = try #require(recorder.problems.first)
        #expect(problem.code == .notRunning)
        #expect(
            problem.message
                == "speech-dispatcher is not running at \(daemon.socketPath) (SPEECHD_ADDRESS): start it, or install "
                + "speech-dispatcher")
        #expect(loop.nextDeadline == nil)
        _ = run(loop, upTo: 0.3) { false }
        let later = client.speak("Still nobody")
        #expect(run(loop, upTo: 5) { recorder.finished(later) })
        #expect(recorder.problems.count == 1)
    }

    @Test("a TCP address: nobody listening is the same clear problem; a host name is refused without a lookup")
    func inetNoDaemon() throws {
        let loop = try makeLoop()
        let client = SpeechDispatcherClient(loop: loop, address: .inetSocket("127.0.0.1", port: 9), clientName: "tests")
        let recorder = Recorder(client)
        let id = client.speak("Nobody on TCP")
        #expect(run(loop, upTo: 5) { recorder.finished(id) })
        #expect(recorder.problems.first?.code == .notRunning)
        #expect(recorder.problems.first?.message.contains("127.0.0.1:9 (the app)") == true)
        let named = SpeechDispatcherClient(
            loop: loop, address: .inetSocket("speech.example", port: 6560), clientName: "t")
        let namedRecorder = Recorder(named)
        named.speak("Nobody by name")
        #expect(namedRecorder.problems.first?.code == .address)
        #expect(namedRecorder.problems.first?.message.contains("inet_socket:127.0.0.1:6560") == true)
    }

    @Test(
        "a SIGSTOPped daemon: 200 speaks return at once, the loop is never blocked, it is dropped as not answering (said once for the whole stop); after SIGCONT a later speak is spoken"
    )
    func stoppedDaemon() throws {
        let timeout = 0.5
        let (daemon, loop, client, recorder) = try started(replyTimeout: timeout)
        defer { daemon.stop() }
        let first = client.speak("Before the stop.")
        #expect(run(loop, upTo: 10) { recorder.finished(first) })
        daemon.signal(SIGSTOP)
        var fired: Double?
        let due = EventLoop.monotonicNow + 0.1
        let token = loop.addDeadline(
            { fired == nil ? due : nil }, fire: { now in if now >= due, fired == nil { fired = now } })
        let started = EventLoop.monotonicNow
        var ids: [SpeechRequestID] = []
        for index in 0..<200 {
            ids.append(client.speak("Utterance \(index)", priority: index % 2 == 0 ? .text : .notification))
            loop.runOnce(timeout: 0)
        }
        let speaking = EventLoop.monotonicNow - started
        #expect(run(loop, upTo: 5) { fired != nil })
        loop.removeDeadline(token)
        let late = (fired ?? .infinity) - due
        print(
            "SIGSTOPped daemon: 200 speaks took \(Int(speaking * 1e6)) us; the deadline fired \(Int(late * 1e6)) us late"
        )
        #expect(late < 0.5, "the loop was blocked")
        let cancelledNow = ids.filter { recorder.kinds($0) == [.cancelled] }.count
        #expect(cancelledNow >= 200 - SpeechDispatcherClient.maximumQueuedRequests - 1)
        // No reply within the timeout: the connection is dropped, everything it had is cancelled.
        #expect(run(loop, upTo: 5) { ids.allSatisfy(recorder.finished) })
        let dropped = EventLoop.monotonicNow - started
        #expect(dropped >= timeout && dropped < timeout + 1, "dropped after \(dropped) s")
        #expect(!client.isConnected)
        #expect(recorder.problems.map(\.code) == [.notAnswering])
        #expect(
            recorder.problems.first?.message
                == "speech-dispatcher at \(daemon.socketPath) (the app) stopped answering (0.5 s): it is stopped or "
                + "hung (a process stopped with SIGSTOP, an output module that does not return); restart it "
                + "(speech-dispatcher -s as the app's user) and see its log")
        #expect(loop.nextDeadline == nil, "nothing to say, nothing awaited: no deadline, no wake-ups")
        // Still stopped: the next speak connects again (the kernel accepts for the daemon) and is
        // not answered either; the same outage, not said again.
        let duringStop = client.speak("Still stopped.")
        #expect(run(loop, upTo: 5) { recorder.finished(duringStop) })
        #expect(recorder.kinds(duringStop) == [.cancelled])
        #expect(recorder.problems.count == 1)
        daemon.signal(SIGCONT)
        let after = client.speak("After the stop.")
        #expect(run(loop, upTo: 10) { recorder.finished(after) })
        #expect(recorder.kinds(after).last == .ended)
        #expect(daemon.received.contains("After the stop."))
        #expect(recorder.problems.count == 1)
        client.close()
    }

    @Test("interruption: a text utterance is cancelled by the next text (703), which is spoken to its end")
    func textInterruptsText() throws {
        let (daemon, loop, client, recorder) = try started()
        defer { daemon.stop() }
        let first = client.speak(Self.long, priority: .text)
        let second = client.speak("Second, said whole.", priority: .text)
        #expect(run(loop, upTo: 15) { recorder.finished(first) && recorder.finished(second) })
        // The daemon queued the first (it had it) and cancelled it: not the client's queue.
        #expect(recorder.queued(first) != nil)
        #expect(recorder.kinds(first).last == .cancelled)
        #expect(recorder.kinds(second).dropFirst() == [.began, .ended])
        #expect(recorder.problems.isEmpty)
        let received = daemon.received
        #expect(received.filter { $0 == "SPEAK" }.count == 2)
        #expect(received.contains("Second, said whole."))
        #expect(received.contains { $0.hasPrefix("This sentence is long enough") })
        client.close()
    }

    @Test(
        "interruption: a message is not cut off by a text; the text waits for the message's end and is then spoken"
    )
    func textWaitsForMessage() throws {
        let (daemon, loop, client, recorder) = try started()
        defer { daemon.stop() }
        // Twenty sentences: long enough that the text comes while it sounds, short enough to hear out.
        let message = client.speak(String(Self.long.prefix(53 * 20)), priority: .message)
        let text = client.speak("Focus moved.", priority: .text)
        #expect(run(loop, upTo: 30) { recorder.finished(message) && recorder.finished(text) })
        #expect(recorder.kinds(message).dropFirst() == [.began, .ended])
        #expect(recorder.kinds(text).dropFirst() == [.began, .ended])
        // In this order: the text began only after the message ended.
        let order = recorder.events.compactMap { event -> String? in
            guard event.kind == .began || event.kind == .ended else { return nil }
            return "\(event.requestID == message ? "message" : "text") \(event.kind)"
        }
        #expect(order == ["message began", "message ended", "text began", "text ended"])
        #expect(recorder.problems.isEmpty)
        #expect(daemon.received.contains("Focus moved."))
        client.close()
    }

    @Test(
        "figures: connect time, and speak to queued over 100 utterances (p50, p99), with the daemon's share",
        arguments: [SpeechPriority.text, .message])
    func figures(priority: SpeechPriority) throws {
        let (daemon, loop, client, recorder) = try started()
        defer { daemon.stop() }
        var latencies: [Double] = []
        for index in 0..<100 {
            let started = EventLoop.monotonicNow
            let id = client.speak("Item \(index)", priority: priority)
            #expect(run(loop, upTo: 5) { recorder.queued(id) != nil })
            if let queued = recorder.queued(id) { latencies.append(queued.time - started) }
        }
        let connect = try #require(client.lastConnectDuration)
        let daemonShare = daemon.speakToQueued
        func percentiles(_ values: [Double]) -> String {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return "none" }
            let p50 = sorted[sorted.count / 2]
            let p99 = sorted[(sorted.count * 99 + 99) / 100 - 1]  // the 99th of 100
            return "p50 \(Int(p50 * 1e6)) us, p99 \(Int(p99 * 1e6)) us, max \(Int(sorted.last! * 1e6)) us"
        }
        print(
            "speech-dispatcher (\(priority)): connect \(Int(connect * 1e6)) us; speak to queued over "
                + "\(latencies.count): \(percentiles(latencies)), the first \(Int(latencies[0] * 1e6)) us; in the daemon (SPEAK received to 225 sent, its "
                + "protocol log): \(percentiles(daemonShare))")
        #expect(latencies.count == 100)
        #expect(daemonShare.count == 100)
        #expect(latencies.sorted()[50] < 0.1)
        client.close()
    }

    @Test("audio through espeak-ng: an utterance is there (length, RMS); RATE shortens it, VOLUME lowers it")
    func audio() throws {
        let (daemon, loop, client, recorder) = try started()
        defer { daemon.stop() }
        func say(_ text: String) throws -> (seconds: Double, rms: Double) {
            let offset = daemon.audioSize
            let id = client.speak(text, priority: .message)
            #expect(run(loop, upTo: 15) { recorder.finished(id) })
            #expect(recorder.kinds(id).last == .ended)
            // The file plugin writes as the daemon plays; give the last period a moment.
            _ = run(loop, upTo: 0.2) { false }
            return try #require(try daemon.audio(from: offset), "no audio for \(text)")
        }
        let hello = try say("Hello world, this is a test.")
        print("audio: \"Hello world, this is a test.\" \(hello.seconds) s, RMS \(hello.rms)")
        #expect(hello.seconds > 0.5)
        #expect(hello.rms > 0.03)
        let sentence = "The quick brown fox jumps over the lazy dog."
        let normal = try say(sentence)
        client.rate = 60
        let fast = try say(sentence)
        client.rate = -60
        let slow = try say(sentence)
        client.rate = 0
        client.volume = -60
        let quiet = try say(sentence)
        client.volume = 100
        let loud = try say(sentence)
        print(
            "audio: rate 0/60/-60: \(normal.seconds)/\(fast.seconds)/\(slow.seconds) s; "
                + "volume -60/100: RMS \(quiet.rms)/\(loud.rms)")
        #expect(fast.seconds < normal.seconds * 0.8)
        #expect(slow.seconds > normal.seconds * 1.2)
        #expect(quiet.rms < loud.rms * 0.5)
        client.close()
    }
}
