public import Accessibility
public import AppRuntime
internal import EventLoop
internal import LinuxSystem
public import ResponderChain
internal import SpeechDispatcher

/// Speech for a listener who cannot see the screen, for any `Application`: a `Narrator` (the
/// Accessibility module's) speaking focus, dialogs, announcements and typing through speech-dispatcher,
/// the listener's key commands, and the listener's choices kept between runs.
///
/// Made once for an application, before it runs:
///
/// ```swift
/// let app = try Application(window: window, root: root)
/// var options = SpeechOptions()
/// options.startsSpeaking = true
/// let speech = ApplicationSpeech(application: app, options: options)
/// speech.narrator.announce("Welcome")
/// try app.run()
/// ```
///
/// Nothing connects to the daemon until the first utterance (with speech off: never), and nothing here
/// throws: a problem (no daemon, a malformed `SPEECHD_ADDRESS`, a settings file that cannot be read or
/// written) is said once, through `Application.report(_:)` unless the app set ``onProblem``, and
/// ``note`` keeps it; the app goes on silently. The application keeps its speech for as long as it
/// lives, and writes a settings change still waiting when `Application.run()` returns.
@MainActor
public final class ApplicationSpeech {
    /// The options it was made with.
    public let options: SpeechOptions
    /// What speaks the app aloud: post announcements with `Window.postAccessibilityNotification(_:)`,
    /// or call its methods. Each utterance also goes to `keytrace --attach` watchers
    /// (`Application.traceAnnouncement(_:kind:priority:)`).
    public let narrator: Narrator
    /// The speech-dispatcher output the narrator speaks through (`nil` when the address could not be
    /// read: ``note`` says why).
    public let output: SpeechDispatcherOutput?
    /// The file the listener's choices are kept in (see ``SpeechOptions/keepsSettings``); `nil` when
    /// they are not kept.
    public let settingsPath: String?
    /// Why speech is silent, once it is (no daemon at the address, a malformed `SPEECHD_ADDRESS`), or
    /// what went wrong with the settings file: show it where the operator sees it. Set again when the
    /// daemon is lost.
    public private(set) var note: String?
    /// Called with ``note`` each time it is set (once per outage, and when the listener's settings
    /// could not be saved), for an app that handles speech problems itself. Unset (the default), each
    /// problem goes to `Application.report(_:)` instead, as does a note from the setup (an unreadable
    /// settings file, a malformed `SPEECHD_ADDRESS`) when `Application.openInput()` runs: an app that
    /// shows `Application.onMessage` needs nothing here.
    public var onProblem: ((String) -> Void)?
    private let saver: SettingsSaver?

    /// Makes the narrator and its speech-dispatcher output on the application's window, focus system,
    /// dispatcher and loop, reads the listener's kept settings, and reserves the listener's key
    /// commands (``keyCommands``). Make one per application, before it runs.
    ///
    /// - Parameters:
    ///   - application: The app to speak; it keeps this speech for as long as it lives.
    ///   - options: How it speaks.
    ///   - environment: Where `SPEECHD_ADDRESS`, `XDG_STATE_HOME` and `HOME` are read; `nil` (the
    ///     default) for the process's.
    public init(
        application: Application, options: SpeechOptions = SpeechOptions(), environment: [String: String]? = nil
    ) {
        let environment = environment ?? Syscalls.processEnvironment()
        self.options = options
        let problems = SpeechProblems()
        let name = options.clientName ?? Application.programName
        let settingsPath =
            options.keepsSettings ? SpeechSettingsFile.path(appName: name, environment: environment) : nil
        let (settings, settingsNote) = settingsPath.map(SpeechSettingsFile.load(from:)) ?? (.defaults, nil)
        let narrator = Narrator(
            window: application.window, focusSystem: application.focusSystem, dispatcher: application.dispatcher,
            isEnabled: options.startsSpeaking || settings.isEnabled, rate: settings.rate, volume: settings.volume)
        var setupNote = settingsNote
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
            setupNote = [setupNote, Self.problemLine(error.message)].compactMap { $0 }.joined(separator: "; ")
        }
        narrator.onUtterance = { [weak application] utterance in
            application?.traceAnnouncement(
                utterance.isSecret ? nil : utterance.text, kind: utterance.kind.rawValue,
                priority: utterance.priority.ssipName)
        }
        let saver = settingsPath.map {
            SettingsSaver(
                path: $0, delay: options.settingsSaveDelay, narrator: narrator, loop: application.loop,
                problems: problems)
        }
        if options.reservesKeyCommands {
            for command in Self.keyCommands {
                application.dispatcher.reserve(
                    ReservedShortcut(command) { [unowned narrator] _ in
                        Self.perform(command.action, on: narrator)
                        // The listener's choices outlast the app: written a moment after the last change.
                        if Self.changesSettings(command.action) { saver?.changed() }
                    })
            }
        }
        self.narrator = narrator
        self.output = output
        self.settingsPath = settingsPath
        self.saver = saver
        note = setupNote
        // The setup's note (the settings file, the address), said when the app opens, as later problems
        // are, unless the app handles speech problems itself (it reads the note then).
        if let setupNote {
            application.reportWhenOpened(setupNote, unless: { [weak self] in self?.onProblem != nil })
        }
        problems.report = { [weak self, weak application] message in
            guard let self else { return }
            self.note = message
            if let onProblem { onProblem(message) } else { application?.report(message) }
        }
        output?.client.onProblem = { error in
            problems.report(Self.problemLine(error.message))
        }
        // A change the listener made just before the app stopped is kept. The action holds this
        // speech: the application keeps it (and its narrator, which the key commands use) alive.
        application.whenFinished { self.saveSettingsIfPending() }
    }

    /// Writes the listener's settings now when a change is still waiting for its moment
    /// (``SpeechOptions/settingsSaveDelay``). `Application.run()` does this when it returns; call it
    /// for an app that stops without it.
    public func saveSettingsIfPending() {
        saver?.saveIfPending()
    }

    /// The listener's key commands, reserved when ``SpeechOptions/reservesKeyCommands`` is set (they
    /// come before the app's own; an app command on the same chord is reported by the conflict report),
    /// each with a title the help overlay and "Speak key commands" read:
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
    public static let keyCommands: [KeyCommand] = {
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

    /// A speech problem as the app says it: the client's message (what failed, where, and the fix),
    /// and that the app goes on silently. The client's messages say nothing of the app: what the app
    /// does about a problem is the app's to say, here, once.
    ///
    /// - Parameter message: A `SpeechDispatcherError`'s message.
    /// - Returns: The line for ``note``.
    package static func problemLine(_ message: String) -> String {
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
