import Foundation
import PixelCanvas
import Testing

/// Compares a rendered canvas with a checked-in PNG, cell by cell, with a tolerance that survives
/// font hinting and rasterizer differences between FreeType, Cairo and Pango versions but not a wrong
/// character, colour or position. `UPDATE_GOLDEN=1` rewrites the PNG.
///
/// The comparison is per cell, each image divided into the canvas's columns and rows (so a golden
/// made with cells a pixel larger still compares): a cell matches when
/// - its background (most common colour) is within 8 levels per channel of the golden's;
/// - its ink coverage (the summed per-pixel difference from the background over the cell's area)
///   differs by at most 0.03 + 20 % of the larger coverage (hinting moves stems by a pixel; another
///   glyph changes coverage by far more);
/// - its ink's centre of mass is within 12 % of the cell's width and height of the golden's (catches a
///   mirrored or shifted glyph whose coverage matches, `b` for `d`).
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

    /// The cells that do not match, described; empty when the images match.
    static func differences(_ image: PixelImage, _ golden: PixelImage, columns: Int, rows: Int) -> [String] {
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
                } else if abs(a.coverage - b.coverage) > 0.03 + 0.2 * max(a.coverage, b.coverage) {
                    failures.append("\(cell): ink coverage \(a.coverage), golden \(b.coverage)")
                } else if abs(a.centroid.x - b.centroid.x) > 0.12 || abs(a.centroid.y - b.centroid.y) > 0.12 {
                    failures.append("\(cell): ink centred at \(a.centroid), golden \(b.centroid)")
                }
            }
        }
        return failures
    }
}
