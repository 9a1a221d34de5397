import EventLoop
import Foundation
import Graphics
import LinuxKeyboard
import PlatformWayland
import ResponderChain
import TestSupport
import Testing
import WaylandClient

/// A window's nodes in a real compositor's window (sway headless, 800x600): damage by rectangle,
/// idle frames that commit nothing, and the output's scale.
@MainActor @Suite(.serialized) struct WaylandNodeOutputTests {
    /// Two tiles in one group on a dark background, the ring in the window's tint.
    static func nodes() -> (Window, FocusSystem, [ButtonNode]) {
        let window = Window(identifier: "window")
        window.backgroundColor = Color(hex: 0x203040)
        window.tintColor = Color(hex: 0xFF8000)
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 800, height: 600))
        root.focusGroupIdentifier = "main"
        window.addChild(root)
        let tiles = (0..<2).map { index in
            ButtonNode(
                "Tile \(index)", look: .tile, identifier: "tile\(index)",
                frame: Rect(x: 40 + Double(index) * 200, y: 60, width: 160, height: 120))
        }
        for tile in tiles { root.addChild(tile) }
        let (_, focusSystem) = window.makeDispatcher(focusRoot: root, layout: USKeyboardLayout())
        focusSystem.updateFocusIfNeeded()
        return (window, focusSystem, tiles)
    }

    /// How many pixels of a rectangle of the screenshot are the ring's orange.
    static func ringPixels(_ shot: SwayHeadless.Screenshot, around frame: Rect, scale: Int) -> Int {
        var count = 0
        let outer = frame.insetBy(dx: -9, dy: -9)
        for y in Int(outer.minY) * scale..<Int(outer.maxY) * scale where y >= 0 && y < shot.height {
            for x in Int(outer.minX) * scale..<Int(outer.maxX) * scale where x >= 0 && x < shot.width {
                let pixel = shot.pixel(x, y)
                if pixel[0] > 0xE0 && pixel[1] > 0x60 && pixel[1] < 0xA0 && pixel[2] < 0x40 { count += 1 }
            }
        }
        return count
    }

    @Test(
        "the nodes are drawn; a focus move commits two tiles' rectangles; nothing changed commits nothing; at scale 2 the buffers double and the ring follows"
    )
    func nodesInAWindow() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let waylandWindow = try WaylandWindow(connection: connection, options: .init(title: "Nodes", appID: "rc.nodes"))
        let (window, focusSystem, tiles) = Self.nodes()
        // The focused item drawn into the window's buffer (the layer over it: `focusLayerShowsTheItem`).
        let output = WaylandNodeOutput(window: waylandWindow, showing: window, focusLayer: false)
        #expect(!output.showsFocusLayer)
        var resizes = 0
        output.onResize = { resizes += 1 }
        #expect(
            run(loop, upTo: 5) { output.framesDrawn >= 1 && waylandWindow.framesDone == waylandWindow.framesCommitted })
        #expect(resizes >= 1)
        #expect(output.pointSize.map { $0.width == 800 && $0.height == 600 } == true)
        _ = run(loop, upTo: 0.3) { false }
        var shot = try sway.screenshot()
        #expect(shot.pixel(700, 500) == [0x20, 0x30, 0x40], "the window's background")
        #expect(shot.pixel(120, 160) == [0xFF, 0xFF, 0xFF], "the tile's surface")
        #expect(Self.ringPixels(shot, around: tiles[0].frame, scale: 1) > 500)
        #expect(Self.ringPixels(shot, around: tiles[1].frame, scale: 1) == 0)

        // A display link: the frame callback tells when the next frame can be made.
        var shown = 0
        output.onFrameShown = { shown += 1 }
        let commits = waylandWindow.framesCommitted
        output.update()
        _ = run(loop, upTo: 0.3) { false }
        #expect(waylandWindow.framesCommitted == commits, "nothing changed: nothing committed")

        focusSystem.setNeedsFocusUpdate(on: tiles[1])
        focusSystem.updateFocusIfNeeded()
        output.update()
        #expect(
            run(loop, upTo: 5) {
                waylandWindow.framesCommitted == commits + 1 && waylandWindow.framesDone == commits + 1
            })
        #expect(shown == 1, "the frame's callback came once")
        #expect(output.lastDamage.rects.count == 2, "\(output.lastDamage)")
        #expect(output.lastDamage.area < 2 * 180 * 140, "two tiles with their rings: \(output.lastDamage)")
        #expect(waylandWindow.lastDamage.count == 2)
        _ = run(loop, upTo: 0.3) { false }
        shot = try sway.screenshot()
        #expect(Self.ringPixels(shot, around: tiles[0].frame, scale: 1) == 0)
        #expect(Self.ringPixels(shot, around: tiles[1].frame, scale: 1) > 500)

        try sway.run(["swaymsg", "output", "HEADLESS-1", "scale", "2"])
        #expect(
            run(loop, upTo: 5) {
                waylandWindow.scale == 2 && waylandWindow.framesDone == waylandWindow.framesCommitted
                    && output.pointSize?.width == 400
            })
        _ = run(loop, upTo: 0.5) { false }
        shot = try sway.screenshot()
        try #require(shot.width == 800)
        #expect(waylandWindow.bufferWidth == 800 && waylandWindow.width == 400)
        #expect(Self.ringPixels(shot, around: tiles[1].frame, scale: 2) > 2000, "the ring at twice the pixels")
    }
}

