public import ResponderChain

/// Turns the bytes a terminal sends into `InputEvent` values: keys, and a bracketed paste as
/// `InputEvent.text`, ready for an `InputSink` (the dispatcher).
///
/// Two encodings:
/// - **The kitty keyboard protocol** (`CSI code ; modifiers : event u` and its functional-key
///   forms), when the terminal accepted it: real press, repeat and release events, and the
///   modifier keys themselves.
/// - **Legacy sequences** (UTF-8 text, control characters, `CSI`/`SS3` cursor and function keys,
///   `ESC` + a character for Alt): only "this key was typed". Each becomes the modifiers going
///   down, the key going down, and everything going up again at once.
///
/// Characters map to US key positions (a terminal sends characters, not positions), so key
/// commands match; what a key typed travels with it as `KeyEvent.text` (the terminal's own text,
/// typed on the terminal's layout: `é`, `ф`, `"` from Shift+2 on a German keyboard), so it never
/// goes through another layout. A character with no US position comes as
/// `KeyCode.unidentified` with its text. Pure Swift; no terminal needed.
///
/// Every key the terminal reports says which modifiers are down (the kitty protocol's modifier
/// field; a legacy byte such as `0x03` means Control and nothing else), and that report is the
/// truth: a modifier held from an earlier press that the report leaves out was released where
/// the terminal could not see it (it lost focus), and its press is cancelled
/// (`InputEvent.cancelKey`), as an evdev resync cancels a key it finds released; so is a held key
/// reported pressed (or typed) again. Without kitty
/// event types (``reportsEventTypes`` off) no report holds a key down: a kitty-style press is
/// typed like any legacy key. An event type outside 1–3 is bad input and is ignored.
///
/// Input from outside is bounded: a sequence longer than ``maximumSequenceLength`` is dropped up
/// to its final byte without being read, and a bracketed paste keeps at most
/// ``maximumPasteLength`` bytes and is over after ``pasteTimeout`` without a byte, so a paste
/// whose end never comes cannot take every later key (Ctrl-C included) as text.
public struct TerminalKeyDecoder: Sendable {
    /// What one sequence reports, before the decoder brings the modifiers it holds in line.
    enum Report: Hashable, Sendable {
        /// A key typed with these modifiers (legacy input): down and up at once.
        case tap(KeyCode, ModifierFlags, text: String?)
        /// A kitty-protocol event with the modifiers the terminal reports down.
        case key(KeyCode, KeyAction, ModifierFlags, text: String?)
        /// A sequence longer than ``maximumSequenceLength``: the rest of it is dropped unread.
        case overlong
    }

    private var pending: [UInt8] = []
    /// Keys the kitty protocol reported down and not yet up (each at most once, so at most as
    /// many as there are key codes it names).
    private var heldKeys: [KeyCode] = []
    /// The longest control sequence read, in bytes (`ESC [`, parameters and final byte): a
    /// longer one is garbage, dropped up to its final byte (or a byte no sequence contains, such
    /// as Ctrl-C) without its parameters being read, so bytes that never end a sequence cannot
    /// make the decoder buffer or work without bound, and none of them becomes a key.
    public static let maximumSequenceLength = 64
    /// Whether the bytes of an overlong sequence are being dropped, up to its final byte.
    private var discarding = false

    /// How many bytes wait for the rest of a sequence (at most ``maximumSequenceLength``).
    public var pendingByteCount: Int { pending.count }

