internal import CCairoGraphics
internal import ResponderChain

extension CairoGraphicsContext {
    /// The blur's deviation in device pixels: half the radius, as CSS's box-shadow.
    func shadowSigma(_ shadow: Shadow) -> Double { shadow.radius * scale / 2 }

    /// Casts a shape's shadow: its blurred mask, kept per shape (moved to its origin), transform,
    /// quarter-pixel phase and radius, filled with the shadow's colour. Under an opaque fill of the shape
    /// (`coveredByFill`), where the fill paints over it, the shadow is not drawn: a card's shadow costs
    /// its rim, not its area.
    func castShadow(_ shadow: Shadow, of path: Path, lineWidth: Double, coveredByFill: Bool = false) {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        let bounds = path.bounds
        let originX = matrix.xx * bounds.minX + matrix.xy * bounds.minY + matrix.x0
        let originY = matrix.yx * bounds.minX + matrix.yy * bounds.minY + matrix.y0
        guard originX.isFinite, originY.isFinite else { return }
        var (wholeX, phaseX) = Self.split(originX)
        var (wholeY, phaseY) = Self.split(originY)
        if phaseX == 4 { (wholeX, phaseX) = (wholeX + 1, 0) }
        if phaseY == 4 { (wholeY, phaseY) = (wholeY + 1, 0) }
        let moved = PathDrawing.moved(path, dx: -bounds.minX, dy: -bounds.minY)
        var maskMatrix = matrix
        maskMatrix.x0 = Double(phaseX) / 4
        maskMatrix.y0 = Double(phaseY) / 4
        let sigma = shadowSigma(shadow)
        let key = ShadowStore.Key(
            path: moved, lineWidth: lineWidth, xx: matrix.xx, yx: matrix.yx, xy: matrix.xy, yy: matrix.yy,
            phaseX: phaseX, phaseY: phaseY, sigma: sigma)
        let half = lineWidth / 2
        let shape = PathDrawing.transformedBounds(
            Rect(x: -half, y: -half, width: bounds.width + 2 * half, height: bounds.height + 2 * half), maskMatrix)
        // A pixel more for the mask: antialiasing, and a curve's control points outside nothing.
        let covered = (minX: shape.minX - 1, minY: shape.minY - 1, maxX: shape.maxX + 1, maxY: shape.maxY + 1)
        let mask = renderer.shadows.mask(
            for: key, bounds: covered, matrix: maskMatrix, sigma: sigma, findsSolidParts: lineWidth == 0
        ) { cairo in
            PathDrawing.add(moved, to: cairo)
            if lineWidth > 0 {
                cairo_set_line_width(cairo, lineWidth)
                cairo_stroke(cairo)
            } else {
                cairo_fill(cairo)
            }
        }
        guard let mask else { return }
        // Where the fill will be: the mask's whole parts at the shape's place (not moved by the offset).
        let hidden =
            coveredByFill
            ? mask.solid.map {
                PixelBox(
                    x: wholeX + mask.originX + $0.x, y: wholeY + mask.originY + $0.y, width: $0.width,
                    height: $0.height)
            } : []
        paint(
            mask, shadow, atX: Double(wholeX), y: Double(wholeY),
            reach: (
                shape.minX + Double(wholeX), shape.minY + Double(wholeY), shape.maxX + Double(wholeX),
                shape.maxY + Double(wholeY)
            ), hidden: hidden)
    }

    /// Casts the shadow of anything (text, an image): `draw` draws it on a mask covering `rect` (user
    /// space), which is blurred each time (not kept).
    func castShadow(_ shadow: Shadow, covering rect: Rect, draw: (OpaquePointer) -> Void) {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        let covered = PathDrawing.transformedBounds(rect, matrix)
        guard covered.minX.isFinite, covered.maxY.isFinite else { return }
        let sigma = shadowSigma(shadow)
        guard let mask = renderer.shadows.mask(for: nil, bounds: covered, matrix: matrix, sigma: sigma, draw: draw)
        else { return }
        paint(mask, shadow, atX: 0, y: 0, reach: covered)
    }

    /// Fills the mask with the shadow's colour, moved by its offset, and no further from what cast it
    /// than `Shadow.reach` (the area a redraw covers; the Gaussian's faint tail beyond
    /// it is cut, so that no stale shadow is left behind), nor where `hidden` (device pixels) says an
    /// opaque fill will cover it.
    ///
    /// Uses `cairo_mask_surface` in device space.
    private func paint(
        _ mask: ShadowMask, _ shadow: Shadow, atX x: Double, y: Double,
        reach covered: (minX: Double, minY: Double, maxX: Double, maxY: Double), hidden: [PixelBox] = []
    ) {
        let offsetX = shadow.offset.x * scale
        let offsetY = shadow.offset.y * scale
        let spread = shadow.radius * scale
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        let left = (covered.minX + offsetX - spread).rounded(.down)
        let top = (covered.minY + offsetY - spread).rounded(.down)
        let right = (covered.maxX + offsetX + spread).rounded(.up)
        let bottom = (covered.maxY + offsetY + spread).rounded(.up)
        // The reach less what is hidden: boxes of whole pixels, so that the clip stays boxes.
        var parts = [PixelBox(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))]
        for box in hidden { parts = parts.flatMap { $0.subtracting(box) } }
        guard !parts.isEmpty else {
            cairo_restore(cairo)
            return
        }
        for part in parts {
            cairo_rectangle(cairo, Double(part.x), Double(part.y), Double(part.width), Double(part.height))
        }
        cairo_clip(cairo)
        let color = shadow.color
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        cairo_mask_surface(
            cairo, mask.surface.pointer, x + Double(mask.originX) + offsetX, y + Double(mask.originY) + offsetY)
        cairo_restore(cairo)
    }

    /// A device coordinate as its whole pixel and the nearest quarter within it (0 to 4).
    private static func split(_ value: Double) -> (Int, Int) {
        let whole = value.rounded(.down)
        return (Int(whole), Int(((value - whole) * 4).rounded()))
    }
}
