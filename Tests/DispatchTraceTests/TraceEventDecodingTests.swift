import DispatchTrace
import Foundation
import ResponderChain
import Testing

/// A deterministic SplitMix64, so that a failing round trip fails again with the same values.
struct TraceRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random events of every kind, with strings that hold control characters, C1 controls,
/// quotes, backslashes and text beyond ASCII.
struct TraceEventGenerator {
    var random: TraceRandom

    static let scalars: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\r", "\u{1B}", "\u{1F}", "\u{7F}",
        "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "é", "ß", "•", "中", "\u{2028}", "\u{FEFF}", "😀", "\u{10FFFF}",
    ]

    mutating func string() -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            text.append(Self.scalars.randomElement(using: &random)!)
        }
        return String(text)
    }

    mutating func optional() -> String? { Bool.random(using: &random) ? string() : nil }

    mutating func bool() -> Bool { Bool.random(using: &random) }

    mutating func time() -> Double {
        Double(Int64.random(in: -1_000_000_000_000_000...1_000_000_000_000_000, using: &random)) / 1_000_000
    }

    mutating func code() -> KeyCode { KeyCode(rawValue: UInt16.random(in: 0...UInt16.max, using: &random)) }

    mutating func key() -> TraceEvent.Redactable<KeyCode> {
        Int.random(in: 0..<5, using: &random) == 0 ? .redacted : .value(code())
    }

    /// A shortcut: `•` alone reads back as redacted, so a shown one is never just `•`.
    mutating func shortcut() -> TraceEvent.Redactable<String> {
        if Int.random(in: 0..<5, using: &random) == 0 { return .redacted }
        let text = string()
        return .value(text == "•" ? "ctrl+•" : text)
    }

    mutating func stage() -> DispatchStage { DispatchStage.allCases.randomElement(using: &random)! }

    mutating func modifiers() -> ModifierFlags {
        let all: [ModifierFlags] = [.control, .alternate, .shift, .command, .alphaShift, .numericPad]
        return all.reduce(into: []) { flags, flag in if bool() { flags.insert(flag) } }
    }

    mutating func event(kind index: Int) -> TraceEvent {
        let kind: TraceEvent.Kind
        switch index {
        case 0: kind = .session(input: string(), scene: string(), layout: string(), note: optional())
        case 1:
            let details: TraceEvent.Redactable<TraceEvent.KeyDetails> =
                Int.random(in: 0..<4, using: &random) == 0
                ? .redacted
                : .value(
                    TraceEvent.KeyDetails(
                        code: code(), keysym: optional(), characters: string(), modifierFlags: modifiers()))
            kind = .key([KeyAction.down, .repeat, .up].randomElement(using: &random)!, details, device: string())
        case 2: kind = .stage(stage(), StageOutcome.allCases.randomElement(using: &random)!, reason: string())
        case 3:
            kind = .keyCommand(
                title: string(), action: Action(string()), shortcut: shortcut(), declaredBy: optional(),
                responder: string(), priority: bool(), isRepeat: bool())
        case 4:
            kind = .keyCommandPassedOver(
                action: Action(string()), shortcut: shortcut(), declaredBy: optional(), reason: string())
        case 5:
            let phases: [Press.Phase] = [.began, .changed, .repeated, .ended, .cancelled]
            kind = .press(
                phases.randomElement(using: &random)!, key: key(),
                to: bool() ? .responder(string()) : .owner(stage(), reason: string()),
                press: PressID(rawValue: UInt64.random(in: 0...UInt64.max, using: &random)))
        case 6:
            kind = .focus(
                from: optional(), to: optional(), cause: FocusUpdateCause.allCases.randomElement(using: &random)!,
                fromGroup: optional(), toGroup: optional())
        case 7: kind = .focusVetoed(from: optional(), to: optional(), by: string())
        case 8: kind = .firstResponder(from: optional(), to: optional())
        case 9: kind = .unhandled(key())
        case 10:
            kind = .device(
                TraceEvent.DeviceChange.allCases.randomElement(using: &random)!, name: string(), path: optional(),
                detail: optional())
        case 11: kind = .paste(characters: Int.random(in: 0...Int.max, using: &random), responder: optional())
        case 13:
            let text = string()
            kind = .announce(
                text: bool() ? .redacted : .value(text == "•" ? "said •" : text), kind: string(), priority: string())
        default:
            // `•` alone reads back as redacted, so a shown item or outcome is never just `•`.
            func shown() -> TraceEvent.Redactable<String>? {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: return nil
                case 1: return .redacted
                default:
                    let text = string()
                    return .value(text == "•" ? "item •" : text)
                }
            }
            kind = .pointer(
                TraceEvent.Pointer(
                    phase: PointerEvent.Phase.allCases.randomElement(using: &random)!,
                    kind: PointerEvent.Kind.allCases.randomElement(using: &random)!,
                    contact: Int.random(in: -1...Int(Int32.max), using: &random),
                    position: bool() ? .redacted : .value(Point(x: time(), y: time())), device: string(),
                    item: shown(), outcome: shown()))
        }
        return TraceEvent(t: time(), kind)
    }
}