    /// The text of a bracketed paste in progress (`CSI 200 ~` seen, `CSI 201 ~` not yet).
    private var paste: [UInt8]?
    /// The most bytes one paste keeps (1 MiB); the rest is dropped, up to the paste's end.
    public static let maximumPasteLength = 1 << 20
    /// How long a bracketed paste (or an overlong sequence being dropped) may go without a byte
    /// before it is over, in seconds: 1 s. A terminal writes a paste's start, text and end in
    /// one go, so its bytes come back to back; a paste silent this long lost its end (the
    /// program pasting died, a connection or multiplexer cut it, or the bytes were forged). The
    /// paste is delivered as it stands, and later bytes are keys again, so Ctrl-C quits. A size
    /// limit does not end it: that would type the rest of a large real paste as keys, Return
    /// included, which bracketed paste exists to prevent. Only ``decode(_:endOfInput:time:)``
    /// given a time applies it.
    public static let pasteTimeout: Double = 1
    /// When the last bytes came, for ``pasteTimeout``.
    private var lastInputTime: Double?
    /// Whether a bracketed paste has begun and not ended: until it ends (or ``pasteTimeout``
    /// passes without a byte), every byte is text.
    public var isPasting: Bool { paste != nil }
    /// When a paste (or an overlong sequence being dropped) that is still open will be over if no
    /// byte comes: the last bytes' time plus ``pasteTimeout``; `nil` when nothing is open. A reader
    /// wakes then and calls ``expire(time:)``, so that a paste whose end never comes is delivered
    /// without waiting for a key.
    public var deadline: Double? {
        guard paste != nil || discarding, let lastInputTime else { return nil }
        return lastInputTime + Self.pasteTimeout
    }

    /// Ends what ``deadline`` says is over by `time`: a paste without its end is delivered as it
    /// stands; an overlong sequence stops being dropped. Nothing happens before the deadline.
    ///
    /// - Parameter time: Now, on the clock the bytes' times were given on.
    /// - Returns: The paste, as ``decode(_:endOfInput:time:)`` would deliver it.
    public mutating func expire(time: Double) -> [InputEvent] {
        guard let deadline, time >= deadline else { return [] }
        return decode([], endOfInput: true, time: time)
    }
    private static let pasteStart: [UInt8] = [0x1b, 0x5b, 0x32, 0x30, 0x30, 0x7e]
    private static let pasteEnd: [UInt8] = [0x1b, 0x5b, 0x32, 0x30, 0x31, 0x7e]

    /// Whether the terminal reports event types (the kitty protocol's flag 2): then a `CSI`
    /// key without an event type is a press, and every key comes with its own release. Off, no
    /// report holds a key down.
    public var reportsEventTypes: Bool
    /// The device the decoded input comes from.
    public var device: DeviceID
    /// The timestamp of the input being decoded (the `time` given to
    /// ``decode(_:endOfInput:time:)``, or 0).
    private var timestamp: Double = 0

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - device: The device the decoded input comes from.
    ///   - reportsEventTypes: Whether the kitty protocol's event types are on.
    public init(device: DeviceID = .primary, reportsEventTypes: Bool = false) {
        self.device = device
        self.reportsEventTypes = reportsEventTypes
    }

    /// Decodes bytes; an incomplete sequence at the end waits for the next call unless
    /// `endOfInput` says no more bytes are coming now (then a lone `ESC` is the Escape key).
    ///
    /// - Parameters:
    ///   - bytes: What the terminal sent.
    ///   - endOfInput: Whether the terminal has nothing more for now.
    ///   - time: When the bytes were read, in seconds on a clock that never goes back. When the
    ///     previous bytes came ``pasteTimeout`` or more before, a paste still open is delivered
    ///     first and an overlong sequence still being dropped is over, so these bytes are keys.
    ///     It is the timestamp of every value decoded. `nil` applies no time bound (and the
    ///     values have timestamp 0).
    /// - Returns: The input, in order: a key as `InputEvent.key`, a release the terminal never
    ///   sent (a later report showed the key up) as `InputEvent.cancelKey`, and a bracketed
    ///   paste as `InputEvent.text`, all with ``device``.
    public mutating func decode(_ bytes: some Sequence<UInt8>, endOfInput: Bool = true, time: Double? = nil)
        -> [InputEvent]
    {
        var events: [InputEvent] = []
        timestamp = time ?? 0
        if let time, let last = lastInputTime, time - last >= Self.pasteTimeout {
            // Silent too long: what was open lost its end.
            if paste != nil {
                appendPaste(pending[...])
                pending.removeAll()
                finishPaste(into: &events)
            }
            discarding = false
        }
        let before = pending.count
        pending.append(contentsOf: bytes)
        if let time, pending.count > before { lastInputTime = time }
        var index = 0
        while index < pending.count {
            if paste != nil {
                guard let end = Self.find(Self.pasteEnd, in: pending, from: index) else {
                    // Keep what could be the start of the end marker; the rest is text.
                    let keep = min(Self.pasteEnd.count - 1, pending.count - index)
                    appendPaste(pending[index..<(pending.count - keep)])
                    index = pending.count - keep
                    break
                }
                appendPaste(pending[index..<end])
                finishPaste(into: &events)
                index = end + Self.pasteEnd.count
                continue
            }
            if discarding {
                // The rest of an overlong sequence: parameter and intermediate bytes, then its
                // final byte. Any other byte ends it unread and starts something new.
                while index < pending.count, (0x20...0x3f).contains(pending[index]) { index += 1 }
                guard index < pending.count else { break }
                if (0x40...0x7e).contains(pending[index]) { index += 1 }
                discarding = false
                continue
            }
            if pending[index] == 0x1b, Self.hasPrefix(Self.pasteStart, in: pending, at: index) {
                paste = []
                index += Self.pasteStart.count
                continue
            }
            guard
                let (consumed, reports) = Self.decodeOne(
                    pending, from: index, endOfInput: endOfInput, events: reportsEventTypes)
            else { break }
            for report in reports { apply(report, to: &events) }
            index += consumed
        }
        pending.removeFirst(index)
        return events
    }

