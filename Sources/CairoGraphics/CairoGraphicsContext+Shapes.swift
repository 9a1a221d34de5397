internal import CCairoGraphics
internal import ResponderChain

extension CairoGraphicsContext {
    /// Draws a rounded rectangle's fill (`lineWidth` 0) or outline in a colour through its kept
    /// coverage (``ShapeStore``): the middle a fill covers whole as plain rectangles of whole pixels
    /// (which Cairo fills without a mask), the rim through the mask, stretched from its short one
    /// where it is drawn (``ShadowNinePatch``), an outline's empty middle skipped. Cairo then neither
    /// builds the arcs nor scan-converts the shape again.
    ///
    /// Uses `cairo_fill` (the middle) and `cairo_mask_surface` (the rim) in device space.
    ///
    /// - Returns: `false`, having drawn nothing, when the shape is not a rounded rectangle, the
    ///   transform does not keep axes, or its corners are too large to keep: the caller draws it with
    ///   Cairo.
    func drawCoverage(of path: Path, color: Color, lineWidth: Double) -> Bool {
        let store = renderer.shapes
        guard store.drawsFromMasks, let radius = ShadowNinePatch.cornerRadius(ofRoundedRect: path), radius > 0 else {
            return false
        }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx > 0, matrix.yy > 0 else { return false }
        let bounds = path.bounds
        let originX = matrix.xx * bounds.minX + matrix.x0
        let originY = matrix.yy * bounds.minY + matrix.y0
        guard abs(originX) < 0x1p24, abs(originY) < 0x1p24 else { return false }
        let (wholeX, wholeY) = (originX.rounded(.down), originY.rounded(.down))
        let (phaseX, phaseY) = (originX - wholeX, originY - wholeY)
        // The short rectangle: its sides just hold both corners; the shape is it with a column and a
        // row repeated (none when it is short already).
        let (column, cutX) = ShadowNinePatch.axis(
            start: phaseX, end: phaseX + matrix.xx * bounds.width, scale: matrix.xx, radius: radius, reach: 0)
        let (row, cutY) = ShadowNinePatch.axis(
            start: phaseY, end: phaseY + matrix.yy * bounds.height, scale: matrix.yy, radius: radius, reach: 0)
        let key = ShapeStore.Key(
            width: bounds.width - Double(cutX) / matrix.xx, height: bounds.height - Double(cutY) / matrix.yy,
            radius: radius, lineWidth: lineWidth, xx: matrix.xx, yy: matrix.yy, phaseX: phaseX, phaseY: phaseY)
        // The column and row follow from the key alone: a short shape's mask, made first, serves a
        // longer one.
        guard let mask = store.mask(for: key, stretch: (column, row)) else { return false }
        let cut = (x: cutX, y: cutY)
        // Device pixels from here on; boxes in the stretched mask's pixels, its top-left one at mask.
        let maskX = Int(wholeX) + mask.originX
        let maskY = Int(wholeY) + mask.originY
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        cairo_identity_matrix(cairo)
        var (left, top, right, bottom) = (0.0, 0.0, 0.0, 0.0)
        cairo_clip_extents(cairo, &left, &top, &right, &bottom)
        let clipLeft = Int(left.rounded(.down)) - maskX
        let clipTop = Int(top.rounded(.down)) - maskY
        let clip = PixelBox(
            x: clipLeft, y: clipTop, width: Int(right.rounded(.up)) - maskX - clipLeft,
            height: Int(bottom.rounded(.up)) - maskY - clipTop)
        // What the clip lets show.
        let whole = PixelBox(x: 0, y: 0, width: mask.surface.width + cut.x, height: mask.surface.height + cut.y)
        guard let shown = whole.intersection(clip) else { return true }
        func rectangle(_ box: PixelBox) {
            cairo_rectangle(cairo, Double(maskX + box.x), Double(maskY + box.y), Double(box.width), Double(box.height))
        }
        // The middle, covered whole (a fill's) or not at all (an outline's): a band of rows and a band
        // of columns across it.
        let rows = mask.solid.first.map { mask.stretched($0, cutX: cut.x, cutY: cut.y) }
        let columns = mask.solid.count > 1 ? mask.stretched(mask.solid[1], cutX: cut.x, cutY: cut.y) : nil
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        var rim: [PixelBox] = []
        rim.reserveCapacity(8)
        if let rows {
            shown.subtract(rows, into: &rim)
            if lineWidth == 0 {
                // Disjoint: the band of rows, then the band of columns above and below it, each where the
                // clip shows it (a clip across the top edge alone shows the columns and none of the rows).
                cairo_new_path(cairo)
                if let middle = rows.intersection(shown) { rectangle(middle) }
                if let columns, let band = columns.intersection(shown) {
                    if band.y < rows.y {
                        rectangle(
                            PixelBox(x: band.x, y: band.y, width: band.width, height: min(band.maxY, rows.y) - band.y))
                    }
                    if band.maxY > rows.maxY {
                        let top = max(band.y, rows.maxY)
                        rectangle(PixelBox(x: band.x, y: top, width: band.width, height: band.maxY - top))
                    }
                }
                cairo_fill(cairo)
            }
        } else {
            rim.append(shown)
        }
        if let columns {
            var parts: [PixelBox] = []
            parts.reserveCapacity(rim.count + 4)
            for box in rim { box.subtract(columns, into: &parts) }
            rim = parts
        }
        guard !rim.isEmpty else { return true }
        // The rim's bytes written where they show: at once when they fit the scratch memory, else part
        // by part.
        let region = rim.dropFirst().reduce(rim[0]) { $0.union($1) }
        if region.width * region.height <= ShadowStore.scratchLimit {
            maskRim(rim, region: region)
        } else {
            for box in rim { maskRim([box], region: box) }
        }
        func maskRim(_ boxes: [PixelBox], region: PixelBox) {
            let stretched: (surface: CairoSurface, x: Int, y: Int)? =
                cut.x == 0 && cut.y == 0
                ? (surface: mask.surface, x: 0, y: 0)
                : mask.stretched(by: cut, region: region, within: boxes, into: renderer.shadows.scratch)
            guard let part = stretched else { return }
            cairo_save(cairo)
            cairo_new_path(cairo)
            for box in boxes { rectangle(box) }
            cairo_clip(cairo)
            cairo_mask_surface(cairo, part.surface.pointer, Double(maskX + part.x), Double(maskY + part.y))
            cairo_restore(cairo)
        }
        return true
    }
}
