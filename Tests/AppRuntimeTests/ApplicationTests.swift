import AppRuntime
import Foundation
import LinuxSystem
import ResponderChain
import Testing

/// A fake input source (no device exists here): it records what the runtime asks of it, and
/// can fail to start.
@MainActor final class FakeInputSource: InputSource {
    let inputName: String
    var inputNote: String? { "fake note of \(inputName)" }
    var onDeviceChange: ((InputDeviceChange) -> Void)?
    var failure: (any Error)?
    var log: [String]

    init(_ name: String, log: [String] = [], failure: (any Error)? = nil) {
        inputName = name
        self.log = log
        self.failure = failure
    }

    func start() throws {
        log.append("start \(inputName)")
        if let failure { throw failure }
    }

    func stop() {
        log.append("stop \(inputName)")
    }
}

/// A message that is not an `InputError`, as a backend might throw.
struct BackendFailure: Error, CustomStringConvertible {
    var description: String { "the compositor refused the seat; set WAYLAND_DISPLAY" }
}

extension AppError.Code {
    /// A code a backend adds without touching AppRuntime.
    static let backendForTest = AppError.Code(rawValue: "backendForTest")
}

@MainActor @Suite struct ApplicationTests {
    /// An application whose terminal is a pipe (never a terminal), so that nothing here depends
    /// on how the tests were started.
    static func makeApp() throws -> (Application, pipe: [Int32]) {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 10, height: 2))
        let item = FocusNode(identifier: "item", frame: Rect(x: 0, y: 0, width: 10, height: 1), isFocusable: true)
        window.addChild(root)
        root.addChild(item)
        var configuration = Application.Configuration()
        configuration.usesTerminalForOutput = false
        configuration.terminalInput = fds[0]
        return (try Application(window: window, root: root, configuration: configuration), fds)
    }

    @Test(
        "the primary input starts first, then the sources added; input and note are the primary's; devices are posted")
    func primaryThenAdded() throws {
        let (app, fds) = try Self.makeApp()
        defer { fds.forEach { close($0) } }
        let primary = FakeInputSource("seat")
        let extra = FakeInputSource("gamepads")
        app.setPrimaryInput(primary, fallsBackToTerminal: true)
        app.add(extra)
        var changes: [String] = []
        app.onChange = { change in
            if case .deviceAdded(let device) = change { changes.append("added \(device.name)") }
            if case .deviceRemoved(let device, let keys) = change { changes.append("removed \(device.name) \(keys)") }
        }
        try app.start()
        #expect(primary.log == ["start seat"] && extra.log == ["start gamepads"])
        #expect(app.input == Application.Input(rawValue: "seat") && app.inputNote == "fake note of seat")
        #expect(app.sources.map(\.inputName) == ["seat", "gamepads"])
        #expect(app.output == nil, "no terminal for drawing was asked for")
        let pad = InputDeviceInfo(id: DeviceID(rawValue: 7), name: "pad", path: nil, detail: "gamepad")
        extra.onDeviceChange?(.added(pad))
        extra.onDeviceChange?(.removed(pad, cancelledKeys: [.a]))
        #expect(changes == ["added pad", "removed pad [KeyA]"])
        #expect(app.focusSystem.focusedItem?.focusDebugName == "item", "initial focus was given")
    }

    @Test("a primary input that cannot start, with no terminal to stand in, throws its own error with code input")
    func primaryFails() throws {
        let (app, fds) = try Self.makeApp()
        defer { fds.forEach { close($0) } }
        let denied = InputError(
            errno: .permissionDenied, operation: "open", path: "/dev/input/event3", message: "permission denied")
        app.setPrimaryInput(FakeInputSource("keyboards", failure: denied), fallsBackToTerminal: true)
        #expect {
            try app.openInput()
        } throws: { error in
            guard let error = error as? AppError else { return false }
            return error.code == .input && error.inputError == denied && error.message.contains("permission denied")
        }
    }

    @Test("an added source that fails stops the sources started before it; a backend's own error keeps its message")
    func addedFails() throws {
        let (app, fds) = try Self.makeApp()
        defer { fds.forEach { close($0) } }
        let primary = FakeInputSource("keyboards")
        app.setPrimaryInput(primary, fallsBackToTerminal: false)
        app.add(FakeInputSource("wayland", failure: BackendFailure()))
        #expect {
            try app.openInput()
        } throws: { error in
            guard let error = error as? AppError else { return false }
            return error.code == .input && error.inputError == nil && error.description.contains("WAYLAND_DISPLAY")
        }
        #expect(primary.log == ["start keyboards", "stop keyboards"])
        #expect(app.sources.isEmpty)
    }

    @Test("error codes are open: a backend adds one, and a switch on codes keeps compiling")
    func codesGrow() {
        let error = AppError(code: .backendForTest, message: "name the fix")
        let kind: String
        switch error.code {
        case .input: kind = "input"
        case .backendForTest: kind = "backend"
        default: kind = "other"
        }
        #expect(kind == "backend" && error.description == "name the fix")
    }
}
