import AppRuntime
import EventLoop
import Foundation
import Glibc
import PixelCanvas
import ResponderChain
import TerminalCanvas
import TestSupport
import Testing
import WaylandClient

/// An app on sway headless as a kiosk runs under a compositor: an `Application` whose input is
/// the seat (`WaylandSeatSource`) and whose frames go to a window (`WaylandCanvasOutput`). Keys
/// come from `wtype` (one virtual keyboard held for the whole test, as a real keyboard stays
/// plugged in: otherwise each key arrives inside `enter` and, rightly, begins nothing).
@MainActor
final class SeatRig {
    static let json = """
        {"root": {"id": "screen", "frame": [0, 0, 80, 31], "children": [
          {"id": "open", "frame": [0, 0, 30, 10], "focusable": true, "primaryAction": "open", "actions": ["open"]},
          {"id": "name", "kind": "textInput", "frame": [40, 12, 30, 3]}]}}
        """

    let sway: SwayHeadless
    let scene: Scene
    let app: Application
    let connection: WaylandConnection
    let window: WaylandWindow
    let output: WaylandCanvasOutput
    let seat: WaylandSeatSource
    /// Press phases, once per press and phase: `KeyA began`.
    var presses: [String] = []
    /// Characters of key-downs, in order.
    var typed = ""
    /// Characters of presses that began with Shift down.
    var shifted = ""
    var changes: [Application.Change] = []
    private var seen: Set<String> = []
    private var observation: TraceObservation?

    init(sway: SwayHeadless, holdKeyboard: Bool = true) throws {
        self.sway = sway
        if holdKeyboard {
            try sway.run(["wtype", "-s", "3600000"], background: true)
        }
        scene = try Scene(json: Self.json, file: "seat.json")
        var configuration = Application.Configuration()
        configuration.usesTerminalForOutput = false
        configuration.quitCommand = nil
        configuration.inspection.isEnabled = false
        app = try Application(window: scene.window, root: scene.root, configuration: configuration)
        connection = try WaylandConnection(loop: app.loop, environment: sway.environment)
        window = try WaylandWindow(connection: connection, options: .init(title: "Seat", appID: "rc.seat"))
        output = WaylandCanvasOutput(window: window, renderer: try PixelRenderer(pixelSize: 16))
        seat = WaylandSeatSource(connection: connection, window: window, loop: app.loop, context: app.inputContext)
        seat.surface = output
        app.setOutput(output)
        app.setPrimaryInput(seat, fallsBackToTerminal: false)
        app.onFrame = { [unowned self] in
            guard let size = self.output.size else { return }
            var canvas = Canvas(columns: size.columns, rows: size.rows)
            canvas.text("focus \(self.scene.window.focusSystem?.focusedItem?.focusDebugName ?? "-")", 0, 0, CellStyle())
            canvas.text("typed \(self.typed)", 0, 1, CellStyle())
            self.output.show(canvas)
        }
        app.onChange = { [unowned self] change in self.changes.append(change) }
        observation = app.dispatcher.addTraceObserver { [unowned self] record in
            switch record.kind {
            case .press(let press, _), .pressOwned(let press, _, _):
                guard self.seen.insert("\(press.id) \(press.phase) \(press.repeatCount)").inserted else { return }
                if press.phase == .began, press.key.modifierFlags.contains(.shift) {
                    self.shifted += press.key.characters
                }
                self.presses.append("\(press.key.charactersIgnoringModifiers) \(press.phase)")
            case .input(let event, let key, .pressed) where event.action == .down:
                self.typed += key.characters
            default:
                break
            }
        }
        try app.start()
        guard pump(upTo: 5, until: { self.window.framesDone >= 1 && self.window.width == 800 }) else {
            throw SwayHeadless.Failure(description: "the window never showed a frame")
        }
    }

    /// Runs the app's loop until `condition` holds or `seconds` pass.
    @discardableResult
    func pump(upTo seconds: Double, until condition: () -> Bool) -> Bool {
        run(app.loop, upTo: seconds, until: condition)
    }

    /// Runs a client as sway's user (wtype, swaymsg), then the loop until the compositor's events are in.
    func client(_ arguments: [String], settle: Double = 0.3) throws {
        let status = try sway.run(arguments)
        #expect(status == 0, "\(arguments)")
        pump(upTo: settle) { false }
    }
}

