public import EventLoop
internal import LinuxSystem

/// A client of speech-dispatcher on the app's `EventLoop`: SSIP over the daemon's
/// socket, never blocking the loop.
///
/// ```swift
/// let address = try SpeechDispatcherAddress.resolve(environment: environment).get()
/// let speech = SpeechDispatcherClient(loop: loop, address: address, clientName: "kiosk")
/// speech.onProblem = { print($0) }  // once per outage: "speech-dispatcher is not running at …"
/// speech.speak("Check in, button, 1 of 3")
/// ```
///
/// The first ``speak(_:priority:language:)`` connects, without blocking; what is spoken before the
/// connection is up waits in a queue of at most ``maximumQueuedRequests``. Commands go out through
/// a non-blocking socket, one `SPEAK` at a time (its text follows the daemon's `230`), the others
/// pipelined; replies and events come back through ``SSIPReplyParser`` when the loop says the
/// socket is readable. A daemon that stops answering fills the queue, not the loop: when it is
/// full the oldest waiting `notification`, `progress` or `text` utterance is dropped and reported
/// ``SpeechEvent/Kind/cancelled``.
///
/// When the daemon goes away (the connection ends, a write fails, it sends what is not SSIP) or
/// stops answering (no reply within ``replyTimeout`` to a command it was sent, or a TCP connect
/// not finished in that time) every utterance it had ends ``SpeechEvent/Kind/cancelled``,
/// ``onProblem`` says so once per outage, and the next `speak` connects again after a back-off
/// (0.25 s, doubling to 8 s; a loop deadline, never a busy retry, and nothing at all while
/// nothing is to be spoken or awaited); ``rate`` and ``volume`` are sent again. An outage ends
/// only when the daemon has worked again (an utterance accepted, the connection then kept for
/// ``recoveryTime``): a daemon that answers a command or two and then fails, on every connection,
/// is one outage, said once.
@MainActor
public final class SpeechDispatcherClient {
    /// The most utterances waiting to be handed to the daemon.
    nonisolated public static let maximumQueuedRequests = 32
    /// The longest text sent, in UTF-8 bytes, after control characters are removed; longer text
    /// is cut at a character boundary.
    nonisolated public static let maximumTextLength = SSIPRequest.maximumTextBytes
    /// The shortest and longest waits before connecting again after a failure, in seconds.
    nonisolated public static let reconnectDelays: ClosedRange<Double> = 0.25...8
    /// How long the client waits for the daemon, in seconds: for a connect to finish, and for
    /// each reply to a command it sent. A daemon that accepts and then says nothing (stopped with
    /// `SIGSTOP`, an output module hung) or a host that drops a TCP connect is then dropped as
    /// lost (``SpeechDispatcherError/Code/notAnswering``). Nothing is timed while no reply is
    /// awaited: an idle client arms no deadline.
    nonisolated public static let replyTimeout: Double = 5
    /// How long a connection must last after the daemon accepted an utterance on it before an
    /// outage is over, in seconds: a problem after that is a new outage, said again (and the
    /// back-off starts again from its shortest wait). A daemon that answers the first commands of
    /// each connection and then sends garbage or closes never gets there, so its problem is said
    /// once, not on every reconnect.
    nonisolated public static let recoveryTime: Double = 10

    /// Where the daemon listens.
    public let address: SpeechDispatcherAddress
    /// The client's name, sent as `CLIENT_NAME user:name:main` (the daemon's logs and
    /// `spd-say -L`-style listings show it).
    public let clientName: String

    /// The speech rate from -100 (slowest) to 100 (fastest), 0 the daemon's default: sent with
    /// `SET SELF RATE` now when connected, and on every connection.
    public var rate: Int = 0 {
        didSet {
            rate = min(max(rate, -100), 100)
            if rate != oldValue { sendSetting("RATE", rate) }
        }
    }

