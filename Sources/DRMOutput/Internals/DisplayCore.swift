internal import EventLoop
internal import LinuxSystem
internal import Seat
internal import Udev

/// What a display output draws with the core: the frame, into the buffer about to be shown, and
/// what it must forget when the buffers' contents are lost.
@MainActor
protocol DisplayDrawing: AnyObject {
    /// Draws the frame to show into a buffer (the back one).
    ///
    /// - Parameters:
    ///   - buffer: The buffer.
    ///   - index: Its index (0 or 1), for what each buffer missed.
    ///   - pointer: The pointer's hot spot, when shown: drawn over what is copied.
    ///   - mustShow: The mode is to be set: a frame is shown even when nothing changed.
    /// - Returns: What was copied into the buffer, or `nil` when there is nothing to show (no flip).
    func drawFrame(into buffer: DumbBuffer, index: Int, pointer: (x: Int, y: Int)?, mustShow: Bool) -> FrameCopy?
    /// The frame just drawn was not shown (the kernel refused it): it waits, and neither buffer can
    /// be trusted.
    func frameRefused()
    /// Neither buffer's contents are known (a flip given up): the next frame is copied whole.
    func buffersLost()
    /// The pointer moved, appeared or went: what it covered and covers is to be copied again.
    func pointerMoved(from old: (x: Int, y: Int)?, to new: (x: Int, y: Int)?)
    /// Another mode was adopted (new buffers when `resized`): the next frame is drawn whole.
    func modeAdopted(_ mode: DisplayMode, connector: DisplayConnector, resized: Bool)
    /// The seat is back: another program showed its own frame meanwhile.
    func seatEnabled()
}

/// What a frame copied into its buffer.
struct FrameCopy {
    var rects: [DisplayRect]
    var rows: Int

    /// Full-width rows: the canvas output's copies.
    init(rows ranges: [Range<Int>], width: Int) {
        rects = ranges.map { DisplayRect(x: 0, y: $0.lowerBound, width: width, height: $0.count) }
        rows = ranges.reduce(0) { $0 + $1.count }
    }

    /// Rectangles: the rows they touch counted once.
    init(rects: [DisplayRect]) {
        self.rects = rects
        var touched: [Range<Int>] = []
        for rect in rects.sorted(by: { $0.y < $1.y }) where !rect.isEmpty {
            if let last = touched.last, rect.y <= last.upperBound {
                touched[touched.count - 1] = last.lowerBound..<max(last.upperBound, rect.maxY)
            } else {
                touched.append(rect.y..<rect.maxY)
            }
        }
        rows = touched.reduce(0) { $0 + $1.count }
    }
}

/// The part of a display output that is the same whatever it draws: the device (through the seat,
/// or directly), the connector and mode, two dumb buffers, page flips paced by their events (one in
/// flight, a lost event given up after `FlipScheduler.flipTimeout`, no deadline while idle), the seat
/// going and coming back, displays plugged in, unplugged or changed, the pointer's position, and the
/// frames shown. Its ``DisplayDrawing`` draws each frame into the back buffer.
@MainActor
final class DisplayCore {
    let loop: EventLoop
    let device: any ScanoutDevice
    /// Who draws the frames.
    weak var drawing: (any DisplayDrawing)?
    private(set) var connector: DisplayConnector
    private(set) var mode: DisplayMode
    private(set) var buffers: [DumbBuffer]
    private(set) var back = 0
    private(set) var scheduler = FlipScheduler()
    private(set) var framesPresented = 0
    private(set) var flipsTimedOut = 0
    /// Why displays plugged in later are not followed, when they are not.
    private(set) var hotPlugNote: String?
    /// The pointer's hot spot in pixels while it is shown.
    private(set) var pointer: (x: Int, y: Int)?
    var onChange: ((DisplayChange) -> Void)?
    var onPresented: ((DisplayFrame) -> Void)?
    /// Called after ``onPresented`` for every frame on the screen: the output's own hook (a node
    /// output's `onFrameShown`).
    var frameShown: (() -> Void)?

