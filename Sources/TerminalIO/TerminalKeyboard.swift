public import EventLoop
public import LinuxSystem
public import ResponderChain

/// The terminal keytrace (or a console app) runs in, as a keyboard: raw mode, escape sequences
/// decoded into keys, and the kitty keyboard protocol where the terminal supports it (real
/// press, repeat and release events). Elsewhere each key is a press followed at once by a release.
///
/// The terminal is restored by ``restore()`` (idempotent; also on `deinit`), and on a crash
/// signal by a handler that writes ``restoreSequence`` and resets the terminal settings before
/// the process dies. Not `Sendable`: it belongs to the event loop's thread.
@MainActor
public final class TerminalKeyboard {
    /// The descriptor keys are read from (non-blocking once raw).
    public let inputDescriptor: Int32
    /// The descriptor escape sequences are written to.
    public let outputDescriptor: Int32
    /// The device id its input carries.
    public let device: DeviceID
    /// Whether the kitty keyboard protocol is on: real releases and repeats.
    public private(set) var reportsEventTypes = false
    /// Whether bracketed paste is on (when the terminal is read as input): a paste arrives as
    /// one `InputEvent.text`, which the dispatcher gives the first responder's text input (as
    /// `Dispatcher.insertText(_:timestamp:)` does), not as typed keys. One whose end never comes
    /// is delivered as it stands when bytes arrive after ``TerminalKeyDecoder/pasteTimeout``
    /// without any, and those bytes are keys again.
    public private(set) var pastesBracketed = false
    /// Extra bytes written when the terminal is restored, before the protocol is popped (a live
    /// view sets "leave the alternate screen, show the cursor" here).
    public var restoreSequence: [UInt8] = [] {
        didSet { armCrashRestore() }
    }
    private var saved: Any?
    private var decoder = TerminalKeyDecoder()
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Takes over the terminal: raw mode and, when the terminal answers the query, the kitty
    /// keyboard protocol (flags: disambiguate, report event types, report all keys, report
    /// associated text).
    ///
    /// - Parameters:
    ///   - input: The terminal's input descriptor; standard input by default.
    ///   - output: Its output descriptor; standard output by default.
    ///   - device: The device id for its input.
    ///   - negotiate: Whether to ask for the kitty protocol (waits up to 0.3 s for the answer).
    /// - Throws: `InputError` when the input is not a terminal.
    public init(input: Int32 = 0, output: Int32 = 1, device: DeviceID = .primary, negotiate: Bool = true)
        throws(InputError)
    {
        guard TerminalCalls.isTerminal(input) else {
            throw InputError(
                operation: "terminal", path: nil,
                message: "standard input is not a terminal; run in a terminal, or use --keys or --replay for scripts")
        }
        guard let saved = TerminalCalls.makeRaw(input) else {
            throw InputError(
                operation: "terminal", path: nil, message: "cannot switch the terminal to raw mode")
        }
        inputDescriptor = input
        outputDescriptor = output
        self.device = device
        self.saved = saved
        armCrashRestore()
        if negotiate {
            reportsEventTypes = negotiateKittyProtocol()
            // Bracketed paste: pasted text arrives as one paste, not as typed keys.
            TerminalCalls.write(output, Array("\u{1b}[?2004h".utf8))
            pastesBracketed = true
        }
        decoder.reportsEventTypes = reportsEventTypes
        decoder.device = device
        armCrashRestore()
        TerminalCalls.setNonBlocking(input)
    }

    isolated deinit {
        restore()
    }

    /// Makes what is written show on a Linux virtual console that a seat manager switched to
    /// graphics mode (seatd and logind do when they take the VT for a session): back to text
    /// mode. The keyboard stays off for the console (the app reads it through evdev).
    ///
    /// - Returns: Whether the console was in graphics mode.
    @discardableResult
    public func showTextOnConsole() -> Bool {
        TerminalCalls.showTextOnConsole(outputDescriptor)
    }

    /// The terminal's size in columns and rows, if it reports one.
    public var size: (columns: Int, rows: Int)? {
        TerminalCalls.size(outputDescriptor) ?? TerminalCalls.size(inputDescriptor)
    }

