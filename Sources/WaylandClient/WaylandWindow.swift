public import Graphics

/// One window: a `wl_surface` with an `xdg_surface` and `xdg_toplevel` (title and app id set,
/// full screen asked for), acknowledging the compositor's configures, and drawn through a
/// double-buffered `wl_shm` pool paced by `wl_surface.frame` callbacks.
///
/// ```swift
/// let window = try WaylandWindow(connection: connection, options: .init(title: "Kiosk", appID: "kiosk"))
/// window.onClose = { loop.control.stop() }
/// window.present { buffer in
///     buffer.fill(buffer.bounds, color: 0xFF_FF_00_00)
///     return [buffer.bounds]
/// }
/// ```
///
/// ``present(draw:)`` draws at once when a buffer is free and no frame is in flight; otherwise
/// the drawing is kept and done when the compositor's frame callback arrives (several kept
/// drawings go into one frame, in order): nothing is dropped.
///
/// Damage is by rectangle (`PixelRect`): each one the drawing returns is damaged, and before the
/// other buffer is drawn next only those rectangles are copied into it from the one on screen, so
/// a focus move that changes two tiles costs two tiles, not the rows they span.
///
/// ### Scale
///
/// ``width`` and ``height`` are in points (surface units, what the compositor configures and
/// where the pointer lands). The buffers are ``scale`` times larger in device pixels: the window
/// binds the compositor's outputs (`wl_output` version 2 or newer), follows the ones its surface
/// is on (`wl_surface.enter` and `leave`), takes the largest of their scales and tells the
/// compositor with `wl_surface.set_buffer_scale`. A compositor sends `enter` only once a buffer
/// shows, so until then the window takes the largest scale of the outputs bound, and a full-screen
/// window that the compositor lets choose its size (sway's first configure is 0x0) takes its
/// output's size in points: the first frame is drawn at the size and sharpness it is shown at. When the scale changes,
/// ``onScaleChange`` is called: draw everything again. Integer scales only: the fractional-scale
/// protocol (`wp_fractional_scale_v1`) is not offered by the compositors this package runs on
/// (sway 1.7, wlroots 0.15); a compositor set to 1.5 sends 2 and scales the buffer down.
@MainActor
public final class WaylandWindow {
    /// How a pixel is stored: both formats every `wl_shm` supports.
    public enum PixelFormat: Hashable, Sendable {
        /// 32 bits, `0xXXRRGGBB` little-endian, the top byte ignored (`WL_SHM_FORMAT_XRGB8888`).
        case xrgb8888
        /// 32 bits, `0xAARRGGBB` little-endian, premultiplied alpha (`WL_SHM_FORMAT_ARGB8888`).
        case argb8888
    }

    /// What the window asks of the compositor.
    public struct Options: Hashable, Sendable {
        /// The title (`xdg_toplevel.set_title`); `nil` for the program's name.
        public var title: String?
        /// The app id (`xdg_toplevel.set_app_id`), such as `org.example.kiosk`: compositors match rules on it;
        /// `nil` for the program's name.
        public var appID: String?
        /// Whether the window asks to be full screen (`xdg_toplevel.set_fullscreen`).
        public var fullscreen: Bool
        /// The width chosen when the compositor leaves it to the app (a configure of 0), unless the
        /// window asks to be full screen and an output has told its size: then that output's.
        public var defaultWidth: Int
        /// The height chosen when the compositor leaves it to the app (a configure of 0), unless the
        /// window asks to be full screen and an output has told its size: then that output's.
        public var defaultHeight: Int
        /// How pixels are stored.
        public var format: PixelFormat

        /// Creates options.
        ///
        /// - Parameters:
        ///   - title: The title; `nil` (the default) for the program's name.
        ///   - appID: The app id; `nil` (the default) for the program's name.
        ///   - fullscreen: Whether to ask for full screen (on by default: a kiosk).
        ///   - defaultWidth: The width when the compositor lets the app choose.
        ///   - defaultHeight: The height when the compositor lets the app choose.
        ///   - format: How pixels are stored.
        public init(
            title: String? = nil, appID: String? = nil, fullscreen: Bool = true, defaultWidth: Int = 800,
            defaultHeight: Int = 600, format: PixelFormat = .xrgb8888
        ) {
            self.title = title
            self.appID = appID
            self.fullscreen = fullscreen
            self.defaultWidth = defaultWidth
            self.defaultHeight = defaultHeight
            self.format = format
        }