    /// The volume from -100 (quietest) to 100 (loudest, the daemon's default): sent with
    /// `SET SELF VOLUME` now when connected, and on every connection.
    public var volume: Int = 100 {
        didSet {
            volume = min(max(volume, -100), 100)
            if volume != oldValue { sendSetting("VOLUME", volume) }
        }
    }

    /// Called with what happens to each utterance, in order: queued, began, then ended or
    /// cancelled.
    public var onEvent: ((SpeechEvent) -> Void)?

    /// Called with a problem: once per outage (no daemon at the address, the connection lost, a
    /// daemon that stopped answering, a reply that made no sense; the outage ends when the daemon
    /// has worked again for ``recoveryTime``), and once for a command the daemon refused (again
    /// only after such a recovery). The app goes on; speech resumes when the daemon is back.
    public var onProblem: ((SpeechDispatcherError) -> Void)?

    /// Whether the client is connected to the daemon now.
    public var isConnected: Bool {
        if case .connected = state { return true }
        return false
    }

    /// How long the last connect took, from the call to the socket being usable, in seconds.
    public private(set) var lastConnectDuration: Double?

    private enum Item {
        case speak(Utterance)
        case command(String, Expectation)

        var isSpeak: Bool { priority != nil }

        var priority: SpeechPriority? {
            if case .speak(let utterance) = self { return utterance.priority }
            return nil
        }
    }

    private struct Utterance {
        let id: SpeechRequestID
        let text: String
        let priority: SpeechPriority
        let language: String?
    }

    private enum Expectation {
        case setting(String)
        case daemonLanguage
        case speakAccepted(SpeechRequestID, data: [UInt8])
        case speakQueued(SpeechRequestID)
        case cancel
    }

    private enum State {
        case idle
        case waiting(until: Double)
        case connecting(fd: Int32, token: EventLoop.Watch, started: Double)
        case connected(fd: Int32, token: EventLoop.Watch)
        case closed
    }

    /// What one connection knows: the parser, what waits to be written, the replies expected.
    private struct Connection {
        var parser = SSIPReplyParser()
        var outgoing: [UInt8] = []
        var written = 0
        var watchingWritability = false
        var expectations: [Expectation] = []
        var expectationHead = 0
        /// A command waits for its reply before anything more is written (`SPEAK`, `GET`).
        var barrier = false
        var messages: [Int: SpeechRequestID] = [:]
        /// Events for message ids whose `225` has not come yet.
        var early: [SSIPEvent] = []
        var priority: SpeechPriority?
        var language: String?
        var daemonLanguage: String?
        /// Since when a reply has been awaited (the command written, or the reply before it
        /// came), or `nil` when none is: the reply deadline runs only while this is set.
        var awaitingSince: Double?
    }

    private let loop: EventLoop
    private var state = State.idle
    private var connection = Connection()
    private var pending: [Item] = []
    private var nextID: UInt64 = 1
    private var reconnectDelay = reconnectDelays.lowerBound
    /// Whether this outage was reported; it ends when the daemon has worked for ``recoveryTime``.
    private var outageReported = false
    /// Whether a refused command was reported since the daemon last recovered.
    private var complaintReported = false
    /// When the daemon first accepted an utterance on this connection, or `nil` before.
    private var workingSince: Double?
    private let timeout: Double
    private let recovery: Double
    private var deadlineToken: EventLoop.Deadline?
    private var readBuffer = [UInt8](repeating: 0, count: 16384)

    /// Creates a client; nothing connects until the first ``speak(_:priority:language:)``.
    ///
    /// - Parameters:
    ///   - loop: The loop that watches the socket; the client lives on its thread.
    ///   - address: Where the daemon listens (``SpeechDispatcherAddress/resolve(environment:)``).
    ///   - clientName: The app's name for the daemon.
    public convenience init(loop: EventLoop, address: SpeechDispatcherAddress, clientName: String) {
        self.init(loop: loop, address: address, clientName: clientName, replyTimeout: Self.replyTimeout)
    }

