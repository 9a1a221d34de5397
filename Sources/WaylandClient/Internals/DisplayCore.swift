internal import CWayland
internal import CWaylandProtocols
internal import EventLoop
internal import Glibc
internal import LinuxSystem

/// The C side of ``WaylandConnection``: the `wl_display`, the registry's globals, their listeners,
/// and the display's descriptor on the loop.
@MainActor
final class DisplayCore {
    let display: OpaquePointer
    let loop: EventLoop
    let socketPath: String?
    /// How long, in seconds, a round trip at start waits for the compositor's answer.
    let timeout: Double
    private(set) var registry: OpaquePointer?
    private(set) var compositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    private(set) var wmBase: OpaquePointer?
    /// `wl_subcompositor`, when the compositor offers it (every wlroots compositor and weston do): a
    /// window shows its focused item in a subsurface over its own buffer (``WindowCore/overlay``).
    private(set) var subcompositor: OpaquePointer?
    private(set) var seat: OpaquePointer?
    private(set) var seatVersion: UInt32 = 0
    /// The registry name of the bound seat's global.
    private var seatGlobal: UInt32?
    /// Whether the globals a window needs are bound: from then on a `wl_seat` or `wl_output` global
    /// that appears is bound, and one that is removed is let go.
    private var followsGlobals = false
    /// The capabilities of a seat just bound, kept until its name comes (`wl_seat.name` follows
    /// `capabilities` from version 2), so that its devices are named after it.
    private var capabilitiesAwaitingName: UInt32?
    private var awaitsSeatName = false
    /// The `wl_display.sync` after a seat's bind: when it is done, a name that did not come is not waited for.
    private var seatSync: OpaquePointer?
    private var userdata: CallbackUserdata<DisplayCore>?
    private var watchToken: EventLoop.Watch?
    private var batchToken: EventLoop.BatchHandler?
    private(set) var watchingWritability = false
    private var closed = false

    var seatCapabilities = SeatCapabilities()
    var seatName: String?
    var onSeatCapabilitiesChange: ((SeatCapabilities) -> Void)?
    /// The seat sources' hooks, called before ``onSeatCapabilitiesChange``, in the order added.
    private var seatCapabilitiesObservers: [(token: UInt64, body: (SeatCapabilities) -> Void)] = []
    private var nextObserver: UInt64 = 0

    /// Follows the seat's capabilities (a seat source); returns a token for ``removeSeatCapabilitiesObserver(_:)``.
    func addSeatCapabilitiesObserver(_ body: @escaping (SeatCapabilities) -> Void) -> UInt64 {
        nextObserver += 1
        seatCapabilitiesObservers.append((nextObserver, body))
        return nextObserver
    }

    /// Stops following the seat's capabilities.
    func removeSeatCapabilitiesObserver(_ token: UInt64) {
        seatCapabilitiesObservers.removeAll { $0.token == token }
    }
    /// A bound `wl_output`: its scale and name as of its last `done`.
    struct Output {
        /// The registry name of its global.
        let global: UInt32
        let proxy: OpaquePointer
        let version: UInt32
        /// The proxy's address as a number: what `wl_surface.enter` and `leave` are compared with.
        var id: UInt { UInt(bitPattern: proxy) }
        /// The scale as of the last `done` (1 until then, and always for version 1, which has no `scale`).
        var scale = 1
        var pendingScale = 1
        /// The output's name (`wl_output.name`, version 4), such as `HEADLESS-1`.
        var name: String?
        /// The current mode in device pixels (`wl_output.mode` flagged current), turned as the output
        /// is (`geometry`'s transform), as of the last `done`; `nil` until one came.
        var pixelSize: (width: Int, height: Int)?
        var pendingMode: (width: Int, height: Int)?
        var pendingTransform: Int32 = 0

        /// The output's size in points (surface units): its current mode over its scale, `nil` until
        /// it sent one. What a full-screen window on it is configured to.
        var pointSize: (width: Int, height: Int)? {
            pixelSize.map { ($0.width / max(scale, 1), $0.height / max(scale, 1)) }
        }
    }

