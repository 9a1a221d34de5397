import CairoGraphics
import Graphics
import ResponderChain
import Testing

/// The window drawn with its focused item at rest, and the item's layer put over it where
/// `focusLayer()` says: the screen a frame drawn whole shows, pixel for pixel.
@MainActor
@Suite("WindowPainter on CairoRenderer: the window at rest under the focused item's layer")
struct FocusLayerPixelsTests {
    /// The window's pixels at a scale, drawn whole, with the focused item apart or not.
    static func render(_ painter: WindowPainter, scale: Int, apart: Bool) -> [UInt8] {
        painter.drawsFocusedItemApart = apart
        painter.invalidateAll()
        let damage = painter.takeDamage()
        let (width, height) = (Int(painter.size.width) * scale, Int(painter.size.height) * scale)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBytes { bytes in
            CairoRenderer().render(
                into: bytes, width: width, height: height, stride: width * 4, format: .xrgb8888,
                scale: Double(scale), damage: damage.rects
            ) { context in painter.paint(damage, in: context) }
        }
        return pixels
    }

    /// The window at rest with the focused item's layer drawn on its own and copied over it.
    static func composed(_ painter: WindowPainter, scale: Int) throws -> [UInt8] {
        var pixels = render(painter, scale: scale, apart: true)
        let (_, rect) = try #require(painter.focusLayer())
        let (width, height) = (Int(rect.width) * scale, Int(rect.height) * scale)
        var layer = [UInt8](repeating: 0, count: width * height * 4)
        layer.withUnsafeMutableBytes { bytes in
            CairoRenderer().render(
                into: bytes, width: width, height: height, stride: width * 4, format: .xrgb8888, scale: Double(scale)
            ) { context in
                context.translate(x: -rect.minX, y: -rect.minY)
                painter.paintFocusLayer(rect, in: context)
            }
        }
        let windowWidth = Int(painter.size.width) * scale
        for row in 0..<height {
            let target = ((Int(rect.minY) * scale + row) * windowWidth + Int(rect.minX) * scale) * 4
            pixels.replaceSubrange(target..<target + width * 4, with: layer[row * width * 4..<(row + 1) * width * 4])
        }
        return pixels
    }

    @Test(
        "a ring and a lift, at scale 1 and 2, left to right and right to left: the composed screen is the whole frame's",
        arguments: [(false, 1, LayoutDirection.leftToRight), (true, 1, .leftToRight), (true, 2, .rightToLeft)])
    func composedIsWhole(lift: Bool, scale: Int, direction: LayoutDirection) throws {
        let (window, focusSystem, tiles) = PainterPixelsTests.screen(direction: direction)
        window.backgroundColor = Theme.standard.background
        if lift {
            for tile in tiles {
                tile.focusEffect = .lift(
                    scale: 1.04,
                    shadow: Shadow(color: Color(hex: 0x0B2A2E, alpha: 0.22), offset: Point(x: 0, y: 10), radius: 22))
            }
        }
        // Larger than the tiles' root: a lifted tile's layer is less than a quarter of the window.
        let painter = WindowPainter(window: window, size: Size(width: 960, height: 600))
        for target in [0, 1] {
            focusSystem.setNeedsFocusUpdate(on: tiles[target])
            focusSystem.updateFocusIfNeeded()
            let whole = Self.render(painter, scale: scale, apart: false)
            let composed = try Self.composed(painter, scale: scale)
            let differing = zip(whole, composed).filter { $0 != $1 }.count
            #expect(differing == 0, "tile \(target): \(differing) bytes differ")
            #expect(Self.render(painter, scale: scale, apart: true) != whole, "the window alone shows the item at rest")
        }
    }
}
