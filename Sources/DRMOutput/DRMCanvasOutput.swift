public import EventLoop
public import PixelCanvas
public import ResponderChain
public import Seat
public import TerminalCanvas

/// Shows the app's `Canvas` straight on a display, with no compositor: as Qt's eglfs and
/// flutter-pi run a kiosk on a Raspberry Pi. The DRM device (`/dev/dri/card0`) is opened through
/// the seat (seatd or logind, for an ordinary user) or directly; the connected connector's
/// preferred mode is set; cells are rendered with a real font (`PixelRenderer`, as in a Wayland
/// window) into a buffer in memory, and only the rows that changed are copied into one of two
/// dumb buffers, shown with a page flip.
///
/// Drawing is paced by the flip events: while a flip is on its way ``show(_:)`` keeps only the
/// newest canvas, and a canvas equal to the one shown draws nothing, so an idle app never wakes
/// up. When the seat is taken away (a switch to another VT) the output stops drawing; when it
/// comes back it sets the mode again and draws the whole frame. ``rescan()`` follows a display
/// plugged in, unplugged or changed.
///
/// ```swift
/// let seat = try Seat()                    // once per process, shared with the keyboards and libinput
/// try loop.watch(seat.fileDescriptor) { seat.dispatch() }   // VT switches reach the observers
/// let output = try DRMCanvasOutput(loop: loop, renderer: PixelRenderer(pixelSize: 16), seat: seat)
/// application.setOutput(output)
/// ```
@MainActor
public final class DRMCanvasOutput: CanvasOutput, DisplayOutput {
    /// Which device, connector and mode to use (``DisplayOptions``, by the name it had first).
    public typealias Options = DisplayOptions
    /// A size in pixels (``DisplayPixelSize``, by the name it had first).
    public typealias PixelSize = DisplayPixelSize
    /// Something that happened to the display (``DisplayChange``, by the name it had first).
    public typealias Change = DisplayChange
    /// A frame that reached the screen (``DisplayFrame``, by the name it had first).
    public typealias PresentedFrame = DisplayFrame

    /// The renderer: font, cell size, palette.
    public let renderer: PixelRenderer
    /// The device drawn on.
    public var devicePath: String { core.device.path }
    /// The connector drawn on, as last read.
    public var connector: DisplayConnector { core.connector }
    /// The mode set.
    public var mode: DisplayMode { core.mode }
    /// Called when ``size`` changed (a display of another mode plugged in): draw a frame of the new size.
    public var onResize: (() -> Void)?
    /// Called with every ``DisplayChange``.
    public var onChange: ((DisplayChange) -> Void)? {
        get { core.onChange }
        set { core.onChange = newValue }
    }
    /// Called for every frame on the screen (for figures: key to flip).
    public var onPresented: ((DisplayFrame) -> Void)? {
        get { core.onPresented }
        set { core.onPresented = newValue }
    }
    /// How many frames reached the screen.
    public var framesPresented: Int { core.framesPresented }
    /// How many flips were given up after a second without their event (the next frame was drawn whole).
    public var flipsTimedOut: Int { core.flipsTimedOut }
    /// Why displays plugged in later are not followed (no netlink in a container), when they are not.
    public var hotPlugNote: String? { core.hotPlugNote }

    let core: DisplayCore
    private var shadow: ShadowBuffer
    /// The canvas the shadow holds (`nil`: unknown, the next render is whole).
    private var shadowCanvas: Canvas?
    /// The canvas waiting to be drawn.
    private var latest: Canvas?
    private var stale: StaleRows

    /// Opens the display: the device, its connector and mode, two dumb buffers. Nothing is shown
    /// until the first ``show(_:)``.
    ///
    /// - Parameters:
    ///   - loop: The loop the device's flip events are read on.
    ///   - renderer: How cells become pixels.
    ///   - seat: The app's seat: the device is opened through it, and the output pauses while the
    ///     seat is away. `nil`: opened directly (root, or a user in the device's group), and VT
    ///     switches are not followed.
    ///   - options: Which device, connector and mode.
    /// - Throws: ``DisplayError`` naming the device and the fix: no DRM device, no permission,
    ///   no connected display, no such mode; or the loop refusing the device's descriptor (code
    ///   ``DisplayError/Code/device``, with `epoll_ctl`'s errno).
    public convenience init(loop: EventLoop, renderer: PixelRenderer, seat: Seat? = nil, options: Options = Options())
        throws(DisplayError)
    {
        let (device, chosen) = try DisplayCore.open(options: options, seat: seat)
        try self.init(loop: loop, renderer: renderer, device: device, chosen: chosen, seat: seat, options: options)
    }

    /// An output on a device already opened (a test's device in memory).
    init(
        loop: EventLoop, renderer: PixelRenderer, device: any ScanoutDevice, chosen: ConnectorChoice.Chosen,
        seat: Seat?, options: Options
    ) throws(DisplayError) {
        self.renderer = renderer
        core = try DisplayCore(loop: loop, device: device, chosen: chosen, seat: seat, options: options)
        shadow = ShadowBuffer(width: chosen.mode.width, height: chosen.mode.height)
        stale = StaleRows(height: chosen.mode.height)
        core.drawing = self
    }