    /// The outputs bound, in the order their globals came.
    private(set) var outputs: [Output] = []
    /// The windows' hooks, called when an output's scale changed or an output went away.
    private var outputObservers: [(token: UInt64, body: () -> Void)] = []

    /// Follows the outputs (a window's scale); returns a token for ``removeOutputObserver(_:)``.
    func addOutputObserver(_ body: @escaping () -> Void) -> UInt64 {
        nextObserver += 1
        outputObservers.append((nextObserver, body))
        return nextObserver
    }

    /// Stops following the outputs.
    func removeOutputObserver(_ token: UInt64) {
        outputObservers.removeAll { $0.token == token }
    }

    /// The bound output whose proxy has this ``Output/id``, or `nil` (one let go, or another connection's).
    func output(_ id: UInt) -> Output? {
        outputs.first { $0.id == id }
    }

    var onDisconnect: ((WaylandError) -> Void)?
    private(set) var disconnectError: WaylandError?
    /// How many times the loop woke the connection for its descriptor (tests count idle wake-ups).
    private(set) var wakeups = 0

    /// Globals seen in the registry: name → (interface, version).
    private var globals: [UInt32: (interface: String, version: UInt32)] = [:]

    init(loop: EventLoop, environment: WaylandEnvironment, timeout: Double) throws(WaylandError) {
        self.loop = loop
        self.timeout = timeout.isFinite ? min(max(timeout, 0.01), 3600) : 5
        if let socket = environment.socket, !socket.isEmpty {
            guard let fd = Int32(socket), fd >= 0 else {
                throw WaylandError(
                    operation: "connect",
                    message: "WAYLAND_SOCKET is \"\(socket)\", not a descriptor number: unset it, or start the app "
                        + "from the compositor that hands it the socket")
            }
            guard let display = wl_display_connect_to_fd(fd) else {
                let code = Errno.current
                throw WaylandError(
                    operation: "connect", errno: code,
                    message: "WAYLAND_SOCKET=\(fd) is not a connected Wayland socket (\(code)): "
                        + "unset it and set WAYLAND_DISPLAY instead")
            }
            self.display = display
            socketPath = nil
        } else {
            guard let name = environment.display, !name.isEmpty else {
                throw WaylandError(
                    operation: "connect",
                    message: "WAYLAND_DISPLAY is not set, so there is no Wayland compositor to connect to: run the "
                        + "app under a compositor (cage, sway, weston), or set WAYLAND_DISPLAY to its socket's name "
                        + "(such as wayland-0 in XDG_RUNTIME_DIR)")
            }
            let path: String
            if name.hasPrefix("/") {
                path = name
            } else {
                guard let directory = environment.runtimeDirectory, !directory.isEmpty else {
                    throw WaylandError(
                        operation: "connect",
                        message: "WAYLAND_DISPLAY is \"\(name)\" but XDG_RUNTIME_DIR is not set, so its socket "
                            + "cannot be found: set XDG_RUNTIME_DIR to the compositor's runtime directory, or "
                            + "WAYLAND_DISPLAY to the socket's absolute path")
                }
                path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            }
            guard let display = wl_display_connect(path) else {
                let code = Errno.current
                if code != .noSuchFileOrDirectory, let kind = Self.nonSocketKind(path) {
                    throw WaylandError(
                        operation: "connect", errno: code,
                        message: "WAYLAND_DISPLAY=\(name) names \(path), which is \(kind), not a socket: a Wayland "
                            + "compositor's socket was expected there; set WAYLAND_DISPLAY to the socket's name in "
                            + "XDG_RUNTIME_DIR (such as wayland-0) or its absolute path")
                }
                let why =
                    code == .noSuchFileOrDirectory
                    ? "no socket there: is the compositor running, and are WAYLAND_DISPLAY and XDG_RUNTIME_DIR its?"
                    : code == .connectionRefused
                        ? "the compositor refused: it is not running any more (a stale socket), start it again"
                        : code == .permissionDenied
                            ? "permission denied: run the app as the compositor's user"
                            : "check that "
                                + "the compositor is running and WAYLAND_DISPLAY and XDG_RUNTIME_DIR name its socket"
                throw WaylandError(
                    operation: "connect", errno: code,
                    message: "cannot connect to the Wayland compositor at \(path) (WAYLAND_DISPLAY=\(name), "
                        + "XDG_RUNTIME_DIR=\(environment.runtimeDirectory ?? "unset")): \(code); "
                        + why)
            }
            self.display = display
            socketPath = path
        }
        do throws(WaylandError) {
            try bindGlobals()
            try attach()
        } catch {
            destroyProxies()
            wl_display_disconnect(display)
            throw error
        }
    }

