public import Accessibility
internal import AppRuntime
internal import EventLoop
public import ResponderChain
public import SpeechDispatcher

extension KeyboardApp {
    /// Speech for a listener who cannot see the screen: a `Narrator` (the Accessibility module's)
    /// speaking focus, dialogs, announcements and typing through speech-dispatcher, and the
    /// listener's key commands. Set ``Configuration/speech`` to have it.
    public struct SpeechOptions: Sendable {
        /// Whether the app speaks from the start (`kiosk-example --speak`); otherwise it starts
        /// silent and the listener turns speech on with its key command.
        public var startsSpeaking = false
        /// Where speech-dispatcher listens; `nil` for `SPEECHD_ADDRESS`, else libspeechd's default
        /// socket.
        public var address: SpeechDispatcherAddress?
        /// The name the daemon knows the app by; `nil` for the program's name.
        public var clientName: String?
        /// Whether the listener's key commands are reserved (see ``KeyboardApp/speechKeyCommands``).
        public var reservesKeyCommands = true
        /// Whether the listener's choices (speech on or off, rate, volume) are kept in a small file
        /// and read at the next start: `$XDG_STATE_HOME/<app>/speech.conf`, else
        /// `~/.local/state/<app>/speech.conf` (state, not configuration: the app rewrites it).
        public var keepsSettings = true
        /// How long after the listener's last change the settings are written, in seconds (a held
        /// key, or several presses, write once; the write syncs the disk, which on an SD card takes
        /// long enough to delay a key).
        public var settingsSaveDelay = 1.0

        /// Speech off at the start, from `SPEECHD_ADDRESS` or the default socket, with the
        /// listener's key commands.
        public init() {}
    }

    /// The listener's key commands, reserved when speech is configured (they come before the app's
    /// own; an app command on the same chord is reported by the conflict report), each with a title
    /// the help overlay and "Speak key commands" read:
    ///
    /// | chord | does |
    /// |---|---|
    /// | Ctrl+Alt+S | speech on and off, saying so |
    /// | Ctrl+Alt+R | repeats the last utterance |
    /// | Ctrl+Alt+X | stops speaking |
    /// | Ctrl+Alt+W | says the focused item ("where am I") |
    /// | Ctrl+Alt+K | reads the active key commands aloud |
    /// | Ctrl+Alt+↑ / ↓ | speaks faster / slower |
    /// | Ctrl+Alt+Page Up / Page Down | louder / softer |
    public static let speechKeyCommands: [KeyCommand] = {
        let chord: ModifierFlags = [.control, .alternate]
        return [
            KeyCommand("s", modifierFlags: chord, action: "speechToggle", title: "Speech on or off"),
            KeyCommand("r", modifierFlags: chord, action: "speechRepeat", title: "Repeat what was said"),
            KeyCommand("x", modifierFlags: chord, action: "speechStop", title: "Stop speaking"),
            KeyCommand("w", modifierFlags: chord, action: "speechWhere", title: "Say the focused item"),
            KeyCommand("k", modifierFlags: chord, action: "speechKeyCommands", title: "Speak the key commands"),
            KeyCommand(.upArrow, modifierFlags: chord, action: "speechFaster", title: "Speak faster"),
            KeyCommand(.downArrow, modifierFlags: chord, action: "speechSlower", title: "Speak slower"),
            KeyCommand(.pageUp, modifierFlags: chord, action: "speechLouder", title: "Speak louder"),
            KeyCommand(.pageDown, modifierFlags: chord, action: "speechSofter", title: "Speak softer"),
        ]
    }()

    /// Makes the narrator and its speech-dispatcher output, and reserves the listener's key
    /// commands. Nothing connects until the first utterance (speech off: never).
    static func makeSpeech(
        _ options: SpeechOptions, application: Application, environment: [String: String],
        problems: SpeechProblems
    ) -> (Narrator, SpeechDispatcherOutput?, String?, SettingsSaver?) {
        let name = options.clientName ?? Application.programName
        let settingsPath =
            options.keepsSettings ? SpeechSettingsFile.path(appName: name, environment: environment) : nil
        let (settings, settingsNote) = settingsPath.map(SpeechSettingsFile.load(from:)) ?? (.defaults, nil)
        let narrator = Narrator(
            window: application.window, focusSystem: application.focusSystem, dispatcher: application.dispatcher,
            isEnabled: options.startsSpeaking || settings.isEnabled, rate: settings.rate, volume: settings.volume)
        var note = settingsNote
        var output: SpeechDispatcherOutput?
        let address =
            options.address.map { Result<SpeechDispatcherAddress, SpeechDispatcherError>.success($0) }
            ?? SpeechDispatcherAddress.resolve(environment: environment)
        switch address {
        case .success(let address):
            let client = SpeechDispatcherClient(loop: application.loop, address: address, clientName: name)
            output = SpeechDispatcherOutput(client)
            narrator.output = output
        case .failure(let error):
            note = [note, speechProblemLine(error.message)].compactMap { $0 }.joined(separator: "; ")
        }
        narrator.onUtterance = { [unowned application] utterance in
            application.traceAnnouncement(
                utterance.isSecret ? nil : utterance.text, kind: utterance.kind.rawValue,
                priority: utterance.priority.ssipName)
        }
        let saver = settingsPath.map {
            SettingsSaver(
                path: $0, delay: options.settingsSaveDelay, narrator: narrator, loop: application.loop,
                problems: problems)
        }
        if options.reservesKeyCommands {
            for command in speechKeyCommands {
                application.dispatcher.reserve(
                    ReservedShortcut(command) { [unowned narrator] _ in
                        Self.perform(command.action, on: narrator)
                        // The listener's choices outlast the app: written a moment after the last change.
                        if Self.changesSettings(command.action) { saver?.changed() }
                    })
            }
        }
        return (narrator, output, note, saver)
    }

