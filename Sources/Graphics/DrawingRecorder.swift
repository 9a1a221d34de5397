public import ResponderChain

/// A `GraphicsContext` that keeps what is drawn as values instead of pixels: what tests read
/// ("the focused tile drew its title in bold, here"), and what an output that is not pixels can
/// replay.
///
/// Text is measured without a font library, from the font's size (an average advance of 0.55 em,
/// lines of 1.2 em): close enough for layout in tests, not for pixels.
///
/// ```swift
/// let recorder = DrawingRecorder(scale: 1)
/// painter.paint(painter.takeDamage(), in: recorder)
/// #expect(recorder.texts(of: "pay").contains("Pay by card"))
/// ```
public final class DrawingRecorder: GraphicsContext {
    /// One call, as it was made.
    public enum Operation: Hashable, Sendable {
        /// `GraphicsContext.fill(_:with:)`.
        case fill(Path, Paint)
        /// `GraphicsContext.stroke(_:with:lineWidth:)`.
        case stroke(Path, Paint, lineWidth: Double)
        /// `GraphicsContext.draw(_:in:mode:)`.
        case image(ImageSource, Rect, ImageContentMode)
        /// `GraphicsContext.draw(_:in:mode:)` of a bitmap: its size, where, how.
        case bitmap(width: Int, height: Int, Rect, ImageContentMode)
        /// `GraphicsContext.draw(_:in:style:)`.
        case text(String, Rect, TextStyle)
        /// `GraphicsContext.saveState()`.
        case save
        /// `GraphicsContext.restoreState()`.
        case restore
        /// `GraphicsContext.clip(to:)` with one rectangle.
        case clip(Rect)
        /// `GraphicsContext.clip(to:)` with several: their union.
        case clipUnion([Rect])
        /// `GraphicsContext.translate(x:y:)`.
        case translate(x: Double, y: Double)
        /// `GraphicsContext.scale(by:)`.
        case scale(Double)
        /// `GraphicsContext.setShadow(_:)`.
        case shadow(Shadow?)
        /// `GraphicsContext.setOpacity(_:)`.
        case opacity(Double)
        /// A ``WindowPainter`` started drawing a node (its trace name) in a state.
        case beginNode(String, DrawingState)
        /// …and finished it.
        case endNode
    }

    /// Device pixels per point.
    public let scale: Double
    /// The reading direction of the node being drawn.
    public var layoutDirection: LayoutDirection = .leftToRight
    /// Everything drawn, in order.
    public private(set) var operations: [Operation] = []
    private var directions: [LayoutDirection] = []

    /// Creates a recorder.
    ///
    /// - Parameter scale: Device pixels per point; 1 by default.
    public init(scale: Double = 1) {
        self.scale = scale
    }

    /// Forgets what was drawn.
    public func reset() {
        operations.removeAll()
    }

    /// The nodes drawn, by trace name, in order (a node drawn in two damaged rectangles twice).
    public var nodesDrawn: [String] {
        operations.compactMap { if case .beginNode(let name, _) = $0 { name } else { nil } }
    }

    /// The state each node was last drawn in, by trace name.
    public var states: [String: DrawingState] {
        var result: [String: DrawingState] = [:]
        for case .beginNode(let name, let state) in operations { result[name] = state }
        return result
    }

    /// The text a node drew, in order.
    ///
    /// - Parameter node: The node's trace name.
    /// - Returns: Its texts.
    public func texts(of node: String) -> [String] {
        var result: [String] = []
        var current: [String] = []
        for operation in operations {
            switch operation {
            case .beginNode(let name, _): current.append(name)
            case .endNode: current.removeLast()
            case .text(let text, _, _) where current.last == node: result.append(text)
            default: break
            }
        }
        return result
    }

    /// The clip rectangles set outside any node: the damage painted.
    public var clips: [Rect] {
        var depth = 0
        var result: [Rect] = []
        for operation in operations {
            switch operation {
            case .beginNode: depth += 1
            case .endNode: depth -= 1
            case .clip(let rect) where depth == 0: result.append(rect)
            case .clipUnion(let rects) where depth == 0: result += rects
            default: break
            }
        }
        return result
    }

    func beginNode(name: String, state: DrawingState) {
        operations.append(.beginNode(name, state))
    }

    func endNode() {
        operations.append(.endNode)
    }

    // MARK: GraphicsContext

    /// Records the fill.
    public func fill(_ path: Path, with paint: Paint) { operations.append(.fill(path, paint)) }
    /// Records the stroke.
    public func stroke(_ path: Path, with paint: Paint, lineWidth: Double) {
        operations.append(.stroke(path, paint, lineWidth: lineWidth))
    }
    /// Records the image.
    public func draw(_ image: ImageSource, in rect: Rect, mode: ImageContentMode) {
        operations.append(.image(image, rect, mode))
    }
    /// Records the bitmap's size and place.
    public func draw(_ bitmap: Bitmap, in rect: Rect, mode: ImageContentMode) {
        operations.append(.bitmap(width: bitmap.width, height: bitmap.height, rect, mode))
    }
    /// Records the text.
    public func draw(_ text: String, in rect: Rect, style: TextStyle) { operations.append(.text(text, rect, style)) }
    /// An estimate from the font's size: 0.55 em per character, 1.2 em per line.
    public func measure(_ text: String, style: TextStyle, width: Double?) -> Size {
        let advance = style.font.size * 0.55
        let lineHeight = style.font.size * 1.2
        let natural = Double(text.count) * advance
        guard let width, width > 0, natural > width else { return Size(width: natural, height: lineHeight) }
        var lines = 1
        while Double(lines) * width < natural { lines += 1 }
        if style.lineLimit > 0 { lines = min(lines, style.lineLimit) }
        return Size(width: width, height: Double(lines) * lineHeight)
    }
    /// Records it; the direction is saved too.
    public func saveState() {
        directions.append(layoutDirection)
        operations.append(.save)
    }
    /// Records it; the direction is restored too.
    public func restoreState() {
        layoutDirection = directions.popLast() ?? .leftToRight
        operations.append(.restore)
    }
    /// Records it.
    public func clip(to rect: Rect) { operations.append(.clip(rect)) }
    /// Records a clip to the union of rectangles.
    public func clip(to rects: [Rect]) { operations.append(.clipUnion(rects)) }
    /// Records it.
    public func translate(x: Double, y: Double) { operations.append(.translate(x: x, y: y)) }
    /// Records it.
    public func scale(by factor: Double) { operations.append(.scale(factor)) }
    /// Records it.
    public func setShadow(_ shadow: Shadow?) { operations.append(.shadow(shadow)) }
    /// Records it.
    public func setOpacity(_ opacity: Double) { operations.append(.opacity(opacity)) }
}
