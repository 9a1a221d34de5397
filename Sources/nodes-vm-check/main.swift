// Runs inside the test VM (Tools/vm-test nodes-display): a KeyboardApp on the display platform drawing
// its window's nodes (screenDrawing .nodes, so DRMNodeOutput at the display's own scale): a title and two
// buttons side by side, focus on the first. Prints the scale and where the buttons are in pixels, every
// focus move, and every frame on the screen with the rectangles it copied, saying whether they lie inside
// the two buttons (with their focus rings); runs until SIGTERM.
//
//   nodes-vm-check [--frame-log FILE] [--ready-file FILE] [--scale S]
//
// --frame-log writes a line a frame, as the kiosk example's does (`frame N started S shown T rows R`,
// ` modeset` for a mode set), followed by ` rects K pixels P` and the rectangles; --ready-file is created
// once the first frame is on the screen.
import AppRuntime
import DRMOutput
import Foundation
import Graphics
import LinuxKeyboard
import PlatformDisplay
import ResponderChain

/// A line on standard output at once (the guest's script reads it while the program runs).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ why: String) -> Never {
    say("FAIL nodes-display: \(why)")
    exit(1)
}

var frameLogPath: String?
var readyPath: String?
var scale: Double?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail("\(argument) takes a value") }
    switch argument {
    case "--frame-log": frameLogPath = value
    case "--ready-file": readyPath = value
    case "--scale": scale = Double(value)
    default: fail("unknown option \(argument)")
    }
}

MainActor.assumeIsolated {
    let window = Window(identifier: "nodes")
    window.backgroundColor = Theme.standard.background
    window.tintColor = Theme.standard.focus
    let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
    root.focusGroupIdentifier = "main"
    window.addChild(root)
    let title = LabelNode(
        "Riverside Clinic", style: TextStyle(font: Font(size: 48, weight: .bold), color: Theme.standard.text),
        identifier: "title")
    root.addChild(title)
    let buttons = [ButtonNode("Check in", identifier: "checkin"), ButtonNode("Help", identifier: "help")]
    for button in buttons { root.addChild(button) }

    /// The layout for a screen of this many points: the title across the top, the buttons under it.
    @MainActor func layOut(width: Double, height: Double) {
        root.frame = Rect(x: 0, y: 0, width: width, height: height)
        title.frame = Rect(x: 64, y: 64, width: max(0, width - 128), height: 72)
        for (index, button) in buttons.enumerated() {
            button.frame = Rect(x: 64 + Double(index) * 400, y: 220, width: 360, height: 120)
        }
    }

    var configuration = KeyboardApp.Configuration()
    configuration.screenDrawing = .nodes
    configuration.input = .keyboards
    configuration.inspection.isEnabled = false
    var options = DisplayPlatform.Options()
    options.scale = scale
    let app: KeyboardApp
    do {
        app = try KeyboardApp(
            window: window, root: root, configuration: configuration, platforms: [DisplayPlatform(options: options)])
    } catch { fail("\(error)") }
    guard let display = app.display, let output = display.nodeOutput else { fail("no node output on the display") }
    let size = output.pointSize ?? (1280, 800)
    layOut(width: size.width, height: size.height)

    // What a focus move may copy: each button with its focus ring (a 4-point ring 3 points out).
    let reaches = buttons.map { DisplayRect(enclosing: $0.frame.insetBy(dx: -8, dy: -8), scale: output.scale) }
    let density = DisplayScale.pixelsPerInch(of: output.mode, on: output.connector)
    say(
        "nodes on \(output.connector.name) \(output.mode): \(output.connector.physicalWidth)x"
            + "\(output.connector.physicalHeight) mm, \(density.map { "\(Int($0.rounded())) dpi" } ?? "size unknown"),"
            + " scale \(output.scale), \(Int(size.width))x\(Int(size.height)) points")
    say("buttons with their rings: check in \(reaches[0]), help \(reaches[1])")

    let frameLog: OutputBuffer?
    do { frameLog = try frameLogPath.map { try OutputBuffer(path: $0) } } catch { fail("--frame-log: \(error)") }
    let screen = output.mode.width * output.mode.height
    display.output.onPresented = { frame in
        let rects = frame.rectsCopied.map(\.description).joined(separator: " ")
        frameLog?.line(
            "frame \(frame.number) started \(frame.started) shown \(frame.shown) rows \(frame.rowsCopied)"
                + (frame.byModeSet ? " modeset" : "") + " rects \(frame.rectsCopied.count) pixels \(frame.pixelsCopied)"
                + " \(rects)")
        frameLog?.flush()
        let inside = frame.rectsCopied.allSatisfy { rect in reaches.contains { $0.contains(rect) } }
        say(
            "frame \(frame.number) \(frame.byModeSet ? "by mode set" : "flipped"):"
                + " \(frame.rectsCopied.count) rects \(rects), \(frame.pixelsCopied) of \(screen) pixels,"
                + (inside ? " inside the two buttons" : " not only the buttons")
                + ", \(Int(((frame.shown - frame.started) * 1000).rounded())) ms to the screen")
        guard frame.number == 1, let readyPath else { return }
        if !FileManager.default.createFile(atPath: readyPath, contents: nil) {
            say("--ready-file: cannot create \(readyPath)")
        }
    }
    display.output.onChange = { change in say("display: \(change)") }
    app.onChange = { change in
        switch change {
        case .focusMoved(let from, let to): say("focus \(from ?? "-") -> \(to ?? "-")")
        case .deviceAdded(let device): say("keyboard added: \(device.name)")
        case .screenResized(let width, let height): layOut(width: width, height: height)
        default: break
        }
    }
    if let note = (app.platform as? DisplayPlatform)?.note { say("note: \(note)") }
    do { try app.run() } catch { fail("\(error)") }
    say("nodes-vm-check: stopped after \(output.framesPresented) frames")
}
