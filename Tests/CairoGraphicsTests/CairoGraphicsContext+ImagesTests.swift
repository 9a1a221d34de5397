import PixelCanvas
import ResponderChain
import Testing

@testable import CairoGraphics

@Suite struct CairoGraphicsContextImagesTests {
    let red = PixelColor(red: 255, green: 0, blue: 0)
    let blue = PixelColor(red: 0, green: 0, blue: 255)
    let green = PixelColor(red: 0, green: 128, blue: 0)

    /// A 4x2 PNG, red on the left half and blue on the right, written with the package's PNG writer.
    func png(_ name: String) throws -> TemporaryFile {
        var image = PixelImage(width: 4, height: 2)
        for y in 0..<2 {
            for x in 0..<4 {
                let offset = y * image.stride + x * 4
                image.pixels[offset..<(offset + 4)] = x < 2 ? [0, 0, 255, 255] : [255, 0, 0, 255]
            }
        }
        let file = TemporaryFile(name)
        try image.writePNG(to: file.path)
        return file
    }

    /// A 100x50 SVG: a green circle on the left, a blue square on the right.
    func svg(_ name: String) -> TemporaryFile {
        TemporaryFile(
            name,
            contents: """
                <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
                  <circle cx="25" cy="25" r="20" fill="green"/>
                  <rect x="60" y="10" width="30" height="30" fill="blue"/>
                </svg>
                """)
    }

    @Test("a PNG is drawn scaled into its rectangle, as fit, fill, stretch and centre place it")
    func pngModes() throws {
        let file = try png("modes.png")
        defer { file.remove() }
        let renderer = CairoRenderer()
        let source = ImageSource(file: file.path)
        let image = renderer.image(size: Size(width: 200, height: 100)) { context in
            context.draw(source, in: Rect(x: 0, y: 0, width: 80, height: 80), mode: .fit)  // 80x40, centred
            context.draw(source, in: Rect(x: 100, y: 0, width: 40, height: 40), mode: .fill)  // 80x40, clipped
            context.draw(source, in: Rect(x: 150, y: 0, width: 40, height: 80), mode: .stretch)
            context.draw(source, in: Rect(x: 0, y: 84, width: 40, height: 16), mode: .center)  // 4x2 at 18,91
        }
        #expect(image.color(10, 40) == red && image.color(70, 40) == blue)
        #expect(image.color(40, 15) == .white && image.color(40, 65) == .white)
        #expect(image.color(105, 20) == red && image.color(135, 20) == blue)
        #expect(image.color(145, 20) == .white, "what fill overflows is clipped")
        #expect(image.color(152, 75) == red && image.color(188, 5) == blue)
        #expect(image.color(18, 91) == red && image.color(21, 92) == blue && image.color(17, 91) == .white)
        #expect(renderer.problems.isEmpty)
    }

    @Test("an SVG is rendered sharp at the device size")
    func svgDraws() throws {
        let file = svg("shapes.svg")
        defer { file.remove() }
        let renderer = CairoRenderer()
        let image = renderer.image(size: Size(width: 100, height: 50), scale: 2) { context in
            context.draw(ImageSource(file: file.path), in: Rect(x: 0, y: 0, width: 100, height: 50), mode: .fit)
        }
        #expect(image.color(50, 50) == green)  // the circle's centre, at twice the pixels
        #expect(image.color(150, 50) == blue)
        #expect(image.color(4, 4) == .white)
        // Square corners stay sharp: the pixel just inside is blue, the one outside white.
        #expect(image.color(120, 20) == blue && image.color(119, 19) == .white)
        #expect(renderer.problems.isEmpty)
    }

    @Test("an image is decoded once and kept per device size: the next frame copies the same pixels")
    func imagesAreKept() throws {
        let file = try png("kept.png")
        defer { file.remove() }
        let vector = svg("kept.svg")
        defer { vector.remove() }
        let renderer = CairoRenderer()
        func frame(scale: Double = 1) -> PixelImage {
            renderer.image(size: Size(width: 100, height: 100), scale: scale) { context in
                context.draw(ImageSource(file: file.path), in: Rect(x: 0, y: 0, width: 40, height: 20), mode: .stretch)
                context.draw(ImageSource(file: vector.path), in: Rect(x: 0, y: 50, width: 100, height: 50), mode: .fit)
            }
        }
        let first = frame()
        #expect(renderer.cacheCounts.decodes == 2 && renderer.cacheCounts.scalings == 2)
        #expect(frame() == first)
        #expect(renderer.cacheCounts.decodes == 2 && renderer.cacheCounts.scalings == 2)
        _ = frame(scale: 2)
        #expect(renderer.cacheCounts.decodes == 2 && renderer.cacheCounts.scalings == 4)
    }