    /// Creates a client that waits `replyTimeout` seconds for the daemon instead of
    /// ``replyTimeout``, and takes `recoveryTime` instead of ``recoveryTime`` as the end of an
    /// outage: for tests, which should not wait 5 or 10 s.
    ///
    /// - Parameters:
    ///   - loop: The loop that watches the socket.
    ///   - address: Where the daemon listens.
    ///   - clientName: The app's name for the daemon.
    ///   - replyTimeout: The longest wait for a connect or a reply, in seconds.
    ///   - recoveryTime: How long the daemon must work before an outage is over, in seconds.
    package init(
        loop: EventLoop, address: SpeechDispatcherAddress, clientName: String, replyTimeout: Double,
        recoveryTime: Double = recoveryTime
    ) {
        self.loop = loop
        self.address = address
        self.clientName = clientName
        self.timeout = replyTimeout
        self.recovery = recoveryTime
    }

    isolated deinit {
        if let deadlineToken { loop.removeDeadline(deadlineToken) }
        switch state {
        case .connecting(let fd, let token, _), .connected(let fd, let token):
            loop.unwatch(token)
            Syscalls.close(fd)
        default: break
        }
    }

    /// Speaks `text`: hands it to the daemon now when connected, else queues it and connects.
    /// Never blocks and never throws; what becomes of it comes through ``onEvent``.
    ///
    /// The text is cleaned first: CRLF and CR become newlines, other control characters are
    /// removed, and it is cut to ``maximumTextLength`` bytes. A line beginning with `.` is
    /// escaped as SSIP asks.
    ///
    /// - Parameters:
    ///   - text: What to say.
    ///   - priority: Its place in the daemon's queue.
    ///   - language: Its language (`en`, `de`, `pt-BR`), or `nil` for the daemon's default; a
    ///     value that is not a language code is ignored.
    /// - Returns: The id that ``onEvent`` reports it under. When it cannot be handed over (after
    ///   ``close()``, or when a connect fails at once: no daemon) it is reported cancelled
    ///   before this returns.
    @discardableResult
    public func speak(_ text: String, priority: SpeechPriority = .text, language: String? = nil) -> SpeechRequestID {
        let id = SpeechRequestID(rawValue: nextID)
        nextID += 1
        if case .closed = state {
            report(id, .cancelled)
            return id
        }
        pending.append(.speak(Utterance(id: id, text: text, priority: priority, language: language)))
        trimQueue()
        pump()
        return id
    }

    /// Stops what this client's utterances are saying and drops every one waiting, here and in
    /// the daemon (`CANCEL self`): each is reported cancelled.
    public func cancel() {
        var kept: [Item] = []
        for item in pending {
            if case .speak(let utterance) = item { report(utterance.id, .cancelled) } else { kept.append(item) }
        }
        pending = kept
        guard case .connected = state else { return }
        if case .command(_, .cancel)? = pending.first { return }
        pending.insert(.command("CANCEL self", .cancel), at: 0)
        fill()
    }

    /// Closes the connection: every utterance not yet ended is reported cancelled, and later
    /// ``speak(_:priority:language:)`` calls are cancelled at once.
    public func close() {
        disconnect()
        let dropped = takeAll()
        state = .closed
        if let deadlineToken { loop.removeDeadline(deadlineToken) }
        deadlineToken = nil
        for id in dropped { report(id, .cancelled) }
    }

    // MARK: - Connecting

    private func pump() {
        switch state {
        case .idle:
            connect()
        case .waiting(let until):
            if EventLoop.monotonicNow >= until { connect() } else { armDeadline() }
        case .connected:
            fill()
        case .connecting, .closed:
            break
        }
    }

    /// Adds the client's one loop deadline, once: it asks for a wake-up only while
    /// ``dueTime`` says something is due, so an idle client costs the loop nothing.
    private func armDeadline() {
        guard deadlineToken == nil, !isClosed else { return }
        deadlineToken = loop.addDeadline(
            { [weak self] in self?.dueTime },
            fire: { [weak self] now in self?.deadlineFired(now) })
    }

