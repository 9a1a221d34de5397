public import TerminalCanvas

/// Renders a `Canvas` (TerminalCanvas) into ARGB8888 pixels with a real font: the one renderer a
/// Wayland window's `wl_shm` buffers and a DRM display's dumb buffers share.
///
/// fontconfig finds the face (DejaVu Sans Mono, from `fonts-dejavu-core`, by default), FreeType loads
/// it, HarfBuzz shapes each cell's character (a base and its combining marks together) and Cairo
/// rasterizes it; a character the face lacks comes from a fallback face fontconfig picks. Each cell is
/// a ``cellSize`` rectangle: its background filled in the style's colour (see ``PixelPalette``), its
/// character drawn on the face's baseline and clipped to the cell, a wide character centred across two
/// cells. Characters the canvas replaced (control characters, lone bidi controls and zero-width
/// characters) are `�` in the canvas, and so in pixels.
///
/// Only rows whose cells differ from the previous canvas are drawn, and their pixel rows returned:
/// the damage to report to the compositor.
///
/// ```swift
/// let renderer = try PixelRenderer(pixelSize: 16)
/// let canvas = Canvas(columns: width / renderer.cellSize.width, rows: height / renderer.cellSize.height)
/// let damage = renderer.render(canvas, into: buffer, width: width, height: height, stride: width * 4,
///                              previous: canvasInThatBuffer)
/// ```
///
/// Not thread-safe: use one renderer from one thread (its faces are used by one thread at a time);
/// renderers on other threads are independent.
public final class PixelRenderer {
    /// A cell's width and height in pixels (device pixels: ``scale`` applied), from the font's metrics.
    public let cellSize: (width: Int, height: Int)
    /// The font family fontconfig found.
    public let fontFamily: String
    /// The em size in logical pixels.
    public let pixelSize: Double
    /// Device pixels per logical pixel (a HiDPI output's buffer scale).
    public let scale: Int
    /// The colours styles are drawn in.
    public let palette: PixelPalette

    /// The faces, their shaping and the cell's metrics (internal for tests).
    let font: CellFont
    /// Which cells of the row being drawn changed (kept between rows and frames).
    private var dirty: [Bool] = []
    /// Cells already drawn once, as pixels (premultiplied ARGB, a span's width by the cell's height), by
    /// character, style and span: a kiosk shows the same few hundred cells over and over, and a kept one is
    /// copied, not shaped and rasterized again. Characters of several scalars are not kept. Emptied when it
    /// would pass ``cellCacheLimit`` cells.
    private var cellImages: [CellImageKey: [UInt32]] = [:]
    /// Where kept cells are drawn (made with the first).
    private var scratch: CellScratch?
    /// How many cells ``cellImages`` holds, and how often it was emptied (internal for tests).
    var cellImageCount: Int { cellImages.count }
    private(set) var cellCacheEvictions = 0
    /// The most cells kept (internal and settable for tests): 4,096, far more distinct cells than a
    /// screen shows; 3 MB with DejaVu Sans Mono at 16 px, four times that at scale 2.
    var cellCacheLimit = 4096
    /// Whether cells are kept as pixels (internal: tests draw without to compare).
    var cachesCells = true

    private struct CellImageKey: Hashable {
        let code: UInt32
        let style: UInt16
        let span: UInt8
    }

    /// Finds the font and measures its cell.
    ///
    /// - Parameters:
    ///   - fontFamily: A family fontconfig knows (`fc-list : family`); a monospaced one keeps text on the grid.
    ///   - pixelSize: The em size in logical pixels (16 gives DejaVu Sans Mono cells of about 10x19).
    ///   - scale: Device pixels per logical pixel, at least 1.
    ///   - palette: The colours.
    /// - Throws: ``PixelCanvasError`` (``PixelCanvasError/Code/fontNotFound``) naming fontconfig and the
    ///   package to install when no such family is installed.
    public init(
        fontFamily: String = "DejaVu Sans Mono", pixelSize: Double, scale: Int = 1,
        palette: PixelPalette = .standard
    ) throws {
        self.fontFamily = fontFamily
        self.pixelSize = max(1, pixelSize)
        self.scale = max(1, scale)
        self.palette = palette
        font = try CellFont(family: fontFamily, pixelSize: self.pixelSize * Double(self.scale))
        cellSize = (font.cellWidth, font.cellHeight)
    }