    private mutating func appendPaste(_ bytes: ArraySlice<UInt8>) {
        guard var text = paste else { return }
        paste = nil  // keeps the buffer uniquely referenced while it grows
        text.append(contentsOf: bytes.prefix(max(Self.maximumPasteLength - text.count, 0)))
        paste = text
    }

    private mutating func finishPaste(into events: inout [InputEvent]) {
        guard let text = paste else { return }
        events.append(.text(String(decoding: text, as: UTF8.self), device: device, timestamp: timestamp))
        paste = nil
    }

    private static func hasPrefix(_ marker: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + marker.count <= bytes.count else { return false }
        for offset in 0..<marker.count where bytes[index + offset] != marker[offset] { return false }
        return true
    }

    private static func find(_ marker: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + marker.count <= bytes.count {
            if bytes[index] == marker[0] && hasPrefix(marker, in: bytes, at: index) { return index }
            index += 1
        }
        return nil
    }

    // MARK: Modifiers

    /// Turns one report into events, first bringing the held keys in line with it. A terminal
    /// that loses focus with a key down never reports its release; without this, a modifier
    /// would stay down for every later key (Ctrl-C would read as Ctrl+Shift+C), and a key would
    /// never go down again (a second press of a held key is a repeat).
    private mutating func apply(_ report: Report, to events: inout [InputEvent]) {
        switch report {
        case .tap(let code, let modifiers, let text):
            // Held modifiers the key was typed without went up unseen. Without event types
            // nothing is held, so even one the key names is pressed afresh (and released).
            cancelHeldModifiers(outside: reportsEventTypes ? modifiers : [], except: nil, into: &events)
            // The key itself was up to be typed.
            cancelIfHeld(code, into: &events)
            var pressed: [KeyCode] = []
            for (flag, key) in Self.modifierKeys where modifiers.contains(flag) {
                // The modifier key typed alone is the key itself; a held one stays down.
                if code.heldModifier == flag || heldKeys.contains(where: { $0.heldModifier == flag }) { continue }
                pressed.append(key)
            }
            for key in pressed { events.append(self.key(key, .down)) }
            events.append(self.key(code, .down, text: text))
            events.append(self.key(code, .up))
            for key in pressed.reversed() { events.append(self.key(key, .up)) }
        case .key(let code, let action, let modifiers, let text):
            // A modifier key's own flag is left alone (terminals differ on whether its press
            // and release include it); every other one follows the report.
            let own = code.heldModifier
            cancelHeldModifiers(outside: modifiers, except: own, into: &events)
            for (flag, key) in Self.modifierKeys
            where flag != own && modifiers.contains(flag) && !heldKeys.contains(where: { $0.heldModifier == flag }) {
                // Reported down, never seen pressed (held before the app started).
                events.append(self.key(key, .down))
                heldKeys.append(key)
            }
            var delivered = action
            switch action {
            case .down:
                // A press (not a repeat) says the key was up: its release was lost.
                cancelIfHeld(code, into: &events)
                heldKeys.append(code)
            case .repeat:
                // A repeat of a key never seen pressed (held when the terminal gained focus) is
                // its press: the dispatcher then knows it is down, and a Control held that way
                // still makes the next Ctrl-C the quit chord.
                if !heldKeys.contains(code) {
                    heldKeys.append(code)
                    delivered = .down
                }
            case .up:
                heldKeys.removeAll { $0 == code }
            }
            events.append(self.key(code, delivered, text: delivered == .up ? nil : text))
        case .overlong:
            discarding = true
        }
    }

