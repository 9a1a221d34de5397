import Foundation
import PixelCanvas
import ResponderChain
import Testing

@testable import CairoGraphics

/// SVG images kept on disk at each device size drawn: a second run draws the same pixels without
/// parsing anything (librsvg need not be opened), and a damaged or foreign file is never trusted.
@Suite struct RenderedSVGCacheTests {
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" width="48" height="32" viewBox="0 0 48 32">
          <circle cx="16" cy="16" r="13" fill="#0a7" fill-opacity="0.6"/>
          <path d="M28 4 L44 16 L28 28 Z" fill="none" stroke="#246" stroke-width="3"/>
        </svg>
        """

    /// A directory of its own, removed by `remove()`.
    struct Directory {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "svg-cache-\(getpid())-\(UUID().uuidString.prefix(8))"
        ).path
        /// Two levels down: the cache makes its parents.
        var path: String { root + "/nested/svg" }

        func files() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// The icon from memory and from a file, at two sizes and scale 2, with a translucent fill (its
    /// premultiplied pixels must come back byte for byte).
    static func frame(_ renderer: CairoRenderer, file: String) -> PixelImage {
        renderer.image(size: Size(width: 200, height: 100), scale: 2) { context in
            context.draw(
                ImageSource(svg: icon, name: "icon.svg"), in: Rect(x: 0, y: 0, width: 96, height: 64), mode: .fit)
            context.draw(ImageSource(file: file), in: Rect(x: 100, y: 10, width: 45, height: 30), mode: .fit)
        }
    }

    @Test(
        "a second renderer on the same cache draws the same pixels and parses nothing; the first wrote a size and a rendering per document"
    )
    func secondRunParsesNothing() throws {
        let directory = Directory()
        defer { directory.remove() }
        let file = TemporaryFile("cached.svg", contents: Self.icon.replacingOccurrences(of: "#0a7", with: "#a07"))
        defer { file.remove() }
        let first = CairoRenderer()
        first.svgCache = RenderedSVGCache(directory: directory.path)
        let drawn = Self.frame(first, file: file.path)
        #expect(first.cacheCounts.svgParses == 2)
        #expect(first.cacheCounts.svgCacheWrites == 4)
        let names = directory.files()
        #expect(names.count == 4 && names.filter { $0.hasSuffix(".size") }.count == 2, "\(names)")
        #expect(names.contains { $0.hasSuffix("-192x128.pixels") } && names.contains { $0.hasSuffix("-90x60.pixels") })

        let second = CairoRenderer()
        second.svgCache = RenderedSVGCache(directory: directory.path)
        #expect(Self.frame(second, file: file.path) == drawn)
        #expect(second.cacheCounts.svgParses == 0, "nothing parsed: librsvg is not needed")
        #expect(second.cacheCounts.svgCacheReads == 4 && second.cacheCounts.svgCacheWrites == 0)
        // Without a cache, the same pixels again.
        #expect(Self.frame(CairoRenderer(), file: file.path) == drawn)
        #expect(first.problems.isEmpty && second.problems.isEmpty)
    }

    @Test(
        "a size not kept yet parses the document then; a changed document is another entry, not the old pixels"
    )
    func newSizeAndChangedDocument() throws {
        let directory = Directory()
        defer { directory.remove() }
        let cache = RenderedSVGCache(directory: directory.path)
        let warm = CairoRenderer()
        warm.svgCache = cache
        _ = warm.image(size: Size(width: 48, height: 32)) { context in
            context.draw(
                ImageSource(svg: Self.icon, name: "a.svg"), in: Rect(x: 0, y: 0, width: 48, height: 32), mode: .fit)
        }
        let renderer = CairoRenderer()
        renderer.svgCache = cache
        let bigger = renderer.image(size: Size(width: 96, height: 64)) { context in
            context.draw(
                ImageSource(svg: Self.icon, name: "a.svg"), in: Rect(x: 0, y: 0, width: 96, height: 64), mode: .fit)
        }
        #expect(renderer.cacheCounts.svgParses == 1 && renderer.cacheCounts.svgCacheWrites == 1)
        #expect(
            bigger
                == CairoRenderer().image(size: Size(width: 96, height: 64)) { context in
                    context.draw(
                        ImageSource(svg: Self.icon, name: "a.svg"), in: Rect(x: 0, y: 0, width: 96, height: 64),
                        mode: .fit)
                })
        let recoloured = Self.icon.replacingOccurrences(of: "#0a7", with: "#f00").replacingOccurrences(
            of: "fill-opacity=\"0.6\"", with: "")
        let changed = renderer.image(size: Size(width: 48, height: 32)) { context in
            context.draw(
                ImageSource(svg: recoloured, name: "a.svg"), in: Rect(x: 0, y: 0, width: 48, height: 32), mode: .fit)
        }
        #expect(changed.color(16, 16) == PixelColor(red: 255, green: 0, blue: 0))
    }

    @Test(
        "a damaged file in the cache is not trusted: the document is parsed again, drawn right, and the file written anew"
    )
    func damagedFile() throws {
        let directory = Directory()
        defer { directory.remove() }
        // Another document than the one in memory (the cache knows a document by its bytes).
        let file = TemporaryFile("damaged.svg", contents: Self.icon.replacingOccurrences(of: "#246", with: "#642"))
        defer { file.remove() }
        let first = CairoRenderer()
        first.svgCache = RenderedSVGCache(directory: directory.path)
        let drawn = Self.frame(first, file: file.path)
        // Every pixels file: one byte changed in the middle; every size file: cut short.
        for name in directory.files() {
            let path = directory.path + "/" + name
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            if name.hasSuffix(".pixels") { bytes[bytes.count / 2] ^= 0x40 } else { bytes.removeLast() }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let second = CairoRenderer()
        second.svgCache = RenderedSVGCache(directory: directory.path)
        #expect(Self.frame(second, file: file.path) == drawn)
        #expect(second.cacheCounts.svgParses == 2 && second.cacheCounts.svgCacheWrites == 4)
        let third = CairoRenderer()
        third.svgCache = RenderedSVGCache(directory: directory.path)
        #expect(Self.frame(third, file: file.path) == drawn)
        #expect(third.cacheCounts.svgParses == 0, "the files written anew are whole")
    }

    @Test("a directory that cannot be made: drawn as without a cache, the write tried once")
    func unwritable() throws {
        let blocker = TemporaryFile("not-a-directory", contents: "a file where the directory would go")
        defer { blocker.remove() }
        let renderer = CairoRenderer()
        renderer.svgCache = RenderedSVGCache(directory: blocker.path + "/svg")
        let file = TemporaryFile("unwritable.svg", contents: Self.icon)
        defer { file.remove() }
        let drawn = Self.frame(renderer, file: file.path)
        #expect(drawn == Self.frame(CairoRenderer(), file: file.path))
        #expect(renderer.cacheCounts.svgCacheWrites == 0 && renderer.problems.isEmpty)
    }

    @Test("entries read back as written; anything else is nil, never a trap")
    func format() throws {
        let pixels = (0..<(3 * 2 * 4)).map { UInt8($0 * 7 % 256) }
        let entries: [RenderedSVGCache.Entry] = [
            .size(Size(width: 48, height: 32)), .size(nil), .pixels(width: 3, height: 2, bytes: pixels),
        ]
        for entry in entries {
            let bytes = RenderedSVGCache.encode(entry)
            #expect(RenderedSVGCache.entry(from: bytes) == entry)
            // Every shorter prefix, and one byte more: not an entry.
            for length in 0..<bytes.count { #expect(RenderedSVGCache.entry(from: Array(bytes.prefix(length))) == nil) }
            #expect(RenderedSVGCache.entry(from: bytes + [0]) == nil)
            // Any one byte changed: not an entry (the checksum, the magic, the kind or the sizes say so).
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x01
                #expect(RenderedSVGCache.entry(from: changed) == nil, "byte \(index)")
            }
        }
        // A header claiming a huge rendering, with a matching checksum: rejected by its size alone.
        var huge = RenderedSVGCache.magic
        for word: UInt32 in [2, 100_000, 100_000, 0] { huge += withUnsafeBytes(of: word.littleEndian, Array.init) }
        huge += withUnsafeBytes(of: RenderedSVGCache.checksum(huge[...]).littleEndian, Array.init)
        #expect(RenderedSVGCache.entry(from: huge) == nil)
        // A size that is not finite: rejected.
        var infinite = RenderedSVGCache.encode(.size(Size(width: 1, height: 1)))
        infinite.removeLast(8 + 16)
        infinite += withUnsafeBytes(of: Double.infinity.bitPattern.littleEndian, Array.init)
        infinite += withUnsafeBytes(of: (1.0).bitPattern.littleEndian, Array.init)
        infinite += withUnsafeBytes(of: RenderedSVGCache.checksum(infinite[...]).littleEndian, Array.init)
        #expect(RenderedSVGCache.entry(from: infinite) == nil)
    }

    @Test(
        "the standard cache: RESPONDERCHAIN_SVG_CACHE, else XDG_CACHE_HOME, else HOME's .cache; off, 0 or no absolute path: none"
    )
    func standard() {
        #expect(
            RenderedSVGCache.standard(environment: ["RESPONDERCHAIN_SVG_CACHE": "/srv/svg", "HOME": "/home/k"])
                == RenderedSVGCache(directory: "/srv/svg"))
        #expect(
            RenderedSVGCache.standard(environment: ["XDG_CACHE_HOME": "/var/cache/k", "HOME": "/home/k"])
                == RenderedSVGCache(directory: "/var/cache/k/responderchain/svg"))
        #expect(
            RenderedSVGCache.standard(environment: ["HOME": "/home/k"])
                == RenderedSVGCache(directory: "/home/k/.cache/responderchain/svg"))
        for environment in [
            ["RESPONDERCHAIN_SVG_CACHE": "off", "HOME": "/home/k"], ["RESPONDERCHAIN_SVG_CACHE": "0"],
            ["RESPONDERCHAIN_SVG_CACHE": "relative/dir"], ["HOME": "/"], ["XDG_CACHE_HOME": "cache"], [:],
        ] {
            #expect(RenderedSVGCache.standard(environment: environment) == nil, "\(environment)")
        }
    }
}

extension RenderedSVGCacheTests {
    /// The fuzz target's seeds (Fuzz/Corpus/svg-cache) are entries this format writes: a size, none, a
    /// small rendering. Checked here so that a change of the format changes the seeds with it.
    @Test("the fuzz target's seeds are this format's entries")
    func fuzzSeeds() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/svg-cache")
        let expected: [String: RenderedSVGCache.Entry] = [
            "size": .size(Size(width: 48, height: 32)), "no-size": .size(nil),
            "pixels-3x2": .pixels(width: 3, height: 2, bytes: (0..<24).map { UInt8($0 * 11 % 256) }),
        ]
        for (name, entry) in expected {
            let path = corpus.appendingPathComponent(name).path
            if ProcessInfo.processInfo.environment["UPDATE_FUZZ_SEEDS"] == "1" {
                try Data(RenderedSVGCache.encode(entry)).write(to: URL(fileURLWithPath: path))
            }
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(RenderedSVGCache.entry(from: bytes) == entry, "\(name)")
        }
    }
}
