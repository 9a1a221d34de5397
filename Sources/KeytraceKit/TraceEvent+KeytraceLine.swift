public import DispatchTrace
internal import ResponderChain

extension TraceEvent {
    /// The line keytrace prints and its live view shows for the event: `TraceEvent.plainLine`,
    /// except that an `announce` event says what it is, why and how it ranks, then the words:
    /// `said to the listener (focus move, priority text): "Name, text field"`; typing in a secure
    /// field is `•`, spoken "dot".
    public var keytraceLine: String {
        guard case .announce(let text, let kind, let priority) = kind else { return plainLine }
        let detail = plainDetail
        let prefix = plainLine.dropLast(detail.count)
        let words: String
        switch text {
        case .value(let value): words = "\"\(value)\""
        case .redacted: words = "• (typing in a secure field, spoken \"dot\")"
        }
        let line = "said to the listener (\(Self.spokenReason(kind)), priority \(priority)): \(words)"
        return prefix + line.escapingControlCharacters()
    }

    /// Why an utterance was said, in words: its `kind` field (the Accessibility module's
    /// `Utterance.Kind`) read out; an unknown one as it came.
    static func spokenReason(_ kind: String) -> String {
        switch kind {
        case "focus": return "focus move"
        case "modal": return "dialog presented"
        case "announcement": return "the app's announcement"
        case "typing": return "typing echo"
        case "keyCommands": return "the key commands read aloud"
        case "control": return "the listener's speech setting"
        default: return kind
        }
    }
}
