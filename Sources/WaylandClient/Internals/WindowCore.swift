internal import CWayland
internal import CWaylandProtocols
internal import EventLoop
internal import Glibc
internal import Graphics
internal import LinuxSystem

/// The C side of ``WaylandWindow``: the surface and its roles, their listeners, the outputs it is
/// on and its buffer scale, the shm buffers.
@MainActor
final class WindowCore {
    let connection: WaylandConnection
    let options: WaylandWindow.Options
    private let display: DisplayCore
    private(set) var surface: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var userdata: CallbackUserdata<WindowCore>?
    private var frameCallback: OpaquePointer?
    private(set) var pool: ShmPool?
    /// How many pools were made (a new size or scale makes one; tests).
    private(set) var poolsMade = 0
    private var pendingSize: (Int, Int) = (0, 0)
    private var closed = false
    /// The loop's deadline for the first configure, until it comes.
    private var configureDeadline: EventLoop.Deadline?

    /// The outputs the surface is on (`wl_surface.enter`, less `leave`), as the display bound them.
    private var enteredOutputs: [UInt] = []
    /// Whether the surface has been on an output: until then its scale and a full-screen size are
    /// guessed from the outputs bound (a compositor sends `enter` only once the first buffer shows).
    private var hasEnteredAnOutput = false
    private var outputObserver: UInt64?
    /// The buffer scale the compositor was last told (`wl_surface.set_buffer_scale`); 1 until then.
    private(set) var committedBufferScale = 1

    /// The width in points (surface units).
    private(set) var width: Int
    /// The largest width or height of a buffer in device pixels; a larger configure is clamped to it, and a
    /// scale that would pass it is lowered.
    static let maximumSide = 8192
    /// The largest buffer scale used, whatever the outputs say.
    static let maximumScale = 8
    /// The height in points (surface units).
    private(set) var height: Int
    /// Device pixels per point: the largest scale of the outputs the surface is on; before it was ever
    /// on one, the largest of the outputs bound (1 with none).
    private(set) var scale = 1
    private(set) var configured = false
    private(set) var framePending = false
    private(set) var framesCommitted = 0
    private(set) var framesDone = 0
    private(set) var deferred: [Drawing] = []
    /// The rectangles the last commit damaged (in device pixels).
    private(set) var lastDamage: [PixelRect] = []
    /// What was copied from the front buffer before the last frame was drawn, and since the window was made.
    private(set) var lastCopy = ForwardCopy()
    private(set) var totalCopied = ForwardCopy()
    var onConfigure: ((Int, Int) -> Void)?
    var onResize: ((Int, Int) -> Void)?
    var onScaleChange: ((Int) -> Void)?
    var onFrameDone: (() -> Void)?
    var onClose: (() -> Void)?
    /// What the overlay shows in each frame, asked after the frame's drawings ran (`nil`: nothing);
    /// setting it makes the overlay when the compositor offers `wl_subcompositor`.
    /// Set to `nil` to stop: the next frame hides the overlay and lets it go.
    var overlayPlanner: (() -> OverlayPlan?)? {
        didSet {
            if overlayPlanner != nil, overlay == nil, let surface, !closed {
                overlay = FocusOverlay(display: display, parent: surface, window: self)
            }
        }
    }
    /// Called when the overlay could not show its plan (no shared memory for a patch), during the
    /// frame: the output stops leaving the focused item to it and returns a drawing of what that
    /// changes, drawn into the same frame; the overlay is then let go.
    var onOverlayFailure: (() -> ((PixelBuffer) -> [PixelRect])?)?
    /// The subsurface showing the focused item over the window, once ``overlayPlanner`` is set.
    private(set) var overlay: FocusOverlay?
    /// Whether the compositor offers subsurfaces (`wl_subcompositor`).
    var supportsOverlay: Bool { display.subcompositor != nil }

    /// How many outputs the surface is on.
    var enteredOutputCount: Int { enteredOutputs.count }

    /// The buffer's width in device pixels.
    var bufferWidth: Int { width * scale }
    /// The buffer's height in device pixels.
    var bufferHeight: Int { height * scale }

