internal import Graphics
public import PixelCanvas
public import ResponderChain
public import TerminalCanvas

/// Shows the app's `Canvas` in a Wayland window: cells rendered with a real font
/// (`PixelRenderer`) into the window's double-buffered `wl_shm` buffers, only changed rows drawn
/// and damaged (each a full-width `PixelRect`), drawing paced by the compositor's frame callbacks.
///
/// On an output of scale 2 the cells are drawn at twice the pixels (``drawingRenderer``: the same
/// font, size and palette at the window's ``WaylandWindow/scale``), so text stays sharp and about
/// the same size in points; pointer positions stay in points.
///
/// While a frame waits for its callback, ``show(_:)`` keeps only the newest canvas: a burst of
/// input draws one frame when the compositor is ready for it, never a queue of stale ones.
///
/// ```swift
/// let output = try WaylandCanvasOutput(window: window, renderer: PixelRenderer(pixelSize: 20))
/// app.setOutput(output)
/// seat.surface = output                      // clicks and taps in cells, as the focus tree's frames
/// ```
@MainActor
public final class WaylandCanvasOutput: CanvasOutput {
    /// The window drawn in.
    public let window: WaylandWindow
    /// The renderer given: font, cell size at its own scale, palette.
    public let renderer: PixelRenderer
    /// The renderer that draws: ``renderer`` when its scale is the window's, else one of the same font,
    /// size and palette at the window's scale (made when the scale changes, kept for the next change back).
    public private(set) var drawingRenderer: PixelRenderer
    /// Called when the compositor resized the window or changed its scale: draw a frame of the new ``size``.
    public var onResize: (() -> Void)?

    private var latest: Canvas?
    private var shown: Canvas?
    private var queued = false
    private var configured = false
    /// Renderers made for other scales than the given one's, by scale.
    private var scaledRenderers: [Int: PixelRenderer] = [:]

    /// How many frames were drawn (each a commit to the compositor).
    public private(set) var framesDrawn = 0

    /// Shows canvases in a window.
    ///
    /// - Parameters:
    ///   - window: The window.
    ///   - renderer: How cells become pixels.
    public init(window: WaylandWindow, renderer: PixelRenderer) {
        self.window = window
        self.renderer = renderer
        drawingRenderer = renderer
        configured = window.isConfigured
        useScale(window.scale)
        window.onResize = { [unowned self] _, _ in
            self.shown = nil
            self.onResize?()
        }
        // Another scale: other cells (the font at another pixel size), maybe another grid.
        window.onScaleChange = { [unowned self] scale in
            self.useScale(scale)
            self.shown = nil
            if self.configured { self.onResize?() }
        }
        // Until the compositor configures the window its size is unknown: the first configure
        // asks the app for a frame of the real size (the canvases before it are not drawn).
        window.onConfigure = { [unowned self] _, _ in
            guard !self.configured else { return }
            self.configured = true
            self.onResize?()
            if let latest = self.latest { self.show(latest) }
        }
    }

    /// The window's size in whole cells (at least 1x1) of ``drawingRenderer``, or `nil` before the
    /// compositor configured it.
    public var size: (columns: Int, rows: Int)? {
        guard window.isConfigured else { return nil }
        let cell = drawingRenderer.cellSize
        return (max(1, window.bufferWidth / cell.width), max(1, window.bufferHeight / cell.height))
    }

    /// Draws with a renderer at `scale`: the given one, one made before, or a new one.
    private func useScale(_ scale: Int) {
        guard drawingRenderer.scale != scale else { return }
        if renderer.scale == scale {
            drawingRenderer = renderer
        } else if let made = scaledRenderers[scale] {
            drawingRenderer = made
        } else if let made = try? PixelRenderer(
            fontFamily: renderer.fontFamily, pixelSize: renderer.pixelSize, scale: scale, palette: renderer.palette)
        {
            // The family was found moments ago; should it fail now, the cells stay at the old scale (smaller).
            scaledRenderers[scale] = made
            drawingRenderer = made
        }
    }

    /// Draws the canvas in the next frame: now when the window may draw, else when the
    /// compositor's frame callback comes (only the newest canvas is kept meanwhile). A canvas
    /// equal to the one shown draws nothing.
    ///
    /// - Parameter canvas: The frame.
    public func show(_ canvas: Canvas) {
        // The same frame again (the app draws after every batch, the frame callback's too) commits
        // nothing: an idle app's window stays idle.
        if !queued, canvas == shown { return }
        latest = canvas
        guard !queued, configured else { return }
        queued = true
        let kept = window.deferredDrawCount
        if !window.present(draw: { [unowned self] buffer in self.draw(into: buffer) }),
            window.deferredDrawCount <= kept
        {
            // Not drawn and not kept (no buffer could be made, the window is gone): the next show tries again.
            queued = false
        }
    }

    /// The next frame is drawn whole.
    public func invalidate() {
        shown = nil
    }

    /// A surface-local position (points, what the compositor gives) in cells: the focus tree's
    /// coordinates when its frames are cells, as the kiosk example's are.
    ///
    /// - Parameters:
    ///   - x: Points from the left.
    ///   - y: Points from the top.
    /// - Returns: The position in cells (fractional: 3.5 is the middle of column 3).
    public func cellPoint(_ x: Double, _ y: Double) -> Point {
        // A point is `scale` device pixels; cells are measured in device pixels.
        let scale = Double(window.scale)
        let cell = drawingRenderer.cellSize
        return Point(x: x * scale / Double(cell.width), y: y * scale / Double(cell.height))
    }

    private func draw(into buffer: PixelBuffer) -> [PixelRect] {
        queued = false
        guard let canvas = latest else { return [] }
        latest = nil
        let previous = buffer.needsFullRedraw ? nil : shown
        // The buffer's scale is the window's, which `drawingRenderer` follows (onScaleChange).
        let rows = drawingRenderer.render(
            canvas, into: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride,
            previous: previous)
        shown = canvas
        framesDrawn += 1
        return rows.map { PixelRect(rows: $0, width: buffer.width) }
    }
}

extension WaylandCanvasOutput: PointerSurface {
    /// `nil`: the compositor gives positions in the surface already.
    public var pointerArea: (width: Int, height: Int)? { nil }

    /// A surface-local position (points) in the window's cells (``cellPoint(_:_:)``).
    ///
    /// - Parameters:
    ///   - x: Points from the left.
    ///   - y: Points from the top.
    /// - Returns: The position in cells.
    public func windowPoint(x: Double, y: Double) -> Point {
        cellPoint(x, y)
    }
}