    private var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// When the client must act: connect again (only while an utterance waits for it), give up
    /// a connect, or give up on a reply (only while one is awaited).
    private var dueTime: Double? {
        switch state {
        case .waiting(let until): pending.contains(where: \.isSpeak) ? until : nil
        case .connecting(_, _, let started): started + timeout
        case .connected: connection.awaitingSince.map { $0 + timeout }
        case .idle, .closed: nil
        }
    }

    private func deadlineFired(_ now: Double) {
        guard let due = dueTime, now >= due else { return }
        switch state {
        case .waiting:
            connect()
        case .connecting:
            lost(notAnswering("did not answer the connect", fix: Self.connectFix))
        case .connected:
            lost(notAnswering("stopped answering", fix: Self.replyFix))
        case .idle, .closed:
            break
        }
    }

    private static let replyFix =
        "it is stopped or hung (a process stopped with SIGSTOP, an output module that does not return); "
        + "restart it (speech-dispatcher -s as the app's user) and see its log"
    private static let connectFix =
        "the host is down or drops the packets; check the host and port, and that speech-dispatcher listens "
        + "there (CommunicationMethod \"inet_socket\")"

    /// "speech-dispatcher at ADDRESS (ORIGIN) stopped answering (5 s): FIX".
    private func notAnswering(_ what: String, fix: String) -> SpeechDispatcherError {
        let seconds = "\(secondsText(timeout)) s"
        return SpeechDispatcherError(
            code: .notAnswering,
            message: "speech-dispatcher at \(address) (\(address.origin)) \(what) (\(seconds)): \(fix)")
    }

    private func connect() {
        armDeadline()
        let started = EventLoop.monotonicNow
        switch SpeechSocket.connect(address.transport) {
        case .connected(let fd):
            guard let token = watch(fd) else { return }
            connected(fd: fd, token: token, started: started)
        case .inProgress(let fd):
            guard let token = watch(fd) else { return }
            state = .connecting(fd: fd, token: token, started: started)
            loop.setWatchesWritability(token, true)
        case .failed(let code, let operation):
            connectFailed(code: code, operation: operation)
        }
    }

    private func watch(_ fd: Int32) -> EventLoop.Watch? {
        do { return try loop.watch(fd, onReady: { [weak self] readiness in self?.ready(readiness) }) } catch {
            Syscalls.close(fd)
            connectFailed(code: error.errno, operation: error.operation)
            return nil
        }
    }

    private func connected(fd: Int32, token: EventLoop.Watch, started: Double) {
        state = .connected(fd: fd, token: token)
        lastConnectDuration = EventLoop.monotonicNow - started
        // The back-off and what was said are kept: connecting is not working (see `recoverIfWorked`).
        workingSince = nil
        connection = Connection()
        let handshake: [Item] = [
            .command(
                SSIPRequest.clientName(user: SpeechSocket.userName(), client: clientName), .setting("CLIENT_NAME")),
            .command("SET SELF NOTIFICATION ALL on", .setting("NOTIFICATION")),
            .command("SET SELF RATE \(rate)", .setting("RATE")),
            .command("SET SELF VOLUME \(volume)", .setting("VOLUME")),
            .command("GET LANGUAGE", .daemonLanguage),
        ]
        pending.insert(contentsOf: handshake, at: 0)
        fill()
    }