    init(connection: WaylandConnection, options: WaylandWindow.Options) throws(WaylandError) {
        self.connection = connection
        self.options = options
        display = connection.core
        width = min(max(options.defaultWidth, 1), Self.maximumSide)
        height = min(max(options.defaultHeight, 1), Self.maximumSide)
        if let error = display.disconnectError { throw error }
        let userdata = CallbackUserdata(retaining: self)
        self.userdata = userdata
        surface = wl_compositor_create_surface(display.compositor)
        wl_surface_add_listener(surface, surfaceListener, userdata.pointer)
        xdgSurface = xdg_wm_base_get_xdg_surface(display.wmBase, surface)
        xdg_surface_add_listener(xdgSurface, xdgSurfaceListener, userdata.pointer)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, toplevelListener, userdata.pointer)
        xdg_toplevel_set_title(toplevel, options.resolvedTitle)
        xdg_toplevel_set_app_id(toplevel, options.resolvedAppID)
        if options.fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) }
        wl_surface_commit(surface)
        flushOutsideBatch()
        outputObserver = display.addOutputObserver { [unowned self] in refreshScale() }
        refreshScale()
        preparePool()
        // A compositor that never configures the window would leave it undrawn forever, silently.
        let due = Syscalls.monotonicNow() + display.timeout
        configureDeadline = display.loop.addDeadline({ [unowned self] in configured || closed ? nil : due }) {
            [unowned self] now in
            guard !configured, !closed, now >= due else { return }
            removeConfigureDeadline()
            _ = display.fail(display.unanswered("the window's first configure (xdg_surface.configure)"))
        }
    }

    private func removeConfigureDeadline() {
        if let configureDeadline { display.loop.removeDeadline(configureDeadline) }
        configureDeadline = nil
    }

    // MARK: - Configure

    fileprivate func toplevelConfigured(width: Int32, height: Int32) {
        pendingSize = (Int(width), Int(height))
    }

    fileprivate func surfaceConfigured(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        // The compositor's size is untrusted: two buffers of at most 8192x8192 keep the pool's size in an Int32.
        // A zero side is the client's choice: a full-screen window takes its output's size in points
        // (sway 1.7's first configure of a full-screen window is 0x0: the default size there would make a
        // first frame of the wrong size, drawn for nothing).
        let chosen = configured ? (width, height) : initialSize()
        let newWidth = min(pendingSize.0 > 0 ? pendingSize.0 : chosen.0, Self.maximumSide)
        let newHeight = min(pendingSize.1 > 0 ? pendingSize.1 : chosen.1, Self.maximumSide)
        let resized = newWidth != width || newHeight != height
        width = newWidth
        height = newHeight
        configured = true
        removeConfigureDeadline()
        let committed = framesCommitted
        onConfigure?(width, height)
        if resized { onResize?(width, height) }
        // A new size may allow another scale (buffers are bounded in device pixels).
        refreshScale()
        drawDeferred()
        // The ack takes effect at the next commit, and a compositor may wait for it before it shows
        // the window (sway's transactions wait up to 200 ms for the commit after a configure's ack):
        // a drawn window that draws nothing for this configure, and has no frame waiting, commits
        // its surface as it is.
        if framesCommitted == committed, committed > 0, deferred.isEmpty, !closed {
            wl_surface_commit(surface)
            flushOutsideBatch()
        }
    }

    /// Makes the pool for the first frame now, at the size and scale it will most likely have (the
    /// size a configure of 0x0 leaves to the window: a full-screen window's output's), while the
    /// compositor answers the first commit, with its first buffer made resident on a thread: the
    /// first frame then writes into memory the kernel has already allocated. A configure of
    /// another size makes another pool, as a resize does.
    private func preparePool() {
        guard pool == nil, !configured else { return }
        let (pointWidth, pointHeight) = initialSize()
        let (newWidth, newHeight) = (min(pointWidth, Self.maximumSide), min(pointHeight, Self.maximumSide))
        let outputScale = display.outputs.map(\.scale).max() ?? 1
        let newScale = Self.bufferScale(outputScale: outputScale, width: newWidth, height: newHeight)
        pool = try? ShmPool(
            shm: display.shm, width: newWidth * newScale, height: newHeight * newScale, scale: newScale,
            format: options.format, window: self, prefaults: true)
        if pool != nil { poolsMade += 1 }
    }

    /// The size before the first configure that gives one: for a full-screen window, the size in points
    /// of the output it is on, or of the one output bound; else the options' default size.
    private func initialSize() -> (Int, Int) {
        let defaultSize = (max(options.defaultWidth, 1), max(options.defaultHeight, 1))
        guard options.fullscreen else { return defaultSize }
        let known = enteredOutputs.isEmpty ? display.outputs : enteredOutputs.compactMap { display.output($0) }
        guard known.count == 1, let size = known[0].pointSize, size.width > 0, size.height > 0 else {
            return defaultSize
        }
        return size
    }

    // MARK: - Outputs and scale

    fileprivate func entered(_ output: UInt?) {
        guard let output, display.output(output) != nil, !enteredOutputs.contains(output) else { return }
        enteredOutputs.append(output)
        hasEnteredAnOutput = true
        refreshScale()
    }

    fileprivate func left(_ output: UInt?) {
        guard let output, let index = enteredOutputs.firstIndex(of: output) else { return }
        enteredOutputs.remove(at: index)
        refreshScale()
    }

    /// The buffer scale for an output scale: at most ``maximumScale``, and lowered until a buffer of
    /// the window's size fits ``maximumSide``.
    static func bufferScale(outputScale: Int, width: Int, height: Int) -> Int {
        let fitting = maximumSide / max(width, height, 1)
        return max(1, min(outputScale, maximumScale, fitting))
    }

    /// Works out the scale again from the outputs the surface is on (an output that went away no
    /// longer counts), and reports a change: the app draws everything again.
    private func refreshScale() {
        guard !closed else { return }
        enteredOutputs.removeAll { display.output($0) == nil }
        // Before the surface was on an output, the one it will be on is unknown: the largest scale bound
        // draws the first frame sharp where it shows (one output: exactly its scale).
        let candidates = hasEnteredAnOutput ? enteredOutputs.compactMap { display.output($0) } : display.outputs
        let outputScale = candidates.map(\.scale).max() ?? 1
        let newScale = Self.bufferScale(outputScale: outputScale, width: width, height: height)
        guard newScale != scale else { return }
        scale = newScale
        onScaleChange?(scale)
    }

    fileprivate func closeRequested() {
        onClose?()
    }

    // MARK: - Frames

    /// A kept drawing, and whether it repaints every rectangle it returns whole, with opaque pixels,
    /// without reading what was there (``present(_:repaintsWhole:)``).
    struct Drawing {
        var draw: (PixelBuffer) -> [PixelRect]
        var repaintsWhole: Bool
    }

    /// Keeps a drawing for the next frame and draws it now when the window may.
    ///
    /// The buffer drawn into must first show the last frame where the drawing does not change it: it
    /// copies the rectangles it missed from the buffer on screen. A drawing that `repaintsWhole` never
    /// reads the pixels it draws over, so the buffer copies them afterwards, less what it drew (after
    /// a focus move, the two tiles a buffer missed are the two it draws again: nothing is copied).
    func present(_ draw: @escaping (PixelBuffer) -> [PixelRect], repaintsWhole: Bool = false) -> Bool {
        guard !closed, display.disconnectError == nil else { return false }
        deferred.append(Drawing(draw: draw, repaintsWhole: repaintsWhole))
        return drawDeferred()
    }

    /// Draws every kept drawing into a free buffer and commits it, when the window may draw now.
    @discardableResult
    private func drawDeferred() -> Bool {
        guard !deferred.isEmpty, configured, !framePending, !closed, display.disconnectError == nil else {
            return false
        }
        let (pixelWidth, pixelHeight) = (bufferWidth, bufferHeight)
        if pool == nil || pool?.width != pixelWidth || pool?.height != pixelHeight || pool?.scale != scale {
            // A new size or scale: the old pixels are of no use (at another scale even those of the same size).
            pool?.destroy()
            pool = nil
            do throws(WaylandError) {
                pool = try ShmPool(
                    shm: display.shm, width: pixelWidth, height: pixelHeight, scale: scale, format: options.format,
                    window: self)
                poolsMade += 1
            } catch {
                deferred.removeAll()
                return false
            }
        }
        guard let pool, let buffer = pool.freeBuffer() else { return false }
        let drawings = deferred
        deferred.removeAll()
        let front = pool.front
        // What the buffer missed: copied now, or after drawings that repaint whole, less what they drew
        // (then asked only when the buffer is committed: one not committed keeps what it missed).
        let copiesAfter = drawings.allSatisfy(\.repaintsWhole)
        lastCopy = ForwardCopy()
        if !copiesAfter, let front, let missed = buffer.missed(front: front, width: pixelWidth, height: pixelHeight) {
            lastCopy = buffer.copy(missed, from: front, stride: pool.stride)
        }
        // Never drawn and no frame to copy from (with one, it is copied from it, less what is drawn).
        let fullRedraw = buffer.needsFullRedraw && front == nil
        let bounds = PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)
        var drawn: [PixelRect] = []
        for drawing in drawings {
            let view = PixelBuffer(
                pixels: buffer.pixels, width: pixelWidth, height: pixelHeight, stride: pool.stride,
                format: options.format, scale: scale, needsFullRedraw: fullRedraw && drawn.isEmpty)
            drawn += drawing.draw(view).map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        }
        // The overlay's plan, after the drawings (they forget the patches their damage meets). A frame
        // that changes only the overlay (a focus move between items left to it) attaches no buffer.
        var overlayChanged = false
        var retired: FocusOverlay?
        if let overlay {
            if let changed = overlay.apply(
                overlayPlanner?(), scale: pool.scale, budget: pool.stride * pool.height)
            {
                overlayChanged = changed
            } else {
                // Its patch could not be shown: the overlay shows nothing, and the window draws the
                // item in this same frame.
                overlayChanged = true
                overlayPlanner = nil
                if let redraw = onOverlayFailure?() {
                    let view = PixelBuffer(
                        pixels: buffer.pixels, width: pixelWidth, height: pixelHeight, stride: pool.stride,
                        format: options.format, scale: scale, needsFullRedraw: false)
                    drawn += redraw(view).map { $0.intersection(bounds) }.filter { !$0.isEmpty }
                }
            }
            // No longer asked for (turned off, or failed): let go once it shows nothing.
            if overlayPlanner == nil, overlay.shownRect == nil {
                retired = overlay
                self.overlay = nil
            }
        }
        let attaches = fullRedraw || !drawn.isEmpty || overlay == nil
        guard attaches || overlayChanged else {
            lastDamage = []
            retired?.destroy()
            return false
        }
        lastDamage = []
        if attaches {
            let damage = fullRedraw ? [bounds] : PixelRect.coalesced(drawn, within: bounds)
            if copiesAfter, let front, let missed = buffer.missed(front: front, width: pixelWidth, height: pixelHeight)
            {
                // Less what was drawn (not the damage: more than 16 rectangles are damaged as their bounds).
                var rest = missed
                for rect in drawn { rest = rest.flatMap { $0.subtracting(rect) } }
                lastCopy = buffer.copy(rest, from: front, stride: pool.stride)
            }
            totalCopied.rects += lastCopy.rects
            totalCopied.bytes += lastCopy.bytes
            if pool.scale != committedBufferScale {
                // In the commit that attaches the first buffer of the new size: its size is a multiple of the scale.
                wl_surface_set_buffer_scale(surface, Int32(pool.scale))
                committedBufferScale = pool.scale
            }
            wl_surface_attach(surface, buffer.buffer, 0, 0)
            for rect in damage {
                wl_surface_damage_buffer(surface, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
            }
            pool.committed(buffer, damage: damage)
            lastDamage = damage
        }
        frameCallback = wl_surface_frame(surface)
        if let frameCallback, let userdata { wl_callback_add_listener(frameCallback, frameListener, userdata.pointer) }
        framePending = true
        wl_surface_commit(surface)
        framesCommitted += 1
        // After the commit that hid it: the subsurface and its buffers.
        retired?.destroy()
        flushOutsideBatch()
        return true
    }

    fileprivate func frameDone() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        framePending = false
        framesDone += 1
        drawDeferred()
        onFrameDone?()
    }

    fileprivate func bufferReleased() {
        drawDeferred()
    }

    private func flushOutsideBatch() {
        if !display.loop.isDispatchingBatch { display.flush() }
    }

    // MARK: - Closing

    func close() {
        guard !closed else { return }
        closed = true
        removeConfigureDeadline()
        if let outputObserver { display.removeOutputObserver(outputObserver) }
        outputObserver = nil
        enteredOutputs = []
        if let frameCallback { wl_callback_destroy(frameCallback) }
        overlay?.destroy()
        overlay = nil
        pool?.destroy()
        pool = nil
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        frameCallback = nil
        toplevel = nil
        xdgSurface = nil
        surface = nil
        userdata?.release()
        userdata = nil
        flushOutsideBatch()
    }
}

