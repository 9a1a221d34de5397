import Foundation
import PixelCanvas
import Testing

/// Compares a rendered canvas with a checked-in PNG, cell by cell, with a tolerance that survives
/// font hinting and rasterizer differences between FreeType, HarfBuzz and Cairo versions but not a wrong
/// character, colour or position. `UPDATE_GOLDEN=1` rewrites the PNG.
///
/// The comparison is per cell, each image divided into the canvas's columns and rows: a cell matches
/// when
/// - its background (most common colour) is within 8 levels per channel of the golden's;
/// - its ink colour (the pixel farthest from the background) is within 32 levels per channel, when
///   both have ink;
/// - its ink (each pixel's largest channel difference from the background, 0 to 1), compared with the
///   golden's at the best of the nine offsets of at most one pixel across and down, differs by at most
///   12 % of the larger ink (summed absolute difference over summed ink): hinting moves a glyph or a
///   stem by a pixel and blurs an edge, which the offset and the tolerance absorb; another character
///   (`a` for `o`, `b` for `d`, `n` for `h`) differs by more.
///
/// The images must have the same size: a face whose metrics give another cell size is a new golden.
/// GoldenImageTests checks that a one-pixel shift passes and another character or colour fails.
enum GoldenImage {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func expect(
        _ image: PixelImage, columns: Int, rows: Int, matches name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = directory.appendingPathComponent(name).path
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try image.writePNG(to: path)
        }
        let golden = try PixelImage(contentsOfPNG: path)
        let failures = differences(image, golden, columns: columns, rows: rows)
        if !failures.isEmpty {
            let got = FileManager.default.temporaryDirectory.appendingPathComponent("got-\(name)").path
            try? image.writePNG(to: got)
            let message: String =
                "\(name): \(failures.count) cells differ (rendered image in \(got); UPDATE_GOLDEN=1 rewrites golden "
                + "images):\n" + failures.prefix(10).joined(separator: "\n")
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    /// The most a cell's ink may differ from the golden's, as a fraction of the larger ink.
    static let inkTolerance = 0.12

    /// The summed absolute ink difference over the larger of the two inks, at the best offset of at most
    /// one pixel: 0 for the same glyph, 2 for glyphs that share no pixel.
    static func inkDifference(_ a: CellInk, _ b: CellInk) -> Double {
        let (width, height) = a.size
        var best = Double.infinity
        for dy in -1...1 {
            for dx in -1...1 {
                var sum = 0.0
                for y in 0..<height {
                    for x in 0..<width {
                        let (u, v) = (x + dx, y + dy)
                        let other = u >= 0 && u < width && v >= 0 && v < height ? b.weights[v * width + u] : 0
                        sum += abs(a.weights[y * width + x] - other)
                    }
                }
                best = min(best, sum)
            }
        }
        let ink = max(a.weights.reduce(0, +), b.weights.reduce(0, +))
        return ink > 0 ? best / ink : 0
    }

    private static func far(_ a: UInt8, _ b: UInt8) -> Bool { abs(Int(a) - Int(b)) > 32 }

    /// The cells that do not match, described; empty when the images match.
    static func differences(_ image: PixelImage, _ golden: PixelImage, columns: Int, rows: Int) -> [String] {
        guard image.width == golden.width && image.height == golden.height else {
            return ["\(image.width)x\(image.height) pixels, golden \(golden.width)x\(golden.height)"]
        }
        let got = CellInk.grid(image, columns: columns, rows: rows)
        let want = CellInk.grid(golden, columns: columns, rows: rows)
        var failures: [String] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let (a, b) = (got[row][column], want[row][column])
                let cell = "cell \(column),\(row)"
                let channels = [
                    (a.background.red, b.background.red), (a.background.green, b.background.green),
                    (a.background.blue, b.background.blue),
                ]
                if channels.contains(where: { abs(Int($0.0) - Int($0.1)) > 8 }) {
                    failures.append("\(cell): background \(a.background), golden \(b.background)")
                } else if a.coverage > 0.01 && b.coverage > 0.01,
                    Self.far(a.ink.red, b.ink.red) || Self.far(a.ink.green, b.ink.green)
                        || Self.far(a.ink.blue, b.ink.blue)
                {
                    failures.append("\(cell): ink colour \(a.ink), golden \(b.ink)")
                } else if let difference = Optional(inkDifference(a, b)), difference > inkTolerance {
                    failures.append("\(cell): ink differs by \(difference) of the cell (at most \(inkTolerance))")
                }
            }
        }
        return failures
    }
}
