internal import CCairoGraphics
public import PixelCanvas
public import ResponderChain

/// Draws views in points into ARGB8888 pixels with Cairo and Pango: the renderer behind a Wayland
/// window's `wl_shm` buffers and a DRM display's dumb buffers, and behind golden images in tests.
///
/// Each frame, ``render(into:width:height:stride:format:scale:damage:background:layoutDirection:_:)``
/// wraps the output's buffer (no copy), clips it to the damaged rectangles (whole device pixels,
/// rounded outward) and scales it so that the drawing closure works in points; the closure draws on
/// a ``CairoGraphicsContext``. Only the damaged pixels change.
///
/// ```swift
/// let renderer = CairoRenderer()
/// renderer.render(into: buffer, width: 2560, height: 1600, stride: 2560 * 4, scale: 2,
///                 damage: [oldFocusFrame, newFocusFrame]) { context in
///     context.fill(.rect(Rect(x: 0, y: 0, width: 1280, height: 800)), .white)
///     root.draw(in: context, state: root.drawingState)
/// }
/// ```
///
/// The renderer keeps what is costly between frames, each cache bounded by ``limits``: text layouts
/// (shaped once per text, style, width, direction and scale), images (decoded once, then kept at each
/// device size drawn) and shadow masks (blurred once per shape size); rounded rectangles' coverage
/// masks are kept too (their corners, at most 512 kB). An image that cannot be drawn
/// is reported once per file in ``problems`` and to ``onProblem``.
///
/// Not thread-safe, and not `Sendable`: use a renderer from one thread at a time. Each renderer has its
/// own Pango font map, so renderers on other threads are independent.
public final class CairoRenderer {
    /// How much the renderer keeps between frames.
    public struct Limits: Hashable, Sendable {
        /// The most text layouts kept: 1,024 by default (a kiosk's screen shows a few hundred labels).
        public var textLayouts: Int
        /// The most bytes of images kept, decoded and at their device sizes: 64 MiB by default.
        public var imageBytes: Int
        /// The most bytes of shadow masks kept: 16 MiB by default.
        public var shadowBytes: Int

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - textLayouts: The most text layouts kept.
        ///   - imageBytes: The most bytes of images kept.
        ///   - shadowBytes: The most bytes of shadow masks kept.
        public init(textLayouts: Int = 1024, imageBytes: Int = 64 << 20, shadowBytes: Int = 16 << 20) {
            self.textLayouts = max(0, textLayouts)
            self.imageBytes = max(0, imageBytes)
            self.shadowBytes = max(0, shadowBytes)
        }
    }

    /// The limits of what is kept.
    public let limits: Limits
    /// The problems met so far, each file once (the first 256): images drawn as placeholders.
    public private(set) var problems: [CairoGraphicsError] = []
    /// Called once per file that cannot be drawn, during the drawing call that met it (an app logs it,
    /// or shows it to its developer).
    public var onProblem: ((CairoGraphicsError) -> Void)?

    /// Where SVG images rendered at a device size are kept between runs (``RenderedSVGCache``): an
    /// app started again draws them without parsing them or opening librsvg. `nil` (the default for a
    /// renderer made by hand) keeps nothing on disk; the platforms set
    /// ``RenderedSVGCache/standard(environment:)``.
    public var svgCache: RenderedSVGCache? {
        didSet {
            guard svgCache != oldValue else { return }
            images.disk = svgCache.map(SVGDiskCache.init)
        }
    }

    let text: TextEngine
    let images: ImageStore
    let shadows: ShadowStore
    let shapes = ShapeStore()
    private var reported: Set<String> = []

    /// Creates a renderer, with its own Pango font map: fonts come from fontconfig, with its fallbacks.
    ///
    /// - Parameter limits: How much it keeps between frames.
    public init(limits: Limits = Limits()) {
        self.limits = limits
        text = TextEngine(layoutLimit: limits.textLayouts)
        images = ImageStore(byteLimit: limits.imageBytes)
        shadows = ShadowStore(byteLimit: limits.shadowBytes)
        images.onFailure = { [weak self] error in self?.report(error) }
    }