// MARK: - Listeners

private func window(_ data: UnsafeMutableRawPointer?) -> WindowCore? {
    CallbackUserdata<WindowCore>.target(from: data)
}

nonisolated(unsafe) private let xdgSurfaceListener = staticListener(
    xdg_surface_listener(configure: { data, _, serial in
        let target = window(data)

        MainActor.assumeIsolated { target?.surfaceConfigured(serial: serial) }
    }))

nonisolated(unsafe) private let toplevelListener = staticListener(
    xdg_toplevel_listener(
        configure: { data, _, width, height, _ in
            let target = window(data)

            MainActor.assumeIsolated { target?.toplevelConfigured(width: width, height: height) }
        },
        close: { data, _ in
            let target = window(data)

            MainActor.assumeIsolated { target?.closeRequested() }
        },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in }))

nonisolated(unsafe) private let surfaceListener = staticListener(
    wl_surface_listener(
        enter: { data, _, output in
            let target = window(data)
            let output = output.map { UInt(bitPattern: $0) }

            MainActor.assumeIsolated { target?.entered(output) }
        },
        leave: { data, _, output in
            let target = window(data)
            let output = output.map { UInt(bitPattern: $0) }

            MainActor.assumeIsolated { target?.left(output) }
        }))

nonisolated(unsafe) private let frameListener = staticListener(
    wl_callback_listener(done: { data, _, _ in
        let target = window(data)

        MainActor.assumeIsolated { target?.frameDone() }
    }))

/// A buffer's release goes to the window through the buffer's userdata.
nonisolated(unsafe) let bufferListener = staticListener(
    wl_buffer_listener(release: { data, _ in
        let buffer = CallbackUserdata<ShmBuffer>.target(from: data)
        MainActor.assumeIsolated {
            guard let buffer else { return }
            buffer.busy = false
            buffer.window?.bufferReleased()
        }
    }))