    @Test("the image cache is bounded by its bytes")
    func imageCacheBound() throws {
        let file = try png("bound.png")
        defer { file.remove() }
        let renderer = CairoRenderer(limits: CairoRenderer.Limits(imageBytes: 40_000))
        _ = renderer.image(size: Size(width: 100, height: 100)) { context in
            for side in stride(from: 20.0, through: 90, by: 10) {
                context.draw(
                    ImageSource(file: file.path), in: Rect(x: 0, y: 0, width: side, height: side), mode: .stretch)
            }
        }
        #expect(renderer.cacheCounts.imageBytes <= 40_000)
        #expect(renderer.cacheCounts.scalings == 8)
        #expect(renderer.cacheCounts.images < 8)
    }

    @Test("a missing image draws a placeholder and is reported once, naming the file and the fix")
    func missingImage() throws {
        let renderer = CairoRenderer()
        var reported: [CairoGraphicsError] = []
        renderer.onProblem = { reported.append($0) }
        let path = "/nonexistent/riverside/logo.png"
        for _ in 0..<3 {
            let image = renderer.image(size: Size(width: 60, height: 40)) { context in
                context.draw(ImageSource(file: path), in: Rect(x: 10, y: 10, width: 40, height: 20), mode: .fit)
                context.draw(ImageSource(file: path), in: Rect(x: 0, y: 0, width: 5, height: 5), mode: .fit)
            }
            // The box and its cross.
            #expect(image.color(10, 20).distance(to: .white) > 60)
            #expect(image.color(30, 20).distance(to: .white) > 60)
            #expect(image.color(20, 12) == .white)
        }
        #expect(reported.count == 1)
        #expect(renderer.problems == reported)
        let problem = try #require(reported.first)
        #expect(problem.code == .imageNotFound)
        #expect(problem.path == path)
        #expect(problem.message == "\(path): no such file; install the image or fix the path")
    }

    @Test(
        "a file that is not an image, or a directory, is reported with the reason",
        arguments: [
            ("not-png.png", "plain text", CairoGraphicsError.Code.imageNotDecodable, "not a PNG file"),
            ("svg-named.png", "<svg xmlns='http://www.w3.org/2000/svg'/>", .imageNotDecodable, "name it .svg"),
            ("broken.svg", "<svg><g>", .imageNotDecodable, "not an SVG librsvg can read"),
        ])
    func undecodable(name: String, contents: String, code: CairoGraphicsError.Code, words: String) throws {
        let file = TemporaryFile(name, contents: contents)
        defer { file.remove() }
        let renderer = CairoRenderer()
        _ = renderer.image(size: Size(width: 20, height: 20)) { context in
            context.draw(ImageSource(file: file.path), in: Rect(x: 0, y: 0, width: 20, height: 20), mode: .fit)
        }
        let problem = try #require(renderer.problems.first)
        #expect(problem.code == code)
        #expect(problem.message.hasPrefix(file.path + ": "))
        #expect(problem.message.contains(words), "\(problem.message)")
    }

    @Test("a directory or a huge PNG is refused before anything is decoded")
    func refused() {
        let renderer = CairoRenderer()
        // A PNG header claiming 20000x20000 pixels, and nothing else.
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        header += Array("IHDR".utf8) + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0]
        let huge = TemporaryFile("huge.png", bytes: header)
        defer { huge.remove() }
        _ = renderer.image(size: Size(width: 20, height: 20)) { context in
            context.draw(ImageSource(file: "/tmp"), in: Rect(x: 0, y: 0, width: 20, height: 20), mode: .fit)
            context.draw(ImageSource(file: huge.path), in: Rect(x: 0, y: 0, width: 20, height: 20), mode: .fit)
        }
        #expect(renderer.problems.map(\.code) == [.imageNotReadable, .imageTooLarge])
        #expect(renderer.problems.first?.message == "/tmp: a directory, not an image file; fix the path")
        #expect(renderer.problems.last?.message.contains("20000x20000 pixels") == true)
    }

    @Test("an image drawn translucent and under a transform")
    func translucentAndScaled() throws {
        let file = try png("scaled.png")
        defer { file.remove() }
        let renderer = CairoRenderer()
        let image = renderer.image(size: Size(width: 100, height: 100)) { context in
            context.withSavedState {
                context.translate(x: 10, y: 10)
                context.scale(by: 2)
                context.setOpacity(0.5)
                context.draw(ImageSource(file: file.path), in: Rect(x: 0, y: 0, width: 40, height: 20), mode: .stretch)
            }
        }
        let left = image.color(20, 30)
        #expect(left.red == 255 && left.green > 120 && left.green < 135)
        #expect(image.color(85, 30).blue == 255 && image.color(85, 30).red < 135)
        #expect(image.color(95, 30) == .white)
    }
}