    /// Cancels the held modifier keys whose flag a report leaves out (but `except`).
    private mutating func cancelHeldModifiers(
        outside modifiers: ModifierFlags, except own: ModifierFlags?, into events: inout [InputEvent]
    ) {
        guard !heldKeys.isEmpty else { return }
        var kept: [KeyCode] = []
        for code in heldKeys {
            if let flag = code.heldModifier, flag != own, !modifiers.contains(flag) {
                events.append(.cancelKey(code, device: device, timestamp: timestamp))
            } else {
                kept.append(code)
            }
        }
        heldKeys = kept
    }

    /// Cancels a held key that a report says went down afresh.
    private mutating func cancelIfHeld(_ code: KeyCode, into events: inout [InputEvent]) {
        guard let position = heldKeys.firstIndex(of: code) else { return }
        heldKeys.remove(at: position)
        events.append(.cancelKey(code, device: device, timestamp: timestamp))
    }

    /// A key event from ``device`` at the current timestamp.
    private func key(_ code: KeyCode, _ action: KeyAction, text: String? = nil) -> InputEvent {
        .key(KeyEvent(code, action, device: device, timestamp: timestamp, text: text))
    }

    /// The modifiers the terminal reports, and the key that stands for each when the decoder
    /// presses it.
    private static let modifierKeys: [(flag: ModifierFlags, key: KeyCode)] = [
        (.control, .leftControl), (.alternate, .leftAlt), (.shift, .leftShift), (.command, .leftMeta),
    ]

    // MARK: One sequence

    /// Decodes the sequence at `start`: how many bytes it took and its events, or `nil` when
    /// more bytes are needed.
    static func decodeOne(_ bytes: [UInt8], from start: Int, endOfInput: Bool, events: Bool) -> (Int, [Report])? {
        let byte = bytes[start]
        if byte == 0x1b {
            guard start + 1 < bytes.count else { return endOfInput ? (1, tap(.escape, [])) : nil }
            let next = bytes[start + 1]
            if next == UInt8(ascii: "[") { return csi(bytes, from: start, endOfInput: endOfInput, events: events) }
            if next == UInt8(ascii: "O") {
                guard start + 2 < bytes.count else { return endOfInput ? (2, tap(.o, [.alternate, .shift])) : nil }
                return (3, ss3(bytes[start + 2]))
            }
            if next == 0x1b { return (1, tap(.escape, [])) }
            // Alt + the next key.
            guard let (length, decoded) = decodeOne(bytes, from: start + 1, endOfInput: endOfInput, events: events)
            else { return nil }
            return (length + 1, addingAlt(decoded))
        }
        if byte < 0x20 || byte == 0x7f { return (1, control(byte)) }
        // UTF-8 text: one character. A byte that cannot start one, or a character cut short by
        // a byte that cannot continue it, is dropped alone, so what follows still decodes.
        let length: Int
        switch byte {
        case 0..<0x80: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (1, [])
        }
        for offset in 1..<max(length, 1) where start + offset < bytes.count {
            if !(0x80...0xBF).contains(bytes[start + offset]) { return (offset, []) }
        }
        guard start + length <= bytes.count else { return endOfInput ? (bytes.count - start, []) : nil }
        // Invalid UTF-8, or a C1 control character, is no key.
        guard let text = String(validating: bytes[start..<start + length], as: UTF8.self),
            let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1, isText(scalar)
        else { return (length, []) }
        guard let (code, shift) = usPosition(of: text) else { return (length, tap(.unidentified, [], text: text)) }
        return (length, tap(code, shift ? [.shift] : [], text: text))
    }