        /// The title asked of the compositor: ``title``, else the program's name.
        public var resolvedTitle: String { title ?? Self.programName }
        /// The app id asked of the compositor: ``appID``, else the program's name.
        public var resolvedAppID: String { appID ?? Self.programName }

        /// The program's file name (`argv[0]` without its directory); `app` when there is none.
        static var programName: String {
            let name = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
            return name.isEmpty ? "app" : name
        }
    }

    let core: WindowCore

    /// Creates the window's surface and roles and commits it, asking for the first configure.
    ///
    /// - Parameters:
    ///   - connection: The connection.
    ///   - options: Title, app id, full screen, default size, pixel format.
    /// - Throws: ``WaylandError`` when the connection is lost.
    ///
    /// Uses `wl_compositor.create_surface`, `xdg_wm_base.get_xdg_surface` and `xdg_surface.get_toplevel`.
    public init(connection: WaylandConnection, options: Options) throws(WaylandError) {
        core = try WindowCore(connection: connection, options: options)
    }

    isolated deinit {
        core.close()
    }

    /// Destroys the window's surface and roles now, as its release does (tests: a second window in
    /// the same compositor, the first gone).
    package func close() {
        core.close()
    }

    /// The options the window was made with.
    public var options: Options { core.options }

    /// The width in points (surface units): the compositor's last configure, or ``Options/defaultWidth``.
    public var width: Int { core.width }

    /// The height in points (surface units): the compositor's last configure, or ``Options/defaultHeight``.
    public var height: Int { core.height }

    /// Device pixels per point: the largest scale of the outputs the window is on (before it was ever
    /// on one, of the outputs bound; 1 with none), at most 8, and lowered when a buffer that large
    /// would pass 8192 pixels a side.
    public var scale: Int { core.scale }

    /// The buffers' width in device pixels: ``width`` × ``scale``.
    public var bufferWidth: Int { core.bufferWidth }

    /// The buffers' height in device pixels: ``height`` × ``scale``.
    public var bufferHeight: Int { core.bufferHeight }

    /// Whether the compositor has configured the window (and it was acknowledged): before it, nothing is drawn.
    public var isConfigured: Bool { core.configured }

    /// Whether a committed frame waits for its `wl_surface.frame` callback: a present now is deferred.
    public var isFramePending: Bool { core.framePending }

    /// How many drawings wait for the next frame.
    public var deferredDrawCount: Int { core.deferred.count }

    /// How many frames were committed.
    public var framesCommitted: Int { core.framesCommitted }

    /// How many frame callbacks arrived (frames the compositor has shown).
    public var framesDone: Int { core.framesDone }

    /// Called after every configure is acknowledged, with the size.
    public var onConfigure: ((_ width: Int, _ height: Int) -> Void)? {
        get { core.onConfigure }
        set { core.onConfigure = newValue }
    }

    /// Called when a configure changes the size (in points): draw everything again.
    public var onResize: ((_ width: Int, _ height: Int) -> Void)? {
        get { core.onResize }
        set { core.onResize = newValue }
    }

    /// Called when ``scale`` changes (the window moved to an output of another scale, or its output's
    /// scale was changed), with the new scale: draw everything again, at ``bufferWidth`` ×
    /// ``bufferHeight``. A configure that changes the size as well calls ``onResize`` too.
    public var onScaleChange: ((_ scale: Int) -> Void)? {
        get { core.onScaleChange }
        set { core.onScaleChange = newValue }
    }

    /// Called when the compositor's frame callback for the last commit comes (the frame is on the
    /// screen, or would be: the compositor wants the next one), after any drawing waiting for it.
    public var onFrameDone: (() -> Void)? {
        get { core.onFrameDone }
        set { core.onFrameDone = newValue }
    }

    /// Called when the compositor asks the window to close (`xdg_toplevel.close`): the user
    /// closed it. The app decides what to do.
    public var onClose: (() -> Void)? {
        get { core.onClose }
        set { core.onClose = newValue }
    }

