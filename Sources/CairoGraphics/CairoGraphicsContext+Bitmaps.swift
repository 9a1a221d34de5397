internal import CCairoGraphics
public import ResponderChain

extension CairoGraphicsContext {
    /// Draws pixels the app made (a video frame) as they are, scaled to the rectangle with Cairo's
    /// good filter, clipped to it. Nothing is kept: a new bitmap each frame costs one copy and one
    /// scaled paint.
    ///
    /// Uses `cairo_image_surface_create_for_data` and `cairo_paint`.
    ///
    /// - Parameters:
    ///   - bitmap: The pixels.
    ///   - rect: Where, in points.
    ///   - mode: How they fill `rect`.
    public func draw(_ bitmap: Bitmap, in rect: Rect, mode: ImageContentMode) {
        guard canDraw, Self.isFinite(rect), rect.width > 0, rect.height > 0, !isClippedOut(rect) else { return }
        let target = Self.placement(
            width: Double(bitmap.width), height: Double(bitmap.height), in: rect, mode: mode)
        var pixels = bitmap.pixels
        pixels.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let surface = cairo_image_surface_create_for_data(
                base, CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 4))
            defer { cairo_surface_destroy(surface) }
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return }
            cairo_save(cairo)
            defer { cairo_restore(cairo) }
            cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
            cairo_clip(cairo)
            cairo_translate(cairo, target.x, target.y)
            cairo_scale(cairo, target.width / Double(bitmap.width), target.height / Double(bitmap.height))
            cairo_set_source_surface(cairo, surface, 0, 0)
            let pattern = cairo_get_source(cairo)
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            cairo_rectangle(cairo, 0, 0, Double(bitmap.width), Double(bitmap.height))
            cairo_fill(cairo)
        }
    }
}