    private func connectFailed(code: Errno, operation: String) {
        let error: SpeechDispatcherError
        let place = "\(address) (\(address.origin))"
        switch code {
        case .noSuchFileOrDirectory, .connectionRefused:
            error = SpeechDispatcherError(
                code: .notRunning,
                message: "speech-dispatcher is not running at \(place): start it, or install speech-dispatcher")
        case .permissionDenied:
            error = SpeechDispatcherError(
                code: .permissionDenied,
                message: "may not open speech-dispatcher's socket \(place): run the daemon as this user "
                    + "(speech-dispatcher -s as the kiosk user), or point SPEECHD_ADDRESS at one it may open")
        default:
            if operation == "host", case .inetSocket(let host, _) = address.transport {
                error = SpeechDispatcherError(
                    code: .address,
                    message: "speech-dispatcher's host \"\(host)\" (\(address.origin)) is not an IP address, and a "
                        + "name lookup would block the app: write inet_socket:127.0.0.1:6560 or the host's address")
            } else {
                error = SpeechDispatcherError(
                    code: .system,
                    message: "cannot reach speech-dispatcher at \(place): \(operation) failed: "
                        + "\(code) (errno \(code.rawValue))")
            }
        }
        lost(error)
    }

    // MARK: - Readiness

    private func ready(_ readiness: EventLoop.Readiness) {
        switch state {
        case .connecting(let fd, let token, let started):
            guard readiness.writable || readiness.hangUp else { return }
            let code = SpeechSocket.pendingError(fd)
            loop.setWatchesWritability(token, false)
            if let code {
                disconnect()
                connectFailed(code: code, operation: "connect")
            } else {
                connected(fd: fd, token: token, started: started)
            }
        case .connected(let fd, _):
            if readiness.readable || readiness.hangUp { read(fd) }
            if readiness.writable, isConnected { flush() }
        default:
            break
        }
    }

    private func read(_ fd: Int32) {
        for _ in 0..<16 {
            let result = readBuffer.withUnsafeMutableBytes { UnixSocket.receive(fd, into: $0) }
            switch result {
            case .success(nil):
                return
            case .success(0):
                lost(
                    SpeechDispatcherError(
                        code: .connectionLost,
                        message:
                            "speech-dispatcher at \(address) (\(address.origin)) closed the connection: it stopped "
                            + "or restarted; the next utterance connects again"))
                return
            case .success(let count?):
                let messages = connection.parser.consume(readBuffer[0..<count])
                for message in messages {
                    handle(message)
                    guard isConnected else { return }
                }
                if let failure = connection.parser.failure {
                    lost(SpeechDispatcherError(code: .protocolError, message: "\(failure) (at \(address))"))
                    return
                }
            case .failure(let error):
                lost(
                    SpeechDispatcherError(
                        code: .connectionLost,
                        message: "lost speech-dispatcher at \(address) (\(address.origin)): "
                            + "\(error); the next utterance connects again"))
                return
            }
        }
    }

    private func handle(_ message: SSIPMessage) {
        switch message {
        case .event(let event):
            guard let id = connection.messages[event.messageID] else {
                if hasQueuedExpectation, connection.early.count < 16 { connection.early.append(event) }
                return
            }
            switch event.kind {
            case .began: report(id, .began)
            case .ended, .cancelled:
                connection.messages[event.messageID] = nil
                report(id, event.kind == .ended ? .ended : .cancelled)
            default: break
            }
        case .reply(let reply):
            guard connection.expectationHead < connection.expectations.count else {
                lost(
                    SpeechDispatcherError(
                        code: .protocolError,
                        message:
                            "speech-dispatcher at \(address) sent a reply to no command: \(reply.code) \(reply.text)"))
                return
            }
            let expectation = connection.expectations[connection.expectationHead]
            connection.expectationHead += 1
            if connection.expectationHead == connection.expectations.count {
                connection.expectations.removeAll(keepingCapacity: true)
                connection.expectationHead = 0
            }
            answer(expectation, with: reply)
            let awaiting = connection.expectationHead < connection.expectations.count
            connection.awaitingSince = awaiting ? EventLoop.monotonicNow : nil
            fill()
        }
    }

    private var hasQueuedExpectation: Bool {
        connection.expectations[connection.expectationHead...].contains {
            if case .speakQueued = $0 { return true }
            return false
        }
    }

