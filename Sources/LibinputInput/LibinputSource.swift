internal import CInput
public import EventLoop
public import LinuxSystem
public import ResponderChain
public import Seat
internal import Udev

/// Reads touch screens, mice, touchpads and tablets through libinput and feeds an app's
/// focus tree: taps and clicks hit-test it as a Wayland window's do. An input source on an
/// `EventLoop`, beside `EvdevSource`, which keeps the keyboards, keypads, remotes and gamepads:
/// every device node has one reader.
///
/// libinput does what it is made for: calibration from udev's `LIBINPUT_CALIBRATION_MATRIX`,
/// touch slots, pointer acceleration, palm detection, tap-to-click. Its path backend is fed by
/// the Udev module's enumeration and monitor: only nodes udev tags `ID_INPUT_TOUCHSCREEN`,
/// `_MOUSE`, `_TABLET` or `_TOUCHPAD` on the app's seat. They are opened through the app's `Seat`
/// when it has one (seatd or logind, for an ordinary user), else directly; the source follows the
/// seat: a VT switch away cancels every touch and click, and the devices come back with it.
/// libinput's errors are reported as device changes (`failed`). libinput needs udevd: without it
/// ``start()`` says so instead of seeing nothing.
///
/// On a display, beside a `DRMCanvasOutput`:
///
/// ```swift
/// let seat = try Seat()
/// try loop.watch(seat.fileDescriptor) { seat.dispatch() }   // VT switches reach the observers
/// let output = try DRMCanvasOutput(loop: loop, renderer: renderer, seat: seat)
/// let pointer = LibinputSource(loop: loop, context: application.inputContext, seat: seat)
/// pointer.surface = output    // pixels → the window's cells; the display draws the cursor
/// application.add(pointer)
/// ```
///
/// Isolated to the main actor, like the dispatcher it feeds and the loop it runs on.
@MainActor
public final class LibinputSource {
    /// What the source reads.
    public struct Options: Hashable, Sendable {
        /// Which devices: empty for every touch screen, mouse, touchpad and tablet on the seat;
        /// else device paths (`/dev/input/event5`, a `/dev/input/by-id/…` link) or names (exact,
        /// or a case-insensitive part of the name).
        public var devices: [String]
        /// Whether devices plugged in later are read, and unplugged ones let go.
        public var hotPlug: Bool
        /// Whether a touchpad's tap clicks (libinput leaves it off by default).
        public var tapToClick: Bool
        /// The seat whose devices are read (udev's `ID_SEAT`); `nil`: the `Seat`'s, else `seat0`.
        public var seatName: String?
        /// The connector the app's display uses (`HDMI-A-1`): a touch screen whose udev
        /// `WL_OUTPUT` names another one is ignored. `nil`: every device is read.
        public var outputName: String?
        /// How long a button's release waits before it clicks, in seconds, so that a mouse
        /// unplugged mid-press does not click: the kernel releases its buttons itself just before
        /// it goes, which libinput may pass on a dispatch before the removal
        /// (``LibinputDecoder/releaseGrace``).
        public var releaseGrace: Double = 0.05

        /// Creates options.
        ///
        /// - Parameters:
        ///   - devices: Paths or names; empty for every pointing device.
        ///   - hotPlug: Follow plugging and unplugging.
        ///   - tapToClick: A touchpad's tap clicks.
        ///   - seatName: The seat whose devices are read.
        ///   - outputName: The display's connector.
        public init(
            devices: [String] = [], hotPlug: Bool = true, tapToClick: Bool = true, seatName: String? = nil,
            outputName: String? = nil
        ) {
            self.devices = devices
            self.hotPlug = hotPlug
            self.tapToClick = tapToClick
            self.seatName = seatName
            self.outputName = outputName
        }
    }

    /// The loop the devices are watched on.
    public let loop: EventLoop
    /// Where the input goes.
    public let context: InputContext
    /// The app's seat, when devices are opened through it.
    public let seat: Seat?
    /// The options.
    public let options: Options
    /// Called with every device change (an app runtime sets it).
    public var onDeviceChange: ((InputDeviceChange) -> Void)?
    /// The output the pointer and fingers land on (a `DRMCanvasOutput`): its pixel size is what
    /// touch and absolute positions are scaled to (libinput's `*_transformed`), positions map
    /// through it to the window's coordinate space, and it draws the cursor. `nil` (the default):
    /// positions are fractions of the device's range, unmapped, and no cursor is drawn. Held
    /// strongly: an output holds no source, so nothing is kept in a cycle.
    public var surface: (any PointerSurface)? {
        didSet {
            decoder.screen = { [weak self] in self?.surface?.pointerArea }
            decoder.mapPoint = { [weak self] x, y in self?.surface?.windowPoint(x: x, y: y) ?? Point(x: x, y: y) }
            decoder.onCursor = { [weak self] position in self?.surface?.showCursor(at: position) }
        }
    }

