/// A pointer button, by the Linux input event code the compositor passes on in `wl_pointer.button`.
enum PointerButton: String, CaseIterable {
    case left, right, middle

    /// `BTN_LEFT`, `BTN_RIGHT` or `BTN_MIDDLE` from linux/input-event-codes.h.
    var code: UInt32 {
        switch self {
        case .left: 0x110
        case .right: 0x111
        case .middle: 0x112
        }
    }
}

/// One step of a script, as written on the command line or on a line of standard input with `--hold`.
enum PointerCommand: Equatable {
    /// `move-abs X Y [W H]`: `motion_absolute` to (X, Y) in a W×H extent (by default the `--extent`).
    case moveAbsolute(x: UInt32, y: UInt32, width: UInt32?, height: UInt32?)
    /// `move DX DY`: relative `motion` by whole pixels.
    case moveRelative(dx: Int32, dy: Int32)
    /// `press [left|right|middle]`: the button goes down (left when not named).
    case press(PointerButton)
    /// `release [left|right|middle]`: the button goes up (the one pressed last when not named).
    case release(PointerButton?)
    /// `click X Y [left|right|middle]`: move there, then press and release, each in its own frame.
    case click(x: UInt32, y: UInt32, button: PointerButton)
    /// `sleep MS`: waits that many milliseconds.
    case sleep(milliseconds: UInt32)
}

/// A script that does not parse: the message names the word and says what was expected.
struct UsageError: Error, Equatable {
    var message: String
}

/// Reads commands from words: each argument is split at blanks and at `;`, so a script may be one argument
/// (`"click 10 10; sleep 50"`) or many (`click 10 10 sleep 50`), separated by `;` or not.
enum PointerScript {
    /// The commands, with their names and what they take, for the usage text and error messages.
    static let grammar = [
        "move-abs X Y [W H]", "move DX DY", "press [left|right|middle]", "release [left|right|middle]",
        "click X Y [left|right|middle]", "sleep MS",
    ]

    /// Parses the words of a script, and checks every position against its extent.
    ///
    /// - Parameters:
    ///   - arguments: Command-line arguments or one line of input.
    ///   - extent: The extent of `click` and of `move-abs` without W H.
    /// - Returns: The commands in order.
    /// - Throws: ``UsageError`` naming the first word that is not right.
    static func parse(
        _ arguments: [String], extent: (width: UInt32, height: UInt32)
    ) throws(UsageError) -> [PointerCommand] {
        var words = Words(tokens: tokenize(arguments))
        var commands: [PointerCommand] = []
        while let word = words.next() {
            if word == ";" { continue }
            let command = try command(word, &words)
            switch command {
            case let .moveAbsolute(x, y, nil, nil), let .click(x, y, _):
                try checkInside(x: x, y: y, width: extent.width, height: extent.height)
            default:
                break
            }
            commands.append(command)
        }
        return commands
    }

    /// Splits arguments at blanks and makes each `;` a word of its own.
    static func tokenize(_ arguments: [String]) -> [String] {
        var tokens: [String] = []
        for argument in arguments {
            var current = ""
            for character in argument {
                if character == ";" || character.isWhitespace {
                    if !current.isEmpty { tokens.append(current) }
                    current = ""
                    if character == ";" { tokens.append(";") }
                } else {
                    current.append(character)
                }
            }
            if !current.isEmpty { tokens.append(current) }
        }
        return tokens
    }

    private static func command(_ name: String, _ words: inout Words) throws(UsageError) -> PointerCommand {
        switch name {
        case "move-abs":
            let x = try words.unsigned(after: name, what: "X")
            let y = try words.unsigned(after: name, what: "Y")
            guard words.peekUnsigned(count: 2) else { return .moveAbsolute(x: x, y: y, width: nil, height: nil) }
            let width = try words.unsigned(after: name, what: "W")
            let height = try words.unsigned(after: name, what: "H")
            try checkExtent(width: width, height: height)
            try checkInside(x: x, y: y, width: width, height: height)
            return .moveAbsolute(x: x, y: y, width: width, height: height)
        case "move":
            return .moveRelative(
                dx: try words.signed(after: name, what: "DX"), dy: try words.signed(after: name, what: "DY"))
        case "press":
            return .press(words.button() ?? .left)
        case "release":
            return .release(words.button())
        case "click":
            let x = try words.unsigned(after: name, what: "X")
            let y = try words.unsigned(after: name, what: "Y")
            return .click(x: x, y: y, button: words.button() ?? .left)
        case "sleep":
            return .sleep(milliseconds: try words.unsigned(after: name, what: "MS"))
        default:
            throw UsageError(
                message: "unknown command \"\(name)\": the commands are " + grammar.joined(separator: ", "))
        }
    }

    /// A W×H extent: both at least 1.
    static func checkExtent(width: UInt32, height: UInt32) throws(UsageError) {
        guard width > 0, height > 0 else {
            throw UsageError(message: "the extent \(width)x\(height) is empty: give a width and height of at least 1")
        }
    }

    /// A position inside an extent (0...W, 0...H, as motion_absolute allows).
    static func checkInside(x: UInt32, y: UInt32, width: UInt32, height: UInt32) throws(UsageError) {
        guard x <= width, y <= height else {
            throw UsageError(
                message: "the position \(x),\(y) is outside the extent \(width)x\(height): give X at most W and "
                    + "Y at most H, or a larger extent (--extent WxH)")
        }
    }

    /// `--extent WxH`.
    static func parseExtent(_ text: String) throws(UsageError) -> (width: UInt32, height: UInt32) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = UInt32(parts[0]), let height = UInt32(parts[1]) else {
            throw UsageError(message: "--extent \"\(text)\" is not WxH: write it like 800x600")
        }
        try checkExtent(width: width, height: height)
        return (width, height)
    }
}

/// The words of a script, read one at a time.
private struct Words {
    var tokens: [String]
    var index = 0

    mutating func next() -> String? {
        guard index < tokens.count else { return nil }
        defer { index += 1 }
        return tokens[index]
    }

    /// Whether the next `count` words are all unsigned numbers (the optional W H of move-abs).
    func peekUnsigned(count: Int) -> Bool {
        guard index + count <= tokens.count else { return false }
        return tokens[index..<index + count].allSatisfy { UInt32($0) != nil }
    }

    mutating func unsigned(after command: String, what: String) throws(UsageError) -> UInt32 {
        let word = next()
        guard let word, let value = UInt32(word) else {
            throw UsageError(
                message: "\(command) needs \(what) as a whole number of at least 0, "
                    + (word.map { "not \"\($0)\"" } ?? "and the script ended") + usage(of: command))
        }
        return value
    }

    mutating func signed(after command: String, what: String) throws(UsageError) -> Int32 {
        let word = next()
        guard let word, let value = Int32(word) else {
            throw UsageError(
                message: "\(command) needs \(what) as a whole number, "
                    + (word.map { "not \"\($0)\"" } ?? "and the script ended") + usage(of: command))
        }
        return value
    }

    /// The button named by the next word, taken only when it names one.
    mutating func button() -> PointerButton? {
        guard index < tokens.count, let button = PointerButton(rawValue: tokens[index]) else { return nil }
        index += 1
        return button
    }

    private func usage(of command: String) -> String {
        let form = PointerScript.grammar.first { $0.hasPrefix(command + " ") } ?? command
        return ": \(form)"
    }
}