    private func answer(_ expectation: Expectation, with reply: SSIPReply) {
        switch expectation {
        case .setting(let name):
            if !reply.isSuccess {
                complain(
                    SpeechDispatcherError(
                        code: .protocolError,
                        message: "speech-dispatcher at \(address) refused SET SELF \(name): \(reply.code) \(reply.text)"
                    ))
            }
        case .daemonLanguage:
            if reply.isSuccess, let language = SSIPRequest.validLanguage(reply.data.first) {
                connection.daemonLanguage = language
                connection.language = connection.language ?? language
            }
            connection.barrier = false
        case .speakAccepted(let id, let data):
            connection.barrier = false
            guard reply.code == 230 else {
                report(id, .cancelled)
                return
            }
            connection.outgoing.append(contentsOf: data)
            connection.expectations.append(.speakQueued(id))
        case .speakQueued(let id):
            guard reply.code == 225, let number = reply.data.first.flatMap({ Int($0) }) else {
                report(id, .cancelled)
                return
            }
            connection.messages[number] = id
            // The daemon works: the outage ends if it goes on working (`recoverIfWorked`).
            if workingSince == nil { workingSince = EventLoop.monotonicNow }
            recoverIfWorked()
            report(id, .queued(messageID: number))
            let early = connection.early.filter { $0.messageID == number }
            connection.early.removeAll { $0.messageID == number }
            for event in early { handle(.event(event)) }
        case .cancel:
            break
        }
    }

    // MARK: - Writing

    /// Moves what waits into the outgoing bytes, up to the next command that needs its reply
    /// first, and writes.
    private func fill() {
        guard isConnected else { return }
        while !connection.barrier, !pending.isEmpty, connection.outgoing.count - connection.written < 65536 {
            switch pending.removeFirst() {
            case .command(let line, let expectation):
                write(line, expecting: expectation)
                if case .daemonLanguage = expectation { connection.barrier = true }
            case .speak(let utterance):
                if connection.priority != utterance.priority {
                    write("SET SELF PRIORITY \(utterance.priority.rawValue)", expecting: .setting("PRIORITY"))
                    connection.priority = utterance.priority
                }
                let language = SSIPRequest.validLanguage(utterance.language) ?? connection.daemonLanguage
                if let language, language != connection.language {
                    write("SET SELF LANGUAGE \(language)", expecting: .setting("LANGUAGE"))
                    connection.language = language
                }
                write("SPEAK", expecting: .speakAccepted(utterance.id, data: SSIPRequest.speakData(utterance.text)))
                connection.barrier = true
            }
        }
        flush()
    }

    private func write(_ command: String, expecting expectation: Expectation) {
        connection.outgoing.append(contentsOf: SSIPRequest.line(command))
        connection.expectations.append(expectation)
        if connection.awaitingSince == nil { connection.awaitingSince = EventLoop.monotonicNow }
    }

    private func flush() {
        guard case .connected(let fd, let token) = state else { return }
        while connection.written < connection.outgoing.count {
            let result = connection.outgoing.withUnsafeBytes {
                UnixSocket.send(fd, UnsafeRawBufferPointer(rebasing: $0[connection.written...]))
            }
            switch result {
            case .success(0):
                if !connection.watchingWritability {
                    connection.watchingWritability = true
                    loop.setWatchesWritability(token, true)
                }
                return
            case .success(let count):
                connection.written += count
            case .failure(let error):
                lost(
                    SpeechDispatcherError(
                        code: .connectionLost,
                        message: "lost speech-dispatcher at \(address) (\(address.origin)): "
                            + "\(error); the next utterance connects again"))
                return
            }
        }
        connection.outgoing.removeAll(keepingCapacity: true)
        connection.written = 0
        if connection.watchingWritability {
            connection.watchingWritability = false
            loop.setWatchesWritability(token, false)
        }
    }

