internal import CCairoGraphics
public import ResponderChain

/// A `GraphicsContext` that draws with Cairo into a buffer's pixels, in points: what
/// ``CairoRenderer/render(into:width:height:stride:format:scale:damage:background:layoutDirection:_:)``
/// hands to the drawing closure.
///
/// Shapes are filled and stroked with colours or linear gradients, antialiased; arcs are Cairo's. A
/// rounded rectangle filled or stroked in a colour is drawn from its coverage, kept as a mask per
/// corner radius, line width, scale and fraction of a pixel: its middle as whole pixels, its rim
/// through the mask (Cairo's pixels, within two levels where the colour is opaque and partly covers
/// a pixel, from a different rounding).
/// Text is laid out by Pango (see ``draw(_:in:style:)``); images are decoded once and kept
/// at each device size (see `draw(_ image:in:mode:)`; an app's own pixels: `draw(_ bitmap:in:mode:)`). Everything is clipped to the damage being redrawn.
/// What lies wholly outside the clip, with its shadow, is skipped: no text is laid out, no image
/// decoded, no shape filled, so a node drawn for a damaged rectangle that holds only its edge costs
/// that edge.
///
/// State follows ``saveState()`` and ``restoreState()``: the clip, the transform, the shadow, the
/// opacity and ``layoutDirection``. ``setOpacity(_:)`` makes everything drawn until the matching
/// ``restoreState()`` one translucent layer (UIKit's `alpha`, CSS's `opacity`): overlapping shapes
/// inside it do not show through each other.
///
/// Valid only during the closure it is given to: using it afterwards traps.
public final class CairoGraphicsContext: GraphicsContext {
    /// Device pixels per point: the scale the renderer was given.
    public let scale: Double
    /// The reading direction of what is drawn now: `TextStyle.Alignment.leading`
    /// follows it, and text without a direction of its own (digits, punctuation) runs in it. Set it
    /// for each node drawn; ``saveState()`` keeps it.
    public var layoutDirection: LayoutDirection

    let cairo: OpaquePointer
    let renderer: CairoRenderer
    private var isFinished = false

    /// What ``saveState()`` saves besides Cairo's own state: the shadow, the opacity layers opened at
    /// this level, the direction, and whether drawing is invisible (opacity 0, a scale by 0).
    private struct Level {
        var shadow: Shadow?
        var layers: [Double] = []
        var layoutDirection: LayoutDirection
        var isInvisible = false
    }

    private var current: Level
    private var saved: [Level] = []

    init(cairo: OpaquePointer, scale: Double, layoutDirection: LayoutDirection, renderer: CairoRenderer) {
        self.cairo = cairo
        self.scale = scale
        self.layoutDirection = layoutDirection
        self.renderer = renderer
        current = Level(layoutDirection: layoutDirection)
    }

    /// Ends the drawing: closes the layers and levels left open. Uses `cairo_pop_group_to_source`.
    func finish() {
        while !saved.isEmpty { restoreState() }
        endLayers()
        isFinished = true
    }

    /// Whether something drawn now can show; traps when the context is used after its closure.
    var canDraw: Bool {
        checkUsable()
        return !current.isInvisible
    }

    /// Traps when the context is used after the closure it was given to.
    func checkUsable() {
        precondition(!isFinished, "a CairoGraphicsContext was used after the render call that made it returned")
    }

    /// The shadow set for what is drawn next.
    var shadow: Shadow? { current.shadow }

    // MARK: Shapes

    /// Fills a shape (non-zero winding), under the shadow if one is set.
    ///
    /// Uses `cairo_fill`; a rounded rectangle in a colour, under a transform that keeps axes, uses its
    /// kept coverage and `cairo_mask_surface` for its rim.
    ///
    /// - Parameters:
    ///   - path: The shape; nothing is drawn when it holds a coordinate that is not finite.
    ///   - paint: A colour or a gradient.
    public func fill(_ path: Path, with paint: Paint) {
        guard canDraw, PathDrawing.isDrawable(path), !isClippedOut(path.bounds) else { return }
        if let shadow = current.shadow { castShadow(shadow, of: path, lineWidth: 0, coveredByFill: paint.isOpaque) }
        if case .color(let color) = paint, drawCoverage(of: path, color: color, lineWidth: 0) { return }
        PathDrawing.add(path, to: cairo)
        setSource(paint)
        cairo_fill(cairo)
    }