    /// The decoder the events go through.
    public let decoder: LibinputDecoder
    private var libinput: LibinputContext?
    private var libinputWatch: EventLoop.Watch?
    private var monitor: UdevMonitor?
    private var monitorWatch: EventLoop.Watch?
    private var seatObservation: SeatObservation?
    private var releaseDeadline: EventLoop.Deadline?
    /// Whether udevd runs (a test stands in for it).
    var udevIsRunning: () -> Bool = { UdevEnumeration.udevIsRunning }
    /// What udev says of the nodes given to libinput.
    private var known: [String: UdevDevice] = [:]

    /// Creates a source; nothing is opened until ``start()``.
    ///
    /// - Parameters:
    ///   - loop: The loop the devices are watched on.
    ///   - context: Where the input goes (`Application.inputContext`).
    ///   - seat: The app's seat, shared with its keyboards and display: devices are opened through
    ///     it, and the source follows it. `nil`: devices are opened directly (root, or the
    ///     `input` group).
    ///   - options: What to read.
    public init(loop: EventLoop, context: InputContext, seat: Seat? = nil, options: Options = Options()) {
        self.loop = loop
        self.context = context
        self.seat = seat
        self.options = options
        decoder = LibinputDecoder(sink: context.sink, makeDeviceID: context.makeDeviceID)
        decoder.outputName = options.outputName
        decoder.releaseGrace = options.releaseGrace
        decoder.onDeviceChange = { [unowned self] change in self.onDeviceChange?(change) }
    }

    isolated deinit {
        if let releaseDeadline { loop.removeDeadline(releaseDeadline) }
        if let libinputWatch { loop.unwatch(libinputWatch) }
        if let monitorWatch { loop.unwatch(monitorWatch) }
        seatObservation?.cancel()
    }

    /// The seat whose devices are read.
    public var activeSeatName: String { options.seatName ?? seat?.name ?? "seat0" }

    /// The devices read now.
    public var devices: [InputDeviceInfo] { decoder.deviceInfos }

    /// Creates libinput's context, adds the pointing devices udev lists and, with hot-plug, follows
    /// the `input` subsystem; watches them on ``loop``.
    ///
    /// - Throws: `InputError` when udevd does not run (libinput reads only devices udev tagged),
    ///   when libudev cannot list devices, when libinput cannot start, or the loop's error when it
    ///   cannot watch libinput's descriptor.
    public func start() throws(InputError) {
        guard libinput == nil else { return }
        guard udevIsRunning() else {
            throw InputError(
                operation: "libinput", path: "/run/udev/control",
                message: "touch and pointer need udevd: libinput reads only devices udev tagged (ID_INPUT_*), "
                    + "and no udevd runs here. Start systemd-udevd (or eudev's udevd), or leave touch and pointer off")
        }
        let devices = try UdevEnumeration.inputDevices()
        guard let libinput = LibinputContext(seat: seat) else {
            throw InputError(
                operation: "libinput", path: nil,
                message: "libinput could not create its context (libinput_path_create_context failed: out of memory?)")
        }
        // Before it is kept: a start the loop refuses may be tried again.
        libinputWatch = try loop.watch(libinput.fileDescriptor) { [unowned self] _ in self.readEvents() }
        self.libinput = libinput
        // Only while a release waits out its grace: an idle source never wakes the loop.
        releaseDeadline = loop.addDeadline({ [unowned decoder] in decoder.nextDeadline }) { [unowned decoder] now in
            decoder.flush(now: now)
        }
        if let seat {
            seatObservation = seat.observe(
                .input, onDisable: { [unowned self] in self.seatDisabled() },
                onEnable: { [unowned self] in self.seatEnabled() })
        }
        if options.hotPlug {
            do {
                let monitor = try UdevMonitor(subsystem: "input")
                monitorWatch = try loop.watch(monitor.fileDescriptor) { [unowned self] _ in self.handleMonitor() }
                self.monitor = monitor
            } catch {
                onDeviceChange?(.hotPlugUnavailable(message: error.message))
            }
        }
        for device in devices where wants(device) { add(device) }
        readEvents()
    }

    /// Lets every device go: touches and the button end `cancel`, each device is reported
    /// removed. The source may be started again.
    public func stop() {
        guard let libinput else { return }
        decoder.cancelAll(time: Syscalls.monotonicNow())
        if let libinputWatch { loop.unwatch(libinputWatch) }
        if let monitorWatch { loop.unwatch(monitorWatch) }
        if let releaseDeadline { loop.removeDeadline(releaseDeadline) }
        releaseDeadline = nil
        libinputWatch = nil
        monitorWatch = nil
        monitor = nil
        seatObservation?.cancel()
        seatObservation = nil
        decode(libinput.dispatch(screen: nil, kind: kind, outputName: outputName, tapToClick: false))
        for path in libinput.paths { libinput.remove(path: path) }
        decode(libinput.dispatch(screen: nil, kind: kind, outputName: outputName, tapToClick: false))
        decoder.removeAll()
        known.removeAll()
        self.libinput = nil
    }

    // MARK: - Devices