    /// Writes bytes to the terminal, all of them: while a terminal that reads slowly is full, it
    /// waits (up to 2 s in all) rather than drop the rest of a frame.
    ///
    /// - Parameter bytes: What to write.
    /// - Returns: Whether every byte was written (a terminal gone, or full for 2 s: `false`).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        TerminalCalls.write(outputDescriptor, bytes)
    }

    /// Reads the input available now and hands it to a sink, in order: keys as `InputEvent.key`,
    /// a release the terminal never sent as `InputEvent.cancelKey`, a bracketed paste as
    /// `InputEvent.text` (see ``TerminalKeyDecoder/decode(_:endOfInput:time:)``).
    ///
    /// - Parameters:
    ///   - sink: Where the input goes: the dispatcher, or a sink in front of it.
    ///   - time: Its timestamp, on `EventLoop.monotonicNow`'s clock (it also times
    ///     out a paste whose end never came: ``TerminalKeyDecoder/pasteTimeout``).
    /// - Returns: `false` when the terminal is gone (end of input).
    @discardableResult
    public func read(into sink: any InputSink, time: Double) -> Bool {
        for input in readEvents(time: time) { sink.receive(input) }
        return !reachedEnd
    }

    /// Reads the input available now without handing it on.
    ///
    /// - Parameter time: When it is read, on `EventLoop.monotonicNow`'s clock (it
    ///   times out a paste whose end never came: ``TerminalKeyDecoder/pasteTimeout``).
    /// - Returns: The decoded input, in order, as ``read(into:time:)`` hands it on.
    public func readEvents(time: Double = EventLoop.monotonicNow) -> [InputEvent] {
        var events: [InputEvent] = []
        while true {
            guard let count = Syscalls.readAvailable(inputDescriptor, into: &buffer) else {
                reachedEnd = true
                break
            }
            if count == 0 { break }
            events += decoder.decode(buffer[0..<count], endOfInput: count < buffer.count, time: time)
            if count < buffer.count { break }
        }
        return events
    }

    /// When an open paste without its end is over if no byte comes (``TerminalKeyDecoder/deadline``);
    /// `nil` when none is open.
    public var inputDeadline: Double? { decoder.deadline }

    /// Hands on a paste whose end did not come by its deadline (``TerminalKeyDecoder/expire(time:)``).
    ///
    /// - Parameters:
    ///   - sink: Where the paste goes.
    ///   - time: Now, on `EventLoop.monotonicNow`'s clock.
    public func expireInput(into sink: any InputSink, time: Double) {
        for input in decoder.expire(time: time) { sink.receive(input) }
    }

    /// Whether ``readEvents(time:)`` found the terminal gone (end of input or an error): stop
    /// watching it, or its descriptor stays readable forever.
    public private(set) var reachedEnd = false

    /// Whether a descriptor is a terminal.
    ///
    /// - Parameter fileDescriptor: The descriptor.
    /// - Returns: `true` for a terminal.
    nonisolated public static func isTerminal(_ fileDescriptor: Int32) -> Bool {
        TerminalCalls.isTerminal(fileDescriptor)
    }

    /// Gives the terminal back: pops the keyboard protocol, writes ``restoreSequence``, and
    /// restores the settings. Safe to call more than once.
    public func restore() {
        guard let saved = saved as? TerminalSettings else { return }
        self.saved = nil
        var bytes = restoreSequence
        if reportsEventTypes { bytes += Array("\u{1b}[<u".utf8) }
        if pastesBracketed { bytes += Array("\u{1b}[?2004l".utf8) }
        TerminalCalls.write(outputDescriptor, bytes)
        TerminalCalls.restore(inputDescriptor, saved)
        TerminalCalls.removeCrashHandlers()
    }

    private typealias TerminalSettings = TerminalCalls.Settings

    private func armCrashRestore() {
        guard let saved = saved as? TerminalSettings else { return }
        var bytes = restoreSequence
        if reportsEventTypes { bytes += Array("\u{1b}[<u".utf8) }
        if pastesBracketed { bytes += Array("\u{1b}[?2004l".utf8) }
        TerminalCalls.restoreOnCrash(outputFD: outputDescriptor, bytes: bytes, inputFD: inputDescriptor, saved: saved)
    }

    /// Asks for the kitty protocol's flags (`CSI ? u`) followed by the device attributes
    /// (`CSI c`), which every terminal answers: a flags reply before the attributes means support.
    private func negotiateKittyProtocol() -> Bool {
        TerminalCalls.write(outputDescriptor, Array("\u{1b}[?u\u{1b}[c".utf8))
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        var waited = 0
        while waited < 300 {
            guard Syscalls.waitReadable(inputDescriptor, milliseconds: 50) else {
                waited += 50
                continue
            }
            guard let count = Syscalls.readAvailable(inputDescriptor, into: &chunk), count > 0 else { break }
            reply += chunk[0..<count]
            if let answer = Self.kittyAnswer(reply) {
                if answer { TerminalCalls.write(outputDescriptor, Array("\u{1b}[>27u".utf8)) }
                return answer
            }
        }
        return false
    }
}

extension TerminalKeyboard {
    /// Reads the replies to `CSI ? u` `CSI c`: `true` when a `CSI ? flags u` came before the
    /// device attributes (`CSI ? … c`), `false` when only the attributes came, `nil` while the
    /// attributes have not arrived.
    static func kittyAnswer(_ reply: [UInt8]) -> Bool? {
        var supported = false
        var index = 0
        while index + 2 < reply.count {
            guard reply[index] == 0x1b, reply[index + 1] == UInt8(ascii: "["), reply[index + 2] == UInt8(ascii: "?")
            else {
                index += 1
                continue
            }
            var end = index + 3
            while end < reply.count, !(0x40...0x7e).contains(reply[end]) { end += 1 }
            guard end < reply.count else { return nil }
            if reply[end] == UInt8(ascii: "u") { supported = true }
            if reply[end] == UInt8(ascii: "c") { return supported }
            index = end + 1
        }
        return nil
    }
}

extension TerminalKeyboard {
    /// Whether terminal input holds a Ctrl-C: a press of C, and Control in the same read (its
    /// press, release or cancellation). A terminal watched for output only quits on it.
    ///
    /// - Parameter events: What one read decoded.
    /// - Returns: Whether it holds the quit chord.
    package static func containsControlC(_ events: [InputEvent]) -> Bool {
        var pressesC = false
        var hasControl = false
        for event in events {
            switch event {
            case .key(let key):
                if key.code == .c && key.action == .down { pressesC = true }
                if key.code == .leftControl { hasControl = true }
            case .cancelKey(let code, _, _):
                if code == .leftControl { hasControl = true }
            default:
                break  // text and the rest name no key of their own
            }
        }
        return pressesC && hasControl
    }
}
