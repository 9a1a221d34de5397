internal import CFontRendering

/// Draws on a caller's ARGB8888 buffer through a Cairo image surface made over it: filled
/// rectangles and single graphemes shaped by ``CellFont``.
struct CairoPainter: ~Copyable {
    private let surface: OpaquePointer
    private let cairo: OpaquePointer
    private let font: CellFont

    /// Wraps the buffer (no copy); ``finish()`` flushes and releases the surface.
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
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
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
        let left = (x + (width - cell.shaped.advance.rounded()) / 2).rounded()
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