    /// Draws the rows of a canvas that differ from `previous` into a buffer, and returns the pixel rows it
    /// changed (adjacent rows merged, top to bottom).
    ///
    /// With no previous canvas, or one of another size, everything is drawn: every cell, and the
    /// margin right of and below the grid in the palette's background. Cells outside the buffer are
    /// clipped. For double buffering, `previous` is the canvas *this* buffer last showed, not the
    /// last one rendered.
    ///
    /// - Parameters:
    ///   - canvas: What to show.
    ///   - buffer: ARGB8888 premultiplied, little-endian (wl_shm's `ARGB8888` and `XRGB8888`, a DRM dumb
    ///     buffer's `XR24`): at least `stride * height` bytes.
    ///   - width: The buffer's width in pixels.
    ///   - height: The buffer's height in pixels.
    ///   - stride: The bytes from one row to the next: at least `width * 4`, a multiple of 4.
    ///   - previous: The canvas the buffer shows now, or `nil` when unknown.
    /// - Returns: The ranges of pixel rows drawn; empty when nothing changed.
    @discardableResult
    public func render(
        _ canvas: Canvas, into buffer: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int,
        previous: Canvas?
    ) -> [Range<Int>] {
        precondition(width > 0 && height > 0, "a \(width)x\(height) buffer has no pixels")
        precondition(
            stride >= width * 4 && stride % 4 == 0, "stride \(stride) is not a multiple of 4 of at least \(width * 4)")
        precondition(
            buffer.count >= stride * height, "a \(buffer.count)-byte buffer is smaller than \(stride) x \(height)")
        let shown = previous.flatMap { $0.columns == canvas.columns && $0.rows == canvas.rows ? $0 : nil }
        let full = shown == nil
        let rows = (0..<canvas.rows).filter { row in
            guard row * cellSize.height < height else { return false }
            guard let shown else { return true }
            return !canvas.rowEquals(shown, row: row)
        }
        guard full || !rows.isEmpty else { return [] }
        let target = Target(buffer: buffer, width: width, height: height, stride: stride)
        if full {
            // The first row pixel by pixel, then copied: raw stores and copies, so the caller's buffer
            // may be bound to any type (bytes, most often) and need not be aligned.
            let background = palette.background.argb
            for x in 0..<width { buffer.storeBytes(of: background, toByteOffset: x * 4, as: UInt32.self) }
            for y in 1..<height {
                (buffer.baseAddress! + y * stride).copyMemory(from: buffer.baseAddress!, byteCount: width * 4)
            }
        }
        // Cells not kept as pixels (characters of several scalars) are drawn on the buffer afterwards.
        var uncached: [(column: Int, row: Int, span: Int)] = []
        for row in rows { draw(row, of: canvas, changedFrom: shown, into: target, uncached: &uncached) }
        if !uncached.isEmpty {
            let painter = CairoPainter(buffer, width: width, height: height, stride: stride, font: font)
            for cell in uncached {
                paint(
                    canvas.character(cell.column, cell.row), Canvas.unpack(canvas.cell(cell.column, cell.row).style),
                    x: Double(cell.column * cellSize.width), y: Double(cell.row * cellSize.height), span: cell.span,
                    with: painter)
            }
            painter.finish()
        }
        if full { return [0..<height] }
        return Self.merged(rows.map { ($0 * cellSize.height)..<min(($0 + 1) * cellSize.height, height) })
    }

    /// Renders a whole canvas into a new image of exactly its size (``cellSize`` times its columns and rows).
    ///
    /// - Parameter canvas: What to show.
    /// - Returns: The pixels.
    public func image(of canvas: Canvas) -> PixelImage {
        var image = PixelImage(width: canvas.columns * cellSize.width, height: canvas.rows * cellSize.height)
        let (width, height, stride) = (image.width, image.height, image.stride)
        image.pixels.withUnsafeMutableBytes { buffer in
            _ = render(canvas, into: buffer, width: width, height: height, stride: stride, previous: nil)
        }
        return image
    }

