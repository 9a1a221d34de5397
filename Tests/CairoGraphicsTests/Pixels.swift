import Foundation
import PixelCanvas

/// What the tests read from pixels.
extension PixelImage {
    /// The bounds of the pixels that differ from `background` by more than `threshold` in some channel:
    /// (left, top, right, bottom), inclusive; `nil` when there are none.
    func ink(
        differingFrom background: PixelColor = PixelColor(red: 255, green: 255, blue: 255), threshold: Int = 48
    ) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        var bounds: (left: Int, top: Int, right: Int, bottom: Int)?
        for y in 0..<height {
            for x in 0..<width where color(x, y).distance(to: background) > threshold {
                if let current = bounds {
                    bounds = (min(current.left, x), min(current.top, y), max(current.right, x), max(current.bottom, y))
                } else {
                    bounds = (x, y, x, y)
                }
            }
        }
        return bounds
    }

    /// How many pixels satisfy a condition.
    func count(where condition: (PixelColor) -> Bool) -> Int {
        var count = 0
        for y in 0..<height {
            for x in 0..<width where condition(color(x, y)) { count += 1 }
        }
        return count
    }

    /// The image halved: each pixel the mean of a 2x2 block.
    func halved() -> [[PixelColor]] {
        (0..<(height / 2)).map { y in
            (0..<(width / 2)).map { x in
                let block = [
                    color(2 * x, 2 * y), color(2 * x + 1, 2 * y), color(2 * x, 2 * y + 1), color(2 * x + 1, 2 * y + 1),
                ]
                func mean(_ channel: (PixelColor) -> UInt8) -> UInt8 {
                    UInt8((block.reduce(0) { $0 + Int(channel($1)) } + 2) / 4)
                }
                return PixelColor(red: mean(\.red), green: mean(\.green), blue: mean(\.blue))
            }
        }
    }

    /// The pixel's alpha byte.
    func alpha(_ x: Int, _ y: Int) -> UInt8 { pixels[y * stride + x * 4 + 3] }
}

extension PixelColor {
    /// The largest difference in one channel.
    func distance(to other: PixelColor) -> Int {
        max(abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)), abs(Int(blue) - Int(other.blue)))
    }

    /// How far from grey: the spread between its largest and smallest channel.
    var chroma: Int { Int(max(red, green, blue)) - Int(min(red, green, blue)) }

    static let white = PixelColor(red: 255, green: 255, blue: 255)
}

/// A file in the temporary directory, removed by `remove()`.
struct TemporaryFile {
    let path: String

    init(_ name: String, contents: String? = nil) {
        self.init(name, bytes: contents.map { Array($0.utf8) })
    }

    init(_ name: String, bytes: [UInt8]?) {
        // Unique per file: tests run in parallel, and two that wrote, read and removed the same
        // path (pngBytes() of the in-memory image tests) removed each other's file.
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "cairo-\(getpid())-\(UUID().uuidString.prefix(8))-\(name)"
            ).path
        if let bytes { _ = FileManager.default.createFile(atPath: path, contents: Data(bytes)) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