    /// Draws into a buffer, in points, clipped to the damaged rectangles.
    ///
    /// The pixels outside the damage are left as they are; those inside are first filled with
    /// `background` when one is given, then drawn on by `draw`.
    ///
    /// Uses `cairo_image_surface_create_for_data`, `cairo_clip` and `cairo_scale`.
    ///
    /// - Parameters:
    ///   - buffer: The pixels, at least `stride * height` bytes; premultiplied, little-endian
    ///     `0xAARRGGBB` (wl_shm's ARGB8888 and XRGB8888, DRM's XR24).
    ///   - width: The width in device pixels (1 to 32767).
    ///   - height: The height in device pixels (1 to 32767).
    ///   - stride: The bytes from one row to the next: a multiple of 4, at least `width * 4`.
    ///   - format: Whether the alpha byte is kept (``PixelFormat/argb8888``) or the buffer is opaque.
    ///   - scale: Device pixels per point (2 on a HiDPI screen, 1.5 on a fractionally scaled one); finite
    ///     and positive.
    ///   - damage: The rectangles to redraw, in points; their union, rounded outward to whole device
    ///     pixels, is the clip. `nil` redraws the whole buffer; an empty list (or rectangles outside
    ///     it) draws nothing, and `draw` is not called.
    ///   - background: The colour the damaged pixels are filled with first; `nil` to draw over them.
    ///   - layoutDirection: The reading direction the context starts with.
    ///   - draw: The drawing, on a context valid only during the call.
    public func render(
        into buffer: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int,
        format: PixelFormat = .argb8888, scale: Double, damage: [Rect]? = nil, background: Color? = nil,
        layoutDirection: LayoutDirection = .leftToRight, _ draw: (CairoGraphicsContext) -> Void
    ) {
        precondition(scale.isFinite && scale > 0, "the scale must be finite and positive, not \(scale)")
        let target = BufferTarget(buffer, width: width, height: height, stride: stride, format: format)
        let cairo = target.cairo
        if let damage {
            var clipped = false
            for rect in damage where CairoGraphicsContext.isFinite(rect) {
                let left = max(0, (rect.minX * scale).rounded(.down))
                let top = max(0, (rect.minY * scale).rounded(.down))
                let right = min(Double(width), (rect.maxX * scale).rounded(.up))
                let bottom = min(Double(height), (rect.maxY * scale).rounded(.up))
                guard right > left, bottom > top else { continue }
                cairo_rectangle(cairo, left, top, right - left, bottom - top)
                clipped = true
            }
            guard clipped else {
                target.finish()
                return
            }
            cairo_clip(cairo)
        }
        if let background {
            cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_rgba(cairo, background.red, background.green, background.blue, background.alpha)
            cairo_paint(cairo)
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
        }
        cairo_scale(cairo, scale, scale)
        let context = CairoGraphicsContext(cairo: cairo, scale: scale, layoutDirection: layoutDirection, renderer: self)
        draw(context)
        context.finish()
        target.finish()
    }

    /// Draws into a new image: for tests, golden images and icons made at run time.
    ///
    /// - Parameters:
    ///   - size: The size in points; the image is `size * scale` pixels, rounded up (1 to 32767 a side).
    ///   - scale: Device pixels per point.
    ///   - background: The colour the image starts with; white by default, `nil` for transparent.
    ///   - layoutDirection: The reading direction the context starts with.
    ///   - draw: The drawing; none by default (the background alone).
    /// - Returns: The pixels.
    public func image(
        size: Size, scale: Double = 1, background: Color? = .white, layoutDirection: LayoutDirection = .leftToRight,
        _ draw: (CairoGraphicsContext) -> Void = { _ in }
    ) -> PixelImage {
        precondition(scale.isFinite && scale > 0, "the scale must be finite and positive, not \(scale)")
        func pixels(_ points: Double) -> Int {
            guard points.isFinite else { return 1 }
            return Int(min(32767, max(1, (points * scale).rounded(.up))))
        }
        var image = PixelImage(width: pixels(size.width), height: pixels(size.height))
        let (width, height, stride) = (image.width, image.height, image.stride)
        image.pixels.withUnsafeMutableBytes { buffer in
            render(
                into: buffer, width: width, height: height, stride: stride, scale: scale, background: background,
                layoutDirection: layoutDirection, draw)
        }
        return image
    }

    /// Forgets every kept layout, image, shadow and shape mask (an image file fixed since is read again; one still
    /// failing is not reported again).
    public func purgeCaches() {
        text.removeAll()
        images.removeAll()
        shadows.removeAll()
        shapes.removeAll()
    }

    /// Reports a problem once per file.
    func report(_ error: CairoGraphicsError) {
        guard reported.insert(error.path ?? error.message).inserted else { return }
        if problems.count < 256 { problems.append(error) }
        onProblem?(error)
    }
}
