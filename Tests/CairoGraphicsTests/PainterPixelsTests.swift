import CairoGraphics
import Foundation
import Graphics
import PixelCanvas
import ResponderChain
import Testing

/// The painter's damage drawn with Cairo and Pango: what a pixel output does each frame.
@MainActor
@Suite("WindowPainter on CairoRenderer: the frame after a focus move repaints only its damage")
struct PainterPixelsTests {
    /// Two tiles and a title on a themed background.
    static func screen(direction: LayoutDirection = .leftToRight) -> (Window, FocusSystem, [ButtonNode]) {
        let window = Window(identifier: "window")
        window.layoutDirection = direction
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 640, height: 400))
        root.focusGroupIdentifier = "main"
        window.addChild(root)
        root.addChild(
            LabelNode(
                direction == .rightToLeft ? "מרפאת ריברסייד" : "Riverside Clinic",
                style: TextStyle(font: Font(size: 36, weight: .bold), color: Theme.standard.text), identifier: "title",
                frame: Rect(x: 32, y: 24, width: 576, height: 56)))
        let tiles = (0..<2).map { index in
            ButtonNode(
                ["Check in", "Directory"][index], subtitle: "Tap or press Return", look: .tile,
                identifier: "tile\(index)",
                frame: Rect(x: 32 + Double(index) * 304, y: 120, width: 272, height: 200))
        }
        for tile in tiles { root.addChild(tile) }
        let (_, focusSystem) = window.makeDispatcher(focusRoot: root, layout: USKeyboardLayout())
        focusSystem.updateFocusIfNeeded()
        return (window, focusSystem, tiles)
    }

    @Test("a focus move redraws the two tiles' rectangles: the rest of the buffer keeps its pixels")
    func focusMovePixels() throws {
        let (window, focusSystem, tiles) = Self.screen()
        window.backgroundColor = Theme.standard.background
        let painter = WindowPainter(window: window, size: Size(width: 640, height: 400))
        let renderer = CairoRenderer()
        let (width, height) = (640, 400)
        var buffer = [UInt8](repeating: 0, count: width * height * 4)
        func frame() -> DamageRegion {
            let damage = painter.takeDamage()
            buffer.withUnsafeMutableBytes { bytes in
                renderer.render(
                    into: bytes, width: width, height: height, stride: width * 4, scale: 1, damage: damage.rects
                ) { context in painter.paint(damage, in: context) }
            }
            return damage
        }
        _ = frame()
        let first = buffer
        #expect(focusSystem.focusedItem === tiles[0])
        focusSystem.setNeedsFocusUpdate(on: tiles[1])
        focusSystem.updateFocusIfNeeded()
        let damage = frame()
        #expect(damage.rects.count == 2)
        // Pixels outside the damage are untouched; inside, the rings moved.
        var changedOutside = 0
        var changedInside = 0
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                let same = buffer[offset..<offset + 4] == first[offset..<offset + 4]
                let inside = damage.intersects(Rect(x: Double(x), y: Double(y), width: 1, height: 1))
                if !same { if inside { changedInside += 1 } else { changedOutside += 1 } }
            }
        }
        #expect(changedOutside == 0)
        #expect(changedInside > 1000)
        // The whole frame drawn afresh equals the buffer drawn by damage.
        painter.invalidateAll()
        let full = painter.takeDamage()
        var fresh = [UInt8](repeating: 0, count: width * height * 4)
        fresh.withUnsafeMutableBytes { bytes in
            renderer.render(into: bytes, width: width, height: height, stride: width * 4, scale: 1, damage: full.rects)
            {
                context in painter.paint(full, in: context)
            }
        }
        #expect(fresh == buffer, "drawing by damage leaves the same picture as drawing everything")
        if let directory = ProcessInfo.processInfo.environment["GRAPHICS_SNAPSHOT_DIR"] {
            var image = PixelImage(width: width, height: height)
            image.pixels = buffer
            try image.writePNG(to: directory + "/painter-focus-move.png")
        }
    }

    @Test("a damage rectangle whose edges fall inside pixels leaves no seam: the frame equals one drawn whole")
    func fractionalDamage() {
        let (window, _, tiles) = Self.screen()
        window.backgroundColor = Theme.standard.background
        let painter = WindowPainter(window: window, size: Size(width: 640, height: 400))
        let renderer = CairoRenderer()
        let (width, height) = (640, 400)
        func frame(into buffer: inout [UInt8]) {
            let damage = painter.takeDamage()
            buffer.withUnsafeMutableBytes { bytes in
                renderer.render(
                    into: bytes, width: width, height: height, stride: width * 4, scale: 1, damage: damage.rects
                ) { context in painter.paint(damage, in: context) }
            }
        }
        var buffer = [UInt8](repeating: 0, count: width * height * 4)
        frame(into: &buffer)
        // Through the second tile's white card and its title: edges at x 404.4 and 464.7, y 140.6 and 193.1.
        tiles[1].setNeedsDisplay(Rect(x: 404.4, y: 140.6, width: 60.3, height: 52.5))
        frame(into: &buffer)
        painter.invalidateAll()
        var fresh = [UInt8](repeating: 0, count: width * height * 4)
        frame(into: &fresh)
        let differing = stride(from: 0, to: buffer.count, by: 4).count { buffer[$0..<$0 + 4] != fresh[$0..<$0 + 4] }
        #expect(differing == 0, "\(differing) pixels differ from the frame drawn whole")
    }

    @Test("right to left: a label's leading edge is on the right")
    func rightToLeftLabel() {
        let (window, _, _) = Self.screen(direction: .rightToLeft)
        let painter = WindowPainter(window: window, size: Size(width: 640, height: 400))
        let renderer = CairoRenderer()
        let image = renderer.image(size: Size(width: 640, height: 400), scale: 1) { context in
            painter.paint(painter.takeDamage(), in: context)
        }
        // The title's ink is in the right half of its frame.
        var left = 0
        var right = 0
        for y in 30..<75 {
            for x in 32..<608 where image.color(x, y).red < 128 {
                if x < 320 { left += 1 } else { right += 1 }
            }
        }
        #expect(right > 100 && left < right / 4, "left \(left) right \(right)")
    }
}

