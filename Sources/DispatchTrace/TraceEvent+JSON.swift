internal import ResponderChain

// MARK: JSON lines

extension TraceEvent {
    /// Appends the event as one JSON object and a newline: keytrace's `--json`, the schema in
    /// docs/json-lines.md. A redacted value is written `•` (a key's `code` `null`), as the dispatcher
    /// marks keys typed into a secure text input.
    ///
    /// - Parameter out: The buffer.
    public func writeJSON(to out: inout ByteWriter) {
        out.append("{\"t\":")
        out.append(seconds: t)
        switch kind {
        case .session(let input, let scene, let layout, let note):
            out.append(",\"event\":\"session\",\"version\":")
            out.append(decimal: Self.schemaVersion)
            Self.field(&out, ",\"input\":", input)
            Self.field(&out, ",\"scene\":", scene)
            Self.field(&out, ",\"layout\":", layout)
            Self.field(&out, ",\"note\":", note)
        case .key(let action, let key, let device):
            out.append(",\"event\":\"key\",\"phase\":")
            out.append(action.jsonName)
            switch key {
            case .value(let key):
                Self.field(&out, ",\"key\":", key.code.name)
                out.append(",\"code\":")
                out.append(decimal: Int(key.code.rawValue))
                Self.field(&out, ",\"keysym\":", key.keysym)
                Self.field(&out, ",\"characters\":", key.characters)
                out.append(",\"modifiers\":[")
                Self.writeModifiers(key.modifierFlags, to: &out)
                out.append(UInt8(ascii: "]"))
            case .redacted:
                out.append(",\"key\":\"•\",\"code\":null,\"keysym\":\"•\",\"characters\":\"•\",\"modifiers\":[]")
            }
            Self.field(&out, ",\"device\":", device)
        case .stage(let stage, let outcome, let reason):
            out.append(",\"event\":\"stage\",\"number\":")
            out.append(decimal: stage.number)
            Self.field(&out, ",\"stage\":", stage.rawValue)
            Self.field(&out, ",\"decision\":", outcome.rawValue)
            Self.field(&out, ",\"reason\":", reason)
        case .keyCommand(let title, let action, let shortcut, let declaredBy, let responder, let priority, let isRepeat):
            out.append(",\"event\":\"keyCommand\"")
            Self.field(&out, ",\"title\":", title)
            Self.field(&out, ",\"action\":", action.rawValue)
            Self.field(&out, ",\"shortcut\":", shortcut)
            Self.field(&out, ",\"declaredBy\":", declaredBy)
            Self.field(&out, ",\"responder\":", responder)
            out.append(priority ? ",\"priority\":true" : ",\"priority\":false")
            out.append(isRepeat ? ",\"repeat\":true" : ",\"repeat\":false")
        case .keyCommandPassedOver(let action, let shortcut, let declaredBy, let reason):
            out.append(",\"event\":\"keyCommandPassedOver\"")
            Self.field(&out, ",\"action\":", action.rawValue)
            Self.field(&out, ",\"shortcut\":", shortcut)
            Self.field(&out, ",\"declaredBy\":", declaredBy)
            Self.field(&out, ",\"reason\":", reason)
        case .press(let phase, let key, let recipient, let press):
            out.append(",\"event\":\"press\",\"phase\":")
            out.append(phase.jsonName)
            Self.field(&out, ",\"key\":", key)
            switch recipient {
            case .responder(let responder):
                Self.field(&out, ",\"responder\":", responder)
                out.append(",\"owner\":null,\"reason\":null")
            case .owner(let stage, let reason):
                out.append(",\"responder\":null")
                Self.field(&out, ",\"owner\":", stage.rawValue)
                Self.field(&out, ",\"reason\":", reason)
            }
            out.append(",\"press\":")
            out.append(decimal: Int(truncatingIfNeeded: press.rawValue))
        case .focus(let from, let to, let cause, let fromGroup, let toGroup):
            out.append(",\"event\":\"focus\"")
            Self.field(&out, ",\"from\":", from)
            Self.field(&out, ",\"to\":", to)
            Self.field(&out, ",\"cause\":", cause.rawValue)
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
            Self.field(&out, ",\"change\":", change.rawValue)
            Self.field(&out, ",\"name\":", name)
            Self.field(&out, ",\"path\":", path)
            Self.field(&out, ",\"detail\":", detail)
        case .paste(let count, let responder):
            out.append(",\"event\":\"paste\",\"characters\":")
            out.append(decimal: count)
            Self.field(&out, ",\"responder\":", responder)
        case .pointer(let pointer):
            out.append(",\"event\":\"pointer\"")
            Self.field(&out, ",\"phase\":", pointer.phase.rawValue)
            Self.field(&out, ",\"kind\":", pointer.kind.rawValue)
            out.append(",\"contact\":")
            out.append(decimal: pointer.contact)
            switch pointer.position {
            case .value(let point):
                out.append(",\"x\":")
                out.append(seconds: point.x)
                out.append(",\"y\":")
                out.append(seconds: point.y)
            case .redacted:
                out.append(",\"x\":null,\"y\":null")
            }
            Self.field(&out, ",\"device\":", pointer.device)
            Self.field(&out, ",\"item\":", pointer.item)
            Self.field(&out, ",\"outcome\":", pointer.outcome)
        case .announce(let text, let kind, let priority):
            out.append(",\"event\":\"announce\"")
            Self.field(&out, ",\"kind\":", kind)
            Self.field(&out, ",\"priority\":", priority)
            Self.field(&out, ",\"text\":", text)
        }
        out.append("}\n")
    }

