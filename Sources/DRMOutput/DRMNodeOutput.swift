public import CairoGraphics
public import EventLoop
public import Graphics
public import ResponderChain
public import Seat

/// Shows the window's nodes straight on a display, with no compositor: each node draws itself in
/// points (`FocusNode.draw(in:state:)`) at the display's scale, through Graphics'
/// `WindowPainter` and CairoGraphics' `CairoRenderer`, and only what changed is drawn and copied.
///
/// The app does not draw frames: the runtime calls ``update()`` after every batch
/// (`Application.setNodeOutput(_:)`), and the output asks the painter what changed (its damage, by
/// rectangle). Nothing changed: no drawing, no copy, no flip. Otherwise the damaged rectangles are
/// drawn into a frame in memory, and copied into the back dumb buffer together with the rectangles
/// that buffer missed while the other one was shown (wlroots' damage ring: each buffer remembers
/// what changed since it was last drawn into); then the buffers flip. While a flip is on its way
/// ``update()`` only notes that a frame is wanted: the flip's event draws it, with everything that
/// changed meanwhile.
///
/// The scale comes from the display's size (``DisplayScale``: 1, 1.25, 1.5 or 2, a point about
/// 1/100 inch) unless ``Options/scale`` names one; ``pointSize`` is the mode's pixels over it, and
/// pointer positions (``windowPoint(x:y:)``) are in points. The device, the seat's pauses, hot-plug
/// and the pointer are as for ``DRMCanvasOutput``: both outputs share them.
///
/// ```swift
/// let output = try DRMNodeOutput(loop: loop, window: window, seat: seat)
/// application.setNodeOutput(output)          // KeyboardApp's display platform does this for `.nodes`
/// pointer.surface = output                   // touches and clicks land in points
/// ```
@MainActor
public final class DRMNodeOutput: NodeOutput, DisplayOutput {
    /// Which display, and the scale.
    public struct Options: Hashable, Sendable {
        /// The device, connector and mode.
        public var display: DisplayOptions
        /// Pixels per point (finite and positive); `nil` for ``DisplayScale/automatic(for:on:)``.
        public var scale: Double?

        /// The first connected display in its preferred mode, at the scale its size asks for.
        ///
        /// - Parameters:
        ///   - display: The device, connector and mode.
        ///   - scale: Pixels per point, or `nil` for the display's own.
        public init(display: DisplayOptions = DisplayOptions(), scale: Double? = nil) {
            self.display = display
            self.scale = scale
        }
    }

    /// The window drawn.
    public var window: Window { painter.window }
    /// What works out the damage and draws the nodes.
    public let painter: WindowPainter
    /// What draws them into pixels (text layouts, images and shadows are kept in it between frames).
    public let renderer: CairoRenderer
    /// Pixels per point now.
    public private(set) var scale: Double
    /// The scale asked for in the options, if any.
    public let requestedScale: Double?
    /// The device drawn on.
    public var devicePath: String { core.device.path }
    /// The connector drawn on, as last read.
    public var connector: DisplayConnector { core.connector }
    /// The mode set.
    public var mode: DisplayMode { core.mode }
    /// Called when ``pointSize`` changed by itself (a display of another mode or size plugged in);
    /// set by the runtime.
    public var onResize: (() -> Void)?
    /// Called when a frame drawn here is on the screen (its flip's event, or the mode set that showed
    /// it): make the next frame of an animation or a video then.
    public var onFrameShown: (() -> Void)?
    /// Called with every ``DisplayChange``.
    public var onChange: ((DisplayChange) -> Void)? {
        get { core.onChange }
        set { core.onChange = newValue }
    }
    /// Called for every frame on the screen, with the rectangles it copied.
    public var onPresented: ((DisplayFrame) -> Void)? {
        get { core.onPresented }
        set { core.onPresented = newValue }
    }
    /// How many frames reached the screen.
    public var framesPresented: Int { core.framesPresented }
    /// How many flips were given up after a second without their event (the next frame was copied whole).
    public var flipsTimedOut: Int { core.flipsTimedOut }
    /// Why displays plugged in later are not followed (no netlink in a container), when they are not.
    public var hotPlugNote: String? { core.hotPlugNote }

