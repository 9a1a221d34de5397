internal import Accessibility
internal import AppRuntime
internal import DispatchTrace
internal import EventLoop
internal import LinuxKeyboard
internal import LinuxSystem
internal import ResponderChain

// `keytrace --speak`: keytrace's scene narrated as an app with speech on narrates it, or an
// attached app's utterances spoken, through speech-dispatcher; each utterance an `announce` event.
extension Keytrace {
    /// What speaks keytrace's own scene with `--keys` or `--replay`: a `Narrator` on the session's
    /// window speaking through keytrace's voice on a loop of its own.
    struct SceneSpeech {
        /// The narrator (VoiceOver's rules, as in an app).
        let narrator: Narrator
        /// Its voice; `nil` when `SPEECHD_ADDRESS` cannot be read (the trace goes on).
        let voice: KeytraceVoice?
    }

    /// Narrates a session's scene: from its initial focus on (make it before
    /// `TraceSession.start(input:layout:note:t:)`), every utterance spoken and traced as an
    /// `announce` event.
    ///
    /// - Parameters:
    ///   - session: The session.
    ///   - environment: Where the daemon's address is read; `nil` for the process's environment.
    ///   - diagnostics: Where a speech problem is said, once per outage.
    /// - Returns: The narrator and its voice.
    /// - Throws: ``KeytraceError`` when the kernel refuses an event loop.
    static func narrate(_ session: TraceSession, environment: [String: String]?, diagnostics: OutputBuffer)
        throws(KeytraceError) -> SceneSpeech
    {
        var options = EventLoop.Options()
        options.drainsMainQueue = false
        let loop: EventLoop
        do { loop = try EventLoop(options: options) } catch { throw KeytraceError("--speak: \(error)") }
        let voice = KeytraceVoice.make(loop: loop, environment: environment ?? Syscalls.processEnvironment()) { line in
            diagnostics.line(line)
            diagnostics.flush()
        }
        let narrator = Narrator(
            window: session.window, focusSystem: session.focusSystem, dispatcher: session.dispatcher)
        narrator.output = voice
        traceUtterances(of: narrator, in: session)
        return SceneSpeech(narrator: narrator, voice: voice)
    }

    /// Every utterance of `narrator` becomes an `announce` event of `session` (see
    /// ``UtteranceTracer``), after what the narrator already did with it.
    static func traceUtterances(of narrator: Narrator, in session: TraceSession) {
        let tracer = UtteranceTracer(session: session)
        let before = narrator.onUtterance
        narrator.onUtterance = { utterance in
            before?(utterance)
            tracer.trace(utterance)
        }
    }

    /// The speech options of keytrace's live runtime with `--speak`: speaking from the start, as
    /// `keytrace` for the daemon, with the listener's key commands (Ctrl+Alt+S, R, X, W, K, the
    /// arrows, Page Up and Down), and no settings file (keytrace is a tool, not the listener's app).
    static var liveSpeechOptions: KeyboardApp.SpeechOptions {
        var speech = KeyboardApp.SpeechOptions()
        speech.startsSpeaking = true
        speech.clientName = KeytraceVoice.clientName
        speech.keepsSettings = false
        return speech
    }

    /// Wires a live app's narrator (made from ``liveSpeechOptions``) to the session's trace and
    /// its problems to `report`, one line each.
    static func narrateLive(_ app: KeyboardApp, session: TraceSession, report: @escaping (String) -> Void) {
        guard let narrator = app.narrator else { return }
        traceUtterances(of: narrator, in: session)
        if let note = app.speechNote { report(KeytraceVoice.problemLine(note)) }
        app.onSpeechProblem = { note in report(KeytraceVoice.problemLine(note)) }
    }
}

/// Puts a narrator's utterances into a session's trace as `announce` events, at the session's time
/// (that of the key that caused them), cause before effect: an utterance about a focus move comes
/// after that move's `focus` event, which the dispatcher holds until the stage that took the key
/// is traced, while the narrator speaks as soon as focus has moved.
@MainActor
final class UtteranceTracer {
    /// The session whose trace it writes to (it may go first at exit: then nothing is traced).
    weak var session: TraceSession?
    /// The session's dispatcher, whose trace observer the tracer removes when it goes.
    let dispatcher: Dispatcher
    /// Utterances waiting for their focus move's event.
    private var held: [TraceEvent] = []
    /// The item the last `focus` event traced went to.
    private var tracedFocus: String?
    private var observation: TraceObservation?

    /// Follows a session; its dispatcher's trace tells when a focus move was traced.
    init(session: TraceSession) {
        self.session = session
        dispatcher = session.dispatcher
        // Added after the session's own observer: called after the session traced the record.
        observation = session.dispatcher.addTraceObserver { [unowned self] record in
            guard case .focus(_, let to, _, _, _, _) = record.kind else { return }
            tracedFocus = to
            flush()
        }
    }

    isolated deinit {
        if let observation { dispatcher.removeTraceObserver(observation) }
    }

    /// Traces an utterance now, or once its focus move is traced.
    func trace(_ utterance: Utterance) {
        guard let session else { return }
        let event = TraceEvent(
            t: session.now,
            .announce(
                text: utterance.isSecret ? .redacted : .value(utterance.text), kind: utterance.kind.rawValue,
                priority: utterance.priority.ssipName))
        let aboutFocus = utterance.kind == .focus || utterance.kind == .modal
        if !held.isEmpty || (aboutFocus && tracedFocus != session.focusedID) {
            held.append(event)
        } else {
            session.emit(event)
        }
    }

    private func flush() {
        guard let session else { return }
        let events = held
        held.removeAll()
        for event in events { session.emit(TraceEvent(t: session.now, event.kind)) }
    }
}