    // MARK: - Globals

    private func bindGlobals() throws(WaylandError) {
        let userdata = CallbackUserdata(retaining: self)
        self.userdata = userdata
        guard let registry = wl_display_get_registry(display) else {
            throw WaylandError(
                operation: "registry", errno: .current, message: "wl_display.get_registry failed")
        }
        self.registry = registry
        wl_registry_add_listener(registry, registryListener, userdata.pointer)
        try roundtrip("the registry (wl_display.get_registry: the list of its globals)")
        func find(_ interface: String, minimum: UInt32) throws(WaylandError) -> (UInt32, UInt32) {
            let found = globals.filter { $0.value.interface == interface }.min { $0.key < $1.key }
            guard let (name, global) = found else {
                throw WaylandError(
                    operation: "bind",
                    message: "the compositor offers no \(interface) global, which a window needs: run the app under "
                        + "a compositor with it (cage, sway, weston)")
            }
            guard global.version >= minimum else {
                throw WaylandError(
                    operation: "bind",
                    message: "the compositor offers \(interface) version \(global.version), older than \(minimum), "
                        + "which a window needs: run the app under a newer compositor")
            }
            return (name, global.version)
        }
        let (compositorName, compositorVersion) = try find("wl_compositor", minimum: 4)
        compositor = OpaquePointer(
            wl_registry_bind(registry, compositorName, cwayland_compositor_interface(), min(compositorVersion, 4)))
        let (shmName, _) = try find("wl_shm", minimum: 1)
        shm = OpaquePointer(wl_registry_bind(registry, shmName, cwayland_shm_interface(), 1))
        let (baseName, baseVersion) = try find("xdg_wm_base", minimum: 1)
        wmBase = OpaquePointer(
            wl_registry_bind(registry, baseName, cwayland_xdg_wm_base_interface(), min(baseVersion, 2)))
        xdg_wm_base_add_listener(wmBase, wmBaseListener, userdata.pointer)
        if let (name, _) = globals.filter({ $0.value.interface == "wl_subcompositor" }).min(by: { $0.key < $1.key }) {
            subcompositor = OpaquePointer(wl_registry_bind(registry, name, cwayland_subcompositor_interface(), 1))
        }
        // A window needs no seat: a compositor offers wl_seat once it has an input device
        // (weston), and one that appears later is bound then.
        bindFirstSeat()
        // Every output, for their scales: a surface's `enter` names only outputs the client bound.
        for (name, global) in globals.filter({ $0.value.interface == "wl_output" }).sorted(by: { $0.key < $1.key }) {
            bindOutput(name: name, version: global.version)
        }
        followsGlobals = true
        try roundtrip("the binding of its globals (wl_compositor, wl_shm, xdg_wm_base, wl_seat, wl_output)")
    }

    fileprivate func globalAdded(name: UInt32, interface: String, version: UInt32) {
        globals[name] = (interface, version)
        guard followsGlobals else { return }
        if interface == "wl_seat", seat == nil { bindFirstSeat() }
        if interface == "wl_output" { bindOutput(name: name, version: version) }
    }

    fileprivate func globalRemoved(name: UInt32) {
        globals[name] = nil
        if let index = outputs.firstIndex(where: { $0.global == name }) {
            // The windows forget it first (they compare proxies), then it is let go.
            let output = outputs.remove(at: index)
            outputsChanged()
            releaseOutput(output)
        }
        guard name == seatGlobal else { return }
        releaseSeat()
        bindFirstSeat()
    }