    let core: DisplayCore
    /// The frame in memory the nodes are drawn into.
    private var shadow: ShadowBuffer
    /// What each dumb buffer missed since it was last copied into.
    private(set) var ring: DamageRing
    /// Whether the shadow holds something the screen does not show yet (drawn, a pointer moved, a
    /// frame refused or lost): the next frame is shown even without new damage.
    private var unshown = false

    /// Opens the display: the device, its connector and mode, two dumb buffers; the painter starts
    /// following the window. Nothing is shown until the first ``update()``.
    ///
    /// - Parameters:
    ///   - loop: The loop the device's flip events are read on.
    ///   - window: The window whose nodes are drawn.
    ///   - renderer: What draws them (a new one by default).
    ///   - seat: The app's seat: the device is opened through it, and the output pauses while the
    ///     seat is away. `nil`: opened directly (root, or a user in the device's group).
    ///   - options: Which device, connector and mode, and the scale.
    /// - Throws: ``DisplayError`` naming the device and the fix (as ``DRMCanvasOutput``'s), or
    ///   code ``DisplayError/Code/unsupported`` for a scale that is not finite and positive.
    public convenience init(
        loop: EventLoop, window: Window, renderer: CairoRenderer = CairoRenderer(), seat: Seat? = nil,
        options: Options = Options()
    ) throws(DisplayError) {
        try Self.check(options.scale)
        let (device, chosen) = try DisplayCore.open(options: options.display, seat: seat)
        try self.init(
            loop: loop, window: window, renderer: renderer, device: device, chosen: chosen, seat: seat,
            options: options)
    }

    /// An output on a device already opened (a test's device in memory).
    init(
        loop: EventLoop, window: Window, renderer: CairoRenderer, device: any ScanoutDevice,
        chosen: ConnectorChoice.Chosen, seat: Seat?, options: Options
    ) throws(DisplayError) {
        try Self.check(options.scale)
        core = try DisplayCore(loop: loop, device: device, chosen: chosen, seat: seat, options: options.display)
        self.renderer = renderer
        requestedScale = options.scale
        let scale = options.scale ?? DisplayScale.automatic(for: chosen.mode, on: chosen.connector)
        self.scale = scale
        shadow = ShadowBuffer(width: chosen.mode.width, height: chosen.mode.height)
        ring = DamageRing(bounds: shadow.bounds)
        painter = WindowPainter(window: window, size: Self.points(chosen.mode, scale))
        core.drawing = self
        core.frameShown = { [unowned self] in onFrameShown?() }
    }

    private static func check(_ scale: Double?) throws(DisplayError) {
        guard let scale, !(scale.isFinite && scale > 0) else { return }
        throw DisplayError(
            code: .unsupported, message: "a display's scale must be finite and positive, not \(scale)")
    }

    private static func points(_ mode: DisplayMode, _ scale: Double) -> Size {
        Size(width: Double(mode.width) / scale, height: Double(mode.height) / scale)
    }

    /// The screen's size in points: the mode's pixels over ``scale``.
    public var pointSize: (width: Double, height: Double)? {
        (painter.size.width, painter.size.height)
    }

    /// The screen's size in pixels: a touchscreen's coordinates are scaled to it.
    public var pixelSize: DisplayPixelSize { DisplayPixelSize(width: mode.width, height: mode.height) }

    /// Whether frames reach the screen now: the seat is here and the display connected.
    public var isShowing: Bool { core.isShowing }

    /// Shows what changed since the last frame: now when no flip is on its way, else when its event
    /// comes (everything that changed meanwhile in one frame). Nothing changed: nothing is drawn,
    /// copied or flipped.
    public func update() {
        guard painter.needsFrame || unshown else { return }
        core.requestFrame()
    }