    /// The DRM devices that can set modes (`/dev/dri/card*`), in number order: none on a machine
    /// without a display driver (or in a container without `/dev/dri`).
    nonisolated public static var devicePaths: [String] { KMSDevice.cardPaths() }

    /// The screen's size in whole cells (at least 1x1).
    public var size: (columns: Int, rows: Int)? {
        (max(1, mode.width / renderer.cellSize.width), max(1, mode.height / renderer.cellSize.height))
    }

    /// The screen's size in pixels: a touchscreen's coordinates are scaled to it.
    public var pixelSize: PixelSize { PixelSize(width: mode.width, height: mode.height) }

    /// Whether frames reach the screen now: the seat is here and the display connected.
    public var isShowing: Bool { core.isShowing }

    /// Draws the canvas: now when no flip is on its way, else when it is done (only the newest
    /// canvas is kept meanwhile). A canvas equal to the one shown draws nothing.
    ///
    /// - Parameter canvas: The frame.
    public func show(_ canvas: Canvas) {
        if latest == nil, canvas == shadowCanvas, !core.scheduler.needsModeset { return }
        latest = canvas
        core.requestFrame()
    }

    /// The next frame is drawn whole.
    public func invalidate() {
        shadowCanvas = nil
    }

    /// A position in the screen's pixels in cells: the focus tree's coordinates when its frames
    /// are cells.
    ///
    /// - Parameters:
    ///   - x: Pixels from the left.
    ///   - y: Pixels from the top.
    /// - Returns: The position in cells (fractional: 3.5 is the middle of column 3).
    public func cellPoint(_ x: Double, _ y: Double) -> Point {
        Point(x: x / Double(renderer.cellSize.width), y: y / Double(renderer.cellSize.height))
    }

    /// Shows the mouse pointer with its tip at a position (a mouse moved), drawn over the frame;
    /// only the rows it leaves and enters are copied again.
    ///
    /// - Parameters:
    ///   - x: Pixels from the left of the screen.
    ///   - y: Pixels from the top.
    public func movePointer(toX x: Double, y: Double) {
        core.movePointer(toX: x, y: y)
    }

    /// Hides the mouse pointer (a touch, or no mouse left), as Qt's eglfs does.
    public func hidePointer() {
        core.hidePointer()
    }

    /// Whether the pointer is shown, and where (its tip in pixels).
    public var pointerPosition: (x: Int, y: Int)? { core.pointer }

    /// Reads the connectors again (a display plugged in, unplugged or changed: udev's `change`
    /// event of the card): an unplugged display pauses drawing, a display back, or in another
    /// mode, is drawn whole (``onResize`` first when the size changed).
    public func rescan() {
        core.rescan()
    }
}

extension DRMCanvasOutput: DisplayDrawing {
    func drawFrame(into buffer: DumbBuffer, index: Int, pointer: (x: Int, y: Int)?, mustShow: Bool) -> FrameCopy? {
        guard let canvas = latest ?? shadowCanvas else { return nil }
        latest = nil
        let damage = renderer.render(
            canvas, into: shadow.pixels, width: mode.width, height: mode.height, stride: shadow.stride,
            previous: shadowCanvas)
        shadowCanvas = canvas
        stale.add(damage)
        let copy = FrameCopy(rows: stale.take(buffer: index), width: mode.width)
        shadow.copy(copy.rects, into: buffer, pointer: pointer)
        return copy
    }

    func frameRefused() {
        // The shadow holds the canvas; the buffer that was to show it is stale again.
        latest = latest ?? shadowCanvas
        stale.addAll()
    }

    func buffersLost() {
        stale.addAll()
        latest = latest ?? shadowCanvas
    }

    func pointerMoved(from old: (x: Int, y: Int)?, to new: (x: Int, y: Int)?) {
        var rows: [Range<Int>] = []
        if let old { rows.append(PointerSprite.rows(at: old.y, screenHeight: mode.height)) }
        if let new { rows.append(PointerSprite.rows(at: new.y, screenHeight: mode.height)) }
        stale.add(rows)
    }

    func modeAdopted(_ mode: DisplayMode, connector: DisplayConnector, resized: Bool) {
        if resized { shadow = ShadowBuffer(width: mode.width, height: mode.height) }
        stale = StaleRows(height: mode.height)
        shadowCanvas = nil
        if resized { onResize?() }
    }

    func seatEnabled() {
        stale.addAll()
        shadowCanvas = nil
    }
}

extension DRMCanvasOutput: PointerSurface {
    /// The mode's size in pixels: touch screens and tablets scale to it, the cursor stays in it.
    public var pointerArea: (width: Int, height: Int)? { (pixelSize.width, pixelSize.height) }

    /// A position in the screen's pixels in the window's cells (``cellPoint(_:_:)``).
    ///
    /// - Parameters:
    ///   - x: Pixels from the left.
    ///   - y: Pixels from the top.
    /// - Returns: The position in cells.
    public func windowPoint(x: Double, y: Double) -> Point {
        cellPoint(x, y)
    }

    /// Draws the mouse pointer there (``movePointer(toX:y:)``), or hides it (``hidePointer()``).
    ///
    /// - Parameter position: The pointer's tip in pixels; `nil` hides it.
    public func showCursor(at position: (x: Double, y: Double)?) {
        if let position { movePointer(toX: position.x, y: position.y) } else { hidePointer() }
    }
}