    /// Draws a shape's outline, centred on it, under the shadow if one is set.
    ///
    /// Uses `cairo_stroke` (mitred joins, butt caps); a rounded rectangle in a colour, under a transform
    /// that keeps axes, uses its kept coverage and `cairo_mask_surface`.
    ///
    /// - Parameters:
    ///   - path: The shape.
    ///   - paint: A colour or a gradient.
    ///   - lineWidth: The width in points; nothing is drawn when it is not positive.
    public func stroke(_ path: Path, with paint: Paint, lineWidth: Double) {
        guard canDraw, lineWidth > 0, lineWidth.isFinite, PathDrawing.isDrawable(path) else { return }
        // A mitred corner reaches at most Cairo's miter limit (10) times half the width from the path.
        let reach = lineWidth * 5
        guard !isClippedOut(path.bounds.insetBy(dx: -reach, dy: -reach)) else { return }
        if let shadow = current.shadow { castShadow(shadow, of: path, lineWidth: lineWidth) }
        if case .color(let color) = paint, drawCoverage(of: path, color: color, lineWidth: lineWidth) { return }
        PathDrawing.add(path, to: cairo)
        cairo_set_line_width(cairo, lineWidth)
        setSource(paint)
        cairo_stroke(cairo)
    }

    /// Sets Cairo's source: a colour, or a linear gradient in the current user space.
    ///
    /// Uses `cairo_set_source_rgba`, or `cairo_pattern_create_linear`.
    func setSource(_ paint: Paint) {
        switch paint {
        case .color(let color):
            cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        case .linearGradient(let gradient):
            guard let pattern = PathDrawing.pattern(gradient) else {
                cairo_set_source_rgba(cairo, 0, 0, 0, 0)
                return
            }
            cairo_set_source(cairo, pattern)
            cairo_pattern_destroy(pattern)
        }
    }

    // MARK: Culling

    /// Whether nothing drawn inside `rect` (user space), and its shadow when one is set, can show
    /// inside the clip: the drawing is skipped whole. A node drawn for a damaged rectangle that holds
    /// only its edge (a neighbour's shadow reaching into it) then lays out no text, copies no icon and
    /// fills no shape away from that edge, and a container whose parts lie elsewhere (a header, a
    /// footer) costs its walk alone.
    ///
    /// Uses `cairo_clip_extents`.
    ///
    /// - Parameter rect: What the drawing touches, in points of the current user space.
    /// - Returns: `true` when it lies wholly outside the clip's bounds, a pixel and the shadow's reach
    ///   kept around it; `false` when it may show, or when a coordinate is not finite.
    func isClippedOut(_ rect: Rect) -> Bool {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        var (left, top, right, bottom) = (0.0, 0.0, 0.0, 0.0)
        cairo_clip_extents(cairo, &left, &top, &right, &bottom)
        let clip = PathDrawing.transformedBounds(
            Rect(x: left, y: top, width: right - left, height: bottom - top), matrix)
        let drawn = PathDrawing.transformedBounds(rect, matrix)
        // Device pixels: one for antialiasing, and the shadow's offset and blur (as `paint(_:_:atX:y:reach:hidden:)`).
        var reach = 1.0
        if let shadow = current.shadow {
            reach += (max(abs(shadow.offset.x), abs(shadow.offset.y)) + shadow.radius) * scale + 1
        }
        return drawn.maxX + reach <= clip.minX || drawn.minX - reach >= clip.maxX
            || drawn.maxY + reach <= clip.minY || drawn.minY - reach >= clip.maxY
    }

    // MARK: State

    /// Saves the clip, the transform, the shadow, the opacity and ``layoutDirection``.
    ///
    /// Uses `cairo_save`.
    public func saveState() {
        checkUsable()
        cairo_save(cairo)
        saved.append(current)
        current.layers = []
    }

    /// Restores what the matching ``saveState()`` saved, first compositing the layers
    /// ``setOpacity(_:)`` opened since.
    ///
    /// Uses `cairo_restore`. A restore without a matching save is a programmer error, and traps.
    public func restoreState() {
        checkUsable()
        guard let previous = saved.popLast() else {
            preconditionFailure("restoreState() without a matching saveState()")
        }
        endLayers()
        cairo_restore(cairo)
        current = previous
    }