    /// Sends a setting now when connected (a new connection sends every setting anyway). One
    /// not yet written is replaced, so that a daemon that stops answering keeps the queue of
    /// commands as bounded as the utterances'.
    private func sendSetting(_ name: String, _ value: Int) {
        guard isConnected else { return }
        let prefix = "SET SELF \(name) "
        pending.removeAll {
            guard case .command(let line, _) = $0 else { return false }
            return line.hasPrefix(prefix)
        }
        pending.append(.command(prefix + "\(value)", .setting(name)))
        fill()
    }

    // MARK: - Losing the daemon

    /// The daemon is gone or unreachable: everything it had and everything waiting is cancelled,
    /// the problem is said once per outage, and the next utterance connects after a back-off.
    private func lost(_ error: SpeechDispatcherError) {
        recoverIfWorked()
        workingSince = nil
        disconnect()
        let dropped = takeAll()
        // The state first: an event handler may speak again, and must find the back-off.
        state = .waiting(until: EventLoop.monotonicNow + reconnectDelay)
        reconnectDelay = min(reconnectDelay * 2, Self.reconnectDelays.upperBound)
        if !outageReported {
            outageReported = true
            onProblem?(error)
        }
        for id in dropped { report(id, .cancelled) }
    }

    /// A command the daemon refused: said once until the daemon recovers from an outage, apart
    /// from outages, so that a refusal never hides a later outage (nor an outage a refusal).
    private func complain(_ error: SpeechDispatcherError) {
        recoverIfWorked()
        guard !complaintReported else { return }
        complaintReported = true
        onProblem?(error)
    }

    /// Ends the outage (and the refusal said) once the daemon has worked on this connection for
    /// ``recoveryTime``: an utterance accepted, and the connection kept since. Any reply is not
    /// enough: a daemon that answers the handshake and then sends garbage would otherwise start a
    /// new outage, said again, on every reconnect.
    private func recoverIfWorked() {
        guard let workingSince, EventLoop.monotonicNow - workingSince >= recovery else { return }
        outageReported = false
        complaintReported = false
        reconnectDelay = Self.reconnectDelays.lowerBound
    }

    private func disconnect() {
        switch state {
        case .connecting(let fd, let token, _), .connected(let fd, let token):
            loop.unwatch(token)
            Syscalls.close(fd)
            state = .idle
        default:
            break
        }
    }

    /// Every utterance not yet ended, in the daemon, waiting for a reply, and waiting here, in
    /// order; the queue and the connection's state are forgotten.
    private func takeAll() -> [SpeechRequestID] {
        var ids: [SpeechRequestID] = []
        for expectation in connection.expectations[connection.expectationHead...] {
            switch expectation {
            case .speakAccepted(let id, _), .speakQueued(let id): ids.append(id)
            default: break
            }
        }
        ids.append(contentsOf: connection.messages.values)
        for item in pending { if case .speak(let utterance) = item { ids.append(utterance.id) } }
        pending = []
        connection = Connection()
        return ids.sorted()
    }

    /// Keeps at most ``maximumQueuedRequests`` utterances waiting: drops the oldest
    /// `notification`, `progress` or `text` one, else the oldest `message`, else the oldest.
    private func trimQueue() {
        var count = pending.reduce(0) { $0 + ($1.isSpeak ? 1 : 0) }
        while count > Self.maximumQueuedRequests {
            let droppable: [Set<SpeechPriority>] = [[.notification, .progress, .text], [.message], [.important]]
            for priorities in droppable {
                if let index = pending.firstIndex(where: { $0.priority.map(priorities.contains) == true }) {
                    if case .speak(let utterance) = pending.remove(at: index) { report(utterance.id, .cancelled) }
                    break
                }
            }
            count -= 1
        }
    }

    private func report(_ id: SpeechRequestID, _ kind: SpeechEvent.Kind) {
        onEvent?(SpeechEvent(requestID: id, kind: kind, time: EventLoop.monotonicNow))
    }
}