    // MARK: - Outputs

    /// Binds an output (version 2 or newer has `scale` and `done`; up to 4, which adds its name).
    private func bindOutput(name: UInt32, version: UInt32) {
        guard disconnectError == nil, let registry, let userdata, !outputs.contains(where: { $0.global == name })
        else { return }
        let bound = min(version, 4)
        guard let proxy = OpaquePointer(wl_registry_bind(registry, name, cwayland_output_interface(), bound)) else {
            return
        }
        wl_output_add_listener(proxy, outputListener, userdata.pointer)
        outputs.append(Output(global: name, proxy: proxy, version: bound))
    }

    private func releaseOutput(_ output: Output) {
        if output.version >= 3 { wl_output_release(output.proxy) } else { wl_output_destroy(output.proxy) }
    }

    fileprivate func outputScale(_ id: UInt?, _ factor: Int32) {
        guard let index = outputs.firstIndex(where: { $0.id == id }) else { return }
        // The compositor's number is untrusted: the window bounds it again by its buffer's size.
        outputs[index].pendingScale = Int(min(max(factor, 1), 64))
    }

    fileprivate func outputNamed(_ id: UInt?, _ name: String) {
        guard let index = outputs.firstIndex(where: { $0.id == id }) else { return }
        outputs[index].name = name
    }

    fileprivate func outputMode(_ id: UInt?, flags: UInt32, width: Int32, height: Int32) {
        guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0, width > 0, height > 0,
            let index = outputs.firstIndex(where: { $0.id == id })
        else { return }
        outputs[index].pendingMode = (Int(width), Int(height))
        // Version 1 has no `done`: its mode counts as it comes (after its geometry).
        if outputs[index].version < 2 { applyMode(index) }
    }

    /// The pending mode, turned by the pending transform, becomes the output's pixel size.
    private func applyMode(_ index: Int) {
        // A quarter turn (90, 270, and their flipped forms: odd transforms) swaps the sides.
        outputs[index].pixelSize = outputs[index].pendingMode.map {
            outputs[index].pendingTransform & 1 == 1 ? ($0.height, $0.width) : $0
        }
    }

    fileprivate func outputGeometry(_ id: UInt?, transform: Int32) {
        guard let index = outputs.firstIndex(where: { $0.id == id }) else { return }
        outputs[index].pendingTransform = transform
    }

    fileprivate func outputDone(_ id: UInt?) {
        guard let index = outputs.firstIndex(where: { $0.id == id }) else { return }
        applyMode(index)
        guard outputs[index].scale != outputs[index].pendingScale else { return }
        outputs[index].scale = outputs[index].pendingScale
        outputsChanged()
    }

    private func outputsChanged() {
        for observer in outputObservers { observer.body() }
    }

    /// Whether a seat is bound: `false` until the compositor offers a `wl_seat` global.
    var hasSeat: Bool { seat != nil }

    /// Binds the `wl_seat` global with the lowest name, when there is one and none is bound.
    private func bindFirstSeat() {
        guard seat == nil, disconnectError == nil, let registry, let userdata else { return }
        guard let (name, global) = globals.filter({ $0.value.interface == "wl_seat" }).min(by: { $0.key < $1.key })
        else { return }
        seatVersion = min(global.version, 5)
        seatGlobal = name
        awaitsSeatName = seatVersion >= 2
        seat = OpaquePointer(wl_registry_bind(registry, name, cwayland_seat_interface(), seatVersion))
        wl_seat_add_listener(seat, seatListener, userdata.pointer)
        // The compositor answers the bind (capabilities, name) before this sync: a seat that sent no
        // name by then holds its capabilities back no longer.
        if awaitsSeatName, let callback = wl_display_sync(display) {
            seatSync = callback
            wl_callback_add_listener(callback, seatSyncListener, userdata.pointer)
        }
    }

    fileprivate func seatSynced() {
        endSeatSync()
        seatNamed(nil)
    }

    private func endSeatSync() {
        if let seatSync { wl_callback_destroy(seatSync) }
        seatSync = nil
    }

