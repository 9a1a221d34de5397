internal import ResponderChain

// MARK: Plain text

extension TraceEvent {
    /// One readable line, like `libinput debug-events`: the time, the event, the details.
    public var plainLine: String {
        let time = Self.formatTime(t)
        let padded = String(repeating: " ", count: max(0, 12 - time.utf8.count)) + time
        let label = name + String(repeating: " ", count: max(1, 15 - name.utf8.count))
        return padded + "  " + label + plainDetail
    }

    /// The details part of ``plainLine``, on one line: control characters in ids, names, paths
    /// and reasons are escaped (`String.escapingControlCharacters(keepingNewlines:)`), so a scene
    /// or a device cannot drive the terminal the trace is printed on. A redacted value is `•`.
    public var plainDetail: String {
        rawDetail.escapingControlCharacters()
    }

    private var rawDetail: String {
        func name(_ value: String?) -> String { value ?? "none" }
        switch kind {
        case .session(let input, let scene, let layout, let note):
            return "input \(input), scene \"\(scene)\", layout \(layout)" + (note.map { " (\($0))" } ?? "")
        case .key(let action, .value(let key), let device):
            var line = "\(action) \(key.code.name) (code \(key.code.rawValue))"
            if let keysym = key.keysym { line += " keysym \(keysym)" }
            if let visible = Self.visible(key.characters) { line += " \"\(visible)\"" }
            var modifiers = ""
            for (flag, name) in Self.modifierTextNames where key.modifierFlags.contains(flag) {
                modifiers += modifiers.isEmpty ? name : " " + name
            }
            if !modifiers.isEmpty { line += " [" + modifiers + "]" }
            return line + " on \(device)"
        case .key(let action, .redacted, let device):
            return "\(action) • keysym • \"•\" on \(device)"
        case .stage(let stage, let outcome, let reason):
            return "\(stage.number) \(stage): \(outcome)" + (reason.isEmpty ? "" : " (\(reason))")
        case .keyCommand(let title, let action, let shortcut, let declaredBy, let responder, let priority, let isRepeat):
            let titled = title.isEmpty ? action.rawValue : "\"\(title)\" (\(action))"
            return
                "\(shortcut.text) \(titled) declared by \(declaredBy ?? "global commands"), performed by \(responder)"
                + (priority ? ", priority over system keys" : "") + (isRepeat ? ", on repeat" : "")
        case .keyCommandPassedOver(let action, let shortcut, let declaredBy, let reason):
            return "\(shortcut.text) \(action) on \(declaredBy ?? "global commands") passed over: \(reason)"
        case .press(let phase, let key, .responder(let responder), let press):
            return "\(phase) \(key.text) -> \(responder) (press \(press.rawValue))"
        case .press(let phase, let key, .owner(_, let reason), let press):
            return "\(phase) \(key.text) (press \(press.rawValue)): \(reason)"
        case .focus(let from, let to, let cause, let fromGroup, let toGroup):
            var line = "\(name(from)) -> \(name(to)) (\(cause.rawValue)"
            if fromGroup != toGroup { line += ", group \(name(fromGroup)) -> \(name(toGroup))" }
            return line + ")"
        case .focusVetoed(let from, let to, let by):
            return "\(name(from)) -> \(name(to)) vetoed by \(by)"
        case .firstResponder(let from, let to):
            return "\(name(from)) -> \(name(to))"
        case .unhandled(let key):
            return key.text
        case .device(let change, let name, let path, let detail):
            return "\(change.rawValue) \"\(name)\"" + (path.map { " \($0)" } ?? "") + (detail.map { ": \($0)" } ?? "")
        case .paste(let count, let responder):
            return "\(count) characters " + (responder.map { "into \($0)" } ?? "dropped (no text input)")
        case .pointer(let pointer):
            let place: String
            switch pointer.position {
            case .value(let point): place = "(\(Self.formatCoordinate(point.x)), \(Self.formatCoordinate(point.y)))"
            case .redacted: place = "•"
            }
            return "\(pointer.kind.rawValue) \(pointer.contact) \(pointer.phase.rawValue) at \(place) on "
                + (pointer.item?.text ?? "nothing") + " (\(pointer.device))"
                + (pointer.outcome.map { ": " + $0.text } ?? "")
        case .announce(let text, let kind, let priority):
            let words: String
            switch text {
            case .value(let value): words = "\"\(value)\""
            case .redacted: words = "• (typing in a secure field, spoken \"dot\")"
            }
            return "said to the listener (\(Self.spokenReason(kind)), priority \(priority)): \(words)"
        }
    }

    /// Why an utterance was said, in words: an `announce` event's `kind` (the Accessibility
    /// module's `Utterance.Kind`) read out; an unknown one as it came.
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

    /// A coordinate as the plain line shows it: at most two decimals, trailing zeros dropped.
    static func formatCoordinate(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        guard hundredths.magnitude < 1e15 else { return "\(value)" }
        let whole = Int(hundredths) / 100
        let fraction = abs(Int(hundredths)) % 100
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        if fraction == 0 { return sign + "\(whole)" }
        return sign + "\(whole)."
            + (fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)"))
    }

    /// Characters worth printing: control characters (Tab, Return, Escape) are left out.
    static func visible(_ characters: String) -> String? {
        guard let scalar = characters.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7f else {
            return nil
        }
        return characters
    }
}

extension TraceEvent.Redactable<String> {
    /// The string, or `•`.
    var text: String {
        switch self {
        case .value(let value): return value
        case .redacted: return "•"
        }
    }
}

extension TraceEvent.Redactable<KeyCode> {
    /// The key's name, or `•`.
    var text: String {
        switch self {
        case .value(let code): return code.name
        case .redacted: return "•"
        }
    }
}