    /// Limits drawing to a rectangle, inside the current limit.
    ///
    /// Uses `cairo_clip`.
    ///
    /// - Parameter rect: The rectangle; one with a coordinate that is not finite hides everything.
    public func clip(to rect: Rect) {
        guard canDraw else { return }
        guard Self.isFinite(rect) else {
            current.isInvisible = true
            return
        }
        cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cairo)
    }

    /// Limits drawing to the union of rectangles, inside the current limit: one clip for a frame's
    /// damage, so that each node is drawn once.
    ///
    /// Uses `cairo_rectangle` for each and one `cairo_clip` (Cairo keeps a union of pixel-aligned
    /// boxes as a region, not a mask).
    ///
    /// - Parameter rects: The rectangles; none, or one with a coordinate that is not finite, hides
    ///   everything.
    public func clip(to rects: [Rect]) {
        guard canDraw else { return }
        guard !rects.isEmpty, rects.allSatisfy(Self.isFinite) else {
            current.isInvisible = true
            return
        }
        cairo_new_path(cairo)
        for rect in rects { cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height) }
        cairo_clip(cairo)
    }

    /// Moves what is drawn next.
    ///
    /// Uses `cairo_translate`.
    ///
    /// - Parameters:
    ///   - x: Points right.
    ///   - y: Points down.
    public func translate(x: Double, y: Double) {
        guard canDraw else { return }
        guard x.isFinite, y.isFinite else {
            current.isInvisible = true  // Cairo would refuse the matrix, and draw nothing more at all
            return
        }
        cairo_translate(cairo, x, y)
    }

    /// Scales what is drawn next, about the origin. A factor of 0 (or one that is not finite) hides
    /// what is drawn until the state is restored.
    ///
    /// Uses `cairo_scale`.
    ///
    /// - Parameter factor: The factor.
    public func scale(by factor: Double) {
        guard canDraw else { return }
        guard factor.isFinite, factor != 0 else {
            current.isInvisible = true
            return
        }
        cairo_scale(cairo, factor, factor)
    }

    /// Casts a shadow under the shapes, text and images drawn next; `nil` for none.
    ///
    /// A shape's shadow is a blurred mask kept per shape size, transform and radius, so that drawing
    /// the same tile's shadow again costs one masked fill. Its offset and radius are in points of the
    /// window, whatever the transform (as Core Graphics does).
    ///
    /// - Parameter shadow: The shadow.
    public func setShadow(_ shadow: Shadow?) {
        checkUsable()
        current.shadow = shadow.flatMap { $0.color.alpha > 0 ? $0 : nil }
    }

    /// Makes everything drawn from now until the matching ``restoreState()`` (or the end of the
    /// drawing) one translucent layer; layers inside each other multiply.
    ///
    /// Uses `cairo_push_group`, then `cairo_pop_group_to_source` and `cairo_paint_with_alpha` at the
    /// restore. Opacity 0 draws nothing and costs nothing.
    ///
    /// - Parameter opacity: 0 (invisible) to 1 (which changes nothing).
    public func setOpacity(_ opacity: Double) {
        guard canDraw else { return }
        let value = opacity >= 0 ? min(opacity, 1) : 0  // NaN is 0, as Color's components
        if value >= 1 { return }
        if value <= 0 {
            current.isInvisible = true
            return
        }
        cairo_push_group(cairo)
        current.layers.append(value)
    }

    private func endLayers() {
        while let opacity = current.layers.popLast() {
            cairo_pop_group_to_source(cairo)
            cairo_paint_with_alpha(cairo, opacity)
        }
    }

    static func isFinite(_ rect: Rect) -> Bool {
        rect.x.isFinite && rect.y.isFinite && rect.width.isFinite && rect.height.isFinite
    }
}

extension Paint {
    /// Whether every pixel it paints is opaque, hiding what is under it: a colour of alpha 1 (a
    /// gradient may leave parts clear past its ends, so none counts).
    var isOpaque: Bool {
        if case .color(let color) = self { return color.alpha >= 1 }
        return false
    }
}
