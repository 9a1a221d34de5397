import EventLoop
import Foundation
import LinuxSystem
import ResponderChain
import ResponderChainTesting
import TerminalIO
import TestSupport
import Testing

/// The terminal as an input source like any other: its decoder makes `InputEvent` values (a
/// bracketed paste as text), and its reader hands them to a sink.
@MainActor @Suite struct TerminalInputSinkTests {
    let device = DeviceID(rawValue: 3)

    @Test("the decoder makes input values: keys, a cancelled press and a paste as text, with its device and the time")
    func decoderMakesInputValues() {
        var decoder = TerminalKeyDecoder(device: device, reportsEventTypes: true)
        let inputs = decoder.decode(
            Array("\u{1b}[57441;2u\u{1b}[200~two\nlines\u{1b}[201~\u{1b}[98u".utf8), time: 4.5)
        #expect(
            inputs == [
                .key(KeyEvent(.leftShift, .down, device: device, timestamp: 4.5)),
                .text("two\nlines", device: device, timestamp: 4.5),
                .cancelKey(.leftShift, device: device, timestamp: 4.5),
                .key(KeyEvent(.b, .down, device: device, timestamp: 4.5)),
            ])
    }

    @Test("the terminal reads into a sink: keys and a paste as text, in order, with its device and the read's time")
    func readsIntoSink() throws {
        let pty = try PseudoTerminal()
        let terminal = try TerminalKeyboard(input: pty.follower, output: pty.follower, device: device, negotiate: false)
        defer { terminal.restore() }
        let sink = RecordingInputSink()
        let expected: [InputEvent] = [
            .key(KeyEvent(.a, .down, device: device, timestamp: 5, text: "a")),
            .key(KeyEvent(.a, .up, device: device, timestamp: 5)),
            .text("hi there\n", device: device, timestamp: 5),
            .key(KeyEvent(.b, .down, device: device, timestamp: 5, text: "b")),
            .key(KeyEvent(.b, .up, device: device, timestamp: 5)),
        ]
        pty.type("a\u{1b}[200~hi there\n\u{1b}[201~b")
        var descriptor = pollfd(fd: pty.follower, events: Int16(POLLIN), revents: 0)
        for _ in 0..<50 where sink.inputs.count < expected.count {
            _ = poll(&descriptor, 1, 100)
            #expect(terminal.read(into: sink, time: 5))
        }
        #expect(sink.inputs == expected)
    }

    @Test("the terminal source is one-way: its layout at start and its end at stop go through the sink")
    func sourceThroughSink() throws {
        let pty = try PseudoTerminal()
        let terminal = try TerminalKeyboard(input: pty.follower, output: pty.follower, device: device, negotiate: false)
        defer { terminal.restore() }
        let sink = RecordingInputSink()
        let context = InputContext(
            sink: sink, makeDeviceID: { DeviceID(rawValue: 9) }, keyboardState: { KeyboardState() })
        let source = TerminalSource(terminal: terminal, loop: try EventLoop(), context: context)
        try source.start()
        guard case .layout(let change, let layoutDevice, _) = try #require(sink.inputs.first) else {
            Issue.record("the first input is the terminal's layout: \(sink.inputs)")
            return
        }
        #expect(change.layout is TerminalKeyboardLayout && layoutDevice == device)
        source.stop()
        guard case .deviceRemoved(let removed, _) = try #require(sink.inputs.last) else {
            Issue.record("stop ends the terminal's device through the sink: \(sink.inputs)")
            return
        }
        #expect(removed == device)
    }

    @Test("the terminal watched for output only still quits on Ctrl-C, and only on Ctrl-C")
    func outputOnlyControlC() {
        func quits(_ text: String, kitty: Bool = false) -> Bool {
            var decoder = TerminalKeyDecoder(reportsEventTypes: kitty)
            return TerminalKeyboard.containsControlC(decoder.decode(Array(text.utf8)))
        }
        #expect(quits("\u{3}"))
        #expect(quits("x\u{3}y"))
        #expect(quits("\u{1b}[99;5u", kitty: true))
        #expect(!quits("c"))
        #expect(!quits("\u{1b}[200~\u{3}\u{1b}[201~"), "a Ctrl-C byte inside a paste is text")
        #expect(!quits("\u{1b}[99;5:3u", kitty: true), "a release of C")
    }
}
