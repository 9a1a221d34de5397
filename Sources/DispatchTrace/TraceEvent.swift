internal import ResponderChain

/// One line of keytrace output: what happened, when, with the scene's node ids.
///
/// The JSON form is one object per line with `t` (seconds) and `event` first; the README's
/// "JSON lines" section is the schema.
public struct TraceEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// The session started: which input, scene and layout.
        case session(input: String, scene: String, layout: String, note: String?)
        /// A key event arrived: `down`, `repeat` or `up`.
        case key(
            phase: String, key: String, code: UInt16?, keysym: String?, characters: String, modifiers: [String],
            device: String)
        /// A pipeline stage looked at a key-down.
        case stage(number: Int, stage: String, decision: String, reason: String)
        /// A key command fired, on a key-down or (`isRepeat`) again on an auto-repeat.
        case keyCommand(
            title: String, action: String, shortcut: String, declaredBy: String?, responder: String, priority: Bool,
            isRepeat: Bool)
        /// A key command matched but was passed over.
        case keyCommandPassedOver(action: String, shortcut: String, declaredBy: String?, reason: String)
        /// A press phase went to a responder (`responder`), or to a non-responder owner: `owner`
        /// is the stage that took the key-down and `reason` says what happened to this phase.
        case press(phase: String, key: String, responder: String?, owner: String?, reason: String?, press: UInt64)
        /// Focus moved.
        case focus(from: String?, to: String?, cause: String, fromGroup: String?, toGroup: String?)
        /// An environment vetoed a focus move.
        case focusVetoed(from: String?, to: String?, by: String)
        /// The first responder changed.
        case firstResponder(from: String?, to: String?)
        /// Nobody took a key-down.
        case unhandled(key: String)
        /// A keyboard was added or removed, the app lost the keyboard, or a device failed.
        case device(change: String, name: String, path: String?, detail: String?)
        /// Text was pasted: how many characters, and the text input they went to (`nil`: dropped).
        case paste(characters: Int, responder: String?)
    }

    /// Seconds: the input's clock (recorded times for a replay, 0.1 s steps for `--keys`,
    /// seconds since start for live input).
    public var t: Double
    /// What happened.
    public var kind: Kind

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - t: The time in seconds.
    ///   - kind: What happened.
    public init(t: Double, _ kind: Kind) {
        self.t = t
        self.kind = kind
    }

    /// The `event` field's value.
    public var name: String {
        switch kind {
        case .session: return "session"
        case .key: return "key"
        case .stage: return "stage"
        case .keyCommand: return "keyCommand"
        case .keyCommandPassedOver: return "keyCommandPassedOver"
        case .press: return "press"
        case .focus: return "focus"
        case .focusVetoed: return "focusVetoed"
        case .firstResponder: return "firstResponder"
        case .unhandled: return "unhandled"
        case .device: return "device"
        case .paste: return "paste"
        }
    }
}

// MARK: JSON

