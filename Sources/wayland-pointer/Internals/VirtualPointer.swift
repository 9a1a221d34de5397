internal import CWayland
internal import CWaylandTestProtocols
internal import Glibc
internal import LinuxSystem

/// A connection that failed or ended: the message names the socket and the fix.
struct ConnectionError: Error {
    var message: String
}

/// One `zwlr_virtual_pointer_v1` on the compositor named by `WAYLAND_DISPLAY`, held until ``close()``.
///
/// Every request is followed by `frame` and a `wl_display_roundtrip`, so the compositor has handled it
/// before the next command (or the process's exit).
final class VirtualPointer {
    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private var manager: OpaquePointer?
    private var seat: OpaquePointer?
    private var pointer: OpaquePointer?
    private var userdata: CallbackUserdata<VirtualPointer>?
    private var globals: [UInt32: (interface: String, version: UInt32)] = [:]
    private let place: String
    /// The version of `zwlr_virtual_pointer_manager_v1` bound.
    private(set) var managerVersion: UInt32 = 0

    /// Connects, binds the manager and the seat, and makes the virtual pointer.
    ///
    /// Uses `wl_display_connect` (which reads `WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR` and `WAYLAND_SOCKET`)
    /// and `zwlr_virtual_pointer_manager_v1.create_virtual_pointer`.
    init() throws(ConnectionError) {
        let name = getenv("WAYLAND_DISPLAY").map { String(cString: $0) }
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        place =
            "WAYLAND_DISPLAY=\(name ?? "unset (so wayland-0)"), XDG_RUNTIME_DIR=\(runtime ?? "unset")"
        guard let display = wl_display_connect(nil) else {
            let code = errno
            throw ConnectionError(
                message: "cannot connect to the Wayland compositor (\(place)): \(String(cString: strerror(code))); "
                    + "start the compositor and set WAYLAND_DISPLAY and XDG_RUNTIME_DIR to its socket")
        }
        self.display = display
        do throws(ConnectionError) {
            try bind()
        } catch {
            destroyProxies()
            wl_display_disconnect(display)
            throw error
        }
    }

