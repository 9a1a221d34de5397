internal import Accessibility
internal import DispatchTrace
internal import EventLoop
internal import SpeechDispatcher

/// keytrace's own voice (`--speak`): a speech-dispatcher client on keytrace's loop, named
/// `keytrace`, speaking a `Narrator`'s utterances (keytrace's scene, with `--keys` or `--replay`)
/// or the `announce` events an attached app sends (`--attach`).
///
/// It keeps the requests not yet handed over (no `225` from the daemon, not cancelled), so that
/// keytrace, which exits when its keys are typed, can wait for them: ``handOver(upTo:)``.
@MainActor
final class KeytraceVoice: SpeechOutput {
    /// The name the daemon knows keytrace by (`CLIENT_NAME user:keytrace:main`).
    static let clientName = "keytrace"
    /// The longest keytrace waits at exit for what it said to reach the daemon, in seconds: the
    /// socket is up 0.5 s after the daemon starts, and a `SPEAK` is queued in a few milliseconds.
    static let handOverLimit = 2.0

    /// The loop the client runs on.
    let loop: EventLoop
    /// The client.
    let client: SpeechDispatcherClient
    /// Whether the client said it cannot reach the daemon (nothing more will be handed over until
    /// it comes back).
    private(set) var hasProblem = false
    private var waiting: Set<SpeechRequestID> = []
    /// A request that ended before `speak` returned (cancelled at once: no daemon, or closed).
    private var settledAtOnce: SpeechRequestID?
    /// Where problems are said, one line each.
    private let report: (String) -> Void
    /// The daemon's address, for the lines.
    private let address: SpeechDispatcherAddress

    /// The voice at `SPEECHD_ADDRESS`, else speech-dispatcher's default socket.
    ///
    /// - Parameters:
    ///   - loop: keytrace's loop.
    ///   - environment: The process's environment.
    ///   - onProblem: Called with one line (the address and the fix) when the address cannot be
    ///     read, and once per outage when the daemon cannot be reached.
    /// - Returns: `nil` when the address cannot be read (`onProblem` said why).
    static func make(loop: EventLoop, environment: [String: String], onProblem: @escaping (String) -> Void)
        -> KeytraceVoice?
    {
        switch SpeechDispatcherAddress.resolve(environment: environment) {
        case .success(let address):
            return KeytraceVoice(loop: loop, address: address, onProblem: onProblem)
        case .failure(let error):
            onProblem(problemLine(error.message))
            return nil
        }
    }

    /// A voice at an address.
    init(loop: EventLoop, address: SpeechDispatcherAddress, onProblem: @escaping (String) -> Void) {
        self.loop = loop
        self.report = onProblem
        self.address = address
        client = SpeechDispatcherClient(loop: loop, address: address, clientName: Self.clientName)
        client.onProblem = { [unowned self] error in
            hasProblem = true
            onProblem(Self.problemLine(error.message))
        }
        client.onEvent = { [unowned self] event in
            switch event.kind {
            case .queued:
                // Handed over: the daemon has it, so speech resumed if it had stopped.
                hasProblem = false
                settle(event.requestID)
            case .cancelled:
                settle(event.requestID)
            case .began, .ended:
                break
            }
        }
    }

    private func settle(_ id: SpeechRequestID) {
        if waiting.remove(id) == nil { settledAtOnce = id }
    }

    /// keytrace's line for a speech problem: the client's message (the address and the fix), and
    /// that keytrace goes on without speech.
    static func problemLine(_ message: String) -> String {
        // KeyboardApp's note ends with what an app does ("; the app goes on silently"): keytrace says
        // what it does instead. The client's own messages (keytrace's replay voice) end without it.
        let appSuffix = "; the app goes on silently"
        let text = message.hasSuffix(appSuffix) ? String(message.dropLast(appSuffix.count)) : message
        return "keytrace: --speak: \(text); keytrace goes on showing the trace without speech"
    }

    /// Speaks words with an SSIP priority (its name; an unknown one is `text`).
    ///
    /// - Parameters:
    ///   - text: The words.
    ///   - priority: `important`, `message`, `text`, `notification` or `progress`.
    ///   - language: A language tag, or `nil` for the daemon's.
    func say(_ text: String, priority: String, language: String? = nil) {
        settledAtOnce = nil
        let id = client.speak(text, priority: SpeechPriority(rawValue: priority) ?? .text, language: language)
        // A request refused at once (no daemon) was reported cancelled before speak returned.
        if settledAtOnce != id { waiting.insert(id) }
    }

    /// Speaks an `announce` event an attached app sent: its words with its priority; a redacted
    /// text (typing in a secure field) as "dot", never anything else.
    ///
    /// - Parameter event: The event; other events are not spoken.
    func speak(_ event: TraceEvent) {
        guard case .announce(let text, _, let priority) = event.kind else { return }
        switch text {
        case .value(let words): say(words, priority: priority)
        case .redacted: say("dot", priority: priority)
        }
    }

    /// Waits, running the loop, until everything said was handed to the daemon (or dropped),
    /// the daemon cannot be reached, or `seconds` pass. A daemon that took the connection but not
    /// the words in that time (stopped, hung) is said in one line, as a daemon that is not there is.
    ///
    /// - Parameter seconds: The longest wait.
    /// - Returns: Whether everything was handed over.
    @discardableResult
    func handOver(upTo seconds: Double = handOverLimit) -> Bool {
        let deadline = EventLoop.monotonicNow + seconds
        while !waiting.isEmpty && !hasProblem {
            let left = deadline - EventLoop.monotonicNow
            if left <= 0 {
                let count = waiting.count
                report(
                    Self.problemLine(
                        "speech-dispatcher at \(address) did not take \(count) utterance\(count == 1 ? "" : "s") "
                            + "within \(Self.formatSeconds(seconds)) s: it is stopped or hung; restart it "
                            + "(speech-dispatcher -s as this user) and see its log"))
                return false
            }
            loop.runOnce(timeout: min(left, 0.05))
        }
        return waiting.isEmpty
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// Runs the loop for `seconds` (a replay's pause at its recorded pace), so that what was said
    /// goes out meanwhile.
    ///
    /// - Parameter seconds: How long.
    func pause(_ seconds: Double) {
        let deadline = EventLoop.monotonicNow + seconds
        while true {
            let left = deadline - EventLoop.monotonicNow
            if left <= 0 { return }
            loop.runOnce(timeout: left)
        }
    }

    // MARK: SpeechOutput

    /// Speaks a narrator's utterance with its priority and language.
    ///
    /// - Parameter utterance: What to say.
    func speak(_ utterance: Utterance) {
        say(utterance.text, priority: utterance.priority.ssipName, language: utterance.language)
    }

    /// Cancels what is spoken and what waits.
    func stopSpeaking() {
        client.cancel()
    }

    /// Sets the client's rate and volume.
    ///
    /// - Parameters:
    ///   - rate: -100...100.
    ///   - volume: -100...100.
    func apply(rate: Int, volume: Int) {
        client.rate = rate
        client.volume = volume
    }
}
