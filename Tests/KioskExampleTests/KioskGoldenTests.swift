import CairoGraphics
import Foundation
import Graphics
import PixelCanvas
import ResponderChain
import Testing

@testable import KioskExample

/// The graphical face's screens at 1280x800 against golden images, drawn as `kiosk-example
/// --snapshot` draws them (the painter of a screen, Cairo and Pango, the fonts of Tools/test).
/// `UPDATE_GOLDEN=1` writes them anew; look at them before committing.
///
/// Images are compared in blocks of 24x24 pixels: a block matches when, at the best of the nine
/// offsets of at most a pixel, its pixels differ from the golden's by at most 6 levels on average
/// (the largest channel difference of each pixel). Antialiasing and hinting move an edge by a
/// pixel and blur it, which that absorbs; another word, a missing focus ring, a moved box, another
/// colour do not pass.
@MainActor
@Suite struct KioskGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    nonisolated static let screens: [(name: String, request: KioskSnapshotRequest)] = [
        ("kiosk-home-1280x800.png", KioskSnapshotRequest(path: "", screen: .home)),
        ("kiosk-checkin-keyboard-1280x800.png", KioskSnapshotRequest(path: "", screen: .checkin, showsKeyboard: true)),
        ("kiosk-dialog-1280x800.png", KioskSnapshotRequest(path: "", screen: .dialog)),
        ("kiosk-directory-1280x800.png", KioskSnapshotRequest(path: "", screen: .directory)),
        ("kiosk-home-rtl-1280x800.png", KioskSnapshotRequest(path: "", screen: .home, rightToLeft: true)),
    ]

    @Test("the screens match their golden images", arguments: screens.map(\.name))
    func golden(name: String) throws {
        let request = try #require(Self.screens.first { $0.name == name }?.request)
        let stage = KioskStage(request)
        let painter = WindowPainter(window: stage.window, size: request.size)
        let renderer = CairoRenderer()
        let image = renderer.image(size: request.size, scale: request.scale) { context in
            painter.paint(painter.takeDamage(), in: context)
        }
        #expect(renderer.problems.isEmpty, "every icon and the logo decode: \(renderer.problems)")
        let path = Self.directory.appendingPathComponent(name).path
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try image.writePNG(to: path)
            return
        }
        let golden = try PixelImage(contentsOfPNG: path)
        let failures = Self.differences(image, golden)
        if !failures.isEmpty {
            let got = FileManager.default.temporaryDirectory.appendingPathComponent("got-\(name)").path
            try? image.writePNG(to: got)
            Issue.record(
                Comment(
                    rawValue: "\(name): \(failures.count) blocks differ (rendered image in \(got); UPDATE_GOLDEN=1 "
                        + "rewrites golden images): " + failures.prefix(8).joined(separator: "; ")))
        }
    }

    @Test("the comparison passes a one-pixel shift and fails another word")
    func comparison() {
        let renderer = CairoRenderer()
        func text(_ words: String, x: Double) -> PixelImage {
            renderer.image(size: Size(width: 240, height: 48)) { context in
                context.draw(
                    words, in: Rect(x: x, y: 0, width: 230, height: 48), style: TextStyle(font: Font(size: 24)))
            }
        }
        #expect(Self.differences(text("Check in", x: 10), text("Check in", x: 11)).isEmpty)
        #expect(!Self.differences(text("Check in", x: 10), text("Check on", x: 10)).isEmpty)
        #expect(
            Self.differences(text("Check in", x: 10), PixelImage(width: 10, height: 10)) == [
                "240x48 pixels, golden 10x10"
            ])
    }

    static let block = 24
    static let tolerance = 6.0

    /// The blocks that do not match, described; empty when the images match.
    static func differences(_ image: PixelImage, _ golden: PixelImage) -> [String] {
        guard image.width == golden.width, image.height == golden.height else {
            return ["\(image.width)x\(image.height) pixels, golden \(golden.width)x\(golden.height)"]
        }
        var failures: [String] = []
        for top in stride(from: 0, to: image.height, by: block) {
            for left in stride(from: 0, to: image.width, by: block) {
                let right = min(left + block, image.width)
                let bottom = min(top + block, image.height)
                var best = Double.infinity
                for dy in -1...1 {
                    for dx in -1...1 {
                        var sum = 0
                        for y in top..<bottom {
                            for x in left..<right {
                                let u = min(max(x + dx, 0), image.width - 1)
                                let v = min(max(y + dy, 0), image.height - 1)
                                let a = image.color(u, v)
                                let b = golden.color(x, y)
                                sum += max(
                                    abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
                                    abs(Int(a.blue) - Int(b.blue)))
                            }
                        }
                        best = min(best, Double(sum) / Double((right - left) * (bottom - top)))
                    }
                }
                if best > tolerance {
                    failures.append("block at \(left),\(top): \(Int(best.rounded())) levels on average")
                }
            }
        }
        return failures
    }
}
