import PixelCanvas
import TerminalCanvas
import Testing

/// All of the module's tests, one at a time: the leak test measures the heap, which tests running
/// beside it would grow.
@Suite(.serialized) struct PixelCanvasTests {}

/// Pixels of one cell, measured against the cell's background colour.
struct CellInk {
    /// The most common colour in the cell.
    var background: PixelColor
    /// How many pixels differ from the background by more than ``threshold`` levels in a channel.
    var pixels: Int
    /// Ink weight (each pixel's largest channel difference / 255), summed, over the cell's area.
    var coverage: Double
    /// The ink's centre of mass, as fractions of the cell's width and height (0.5, 0.5 when no ink).
    var centroid: (x: Double, y: Double)
    /// Each pixel's ink weight, row by row.
    var weights: [Double]
    /// The cell's width and height in pixels.
    var size: (width: Int, height: Int)
    /// The colour farthest from the background: the text's colour (the background when no ink).
    var ink: PixelColor

    static let threshold = 40

    /// Measures the cell at `column`, `row` of a grid of `columns` x `rows` cells covering the image.
    init(_ image: PixelImage, column: Int, row: Int, columns: Int, rows: Int) {
        let cellWidth = image.width / columns
        let cellHeight = image.height / rows
        let xs = (column * cellWidth)..<((column + 1) * cellWidth)
        let ys = (row * cellHeight)..<((row + 1) * cellHeight)
        var counts: [PixelColor: Int] = [:]
        for y in ys { for x in xs { counts[image.color(x, y), default: 0] += 1 } }
        background = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key.argb < $1.key.argb) }!.key
        var (pixels, weight, sumX, sumY) = (0, 0.0, 0.0, 0.0)
        var weights: [Double] = []
        var (ink, strongest) = (background, 0)
        for y in ys {
            for x in xs {
                let color = image.color(x, y)
                let difference = max(
                    abs(Int(color.red) - Int(background.red)), abs(Int(color.green) - Int(background.green)),
                    abs(Int(color.blue) - Int(background.blue)))
                if difference > Self.threshold { pixels += 1 }
                if difference > strongest { (ink, strongest) = (color, difference) }
                let w = Double(difference) / 255
                let (dx, dy) = (x - xs.lowerBound, y - ys.lowerBound)
                weight += w
                sumX += w * (Double(dx) + 0.5)
                sumY += w * (Double(dy) + 0.5)
                weights.append(w)
            }
        }
        self.pixels = pixels
        self.ink = ink
        self.weights = weights
        size = (cellWidth, cellHeight)
        coverage = weight / Double(cellWidth * cellHeight)
        centroid = weight > 0 ? (sumX / weight / Double(cellWidth), sumY / weight / Double(cellHeight)) : (0.5, 0.5)
    }

    /// Every cell of an image of a canvas.
    static func grid(_ image: PixelImage, columns: Int, rows: Int) -> [[CellInk]] {
        (0..<rows).map { row in
            (0..<columns).map { CellInk(image, column: $0, row: row, columns: columns, rows: rows) }
        }
    }
}
