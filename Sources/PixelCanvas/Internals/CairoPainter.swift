internal import CFontRendering

/// Draws on a caller's ARGB8888 buffer through a Cairo image surface made over it: filled
/// rectangles and single graphemes shaped by ``CellFont``.
struct CairoPainter: ~Copyable {
    private let surface: OpaquePointer
    private let cairo: OpaquePointer
    private let font: CellFont

    /// Wraps the buffer (no copy); ``finish()`` flushes and releases the surface (as does the painter's end).
    ///
    /// Uses `cairo_image_surface_create_for_data` with `CAIRO_FORMAT_ARGB32`: 32-bit premultiplied ARGB in
    /// native byte order, which on a little-endian machine is wl_shm's and DRM's ARGB8888.
    init(
        _ buffer: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int, font: CellFont
    ) {
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        surface = cairo_image_surface_create_for_data(
            base, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
        precondition(
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
            "cairo refused a \(width)x\(height) buffer with stride \(stride): the stride must be a multiple of 4")
        cairo = cairo_create(surface)
        self.font = font
    }

    /// Flushes the drawing into the buffer and releases Cairo's objects.
    consuming func finish() {
        cairo_surface_flush(surface)
        // Ending here, the painter's deinit releases the surface and the context.
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// Makes everything drawn so far readable in the buffer.
    func flush() {
        cairo_surface_flush(surface)
    }

    /// Fills a rectangle with an opaque colour.
    func fill(x: Double, y: Double, width: Double, height: Double, _ color: PixelColor) {
        setColor(color)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_fill(cairo)
    }

    /// Draws one character in a span of cells, clipped to the span: centred across the span when its
    /// advance differs from the span's width (a fallback face's glyph, a wide character), its baseline on
    /// the cell's.
    ///
    /// Uses `cairo_set_scaled_font` and `cairo_show_glyphs`.
    func character(
        _ character: Character, bold: Bool, x: Double, y: Double, width: Double, height: Double,
        _ color: PixelColor
    ) {
        let cell = font.cell(for: character, bold: bold)
        guard !cell.shaped.glyphs.isEmpty else { return }
        // The offset rounded half up on its own, not the sum: a cell draws the same wherever it is
        // (kept cells are drawn at 0 and copied), a glyph wider than its cell too.
        let left = x + ((width - cell.shaped.advance.rounded()) / 2 + 0.5).rounded(.down)
        let baseline = (y + font.baseline).rounded()
        var glyphs = cell.shaped.glyphs
        for index in glyphs.indices {
            glyphs[index].x += left
            glyphs[index].y += baseline
        }
        cairo_save(cairo)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_clip(cairo)
        setColor(color)
        cairo_set_scaled_font(cairo, cell.face.scaledFont)
        cairo_show_glyphs(cairo, &glyphs, Int32(glyphs.count))
        cairo_restore(cairo)
    }

    private func setColor(_ color: PixelColor) {
        cairo_set_source_rgb(cairo, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
    }
}

/// Where the renderer draws a cell it keeps as pixels: one Cairo surface, over a buffer two cells wide,
/// made once and drawn on again for each new cell (a surface and a context per cell cost more than the
/// cell's glyph).
final class CellScratch {
    /// The pixels: two cells wide, one cell high, premultiplied ARGB.
    let pixels: UnsafeMutableBufferPointer<UInt32>
    /// Pixels from one row to the next.
    let rowLength: Int
    private var painter: CairoPainter?

    init(cellWidth: Int, cellHeight: Int, font: CellFont) {
        rowLength = 2 * cellWidth
        pixels = .allocate(capacity: rowLength * cellHeight)
        pixels.initialize(repeating: 0)
        painter = CairoPainter(
            UnsafeMutableRawBufferPointer(pixels), width: rowLength, height: cellHeight, stride: rowLength * 4,
            font: font)
    }

    deinit {
        painter = nil  // the surface goes before the pixels it draws on
        pixels.deallocate()
    }

    /// Draws with the painter, then makes the pixels readable.
    func draw(_ body: (borrowing CairoPainter) -> Void) {
        guard let painter = painter.take() else { return }
        body(painter)
        painter.flush()
        self.painter = consume painter
    }
}
