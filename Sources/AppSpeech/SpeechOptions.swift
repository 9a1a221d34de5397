public import SpeechDispatcher

/// How an app speaks: whether it starts speaking, where speech-dispatcher listens, the name the daemon
/// knows the app by, the listener's key commands, and whether the listener's choices are kept. Given to
/// ``ApplicationSpeech/init(application:options:environment:)`` (and, in LinuxKeyboard, to
/// `KeyboardApp.Configuration.speech`, whose `KeyboardApp.SpeechOptions` is this type).
public struct SpeechOptions: Sendable {
    /// Whether the app speaks from the start (`kiosk-example --speak`); otherwise it starts
    /// silent and the listener turns speech on with its key command (or the settings kept from the
    /// last run say it was on).
    public var startsSpeaking = false
    /// Where speech-dispatcher listens; `nil` for `SPEECHD_ADDRESS`, else libspeechd's default
    /// socket.
    public var address: SpeechDispatcherAddress?
    /// The name the daemon knows the app by, and the settings file's directory; `nil` for the
    /// program's name (`Application.programName`).
    public var clientName: String?
    /// Whether the listener's key commands are reserved (see ``ApplicationSpeech/keyCommands``).
    public var reservesKeyCommands = true
    /// Whether the listener's choices (speech on or off, rate, volume) are kept in a small file
    /// and read at the next start: `$XDG_STATE_HOME/<app>/speech.conf`, else
    /// `~/.local/state/<app>/speech.conf` (state, not configuration: the app rewrites it).
    public var keepsSettings = true
    /// How long after the listener's last change the settings are written, in seconds (a held
    /// key, or several presses, write once; the write syncs the disk, which on an SD card takes
    /// long enough to delay a key). A change still waiting when the app stops is written then.
    public var settingsSaveDelay = 1.0

    /// Speech off at the start, from `SPEECHD_ADDRESS` or the default socket, with the
    /// listener's key commands and the settings kept.
    public init() {}
}
