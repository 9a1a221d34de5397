public import AppSpeech
public import ResponderChain

// Speech lives in AppSpeech, usable by any Application; these are KeyboardApp's names for it.
extension KeyboardApp {
    /// Speech for a listener who cannot see the screen: a `Narrator` (the Accessibility module's)
    /// speaking focus, dialogs, announcements and typing through speech-dispatcher, and the
    /// listener's key commands. Set ``Configuration/speech`` to have it. AppSpeech's `SpeechOptions`.
    public typealias SpeechOptions = AppSpeech.SpeechOptions

    /// The listener's key commands, reserved when speech is configured: AppSpeech's
    /// `ApplicationSpeech.keyCommands` (Ctrl+Alt+S speech on and off, R repeat, X stop, W where am I,
    /// K the key commands, ↑ ↓ the rate, Page Up and Page Down the volume).
    public static var speechKeyCommands: [KeyCommand] { ApplicationSpeech.keyCommands }

    /// A speech problem as the app says it (`ApplicationSpeech.problemLine(_:)`): the client's
    /// message, and that the app goes on silently.
    ///
    /// - Parameter message: A `SpeechDispatcherError`'s message.
    /// - Returns: The line for ``KeyboardApp/speechNote``.
    package static func speechProblemLine(_ message: String) -> String {
        ApplicationSpeech.problemLine(message)
    }
}
