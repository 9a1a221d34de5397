import ResponderChain

/// Terminal input as the decoder tests read it: the key a value names and what happened to it.
extension InputEvent {
    /// The key of a key event or of a cancelled press; `nil` for text and the rest.
    var code: KeyCode? {
        switch self {
        case .key(let event): event.code
        case .cancelKey(let code, _, _): code
        default: nil
        }
    }

    /// Down, repeat or up for a key event; up for a cancelled press (the key went up unseen).
    var action: KeyAction? {
        switch self {
        case .key(let event): event.action
        case .cancelKey: .up
        default: nil
        }
    }

    /// What a key typed, as the terminal sent it.
    var keyText: String? {
        if case .key(let event) = self { event.text } else { nil }
    }

    /// The text of a paste.
    var pastedText: String? {
        if case .text(let text, _, _) = self { text } else { nil }
    }

    /// One line: `down KeyA`, `cancel ShiftLeft`, `paste "text"`.
    var line: String {
        switch self {
        case .key(let event): "\(event.action) \(event.code.name)"
        case .cancelKey(let code, _, _): "cancel \(code.name)"
        case .text(let text, _, _): "paste \(text.debugDescription)"
        default: "\(self)"
        }
    }
}