extension WaylandNodeOutputTests {
    @Test(
        "a focus move back and forth copies nothing forward: the tiles a buffer missed are those it draws again, and the screen is what a frame drawn whole shows"
    )
    func focusMovesCopyNothing() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let waylandWindow = try WaylandWindow(connection: connection, options: .init(title: "Moves", appID: "rc.moves"))
        let (window, focusSystem, tiles) = Self.nodes()
        let output = WaylandNodeOutput(window: waylandWindow, showing: window, focusLayer: false)
        #expect(
            run(loop, upTo: 5) { output.framesDrawn >= 1 && waylandWindow.framesDone == waylandWindow.framesCommitted })
        var copies: [Int] = []
        for target in [1, 0, 1, 0, 1] {
            let commits = waylandWindow.framesCommitted
            focusSystem.setNeedsFocusUpdate(on: tiles[target])
            focusSystem.updateFocusIfNeeded()
            output.update()
            #expect(
                run(loop, upTo: 5) {
                    waylandWindow.framesCommitted == commits + 1 && waylandWindow.framesDone == commits + 1
                })
            copies.append(waylandWindow.lastCopy.bytes)
        }
        // The second buffer, never drawn, takes the first one's frame less the two tiles it draws; after
        // that each buffer missed the two tiles it draws again.
        #expect(copies.count == 5 && copies[0] > 0 && copies[0] < 800 * 600 * 4)
        #expect(Array(copies.dropFirst()) == [0, 0, 0, 0], "\(copies)")
        _ = run(loop, upTo: 0.3) { false }
        let moved = try sway.screenshot()
        #expect(Self.ringPixels(moved, around: tiles[0].frame, scale: 1) == 0)
        #expect(Self.ringPixels(moved, around: tiles[1].frame, scale: 1) > 500)
        // Everything drawn again: the same picture.
        let commits = waylandWindow.framesCommitted
        output.invalidate()
        output.update()
        #expect(run(loop, upTo: 5) { waylandWindow.framesDone == commits + 1 })
        _ = run(loop, upTo: 0.3) { false }
        let whole = try sway.screenshot()
        #expect(whole.rgb == moved.rgb, "drawn by damage, the screen is what a frame drawn whole shows")
    }
}

