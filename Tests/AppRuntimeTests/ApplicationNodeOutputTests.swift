import AppRuntime
import Foundation
import Graphics
import ResponderChain
import ResponderChainTesting
import Testing

/// A node output drawing into a display list (`DrawingRecorder`) instead of pixels: the painter
/// and the runtime's pacing are the real ones; only the pixels are left out.
@MainActor final class DisplayListOutput: NodeOutput {
    let painter: WindowPainter
    var onResize: (() -> Void)?
    var onFrameShown: (() -> Void)?
    private(set) var updates = 0
    private(set) var frames: [(damage: DamageRegion, drawn: [String])] = []

    init(window: Window, size: Size) {
        painter = WindowPainter(window: window, size: size)
    }

    var pointSize: (width: Double, height: Double)? { (painter.size.width, painter.size.height) }

    func update() {
        updates += 1
        let damage = painter.takeDamage()
        guard !damage.isEmpty else { return }
        let recorder = DrawingRecorder()
        painter.paint(damage, in: recorder)
        frames.append((damage, recorder.nodesDrawn))
    }

    func invalidate() { painter.invalidateAll() }

    func resize(to size: Size) {
        painter.size = size
        onResize?()
    }
}

@MainActor @Suite struct ApplicationNodeOutputTests {
    /// An app of two buttons side by side in one group, drawn by a display-list output.
    static func makeApp() throws -> (Application, DisplayListOutput, pipe: [Int32]) {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        root.focusGroupIdentifier = "main"
        window.addChild(root)
        root.addChild(ButtonNode("Left", identifier: "left", frame: Rect(x: 40, y: 40, width: 200, height: 120)))
        root.addChild(ButtonNode("Right", identifier: "right", frame: Rect(x: 300, y: 40, width: 200, height: 120)))
        var configuration = Application.Configuration()
        configuration.terminalInput = fds[0]
        let app = try Application(window: window, root: root, configuration: configuration)
        let output = DisplayListOutput(window: window, size: Size(width: 800, height: 600))
        app.setPrimaryInput(FakeInputSource("seat"), fallsBackToTerminal: false)
        app.setNodeOutput(output)
        return (app, output, fds)
    }

    @Test("the first frame draws every node; the terminal is not drawn on and no key quits a screen")
    func firstFrame() throws {
        let (app, output, fds) = try Self.makeApp()
        defer { fds.forEach { close($0) } }
        try app.start()
        #expect(app.output == nil, "no Canvas output: an app drawing a canvas for the terminal draws nothing")
        #expect(app.terminal == nil)
        #expect(app.activeQuitCommand == nil)
        #expect(output.frames.count == 1)
        #expect(output.frames.first?.damage.rects == [Rect(x: 0, y: 0, width: 800, height: 600)])
        #expect(output.frames.first?.drawn.contains("left") == true)
        app.stop()
    }

    @Test("after a batch that moves focus only the two buttons are drawn; a batch that changes nothing draws nothing")
    func focusMoveThenIdle() throws {
        let (app, output, fds) = try Self.makeApp()
        defer { fds.forEach { close($0) } }
        try app.start()
        let keyboard = VirtualKeyboard(app.dispatcher)
        keyboard.tap("right")
        app.setNeedsFrame()
        _ = app.loop.runOnce(timeout: 0)
        #expect(app.focusSystem.focusedItem?.focusDebugName == "right")
        #expect(output.frames.count == 2)
        let damage = try #require(output.frames.last?.damage)
        #expect(damage.area < 2 * 220 * 140, "\(damage)")
        #expect(Set(output.frames.last?.drawn ?? []) == ["root", "left", "right"])
        let updates = output.updates
        app.setNeedsFrame()
        _ = app.loop.runOnce(timeout: 0)
        #expect(output.updates > updates, "the runtime asks after every batch")
        #expect(output.frames.count == 2, "nothing changed: nothing drawn")
        app.stop()
    }

    @Test("a resize is posted in points and draws everything")
    func resize() throws {
        let (app, output, fds) = try Self.makeApp()
        defer { fds.forEach { close($0) } }
        var changes: [Application.Change] = []
        app.onChange = { changes.append($0) }
        try app.start()
        output.resize(to: Size(width: 1024, height: 768))
        #expect(
            changes.contains {
                if case .screenResized(let width, let height) = $0 { width == 1024 && height == 768 } else { false }
            })
        #expect(output.frames.last?.damage.rects == [Rect(x: 0, y: 0, width: 1024, height: 768)])
        app.stop()
    }
}
