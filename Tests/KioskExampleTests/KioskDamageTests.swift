import CairoGraphics
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

extension KioskDamageTests {
    /// Draws the painter's damage into a buffer kept between frames, as the outputs do.
    @MainActor struct DamageDrawn {
        let painter: WindowPainter
        let renderer = CairoRenderer()
        var pixels: [UInt8]
        let width: Int
        let height: Int

        init(_ painter: WindowPainter, width: Int, height: Int) {
            self.painter = painter
            self.width = width
            self.height = height
            pixels = [UInt8](repeating: 0, count: width * height * 4)
        }

        mutating func frame() {
            let damage = painter.takeDamage()
            guard !damage.isEmpty else { return }
            let (renderer, painter, width, height) = (renderer, painter, width, height)
            pixels.withUnsafeMutableBytes { buffer in
                renderer.render(
                    into: buffer, width: width, height: height, stride: width * 4, scale: 1, damage: damage.rects
                ) { context in painter.paint(damage, in: context) }
            }
        }

        /// The screen drawn whole now, by a renderer of its own.
        func whole() -> [UInt8] {
            var fresh = DamageDrawn(painter, width: width, height: height)
            painter.invalidateAll()
            fresh.frame()
            return fresh.pixels
        }
    }

    @Test(
        "after focus moves, the screen drawn by damage is the screen drawn whole, in both directions (on the display the lower tiles' corners kept a shadow that had gone)",
        arguments: [false, true])
    func damageDrawsTheWhole(rightToLeft: Bool) {
        let kiosk = GraphicalKiosk(rightToLeft: rightToLeft)
        let painter = WindowPainter(window: kiosk.kiosk.window, size: Size(width: 1280, height: 800))
        var drawn = DamageDrawn(painter, width: 1280, height: 800)
        drawn.frame()
        for key in ["left", "right", "right", "down", "up", "left"] {
            kiosk.app.keyboard.tap(key)
            drawn.frame()
            let whole = drawn.whole()
            var worst = 0
            var differing = 0
            var box = (minX: Int.max, minY: Int.max, maxX: -1, maxY: -1)
            for index in whole.indices {
                let difference = abs(Int(whole[index]) - Int(drawn.pixels[index]))
                worst = max(worst, difference)
                if difference > 2 {
                    differing += 1
                    let (x, y) = ((index / 4) % 1280, index / 4 / 1280)
                    box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
                }
            }
            #expect(differing == 0, "after \(key): \(differing) bytes differ, by up to \(worst), within \(box)")
        }
    }
}
