internal import ResponderChain

// MARK: Reading JSON lines

extension TraceEvent {
    /// The longest line ``init(jsonLine:)-([UInt8])`` reads, in bytes (1 MiB): a longer one is an error,
    /// not a line worth holding in memory.
    public static let maximumLineLength = 1 << 20

    /// The largest time, in seconds either way, that a line may carry (2^33 s, about 272 years):
    /// times are kept to the microsecond, and this keeps every microsecond exact.
    public static let maximumTime = Double(1 << 33)

    /// The `event` names this reader knows, in the order of docs/json-lines.md.
    public static let eventNames = [
        "session", "key", "stage", "keyCommand", "keyCommandPassedOver", "press", "focus", "focusVetoed",
        "firstResponder", "unhandled", "device", "paste", "pointer", "announce",
    ]

    /// Reads one JSON line as ``writeJSON(to:)`` writes it (what `keytrace --json` and an app's
    /// `--trace FILE` write): the inverse of ``json``.
    ///
    /// Fields the event does not use are ignored, so a newer writer may add fields; an event
    /// name this reader does not know, or a `session` event of another ``schemaVersion``, is an
    /// error. Fields written for readers and derived from others are not read: a `key` event's
    /// `key` (its `code` names the key), a `stage` event's `number` (its `stage` does). A key
    /// whose `code` is `null`, and a `key` or `shortcut` that is `•`, is
    /// ``Redactable/redacted``. `t` is kept to the microsecond, as it is written. A trailing
    /// newline is allowed.
    ///
    /// - Parameter line: The line's UTF-8 bytes, at most ``maximumLineLength``.
    /// - Throws: ``TraceDecodingError`` naming the field, what it should hold, or the version or
    ///   event name this reader does not know.
    public init(jsonLine line: [UInt8]) throws(TraceDecodingError) {
        guard line.count <= Self.maximumLineLength else {
            throw TraceDecodingError(
                .lineTooLong,
                message: "the line is \(line.count) bytes long; a trace line has at most \(Self.maximumLineLength)"
                    + " (is this a keytrace --json trace?)")
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes: line) } catch {
            throw TraceDecodingError(
                .syntax, column: error.column,
                message: "column \(error.column): \(error.message) (a trace line is one JSON object)")
        }
        guard case .object(let members) = value.kind else {
            throw TraceDecodingError(
                .notAnObject, expected: "an object",
                message: "the line is \(value.typeName); a trace line is one JSON object, such as {\"t\":0,\"event\":…}"
            )
        }
        let fields = Fields(members: members)
        let t = try fields.time()
        let event = try fields.string("event")
        self.init(t: t, try fields.kind(event: event))
    }

    /// Reads one JSON line; see ``init(jsonLine:)-([UInt8])``.
    ///
    /// - Parameter line: The line, at most ``maximumLineLength`` bytes of UTF-8.
    /// - Throws: ``TraceDecodingError`` naming the field, what it should hold, or the version or
    ///   event name this reader does not know.
    public init(jsonLine line: String) throws(TraceDecodingError) {
        try self.init(jsonLine: Array(line.utf8))
    }
}

/// A line's fields, read with the checks and the messages of ``TraceDecodingError``.
private struct Fields {
    var members: [(key: String, value: JSONValue)]

    func value(_ name: String) -> JSONValue? {
        members.first { $0.key == name }?.value
    }

    func missing(_ name: String, _ expected: String) -> TraceDecodingError {
        TraceDecodingError(
            .missingField, field: name, expected: expected,
            message: "field \"\(name)\" is missing; it holds \(expected)")
    }

    func wrongType(_ name: String, _ value: JSONValue, _ expected: String) -> TraceDecodingError {
        TraceDecodingError(
            .wrongType, field: name, expected: expected,
            message: "field \"\(name)\" is \(value.typeName); expected \(expected)")
    }

    func invalid(_ name: String, _ shown: String, _ expected: String) -> TraceDecodingError {
        TraceDecodingError(
            .invalidValue, field: name, expected: expected,
            message: "field \"\(name)\" is \(shown); expected \(expected)")
    }

    func string(_ name: String) throws(TraceDecodingError) -> String {
        guard let value = value(name) else { throw missing(name, "a string") }
        guard case .string(let text) = value.kind else { throw wrongType(name, value, "a string") }
        return text
    }

    /// A string or `null`; a missing field is `null`.
    func optionalString(_ name: String) throws(TraceDecodingError) -> String? {
        guard let value = value(name) else { return nil }
        switch value.kind {
        case .string(let text): return text
        case .null: return nil
        default: throw wrongType(name, value, "a string or null")
        }
    }

    func bool(_ name: String) throws(TraceDecodingError) -> Bool {
        guard let value = value(name) else { throw missing(name, "true or false") }
        guard case .bool(let flag) = value.kind else { throw wrongType(name, value, "true or false") }
        return flag
    }

    /// An integer written without a fraction or exponent, within `range`.
    func integer(_ name: String, in range: ClosedRange<Int64>, _ expected: String) throws(TraceDecodingError) -> Int64 {
        guard let value = value(name) else { throw missing(name, expected) }
        return try integer(name, value, in: range, expected)
    }

