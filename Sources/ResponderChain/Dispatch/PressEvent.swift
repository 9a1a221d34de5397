/// The event a press is delivered with: the counterpart of UIKit's `UIPressesEvent`.
///
/// The dispatcher reuses one event object for every delivery; read it during the call only.
@MainActor
public final class PressEvent {
    // Written once per delivery round; each access is a single load or store (no dynamic
    // exclusivity check, see Dispatcher).
    /// When the event happened, in seconds.
    @exclusivity(unchecked) public internal(set) var timestamp: Double = 0
    /// The modifiers held when the event happened.
    @exclusivity(unchecked) public internal(set) var modifierFlags: ModifierFlags = []

    struct Handshake {
        /// The responder the dispatcher is calling `pressesBegan` on (its identity only: no retain).
        var recipient: ObjectIdentifier?
        /// Set when that responder passed the press on (called `super`).
        var passedOn = false
    }

    // Written and read twice for every responder a press visits: like the two fields above, each
    // access is a single load or store, so it skips the dynamic exclusivity check (measured: a
    // quarter of the walk's cost).
    @exclusivity(unchecked) var handshake = Handshake()

    init() {}

    /// Records that `responder` passed the press to its next responder. Called by
    /// ``Responder/pressesBegan(_:with:)``; a call from any other responder than the one being
    /// delivered to is ignored.
    @inline(__always)
    func passToNextResponder(from responder: Responder) {
        if ObjectIdentifier(responder) == handshake.recipient { handshake.passedOn = true }
    }
}
