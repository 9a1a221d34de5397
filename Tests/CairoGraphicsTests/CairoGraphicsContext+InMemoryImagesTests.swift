import Foundation
import PixelCanvas
import ResponderChain
import Testing

@testable import CairoGraphics

/// Images held in memory (an app's icons compiled into it): drawn as the same file would be, kept
/// in the same caches, and reported by name when they cannot be decoded.
@Suite struct CairoGraphicsContextInMemoryImagesTests {
    let red = PixelColor(red: 255, green: 0, blue: 0)
    let blue = PixelColor(red: 0, green: 0, blue: 255)
    let green = PixelColor(red: 0, green: 128, blue: 0)

    static let shapes = """
        <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
          <circle cx="25" cy="25" r="20" fill="green"/>
          <rect x="60" y="10" width="30" height="30" fill="blue"/>
        </svg>
        """

    /// A 4x2 PNG's bytes, red on the left half and blue on the right.
    func pngBytes() throws -> [UInt8] {
        var image = PixelImage(width: 4, height: 2)
        for y in 0..<2 {
            for x in 0..<4 {
                let offset = y * image.stride + x * 4
                image.pixels[offset..<(offset + 4)] = x < 2 ? [0, 0, 255, 255] : [255, 0, 0, 255]
            }
        }
        let file = TemporaryFile("in-memory-source.png")
        defer { file.remove() }
        try image.writePNG(to: file.path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: file.path)))
    }

    @Test("an SVG held in memory draws the same pixels as the same document in a file")
    func svgFromMemory() throws {
        let file = TemporaryFile("in-memory.svg", contents: Self.shapes)
        defer { file.remove() }
        let renderer = CairoRenderer()
        func draw(_ source: ImageSource) -> PixelImage {
            renderer.image(size: Size(width: 100, height: 50), scale: 2) { context in
                context.draw(source, in: Rect(x: 0, y: 0, width: 100, height: 50), mode: .fit)
            }
        }
        let fromMemory = draw(ImageSource(svg: Self.shapes, name: "shapes.svg"))
        #expect(fromMemory.color(50, 50) == green && fromMemory.color(150, 50) == blue)
        #expect(fromMemory == draw(ImageSource(file: file.path)))
        #expect(renderer.problems.isEmpty)
    }

    @Test("a PNG held in memory is read through cairo's stream reader and scaled like a file")
    func pngFromMemory() throws {
        let renderer = CairoRenderer()
        let source = ImageSource(png: try pngBytes(), name: "flag.png")
        let image = renderer.image(size: Size(width: 80, height: 40)) { context in
            context.draw(source, in: Rect(x: 0, y: 0, width: 80, height: 40), mode: .stretch)
        }
        #expect(image.color(10, 20) == red && image.color(70, 20) == blue)
        #expect(renderer.problems.isEmpty)
    }

    @Test("an in-memory image is decoded once and kept per device size, as a file is")
    func kept() throws {
        let renderer = CairoRenderer()
        let bytes = try pngBytes()
        func frame() -> PixelImage {
            renderer.image(size: Size(width: 100, height: 100)) { context in
                // A new source value each frame, equal to the last: the cache finds it.
                context.draw(
                    ImageSource(png: bytes, name: "kept.png"), in: Rect(x: 0, y: 0, width: 40, height: 20),
                    mode: .stretch)
                context.draw(
                    ImageSource(svg: Self.shapes, name: "kept.svg"), in: Rect(x: 0, y: 50, width: 100, height: 50),
                    mode: .fit)
            }
        }
        let first = frame()
        #expect(frame() == first)
        #expect(renderer.cacheCounts.decodes == 2 && renderer.cacheCounts.scalings == 2)
    }

    @Test(
        "an in-memory image that cannot be decoded draws a placeholder and is reported once by its name",
        arguments: [
            (ImageSource(svg: "<svg><g>", name: "broken.svg"), "not an SVG librsvg can read"),
            (ImageSource(png: Array("plain text, not a PNG at all".utf8), name: "text.png"), "not a PNG file"),
            (ImageSource(png: [0x89, 0x50, 0x4E, 0x47], name: "short.png"), "not a PNG file"),
        ])
    func undecodable(source: ImageSource, words: String) throws {
        let renderer = CairoRenderer()
        for _ in 0..<2 {
            let image = renderer.image(size: Size(width: 60, height: 40)) { context in
                context.draw(source, in: Rect(x: 10, y: 10, width: 40, height: 20), mode: .stretch)
            }
            #expect(image.color(10, 20).distance(to: .white) > 60, "the placeholder's box")
        }
        #expect(renderer.problems.count == 1)
        let problem = try #require(renderer.problems.first)
        #expect(problem.code == .imageNotDecodable)
        #expect(problem.path == source.path)
        #expect(problem.message.hasPrefix("\(source.path) (in memory): "), "\(problem.message)")
        #expect(problem.message.contains(words), "\(problem.message)")
    }

    @Test("a truncated PNG in memory fails in cairo's reader, and is reported")
    func truncated() throws {
        let bytes = try pngBytes()
        let renderer = CairoRenderer()
        _ = renderer.image(size: Size(width: 20, height: 20)) { context in
            context.draw(
                ImageSource(png: Array(bytes.prefix(40)), name: "cut.png"), in: Rect(x: 0, y: 0, width: 20, height: 20),
                mode: .fit)
        }
        let problem = try #require(renderer.problems.first)
        #expect(problem.code == .imageNotDecodable)
        #expect(problem.message.contains("a damaged PNG"), "\(problem.message)")
    }
}