    func integer(
        _ name: String, _ value: JSONValue, in range: ClosedRange<Int64>, _ expected: String
    ) throws(TraceDecodingError) -> Int64 {
        guard case .number(_, let text) = value.kind else { throw wrongType(name, value, expected) }
        guard let number = Int64(text), range.contains(number) else { throw invalid(name, text, expected) }
        return number
    }

    /// A string naming one of `cases` by its raw value.
    func named<Value: RawRepresentable & CaseIterable>(
        _ name: String, _ type: Value.Type
    ) throws(TraceDecodingError) -> Value where Value.RawValue == String {
        let text = try string(name)
        guard let value = Value(rawValue: text) else {
            throw invalid(name, quoted(text), "one of " + Value.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }

    /// A key name (`KeyA`, `KEY_OK`, `evdev700`), or `•` for a redacted key.
    func key(_ name: String) throws(TraceDecodingError) -> TraceEvent.Redactable<KeyCode> {
        let text = try string(name)
        if text == "•" { return .redacted }
        guard let code = KeyCode(name: text) else {
            throw invalid(name, quoted(text), "a key name (KeyA, ArrowLeft, KEY_OK, evdev700) or •")
        }
        return .value(code)
    }

    /// A shortcut as scene files write it, or `•` for a redacted one.
    func shortcut() throws(TraceDecodingError) -> TraceEvent.Redactable<String> {
        let text = try string("shortcut")
        return text == "•" ? .redacted : .value(text)
    }

    func quoted(_ text: String) -> String {
        "\"" + (text.utf8.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
    }

    /// A coordinate: a number within ±2^33, kept to the microsecond as it is written, or `null`
    /// (redacted).
    func coordinate(_ name: String) throws(TraceDecodingError) -> Double? {
        let expected = "a number, or null when redacted"
        guard let value = value(name) else { throw missing(name, expected) }
        switch value.kind {
        case .null: return nil
        case .number(let number, let text):
            guard number.magnitude <= TraceEvent.maximumTime else { throw invalid(name, text, expected) }
            return (number * 1_000_000).rounded() / 1_000_000
        default: throw wrongType(name, value, expected)
        }
    }

    /// `t`: a number of seconds, kept to the microsecond as it is written.
    func time() throws(TraceDecodingError) -> Double {
        let expected = "a number of seconds"
        guard let value = value("t") else { throw missing("t", expected) }
        guard case .number(let seconds, let text) = value.kind else { throw wrongType("t", value, expected) }
        guard seconds.magnitude <= TraceEvent.maximumTime else {
            throw invalid(
                "t", text, "seconds from -\(Int(TraceEvent.maximumTime)) to \(Int(TraceEvent.maximumTime))")
        }
        return (seconds * 1_000_000).rounded() / 1_000_000
    }

    func kind(event: String) throws(TraceDecodingError) -> TraceEvent.Kind {
        switch event {
        case "session":
            try checkVersion()
            return .session(
                input: try string("input"), scene: try string("scene"), layout: try string("layout"),
                note: try optionalString("note"))
        case "key":
            return .key(try keyAction(), try keyDetails(), device: try string("device"))
        case "stage":
            return .stage(
                try named("stage", DispatchStage.self), try named("decision", StageOutcome.self),
                reason: try string("reason"))
        case "keyCommand":
            return .keyCommand(
                title: try string("title"), action: Action(try string("action")), shortcut: try shortcut(),
                declaredBy: try optionalString("declaredBy"), responder: try string("responder"),
                priority: try bool("priority"), isRepeat: try bool("repeat"))
        case "keyCommandPassedOver":
            return .keyCommandPassedOver(
                action: Action(try string("action")), shortcut: try shortcut(),
                declaredBy: try optionalString("declaredBy"), reason: try string("reason"))
        case "press":
            let id = try integer("press", in: Int64.min...Int64.max, "an integer (the press's number)")
            return .press(
                try pressPhase(), key: try key("key"), to: try pressRecipient(),
                press: PressID(rawValue: UInt64(bitPattern: id)))
        case "focus":
            return .focus(
                from: try optionalString("from"), to: try optionalString("to"),
                cause: try named("cause", FocusUpdateCause.self), fromGroup: try optionalString("fromGroup"),
                toGroup: try optionalString("toGroup"))
        case "focusVetoed":
            return .focusVetoed(from: try optionalString("from"), to: try optionalString("to"), by: try string("by"))
        case "firstResponder":
            return .firstResponder(from: try optionalString("from"), to: try optionalString("to"))
        case "unhandled":
            return .unhandled(try key("key"))
        case "device":
            return .device(
                try named("change", TraceEvent.DeviceChange.self), name: try string("name"),
                path: try optionalString("path"), detail: try optionalString("detail"))
        case "paste":
            let count = try integer("characters", in: 0...Int64(Int.max), "a count of characters from 0")
            return .paste(characters: Int(count), responder: try optionalString("responder"))
        case "pointer":
            let contact = try integer("contact", in: -1...Int64(Int32.max), "a contact id from -1")
            let x = try coordinate("x")
            let y = try coordinate("y")
            let position: TraceEvent.Redactable<Point>
            switch (x, y) {
            case (let x?, let y?): position = .value(Point(x: x, y: y))
            case (nil, nil): position = .redacted
            default: throw invalid("y", "null beside a number", "both x and y numbers, or both null (redacted)")
            }
            func redactable(_ name: String) throws(TraceDecodingError) -> TraceEvent.Redactable<String>? {
                try optionalString(name).map { $0 == "•" ? .redacted : .value($0) }
            }
            return .pointer(
                TraceEvent.Pointer(
                    phase: try named("phase", PointerEvent.Phase.self), kind: try named("kind", PointerEvent.Kind.self),
                    contact: Int(contact), position: position, device: try string("device"),
                    item: try redactable("item"), outcome: try redactable("outcome")))
        case "announce":
            let text = try optionalString("text")
            return .announce(
                text: text.map { $0 == "•" ? .redacted : .value($0) } ?? .redacted, kind: try string("kind"),
                priority: try string("priority"))
        default:
            throw TraceDecodingError(
                .unknownEvent, field: "event", expected: "one of " + TraceEvent.eventNames.joined(separator: ", "),
                message: "unknown event \(quoted(event)); this reader knows "
                    + TraceEvent.eventNames.joined(separator: ", ")
                    + " (a newer writer's event: read it with a newer reader)")
        }
    }

    /// The `session` event's `version`: this reader reads ``TraceEvent/schemaVersion`` only.
    func checkVersion() throws(TraceDecodingError) {
        let current = TraceEvent.schemaVersion
        let expected = "the schema version, \(current)"
        guard let value = value("version") else {
            throw TraceDecodingError(
                .missingField, field: "version", expected: expected,
                message: "field \"version\" is missing from the session event; this reader reads version \(current)"
                    + " (write the trace with a keytrace that writes it)")
        }
        let version = try integer("version", value, in: Int64(Int.min)...Int64(Int.max), expected)
        guard version == current else {
            throw TraceDecodingError(
                .unknownVersion, field: "version", expected: expected, version: Int(version),
                message: "the trace's version \(version) is not known; this reader reads version \(current)"
                    + (version > current ? " (read it with a newer reader)" : " (write it again with this keytrace)"))
        }
    }

    func keyAction() throws(TraceDecodingError) -> KeyAction {
        let text = try string("phase")
        switch text {
        case "down": return .down
        case "repeat": return .repeat
        case "up": return .up
        default: throw invalid("phase", quoted(text), "down, repeat or up")
        }
    }

    func pressPhase() throws(TraceDecodingError) -> Press.Phase {
        let text = try string("phase")
        switch text {
        case "began": return .began
        case "changed": return .changed
        case "repeat": return .repeated
        case "ended": return .ended
        case "cancelled": return .cancelled
        default: throw invalid("phase", quoted(text), "began, changed, repeat, ended or cancelled")
        }
    }

    /// A `key` event's key: `code` an integer, or `null` for a redacted key.
    func keyDetails() throws(TraceDecodingError) -> TraceEvent.Redactable<TraceEvent.KeyDetails> {
        let expected = "a key code from 0 to 65535, or null for a redacted key"
        guard let codeValue = value("code") else { throw missing("code", expected) }
        if case .null = codeValue.kind { return .redacted }
        let code = KeyCode(rawValue: UInt16(try integer("code", codeValue, in: 0...Int64(UInt16.max), expected)))
        return .value(
            TraceEvent.KeyDetails(
                code: code, keysym: try optionalString("keysym"), characters: try string("characters"),
                modifierFlags: try modifiers()))
    }

    /// `modifiers`: an array of modifier names.
    func modifiers() throws(TraceDecodingError) -> ModifierFlags {
        let names = TraceEvent.modifierTextNames.map(\.1)
        let expected = "an array of modifier names (" + names.joined(separator: ", ") + ")"
        guard let value = value("modifiers") else { throw missing("modifiers", expected) }
        guard case .array(let elements) = value.kind else { throw wrongType("modifiers", value, expected) }
        var flags = ModifierFlags()
        for element in elements {
            guard case .string(let text) = element.kind else { throw wrongType("modifiers", element, expected) }
            guard let index = names.firstIndex(of: text) else { throw invalid("modifiers", quoted(text), expected) }
            flags.insert(TraceEvent.modifierTextNames[index].0)
        }
        return flags
    }

    /// A press's `responder`, or its `owner` stage and `reason`.
    func pressRecipient() throws(TraceDecodingError) -> TraceEvent.PressRecipient {
        if let responder = try optionalString("responder") {
            guard try optionalString("owner") == nil else {
                throw invalid(
                    "owner", "set with a responder",
                    "null when the press goes to a responder (a press goes to a responder or to an owner)")
            }
            return .responder(responder)
        }
        return .owner(try named("owner", DispatchStage.self), reason: try string("reason"))
    }
}
