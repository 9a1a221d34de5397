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
    /// opaque fill will cover it. A short mask (``ShadowNinePatch``) is first stretched by `cut`
    /// pixels to the shape's, only where it is drawn (``ShadowMask/stretched(by:region:within:)``).
    ///
    /// Uses `cairo_mask_surface` in device space.
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
        guard cut.x > 0 || cut.y > 0 else {
            draw(mask.surface, atX: maskX, y: maskY, color: color, in: parts)
            return
        }
        // The stretched mask's pixels each drawn pixel samples: its own and, at a fractional offset,
        // the next. A small mask is made whole (only those pixels written); a large one part by part,
        // so that what the fill hides is not even allocated.
        let (wholeX, wholeY) = (Int(maskX.rounded(.down)), Int(maskY.rounded(.down)))
        func sampled(_ part: PixelBox) -> PixelBox {
            PixelBox(x: part.x - wholeX - 1, y: part.y - wholeY - 1, width: part.width + 2, height: part.height + 2)
        }
        let wholeBytes = (mask.surface.width + cut.x) * (mask.surface.height + cut.y)
        let groups = wholeBytes <= ShadowStore.scratchLimit ? [parts] : parts.map { [$0] }
        for group in groups {
            let boxes = group.map(sampled)
            let region = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
            guard let part = mask.stretched(by: cut, region: region, within: boxes, into: renderer.shadows.scratch)
            else { continue }
            draw(part.surface, atX: maskX + Double(part.x), y: maskY + Double(part.y), color: color, in: group)
        }
    }

    /// Fills the colour through an A8 surface placed at a device position, within the boxes.
    private func draw(_ surface: CairoSurface, atX x: Double, y: Double, color: Color, in boxes: [PixelBox]) {
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        for box in boxes {
            cairo_rectangle(cairo, Double(box.x), Double(box.y), Double(box.width), Double(box.height))
        }
        cairo_clip(cairo)
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        cairo_mask_surface(cairo, surface.pointer, x, y)
        cairo_restore(cairo)
    }

    /// A device coordinate as its whole pixel and the nearest quarter within it (0 to 4).
    private static func split(_ value: Double) -> (Int, Int) {
        let whole = value.rounded(.down)
        return (Int(whole), Int(((value - whole) * 4).rounded()))
    }
}