    /// Whether a device is one of ours: an evdev node udev tagged as pointing, on our seat, and
    /// selected by the options.
    func wants(_ device: UdevDevice) -> Bool {
        guard let path = device.path, device.isEventNode else { return false }
        if selects(node: path) { return true }
        // A node EvdevSource reads (a keyboard; a gamepad; a remote with keys and a pointer on one node,
        // an "air mouse", which it classifies by its keys) is never opened here too: one reader a node.
        guard device.isTaggedInput, !device.inputClasses.isDisjoint(with: .pointing),
            device.inputClasses.isDisjoint(with: [.keyboard, .joystick]),
            !device.inputClasses.isSuperset(of: [.key, .mouse]), device.seat == activeSeatName
        else { return false }
        return options.devices.isEmpty || matches(name: device.name)
    }

    private func add(_ device: UdevDevice) {
        guard let libinput, let path = device.path, !libinput.paths.contains(path) else { return }
        known[path] = device
        if !libinput.add(path: path) {
            known[path] = nil
            let logged = libinput.takeLogged()
            onDeviceChange?(
                .failed(
                    path: path,
                    message: "libinput would not read \(device.name.isEmpty ? path : device.name)"
                        + (logged.isEmpty ? "" : ": " + logged.joined(separator: "; "))))
        }
    }

    private func handleMonitor() {
        guard let monitor else { return }
        for event in monitor.receive() {
            guard let path = event.device.path, event.device.isEventNode else { continue }
            switch event.action {
            case .add:
                if wants(event.device), seat?.isEnabled ?? true { add(event.device) }
            case .remove:
                // libinput usually sees the node go (ENODEV) itself: what it read is decoded first,
                // and a device it removed already is not removed again.
                readEvents()
                libinput?.remove(path: path)
                known[path] = nil
            default:
                break
            }
        }
        readEvents()
    }

    private func kind(_ path: String, _ device: OpaquePointer) -> LibinputDeviceKind {
        let classes = known[path]?.inputClasses ?? []
        if classes.contains(.touchscreen) || libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 {
            return .touchscreen
        }
        if classes.contains(.touchpad) { return .touchpad }
        if classes.contains(.tablet) && !classes.contains(.mouse) { return .tablet }
        return .mouse
    }

    private func outputName(_ path: String) -> String? { known[path]?.outputName }

    // MARK: - Events

    /// One `libinput_dispatch`: its events decoded as one batch, then libinput's logged errors.
    private func readEvents() {
        guard let libinput else { return }
        decode(
            libinput.dispatch(
                screen: decoder.screen(), kind: kind, outputName: outputName, tapToClick: options.tapToClick))
    }

    private func decode(_ batch: [LibinputEvent]) {
        if !batch.isEmpty { decoder.receive(batch: batch) }
        guard let libinput else { return }
        for line in libinput.takeLogged() { onDeviceChange?(.failed(path: "libinput", message: line)) }
    }

    /// The seat was taken away: libinput lets every device go (touches cancelled, buttons
    /// released and, by the batch rule, cancelled), and anything left is cancelled.
    private func seatDisabled() {
        guard let libinput else { return }
        // Every device let go, not libinput_suspend: the path backend's resume re-adds its old list
        // all or nothing, so one device unplugged while away would leave every other one dead, and
        // one plugged in meanwhile would never be added. Their lifts and releases in this dispatch
        // are cancels (the decoder's batch rule).
        for path in libinput.paths { libinput.remove(path: path) }
        decode(libinput.dispatch(screen: decoder.screen(), kind: kind, outputName: outputName, tapToClick: false))
        decoder.cancelAll(time: Syscalls.monotonicNow())
        known.removeAll()
        onDeviceChange?(.seatDisabled(cancelledKeys: []))
    }

    /// The seat is back: the pointing devices there now are added again (udev's list).
    private func seatEnabled() {
        guard libinput != nil else { return }
        onDeviceChange?(.seatEnabled)
        do {
            for device in try UdevEnumeration.inputDevices() where wants(device) { add(device) }
        } catch {
            onDeviceChange?(.failed(path: "udev", message: error.message))
        }
        readEvents()
    }

    private func selects(node: String) -> Bool {
        options.devices.contains { $0.hasPrefix("/") && ($0 == node || Syscalls.resolvedPath($0) == node) }
    }

    private func matches(name: String) -> Bool {
        let names = options.devices.filter { !$0.hasPrefix("/") }
        let lowered = name.lowercased()
        return names.contains { $0 == name || lowered.contains($0.lowercased()) }
    }
}

extension LibinputSource: InputSource {
    /// `touch and pointer`.
    public var inputName: String { "touch and pointer" }

    /// The devices read and how they are opened: `2 devices (QEMU QEMU USB Tablet: mouse, left
    /// button activates; …), through seatd`.
    public var inputNote: String? {
        let list = devices.map { "\($0.name): \($0.detail)" }
        let through = seat.map { "through \($0.backend)" } ?? "opened directly"
        return list.isEmpty
            ? "no touch screen or pointer yet (\(through))"
            : "\(list.count) device\(list.count == 1 ? "" : "s") (\(list.joined(separator: "; "))), \(through)"
    }

    /// Whether devices are opened through a seat manager.
    public var holdsSeat: Bool { seat != nil }
}
