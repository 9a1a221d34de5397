public import CairoGraphics
public import Graphics
public import ResponderChain

/// Shows a window's nodes in a Wayland window: each node draws itself in points
/// (`FocusNode.draw(in:state:)`), with Cairo and Pango, at the window's scale, into its
/// double-buffered `wl_shm` buffers. Only the damage is drawn and damaged (a focus move: two tiles),
/// paced by the compositor's frame callbacks; what a buffer missed while the other was shown is
/// copied into it after drawing, less what it drew again (after a focus move back and forth,
/// nothing); an app that changed nothing commits nothing.
///
/// Under a compositor with subsurfaces (`wl_subcompositor`: cage, sway, weston), the focused item
/// is shown in a layer over the window, as tvOS shows a focused view's layer: the window draws every
/// item at rest, and the layer, an opaque patch of the window as it looks with that item focused
/// (its lift and shadow or its ring, and what lies under them), is drawn once per item and kept
/// until something under it changes. A focus move then draws at most the new item's patch, and
/// nothing for an item whose patch is kept (the last few): what a key costs no longer grows with
/// the screen. The screen shows what a frame drawn whole shows.
///
/// ```swift
/// let output = WaylandNodeOutput(window: waylandWindow, showing: window)
/// app.setNodeOutput(output)            // update() after every batch
/// seat.surface = output                // clicks and taps in points, the nodes' frames
/// ```
@MainActor
public final class WaylandNodeOutput: NodeOutput {
    /// The Wayland window drawn in.
    public let window: WaylandWindow
    /// What works out the damage and draws the nodes.
    public let painter: WindowPainter
    /// What draws them into pixels.
    public let renderer: CairoRenderer
    /// Called when the compositor resized the window or first configured it: lay the nodes out to
    /// ``pointSize``. Set by the runtime.
    public var onResize: (() -> Void)?
    /// Called when the compositor's frame callback for a frame drawn here comes: make the next
    /// frame of an animation or a video then.
    public var onFrameShown: (() -> Void)?
    /// How many frames were drawn (each a commit to the compositor).
    public private(set) var framesDrawn = 0
    /// The damage of the last frame drawn, in points (for tests and frame logs).
    public private(set) var lastDamage = DamageRegion()
    /// Whether the focused item is shown in a layer over the window (the compositor offers
    /// subsurfaces, the window's background is opaque, and the output was made with `focusLayer`).
    public private(set) var showsFocusLayer: Bool
    /// Damage under the focus layer not yet drawn into the window: the layer covers it, and it is
    /// drawn in the frame that moves the layer off it (a focused field's typing costs its layer only).
    private var underLayer = DamageRegion()

    private var queued = false
    private var configured = false

    /// Shows a window's nodes in a Wayland window.
    ///
    /// - Parameters:
    ///   - window: The Wayland window.
    ///   - nodes: The window whose nodes are drawn (its `backgroundColor` under them, its
    ///     `tintColor` for the focus ring).
    ///   - renderer: The renderer; a new one by default.
    ///   - focusLayer: Whether to show the focused item in a layer over the window when the
    ///     compositor offers subsurfaces and the window's background is opaque (the default); `false`
    ///     draws it into the window's buffer.
    public init(
        window: WaylandWindow, showing nodes: Window, renderer: CairoRenderer = CairoRenderer(), focusLayer: Bool = true
    ) {
        self.window = window
        self.renderer = renderer
        painter = WindowPainter(
            window: nodes, size: Size(width: Double(max(1, window.width)), height: Double(max(1, window.height))))
        configured = window.isConfigured
        showsFocusLayer = false
        if focusLayer, window.core.supportsOverlay, nodes.backgroundColor.alpha >= 1 {
            window.core.overlayPlanner = { [weak self] in self?.focusLayerPlan() }
            // Made with the planner; none when the window is already closed.
            if window.core.overlay != nil {
                showsFocusLayer = true
                painter.drawsFocusedItemApart = true
                window.core.onOverlayFailure = { [weak self] in
                    // No memory for a patch: the window draws the focused item from now on.
                    guard let self else { return nil }
                    stopFocusLayer()
                    return { [weak self] buffer in self?.draw(into: buffer) ?? [] }
                }
            } else {
                window.core.overlayPlanner = nil
            }
        }
        window.onFrameDone = { [unowned self] in onFrameShown?() }
        window.onResize = { [unowned self] width, height in
            painter.size = Size(width: Double(width), height: Double(height))
            onResize?()
            update()
        }
        window.onScaleChange = { [unowned self] _ in
            painter.invalidateAll()
            update()
        }
        // Until the compositor configures the window its size is unknown: the first configure lays
        // the nodes out and draws the first frame.
        window.onConfigure = { [unowned self] width, height in
            guard !configured else { return }
            configured = true
            painter.size = Size(width: Double(width), height: Double(height))
            onResize?()
            update()
        }
    }