extension TraceEvent {
    /// Appends the event as one JSON object and a newline.
    ///
    /// - Parameter out: The buffer.
    public func writeJSON(to out: inout ByteWriter) {
        out.append("{\"t\":")
        out.append(seconds: t)
        switch kind {
        case .session(let input, let scene, let layout, let note):
            out.append(",\"event\":\"session\"")
            Self.field(&out, ",\"input\":", input)
            Self.field(&out, ",\"scene\":", scene)
            Self.field(&out, ",\"layout\":", layout)
            Self.field(&out, ",\"note\":", note)
        case .key(let phase, let key, let code, let keysym, let characters, let modifiers, let device):
            out.append(",\"event\":\"key\"")
            Self.field(&out, ",\"phase\":", phase)
            Self.field(&out, ",\"key\":", key)
            out.append(",\"code\":")
            if let code { out.append(decimal: Int(code)) } else { out.append("null") }
            Self.field(&out, ",\"keysym\":", keysym)
            Self.field(&out, ",\"characters\":", characters)
            out.append(",\"modifiers\":[")
            for (index, modifier) in modifiers.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.appendJSONString(modifier)
            }
            out.append(UInt8(ascii: "]"))
            Self.field(&out, ",\"device\":", device)
        case .stage(let number, let stage, let decision, let reason):
            out.append(",\"event\":\"stage\",\"number\":")
            out.append(decimal: number)
            Self.field(&out, ",\"stage\":", stage)
            Self.field(&out, ",\"decision\":", decision)
            Self.field(&out, ",\"reason\":", reason)
        case .keyCommand(let title, let action, let shortcut, let declaredBy, let responder, let priority, let isRepeat):
            out.append(",\"event\":\"keyCommand\"")
            Self.field(&out, ",\"title\":", title)
            Self.field(&out, ",\"action\":", action)
            Self.field(&out, ",\"shortcut\":", shortcut)
            Self.field(&out, ",\"declaredBy\":", declaredBy)
            Self.field(&out, ",\"responder\":", responder)
            out.append(priority ? ",\"priority\":true" : ",\"priority\":false")
            out.append(isRepeat ? ",\"repeat\":true" : ",\"repeat\":false")
        case .keyCommandPassedOver(let action, let shortcut, let declaredBy, let reason):
            out.append(",\"event\":\"keyCommandPassedOver\"")
            Self.field(&out, ",\"action\":", action)
            Self.field(&out, ",\"shortcut\":", shortcut)
            Self.field(&out, ",\"declaredBy\":", declaredBy)
            Self.field(&out, ",\"reason\":", reason)
        case .press(let phase, let key, let responder, let owner, let reason, let press):
            out.append(",\"event\":\"press\"")
            Self.field(&out, ",\"phase\":", phase)
            Self.field(&out, ",\"key\":", key)
            Self.field(&out, ",\"responder\":", responder)
            Self.field(&out, ",\"owner\":", owner)
            Self.field(&out, ",\"reason\":", reason)
            out.append(",\"press\":")
            out.append(decimal: Int(truncatingIfNeeded: press))
        case .focus(let from, let to, let cause, let fromGroup, let toGroup):
            out.append(",\"event\":\"focus\"")
            Self.field(&out, ",\"from\":", from)
            Self.field(&out, ",\"to\":", to)
            Self.field(&out, ",\"cause\":", cause)
            Self.field(&out, ",\"fromGroup\":", fromGroup)
            Self.field(&out, ",\"toGroup\":", toGroup)
        case .focusVetoed(let from, let to, let by):
            out.append(",\"event\":\"focusVetoed\"")
            Self.field(&out, ",\"from\":", from)
            Self.field(&out, ",\"to\":", to)
            Self.field(&out, ",\"by\":", by)
        case .firstResponder(let from, let to):
            out.append(",\"event\":\"firstResponder\"")
            Self.field(&out, ",\"from\":", from)
            Self.field(&out, ",\"to\":", to)
        case .unhandled(let key):
            out.append(",\"event\":\"unhandled\"")
            Self.field(&out, ",\"key\":", key)
        case .device(let change, let name, let path, let detail):
            out.append(",\"event\":\"device\"")
            Self.field(&out, ",\"change\":", change)
            Self.field(&out, ",\"name\":", name)
            Self.field(&out, ",\"path\":", path)
            Self.field(&out, ",\"detail\":", detail)
        case .paste(let count, let responder):
            out.append(",\"event\":\"paste\",\"characters\":")
            out.append(String(count))
            Self.field(&out, ",\"responder\":", responder)
        }
        out.append("}\n")
    }

    @inline(__always)
    private static func field(_ out: inout ByteWriter, _ key: StaticString, _ value: String?) {
        out.append(key)
        if let value { out.appendJSONString(value) } else { out.append("null") }
    }

    /// The event as one JSON line, without the newline.
    public var json: String {
        var writer = ByteWriter(capacity: 256)
        writeJSON(to: &writer)
        return writer.withBytes { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    /// Seconds with six decimals and no exponent: `12.345678`.
    static func formatTime(_ t: Double) -> String {
        var writer = ByteWriter(capacity: 32)
        writer.append(seconds: t)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}

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
    /// or a device cannot drive the terminal the trace is printed on.
    public var plainDetail: String {
        rawDetail.escapingControlCharacters()
    }

    private var rawDetail: String {
        func name(_ value: String?) -> String { value ?? "none" }
        switch kind {
        case .session(let input, let scene, let layout, let note):
            return "input \(input), scene \"\(scene)\", layout \(layout)" + (note.map { " (\($0))" } ?? "")
        case .key(let phase, let key, let code, let keysym, let characters, let modifiers, let device):
            var line = "\(phase) \(key)"
            if let code { line += " (code \(code))" }
            if let keysym { line += " keysym \(keysym)" }
            if let visible = Self.visible(characters) { line += " \"\(visible)\"" }
            line += modifiers.isEmpty ? "" : " [" + modifiers.joined(separator: " ") + "]"
            return line + " on \(device)"
        case .stage(let number, let stage, let decision, let reason):
            return "\(number) \(stage): \(decision)" + (reason.isEmpty ? "" : " (\(reason))")
        case .keyCommand(let title, let action, let shortcut, let declaredBy, let responder, let priority, let isRepeat):
            let titled = title.isEmpty ? action : "\"\(title)\" (\(action))"
            return "\(shortcut) \(titled) declared by \(declaredBy ?? "global commands"), performed by \(responder)"
                + (priority ? ", priority over system keys" : "") + (isRepeat ? ", on repeat" : "")
        case .keyCommandPassedOver(let action, let shortcut, let declaredBy, let reason):
            return "\(shortcut) \(action) on \(declaredBy ?? "global commands") passed over: \(reason)"
        case .press(let phase, let key, let responder, _, let reason, let press):
            if let responder { return "\(phase) \(key) -> \(responder) (press \(press))" }
            return "\(phase) \(key) (press \(press)): \(reason ?? "nobody")"
        case .focus(let from, let to, let cause, let fromGroup, let toGroup):
            var line = "\(name(from)) -> \(name(to)) (\(cause)"
            if fromGroup != toGroup { line += ", group \(name(fromGroup)) -> \(name(toGroup))" }
            return line + ")"
        case .focusVetoed(let from, let to, let by):
            return "\(name(from)) -> \(name(to)) vetoed by \(by)"
        case .firstResponder(let from, let to):
            return "\(name(from)) -> \(name(to))"
        case .unhandled(let key):
            return key
        case .device(let change, let name, let path, let detail):
            return "\(change) \"\(name)\"" + (path.map { " \($0)" } ?? "") + (detail.map { ": \($0)" } ?? "")
        case .paste(let count, let responder):
            return "\(count) characters " + (responder.map { "into \($0)" } ?? "dropped (no text input)")
        }
    }

    /// Characters worth printing: control characters (Tab, Return, Escape) are left out.
    static func visible(_ characters: String) -> String? {
        guard let scalar = characters.unicodeScalars.first, scalar.value >= 0x20, scalar.value != 0x7f else {
            return nil
        }
        return characters
    }
}