    /// Lets the seat go because its global was removed: its devices go first (the seat sources end
    /// every press and contact cancelled), then the seat.
    private func releaseSeat() {
        endSeatSync()
        awaitsSeatName = false
        capabilitiesAwaitingName = nil
        seatCapabilitiesChanged(0)
        if let seat {
            if seatVersion >= 5 { wl_seat_release(seat) } else { wl_seat_destroy(seat) }
        }
        seat = nil
        seatGlobal = nil
        seatName = nil
    }

    fileprivate func seatCapabilitiesChanged(_ raw: UInt32) {
        if awaitsSeatName {
            capabilitiesAwaitingName = raw
            return
        }
        let capabilities = SeatCapabilities(rawValue: raw & 7)
        guard capabilities != seatCapabilities else { return }
        seatCapabilities = capabilities
        for observer in seatCapabilitiesObservers { observer.body(capabilities) }
        onSeatCapabilitiesChange?(capabilities)
    }

    fileprivate func seatNamed(_ name: String?) {
        if let name { seatName = name }
        guard awaitsSeatName else { return }
        awaitsSeatName = false
        if let raw = capabilitiesAwaitingName {
            capabilitiesAwaitingName = nil
            seatCapabilitiesChanged(raw)
        }
    }

    fileprivate func pinged(_ serial: UInt32) {
        xdg_wm_base_pong(wmBase, serial)
    }

