import CWayland
import CWaylandProtocols
import Foundation
import Glibc
import LinuxSystem

/// A bare Wayland client for the pointer tests: one full-screen `xdg_toplevel` showing an 800x600 buffer,
/// and a `wl_pointer` taken whenever the seat has the pointer capability, recording what it receives.
///
/// Written on libwayland-client directly because ``WaylandClient`` binds no `wl_pointer` yet; it checks
/// `wayland-pointer`, not the library. Everything runs on the test's thread: events are read only inside
/// ``dispatch(upTo:until:)`` and ``roundtrip()``.
final class PointerProbe {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What the `wl_pointer` received, as text: `enter X Y`, `motion X Y`, `button CODE pressed|released`,
    /// `leave`, `frame` (coordinates surface-local).
    var events: [String] = []
    /// Every `wl_seat.capabilities` received: bit 1 is the pointer.
    private(set) var capabilities: [UInt32] = []
    /// The last position entered or moved to.
    private(set) var position: [Double]?
    /// The size of the last configure acknowledged with a buffer attached.
    private(set) var shownSize: [Int32]?

    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private var compositor: OpaquePointer?
    private var shm: OpaquePointer?
    private var wmBase: OpaquePointer?
    private var seat: OpaquePointer?
    private var pointer: OpaquePointer?
    private var surface: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var buffer: OpaquePointer?
    private var globals: [UInt32: (interface: String, version: UInt32)] = [:]
    private var pendingSize: [Int32] = [0, 0]
    private var userdata: CallbackUserdata<PointerProbe>?
    private let listeners = Listeners()
    static let width: Int32 = 800
    static let height: Int32 = 600

    var hasPointer: Bool { pointer != nil }

    /// Connects to the socket at `path` and asks for a full-screen window.
    init(socketPath path: String) throws {
        guard let display = wl_display_connect(path) else { throw Failure(description: "cannot connect to \(path)") }
        self.display = display
        let userdata = CallbackUserdata(retaining: self)
        self.userdata = userdata
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, listeners.registry, userdata.pointer)
        wl_display_roundtrip(display)
        func bind(_ interface: String, _ type: UnsafePointer<wl_interface>, _ version: UInt32) throws -> OpaquePointer {
            guard let (name, global) = globals.first(where: { $0.value.interface == interface }),
                global.version >= version
            else { throw Failure(description: "sway offers no \(interface) version \(version)") }
            return OpaquePointer(wl_registry_bind(registry, name, type, version))
        }
        compositor = try bind("wl_compositor", cwayland_compositor_interface(), 4)
        shm = try bind("wl_shm", cwayland_shm_interface(), 1)
        wmBase = try bind("xdg_wm_base", cwayland_xdg_wm_base_interface(), 1)
        xdg_wm_base_add_listener(wmBase, listeners.wmBase, userdata.pointer)
        seat = try bind("wl_seat", cwayland_seat_interface(), 5)
        wl_seat_add_listener(seat, listeners.seat, userdata.pointer)
        buffer = try makeBuffer()
        surface = wl_compositor_create_surface(compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, listeners.xdgSurface, userdata.pointer)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, listeners.toplevel, userdata.pointer)
        xdg_toplevel_set_title(toplevel, "pointer probe")
        xdg_toplevel_set_fullscreen(toplevel, nil)
        wl_surface_commit(surface)
        wl_display_flush(display)
    }

    /// An 800x600 XRGB8888 buffer in shared memory, mid grey.
    private func makeBuffer() throws -> OpaquePointer {
        let stride = Self.width * 4
        let size = Int(stride * Self.height)
        let fd = cwayland_memfd("pointer-probe")
        guard fd >= 0, ftruncate(fd, off_t(size)) == 0 else { throw Failure(description: "memfd failed") }
        defer { Glibc.close(fd) }
        guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            throw Failure(description: "mmap failed")
        }
        memset(memory, 0x80, size)
        munmap(memory, size)
        let pool = wl_shm_create_pool(shm, fd, Int32(size))
        defer { wl_shm_pool_destroy(pool) }
        return wl_shm_pool_create_buffer(
            pool, 0, Self.width, Self.height, stride, WL_SHM_FORMAT_XRGB8888.rawValue)
    }

    /// Reads and dispatches events until `condition` holds or `seconds` pass; returns whether it held.
    func dispatch(upTo seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            guard wl_display_dispatch_pending(display) >= 0 else { return false }
            if condition() { return true }
            wl_display_flush(display)
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            while wl_display_prepare_read(display) != 0 { wl_display_dispatch_pending(display) }
            var descriptor = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Int32(min(left, 0.05) * 1000) + 1) > 0 {
                wl_display_read_events(display)
            } else {
                wl_display_cancel_read(display)
            }
        }
    }

    /// Waits until sway has answered every request sent so far, with every event sent before that dispatched.
    func roundtrip() { wl_display_roundtrip(display) }

    /// Disconnects; the probe is not used afterwards.
    func close() {
        if let pointer { wl_pointer_release(pointer) }
        if let seat { wl_seat_release(seat) }
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        if let buffer { wl_buffer_destroy(buffer) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        pointer = nil
        seat = nil
        toplevel = nil
        xdgSurface = nil
        surface = nil
        buffer = nil
        wmBase = nil
        shm = nil
        compositor = nil
        registry = nil
        wl_display_roundtrip(display)
        wl_display_disconnect(display)
        userdata?.release()
        userdata = nil
    }

    // MARK: - Events

    fileprivate func globalAdded(_ name: UInt32, _ interface: String, _ version: UInt32) {
        globals[name] = (interface, version)
    }

    fileprivate func ping(_ serial: UInt32) { xdg_wm_base_pong(wmBase, serial) }

    fileprivate func toplevelConfigured(width: Int32, height: Int32) { pendingSize = [width, height] }

    fileprivate func surfaceConfigured(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, Self.width, Self.height)
        wl_surface_commit(surface)
        shownSize = pendingSize
    }

    fileprivate func capabilitiesChanged(_ value: UInt32) {
        capabilities.append(value)
        let hasPointer = value & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        if hasPointer, pointer == nil, let userdata {
            pointer = wl_seat_get_pointer(seat)
            wl_pointer_add_listener(pointer, listeners.pointer, userdata.pointer)
        } else if !hasPointer, let pointer {
            wl_pointer_release(pointer)
            self.pointer = nil
        }
    }

    fileprivate func pointerEvent(_ text: String, at point: [Double]? = nil) {
        if let point {
            position = point
            events.append(text + " " + point.map { String(format: "%g", $0) }.joined(separator: " "))
        } else {
            events.append(text)
        }
    }
}