    private func bind() throws(ConnectionError) {
        let userdata = CallbackUserdata(retaining: self)
        self.userdata = userdata
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, registryListener, userdata.pointer)
        try roundtrip()
        func global(_ interface: String) -> (name: UInt32, version: UInt32)? {
            globals.filter { $0.value.interface == interface }.min { $0.key < $1.key }.map {
                ($0.key, $0.value.version)
            }
        }
        guard let (managerName, version) = global("zwlr_virtual_pointer_manager_v1") else {
            let interfaces = Set(globals.values.map(\.interface)).sorted().joined(separator: " ")
            throw ConnectionError(
                message: "the Wayland compositor (\(place)) offers no zwlr_virtual_pointer_manager_v1, the "
                    + "wlr-virtual-pointer-unstable-v1 protocol this tool drives the pointer through: run it under "
                    + "a wlroots compositor that has it, such as sway (cage 0.1.4 has none); offered: \(interfaces)")
        }
        managerVersion = min(version, 2)
        manager = OpaquePointer(
            wl_registry_bind(registry, managerName, cwayland_virtual_pointer_manager_interface(), managerVersion))
        if let (seatName, _) = global("wl_seat") {
            seat = OpaquePointer(wl_registry_bind(registry, seatName, cwayland_seat_interface(), 1))
        }
        pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, seat)
        try roundtrip()
    }

    fileprivate func globalAdded(name: UInt32, interface: String, version: UInt32) {
        globals[name] = (interface, version)
    }

    fileprivate func globalRemoved(name: UInt32) {
        globals[name] = nil
    }

    // MARK: - Requests

    /// `motion_absolute` to (x, y) in a width×height extent, then `frame`.
    func moveAbsolute(x: UInt32, y: UInt32, width: UInt32, height: UInt32) throws(ConnectionError) {
        zwlr_virtual_pointer_v1_motion_absolute(pointer, Self.now(), x, y, width, height)
        try frame()
    }

    /// `motion` by (dx, dy) pixels, then `frame`.
    func moveRelative(dx: Int32, dy: Int32) throws(ConnectionError) {
        zwlr_virtual_pointer_v1_motion(pointer, Self.now(), wl_fixed_from_int(dx), wl_fixed_from_int(dy))
        try frame()
    }

    /// `button` down or up, then `frame`.
    func button(_ code: UInt32, pressed: Bool) throws(ConnectionError) {
        let state = pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
        zwlr_virtual_pointer_v1_button(pointer, Self.now(), code, state.rawValue)
        try frame()
    }

    private func frame() throws(ConnectionError) {
        zwlr_virtual_pointer_v1_frame(pointer)
        try roundtrip()
    }

    /// Sends what is buffered and waits until the compositor has handled it (`wl_display_roundtrip`).
    private func roundtrip() throws(ConnectionError) {
        guard wl_display_roundtrip(display) >= 0 else { throw failure() }
    }

    private func failure() -> ConnectionError {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.flatMap { $0.pointee.name.map { String(cString: $0) } } ?? "an object"
            return ConnectionError(
                message: "the Wayland compositor (\(place)) ended the connection with protocol error "
                    + "\(protocolCode) on \(name)@\(id): a bug in wayland-pointer; run it with WAYLAND_DEBUG=client")
        }
        return ConnectionError(
            message: "the Wayland compositor (\(place)) went away: \(String(cString: strerror(code))); "
                + "the pointer commands after this one were not sent")
    }

    /// The connection's descriptor, readable when the compositor sent something or hung up.
    var descriptor: Int32 { wl_display_get_fd(display) }

    /// Reads and handles what the compositor sent (call it when ``descriptor`` is readable).
    ///
    /// Uses `wl_display_dispatch`.
    /// - Throws: ``ConnectionError`` when the compositor went away.
    func dispatchIncoming() throws(ConnectionError) {
        guard wl_display_dispatch(display) >= 0 else { throw failure() }
    }

    /// Milliseconds of the monotonic clock, wrapping as Wayland's 32-bit time stamps do.
    private static func now() -> UInt32 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt32(truncatingIfNeeded: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }

    // MARK: - Closing

    /// Destroys the virtual pointer (the seat loses the device), waits for the compositor, and disconnects.
    ///
    /// - Throws: ``ConnectionError`` when the compositor went away first.
    func close() throws(ConnectionError) {
        if let pointer { zwlr_virtual_pointer_v1_destroy(pointer) }
        pointer = nil
        let result: Result<Void, ConnectionError>
        do throws(ConnectionError) {
            try roundtrip()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        destroyProxies()
        wl_display_disconnect(display)
        try result.get()
    }

    private func destroyProxies() {
        if let pointer { zwlr_virtual_pointer_v1_destroy(pointer) }
        if let manager { zwlr_virtual_pointer_manager_v1_destroy(manager) }
        if let seat { wl_seat_destroy(seat) }
        if let registry { wl_registry_destroy(registry) }
        pointer = nil
        manager = nil
        seat = nil
        registry = nil
        userdata?.release()
        userdata = nil
    }
}

// MARK: - The registry's listener: a C struct of @convention(c) functions, alive for the whole process.

private func target(_ data: UnsafeMutableRawPointer?) -> VirtualPointer? {
    CallbackUserdata<VirtualPointer>.target(from: data)
}

// Safe: written once when first used and only read after, by libwayland on the one thread of the tool.
nonisolated(unsafe) private let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_registry_listener(
            global: { data, _, name, interface, version in
                guard let interface else { return }
                target(data)?.globalAdded(name: name, interface: String(cString: interface), version: version)
            },
            global_remove: { data, _, name in target(data)?.globalRemoved(name: name) }))
    return listener
}()