    @inline(__always)
    private static func field(_ out: inout ByteWriter, _ key: StaticString, _ value: String?) {
        out.append(key)
        if let value { out.appendJSONString(value) } else { out.append("null") }
    }

    @inline(__always)
    private static func field(_ out: inout ByteWriter, _ key: StaticString, _ value: Redactable<String>) {
        out.append(key)
        switch value {
        case .value(let value): out.appendJSONString(value)
        case .redacted: out.append("\"•\"")
        }
    }

    @inline(__always)
    private static func field(_ out: inout ByteWriter, _ key: StaticString, _ value: Redactable<String>?) {
        guard let value else {
            out.append(key)
            out.append("null")
            return
        }
        field(&out, key, value)
    }

    @inline(__always)
    private static func field(_ out: inout ByteWriter, _ key: StaticString, _ value: Redactable<KeyCode>) {
        out.append(key)
        switch value {
        case .value(let code): out.appendJSONString(code.name)
        case .redacted: out.append("\"•\"")
        }
    }

    /// `"ctrl","shift"`: the names in `ModifierFlags`'s description order.
    private static func writeModifiers(_ flags: ModifierFlags, to out: inout ByteWriter) {
        var first = true
        for (flag, name) in modifierNames where flags.contains(flag) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(name)
        }
    }

    /// The modifier flags and their quoted JSON names, in `ModifierFlags`'s
    /// description order (`ctrl+alt+shift+cmd+capsLock+numpad`).
    static let modifierNames: [(ModifierFlags, StaticString)] = [
        (.control, "\"ctrl\""), (.alternate, "\"alt\""), (.shift, "\"shift\""), (.command, "\"cmd\""),
        (.alphaShift, "\"capsLock\""), (.numericPad, "\"numpad\""),
    ]

    /// The modifier flags and their names, as `modifierNames` without the quotes.
    static let modifierTextNames: [(ModifierFlags, String)] = [
        (.control, "ctrl"), (.alternate, "alt"), (.shift, "shift"), (.command, "cmd"), (.alphaShift, "capsLock"),
        (.numericPad, "numpad"),
    ]

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

extension KeyAction {
    /// `"down"`, `"repeat"` or `"up"`, quoted.
    var jsonName: StaticString {
        switch self {
        case .down: return "\"down\""
        case .repeat: return "\"repeat\""
        case .up: return "\"up\""
        }
    }
}

extension Press.Phase {
    /// The phase's description, quoted.
    var jsonName: StaticString {
        switch self {
        case .began: return "\"began\""
        case .changed: return "\"changed\""
        case .repeated: return "\"repeat\""
        case .ended: return "\"ended\""
        case .cancelled: return "\"cancelled\""
        }
    }
}