extension WaylandNodeOutputTests {
    @Test(
        "under sway the focused item shows in a layer: a focus move attaches no window buffer, draws the new item's patch once, a move back draws nothing; a change under a patch draws it again, and the window when the layer leaves; the screen is the one drawn without a layer"
    )
    func focusLayerShowsTheItem() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let waylandWindow = try WaylandWindow(connection: connection, options: .init(title: "Layer", appID: "rc.layer"))
        let (window, focusSystem, tiles) = Self.nodes()
        let output = WaylandNodeOutput(window: waylandWindow, showing: window)
        #expect(output.showsFocusLayer, "sway offers wl_subcompositor")
        #expect(
            run(loop, upTo: 5) { output.framesDrawn >= 1 && waylandWindow.framesDone == waylandWindow.framesCommitted })
        // The tile and its ring (4 points wide, 3 away, a point of antialiasing).
        func ringRect(_ tile: ButtonNode) -> (Int, Int, Int, Int) {
            let frame = tile.frame.insetBy(dx: -8, dy: -8)
            return (Int(frame.minX), Int(frame.minY), Int(frame.width), Int(frame.height))
        }
        #expect(waylandWindow.focusLayer.drawn == 1)
        #expect(waylandWindow.focusLayer.rect.map { $0 == ringRect(tiles[0]) } == true)

        func move(to index: Int) {
            let commits = waylandWindow.framesCommitted
            focusSystem.setNeedsFocusUpdate(on: tiles[index])
            focusSystem.updateFocusIfNeeded()
            output.update()
            #expect(
                run(loop, upTo: 5) {
                    waylandWindow.framesCommitted == commits + 1 && waylandWindow.framesDone == commits + 1
                })
        }
        let drawnFrames = output.framesDrawn
        move(to: 1)
        #expect(waylandWindow.lastDamage.isEmpty, "no window buffer attached: \(waylandWindow.lastDamage)")
        #expect(output.framesDrawn == drawnFrames)
        #expect(waylandWindow.focusLayer.drawn == 2 && waylandWindow.focusLayer.reused == 0)
        #expect(waylandWindow.focusLayer.rect.map { $0 == ringRect(tiles[1]) } == true)
        _ = run(loop, upTo: 0.3) { false }
        var shot = try sway.screenshot()
        #expect(Self.ringPixels(shot, around: tiles[0].frame, scale: 1) == 0)
        #expect(Self.ringPixels(shot, around: tiles[1].frame, scale: 1) > 500)
        move(to: 0)
        move(to: 1)
        #expect(waylandWindow.focusLayer.drawn == 2, "both patches kept: nothing drawn")
        #expect(waylandWindow.focusLayer.reused == 2)
        #expect(output.framesDrawn == drawnFrames)

        // The focused tile's title changes: its patch is drawn again; the window, covered there, draws
        // it when the layer leaves it.
        let commits = waylandWindow.framesCommitted
        tiles[1].title = "Changed"
        output.update()
        #expect(run(loop, upTo: 5) { waylandWindow.framesDone == commits + 1 })
        #expect(waylandWindow.focusLayer.drawn == 3)
        #expect(output.framesDrawn == drawnFrames, "under the layer: not drawn into the window yet")
        move(to: 0)
        #expect(output.framesDrawn == drawnFrames + 1, "the layer left tile 1: the window draws it")
        #expect(output.lastDamage.bounds.contains(tiles[1].frame))
        #expect(waylandWindow.focusLayer.drawn == 3, "tile 0's patch did not meet the change: kept")
        move(to: 1)
        #expect(waylandWindow.focusLayer.drawn == 3)
        _ = run(loop, upTo: 0.3) { false }
        let layered = try sway.screenshot()

        // The same nodes in a window without the layer: the same screen.
        output.painter.detach()
        waylandWindow.close()
        _ = run(loop, upTo: 0.3) { false }
        let plainWindow = try WaylandWindow(connection: connection, options: .init(title: "Plain", appID: "rc.plain"))
        let plain = WaylandNodeOutput(window: plainWindow, showing: window, focusLayer: false)
        #expect(run(loop, upTo: 5) { plain.framesDrawn >= 1 && plainWindow.framesDone == plainWindow.framesCommitted })
        _ = run(loop, upTo: 0.3) { false }
        shot = try sway.screenshot()
        #expect(shot.rgb == layered.rgb, "the layer over the window at rest shows what the window drawn whole shows")
    }
}

