internal import CCairoGraphics
internal import ResponderChain

extension CairoGraphicsContext {
    /// The blur's deviation in device pixels: half the radius, as CSS's box-shadow.
    func shadowSigma(_ shadow: Shadow) -> Double { shadow.radius * scale / 2 }

    /// Casts a shape's shadow: its blurred mask, kept per shape (moved to its origin), transform,
    /// quarter-pixel phase and radius, filled with the shadow's colour. Under an opaque fill of the shape
    /// (`coveredByFill`), where the fill paints over it, the shadow is not drawn: a card's shadow costs
    /// its rim, not its area. A filled rounded (or plain) rectangle's mask is a short one's, stretched
    /// (``ShadowNinePatch``): its blur costs its corners, whatever its size.
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
        let half = lineWidth / 2
        func deviceBounds(_ path: Path) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
            let bounds = path.bounds
            return PathDrawing.transformedBounds(
                Rect(
                    x: bounds.minX - half, y: bounds.minY - half, width: bounds.width + 2 * half,
                    height: bounds.height + 2 * half), maskMatrix)
        }
        let shape = PathDrawing.transformedBounds(
            Rect(x: -half, y: -half, width: bounds.width + 2 * half, height: bounds.height + 2 * half), maskMatrix)
        // A rounded rectangle's fill: a short one is blurred and stretched (its mask costs its corners).
        let ninePatch =
            lineWidth == 0 && renderer.shadows.cutsRoundedRectangles
            ? ShadowNinePatch.plan(for: moved, matrix: maskMatrix, reach: ShadowBlur.reach(sigma: sigma)) : nil
        let drawn = ninePatch?.path ?? moved
        let key = ShadowStore.Key(
            path: drawn, lineWidth: lineWidth, xx: matrix.xx, yx: matrix.yx, xy: matrix.xy, yy: matrix.yy,
            phaseX: phaseX, phaseY: phaseY, sigma: sigma)
        let drawnShape = ninePatch == nil ? shape : deviceBounds(drawn)
        // A pixel more for the mask: antialiasing, and a curve's control points outside nothing.
        let covered = (
            minX: drawnShape.minX - 1, minY: drawnShape.minY - 1, maxX: drawnShape.maxX + 1,
            maxY: drawnShape.maxY + 1
        )
        let mask = renderer.shadows.mask(
            for: key, bounds: covered, matrix: maskMatrix, sigma: sigma, findsSolidParts: lineWidth == 0,
            stretch: ninePatch.map { ($0.column, $0.row) }
        ) { cairo in
            PathDrawing.add(drawn, to: cairo)
            if lineWidth > 0 {
                cairo_set_line_width(cairo, lineWidth)
                cairo_stroke(cairo)
            } else {
                cairo_fill(cairo)
            }
        }
        guard let mask else { return }
        let cut = (x: ninePatch?.cutX ?? 0, y: ninePatch?.cutY ?? 0)
        // Where the fill will be: the mask's whole parts at the shape's place (not moved by the offset).
        let hidden =
            coveredByFill
            ? mask.solid.map { (solidBox: PixelBox) -> PixelBox in
                let box = mask.stretched(solidBox, cutX: cut.x, cutY: cut.y)
                return PixelBox(
                    x: wholeX + mask.originX + box.x, y: wholeY + mask.originY + box.y, width: box.width,
                    height: box.height)
            } : []
        paint(
            mask, shadow, atX: Double(wholeX), y: Double(wholeY),
            reach: (
                shape.minX + Double(wholeX), shape.minY + Double(wholeY), shape.maxX + Double(wholeX),
                shape.maxY + Double(wholeY)
            ), hidden: hidden, cut: cut)
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
    /// opaque fill will cover it. A short mask (``ShadowNinePatch``) is stretched by `cut` pixels:
    /// drawn as nine pieces, its corners where they fall, its repeated column and row padded along
    /// the sides, the pixel where they cross over the middle.
    ///
    /// Uses `cairo_mask_surface` in device space, and `cairo_mask` with patterns padding the strips
    /// (`cairo_pattern_create_for_surface`, `cairo_pattern_set_extend`, `cairo_pattern_set_matrix`).
    private func paint(
        _ mask: ShadowMask, _ shadow: Shadow, atX x: Double, y: Double,
        reach covered: (minX: Double, minY: Double, maxX: Double, maxY: Double), hidden: [PixelBox] = [],
        cut: (x: Int, y: Int) = (0, 0)
    ) {
        let offsetX = shadow.offset.x * scale
        let offsetY = shadow.offset.y * scale
        let spread = shadow.radius * scale
        let left = (covered.minX + offsetX - spread).rounded(.down)
        let top = (covered.minY + offsetY - spread).rounded(.down)
        let right = (covered.maxX + offsetX + spread).rounded(.up)
        let bottom = (covered.maxY + offsetY + spread).rounded(.up)
        // The reach less what is hidden: boxes of whole pixels, so that the clip stays boxes.
        var parts = [PixelBox(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))]
        for box in hidden { parts = parts.flatMap { $0.subtracting(box) } }
        guard !parts.isEmpty else { return }
        let maskX = x + Double(mask.originX) + offsetX
        let maskY = y + Double(mask.originY) + offsetY
        let color = shadow.color
        guard let stretch = mask.stretch, cut.x > 0 || cut.y > 0 else {
            draw(mask.surface, atX: maskX, y: maskY, padded: false, color: color, in: parts)
            return
        }
        // The device pixels before, along and after the repeated column (a pixel sampled across a
        // fractional offset reads it and its neighbour, both the same along the side).
        let splitX = Int(maskX.rounded(.down)) + stretch.column + 1
        let splitY = Int(maskY.rounded(.down)) + stretch.row + 1
        let columns = [(Int.min / 4, splitX), (splitX, splitX + cut.x), (splitX + cut.x, Int.max / 4)]
        let rows = [(Int.min / 4, splitY), (splitY, splitY + cut.y), (splitY + cut.y, Int.max / 4)]
        for (across, span) in columns.enumerated() where span.1 > span.0 {
            for (down, band) in rows.enumerated() where band.1 > band.0 {
                let piece = PixelBox(x: span.0, y: band.0, width: span.1 - span.0, height: band.1 - band.0)
                let inPiece = parts.compactMap { $0.intersection(piece) }
                guard !inPiece.isEmpty else { continue }
                let atX = maskX + Double(across == 2 ? cut.x : 0)
                let atY = maskY + Double(down == 2 ? cut.y : 0)
                switch (across == 1, down == 1) {
                case (false, false): draw(mask.surface, atX: atX, y: atY, padded: false, color: color, in: inPiece)
                case (true, false):
                    draw(
                        stretch.columnStrip, atX: maskX + Double(stretch.column), y: atY, padded: true, color: color,
                        in: inPiece)
                case (false, true):
                    draw(
                        stretch.rowStrip, atX: atX, y: maskY + Double(stretch.row), padded: true, color: color,
                        in: inPiece)
                case (true, true):
                    draw(
                        stretch.middle, atX: maskX + Double(stretch.column), y: maskY + Double(stretch.row),
                        padded: true, color: color, in: inPiece)
                }
            }
        }
    }

    /// Fills the colour through an A8 surface placed at a device position (padded beyond its edges,
    /// or clear), within the boxes.
    private func draw(
        _ surface: CairoSurface, atX x: Double, y: Double, padded: Bool, color: Color, in boxes: [PixelBox]
    ) {
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        for box in boxes {
            cairo_rectangle(cairo, Double(box.x), Double(box.y), Double(box.width), Double(box.height))
        }
        cairo_clip(cairo)
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        if padded, let pattern = cairo_pattern_create_for_surface(surface.pointer) {
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            var matrix = cairo_matrix_t()
            cairo_matrix_init_translate(&matrix, -x, -y)
            cairo_pattern_set_matrix(pattern, &matrix)
            cairo_mask(cairo, pattern)
            cairo_pattern_destroy(pattern)
        } else {
            cairo_mask_surface(cairo, surface.pointer, x, y)
        }
        cairo_restore(cairo)
    }

    /// A device coordinate as its whole pixel and the nearest quarter within it (0 to 4).
    private static func split(_ value: Double) -> (Int, Int) {
        let whole = value.rounded(.down)
        return (Int(whole), Int(((value - whole) * 4).rounded()))
    }
}
