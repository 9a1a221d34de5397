internal import CCairoGraphics
public import ResponderChain

extension CairoGraphicsContext {
    /// Draws an image file: a PNG decoded once, an SVG parsed once by librsvg; each kept at every device
    /// size it is drawn at (a PNG scaled with Cairo's good filter, an SVG rendered sharp at that size), so
    /// that drawing it again is a copy of pixels, placed on whole device pixels.
    ///
    /// A PNG's own size is its pixels in points, an SVG's its width and height in CSS pixels (an SVG
    /// without them fills the rectangle, its proportions kept by its `preserveAspectRatio`). What
    /// overflows the rectangle (`ImageContentMode.fill`,
    /// `ImageContentMode.center`) is clipped.
    ///
    /// A file that is missing, unreadable or cannot be decoded is drawn as a placeholder (an outlined
    /// box with a cross) and reported once through ``CairoRenderer/onProblem`` and
    /// ``CairoRenderer/problems``; drawing goes on.
    ///
    /// Uses `cairo_image_surface_create_from_png`, `rsvg_handle_new_from_file` and
    /// `rsvg_handle_render_document`.
    ///
    /// - Parameters:
    ///   - image: The image.
    ///   - rect: Where, in points.
    ///   - mode: How it fills `rect`.
    public func draw(_ image: ImageSource, in rect: Rect, mode: ImageContentMode) {
        guard canDraw, Self.isFinite(rect), rect.width > 0, rect.height > 0, !isClippedOut(rect) else { return }
        guard let decoded = renderer.images.decoded(image) else {
            drawPlaceholder(in: rect)
            return
        }
        let natural = decoded.size ?? Size(width: rect.width, height: rect.height)
        let target = Self.placement(width: natural.width, height: natural.height, in: rect, mode: mode)
        let clips =
            target.minX < rect.minX || target.minY < rect.minY || target.maxX > rect.maxX
            || target.maxY > rect.maxY
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        if clips {
            cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
            cairo_clip(cairo)
        }
        if let shadow {
            let shadowed = clips ? target.intersection(rect) : target
            castShadow(shadow, covering: shadowed) { cairo in
                if clips {
                    cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
                    cairo_clip(cairo)
                }
                cairo_translate(cairo, target.x, target.y)
                _ = ImageStore.draw(decoded, on: cairo, width: target.width, height: target.height)
            }
        }
        if blit(image, decoded, at: target) { return }
        // Not axis-aligned, or too large to keep: straight from the decoded image.
        cairo_save(cairo)
        cairo_translate(cairo, target.x, target.y)
        let failed = ImageStore.draw(decoded, on: cairo, width: target.width, height: target.height) != nil
        cairo_restore(cairo)
        if failed { drawPlaceholder(in: rect) }
    }

    /// Copies the kept image at the target's device size onto whole device pixels; `false` when the
    /// transform is not a plain scale and move, or the size is too large to keep.
    ///
    /// Uses `cairo_set_source_surface` and `cairo_fill` in device space.
    private func blit(_ image: ImageSource, _ decoded: DecodedImage, at target: Rect) -> Bool {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx > 0, matrix.yy > 0 else { return false }
        let width = (target.width * matrix.xx).rounded()
        let height = (target.height * matrix.yy).rounded()
        let largest = Double(ImageStore.largestCachedSide)
        guard width >= 1, height >= 1, width <= largest, height <= largest else { return width < 1 || height < 1 }
        guard let surface = renderer.images.scaled(image, decoded, width: Int(width), height: Int(height)) else {
            return false
        }
        let left = (target.minX * matrix.xx + matrix.x0).rounded()
        let top = (target.minY * matrix.yy + matrix.y0).rounded()
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo_set_source_surface(cairo, surface.pointer, left, top)
        cairo_rectangle(cairo, left, top, width, height)
        cairo_fill(cairo)
        cairo_restore(cairo)
        return true
    }

    /// Where an image of a size goes in a rectangle.
    static func placement(width: Double, height: Double, in rect: Rect, mode: ImageContentMode) -> Rect {
        guard width > 0, height > 0 else { return rect }
        let size: (width: Double, height: Double)
        switch mode {
        case .stretch: return rect
        case .center: size = (width, height)
        case .fit, .fill:
            let across = rect.width / width
            let down = rect.height / height
            let factor = mode == .fit ? min(across, down) : max(across, down)
            size = (width * factor, height * factor)
        }
        return Rect(
            x: rect.midX - size.width / 2, y: rect.midY - size.height / 2, width: size.width, height: size.height)
    }

    /// An image that could not be drawn: an outlined box with a cross, in grey.
    ///
    /// Uses `cairo_stroke`.
    func drawPlaceholder(in rect: Rect) {
        let inset = min(0.5, rect.width / 2, rect.height / 2)
        let box = rect.insetBy(dx: inset, dy: inset)
        cairo_save(cairo)
        cairo_new_path(cairo)
        cairo_rectangle(cairo, box.x, box.y, box.width, box.height)
        cairo_move_to(cairo, box.minX, box.minY)
        cairo_line_to(cairo, box.maxX, box.maxY)
        cairo_move_to(cairo, box.maxX, box.minY)
        cairo_line_to(cairo, box.minX, box.maxY)
        cairo_set_line_width(cairo, 1)
        cairo_set_source_rgba(cairo, 0.5, 0.5, 0.5, 0.9)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }
}