@Suite("An app on a Wayland seat, against sway headless", .serialized)
@MainActor
struct WaylandSeatTests {
    @Test(
        "typing: wtype's own keymap (its keys at arbitrary codes) types the right text, so the keymap is the compositor's"
    )
    func typingUsesTheCompositorsKeymap() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let rig = try SeatRig(sway: sway)
        try rig.client(["env", "LANG=C.UTF-8", "wtype", "Zoë 42"])
        #expect(rig.pump(upTo: 3) { rig.typed == "Zoë 42" }, "\(rig.typed)")
        #expect(rig.seat.layout != nil, "a keymap came from the compositor")
        #expect(rig.app.inputNote?.contains("keymap from the compositor") == true, "\(rig.app.inputNote ?? "")")
        // Every key pressed was released: no press is left open.
        let began = rig.presses.filter { $0.hasSuffix("began") }.count
        #expect(began > 0 && began == rig.presses.filter { $0.hasSuffix("ended") }.count, "\(rig.presses)")
    }

    @Test("Shift and Caps Lock come from the compositor's modifier events, as its keymap applies them")
    func modifiersFromTheCompositor() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let rig = try SeatRig(sway: sway)
        // wtype sends Shift as a modifier event (zwp_virtual_keyboard_v1.modifiers), never as a key.
        try rig.client(["wtype", "-M", "shift", "-k", "a", "-m", "shift", "-k", "b"])
        #expect(rig.pump(upTo: 3) { rig.typed == "ab" }, "\(rig.typed) \(rig.presses)")
        // The key carries Shift (Shift-Tab, Shift-Return work); its letter keeps its case because
        // wtype's keymap gives each key one level, which xkbcommon does not shift.
        #expect(rig.shifted == "a", "\(rig.shifted)")
        // Caps Lock, locked and unlocked by the compositor's state in one wtype run (each run's
        // new keymap starts a new state there), capitalizes even one-level keys.
        try rig.client(["wtype", "-k", "Caps_Lock", "-k", "c", "-k", "Caps_Lock", "-k", "d"])
        #expect(rig.pump(upTo: 3) { rig.typed.hasSuffix("Cd") }, "\(rig.typed) \(rig.presses)")
        #expect(!rig.app.dispatcher.keyboardState.locks.contains(.capsLock))
    }

    @Test("a key held while another window takes focus ends cancelled, never ended, and does not repeat")
    func focusLossCancels() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let rig = try SeatRig(sway: sway)
        // wtype holds x down while it runs (its virtual keyboard releases every key when it goes).
        let holder = try sway.start(["wtype", "-P", "x", "-s", "60000"])
        #expect(rig.pump(upTo: 3) { rig.presses == ["x began"] }, "\(rig.presses)")
        // Another client's window maps and sway gives it keyboard focus.
        let other = try WaylandConnection(loop: rig.app.loop, environment: sway.environment)
        let otherWindow = try WaylandWindow(connection: other, options: .init(title: "Other", appID: "rc.other"))
        #expect(rig.pump(upTo: 5) { otherWindow.isConfigured })
        otherWindow.present { buffer in
            buffer.fill(rows: 0..<buffer.height, color: 0xFF_00_00_FF)
            return [buffer.bounds]
        }
        #expect(rig.pump(upTo: 5) { rig.presses.contains("x cancelled") }, "\(rig.presses)")
        let cancelledAt = rig.presses.count
        rig.pump(upTo: 1) { false }  // longer than the repeat delay
        // (A slow machine may repeat x before the other window maps: nothing may follow the cancel.)
        #expect(rig.presses.first == "x began" && rig.presses.last == "x cancelled", "\(rig.presses)")
        #expect(rig.presses.count == cancelledAt && !rig.presses.contains("x ended"), "\(rig.presses)")
        #expect(rig.seat.repeater.repeatingKey == nil)
        holder.terminate()
        holder.waitUntilExit()
        rig.pump(upTo: 0.3) { false }
        #expect(rig.presses.count == cancelledAt, "the release went to the other window: \(rig.presses)")
    }

    @Test("the compositor's repeat rate drives the repeat; a rate of 0 turns it off")
    func repeatRate() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let rig = try SeatRig(sway: sway)
        try rig.client(["swaymsg", "input type:keyboard repeat_delay 200, input type:keyboard repeat_rate 20"])
        #expect(rig.pump(upTo: 3) { rig.seat.announcedRepeat == RepeatTiming(delay: 0.2, interval: 0.05) })
        let holder = try sway.start(["wtype", "-P", "r", "-s", "700", "-p", "r"])
        rig.pump(upTo: 5) { !holder.isRunning && rig.presses.contains("r ended") }
        let repeats = rig.presses.filter { $0 == "r repeat" }.count
        // 0.2 s delay, then 20 a second, for about 0.7-1.0 s held: well over 5, well under 40.
        #expect(repeats >= 5 && repeats <= 40, "\(rig.presses)")
        try rig.client(["swaymsg", "input", "type:keyboard", "repeat_rate", "0"])
        #expect(rig.pump(upTo: 3) { rig.seat.announcedRepeat == nil })
        let before = rig.presses.count
        let second = try sway.start(["wtype", "-P", "s", "-s", "700", "-p", "s"])
        rig.pump(upTo: 5) { !second.isRunning && rig.presses.contains("s ended") }
        #expect(Array(rig.presses[before...]) == ["s began", "s ended"], "\(rig.presses)")
        #expect(rig.app.inputNote != nil)
    }

    @Test("a resize from the compositor draws the canvas again at the new size")
    func resizeRedraws() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let rig = try SeatRig(sway: sway)
        let before = rig.output.framesDrawn
        #expect(rig.output.size! == (80, 31))
        try rig.client(["swaymsg", "output", "HEADLESS-1", "resolution", "640x480"])
        #expect(rig.pump(upTo: 5) { rig.window.width == 640 && rig.output.framesDrawn > before })
        #expect(rig.output.size! == (64, 25))
        #expect(
            rig.changes.contains { if case .resized(64, 25) = $0 { true } else { false } }, "\(rig.changes)")
        #expect(rig.pump(upTo: 5) { rig.window.framesDone == rig.window.framesCommitted })
        let committed = rig.window.framesCommitted
        rig.pump(upTo: 0.5) { false }
        #expect(rig.window.framesCommitted == committed, "an unchanged canvas commits nothing")
        let shot = try sway.screenshot()
        #expect(shot.width == 640)
        // "focus open" in the palette's foreground on the first row: some pixel there is light.
        let light = (0..<100).contains { x in (0..<19).contains { y in shot.pixel(x, y).allSatisfy { $0 > 128 } } }
        #expect(light, "text drawn after the resize")
    }

    @Test("a click on a tile runs its action and leaves focus; a click on a text field focuses it (a virtual pointer)")
    func clicks() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let pointer = try PointerTool(sway: sway, arguments: ["--hold"])
        defer { pointer.stop() }
        #expect(pointer.readLine() == "ready")
        let rig = try SeatRig(sway: sway)
        var performed: [String] = []
        rig.scene.nodes["open"]?.onAction = { action, _ in performed.append(action.rawValue) }
        #expect(rig.pump(upTo: 3) { rig.seat.devices.contains { $0.name.hasSuffix("pointer") } })
        // Cells are 10x19 pixels (DejaVu Sans Mono at 16 px): the tile spans 0-300 x 0-190, the field
        // 400-700 x 228-285.
        let focusBefore = rig.scene.window.focusSystem?.focusedItem?.focusDebugName
        #expect(focusBefore != "name")
        #expect(pointer.send("click 150 95") == "ok")
        #expect(rig.pump(upTo: 3) { performed == ["open"] }, "\(performed)")
        #expect(rig.scene.window.focusSystem?.focusedItem?.focusDebugName == focusBefore)
        // Pressed on the tile, released beside it: nothing.
        #expect(pointer.send("move-abs 150 95; press; move-abs 350 95; release") == "ok")
        rig.pump(upTo: 0.3) { false }
        #expect(performed == ["open"])
        #expect(pointer.send("click 550 247") == "ok")
        #expect(rig.pump(upTo: 3) { rig.scene.window.focusSystem?.focusedItem?.focusDebugName == "name" })
        #expect(rig.scene.window.firstResponder?.traceName == "name")
    }

    @Test("a frame drawn after a key reaches the compositor in that batch, with no further input")
    func frameAfterKeyIsSent() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let rig = try SeatRig(sway: sway)
        let before = rig.output.framesDrawn
        try rig.client(["wtype", "Q"], settle: 0)
        #expect(rig.pump(upTo: 3) { rig.typed == "Q" && rig.output.framesDrawn > before })
        // The loop is not run again: the commit of that frame must already be with sway. "typed Q"
        // puts ink in cell 6 of row 1 (10x19 cells).
        let shot = try sway.screenshot()
        let ink = (60..<70).contains { x in (19..<38).contains { y in shot.pixel(x, y).allSatisfy { $0 > 128 } } }
        #expect(ink, "the frame showing Q was not sent")
    }

    @Test("the compositor killed: held presses are cancelled and run() throws the Wayland error")
    func compositorKilled() async throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let rig = try SeatRig(sway: sway)
        _ = try sway.start(["wtype", "-P", "k", "-s", "60000"])
        #expect(rig.pump(upTo: 3) { rig.presses == ["k began"] }, "\(rig.presses)")
        rig.connection.onDisconnect = { [unowned rig] error in
            rig.seat.connectionLost()
            rig.app.stop(failing: AppError(code: AppError.Code(rawValue: "wayland"), message: error.message))
        }
        sway.kill()
        do {
            try await rig.app.run()
            Issue.record("run() returned")
        } catch {
            #expect(error.code.rawValue == "wayland")
            #expect(error.message.contains("compositor"), "\(error.message)")
        }
        #expect(rig.presses == ["k began", "k cancelled"], "\(rig.presses)")
    }
}
