import CairoGraphics
import EventLoop
import Graphics
import ResponderChain
import ResponderChainTesting
import TestSupport
import Testing
import WaylandClient

/// The focus layer through a session a kiosk user has: after each step, what sway shows is the
/// frame drawn whole, byte for byte, whatever the window's buffer, the kept patches and the damage
/// left under the layer hold.
@MainActor @Suite(.serialized) struct FocusLayerSequenceTests {
    /// A check-in form: a name field, a PIN field, Done, and the on-screen keyboard under them.
    @MainActor struct Form {
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let name = TextFieldNode(label: "Name", identifier: "name", frame: Rect(x: 24, y: 24, width: 380, height: 88))
        let pin = TextFieldNode(label: "PIN", identifier: "pin", frame: Rect(x: 424, y: 24, width: 200, height: 88))
        let done = ButtonNode("Done", identifier: "done", frame: Rect(x: 644, y: 40, width: 132, height: 64))
        let keyboard: OnScreenKeyboard
        let app: AppHarness

        init() {
            window.backgroundColor = Theme.standard.background
            window.addChild(root)
            for node in [name, pin, done] as [FocusNode] { root.addChild(node) }
            root.preferredFocusIdentifiers = ["done"]
            app = AppHarness(window: window, root: root)
            keyboard = OnScreenKeyboard(
                layout: USKeyboardLayout(), sink: app.dispatcher, device: DeviceID(rawValue: 900))
            keyboard.frame = Rect(x: 0, y: 300, width: 800, height: 300)
            root.addChild(keyboard)
            keyboard.attach(to: app.focusSystem)
        }

        func key(_ name: String) -> KeyNode? {
            keyboard.rows.joined().first { $0.identifier == "key-" + name }
        }
    }

    /// The window's nodes drawn whole by a painter of their own, as sway's screenshot gives them (RGB).
    static func wholeFrame(_ window: Window) -> [UInt8] {
        let painter = WindowPainter(window: window, size: Size(width: 800, height: 600))
        defer {
            painter.detach()
            window.isDisplayObserved = true  // the output's painter still follows it
        }
        let damage = painter.takeDamage()
        var pixels = [UInt8](repeating: 0, count: 800 * 600 * 4)
        pixels.withUnsafeMutableBytes { bytes in
            CairoRenderer().render(
                into: bytes, width: 800, height: 600, stride: 800 * 4, format: .xrgb8888, scale: 1,
                damage: damage.rects
            ) { context in painter.paint(damage, in: context) }
        }
        var rgb = [UInt8](repeating: 0, count: 800 * 600 * 3)
        for index in 0..<800 * 600 {
            rgb[index * 3] = pixels[index * 4 + 2]
            rgb[index * 3 + 1] = pixels[index * 4 + 1]
            rgb[index * 3 + 2] = pixels[index * 4]
        }
        return rgb
    }

    @Test(
        "moves, typing, a field typed into from the on-screen keyboard's keys (first responder where focus is not), the field resigning, back and forth: every screen is the whole frame's"
    )
    func sessionMatchesWholeFrames() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let waylandWindow = try WaylandWindow(connection: connection, options: .init(title: "Form", appID: "rc.form"))
        let form = Form()
        let output = WaylandNodeOutput(window: waylandWindow, showing: form.window)
        #expect(output.showsFocusLayer)
        #expect(
            run(loop, upTo: 5) { output.framesDrawn >= 1 && waylandWindow.framesDone == waylandWindow.framesCommitted })

        var checked: [String] = []
        func expectWhole(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            output.update()
            _ = run(loop, upTo: 5) { !waylandWindow.isFramePending && waylandWindow.deferredDrawCount == 0 }
            _ = run(loop, upTo: 0.25) { false }
            let shot = try sway.screenshot()
            let whole = Self.wholeFrame(form.window)
            let differing = zip(shot.rgb, whole).filter { $0 != $1 }.count
            #expect(differing == 0, "\(step): \(differing) bytes differ", sourceLocation: sourceLocation)
            checked.append(step)
        }
        try expectWhole("the first frame, Done focused")
        // A tap on the name: focused, first responder, the keyboard shown.
        form.app.pointer.tap(at: Point(x: form.name.frame.midX, y: form.name.frame.midY))
        #expect(form.window.firstResponder === form.name && !form.keyboard.isHidden)
        try expectWhole("the name tapped, the keyboard shown")
        form.app.keyboard.tap("a")
        form.app.keyboard.tap("b")
        #expect(form.name.text == "ab")
        try expectWhole("\"ab\" typed into the focused name")
        // Down into the keyboard: focus on a key, the name still first responder (its caret shows).
        form.app.keyboard.tap("down")
        #expect(form.app.focusSystem.focusedItem is KeyNode)
        #expect(form.window.firstResponder === form.name)
        try expectWhole("focus on a key, the name first responder")
        let key = try #require(form.key("c"))
        form.app.pointer.tap(at: Point(x: key.frame.midX, y: key.frame.midY))
        #expect(form.name.text == "abc")
        try expectWhole("\"c\" tapped on the keyboard")
        form.app.keyboard.tap("right")
        try expectWhole("the next key")
        form.app.keyboard.tap("left")
        try expectWhole("back to the key before (its patch kept)")
        // Back to the name, then to Done: the name resigns, its caret goes.
        form.app.focusSystem.setNeedsFocusUpdate(on: form.name)
        form.app.focusSystem.updateFocusIfNeeded()
        try expectWhole("the name focused again")
        form.app.focusSystem.setNeedsFocusUpdate(on: form.done)
        form.app.focusSystem.updateFocusIfNeeded()
        #expect(form.window.firstResponder !== form.name)
        try expectWhole("Done focused, the name resigned")
        form.app.focusSystem.setNeedsFocusUpdate(on: form.name)
        form.app.focusSystem.updateFocusIfNeeded()
        form.app.keyboard.tap("d")
        try expectWhole("the name again, \"d\" typed")
        // The name resigns while it keeps focus (as a Done action would): its kept patch must not show the caret.
        _ = form.name.resignFirstResponder()
        try expectWhole("the name resigned, still focused")
        form.app.focusSystem.setNeedsFocusUpdate(on: form.done)
        form.app.focusSystem.updateFocusIfNeeded()
        try expectWhole("Done focused again")
        #expect(checked.count == 12)
        #expect(waylandWindow.focusLayer.reused > 0, "some patches were kept")
    }
}
