public import EventLoop
internal import LinuxSystem
public import PixelCanvas
public import ResponderChain
public import Seat
public import TerminalCanvas
internal import Udev

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
public final class DRMCanvasOutput: CanvasOutput {
    /// Which device, connector and mode to use.
    public struct Options: Hashable, Sendable {
        /// The DRM device, such as `/dev/dri/card1`; `nil` for the first with a connected display.
        public var device: String?
        /// The connector, such as `HDMI-A-1`; `nil` for the first connected one.
        public var connector: String?
        /// The mode's size in pixels; `nil` for the display's preferred mode (its native resolution).
        public var modeSize: PixelSize?
        /// Whether a display plugged in, unplugged or changed is followed: udev's `change` events of
        /// the device (the kernel's hot-plug events) call ``DRMCanvasOutput/rescan()``. On by default.
        public var followsHotPlug = true

        /// The first connected display in its preferred mode.
        ///
        /// - Parameters:
        ///   - device: The DRM device, or `nil`.
        ///   - connector: The connector, or `nil`.
        ///   - modeSize: The mode's size, or `nil`.
        public init(device: String? = nil, connector: String? = nil, modeSize: PixelSize? = nil) {
            self.device = device
            self.connector = connector
            self.modeSize = modeSize
        }
    }

    /// A size in pixels.
    public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
        /// Pixels across.
        public var width: Int
        /// Pixels down.
        public var height: Int

