import Graphics
import ResponderChain
import ResponderChainTesting
import Testing

/// The focused item left to a layer over the window (`drawsFocusedItemApart`, a Wayland
/// subsurface): the window draws every item at rest, the layer is the window with the item focused.
@MainActor
@Suite("WindowPainter: the focused item drawn apart, in a layer")
struct WindowPainterFocusLayerTests {
    /// Whether a stroke's bounds are a ring's around a frame (not the tile's own outline, nor a panel's around many).
    static func isRing(_ bounds: Rect, around frame: Rect) -> Bool {
        bounds.width > frame.width + 4 && bounds.contains(frame) && frame.insetBy(dx: -10, dy: -10).contains(bounds)
    }

    @Test(
        "an arrow damages nothing in the window; its layer moves to the new item, which the window draws at rest, without a ring"
    )
    func arrowDamagesNothing() throws {
        let screen = KioskScreen()
        screen.painter.drawsFocusedItemApart = true
        let first = screen.frame()
        #expect(first.damage.rects == [screen.bounds])
        #expect(first.recorder.states["tile0"]?.isFocused == false, "drawn at rest in the window")
        #expect(first.recorder.states["tile0"]?.isFirstResponder == false)
        let ring = first.recorder.operations.contains {
            if case .stroke(let path, _, _) = $0 {
                Self.isRing(path.bounds, around: screen.tiles[0].frame)
            } else {
                false
            }
        }
        #expect(!ring, "no ring around the focused item in the window")
        let layer = try #require(screen.painter.focusLayer())
        #expect(layer.item === screen.tiles[0])
        // The tile and its ring (4 points wide, 3 away, a point of antialiasing), in whole points.
        #expect(layer.rect == screen.tiles[0].frame.insetBy(dx: -8, dy: -8))

        screen.app.keyboard.tap("right")
        #expect(screen.app.focusSystem.focusedItem === screen.tiles[1])
        let moved = screen.frame()
        #expect(moved.damage.isEmpty, "\(moved.damage)")
        #expect(!screen.painter.needsFrame)
        #expect(screen.painter.focusLayer()?.item === screen.tiles[1])

        // The layer: the window as it is with the item focused, its ring over it.
        let recorder = DrawingRecorder()
        screen.painter.paintFocusLayer(try #require(screen.painter.focusLayer()?.rect), in: recorder)
        #expect(recorder.states["tile1"]?.isFocused == true)
        #expect(recorder.states["content"]?.containsFocus == true)
        #expect(
            recorder.operations.contains {
                if case .stroke(let path, _, _) = $0 {
                    Self.isRing(path.bounds, around: screen.tiles[1].frame)
                } else {
                    false
                }
            })
        #expect(recorder.nodesDrawn.contains("tile1") && !recorder.nodesDrawn.contains("tile3"))
    }

    @Test("Tab into another group damages only the two outlines' bands; a lifted item's layer holds its shadow")
    func tabAndLift() throws {
        let screen = KioskScreen()
        screen.painter.drawsFocusedItemApart = true
        for tile in screen.tiles { tile.focusEffect = .lift() }
        _ = screen.frame()
        screen.app.keyboard.tap("tab")
        let (damage, recorder) = screen.frame()
        #expect(!damage.isEmpty)
        for rect in damage.rects {
            #expect(rect.width <= 12 || rect.height <= 12, "an outline's band, not an item: \(rect)")
        }
        #expect(recorder.states["sidebar"]?.containsFocus == true)
        screen.app.keyboard.tap("tab")
        _ = screen.frame()
        let layer = try #require(screen.painter.focusLayer())
        let tile = layer.item.frame
        #expect(layer.rect.contains(tile.insetBy(dx: -tile.width * 0.03, dy: -tile.height * 0.03)))
        #expect(layer.rect.maxY > tile.maxY + 10, "the shadow below the tile")
    }

    @Test(
        "an item whose layer would cover more than a quarter of the window, or no layer at all, is drawn in the window")
    func largeItemDrawnInTheWindow() {
        let screen = KioskScreen()
        screen.painter.drawsFocusedItemApart = true
        screen.tiles[1].frame = Rect(x: 300, y: 100, width: 480, height: 480)
        _ = screen.frame()
        screen.app.focusSystem.setNeedsFocusUpdate(on: screen.tiles[1])
        screen.app.focusSystem.updateFocusIfNeeded()
        #expect(screen.app.focusSystem.focusedItem === screen.tiles[1])
        let (damage, recorder) = screen.frame()
        #expect(screen.painter.focusLayer() == nil)
        #expect(damage.intersects(screen.tiles[1].frame) && damage.intersects(screen.tiles[0].frame))
        #expect(recorder.states["tile1"]?.isFocused == true)
        // Off again: everything drawn, the ring in the window.
        screen.app.focusSystem.setNeedsFocusUpdate(on: screen.tiles[0])
        screen.app.focusSystem.updateFocusIfNeeded()
        screen.painter.drawsFocusedItemApart = false
        let whole = screen.frame()
        #expect(whole.damage.rects == [screen.bounds])
        #expect(whole.recorder.states["tile0"]?.isFocused == true)
        #expect(screen.painter.focusLayer() == nil)
    }
}
