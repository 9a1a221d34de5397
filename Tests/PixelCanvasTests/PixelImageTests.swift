import Foundation
import PixelCanvas
import TerminalCanvas
import Testing

extension PixelCanvasTests {
    @Suite struct PixelImageTests {
        @Test("an image written as PNG reads back the same")
        func pngRoundTrip() throws {
            var canvas = Canvas(columns: 4, rows: 2)
            canvas.text("Hi", 1, 0, .overlay)
            let image = try PixelRenderer(pixelSize: 12).image(of: canvas)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("pixel-\(getpid()).png").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try image.writePNG(to: path)
            #expect(try PixelImage(contentsOfPNG: path) == image)
        }

        @Test("a missing PNG, or one in a missing directory, is an error naming the file")
        func pngErrors() {
            #expect {
                _ = try PixelImage(contentsOfPNG: "/nonexistent/golden.png")
            } throws: { error in
                (error as? PixelCanvasError).map {
                    $0.code == .pngRead && $0.message.contains("/nonexistent/golden.png")
                }
                    ?? false
            }
            #expect {
                try PixelImage(width: 2, height: 2).writePNG(to: "/nonexistent/out.png")
            } throws: { error in
                (error as? PixelCanvasError).map {
                    $0.code == .pngWrite && $0.description.contains("/nonexistent/out.png")
                }
                    ?? false
            }
        }

        @Test("a new image is transparent black, at least one pixel; pixels are B, G, R, A bytes")
        func pixels() {
            var image = PixelImage(width: 0, height: 3)
            #expect(image.width == 1 && image.height == 3 && image.stride == 4 && image.pixels.count == 12)
            image.pixels[4...7] = [0x56, 0x34, 0x12, 0xFF]
            #expect(image.color(0, 1) == PixelColor(red: 0x12, green: 0x34, blue: 0x56))
        }
    }
}
