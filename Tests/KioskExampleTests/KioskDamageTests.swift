import Graphics
import ResponderChain
import ResponderChainTesting
import Testing

@testable import KioskExample

/// What the graphical face draws again: only what changed, as a screen's output asks for it.
@MainActor
@Suite struct KioskDamageTests {
    @Test("a focus move between two tiles redraws the two tiles with their lift, not the screen")
    func focusMove() {
        let kiosk = GraphicalKiosk()
        let painter = WindowPainter(window: kiosk.kiosk.window, size: Size(width: 1280, height: 800))
        #expect(painter.takeDamage().bounds == painter.bounds, "the first frame draws everything")
        let (first, second) = (kiosk.kiosk.tiles[0], kiosk.kiosk.tiles[1])
        #expect(kiosk.app.focusSystem.focusedItem === first)
        kiosk.app.keyboard.tap("right")
        #expect(kiosk.app.focusSystem.focusedItem === second)
        let damage = painter.takeDamage()
        func lifted(_ tile: FocusNode) -> Rect {
            let reach = tile.focusEffect.reach(for: tile.frame)
            let outset = tile.drawingOutset
            return Rect(
                x: tile.frame.minX - max(reach.left, outset), y: tile.frame.minY - max(reach.top, outset),
                width: tile.frame.width + max(reach.left, outset) + max(reach.right, outset),
                height: tile.frame.height + max(reach.top, outset) + max(reach.bottom, outset))
        }
        let both = lifted(first).union(lifted(second))
        #expect(both.contains(damage.bounds), "\(damage)")
        #expect(damage.bounds.contains(first.frame) && damage.bounds.contains(second.frame))
        #expect(damage.area < 0.35 * painter.bounds.width * painter.bounds.height, "\(damage.area)")
        // Nothing else: not the menu, the header, the message line or the other tiles' middles (the
        // lifted tile's shadow reaches their edges).
        let metrics = kiosk.kiosk.appearance!.metrics
        for button in kiosk.kiosk.navigation.values { #expect(!damage.intersects(button.frame)) }
        #expect(!damage.intersects(Rect(x: 0, y: 0, width: 1280, height: metrics.headerHeight)))
        #expect(!damage.intersects(kiosk.kiosk.footerFrame(metrics)))
        for tile in kiosk.kiosk.tiles[2...] { #expect(!damage.intersects(tile.frame.insetBy(dx: 40, dy: 40))) }
        let recorder = DrawingRecorder()
        painter.paint(damage, in: recorder)
        #expect(recorder.states["tile-find"]?.isFocused == true)
        #expect(painter.takeDamage().isEmpty, "nothing more")
    }

    @Test("a new message redraws the message line alone; nothing changed draws nothing")
    func message() {
        let kiosk = GraphicalKiosk()
        let painter = WindowPainter(window: kiosk.kiosk.window, size: Size(width: 1280, height: 800))
        _ = painter.takeDamage()
        #expect(painter.takeDamage().isEmpty)
        kiosk.kiosk.say("Checked in.")
        let damage = painter.takeDamage()
        #expect(damage.bounds == kiosk.kiosk.footerFrame(kiosk.kiosk.appearance!.metrics))
    }

    @Test("a search redraws the count in the directory's heading (on the display it kept 240 after \"an\" matched 69)")
    func searchCount() {
        let kiosk = GraphicalKiosk(hardwareKeyboard: true)
        let painter = WindowPainter(window: kiosk.kiosk.window, size: Size(width: 1280, height: 800))
        kiosk.app.keyboard.tap("ctrl+f")
        #expect(kiosk.kiosk.window.firstResponder === kiosk.kiosk.search)
        _ = painter.takeDamage()
        // The count is drawn at the trailing end of the heading's band, above the search field.
        let band = kiosk.kiosk.contentHeadingFrame(kiosk.kiosk.appearance!.metrics)
        let count = Rect(x: band.maxX - 260, y: band.minY, width: 260, height: band.height)
        for (key, shown) in [("a", 81), ("n", 69)] {
            kiosk.app.keyboard.typeText(key)
            let damage = painter.takeDamage()
            #expect(damage.rects.contains { $0.contains(count) }, "\(key) typed: \(damage)")
            let recorder = DrawingRecorder()
            painter.paint(damage, in: recorder)
            let texts = recorder.operations.compactMap { operation -> String? in
                if case .text(let text, _, _) = operation { text } else { nil }
            }
            #expect(texts.contains(KioskLanguage.english.count(shown)) || shown == 81, "\(texts)")
        }
        kiosk.app.keyboard.tap("escape")
        #expect(painter.takeDamage().rects.contains { $0.contains(count) }, "the search closed: every row again")
    }
}