    /// Sends every request and waits, up to ``timeout`` seconds, for the compositor's answer to all
    /// of them (`wl_display.sync`, as `wl_display_roundtrip` does, but with a deadline): a compositor
    /// that is stopped (SIGSTOP) or hung, or a socket that accepts and never answers, ends the
    /// connection with an error naming the socket and `what` was waited for.
    func roundtrip(_ what: String = "a round trip (wl_display.sync)") throws(WaylandError) {
        if let disconnectError { throw disconnectError }
        guard let callback = wl_display_sync(display) else {
            throw fail(protocolFailure(operation: "roundtrip", code: .current))
        }
        let done = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        done.initialize(to: false)
        defer {
            wl_callback_destroy(callback)
            done.deallocate()
        }
        wl_callback_add_listener(callback, syncListener, done)
        let fd = wl_display_get_fd(display)
        let deadline = Syscalls.monotonicNow() + timeout
        while !done.pointee {
            guard wl_display_dispatch_pending(display) >= 0 else {
                throw fail(protocolFailure(operation: "dispatch", code: .current))
            }
            if done.pointee { break }
            var events = Int16(POLLIN)
            if wl_display_flush(display) < 0 {
                let code = Errno.current
                guard code == .resourceTemporarilyUnavailable else {
                    throw fail(protocolFailure(operation: "flush", code: code))
                }
                events |= Int16(POLLOUT)
            }
            // Events already queued are dispatched first.
            guard wl_display_prepare_read(display) == 0 else { continue }
            let left = deadline - Syscalls.monotonicNow()
            guard left > 0 else {
                wl_display_cancel_read(display)
                throw fail(unanswered(what))
            }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 60) * 1000) + 1)
            if ready > 0, descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                guard wl_display_read_events(display) >= 0 else {
                    throw fail(protocolFailure(operation: "read", code: .current))
                }
            } else {
                wl_display_cancel_read(display)
            }
        }
    }

    /// The error for a compositor that did not answer `what` within ``timeout``.
    func unanswered(_ what: String) -> WaylandError {
        let place = socketPath.map { " at \($0)" } ?? " on WAYLAND_SOCKET"
        let seconds = secondsText(timeout)
        return WaylandError(
            operation: "roundtrip", errno: .timedOut,
            message: "the Wayland compositor\(place) accepted the connection but did not answer \(what) within "
                + "\(seconds) s: it is stopped (SIGSTOP, a debugger) or hung, or the socket is not a compositor's; "
                + "start the compositor again (or continue it), or set WAYLAND_DISPLAY to a running compositor's "
                + "socket")
    }

    /// What a path is when it is there and not a socket (`a regular file`, `a directory`), else `nil`.
    private static func nonSocketKind(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFSOCK: return nil
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        default: return "a special file"
        }
    }

    // MARK: - The loop

    private func attach() throws(WaylandError) {
        let fd = wl_display_get_fd(display)
        do { watchToken = try loop.watch(fd) { [unowned self] readiness in ready(readiness) } } catch {
            throw WaylandError(
                operation: error.operation, errno: error.errno,
                message: "the connection to the compositor (\(socketPath ?? "WAYLAND_SOCKET")): \(error.message)")
        }
        // After the app's frame: a frame committed in `afterBatch` is sent in the same batch.
        batchToken = loop.addBatchHandler(afterFrame: true) { [unowned self] in flush(dispatching: false) }
    }

    private func ready(_ readiness: EventLoop.Readiness) {
        guard disconnectError == nil else { return }
        wakeups += 1
        if readiness.writable { flush() }
        guard readiness.readable || readiness.hangUp else { return }
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else {
                return report(protocolFailure(operation: "dispatch", code: .current))
            }
        }
        guard wl_display_read_events(display) >= 0 else {
            return report(protocolFailure(operation: "read", code: .current))
        }
        guard wl_display_dispatch_pending(display) >= 0 else {
            return report(protocolFailure(operation: "dispatch", code: .current))
        }
        if readiness.hangUp, disconnectError == nil {
            report(
                WaylandError(
                    operation: "read", errno: .brokenPipe,
                    message: "the Wayland compositor closed the connection\(socketPath.map { " at \($0)" } ?? "")"))
        }
    }

    /// Sends what libwayland buffered (at the end of every batch, after the app's frame); asks for
    /// writability when the socket is full. `dispatching` first hands queued events to their
    /// listeners; the flush after the frame does not, so that no input is handled after the frame
    /// that should show it.
    func flush(dispatching: Bool = true) {
        guard disconnectError == nil, !closed else { return }
        if dispatching, wl_display_dispatch_pending(display) < 0 {
            return report(protocolFailure(operation: "dispatch", code: .current))
        }
        let result = wl_display_flush(display)
        let code = Errno.current
        if result < 0 && code == .resourceTemporarilyUnavailable {
            if !watchingWritability, let watchToken {
                watchingWritability = true
                loop.setWatchesWritability(watchToken, true)
            }
            return
        }
        if result < 0 {
            return report(protocolFailure(operation: "flush", code: code))
        }
        if watchingWritability, let watchToken {
            watchingWritability = false
            loop.setWatchesWritability(watchToken, false)
        }
    }

    private func protocolFailure(operation: String, code: Errno) -> WaylandError {
        let place = socketPath.map { " at \($0)" } ?? ""
        if wl_display_get_error(display) == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.flatMap { $0.pointee.name.map { String(cString: $0) } } ?? "an object"
            return WaylandError(
                operation: operation, errno: .protocolError,
                message: "the Wayland compositor\(place) ended the connection with protocol error \(protocolCode) "
                    + "on \(name)@\(id): a bug in this client; report it with WAYLAND_DEBUG=client output")
        }
        let error = wl_display_get_error(display)
        let failure = error != 0 ? Errno(rawValue: error) : code
        return WaylandError(
            operation: operation, errno: failure,
            message: "the Wayland compositor\(place) went away (\(failure)): the app cannot draw or read input any more"
        )
    }

    /// Ends the connection with `error` (reported once through ``onDisconnect``) and returns the
    /// error that ended it, for the caller to throw.
    func fail(_ error: WaylandError) -> WaylandError {
        report(error)
        return disconnectError ?? error
    }

    /// Reports the connection lost, once.
    private func report(_ error: WaylandError) {
        guard disconnectError == nil else { return }
        disconnectError = error
        detach()
        onDisconnect?(error)
    }

    private func detach() {
        if let watchToken { loop.unwatch(watchToken) }
        if let batchToken { loop.removeBatchHandler(batchToken) }
        watchToken = nil
        batchToken = nil
    }

    // MARK: - Closing

    private func destroyProxies() {
        endSeatSync()
        for output in outputs { releaseOutput(output) }
        outputs = []
        if let seat {
            if seatVersion >= 5 { wl_seat_release(seat) } else { wl_seat_destroy(seat) }
        }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let subcompositor { wl_subcompositor_destroy(subcompositor) }
        subcompositor = nil
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        seat = nil
        wmBase = nil
        shm = nil
        compositor = nil
        registry = nil
        userdata?.release()
        userdata = nil
    }

    /// Destroys the globals and disconnects; the core is not used afterwards.
    func close() {
        guard !closed else { return }
        detach()
        if disconnectError == nil { _ = wl_display_flush(display) }
        destroyProxies()
        closed = true
        wl_display_disconnect(display)
    }
}