@Suite struct TraceEventDecodingTests {
    @Test("every event kind, with random values, reads back equal from its JSON line", arguments: 0..<14)
    func roundTrip(kind: Int) throws {
        var generator = TraceEventGenerator(random: TraceRandom(state: UInt64(kind) &* 7919))
        for _ in 0..<400 {
            let event = generator.event(kind: kind)
            let line = event.json
            let decoded = try TraceEvent(jsonLine: line)
            #expect(decoded == event, "\(line)")
            #expect(decoded.json == line)
            var writer = ByteWriter()
            event.writeJSON(to: &writer)
            let bytes = writer.withBytes { Array($0) }
            #expect(try TraceEvent(jsonLine: bytes) == event, "with its newline")
        }
        #expect(TraceEvent.eventNames[kind] == generator.event(kind: kind).name)
    }

    @Test("every key code's name reads back as that code")
    func keyNames() {
        var wrong: [UInt16] = []
        for raw in 0...UInt16.max {
            let code = KeyCode(rawValue: raw)
            if KeyCode(name: code.name) != code { wrong.append(raw) }
        }
        #expect(wrong.isEmpty)
    }

    @Test(
        "keytrace's golden traces read back, and write again byte for byte", arguments: ["demo-keys", "replay-typing"])
    func golden(name: String) throws {
        // keytrace's golden traces, kept with its end-to-end tests.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("EndToEndTests/Golden/\(name).jsonl")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count > 10)
        for line in lines {
            let event = try TraceEvent(jsonLine: line)
            #expect(event.json == line)
        }
    }

