internal import CCairoGraphics

/// A Cairo image surface owned by Swift: destroyed with its last reference.
final class CairoSurface {
    /// The `cairo_surface_t`.
    let pointer: OpaquePointer
    /// Its size in pixels.
    let width: Int
    let height: Int

    /// A new surface, cleared; `nil` when Cairo refuses the size (too large, out of memory).
    ///
    /// Uses `cairo_image_surface_create`.
    init?(format: cairo_format_t, width: Int, height: Int) {
        guard width > 0, height > 0, width <= 32767, height <= 32767,
            let surface = cairo_image_surface_create(format, Int32(width), Int32(height))
        else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        pointer = surface
        self.width = width
        self.height = height
    }

    /// Takes ownership of a surface Cairo made (a decoded PNG); `nil`, destroying it, when it is in
    /// error.
    init?(adopting surface: OpaquePointer?) {
        guard let surface else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        pointer = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    /// The bytes its pixels take.
    var byteCount: Int { Int(cairo_image_surface_get_stride(pointer)) * height }

    /// Its pixels as bytes, `width * 4` a row (an ARGB32 surface); `nil` for another format.
    ///
    /// Uses `cairo_image_surface_get_data` after `cairo_surface_flush`.
    func pixelBytes() -> [UInt8]? {
        guard cairo_image_surface_get_format(pointer) == CAIRO_FORMAT_ARGB32 else { return nil }
        cairo_surface_flush(pointer)
        guard let data = cairo_image_surface_get_data(pointer) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(pointer))
        let row = width * 4
        var bytes = [UInt8](repeating: 0, count: row * height)
        bytes.withUnsafeMutableBytes { target in
            for y in 0..<height {
                (target.baseAddress! + y * row).copyMemory(from: UnsafeRawPointer(data + y * stride), byteCount: row)
            }
        }
        return bytes
    }

    /// Sets its pixels from bytes `width * 4` a row (an ARGB32 surface); `false` when the count or the
    /// format does not match.
    ///
    /// Uses `cairo_image_surface_get_data` and `cairo_surface_mark_dirty`.
    func load(_ bytes: [UInt8]) -> Bool {
        let row = width * 4
        guard bytes.count == row * height, cairo_image_surface_get_format(pointer) == CAIRO_FORMAT_ARGB32 else {
            return false
        }
        cairo_surface_flush(pointer)
        guard let data = cairo_image_surface_get_data(pointer) else { return false }
        let stride = Int(cairo_image_surface_get_stride(pointer))
        bytes.withUnsafeBytes { source in
            for y in 0..<height {
                UnsafeMutableRawPointer(data + y * stride).copyMemory(
                    from: source.baseAddress! + y * row, byteCount: row)
            }
        }
        cairo_surface_mark_dirty(pointer)
        return true
    }

    /// Draws on the surface with a new Cairo context, then flushes it.
    func draw(_ body: (OpaquePointer) -> Void) {
        guard let cairo = cairo_create(pointer) else { return }
        body(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(pointer)
    }

    deinit { cairo_surface_destroy(pointer) }
}

/// A GObject (a `PangoContext`, a `PangoLayout`, an `RsvgHandle`) owned by Swift: unreferenced with
/// its last reference.
final class GObjectReference {
    /// The object.
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// Uses `g_object_unref`.
    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}

/// A Cairo context drawing on a caller's buffer through an image surface made over it (no copy).
struct BufferTarget: ~Copyable {
    let surface: OpaquePointer
    let cairo: OpaquePointer

    /// Uses `cairo_image_surface_create_for_data` with `CAIRO_FORMAT_ARGB32` (premultiplied ARGB in
    /// native byte order: on a little-endian machine wl_shm's and DRM's ARGB8888) or
    /// `CAIRO_FORMAT_RGB24` (XRGB8888).
    init(_ buffer: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        precondition(width > 0 && height > 0, "a \(width)x\(height) buffer has no pixels")
        precondition(
            width <= 32767 && height <= 32767, "Cairo draws at most 32767 pixels a side, not \(width)x\(height)")
        precondition(
            stride >= width * 4 && stride % 4 == 0,
            "the stride \(stride) must be a multiple of 4 and at least 4 bytes a pixel (\(width * 4))")
        precondition(
            buffer.count >= stride * height, "the buffer holds \(buffer.count) bytes, not \(stride) x \(height)")
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        surface = cairo_image_surface_create_for_data(
            base, format.hasAlpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, Int32(width), Int32(height),
            Int32(stride))
        precondition(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "cairo refused the buffer")
        cairo = cairo_create(surface)
    }

    /// Flushes the drawing into the buffer and releases Cairo's objects.
    consuming func finish() {
        cairo_surface_flush(surface)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }
}