    private let wantedSize: DisplayPixelSize?
    private var chosen: ConnectorChoice.Chosen
    /// The flip in flight: when drawing began and what was copied.
    private var inFlight: (started: Double, copy: FrameCopy)?
    private var watch: EventLoop.Watch?
    private var deadline: EventLoop.Deadline?
    private var seatObservation: SeatObservation?
    private var monitor: UdevMonitor?
    private var monitorWatch: EventLoop.Watch?
    /// The device's node with links resolved, as udev names it.
    private lazy var resolvedPath = Syscalls.resolvedPath(device.path) ?? device.path
    /// A flip given up after the timeout turned out to be on its way (a flip was refused `EBUSY`).
    private var awaitsLateFlip = false
    /// The last failure said, so that a retried frame does not say it again.
    private var lastFailure: DisplayError?
    /// Whether the seat was given (a refused call then means the seat is going).
    private let hasSeat: Bool

    /// Takes an opened device: two buffers of the chosen mode, the device's events and the flip
    /// deadline on the loop, the seat observed, hot-plug followed when asked.
    ///
    /// - Throws: ``DisplayError``: buffers that cannot be made, or the loop refusing the device's
    ///   descriptor (code ``DisplayError/Code/device``, with `epoll_ctl`'s errno).
    init(
        loop: EventLoop, device: any ScanoutDevice, chosen: ConnectorChoice.Chosen, seat: Seat?,
        options: DisplayOptions
    ) throws(DisplayError) {
        self.loop = loop
        self.device = device
        self.chosen = chosen
        wantedSize = options.modeSize
        connector = chosen.connector
        mode = chosen.mode
        hasSeat = seat != nil
        buffers = try Self.makeBuffers(device, chosen.mode)
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
    }

    /// Whether frames reach the screen now: the seat is here and the display connected.
    var isShowing: Bool { !scheduler.isPaused && !scheduler.isDisconnected }

    /// The screen's pixels.
    var bounds: DisplayRect { DisplayRect(x: 0, y: 0, width: mode.width, height: mode.height) }

    /// A frame is wanted: drawn now when no flip is on its way, else when it is done.
    func requestFrame() {
        if scheduler.frameRequested() { present() }
    }

    // MARK: - The pointer

    /// Shows the pointer with its tip at a position (clamped to the screen); only what it leaves and
    /// enters is copied again.
    func movePointer(toX x: Double, y: Double) {
        guard x.isFinite, y.isFinite else { return }
        let position = (
            Int(max(0, min(x, Double(mode.width - 1)))), Int(max(0, min(y, Double(mode.height - 1))))
        )
        if let pointer, pointer == position { return }
        pointerMoved(to: position)
    }

    /// Hides the pointer.
    func hidePointer() {
        guard pointer != nil else { return }
        pointerMoved(to: nil)
    }

    private func pointerMoved(to position: (x: Int, y: Int)?) {
        let old = pointer
        pointer = position
        drawing?.pointerMoved(from: old, to: position)
        requestFrame()
    }

    // MARK: - Drawing

    private func present() {
        guard scheduler.mayDraw, let drawing else { return }
        let started = Syscalls.monotonicNow()
        let buffer = buffers[back]
        guard
            let copy = drawing.drawFrame(
                into: buffer, index: back, pointer: pointer, mustShow: scheduler.needsModeset)
        else {
            scheduler.nothingToDraw()
            return
        }
        if scheduler.needsModeset {
            if let code = device.setCrtc(
                chosen.crtc, buffer: buffer, connector: connector.id, modeIndex: chosen.modeIndex)
            {
                return refused(code, what: "set the mode of \(connector.name)", modeSet: true)
            }
            lastFailure = nil
            scheduler.drew(flipped: false, at: started)
            back = 1 - back
            presented(started: started, shown: Syscalls.monotonicNow(), copy: copy, byModeSet: true)
        } else {
            if let code = device.pageFlip(chosen.crtc, buffer: buffer) {
                return refused(code, what: "flip to the next frame", modeSet: false)
            }
            lastFailure = nil
            scheduler.drew(flipped: true, at: started)
            inFlight = (started, copy)
        }
    }