/// The probe's listeners: C structs of `@convention(c)` functions, owned by the probe (no global state).
private final class Listeners {
    let registry = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    let wmBase = UnsafeMutablePointer<xdg_wm_base_listener>.allocate(capacity: 1)
    let xdgSurface = UnsafeMutablePointer<xdg_surface_listener>.allocate(capacity: 1)
    let toplevel = UnsafeMutablePointer<xdg_toplevel_listener>.allocate(capacity: 1)
    let seat = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
    let pointer = UnsafeMutablePointer<wl_pointer_listener>.allocate(capacity: 1)

    init() {
        registry.initialize(to: wl_registry_listener())
        registry.pointee.global = { data, _, name, interface, version in
            guard let interface else { return }
            probe(data)?.globalAdded(name, String(cString: interface), version)
        }
        registry.pointee.global_remove = { _, _, _ in }
        wmBase.initialize(to: xdg_wm_base_listener())
        wmBase.pointee.ping = { data, _, serial in probe(data)?.ping(serial) }
        xdgSurface.initialize(to: xdg_surface_listener())
        xdgSurface.pointee.configure = { data, _, serial in probe(data)?.surfaceConfigured(serial: serial) }
        toplevel.initialize(to: xdg_toplevel_listener())
        toplevel.pointee.configure = { data, _, width, height, _ in
            probe(data)?.toplevelConfigured(width: width, height: height)
        }
        toplevel.pointee.close = { _, _ in }
        seat.initialize(to: wl_seat_listener())
        seat.pointee.capabilities = { data, _, value in probe(data)?.capabilitiesChanged(value) }
        seat.pointee.name = { _, _, _ in }
        pointer.initialize(to: wl_pointer_listener())
        pointer.pointee.enter = { data, _, _, _, x, y in
            probe(data)?.pointerEvent("enter", at: [wl_fixed_to_double(x), wl_fixed_to_double(y)])
        }
        pointer.pointee.leave = { data, _, _, _ in probe(data)?.pointerEvent("leave") }
        pointer.pointee.motion = { data, _, _, x, y in
            probe(data)?.pointerEvent("motion", at: [wl_fixed_to_double(x), wl_fixed_to_double(y)])
        }
        pointer.pointee.button = { data, _, _, _, button, state in
            let word = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue ? "pressed" : "released"
            probe(data)?.pointerEvent("button \(button) \(word)")
        }
        pointer.pointee.axis = { _, _, _, _, _ in }
        pointer.pointee.frame = { data, _ in probe(data)?.pointerEvent("frame") }
        pointer.pointee.axis_source = { _, _, _ in }
        pointer.pointee.axis_stop = { _, _, _, _ in }
        pointer.pointee.axis_discrete = { _, _, _, _ in }
    }

    deinit {
        registry.deallocate()
        wmBase.deallocate()
        xdgSurface.deallocate()
        toplevel.deallocate()
        seat.deallocate()
        pointer.deallocate()
    }
}

private func probe(_ data: UnsafeMutableRawPointer?) -> PointerProbe? {
    CallbackUserdata<PointerProbe>.target(from: data)
}
