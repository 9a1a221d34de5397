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
        /// A key command fired.
        case keyCommand(
            title: String, action: String, shortcut: String, declaredBy: String?, responder: String, priority: Bool)
        /// A key command matched but was passed over.
        case keyCommandPassedOver(action: String, shortcut: String, declaredBy: String?, reason: String)
        /// A press phase went to a responder (`responder`), or to a non-responder owner (`owner`).
        case press(phase: String, key: String, responder: String?, owner: String?, press: UInt64)
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
        }
    }
}

// MARK: JSON

extension TraceEvent {
    /// Appends the event as one JSON object and a newline.
    ///
    /// - Parameter out: The buffer.
    public func appendJSON(to out: inout [UInt8]) {
        var json = JSONObjectWriter()
        // The buffer moves into the writer and back: no copy.
        swap(&json.out, &out)
        defer { swap(&json.out, &out) }
        json.field("t", raw: Self.formatTime(t))
        json.field("event", name)
        switch kind {
        case .session(let input, let scene, let layout, let note):
            json.field("input", input)
            json.field("scene", scene)
            json.field("layout", layout)
            json.field("note", note)
        case .key(let phase, let key, let code, let keysym, let characters, let modifiers, let device):
            json.field("phase", phase)
            json.field("key", key)
            json.field("code", raw: code.map { String($0) } ?? "null")
            json.field("keysym", keysym)
            json.field("characters", characters)
            json.field("modifiers", modifiers)
            json.field("device", device)
        case .stage(let number, let stage, let decision, let reason):
            json.field("number", raw: String(number))
            json.field("stage", stage)
            json.field("decision", decision)
            json.field("reason", reason)
        case .keyCommand(let title, let action, let shortcut, let declaredBy, let responder, let priority):
            json.field("title", title)
            json.field("action", action)
            json.field("shortcut", shortcut)
            json.field("declaredBy", declaredBy)
            json.field("responder", responder)
            json.field("priority", raw: priority ? "true" : "false")
        case .keyCommandPassedOver(let action, let shortcut, let declaredBy, let reason):
            json.field("action", action)
            json.field("shortcut", shortcut)
            json.field("declaredBy", declaredBy)
            json.field("reason", reason)
        case .press(let phase, let key, let responder, let owner, let press):
            json.field("phase", phase)
            json.field("key", key)
            json.field("responder", responder)
            json.field("owner", owner)
            json.field("press", raw: String(press))
        case .focus(let from, let to, let cause, let fromGroup, let toGroup):
            json.field("from", from)
            json.field("to", to)
            json.field("cause", cause)
            json.field("fromGroup", fromGroup)
            json.field("toGroup", toGroup)
        case .focusVetoed(let from, let to, let by):
            json.field("from", from)
            json.field("to", to)
            json.field("by", by)
        case .firstResponder(let from, let to):
            json.field("from", from)
            json.field("to", to)
        case .unhandled(let key):
            json.field("key", key)
        case .device(let change, let name, let path, let detail):
            json.field("change", change)
            json.field("name", name)
            json.field("path", path)
            json.field("detail", detail)
        }
        json.close()
        json.out.append(UInt8(ascii: "\n"))
    }

    /// The event as one JSON line, without the newline.
    public var json: String {
        var bytes: [UInt8] = []
        appendJSON(to: &bytes)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Seconds with six decimals and no exponent: `12.345678`.
    static func formatTime(_ t: Double) -> String {
        let micro = Int((t * 1_000_000).rounded())
        let sign = micro < 0 ? "-" : ""
        let magnitude = micro.magnitude
        let fraction = String(magnitude % 1_000_000)
        return sign + String(magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.utf8.count)
            + fraction
    }
}

/// Writes one JSON object into a byte buffer, field by field.
struct JSONObjectWriter {
    var out: [UInt8] = []
    private var first = true

    private mutating func key(_ name: StaticString) {
        out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        first = false
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func field(_ name: StaticString, raw: String) {
        key(name)
        out.append(contentsOf: raw.utf8)
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        guard let value else {
            out.append(contentsOf: "null".utf8)
            return
        }
        Self.appendString(value, to: &out)
    }

    mutating func field(_ name: StaticString, _ values: [String]) {
        key(name)
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.appendString(value, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    mutating func close() {
        if first { out.append(UInt8(ascii: "{")) }
        out.append(UInt8(ascii: "}"))
    }

    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20, 0x7f:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0xf)],
                ])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
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

    /// The details part of ``plainLine``.
    public var plainDetail: String {
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
        case .keyCommand(let title, let action, let shortcut, let declaredBy, let responder, let priority):
            let titled = title.isEmpty ? action : "\"\(title)\" (\(action))"
            return "\(shortcut) \(titled) declared by \(declaredBy ?? "global commands"), performed by \(responder)"
                + (priority ? ", priority over system keys" : "")
        case .keyCommandPassedOver(let action, let shortcut, let declaredBy, let reason):
            return "\(shortcut) \(action) on \(declaredBy ?? "global commands") passed over: \(reason)"
        case .press(let phase, let key, let responder, let owner, let press):
            if let responder { return "\(phase) \(key) -> \(responder) (press \(press))" }
            return "\(phase) \(key) (press \(press)): \(owner ?? "nobody")"
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