    private func presented(started: Double, shown: Double, copy: FrameCopy, byModeSet: Bool) {
        framesPresented += 1
        onPresented?(
            DisplayFrame(
                number: framesPresented, started: started, shown: shown, rowsCopied: copy.rows,
                rectsCopied: copy.rects, byModeSet: byModeSet))
        frameShown?()
    }

    /// A mode set or flip the kernel refused. Without master while the app has a seat, the seat is
    /// going away (master goes before the seat manager says so): the output waits for it to come
    /// back. Otherwise (another program is master, a driver's error) the failure is said once and the
    /// frame waits: the next request tries again, with the mode set again if that was refused.
    private func refused(_ code: Errno, what: String, modeSet: Bool) {
        drawing?.frameRefused()
        if code == .resourceBusy, !modeSet {
            // The flip given up after the timeout is still on its way: its late event ends the wait
            // (it shows the buffer the output already took as shown, so nothing swaps).
            scheduler.drew(flipped: true, at: Syscalls.monotonicNow())
            inFlight = (Syscalls.monotonicNow(), FrameCopy(rects: []))
            awaitsLateFlip = true
            return
        }
        let notMaster = code == .permissionDenied || code == .notPermitted
        if notMaster, hasSeat {
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

    /// The device's events: a flip done swaps the buffers and draws the frame that waits.
    func readEvents() {
        for event in device.readEvents() where event.kind == .flipComplete {
            guard let flight = inFlight else { continue }
            inFlight = nil
            if awaitsLateFlip {
                awaitsLateFlip = false
                if scheduler.flipCompleted() { present() }
                continue
            }
            back = 1 - back
            presented(started: flight.started, shown: event.time, copy: flight.copy, byModeSet: false)
            if scheduler.flipCompleted() { present() }
        }
    }

    /// No flip event within the timeout: the flip is taken as done (or lost), both buffers as
    /// unknown, and the next frame is drawn whole.
    func flipTimedOut() {
        guard inFlight != nil else { return }
        inFlight = nil
        flipsTimedOut += 1
        // A late flip's own wait given up: the buffers stay as they were taken.
        if awaitsLateFlip { awaitsLateFlip = false } else { back = 1 - back }
        drawing?.buffersLost()
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
        drawing?.seatEnabled()
        var draws = scheduler.seatEnabled()
        if let connectors = try? device.connectors(probe: true) {
            draws = reconsider(connectors, forceModeset: true) || (draws && scheduler.mayDraw)
        }
        onChange?(.resumed)
        if draws { present() }
    }

    /// Reads the connectors again: an unplugged display pauses drawing, a display back, or in
    /// another mode, is drawn whole.
    func rescan() {
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
            back = 0
        }
        chosen = next
        connector = next.connector
        mode = next.mode
        drawing?.modeAdopted(mode, connector: connector, resized: resized)
        return true
    }

    // MARK: - Opening

    /// Opens the first device (or the one named) with a connected display that fits the options.
    static func open(options: DisplayOptions, seat: Seat?) throws(DisplayError) -> (
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
                return (device, try choose(on: device, options: options))
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

    /// The connector and mode the options ask for on a device.
    static func choose(on device: any ScanoutDevice, options: DisplayOptions) throws(DisplayError)
        -> ConnectorChoice.Chosen
    {
        let connectors = try device.connectors(probe: true)
        let size = options.modeSize.map { ($0.width, $0.height) }
        return try ConnectorChoice.choose(connectors, name: options.connector, size: size, path: device.path).get()
    }

    private static func makeBuffers(_ device: any ScanoutDevice, _ mode: DisplayMode) throws(DisplayError)
        -> [DumbBuffer]
    {
        [
            try device.makeBuffer(width: mode.width, height: mode.height),
            try device.makeBuffer(width: mode.width, height: mode.height),
        ]
    }
}
