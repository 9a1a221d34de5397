public import Accessibility
public import SpeechDispatcher

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