    static func control(_ byte: UInt8) -> [Report] {
        switch byte {
        case 0x09: return tap(.tab, [])
        case 0x0d, 0x0a: return tap(.return, [])
        case 0x7f, 0x08: return tap(.backspace, [])
        case 0x00: return tap(.space, [.control])
        case 0x01...0x1a:
            let letter = String(UnicodeScalar(byte + 0x60))
            return usPosition(of: letter).map { tap($0.code, [.control]) } ?? []
        default: return []
        }
    }

    static func ss3(_ final: UInt8) -> [Report] {
        switch final {
        case UInt8(ascii: "A"): return tap(.upArrow, [])
        case UInt8(ascii: "B"): return tap(.downArrow, [])
        case UInt8(ascii: "C"): return tap(.rightArrow, [])
        case UInt8(ascii: "D"): return tap(.leftArrow, [])
        case UInt8(ascii: "H"): return tap(.home, [])
        case UInt8(ascii: "F"): return tap(.end, [])
        case UInt8(ascii: "P"): return tap(.f1, [])
        case UInt8(ascii: "Q"): return tap(.f2, [])
        case UInt8(ascii: "R"): return tap(.f3, [])
        case UInt8(ascii: "S"): return tap(.f4, [])
        case UInt8(ascii: "M"): return tap(.keypadEnter, [])
        default: return []
        }
    }

    /// `CSI params final`: legacy cursor and function keys, or the kitty protocol.
    static func csi(_ bytes: [UInt8], from start: Int, endOfInput: Bool, events: Bool) -> (Int, [Report])? {
        var index = start + 2
        while index < bytes.count, !(0x40...0x7e).contains(bytes[index]) {
            // A control character or a byte outside ASCII cannot be part of a sequence: the
            // sequence was cut off, and the byte starts something new.
            guard (0x20...0x3f).contains(bytes[index]) else { return (index - start, []) }
            index += 1
            // Far longer than any key sequence: garbage, dropped up to its end.
            if index - start >= maximumSequenceLength { return (index - start, [.overlong]) }
        }
        guard index < bytes.count else { return endOfInput ? (bytes.count - start, []) : nil }
        let final = bytes[index]
        let length = index - start + 1
        let parameters = bytes[(start + 2)..<index]
        // Replies to our queries (`CSI ? flags u`, device attributes `CSI ? … c`) are not keys.
        if parameters.first == UInt8(ascii: "?") || parameters.first == UInt8(ascii: ">") { return (length, []) }
        // Fields: `code[:alternates];modifiers[:event];text`.
        let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map {
            $0.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        }
        func field(_ number: Int, _ part: Int) -> ArraySlice<UInt8> {
            number < fields.count && part < fields[number].count ? fields[number][part] : []
        }
        // The key number, the modifiers and the event type: empty means 1 (no modifiers, a
        // press); anything else that is not a number in range (an event type outside 1–3) is bad
        // input, and the report is ignored rather than guessed at (its modifiers would release
        // held ones).
        let numberDigits = field(0, 0)
        let number = numberDigits.isEmpty ? 1 : parameter(numberDigits)
        let modifierDigits = field(1, 0)
        let modifierField = modifierDigits.isEmpty ? 1 : parameter(modifierDigits)
        let typeDigits = field(1, 1)
        let eventType = typeDigits.isEmpty ? 1 : parameter(typeDigits)
        guard let number, let modifierField, let eventType, (1...3).contains(eventType) else { return (length, []) }
        let modifiers = modifierFlags(max(modifierField, 1) - 1)
        // The kitty protocol's associated text (flag 16): code points, `:`-separated.
        var text = fields.count > 2 ? Self.text(fromCodePoints: fields[2].map(parameter)) : nil
        var code: KeyCode?
        switch final {
        case UInt8(ascii: "u"):
            code = kittyKey(number)
            // A text key with no US position (é on a French keyboard): its own character.
            if code == nil, let scalar = UnicodeScalar(number), Self.isText(scalar) {
                code = .unidentified
                if text == nil && modifiers.isDisjoint(with: [.control, .alternate, .command]) {
                    text = String(scalar)
                }
            }
        case UInt8(ascii: "~"): code = tildeKey(number)
        case UInt8(ascii: "Z"):
            return (length, tap(.tab, modifiers.union(.shift)))
        default: code = letterKey(final)
        }
        guard let code else { return (length, []) }
        // Without event types no report holds a key: a kitty-style press or repeat (a terminal
        // that did not answer the query, or forged bytes) is typed like a legacy key, and a
        // release has nothing to end.
        guard events else { return (length, eventType == 3 ? [] : tap(code, modifiers, text: text)) }
        // Characters without a key position share one code: each press is a tap of its own (two
        // held at once must not read as one key repeating); their repeats and releases are dropped.
        if code == .unidentified {
            return (length, eventType == 1 ? tap(code, modifiers, text: text) : [])
        }
        // The kitty protocol with event types: one real event, modifiers sent as keys of their own.
        let action: KeyAction = eventType == 2 ? .repeat : eventType == 3 ? .up : .down
        return (length, [.key(code, action, modifiers, text: action == .up ? nil : text)])
    }