extension WaylandNodeOutputTests {
    @Test(
        "a patch that cannot be drawn (no shared memory left) hides the layer for good: the window draws the focused item, ring and all"
    )
    func focusLayerFailure() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let loop = try makeLoop()
        let connection = try WaylandConnection(loop: loop, environment: sway.environment)
        let waylandWindow = try WaylandWindow(connection: connection, options: .init(title: "Fail", appID: "rc.fail"))
        let (window, focusSystem, tiles) = Self.nodes()
        let output = WaylandNodeOutput(window: waylandWindow, showing: window)
        #expect(
            run(loop, upTo: 5) { output.framesDrawn >= 1 && waylandWindow.framesDone == waylandWindow.framesCommitted })
        #expect(output.showsFocusLayer && waylandWindow.focusLayer.rect != nil)
        waylandWindow.failNextFocusLayerPatch()
        let drawn = output.framesDrawn
        focusSystem.setNeedsFocusUpdate(on: tiles[1])
        focusSystem.updateFocusIfNeeded()
        output.update()
        #expect(
            run(loop, upTo: 5) {
                output.framesDrawn > drawn && waylandWindow.framesDone == waylandWindow.framesCommitted
            })
        #expect(!output.showsFocusLayer)
        #expect(waylandWindow.focusLayer.rect == nil, "the layer shows nothing")
        _ = run(loop, upTo: 0.3) { false }
        let shot = try sway.screenshot()
        #expect(Self.ringPixels(shot, around: tiles[0].frame, scale: 1) == 0)
        #expect(Self.ringPixels(shot, around: tiles[1].frame, scale: 1) > 500, "the window draws the ring")
        // From then on focus moves draw into the window.
        let commits = waylandWindow.framesCommitted
        focusSystem.setNeedsFocusUpdate(on: tiles[0])
        focusSystem.updateFocusIfNeeded()
        output.update()
        #expect(run(loop, upTo: 5) { waylandWindow.framesDone == commits + 1 })
        #expect(waylandWindow.lastDamage.count == 2, "the two tiles: \(waylandWindow.lastDamage)")
    }
}

@MainActor @Suite(.serialized) struct WaylandPlatformNodesTests {
    @Test(
        "KeyboardApp with screenDrawing .nodes on the Wayland platform draws the nodes: no canvas output, the seat's surface in points"
    )
    func platformDrawsNodes() throws {
        let sway = try SwayHeadless()
        defer { sway.stop() }
        let (window, _, _) = WaylandNodeOutputTests.nodes()
        var configuration = KeyboardApp.Configuration()
        configuration.environment = ["WAYLAND_DISPLAY": sway.socketName, "XDG_RUNTIME_DIR": sway.directory]
        configuration.inspection.isEnabled = false
        configuration.screenDrawing = .nodes
        let root = try #require(window.children.first as? FocusNode)
        let app = try KeyboardApp(
            window: window, root: root, configuration: configuration, platforms: [WaylandPlatform(), ConsolePlatform()])
        let session = try #require(app.wayland)
        // The compositor sends its keymap: the app's own is not compiled before the window, though
        // the console (a fallback) would read keys through it.
        #expect(app.layout == nil)
        let output = try #require(session.nodeOutput)
        #expect(session.output == nil && app.application.output == nil)
        #expect(app.application.nodeOutput === output)
        #expect(session.seat.surface === output)
        try app.start()
        #expect(run(app.application.loop, upTo: 5) { output.framesDrawn >= 1 })
        _ = run(app.application.loop, upTo: 0.3) { false }
        let shot = try sway.screenshot()
        #expect(shot.pixel(700, 500) == [0x20, 0x30, 0x40])
        app.stop()
    }
}