    /// One row's cells that differ from `shown` (all of them without it): each cell's background,
    /// then its character and underline. A cell a wide character covers, in either canvas, is
    /// drawn with that character's first cell: glyphs are clipped to their cells, so nothing else
    /// needs drawing again.
    private func draw(
        _ row: Int, of canvas: Canvas, changedFrom shown: Canvas?, into target: Target,
        uncached: inout [(column: Int, row: Int, span: Int)]
    ) {
        let columns = canvas.columns
        // One buffer for every row and frame: a key's frame allocates nothing here.
        if dirty.count < columns { dirty = [Bool](repeating: false, count: columns) }
        for column in 0..<columns { dirty[column] = shown == nil }
        if let shown {
            for column in 0..<columns where !canvas.sameCell(shown, column, row) { dirty[column] = true }
            // A wide character (old or new) and the column it covers are drawn together.
            for column in 0..<columns - 1
            where (shown.isWide(column, row) || canvas.isWide(column, row)) && (dirty[column] || dirty[column + 1]) {
                dirty[column] = true
                dirty[column + 1] = true
            }
        }
        var column = 0
        while column < columns {
            // A wide character's second column holds nothing of its own (the canvas keeps it blank).
            let span = canvas.isWide(column, row) ? 2 : 1
            defer { column += span }
            guard dirty[column] else { continue }
            let cell = canvas.cell(column, row)
            guard cachesCells, cell.code & Canvas.clusterFlag == 0 else {
                uncached.append((column, row, span))
                continue
            }
            let pixels = cellImage(CellImageKey(code: cell.code, style: cell.style, span: UInt8(span)))
            target.copy(
                pixels, width: cellSize.width * span, height: cellSize.height, x: column * cellSize.width,
                y: row * cellSize.height)
        }
    }

    /// A cell's pixels, drawn on first use.
    private func cellImage(_ key: CellImageKey) -> [UInt32] {
        if let pixels = cellImages[key] { return pixels }
        let (width, height) = (cellSize.width * Int(key.span), cellSize.height)
        let scratch = self.scratch ?? CellScratch(cellWidth: cellSize.width, cellHeight: height, font: font)
        self.scratch = scratch
        scratch.draw { painter in
            let character = Character(Unicode.Scalar(key.code) ?? "\u{FFFD}")
            paint(character, Canvas.unpack(key.style), x: 0, y: 0, span: Int(key.span), with: painter)
        }
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { cell in
            for row in 0..<height {
                (cell.baseAddress! + row * width).update(
                    from: scratch.pixels.baseAddress! + row * scratch.rowLength, count: width)
            }
        }
        if cellImages.count >= cellCacheLimit {
            cellImages.removeAll(keepingCapacity: true)
            cellCacheEvictions += 1
        }
        cellImages[key] = pixels
        return pixels
    }

    /// Draws one cell (a span of one or two columns): its background, its character and its underline.
    private func paint(
        _ character: Character, _ style: CellStyle, x: Double, y: Double, span: Int,
        with painter: borrowing CairoPainter
    ) {
        let (cellWidth, cellHeight) = (Double(cellSize.width), Double(cellSize.height))
        let colors = palette.colors(for: style)
        let width = cellWidth * Double(span)
        painter.fill(x: x, y: y, width: width, height: cellHeight, colors.background)
        if character != " " {
            painter.character(
                character, bold: style.bold, x: x, y: y, width: width, height: cellHeight, colors.foreground)
        }
        if style.underline {
            // Inside the cell, as a glyph is: a cell drawn on the buffer must not reach the row below.
            let top = min((y + font.baseline + font.underlinePosition).rounded(), y + cellHeight - 1)
            painter.fill(
                x: x, y: top, width: width, height: min(font.underlineThickness.rounded(), y + cellHeight - top),
                colors.foreground)
        }
    }

    /// The buffer being drawn on.
    private struct Target {
        let buffer: UnsafeMutableRawBufferPointer
        let width: Int
        let height: Int
        let stride: Int

        /// Copies a block of pixels to (x, y), clipped to the buffer.
        func copy(_ pixels: [UInt32], width blockWidth: Int, height blockHeight: Int, x: Int, y: Int) {
            let columns = min(blockWidth, width - x)
            let rows = min(blockHeight, height - y)
            guard columns > 0, rows > 0 else { return }
            pixels.withUnsafeBytes { source in
                for row in 0..<rows {
                    (buffer.baseAddress! + (y + row) * stride + x * 4).copyMemory(
                        from: source.baseAddress! + row * blockWidth * 4, byteCount: columns * 4)
                }
            }
        }
    }

    private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges {
            if let last = result.last, last.upperBound == range.lowerBound {
                result[result.count - 1] = last.lowerBound..<range.upperBound
            } else {
                result.append(range)
            }
        }
        return result
    }
}