        /// A size.
        ///
        /// - Parameters:
        ///   - width: Pixels across.
        ///   - height: Pixels down.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// `1280x800`.
        public var description: String { "\(width)x\(height)" }
    }

    /// Something that happened to the display.
    public enum Change: Hashable, Sendable {
        /// The seat was taken away (another VT): nothing is drawn until it is back.
        case paused
        /// The seat is back: the mode was set again and the whole frame drawn.
        case resumed
        /// The display was unplugged (its connector reads disconnected).
        case disconnected(connector: String)
        /// A display is connected (again), or its mode changed: drawn whole in this mode.
        case connected(connector: String, mode: DisplayMode)
        /// Drawing was refused or failed (said once until a frame is shown again): another program
        /// is DRM master, the driver refused, the display does not offer the mode asked for. The
        /// frame waits; the next ``DRMCanvasOutput/show(_:)`` tries again.
        case failed(DisplayError)
    }

    /// A frame that reached the screen.
    public struct PresentedFrame: Hashable, Sendable {
        /// Its number, from 1.
        public var number: Int
        /// When drawing it began (`CLOCK_MONOTONIC` seconds).
        public var started: Double
        /// When it was on the screen: the flip event's time, or the end of the mode set.
        public var shown: Double
        /// How many pixel rows were copied into the buffer (all of them for a whole frame).
        public var rowsCopied: Int
        /// Whether it was shown by setting the mode (the first frame, after a VT switch or a
        /// hot-plug) rather than a flip.
        public var byModeSet: Bool
    }

    /// The renderer: font, cell size, palette.
    public let renderer: PixelRenderer
    /// The device drawn on.
    public var devicePath: String { device.path }
    /// The connector drawn on, as last read.
    public private(set) var connector: DisplayConnector
    /// The mode set.
    public private(set) var mode: DisplayMode
    /// Called when ``size`` changed (a display of another mode plugged in): draw a frame of the new size.
    public var onResize: (() -> Void)?
    /// Called with every ``Change``.
    public var onChange: ((Change) -> Void)?
    /// Called for every frame on the screen (for figures: key to flip).
    public var onPresented: ((PresentedFrame) -> Void)?
    /// How many frames reached the screen.
    public private(set) var framesPresented = 0
    /// How many flips were given up after a second without their event (the next frame was drawn whole).
    public private(set) var flipsTimedOut = 0

    private let loop: EventLoop
    private let device: KMSDevice
    private let wantedSize: PixelSize?
    private var chosen: ConnectorChoice.Chosen
    private var buffers: [DumbBuffer]
    private var back = 0
    private var shadow: UnsafeMutableRawBufferPointer
    /// The canvas the shadow holds (`nil`: unknown, the next render is whole).
    private var shadowCanvas: Canvas?
    /// The canvas waiting to be drawn.
    private var latest: Canvas?
    private var scheduler = FlipScheduler()
    private var stale: StaleRows
    /// The flip in flight: when drawing began and the rows copied.
    private var inFlight: (started: Double, rows: Int)?
    private var watch: EventLoop.Watch?
    private var deadline: EventLoop.Deadline?
    private var seatObservation: SeatObservation?
    private var monitor: UdevMonitor?
    /// The device's node with links resolved, as udev names it.
    private lazy var resolvedPath = Syscalls.resolvedPath(device.path) ?? device.path
    private var monitorWatch: EventLoop.Watch?
    /// Why displays plugged in later are not followed (no netlink in a container), when they are not.
    public private(set) var hotPlugNote: String?
    /// A flip given up after the timeout turned out to be on its way (a flip was refused `EBUSY`).
    private var awaitsLateFlip = false
    /// The last failure said, so that a retried frame does not say it again.
    private var lastFailure: DisplayError?
    /// The pointer's hot spot in pixels while it is shown.
    private var pointer: (x: Int, y: Int)?

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
    public init(loop: EventLoop, renderer: PixelRenderer, seat: Seat? = nil, options: Options = Options())
        throws(DisplayError)
    {
        self.loop = loop
        self.renderer = renderer
        wantedSize = options.modeSize
        let size = options.modeSize.map { ($0.width, $0.height) }
        let (device, chosen) = try Self.open(options: options, size: size, seat: seat)
        self.device = device
        self.chosen = chosen
        connector = chosen.connector
        mode = chosen.mode
        buffers = try Self.makeBuffers(device, chosen.mode)
        shadow = Self.makeShadow(chosen.mode)
        stale = StaleRows(height: chosen.mode.height)
        do { watch = try loop.watch(device.fileDescriptor) { [unowned self] in self.readEvents() } } catch {
            throw DisplayError(
                code: .device, path: device.path, errno: error.errno,
                message: "\(device.path)'s flip events: \(error.message)")
        }
        deadline = loop.addDeadline({ [unowned self] in self.scheduler.deadline }) { [unowned self] _ in
            self.flipTimedOut()
        }
        seatObservation = seat?.observe(
            .output, onDisable: { [unowned self] in self.seatDisabled() },
            onEnable: { [unowned self] in self.seatEnabled() })
        if options.followsHotPlug {
            do {
                let monitor = try UdevMonitor(subsystem: "drm")
                monitorWatch = try loop.watch(monitor.fileDescriptor) { [unowned self] in self.hotPlugEvents() }
                self.monitor = monitor
            } catch {
                hotPlugNote = "displays plugged in later are not followed: \(error.message)"
            }
        }
    }

    isolated deinit {
        if let watch { loop.unwatch(watch) }
        if let deadline { loop.removeDeadline(deadline) }
        if let monitorWatch { loop.unwatch(monitorWatch) }
        seatObservation?.cancel()
        shadow.deallocate()
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
    public var isShowing: Bool { !scheduler.isPaused && !scheduler.isDisconnected }

    /// Draws the canvas: now when no flip is on its way, else when it is done (only the newest
    /// canvas is kept meanwhile). A canvas equal to the one shown draws nothing.
    ///
    /// - Parameter canvas: The frame.
    public func show(_ canvas: Canvas) {
        if latest == nil, canvas == shadowCanvas, !scheduler.needsModeset { return }
        latest = canvas
        if scheduler.frameRequested() { present() }
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
        guard x.isFinite, y.isFinite else { return }
        let position = (
            Int(max(0, min(x, Double(mode.width - 1)))), Int(max(0, min(y, Double(mode.height - 1))))
        )
        if let pointer, pointer == position { return }
        pointerMoved(to: position)
    }

    /// Hides the mouse pointer (a touch, or no mouse left), as Qt's eglfs does.
    public func hidePointer() {
        guard pointer != nil else { return }
        pointerMoved(to: nil)
    }

    /// Whether the pointer is shown, and where (its tip in pixels).
    public var pointerPosition: (x: Int, y: Int)? { pointer }

    private func pointerMoved(to position: (x: Int, y: Int)?) {
        var rows: [Range<Int>] = []
        if let pointer { rows.append(PointerSprite.rows(at: pointer.y, screenHeight: mode.height)) }
        if let position { rows.append(PointerSprite.rows(at: position.y, screenHeight: mode.height)) }
        pointer = position
        stale.add(rows)
        if scheduler.frameRequested() { present() }
    }

    /// Reads the connectors again (a display plugged in, unplugged or changed: udev's `change`
    /// event of the card): an unplugged display pauses drawing, a display back, or in another
    /// mode, is drawn whole (``onResize`` first when the size changed).
    public func rescan() {
        let connectors: [DisplayConnector]
        do { connectors = try device.connectors(probe: true) } catch {
            onChange?(.failed(error))
            return
        }
        if reconsider(connectors, forceModeset: false) { present() }
    }

    /// What the connectors read now mean: the display gone (drawing paused, said once), back or in
    /// another mode (new buffers when the size changed, the mode set again and the whole frame drawn),
    /// or as it was. Returns whether to draw now.
    private func reconsider(_ connectors: [DisplayConnector], forceModeset: Bool) -> Bool {
        let wasDisconnected = scheduler.isDisconnected
        switch ConnectorChoice.choose(
            connectors, name: connector.name, size: wantedSize.map { ($0.width, $0.height) }, path: device.path)
        {
        case .failure(let error):
            connector = connectors.first(where: { $0.name == connector.name }) ?? connector
            guard !wasDisconnected else { return false }
            scheduler.disconnected()
            // Gone, or still there without the mode asked for: either way nothing can be shown on it.
            if connector.isConnected {
                onChange?(.failed(error))
            } else {
                onChange?(.disconnected(connector: connector.name))
            }
            return false
        case .success(let next):
            let changed = next.mode != mode || next.crtc != chosen.crtc
            connector = next.connector
            guard wasDisconnected || changed || forceModeset else {
                chosen = next
                return false
            }
            // The mode set is armed before the app is asked for a frame of the new size.
            var draws = scheduler.connected()
            if changed { draws = adopt(next) && draws }
            if wasDisconnected || changed { onChange?(.connected(connector: connector.name, mode: mode)) }
            return draws
        }
    }

    /// udev's events of the `drm` subsystem: a change of this device (the kernel's hot-plug event,
    /// or a connector's status forced through sysfs and announced) reads the connectors again.
    private func hotPlugEvents() {
        guard let monitor else { return }
        var changed = false
        for event in monitor.receive() where event.action == .change && event.device.path == resolvedPath {
            changed = true
        }
        // While the seat is away the connectors are read again when it comes back.
        if changed, !scheduler.isPaused { rescan() }
    }

    // MARK: - Drawing

    private func present() {
        guard scheduler.mayDraw, let canvas = latest ?? shadowCanvas else { return }
        latest = nil
        let started = Syscalls.monotonicNow()
        let damage = renderer.render(
            canvas, into: shadow, width: mode.width, height: mode.height, stride: mode.width * 4,
            previous: shadowCanvas)
        shadowCanvas = canvas
        stale.add(damage)
        let buffer = buffers[back]
        let rows = stale.take(buffer: back)
        copy(rows, into: buffer)
        let copied = rows.reduce(0) { $0 + $1.count }
        if scheduler.needsModeset {
            if let code = device.setCrtc(
                chosen.crtc, buffer: buffer, connector: connector.id, modeIndex: chosen.modeIndex)
            {
                return refused(code, what: "set the mode of \(connector.name)", canvas: canvas, modeSet: true)
            }
            lastFailure = nil
            scheduler.drew(flipped: false, at: started)
            back = 1 - back
            presented(started: started, shown: Syscalls.monotonicNow(), rows: copied, byModeSet: true)
        } else {
            if let code = device.pageFlip(chosen.crtc, buffer: buffer) {
                return refused(code, what: "flip to the next frame", canvas: canvas, modeSet: false)
            }
            lastFailure = nil
            scheduler.drew(flipped: true, at: started)
            inFlight = (started, copied)
        }
    }

    private func copy(_ rows: [Range<Int>], into buffer: DumbBuffer) {
        let width = mode.width * 4
        guard let source = shadow.baseAddress, let target = buffer.pixels.baseAddress else { return }
        for range in rows {
            for row in range where row < buffer.height {
                let line = target + row * buffer.pitch
                line.copyMemory(from: source + row * width, byteCount: width)
                if let pointer {
                    PointerSprite.draw(row: row, x: pointer.x, y: pointer.y, into: line, width: mode.width)
                }
            }
        }
    }

    private func presented(started: Double, shown: Double, rows: Int, byModeSet: Bool) {
        framesPresented += 1
        onPresented?(
            PresentedFrame(
                number: framesPresented, started: started, shown: shown, rowsCopied: rows, byModeSet: byModeSet))
    }

    /// A mode set or flip the kernel refused. Without master while the app has a seat, the seat is
    /// going away (master goes before the seat manager says so): the output waits for it to come
    /// back. Otherwise (another program is master, a driver's error) the failure is said once and the
    /// frame waits: the next ``show(_:)`` tries again, with the mode set again if that was refused.
    private func refused(_ code: Errno, what: String, canvas: Canvas, modeSet: Bool) {
        // The shadow holds the canvas; the buffer that was to show it is stale again.
        latest = latest ?? canvas
        stale.addAll()
        if code == .resourceBusy, !modeSet {
            // The flip given up after the timeout is still on its way: its late event ends the wait
            // (it shows the buffer the output already took as shown, so nothing swaps).
            scheduler.drew(flipped: true, at: Syscalls.monotonicNow())
            inFlight = (Syscalls.monotonicNow(), 0)
            awaitsLateFlip = true
            return
        }
        let notMaster = code == .permissionDenied || code == .notPermitted
        if notMaster, seatObservation != nil {
            scheduler.refused()
            return
        }
        scheduler.failed(modeSet: modeSet)
        let error =
            notMaster
            ? DisplayError.notMaster(device.path, errno: code)
            : DisplayError(
                code: .device, path: device.path, errno: code,
                message: "could not \(what) on \(device.path) (\(code))")
        guard error != lastFailure else { return }
        lastFailure = error
        onChange?(.failed(error))
    }

    private func readEvents() {
        for event in device.readEvents() where event.kind == .flipComplete {
            guard let flight = inFlight else { continue }
            inFlight = nil
            if awaitsLateFlip {
                awaitsLateFlip = false
                if scheduler.flipCompleted() { present() }
                continue
            }
            back = 1 - back
            presented(started: flight.started, shown: event.time, rows: flight.rows, byModeSet: false)
            if scheduler.flipCompleted() { present() }
        }
    }

    /// No flip event within the timeout: the flip is taken as done (or lost), both buffers as
    /// unknown, and the next frame is drawn whole.
    private func flipTimedOut() {
        guard inFlight != nil else { return }
        inFlight = nil
        flipsTimedOut += 1
        // A late flip's own wait given up: the buffers stay as they were taken.
        if awaitsLateFlip { awaitsLateFlip = false } else { back = 1 - back }
        stale.addAll()
        latest = latest ?? shadowCanvas
        if scheduler.flipCompleted() { present() }
    }

    // MARK: - The seat and the connectors

    private func seatDisabled() {
        scheduler.seatDisabled()
        onChange?(.paused)
    }

    private func seatEnabled() {
        // Another program showed its own framebuffer meanwhile (the console's): the mode is set
        // again and the whole frame drawn, and a display unplugged, plugged back or changed while
        // away is taken as it is now.
        stale.addAll()
        shadowCanvas = nil
        var draws = scheduler.seatEnabled()
        if let connectors = try? device.connectors(probe: true) {
            draws = reconsider(connectors, forceModeset: true) || (draws && scheduler.mayDraw)
        }
        onChange?(.resumed)
        if draws { present() }
    }

    /// Takes a new connector choice: new buffers when the size changed. Returns `false` when they
    /// could not be made (the old choice is kept, drawing paused, the failure reported).
    private func adopt(_ next: ConnectorChoice.Chosen) -> Bool {
        let resized = next.mode.width != mode.width || next.mode.height != mode.height
        if resized {
            do {
                buffers = try Self.makeBuffers(device, next.mode)
            } catch {
                scheduler.disconnected()
                onChange?(.failed(error))
                return false
            }
            shadow.deallocate()
            shadow = Self.makeShadow(next.mode)
            back = 0
        }
        chosen = next
        connector = next.connector
        mode = next.mode
        stale = StaleRows(height: mode.height)
        shadowCanvas = nil
        if resized { onResize?() }
        return true
    }

    private static func open(options: Options, size: (Int, Int)?, seat: Seat?) throws(DisplayError) -> (
        KMSDevice, ConnectorChoice.Chosen
    ) {
        let paths = options.device.map { [$0] } ?? KMSDevice.cardPaths()
        guard !paths.isEmpty else {
            throw DisplayError(code: .noDevice, message: "no DRM device: /dev/dri has no card; \(KMSDevice.driverFix)")
        }
        var failures: [DisplayError] = []
        for path in paths {
            do {
                let device = try KMSDevice(path: path, seat: seat)
                let connectors = try device.connectors(probe: true)
                switch ConnectorChoice.choose(connectors, name: options.connector, size: size, path: path) {
                case .success(let chosen): return (device, chosen)
                case .failure(let error): failures.append(error)
                }
            } catch {
                failures.append(error)
            }
        }
        // The most telling failure: a permission problem, else the first.
        if failures.count == 1 { throw failures[0] }
        let first = failures.first(where: { $0.code == .permission }) ?? failures[0]
        throw DisplayError(
            code: first.code, path: first.path, errno: first.errno,
            message: failures.map(\.message).joined(separator: "; "))
    }

    private static func makeBuffers(_ device: KMSDevice, _ mode: DisplayMode) throws(DisplayError) -> [DumbBuffer] {
        [
            try device.makeBuffer(width: mode.width, height: mode.height),
            try device.makeBuffer(width: mode.width, height: mode.height),
        ]
    }

    private static func makeShadow(_ mode: DisplayMode) -> UnsafeMutableRawBufferPointer {
        let shadow = UnsafeMutableRawBufferPointer.allocate(byteCount: mode.width * mode.height * 4, alignment: 16)
        shadow.initializeMemory(as: UInt8.self, repeating: 0)
        return shadow
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