    @Test("fields a reader does not use are ignored; derived fields are not read; missing optional fields are null")
    func lenient() throws {
        let event = try TraceEvent(
            jsonLine: #"{"t":1.5,"event":"unhandled","key":"KeyA","added":{"later":[1,2,null]},"number":"x"}"#)
        #expect(event == TraceEvent(t: 1.5, .unhandled(.value(.a))))
        let key = try TraceEvent(
            jsonLine:
                #"{"t":0,"event":"key","phase":"up","key":"whatever","code":30,"characters":"","modifiers":[],"device":"d"}"#
        )
        #expect(
            key.kind == .key(.up, .value(.init(code: .a, keysym: nil, characters: "", modifierFlags: [])), device: "d"))
        let redacted = try TraceEvent(
            jsonLine: #"{"t":0,"event":"key","phase":"down","key":"•","code":null,"device":"d"}"#)
        #expect(redacted.kind == .key(.down, .redacted, device: "d"))
        let stage = try TraceEvent(
            jsonLine: #"{"t":0,"event":"stage","stage":"textInput","decision":"took","reason":""}"#)
        #expect(stage.kind == .stage(.textInput, .took, reason: ""))
        let time = try TraceEvent(jsonLine: #"{"t":1.23456789,"event":"firstResponder"}"#)
        #expect(time == TraceEvent(t: 1.234568, .firstResponder(from: nil, to: nil)), "kept to the microsecond")
        #expect(time.json == #"{"t":1.234568,"event":"firstResponder","from":null,"to":null}"#)
    }

    @Test(
        "a line that is not a trace event is an error naming its problem, the field and what it should hold",
        arguments: [
            ("[1,2]", TraceDecodingError.Code.notAnObject, nil, "is an array"),
            (#"{"t":1,"event":"key""#, .syntax, nil, "column 21"),
            (#"{"t":1,"event":"bogus"}"#, .unknownEvent, "event", #"unknown event "bogus"; this reader knows session"#),
            (#"{"event":"unhandled","key":"KeyA"}"#, .missingField, "t", #"field "t" is missing"#),
            (
                #"{"t":"1","event":"unhandled","key":"KeyA"}"#, .wrongType, "t",
                #"field "t" is a string; expected a number"#
            ),
            (#"{"t":1e300,"event":"unhandled","key":"KeyA"}"#, .invalidValue, "t", "seconds from -8589934592"),
            (#"{"t":1,"event":7}"#, .wrongType, "event", #"field "event" is a number; expected a string"#),
            (#"{"t":1,"event":"unhandled","key":"KeyQQ"}"#, .invalidValue, "key", "expected a key name"),
            (#"{"t":1,"event":"unhandled"}"#, .missingField, "key", #"field "key" is missing; it holds a string"#),
            (
                #"{"t":1,"event":"key","phase":"sideways","code":30,"characters":"","modifiers":[],"device":"d"}"#,
                .invalidValue, "phase", "expected down, repeat or up"
            ),
            (
                #"{"t":1,"event":"key","phase":"up","code":70000,"characters":"","modifiers":[],"device":"d"}"#,
                .invalidValue, "code", "expected a key code from 0 to 65535"
            ),
            (
                #"{"t":1,"event":"key","phase":"up","code":3.5,"characters":"","modifiers":[],"device":"d"}"#,
                .invalidValue, "code", "is 3.5"
            ),
            (
                #"{"t":1,"event":"key","phase":"up","code":30,"characters":"","modifiers":["hyper"],"device":"d"}"#,
                .invalidValue, "modifiers", "ctrl, alt, shift, cmd, capsLock, numpad"
            ),
            (
                #"{"t":1,"event":"key","phase":"up","code":30,"characters":"","modifiers":"ctrl","device":"d"}"#,
                .wrongType, "modifiers", "is a string; expected an array of modifier names"
            ),
            (
                #"{"t":1,"event":"stage","stage":"nowhere","decision":"took","reason":""}"#, .invalidValue, "stage",
                "one of reservedShortcuts, priorityKeyCommands"
            ),
            (
                #"{"t":1,"event":"keyCommand","title":"","action":"a","shortcut":"x","responder":"r","priority":1,"repeat":false}"#,
                .wrongType, "priority", "expected true or false"
            ),
            (
                #"{"t":1,"event":"press","phase":"began","key":"Tab","responder":"a","owner":"presses","press":1}"#,
                .invalidValue, "owner", "a press goes to a responder or to an owner"
            ),
            (#"{"t":1,"event":"paste","characters":-1}"#, .invalidValue, "characters", "a count of characters"),
            (#"{"t":1,"event":"device","change":"exploded","name":""}"#, .invalidValue, "change", "one of added"),
            (
                #"{"t":0,"event":"session","input":"keys","scene":"s","layout":"us","note":null}"#, .missingField,
                "version", "this reader reads version 1"
            ),
            (
                #"{"t":0,"event":"session","version":2,"input":"keys","scene":"s","layout":"us","note":null}"#,
                .unknownVersion, "version", "the trace's version 2 is not known; this reader reads version 1"
            ),
            (
                #"{"t":0,"event":"session","version":"1","input":"keys","scene":"s","layout":"us"}"#, .wrongType,
                "version", "expected the schema version, 1"
            ),
        ] as [(String, TraceDecodingError.Code, String?, String)])
    func errors(line: String, code: TraceDecodingError.Code, field: String?, message: String) {
        #expect {
            _ = try TraceEvent(jsonLine: line)
        } throws: { error in
            guard let error = error as? TraceDecodingError else { return false }
            #expect(error.code == code)
            #expect(error.field == field)
            #expect(error.message.contains(message), "\(error.message)")
            return true
        }
    }

    @Test("the version the trace names is in the error, for a reader to say which it needs")
    func versionInTheError() {
        #expect {
            _ = try TraceEvent(jsonLine: #"{"t":0,"event":"session","version":7,"input":"","scene":"","layout":""}"#)
        } throws: { error in
            (error as? TraceDecodingError)?.version == 7 && "\(error)".hasPrefix("trace line: the trace's version 7")
        }
    }

    @Test("a line longer than the limit is an error, not a crash or a long parse")
    func tooLong() throws {
        var line = Array(#"{"t":0,"event":"unhandled","key":"KeyA","pad":""#.utf8)
        line += [UInt8](repeating: UInt8(ascii: "x"), count: TraceEvent.maximumLineLength)
        line += Array(#""}"#.utf8)
        #expect {
            _ = try TraceEvent(jsonLine: line)
        } throws: { error in
            (error as? TraceDecodingError)?.code == .lineTooLong && "\(error)".contains("at most 1048576")
        }
        let deep = String(repeating: "[", count: 5000)
        #expect(throws: TraceDecodingError.self) { try TraceEvent(jsonLine: deep) }
        #expect {
            _ = try TraceEvent(jsonLine: #"{"t":0,"event":"bogus\u001b[2J"}"#)
        } throws: { error in
            "\(error)".contains(#"unknown event "bogus\u{1B}[2J""#) && !"\(error)".contains("\u{1B}")
        }
    }

    @Test("a pointer event's line and plain text: position, item and outcome, or • for each during secure entry")
    func pointerLines() throws {
        let shown = TraceEvent(
            t: 1.5,
            .pointer(
                TraceEvent.Pointer(
                    phase: .up, kind: .touch, contact: 0, position: .value(Point(x: 12.5, y: 3)), device: "touch",
                    item: .value("tile-checkin"), outcome: .value("kiosk performed open of tile-checkin"))))
        #expect(
            shown.json
                == #"{"t":1.500000,"event":"pointer","phase":"up","kind":"touch","contact":0,"x":12.500000,"y":3.000000,"device":"touch","item":"tile-checkin","outcome":"kiosk performed open of tile-checkin"}"#
        )
        #expect(
            shown.plainDetail == "touch 0 up at (12.5, 3) on tile-checkin (touch): kiosk performed open of tile-checkin"
        )
        let hidden = TraceEvent(
            t: 2,
            .pointer(
                TraceEvent.Pointer(
                    phase: .down, kind: .mouse, contact: -1, position: .redacted, device: "mouse", item: .redacted,
                    outcome: nil)))
        #expect(hidden.json.contains(#""x":null,"y":null,"device":"mouse","item":"•","outcome":null"#))
        #expect(hidden.plainDetail == "mouse -1 down at • on • (mouse)")
        #expect(try TraceEvent(jsonLine: hidden.json) == hidden)
        #expect(throws: TraceDecodingError.self) {
            try TraceEvent(
                jsonLine:
                    #"{"t":1,"event":"pointer","phase":"up","kind":"touch","contact":0,"x":1,"y":null,"device":"d"}"#)
        }
    }

    @Test("an announce event's line and plain text: why, the priority and the words, or • for typing in a secure field")
    func announceLines() throws {
        let said = TraceEvent(
            t: 3, .announce(text: .value("Directory, button, 2 of 3"), kind: "focus", priority: "text"))
        #expect(
            said.json
                == #"{"t":3.000000,"event":"announce","kind":"focus","priority":"text","text":"Directory, button, 2 of 3"}"#
        )
        #expect(said.plainDetail == #"said to the listener (focus move, priority text): "Directory, button, 2 of 3""#)
        #expect(try TraceEvent(jsonLine: said.json) == said)
        let secret = TraceEvent(t: 4, .announce(text: .redacted, kind: "typing", priority: "text"))
        #expect(secret.json.hasSuffix(#""text":"•"}"#))
        #expect(
            secret.plainDetail
                == "said to the listener (typing echo, priority text): "
                + #"• (typing in a secure field, spoken "dot")"#)
        #expect(try TraceEvent(jsonLine: secret.json) == secret)
    }
}
