import ResponderChain
import Testing

/// A keyboard for tests: drives a `Dispatcher` through the same entry point as real input.
///
/// ```swift
/// let keyboard = VirtualKeyboard(dispatcher)
/// keyboard.tap("ctrl+shift+f")          // ctrl, shift, f down; f, shift, ctrl up
/// keyboard.type("tab tab down return")  // a key sequence
/// keyboard.typeText("KI 42\n")          // text, Shift where needed, "\n" as Return
/// keyboard.press(.a); keyboard.autoRepeat(.a, times: 3); keyboard.release(.a)
/// keyboard.unplug()                     // the device disappears
/// ```
/// Each event is stamped with a clock that advances by ``step`` seconds. Several keyboards on
/// one dispatcher need different ``device`` numbers.
@MainActor
public final class VirtualKeyboard {
    /// The dispatcher this keyboard types into.
    public let dispatcher: Dispatcher
    /// This keyboard's device.
    public let device: DeviceID
    /// The timestamp of the next event, in seconds.
    public var clock: Double
    /// How far the clock advances per event, in seconds.
    public var step: Double
    /// Called after each event this keyboard sends: an ``AppHarness`` brings focus up to date
    /// there, as an app does after each batch of input.
    package var afterEvent: (() -> Void)?

    /// Creates a virtual keyboard.
    ///
    /// - Parameters:
    ///   - dispatcher: The dispatcher to type into.
    ///   - device: The device number; `DeviceID.primary` by default.
    ///   - clock: The first timestamp, in seconds.
    ///   - step: How far the clock advances per event.
    public init(_ dispatcher: Dispatcher, device: DeviceID = .primary, clock: Double = 0, step: Double = 0.01) {
        self.dispatcher = dispatcher
        self.device = device
        self.clock = clock
        self.step = step
    }

    private func send(_ code: KeyCode, _ action: KeyAction) {
        dispatcher.handle(KeyEvent(code, action, device: device, timestamp: clock))
        sent()
    }

    private func sent() {
        clock += step
        afterEvent?()
    }

    /// Presses a key down (evdev value 1).
    ///
    /// - Parameter code: The key.
    public func press(_ code: KeyCode) { send(code, .down) }

    /// Releases a key (evdev value 0).
    ///
    /// - Parameter code: The key.
    public func release(_ code: KeyCode) { send(code, .up) }

    /// Auto-repeats a held key (evdev value 2).
    ///
    /// - Parameters:
    ///   - code: The key.
    ///   - times: How many repeats.
    public func autoRepeat(_ code: KeyCode, times: Int = 1) {
        for _ in 0..<times { send(code, .repeat) }
    }

    /// Holds a chord's modifiers and key down, in the order ctrl, alt, shift, cmd, key.
    ///
    /// - Parameter chord: The chord.
    public func press(_ chord: KeyChord) {
        for modifier in chord.modifierKeys { press(modifier) }
        press(chord.code)
    }

    /// Releases a chord held with ``press(_:)-(KeyChord)``: the key, then the modifiers in reverse.
    ///
    /// - Parameter chord: The chord.
    public func release(_ chord: KeyChord) {
        release(chord.code)
        for modifier in chord.modifierKeys.reversed() { release(modifier) }
    }

    /// Presses and releases a chord.
    ///
    /// - Parameter chord: The chord.
    public func tap(_ chord: KeyChord) {
        press(chord)
        release(chord)
    }

    /// Presses and releases a chord written as text, such as `"ctrl+shift+f"` or `"tab"`.
    ///
    /// A chord that cannot be read records a test issue at the caller and types nothing.
    ///
    /// - Parameters:
    ///   - chord: The chord, in the syntax of `KeyChord.init(parsing:)`.
    ///   - sourceLocation: Where a parse failure is reported.
    public func tap(_ chord: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let failure = tapping(chord) { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    }

    /// Taps each chord of a key sequence, such as `"tab tab down return shift+tab"`.
    ///
    /// A sequence that cannot be read records a test issue at the caller and types nothing.
    ///
    /// - Parameters:
    ///   - sequence: Chords separated by spaces.
    ///   - sourceLocation: Where a parse failure is reported.
    public func type(_ sequence: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let failure = typing(sequence) { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    }

    /// Types text on the active layout, as XCUITest's `typeText(_:)` does: each character is
    /// typed with the key that types it, Shift pressed around it where needed (and the other
    /// way round while Caps Lock is on), so key commands, presses, the focus system and text
    /// input all see real key presses. `"\n"` is typed with Return, `"\t"` with Tab.
    ///
    /// A character no key of the layout types with or without Shift (one that needs AltGr, a
    /// dead key or an input method, such as `é` on the US layout) is not an error: like XCUITest,
    /// which delivers any character, it arrives as text an input method committed
    /// (`Dispatcher.insertText(_:timestamp:)`), one insertion per run of such characters. A
    /// text input receives it; anything else never sees it, as with a real input method. To
    /// check that a layout can type something, type it with ``type(_:sourceLocation:)``.
    ///
    /// - Parameter text: The text.
    public func typeText(_ text: String) {
        var untypeable = ""
        func insertUntypeable() {
            guard !untypeable.isEmpty else { return }
            dispatcher.insertText(untypeable, timestamp: clock)
            untypeable = ""
            sent()
        }
        for character in text {
            if let chord = dispatcher.chord(typing: character) {
                insertUntypeable()
                tap(chord)
            } else {
                untypeable.append(character)
            }
        }
        insertUntypeable()
    }

    /// Taps a chord written as text; returns why it cannot be read, typing nothing then.
    package func tapping(_ chord: String) -> String? {
        do { tap(try KeyChord(parsing: chord)) } catch { return error.description }
        return nil
    }

    /// Types a key sequence; returns why it cannot be read, typing nothing then.
    package func typing(_ sequence: String) -> String? {
        do {
            for chord in try KeyChord.parseSequence(sequence) { tap(chord) }
        } catch {
            return error.description
        }
        return nil
    }

    /// The device disappears: its presses are cancelled.
    public func unplug() {
        dispatcher.deviceRemoved(device, timestamp: clock)
        sent()
    }

    /// The app loses the keyboard: every press is cancelled.
    public func loseKeyboard() {
        dispatcher.keyboardLost(timestamp: clock)
        sent()
    }
}
