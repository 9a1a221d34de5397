import CairoGraphics
import EventLoop
import Graphics
import LinuxSystem
import ResponderChain
import Testing

@testable import DRMOutput

/// The node output on a DRM device in memory (`MemoryScanout`): what each frame draws, copies and
/// flips, and that the buffer shown always holds the whole window as drawing it afresh gives.
@MainActor
@Suite("DRMNodeOutput: nodes drawn by damage, copied by rectangle into the buffer that missed them")
struct DRMNodeOutputTests {
    /// Two buttons and a label, as the VM scenario shows them.
    @MainActor
    final class Scene {
        let window = Window(identifier: "nodes")
        let root: FocusNode
        let title: LabelNode
        let buttons: [ButtonNode]
        let focusSystem: FocusSystem

        init(width: Double = 320, height: Double = 200) {
            window.backgroundColor = Theme.standard.background
            root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: width, height: height))
            root.focusGroupIdentifier = "main"
            window.addChild(root)
            title = LabelNode(
                "Welcome", style: TextStyle(font: Font(size: 24, weight: .bold), color: Theme.standard.text),
                identifier: "title", frame: Rect(x: 20, y: 16, width: 280, height: 36))
            root.addChild(title)
            buttons = ["Check in", "Help"].enumerated().map { index, name in
                ButtonNode(
                    name, identifier: name, frame: Rect(x: 20 + Double(index) * 150, y: 100, width: 130, height: 60))
            }
            for button in buttons { root.addChild(button) }
            focusSystem = window.makeDispatcher(focusRoot: root, layout: USKeyboardLayout()).1
            focusSystem.updateFocusIfNeeded()
        }

        func focus(_ index: Int) {
            focusSystem.setNeedsFocusUpdate(on: buttons[index])
            focusSystem.updateFocusIfNeeded()
        }
    }

    /// An output on a memory device, with its frames recorded.
    @MainActor
    final class Rig {
        let loop: EventLoop
        let scanout: MemoryScanout
        let output: DRMNodeOutput
        var frames: [DisplayFrame] = []
        var changes: [DisplayChange] = []

        init(scene: Scene, scanout: MemoryScanout = MemoryScanout(), scale: Double? = 1) throws {
            loop = try EventLoop()
            self.scanout = scanout
            var display = DisplayOptions()
            display.followsHotPlug = false
            let options = DRMNodeOutput.Options(display: display, scale: scale)
            let chosen = try DisplayCore.choose(on: scanout, options: display)
            output = try DRMNodeOutput(
                loop: loop, window: scene.window, renderer: CairoRenderer(), device: scanout, chosen: chosen,
                seat: nil, options: options)
            output.onPresented = { [unowned self] in frames.append($0) }
            output.onChange = { [unowned self] in changes.append($0) }
        }

        /// The flip asked for is on the screen.
        func completeFlip() {
            scanout.completeFlip()
            output.core.readEvents()
        }

        /// The window drawn whole, afresh, as 0xRRGGBB words.
        func reference() -> [UInt32] {
            let painter = output.painter
            var everything = DamageRegion()
            everything.add(painter.bounds)
            let image = output.renderer.image(size: painter.size, scale: output.scale) { context in
                painter.paint(everything, in: context)
            }
            return stride(from: 0, to: image.height, by: 1).flatMap { row in
                (0..<image.width).map { column in
                    let offset = row * image.stride + column * 4
                    return UInt32(image.pixels[offset]) | UInt32(image.pixels[offset + 1]) << 8
                        | UInt32(image.pixels[offset + 2]) << 16
                }
            }
        }

        /// Whether the buffer on the screen holds the window as drawing it whole gives.
        func screenIsRight() throws -> Bool {
            let shown = try #require(scanout.shown)
            return scanout.rgb(of: shown) == reference()
        }
    }

    /// The damage in pixels that a painter of a twin scene reports for the same change.
    func pixels(_ damage: DamageRegion, scale: Double = 1) -> [DisplayRect] {
        damage.rects.map { DisplayRect(enclosing: $0, scale: scale) }
    }

    @Test("the first frame sets the mode with every pixel; an unchanged frame draws, copies and flips nothing")
    func firstAndUnchanged() throws {
        let scene = Scene()
        let rig = try Rig(scene: scene)
        var shown = 0
        rig.output.onFrameShown = { shown += 1 }
        #expect(rig.output.pointSize! == (320, 200))
        rig.output.update()
        #expect(shown == 1, "the mode set shows the frame at once")
        #expect(rig.scanout.modeSets.count == 1 && rig.scanout.flips.isEmpty)
        #expect(rig.frames.count == 1 && rig.frames[0].byModeSet)
        #expect(rig.frames[0].rectsCopied == [DisplayRect(x: 0, y: 0, width: 320, height: 200)])
        #expect(rig.frames[0].rowsCopied == 200 && rig.frames[0].pixelsCopied == 64_000)
        #expect(try rig.screenIsRight())
        let painted = rig.output.painter.framesPainted
        for _ in 0..<3 { rig.output.update() }
        #expect(rig.output.painter.framesPainted == painted, "nothing drawn")
        #expect(rig.scanout.modeSets.count == 1 && rig.scanout.flips.isEmpty, "nothing shown")
        #expect(rig.frames.count == 1)
        // A change that damages nothing (a node moved to where it is) shows nothing either.
        scene.title.frame = scene.title.frame
        rig.output.update()
        #expect(rig.scanout.flips.isEmpty && rig.frames.count == 1)
        // A change is flipped, and shown when the flip's event comes.
        scene.focus(1)
        rig.output.update()
        #expect(rig.scanout.flips.count == 1 && shown == 1)
        rig.completeFlip()
        #expect(shown == 2 && rig.frames.count == 2)
    }

    @Test(
        "each frame copies its damage and what its buffer missed: the third frame into the first buffer copies the second frame's damage and its own"
    )
    func bufferAge() throws {
        let scene = Scene()
        let twin = Scene()
        let painter = WindowPainter(window: twin.window, size: Size(width: 320, height: 200))
        _ = painter.takeDamage()
        let rig = try Rig(scene: scene)
        let bounds = DisplayRect(x: 0, y: 0, width: 320, height: 200)
        rig.output.update()  // frame 1 into buffer A: the mode set
        let (first, second) = (rig.scanout.modeSets[0], rig.scanout.buffers.keys.sorted().last!)
        // Frame 2 into buffer B, which was never drawn into: all of it.
        scene.focus(1)
        twin.focus(1)
        let focusMove = painter.takeDamage()
        rig.output.update()
        #expect(rig.scanout.flips == [second])
        rig.completeFlip()
        #expect(rig.frames.count == 2 && rig.frames[1].rectsCopied == [bounds])
        #expect(try rig.screenIsRight())
        // Frame 3 into buffer A: the label's new text, and the focus move A missed.
        scene.title.text = "Welcome back"
        twin.title.text = "Welcome back"
        let retitle = painter.takeDamage()
        rig.output.update()
        rig.completeFlip()
        #expect(rig.scanout.flips == [second, first])
        let expected = DisplayRect.coalesced(pixels(focusMove) + pixels(retitle), within: bounds, limit: 16)
        #expect(rig.frames[2].rectsCopied == expected)
        #expect(rig.frames[2].pixelsCopied < 64_000 * 3 / 5)
        #expect(try rig.screenIsRight())
        // Frame 4 into buffer B: a focus move back, and the label B missed; not the first move, which B has.
        scene.focus(0)
        twin.focus(0)
        let moveBack = painter.takeDamage()
        rig.output.update()
        rig.completeFlip()
        #expect(rig.scanout.flips == [second, first, second])
        #expect(
            rig.frames[3].rectsCopied
                == DisplayRect.coalesced(pixels(retitle) + pixels(moveBack), within: bounds, limit: 16))
        #expect(try rig.screenIsRight())
    }

    @Test("while a flip is on its way an update only asks for a frame; the flip's event draws everything since in one")
    func pacedByFlips() throws {
        let scene = Scene()
        let rig = try Rig(scene: scene)
        rig.output.update()
        scene.focus(1)
        rig.output.update()
        #expect(rig.scanout.flips.count == 1)
        let painted = rig.output.painter.framesPainted
        scene.title.text = "One moment"
        rig.output.update()
        scene.focus(0)
        rig.output.update()
        #expect(rig.output.painter.framesPainted == painted, "nothing drawn while the flip is pending")
        #expect(rig.scanout.flips.count == 1)
        rig.completeFlip()
        #expect(rig.output.painter.framesPainted == painted + 1, "one frame for both changes")
        #expect(rig.scanout.flips.count == 2)
        rig.completeFlip()
        #expect(try rig.screenIsRight())
        rig.output.update()
        #expect(rig.scanout.flips.count == 2)
    }

    @Test("a refused flip is said once and the frame waits; a flip whose event never comes leaves both buffers whole")
    func refusedAndLost() throws {
        let scene = Scene()
        let rig = try Rig(scene: scene)
        let bounds = DisplayRect(x: 0, y: 0, width: 320, height: 200)
        rig.output.update()
        scene.focus(1)
        rig.output.update()
        rig.completeFlip()
        scene.title.text = "Refused"
        rig.scanout.refuseNext = .invalidArgument
        rig.output.update()
        #expect(rig.changes.count == 1 && rig.frames.count == 2)
        if case .failed(let error) = rig.changes.first {
            #expect(error.code == .device && error.errno == .invalidArgument)
        } else {
            Issue.record("no failure said: \(rig.changes)")
        }
        // Nothing changed since, but the frame waits: the next update shows it, copied whole.
        rig.output.update()
        rig.completeFlip()
        #expect(rig.frames.count == 3 && rig.frames[2].rectsCopied == [bounds])
        #expect(try rig.screenIsRight())
        // A flip given up after its timeout: neither buffer is known, the next frame copies all.
        scene.focus(0)
        rig.output.update()
        rig.output.core.flipTimedOut()
        #expect(rig.output.flipsTimedOut == 1)
        rig.output.update()
        rig.completeFlip()
        #expect(rig.frames.last?.rectsCopied == [bounds])
        #expect(try rig.screenIsRight())
    }

    @Test("the pointer is drawn over the frame: a move copies the rectangles it leaves and enters")
    func pointer() throws {
        let scene = Scene()
        let rig = try Rig(scene: scene)
        rig.output.update()
        scene.focus(1)
        rig.output.update()
        rig.completeFlip()
        scene.focus(0)
        rig.output.update()
        rig.completeFlip()  // both buffers drawn and up to date but for the last move
        rig.output.update()
        rig.output.movePointer(toX: 40, y: 50)
        rig.completeFlip()
        rig.output.movePointer(toX: 200, y: 20)
        rig.completeFlip()
        let old = PointerSprite.rect(at: (40, 50), screen: DisplayRect(x: 0, y: 0, width: 320, height: 200))
        let new = PointerSprite.rect(at: (200, 20), screen: DisplayRect(x: 0, y: 0, width: 320, height: 200))
        #expect(rig.frames.last?.rectsCopied == [old, new])
        let shown = try #require(rig.scanout.shown)
        let words = rig.scanout.rgb(of: shown)
        #expect(words[20 * 320 + 200] == 0 && words[22 * 320 + 201] == 0xFF_FFFF, "the arrow's tip and inside")
        #expect(rig.output.pointerPosition! == (200, 20))
        #expect(rig.output.windowPoint(x: 200, y: 20) == Point(x: 200, y: 20))
        rig.output.hidePointer()
        rig.completeFlip()
        #expect(try rig.screenIsRight(), "the pointer leaves nothing behind")
        scene.title.text = "Pointer gone"
        rig.output.update()
        rig.completeFlip()
        #expect(try rig.screenIsRight(), "nor in the other buffer")
    }

    @Test("at scale 2 the window is half the pixels in points; damage is copied at twice its size")
    func scaleTwo() throws {
        let scene = Scene()
        let twin = Scene()
        let painter = WindowPainter(window: twin.window, size: Size(width: 320, height: 200))
        _ = painter.takeDamage()
        let rig = try Rig(scene: scene, scanout: MemoryScanout(width: 640, height: 400), scale: 2)
        let bounds = DisplayRect(x: 0, y: 0, width: 640, height: 400)
        #expect(rig.output.scale == 2 && rig.output.pointSize! == (320, 200))
        #expect(rig.output.pointerArea! == (640, 400))
        #expect(rig.output.windowPoint(x: 300, y: 101) == Point(x: 150, y: 50.5))
        rig.output.update()
        scene.focus(1)
        twin.focus(1)
        let first = painter.takeDamage()
        rig.output.update()
        rig.completeFlip()
        scene.focus(0)
        twin.focus(0)
        let second = painter.takeDamage()
        rig.output.update()
        rig.completeFlip()
        #expect(
            rig.frames.last?.rectsCopied
                == DisplayRect.coalesced(
                    pixels(first, scale: 2) + pixels(second, scale: 2), within: bounds, limit: 16))
        #expect(try rig.screenIsRight())
    }

    @Test("invalidate draws and copies everything at the next update")
    func invalidate() throws {
        let scene = Scene()
        let rig = try Rig(scene: scene)
        rig.output.update()
        rig.output.invalidate()
        #expect(rig.scanout.flips.isEmpty, "nothing until the update")
        let painted = rig.output.painter.framesPainted
        rig.output.update()
        rig.completeFlip()
        #expect(rig.output.painter.framesPainted == painted + 1)
        #expect(rig.frames.last?.rectsCopied == [DisplayRect(x: 0, y: 0, width: 320, height: 200)])
        #expect(try rig.screenIsRight())
    }

    @Test(
        "a display unplugged stops the frames; one plugged in is drawn whole at its own scale, and a new size in points calls onResize"
    )
    func hotPlug() throws {
        let scene = Scene(width: 1280, height: 800)
        let scanout = MemoryScanout(width: 1280, height: 800, millimetres: (320, 200))
        let rig = try Rig(scene: scene, scanout: scanout, scale: nil)
        var resizes = 0
        rig.output.onResize = { resizes += 1 }
        rig.output.update()
        #expect(rig.output.scale == 1 && rig.frames.count == 1)
        func plug(_ mode: DisplayMode?, millimetres: (Int, Int) = (0, 0)) {
            scanout.connectorList = [
                DisplayConnector(
                    id: 40, name: "Virtual-1", isConnected: mode != nil, modes: mode.map { [$0] } ?? [], crtcs: [30],
                    physicalWidth: millimetres.0, physicalHeight: millimetres.1)
            ]
            rig.output.rescan()
        }
        plug(nil)
        #expect(rig.changes == [.disconnected(connector: "Virtual-1")] && !rig.output.isShowing)
        scene.focus(1)
        rig.output.update()
        #expect(rig.frames.count == 1, "nothing drawn while unplugged")
        // A 13.3-inch 2560x1600 panel: scale 2, the same 1280x800 points, drawn whole by a mode set.
        let panel = DisplayMode(width: 2560, height: 1600, refresh: 60, isPreferred: true)
        plug(panel, millimetres: (286, 179))
        #expect(rig.changes.last == .connected(connector: "Virtual-1", mode: panel) && rig.output.isShowing)
        #expect(rig.output.scale == 2 && rig.output.pointSize! == (1280, 800) && resizes == 0)
        #expect(rig.output.pixelSize == DisplayPixelSize(width: 2560, height: 1600))
        #expect(rig.frames.count == 2 && rig.frames[1].byModeSet)
        #expect(rig.frames[1].rectsCopied == [DisplayRect(x: 0, y: 0, width: 2560, height: 1600)])
        #expect(try rig.screenIsRight())
        // A display of unknown size at 1920x1080: scale 1, more points; the app is told to lay out again.
        plug(DisplayMode(width: 1920, height: 1080, refresh: 60, isPreferred: true))
        #expect(rig.output.scale == 1 && rig.output.pointSize! == (1920, 1080) && resizes == 1)
        #expect(try rig.screenIsRight())
    }

    @Test("the scale comes from the display's size unless the options name one")
    func automaticScale() throws {
        let panel = MemoryScanout(width: 1280, height: 800, millimetres: (217, 136))
        let rig = try Rig(scene: Scene(), scanout: panel, scale: nil)
        #expect(rig.output.scale == 1.5)
        let size = try #require(rig.output.pointSize)
        #expect(abs(size.width - 1280 / 1.5) < 1e-9 && abs(size.height - 800 / 1.5) < 1e-9)
        var display = DisplayOptions()
        display.followsHotPlug = false
        let loop = try EventLoop()
        #expect(throws: DisplayError.self) {
            _ = try DRMNodeOutput(
                loop: loop, window: Window(identifier: "w"), renderer: CairoRenderer(), device: panel,
                chosen: try DisplayCore.choose(on: panel, options: display), seat: nil,
                options: DRMNodeOutput.Options(display: display, scale: 0))
        }
    }
}