// MARK: - Listeners: C structs of @convention(c) functions, alive for the whole process.

private func core(_ data: UnsafeMutableRawPointer?) -> DisplayCore? {
    CallbackUserdata<DisplayCore>.target(from: data)
}

nonisolated(unsafe) private let registryListener = staticListener(
    wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let interface else { return }
            let text = String(cString: interface)
            let target = core(data)

            MainActor.assumeIsolated { target?.globalAdded(name: name, interface: text, version: version) }
        },
        global_remove: { data, _, name in
            let target = core(data)

            MainActor.assumeIsolated { target?.globalRemoved(name: name) }
        }))

/// A `wl_display.sync` callback's `done`: sets the flag its data points to.
nonisolated(unsafe) private let syncListener = staticListener(
    wl_callback_listener(done: { data, _, _ in
        data?.assumingMemoryBound(to: Bool.self).pointee = true
    }))

nonisolated(unsafe) private let seatSyncListener = staticListener(
    wl_callback_listener(done: { data, _, _ in
        let target = core(data)

        MainActor.assumeIsolated { target?.seatSynced() }
    }))

nonisolated(unsafe) private let wmBaseListener = staticListener(
    xdg_wm_base_listener(ping: { data, _, serial in
        let target = core(data)

        MainActor.assumeIsolated { target?.pinged(serial) }
    }))

nonisolated(unsafe) private let outputListener = staticListener(
    wl_output_listener(
        geometry: { data, output, _, _, _, _, _, _, _, transform in
            let target = core(data)
            let output = output.map { UInt(bitPattern: $0) }

            MainActor.assumeIsolated { target?.outputGeometry(output, transform: transform) }
        },
        mode: { data, output, flags, width, height, _ in
            let target = core(data)
            let output = output.map { UInt(bitPattern: $0) }

            MainActor.assumeIsolated { target?.outputMode(output, flags: flags, width: width, height: height) }
        },
        done: { data, output in
            let target = core(data)
            let output = output.map { UInt(bitPattern: $0) }

            MainActor.assumeIsolated { target?.outputDone(output) }
        },
        scale: { data, output, factor in
            let target = core(data)
            let output = output.map { UInt(bitPattern: $0) }

            MainActor.assumeIsolated { target?.outputScale(output, factor) }
        },
        name: { data, output, name in
            let text = name.map { String(cString: $0) } ?? ""
            let target = core(data)
            let output = output.map { UInt(bitPattern: $0) }

            MainActor.assumeIsolated { target?.outputNamed(output, text) }
        },
        description: { _, _, _ in }))

nonisolated(unsafe) private let seatListener = staticListener(
    wl_seat_listener(
        capabilities: { data, _, capabilities in
            let target = core(data)

            MainActor.assumeIsolated { target?.seatCapabilitiesChanged(capabilities) }
        },
        name: { data, _, name in
            let text = name.map { String(cString: $0) }
            let target = core(data)

            MainActor.assumeIsolated { target?.seatNamed(text) }
        }))

/// A listener struct (a C struct of `@convention(c)` functions) given the stable address
/// libwayland keeps for the proxy's whole life: allocated once, never freed, for the process.
///
/// - Parameter listener: The listener's functions.
/// - Returns: Its address.
func staticListener<Listener>(_ listener: Listener) -> UnsafeMutablePointer<Listener> {
    let pointer = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
    pointer.initialize(to: listener)
    return pointer
}
