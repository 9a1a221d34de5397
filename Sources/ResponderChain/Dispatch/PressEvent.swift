/// The event a press is delivered with: the counterpart of UIKit's `UIPressesEvent`.
///
/// The dispatcher reuses one event object for every delivery; read it during the call only.
public final class PressEvent {
    /// When the event happened, in seconds.
    public internal(set) var timestamp: Double = 0
    /// The modifiers held when the event happened.
    public internal(set) var modifierFlags: ModifierFlags = []

    /// The responder the dispatcher is calling `pressesBegan` on.
    weak var currentRecipient: Responder?
    /// Set when the current recipient passed the press on (called `super`).
    var passedOn = false

    init() {}

    /// Records that `responder` passed the press to its next responder. Called by
    /// ``Responder/pressesBegan(_:with:)``; a call from any other responder than the one being
    /// delivered to is ignored.
    func passToNextResponder(from responder: Responder) {
        if responder === currentRecipient { passedOn = true }
    }
}
