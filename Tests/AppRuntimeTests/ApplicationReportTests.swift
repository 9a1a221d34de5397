import Foundation
import ResponderChain
import TerminalCanvas
import Testing

@testable import AppRuntime

/// A screen an app draws on (a window, a display) for the quit command's choice; it shows nothing.
@MainActor final class FakeScreenOutput: CanvasOutput {
    var size: (columns: Int, rows: Int)? { (80, 24) }
    func show(_ canvas: Canvas) {}
    func invalidate() {}
}

/// The runtime's messages while it runs, and the quit command it reserves for its output.
@MainActor @Suite struct ApplicationReportTests {
    @Test("a message is one line on standard error: the program named, newlines and controls escaped")
    func oneLine() {
        let line = Application.standardErrorLine("speech-dispatcher said \"x\nFORGED LINE (pid 1) exited\"\u{1b}[2J")
        #expect(!line.contains("\n") && !line.contains("\u{1b}"), "\(line)")
        #expect(line.hasPrefix("\(Application.programName): speech-dispatcher said"))
        #expect(line.contains("\\nFORGED LINE"))
    }

    @Test("report gives the message to onMessage; standard error is not a drawn terminal when nothing is drawn")
    func onMessage() throws {
        let (app, fds) = try ApplicationTests.makeApp()
        defer { fds.forEach { close($0) } }
        var shown: [String] = []
        app.onMessage = { shown.append($0) }
        app.setPrimaryInput(FakeInputSource("seat"), fallsBackToTerminal: false)
        try app.start()
        app.report("the trace stopped: disk full")
        #expect(shown == ["the trace stopped: disk full"])
        #expect(!app.stderrIsDrawnTerminal)
    }

    @Test("a message from the setup is reported when the app opens, unless the app took it over by then")
    func reportedWhenOpened() throws {
        let (app, fds) = try ApplicationTests.makeApp()
        defer { fds.forEach { close($0) } }
        var shown: [String] = []
        var takenOver = false
        app.reportWhenOpened("the speech settings file is a symbolic link")
        app.reportWhenOpened("speech-dispatcher is not running", unless: { takenOver })
        app.onMessage = { shown.append($0) }  // set after the setup, as an app does
        takenOver = true
        #expect(shown.isEmpty, "nothing before the app opens")
        app.setPrimaryInput(FakeInputSource("seat"), fallsBackToTerminal: false)
        try app.start()
        #expect(shown == ["the speech settings file is a symbolic link"])
        app.reportWhenOpened("later")
        #expect(shown.last == "later", "once open, at once")
    }

    @Test("the quit command: Ctrl-C when the app draws in a terminal (or on nothing), none on a screen, or the one set")
    func quitCommandForOutput() throws {
        let (terminalApp, fds) = try ApplicationTests.makeApp()
        defer { fds.forEach { close($0) } }
        terminalApp.setPrimaryInput(FakeInputSource("keyboards"), fallsBackToTerminal: false)
        try terminalApp.start()
        #expect(terminalApp.activeQuitCommand == .standardQuit)
        #expect(terminalApp.dispatcher.reservedShortcuts.first?.command == .standardQuit)

        let (screenApp, more) = try ApplicationTests.makeApp()
        defer { more.forEach { close($0) } }
        screenApp.setPrimaryInput(FakeInputSource("seat"), fallsBackToTerminal: false)
        screenApp.setOutput(FakeScreenOutput())
        try screenApp.start()
        #expect(screenApp.activeQuitCommand == nil)
        #expect(screenApp.dispatcher.reservedShortcuts.isEmpty, "no key quits a kiosk on a screen")
    }
}
