internal import CFontRendering

/// PNG files through Cairo's own reader and writer.
enum PNGFile {
    /// Writes ARGB8888 pixels as a PNG.
    ///
    /// Uses `cairo_surface_write_to_png`.
    static func write(_ image: PixelImage, to path: String) throws(PixelCanvasError) {
        var pixels = image.pixels
        let status = pixels.withUnsafeMutableBytes { bytes -> cairo_status_t in
            let surface = cairo_image_surface_create_for_data(
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(image.width),
                Int32(image.height), Int32(image.stride))
            defer { cairo_surface_destroy(surface) }
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return cairo_surface_status(surface) }
            return cairo_surface_write_to_png(surface, path)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PixelCanvasError(
                code: .pngWrite,
                message: "cannot write the PNG \(path): \(String(cString: cairo_status_to_string(status))); "
                    + "check that its directory exists and is writable")
        }
    }

    /// Reads a PNG into ARGB8888 pixels (opaque when the file has no alpha).
    ///
    /// Uses `cairo_image_surface_create_from_png`.
    static func read(_ path: String) throws(PixelCanvasError) -> PixelImage {
        let surface = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PixelCanvasError(
                code: .pngRead,
                message: "cannot read the PNG \(path): \(String(cString: cairo_status_to_string(status))); "
                    + "check that it exists and is a PNG file")
        }
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let opaque = cairo_image_surface_get_format(surface) != CAIRO_FORMAT_ARGB32
        var image = PixelImage(width: width, height: height)
        guard let data = cairo_image_surface_get_data(surface) else { return image }
        image.pixels.withUnsafeMutableBytes { target in
            for y in 0..<height {
                let row = UnsafeRawBufferPointer(start: data + y * stride, count: width * 4)
                let start = y * image.stride
                UnsafeMutableRawBufferPointer(rebasing: target[start..<(start + width * 4)]).copyMemory(from: row)
                if opaque {
                    for x in 0..<width { target[start + x * 4 + 3] = 255 }
                }
            }
        }
        return image
    }
}