    /// Draws a frame into a free buffer and commits it, or keeps the drawing for the next frame.
    ///
    /// The closure gets the buffer's pixels (``bufferWidth`` × ``bufferHeight`` at ``scale``) and
    /// returns the rectangles it changed, in device pixels; only those are damaged
    /// (`wl_surface.damage_buffer`, one request a rectangle after clamping to the buffer and merging
    /// those that overlap or touch; more than 16 are sent as their bounding box) and copied into
    /// the other buffer before it is drawn next. A buffer of a new size or scale is damaged whole.
    ///
    /// It runs now when the window is configured, no frame waits for its callback and a buffer is
    /// free; otherwise when the frame callback (or the first configure, or a buffer release) comes,
    /// with other kept drawings into the same buffer.
    ///
    /// - Parameter draw: Draws, returning the changed rectangles in device pixels.
    /// - Returns: Whether the frame was committed now (`false`: kept for later, or the connection is lost).
    ///
    /// Uses `wl_surface.set_buffer_scale` (when the scale changed), `wl_surface.attach`,
    /// `wl_surface.damage_buffer`, `wl_surface.frame` and `wl_surface.commit`.
    @discardableResult
    public func present(draw: @escaping (PixelBuffer) -> [PixelRect]) -> Bool {
        core.present(draw)
    }

    /// ``present(draw:)`` for a drawing that repaints every rectangle it returns whole, with opaque
    /// pixels, never reading what was there (an output that fills its damage with an opaque background
    /// first): the buffer then copies what it missed after the drawing, less what it drew, rather than
    /// all of it before.
    ///
    /// - Parameters:
    ///   - draw: Draws, returning the changed rectangles in device pixels.
    /// - Returns: Whether the frame was committed now.
    @discardableResult
    func present(repaintingWhole draw: @escaping (PixelBuffer) -> [PixelRect]) -> Bool {
        core.present(draw, repaintsWhole: true)
    }

    /// The rectangles the last commit damaged, in device pixels (tests, statistics).
    package var lastDamage: [PixelRect] { core.lastDamage }

    /// What was copied from the buffer on screen into the one drawn by the last commit: rectangles
    /// (1 for a whole buffer) and bytes.
    package var lastCopy: (rects: Int, bytes: Int) { (core.lastCopy.rects, core.lastCopy.bytes) }

    /// What every commit so far copied forward: rectangles and bytes.
    package var totalCopied: (rects: Int, bytes: Int) { (core.totalCopied.rects, core.totalCopied.bytes) }

    /// The window's buffers in device pixels and their scale, and how many pools of buffers were made
    /// so far (tests): a window has its first before its first configure, at the size it will most
    /// likely be given.
    package var pool: (width: Int, height: Int, scale: Int, made: Int)? {
        core.pool.map { ($0.width, $0.height, $0.scale, core.poolsMade) }
    }

    /// Waits until the first buffer's memory is made resident, then says whether the kernel took
    /// the advice (`nil`: no thread ran) and how many of the first buffer's pages are resident (tests).
    package func residentPages() -> (advised: Bool?, resident: Int, total: Int) {
        guard let pool = core.pool else { return (nil, 0, 0) }
        let advised = pool.waitForPrefault()
        let (resident, total) = pool.residentPages(ofBuffer: 0)
        return (advised, resident, total)
    }

    /// How many of the compositor's outputs the window is on (`wl_surface.enter` less `leave`).
    package var enteredOutputCount: Int { core.enteredOutputCount }

    /// The scale the compositor was last told (`wl_surface.set_buffer_scale`); 1 until then.
    package var committedBufferScale: Int { core.committedBufferScale }

    /// The focus layer's patches drawn and kept patches shown again, and where it is in points
    /// (`nil`: it shows nothing, or there is none).
    package var focusLayer: (drawn: Int, reused: Int, rect: (x: Int, y: Int, width: Int, height: Int)?) {
        (core.overlay?.patchesDrawn ?? 0, core.overlay?.patchesReused ?? 0, core.overlay?.shownRect)
    }

    /// Makes the focus layer's next patch fail as if no shared memory were left (tests).
    package func failNextFocusLayerPatch() {
        core.overlay?.failsNextPatch = true
    }
}