    /// The window's size in points, or `nil` before the compositor configured it.
    public var pointSize: (width: Double, height: Double)? {
        guard window.isConfigured else { return nil }
        return (Double(window.width), Double(window.height))
    }

    /// Draws what changed in the next frame: now when the window may draw, else when the
    /// compositor's frame callback comes (what changes meanwhile is drawn with it). Nothing changed:
    /// nothing is committed.
    public func update() {
        guard configured, !queued, painter.needsFrame || focusLayerNeedsFrame else { return }
        queued = true
        let kept = window.deferredDrawCount
        let drawing: (PixelBuffer) -> [PixelRect] = { [unowned self] buffer in draw(into: buffer) }
        // The painter fills each damaged rectangle (whole points: whole pixels) with the window's
        // background before drawing: when it is opaque, nothing under it is read, and the buffer need
        // not copy there first what it missed.
        let presented =
            painter.backgroundColor.alpha >= 1
            ? window.present(repaintingWhole: drawing) : window.present(draw: drawing)
        if !presented, window.deferredDrawCount <= kept {
            queued = false
        }
    }

    /// The next frame draws everything.
    public func invalidate() {
        painter.invalidateAll()
    }

    /// Stops showing the focused item in a layer: the window draws it from the next drawing on
    /// (everything, once), and the overlay hides and is let go.
    private func stopFocusLayer() {
        showsFocusLayer = false
        painter.drawsFocusedItemApart = false
        underLayer = DamageRegion()
        window.core.overlayPlanner = nil
        window.core.onOverlayFailure = nil
    }

    /// Whether the focus layer would show another patch, or its patch is no longer valid.
    private var focusLayerNeedsFrame: Bool {
        guard let overlay = window.core.overlay else { return false }
        // Turned off: a frame hides it.
        guard showsFocusLayer else { return true }
        let layer = painter.focusLayer()
        let rect = layer?.rect ?? Rect(x: 0, y: 0, width: 0, height: 0)
        return overlay.needsUpdate(
            key: layer.map { layerKey($0.item) }, x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width),
            height: Int(rect.height), scale: window.scale)
    }

    /// A patch's key: the item focused and the first responder, whose look it holds.
    private func layerKey(_ item: FocusNode) -> OverlayKey {
        OverlayKey(
            item: ObjectIdentifier(item), firstResponder: painter.window.firstResponder.map(ObjectIdentifier.init))
    }

    /// The focused item's patch for the overlay, drawn when no kept patch serves.
    private func focusLayerPlan() -> OverlayPlan? {
        guard let (item, rect) = painter.focusLayer() else { return nil }
        return OverlayPlan(
            key: layerKey(item), x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width),
            height: Int(rect.height)
        ) { [unowned self] buffer in
            renderer.render(
                into: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride,
                format: .xrgb8888, scale: Double(buffer.scale)
            ) { context in
                context.translate(x: -rect.minX, y: -rect.minY)
                painter.paintFocusLayer(rect, in: context)
            }
        }
    }

    private func draw(into buffer: PixelBuffer) -> [PixelRect] {
        queued = false
        // The patches are opaque: a window made translucent draws its focused item itself.
        if showsFocusLayer, painter.backgroundColor.alpha < 1 { stopFocusLayer() }
        if buffer.needsFullRedraw { painter.invalidateAll() }
        var damage = painter.takeDamage()
        // What changed in the window changed the focus layer's patches it meets; what the layer will
        // cover in this frame is drawn into the window when the layer leaves it.
        if let overlay = window.core.overlay, showsFocusLayer {
            for rect in damage.rects { overlay.invalidate(intersecting: rect) }
            let covered = painter.focusLayer()?.rect
            var now = DamageRegion()
            var later = DamageRegion()
            for rect in damage.rects + underLayer.rects {
                if let covered, covered.contains(rect) { later.add(rect) } else { now.add(rect) }
            }
            // What is drawn now anyway (everything, after a resize) need not be drawn again later.
            underLayer = DamageRegion()
            for rect in later.rects where !now.rects.contains(where: { $0.contains(rect) }) { underLayer.add(rect) }
            damage = now
        }
        guard !damage.isEmpty else { return [] }
        renderer.render(
            into: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride,
            format: buffer.format == .argb8888 ? .argb8888 : .xrgb8888, scale: Double(buffer.scale),
            damage: damage.rects
        ) { context in painter.paint(damage, in: context) }
        framesDrawn += 1
        lastDamage = damage
        return damage.rects.map { buffer.pixelRect(enclosing: $0) }
    }
}

extension WaylandNodeOutput: PointerSurface {
    /// `nil`: the compositor gives positions in the surface already.
    public var pointerArea: (width: Int, height: Int)? { nil }

    /// A surface-local position: already in points, the nodes' frames' units.
    ///
    /// - Parameters:
    ///   - x: Points from the left.
    ///   - y: Points from the top.
    /// - Returns: The position.
    public func windowPoint(x: Double, y: Double) -> Point {
        Point(x: x, y: y)
    }
}
