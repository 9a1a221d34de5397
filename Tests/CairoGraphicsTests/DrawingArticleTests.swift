import CairoGraphics
import Foundation
import Graphics
import PixelCanvas
import ResponderChain
import ResponderChainTesting
import Testing

/// The node of the article "Drawing a kiosk screen" (Graphics.docc), as written there but for
/// the logo's path.
@MainActor
final class WelcomeTile: FocusNode {
    var title = "Check in" { didSet { setNeedsDisplay() } }
    var logo = ImageSource(file: "/usr/share/riverside/logo.svg")
    let brand = Color(hex: 0x00704A)

    override func draw(in context: any GraphicsContext, state: DrawingState) {
        let fill = state.isPressed ? brand.mixed(with: .black, by: 0.2) : brand
        context.fill(.roundedRect(frame, cornerRadius: 24), fill)
        let content = frame.insetBy(dx: 32, dy: 28)
        context.draw(logo, in: Rect(x: content.minX, y: content.minY, width: 96, height: 96), mode: .fit)
        let titleStyle = TextStyle(font: Font(size: 44, weight: .bold), color: .white, verticalAlignment: .top)
        context.draw(
            title, in: Rect(x: content.minX, y: content.minY + 120, width: content.width, height: 56),
            style: titleStyle)
        let subtitleStyle = TextStyle(
            font: Font(size: 22), color: Color.white.opacity(0.85), verticalAlignment: .top, lineLimit: 2)
        context.draw("Scan your card or type your name", in: content.offsetBy(dx: 0, dy: 184), style: subtitleStyle)
    }
}

@MainActor
@Suite("The article 'Drawing a kiosk screen' holds")
struct DrawingArticleTests {
    @Test("the welcome tile draws its logo, two text sizes, a darker press and a lift; the test of the article passes")
    func article() throws {
        let logoPath = FileManager.default.temporaryDirectory.appendingPathComponent("article-logo-\(getpid()).png")
            .path
        var logo = PixelImage(width: 96, height: 96)
        for index in stride(from: 0, to: logo.pixels.count, by: 4) {
            logo.pixels[index] = 0x30  // blue
            logo.pixels[index + 1] = 0xC0  // green
            logo.pixels[index + 2] = 0xF0  // red
            logo.pixels[index + 3] = 0xFF
        }
        try logo.writePNG(to: logoPath)
        defer { try? FileManager.default.removeItem(atPath: logoPath) }

        let window = Window(identifier: "kiosk")
        window.backgroundColor = Color(hex: 0xF2F4F8)
        window.tintColor = Color(hex: 0x00704A)
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
        window.addChild(root)
        let title = LabelNode(
            "Riverside Clinic", style: TextStyle(font: Font(size: 56, weight: .bold)),
            frame: Rect(x: 64, y: 48, width: 1152, height: 80))
        root.addChild(title)
        let tile = WelcomeTile(
            identifier: "welcome", frame: Rect(x: 64, y: 160, width: 560, height: 320), isFocusable: true)
        tile.logo = ImageSource(file: logoPath)
        tile.cornerRadius = 24
        tile.focusEffect = .lift()
        tile.primaryAction = Action("checkIn")
        root.addChild(tile)

        // The article's test, as written.
        let app = AppHarness(window: window, root: root)
        let painter = WindowPainter(window: window, size: Size(width: 1280, height: 800))
        _ = painter.takeDamage()
        app.pointer.send(.down, .touch, contact: 0, at: Point(x: 300, y: 300))
        let damage = painter.takeDamage()
        #expect(damage.bounds.contains(tile.frame))
        #expect(!damage.intersects(title.frame))
        let recorder = DrawingRecorder()
        painter.paint(damage, in: recorder)
        #expect(recorder.states["welcome"]?.isPressed == true)
        app.pointerTargets.expectTargetsLargeEnough()

        // And in pixels: the logo, the pressed green, the white title.
        painter.invalidateAll()
        let renderer = CairoRenderer()
        let image = renderer.image(size: Size(width: 1280, height: 800)) { context in
            painter.paint(painter.takeDamage(), in: context)
        }
        #expect(renderer.problems.isEmpty, "\(renderer.problems)")
        let logoPixel = image.color(96 + 10 + 48, 188 + 40)
        #expect(logoPixel.red > 0xD0 && logoPixel.green > 0xA0 && logoPixel.blue < 0x60, "\(logoPixel)")
        let pressed = image.color(600, 460)
        let pressedGreen = Color(hex: 0x00704A).mixed(with: .black, by: 0.2)
        #expect(abs(Double(pressed.green) / 255 - pressedGreen.green) < 0.03, "\(pressed)")
        var titleInk = 0
        for y in 308..<360 {
            for x in 96..<500 where image.color(x, y).red > 0xE0 && image.color(x, y).green > 0xE0 { titleInk += 1 }
        }
        #expect(titleInk > 500, "the 44-point title in white")
        if let directory = ProcessInfo.processInfo.environment["GRAPHICS_SNAPSHOT_DIR"] {
            try image.writePNG(to: directory + "/article-welcome-tile.png")
        }
    }
}
