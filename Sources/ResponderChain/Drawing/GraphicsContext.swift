/// Where a node draws itself (``FocusNode/draw(in:state:)``): shapes, images and text in points,
/// the window's coordinate space, whatever the output's pixel density.
///
/// A renderer implements it (`CairoGraphics` draws with Cairo and Pango into an output's pixels);
/// `Graphics`' `DisplayList` records the calls, for tests and for outputs that are not pixels.
/// Drawing is clipped to the area being redrawn: a node draws all of itself and only the damaged
/// part reaches the screen.
///
/// ```swift
/// override func draw(in context: any GraphicsContext, state: DrawingState) {
///     let fill = state.isPressed ? brand.mixed(with: .black, by: 0.2) : brand
///     context.fill(.roundedRect(frame, cornerRadius: 16), with: .color(fill))
///     context.draw(title, in: frame.insetBy(dx: 16, dy: 8), style: TextStyle(font: Font(size: 28, weight: .bold)))
/// }
/// ```
public protocol GraphicsContext: AnyObject {
    /// Device pixels per point (2 on a HiDPI screen): for drawing that snaps to pixels.
    var scale: Double { get }
    /// The reading direction of the node being drawn: ``TextStyle/Alignment/leading`` follows it.
    /// A painter sets it for each node (its ``FocusNode/effectiveLayoutDirection``); it is saved
    /// and restored with the state.
    var layoutDirection: LayoutDirection { get set }

    /// Fills a shape.
    ///
    /// - Parameters:
    ///   - path: The shape.
    ///   - paint: A colour or a gradient.
    func fill(_ path: Path, with paint: Paint)

    /// Draws a shape's outline, centred on it.
    ///
    /// - Parameters:
    ///   - path: The shape.
    ///   - paint: A colour or a gradient.
    ///   - lineWidth: The line's width in points.
    func stroke(_ path: Path, with paint: Paint, lineWidth: Double)

    /// Draws an image.
    ///
    /// - Parameters:
    ///   - image: The image.
    ///   - rect: Where.
    ///   - mode: How it fills `rect`.
    func draw(_ image: ImageSource, in rect: Rect, mode: ImageContentMode)

    /// Draws pixels the app made (a video frame): as they are, scaled to fit `mode`, not kept.
    ///
    /// - Parameters:
    ///   - bitmap: The pixels.
    ///   - rect: Where.
    ///   - mode: How they fill `rect`.
    func draw(_ bitmap: Bitmap, in rect: Rect, mode: ImageContentMode)

    /// Draws text: shaped, laid out in its own direction, broken into lines and cut as the style
    /// says.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - rect: Where.
    ///   - style: How.
    func draw(_ text: String, in rect: Rect, style: TextStyle)

    /// The size text takes.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - style: How it is set.
    ///   - width: The width to break lines at; `nil` for one line per paragraph.
    /// - Returns: Its size in points.
    func measure(_ text: String, style: TextStyle, width: Double?) -> Size

    /// Saves the clip, the transform, the shadow and the opacity, to be restored by
    /// ``restoreState()``.
    func saveState()
    /// Restores what the matching ``saveState()`` saved.
    func restoreState()
    /// Limits drawing to a rectangle (inside the current limit).
    ///
    /// - Parameter rect: The rectangle.
    func clip(to rect: Rect)
    /// Limits drawing to the union of rectangles (inside the current limit): a painter draws the
    /// damage of a frame in one pass, each node once, however many rectangles it has.
    ///
    /// - Parameter rects: The rectangles; none hides everything.
    func clip(to rects: [Rect])
    /// Moves what is drawn next.
    ///
    /// - Parameters:
    ///   - x: Points right.
    ///   - y: Points down.
    func translate(x: Double, y: Double)
    /// Scales what is drawn next, about the origin.
    ///
    /// - Parameter factor: The factor (1.06 lifts a focused tile).
    func scale(by factor: Double)
    /// Casts a shadow under what is drawn next; `nil` for none.
    ///
    /// - Parameter shadow: The shadow.
    func setShadow(_ shadow: Shadow?)
    /// Makes what is drawn next translucent.
    ///
    /// - Parameter opacity: 0 (invisible) to 1.
    func setOpacity(_ opacity: Double)
}

extension GraphicsContext {
    /// Fills a shape with one colour.
    ///
    /// - Parameters:
    ///   - path: The shape.
    ///   - color: The colour.
    public func fill(_ path: Path, _ color: Color) { fill(path, with: .color(color)) }

    /// Draws a shape's outline in one colour.
    ///
    /// - Parameters:
    ///   - path: The shape.
    ///   - color: The colour.
    ///   - lineWidth: The width in points.
    public func stroke(_ path: Path, _ color: Color, lineWidth: Double) {
        stroke(path, with: .color(color), lineWidth: lineWidth)
    }

    /// Runs `body` between ``saveState()`` and ``restoreState()``.
    ///
    /// - Parameter body: The drawing.
    /// - Returns: What `body` returns.
    public func withSavedState<Result>(_ body: () throws -> Result) rethrows -> Result {
        saveState()
        defer { restoreState() }
        return try body()
    }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a size.
    ///
    /// - Parameters:
    ///   - width: The width.
    ///   - height: The height.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// No width, no height.
    public static let zero = Size(width: 0, height: 0)

    /// `width×height`.
    public var description: String {
        "\(Rect.format(width))×\(Rect.format(height))"
    }
}