@MainActor
@Suite("BitmapNode: pixels the app makes, drawn by the painter")
struct BitmapNodeTests {
    @Test("a new frame redraws only the node; its pixels are scaled into the frame; short pixel data is padded")
    func frames() {
        let window = Window(identifier: "window")
        window.backgroundColor = .black
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 320, height: 240))
        window.addChild(root)
        let video = BitmapNode(identifier: "video", frame: Rect(x: 40, y: 40, width: 160, height: 80))
        video.contentMode = .stretch
        root.addChild(video)
        let painter = WindowPainter(window: window, size: Size(width: 320, height: 240))
        let renderer = CairoRenderer()
        var pixels = [UInt8](repeating: 0, count: 320 * 240 * 4)
        func frame() -> DamageRegion {
            let damage = painter.takeDamage()
            pixels.withUnsafeMutableBytes { bytes in
                renderer.render(into: bytes, width: 320, height: 240, stride: 320 * 4, scale: 1, damage: damage.rects) {
                    context in painter.paint(damage, in: context)
                }
            }
            return damage
        }
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * 320 + x) * 4..<(y * 320 + x) * 4 + 3]) }
        _ = frame()
        // Left half red, right half blue: 2x1 pixels stretched to 160x80.
        var bitmap = Bitmap(width: 2, height: 1, color: .white)
        bitmap.set(0, 0, Color(red: 1, green: 0, blue: 0))
        bitmap.set(1, 0, Color(red: 0, green: 0, blue: 1))
        video.bitmap = bitmap
        let damage = frame()
        #expect(damage.rects == [video.frame])
        #expect(pixel(50, 80) == [0, 0, 255], "red, stored blue-green-red")
        #expect(pixel(190, 80) == [255, 0, 0], "blue")
        #expect(pixel(20, 20) == [0, 0, 0], "the background outside")
        let short = Bitmap(width: 4, height: 4, pixels: [255, 255, 255, 255])
        #expect(short.pixels.count == 64 && short.pixels[4...].allSatisfy { $0 == 0 })
        #expect(Bitmap(width: 0, height: -3, pixels: []).width == 1)
        video.bitmap = nil
        #expect(frame().rects == [video.frame])
        #expect(pixel(50, 80) == [0, 0, 0])
    }
}