    /// Text from the kitty protocol's code points; `nil` when there are none or one is not a
    /// printable character (a control character must not arrive as text).
    static func text(fromCodePoints points: [Int?]) -> String? {
        var text = ""
        for point in points {
            guard let point, let scalar = UnicodeScalar(point), isText(scalar) else { return nil }
            text.unicodeScalars.append(scalar)
            if text.unicodeScalars.count > 16 { return nil }
        }
        return text.isEmpty ? nil : text
    }

    /// Whether a code point is a character a key types: not a control character, not the
    /// private-use numbers the kitty protocol gives its functional keys.
    static func isText(_ scalar: UnicodeScalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0, 0xE000...0xF8FF: return false
        default: return true
        }
    }

    /// A numeric parameter: decimal digits, at most seven of them (no key, modifier or event
    /// number is longer); `nil` for anything else, so extreme numbers never reach arithmetic.
    static func parameter(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 7 else { return nil }
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    static func letterKey(_ final: UInt8) -> KeyCode? {
        switch final {
        case UInt8(ascii: "A"): return .upArrow
        case UInt8(ascii: "B"): return .downArrow
        case UInt8(ascii: "C"): return .rightArrow
        case UInt8(ascii: "D"): return .leftArrow
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "P"): return .f1
        case UInt8(ascii: "Q"): return .f2
        case UInt8(ascii: "R"): return .f3
        case UInt8(ascii: "S"): return .f4
        case UInt8(ascii: "E"): return .keypad5
        default: return nil
        }
    }

    static func tildeKey(_ number: Int) -> KeyCode? {
        switch number {
        case 1, 7: return .home
        case 2: return .insert
        case 3: return .deleteForward
        case 4, 8: return .end
        case 5: return .pageUp
        case 6: return .pageDown
        case 11: return .f1
        case 12: return .f2
        case 13: return .f3
        case 14: return .f4
        case 15: return .f5
        case 17: return .f6
        case 18: return .f7
        case 19: return .f8
        case 20: return .f9
        case 21: return .f10
        case 23: return .f11
        case 24: return .f12
        default: return nil
        }
    }

    /// The kitty protocol's key numbers: Unicode code points for text keys, private-use numbers
    /// for the others.
    static func kittyKey(_ number: Int) -> KeyCode? {
        switch number {
        case 9: return .tab
        case 13: return .return
        case 27: return .escape
        case 127: return .backspace
        case 57_358: return .capsLock
        case 57_359: return .scrollLock
        case 57_360: return .numLock
        case 57_399...57_408: return Self.keypadDigits[number - 57_399]
        case 57_414: return .keypadEnter
        case 57_441: return .leftShift
        case 57_442: return .leftControl
        case 57_443: return .leftAlt
        case 57_444: return .leftMeta
        case 57_447: return .rightShift
        case 57_448: return .rightControl
        case 57_449: return .rightAlt
        case 57_450: return .rightMeta
        default:
            guard let scalar = UnicodeScalar(number) else { return nil }
            return usPosition(of: String(scalar)).map(\.code)
        }
    }

    static let keypadDigits: [KeyCode] = [
        .keypad0, .keypad1, .keypad2, .keypad3, .keypad4, .keypad5, .keypad6, .keypad7, .keypad8, .keypad9,
    ]

    /// xterm's modifier parameter minus one: bit 0 Shift, 1 Alt, 2 Ctrl, 3 Super.
    static func modifierFlags(_ bits: Int) -> ModifierFlags {
        var flags: ModifierFlags = []
        if bits & 1 != 0 { flags.insert(.shift) }
        if bits & 2 != 0 { flags.insert(.alternate) }
        if bits & 4 != 0 { flags.insert(.control) }
        if bits & 8 != 0 { flags.insert(.command) }
        return flags
    }

    /// A key the terminal only reported as typed, with the modifiers it was typed with: the
    /// modifiers down, the key down and up, the modifiers up.
    static func tap(_ code: KeyCode, _ modifiers: ModifierFlags, text: String? = nil) -> [Report] {
        [.tap(code, modifiers, text: text)]
    }

    /// `ESC` + a key: the key typed with Alt.
    static func addingAlt(_ reports: [Report]) -> [Report] {
        reports.map {
            guard case .tap(let code, let modifiers, let text) = $0 else { return $0 }
            return .tap(code, modifiers.union(.alternate), text: text)
        }
    }

    /// Where a character sits on a US keyboard, and whether it needs Shift.
    static func usPosition(of text: String) -> (code: KeyCode, shift: Bool)? {
        guard text.unicodeScalars.count == 1, let scalar = text.unicodeScalars.first, scalar.isASCII else { return nil }
        let character = Character(scalar)
        if let code = usKeys[character] { return (code, false) }
        if let code = usShiftedKeys[character] { return (code, true) }
        return nil
    }

    private static let usKeys: [Character: KeyCode] = {
        var keys: [Character: KeyCode] = [" ": .space]
        let letters: [KeyCode] = [
            .a, .b, .c, .d, .e, .f, .g, .h, .i, .j, .k, .l, .m, .n, .o, .p, .q, .r, .s, .t, .u, .v, .w, .x, .y, .z,
        ]
        for (offset, code) in letters.enumerated() {
            keys[Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(offset)))] = code
        }
        let digits: [KeyCode] = [
            .digit0, .digit1, .digit2, .digit3, .digit4, .digit5, .digit6, .digit7, .digit8, .digit9,
        ]
        for (offset, code) in digits.enumerated() {
            keys[Character(UnicodeScalar(UInt8(ascii: "0") + UInt8(offset)))] = code
        }
        let punctuation: [(Character, KeyCode)] = [
            ("-", .minus), ("=", .equal), ("[", .leftBracket), ("]", .rightBracket), ("\\", .backslash),
            (";", .semicolon), ("'", .quote), ("`", .backquote), (",", .comma), (".", .period), ("/", .slash),
        ]
        for (character, code) in punctuation { keys[character] = code }
        return keys
    }()

    private static let usShiftedKeys: [Character: KeyCode] = {
        var keys: [Character: KeyCode] = [:]
        let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        for character in letters {
            if let code = usKeys[Character(character.lowercased())] { keys[character] = code }
        }
        let shifted: [(Character, Character)] = [
            ("!", "1"), ("@", "2"), ("#", "3"), ("$", "4"), ("%", "5"), ("^", "6"), ("&", "7"), ("*", "8"),
            ("(", "9"), (")", "0"), ("_", "-"), ("+", "="), ("{", "["), ("}", "]"), ("|", "\\"), (":", ";"),
            ("\"", "'"), ("~", "`"), ("<", ","), (">", "."), ("?", "/"),
        ]
        for (character, base) in shifted { keys[character] = usKeys[base] }
        return keys
    }()
}