    /// A speech problem as the app says it: the client's message (what failed, where, and the fix),
    /// and that the app goes on silently. The client's messages say nothing of the app: what the app
    /// does about a problem is the app's to say, here, once.
    ///
    /// - Parameter message: A `SpeechDispatcherError`'s message.
    /// - Returns: The line for ``KeyboardApp/speechNote``.
    package static func speechProblemLine(_ message: String) -> String {
        "\(message); the app goes on silently"
    }

    private static func changesSettings(_ action: Action) -> Bool {
        ["speechToggle", "speechFaster", "speechSlower", "speechLouder", "speechSofter"].contains(action)
    }

    private static func perform(_ action: Action, on narrator: Narrator) {
        switch action {
        case "speechToggle": narrator.setEnabled(!narrator.isEnabled)
        case "speechRepeat": narrator.repeatLast()
        case "speechStop": narrator.stopSpeaking()
        case "speechWhere": narrator.speakFocusedItem()
        case "speechKeyCommands": narrator.speakKeyCommands()
        case "speechFaster": narrator.adjustRate(by: 10)
        case "speechSlower": narrator.adjustRate(by: -10)
        case "speechLouder": narrator.adjustVolume(by: 10)
        case "speechSofter": narrator.adjustVolume(by: -10)
        default: break
        }
    }
}

/// Writes the listener's settings from a loop deadline a moment after their last change, and says a
/// failure once until a write succeeds again.
@MainActor
final class SettingsSaver {
    let path: String
    let delay: Double
    unowned let narrator: Narrator
    let problems: SpeechProblems
    private var due: Double?
    private var failed = false

    init(path: String, delay: Double, narrator: Narrator, loop: EventLoop, problems: SpeechProblems) {
        self.path = path
        self.delay = delay
        self.narrator = narrator
        self.problems = problems
        loop.addDeadline({ [weak self] in self?.due }) { [weak self] now in self?.fire(now) }
    }

    func changed() {
        due = EventLoop.monotonicNow + delay
    }

    /// Writes a change still waiting for its moment now: the app is stopping.
    func saveIfPending() {
        if let due { fire(due) }
    }

    private func fire(_ now: Double) {
        guard let due, now >= due else { return }
        self.due = nil
        let kept = SpeechSettings(isEnabled: narrator.isEnabled, rate: narrator.rate, volume: narrator.volume)
        if let failure = SpeechSettingsFile.save(kept, to: path) {
            if !failed { problems.report(failure) }
            failed = true
        } else {
            failed = false
        }
    }
}

/// Where speech's problems go once the app is made (the key commands are made before it).
@MainActor
final class SpeechProblems {
    var report: (String) -> Void = { _ in }
}

/// A `Narrator`'s utterances spoken by speech-dispatcher: the Accessibility module's
/// `SpeechOutput` over a `SpeechDispatcherClient` (its priority, language, cancel, rate and volume).
/// Never blocks: the client queues and connects on the event loop.
@MainActor
public final class SpeechDispatcherOutput: SpeechOutput {
    /// The client utterances go through.
    public let client: SpeechDispatcherClient

    /// Speaks through a client.
    ///
    /// - Parameter client: The client.
    public init(_ client: SpeechDispatcherClient) {
        self.client = client
    }

    /// Hands the utterance to the daemon with its priority and language.
    ///
    /// - Parameter utterance: What to say.
    public func speak(_ utterance: Utterance) {
        _ = client.speak(
            utterance.text, priority: SpeechPriority(rawValue: utterance.priority.ssipName) ?? .text,
            language: utterance.language)
    }

    /// Cancels what is spoken and what waits (`CANCEL self`).
    public func stopSpeaking() {
        client.cancel()
    }

    /// Sets the client's rate and volume.
    ///
    /// - Parameters:
    ///   - rate: -100...100.
    ///   - volume: -100...100.
    public func apply(rate: Int, volume: Int) {
        client.rate = rate
        client.volume = volume
    }
}