    /// Draws everything at the next ``update()``.
    public func invalidate() {
        painter.invalidateAll()
    }

    /// Shows the mouse pointer with its tip at a position (a mouse moved), drawn over the frame;
    /// only the rectangles it leaves and enters are copied again.
    ///
    /// - Parameters:
    ///   - x: Pixels from the left of the screen.
    ///   - y: Pixels from the top.
    public func movePointer(toX x: Double, y: Double) {
        core.movePointer(toX: x, y: y)
    }

    /// Hides the mouse pointer (a touch, or no mouse left).
    public func hidePointer() {
        core.hidePointer()
    }

    /// Whether the pointer is shown, and where (its tip in pixels).
    public var pointerPosition: (x: Int, y: Int)? { core.pointer }

    /// Reads the connectors again (a display plugged in, unplugged or changed): an unplugged display
    /// pauses drawing, a display back, or in another mode, is drawn whole (``onResize`` first when
    /// the size in points changed).
    public func rescan() {
        core.rescan()
    }
}

extension DRMNodeOutput: DisplayDrawing {
    func drawFrame(into buffer: DumbBuffer, index: Int, pointer: (x: Int, y: Int)?, mustShow: Bool) -> FrameCopy? {
        let damage = painter.takeDamage()
        if !damage.isEmpty {
            let (painter, rects) = (painter, damage.rects)
            renderer.render(
                into: shadow.pixels, width: shadow.width, height: shadow.height, stride: shadow.stride,
                format: .xrgb8888, scale: scale, damage: rects, layoutDirection: window.layoutDirection
            ) { context in
                painter.paint(damage, in: context)
            }
            ring.add(rects.map { DisplayRect(enclosing: $0, scale: scale) })
            unshown = true
        }
        guard unshown || mustShow else { return nil }
        let copy = FrameCopy(rects: ring.take(buffer: index))
        shadow.copy(copy.rects, into: buffer, pointer: pointer)
        unshown = false
        return copy
    }

    func frameRefused() {
        ring.addAll()
        unshown = true
    }

    func buffersLost() {
        ring.addAll()
        unshown = true
    }

    func pointerMoved(from old: (x: Int, y: Int)?, to new: (x: Int, y: Int)?) {
        let screen = shadow.bounds
        ring.add([old, new].compactMap { $0.map { PointerSprite.rect(at: $0, screen: screen) } })
        unshown = true
    }

    func modeAdopted(_ mode: DisplayMode, connector: DisplayConnector, resized: Bool) {
        if resized { shadow = ShadowBuffer(width: mode.width, height: mode.height) }
        ring = DamageRing(bounds: shadow.bounds)
        let before = painter.size
        scale = requestedScale ?? DisplayScale.automatic(for: mode, on: connector)
        painter.size = Self.points(mode, scale)
        painter.invalidateAll()
        unshown = true
        if painter.size != before { onResize?() }
    }

    func seatEnabled() {
        // The shadow still holds the frame; another program's was shown meanwhile.
        ring.addAll()
        unshown = true
    }
}

extension DRMNodeOutput: PointerSurface {
    /// The mode's size in pixels: touch screens and tablets scale to it, the cursor stays in it.
    public var pointerArea: (width: Int, height: Int)? { (mode.width, mode.height) }

    /// A position in the screen's pixels in points, the window's coordinates: divided by ``scale``.
    ///
    /// - Parameters:
    ///   - x: Pixels from the left.
    ///   - y: Pixels from the top.
    /// - Returns: The position in points.
    public func windowPoint(x: Double, y: Double) -> Point {
        Point(x: x / scale, y: y / scale)
    }

    /// Draws the mouse pointer there (``movePointer(toX:y:)``), or hides it (``hidePointer()``).
    ///
    /// - Parameter position: The pointer's tip in pixels; `nil` hides it.
    public func showCursor(at position: (x: Double, y: Double)?) {
        if let position { movePointer(toX: position.x, y: position.y) } else { hidePointer() }
    }
}
