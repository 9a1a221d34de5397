internal import CPangoCairo

/// Draws on a caller's ARGB8888 buffer through a Cairo image surface made over it: filled
/// rectangles and single characters laid out by ``PangoFont``.
struct CairoPainter: ~Copyable {
    private let surface: OpaquePointer
    private let cairo: OpaquePointer
    private let font: PangoFont

    /// Wraps the buffer (no copy); ``finish()`` flushes and releases the surface.
    ///
    /// Uses `cairo_image_surface_create_for_data` with `CAIRO_FORMAT_ARGB32`: 32-bit premultiplied ARGB in
    /// native byte order, which on a little-endian machine is wl_shm's and DRM's ARGB8888.
    init(
        _ buffer: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int, font: PangoFont
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
    func character(
        _ character: Character, bold: Bool, x: Double, y: Double, width: Double, height: Double,
        _ color: PixelColor
    ) {
        let layout = font.layout(for: character, bold: bold)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        let left = x + (width - Double(logical.width)) / 2
        let top = y + font.baseline - Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
        cairo_save(cairo)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_clip(cairo)
        setColor(color)
        cairo_move_to(cairo, left.rounded(), top.rounded())
        pango_cairo_show_layout(cairo, layout)
        cairo_restore(cairo)
    }

    private func setColor(_ color: PixelColor) {
        cairo_set_source_rgb(cairo, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
    }
}
