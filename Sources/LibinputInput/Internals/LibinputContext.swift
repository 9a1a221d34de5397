internal import CInput
@preconcurrency internal import Glibc  // Glibc carries no concurrency annotations; plain synchronous calls.
internal import LinuxSystem
internal import Seat

/// What libinput's C callbacks reach through their userdata: the seat devices are opened
/// through (or none: opened directly), and the errors libinput logged since they were last taken.
final class LibinputCallbacks {
    let seat: Seat?
    var logged: [String] = []

    init(seat: Seat?) {
        self.seat = seat
    }

    /// `open_restricted`: a descriptor, or a negative errno.
    func open(_ path: String, flags: Int32) -> Int32 {
        if let seat {
            do {
                return try seat.openDevice(path).descriptor
            } catch {
                return -(error.errno.rawValue == 0 ? EACCES : error.errno.rawValue)
            }
        }
        let descriptor = Glibc.open(path, flags | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : -Glibc.errno
    }

    /// `close_restricted`.
    func close(_ descriptor: Int32) {
        if let seat {
            seat.closeDevice(descriptor: descriptor)
        } else {
            _ = Glibc.close(descriptor)
        }
    }
}

/// Owns one libinput path-backend context: the one place the package calls libinput. Its C
/// events are turned into ``LibinputEvent`` values here and destroyed at once.
final class LibinputContext {
    /// The most errors kept from libinput's log between two reads.
    static let maximumLogged = 64

    let handle: OpaquePointer
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let userdata: CallbackUserdata<LibinputCallbacks>
    private let callbacks: LibinputCallbacks
    /// Devices held (referenced) while libinput reports them, by handle, with our number.
    private var numbers: [OpaquePointer: Int] = [:]
    private var nextNumber = 0

    /// Creates a context; devices are added with ``add(path:)``. Uses
    /// `libinput_path_create_context`, `libinput_log_set_priority` and `libinput_log_set_handler`.
    init?(seat: Seat?) {
        let callbacks = LibinputCallbacks(seat: seat)
        let userdata = CallbackUserdata(retaining: callbacks)
        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(
            to: libinput_interface(
                open_restricted: { path, flags, data in
                    guard let path, let target = CallbackUserdata<LibinputCallbacks>.target(from: data) else {
                        return -EINVAL
                    }
                    return target.open(String(cString: path), flags: flags)
                },
                close_restricted: { descriptor, data in
                    CallbackUserdata<LibinputCallbacks>.target(from: data)?.close(descriptor)
                }))
        guard let handle = libinput_path_create_context(interface, userdata.pointer) else {
            userdata.release()
            interface.deallocate()
            return nil
        }
        self.handle = handle
        self.interface = interface
        self.userdata = userdata
        self.callbacks = callbacks
        libinput_log_set_priority(handle, LIBINPUT_LOG_PRIORITY_ERROR)
        libinput_log_set_handler(handle) { context, _, format, arguments in
            guard let context, let format, let arguments,
                let target = CallbackUserdata<LibinputCallbacks>.target(from: libinput_get_user_data(context)),
                target.logged.count < LibinputContext.maximumLogged
            else { return }
            var buffer = [CChar](repeating: 0, count: 512)
            _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            let line = String(decoding: bytes, as: UTF8.self).trimmingTrailingNewlines()
            if !line.isEmpty { target.logged.append(line) }
        }
    }

    deinit {
        for device in numbers.keys { libinput_device_unref(device) }
        // Closes every device through close_restricted: the userdata lives until after it.
        libinput_unref(handle)
        userdata.release()
        interface.deallocate()
    }

    /// The descriptor to watch. Uses `libinput_get_fd`.
    var fileDescriptor: Int32 { libinput_get_fd(handle) }

    /// The errors libinput logged since the last call.
    func takeLogged() -> [String] {
        defer { callbacks.logged.removeAll() }
        return callbacks.logged
    }

    /// Adds a device node; `false` when libinput refused it (its log says why). The device is
    /// reported (and held) from its `DEVICE_ADDED` event on. Uses `libinput_path_add_device`.
    func add(path: String) -> Bool {
        libinput_path_add_device(handle, path) != nil
    }

    /// Removes the device at a node, when libinput still reports it (it has not seen it go
    /// itself: a device libinput removed on `ENODEV` must not be removed again). Uses
    /// `libinput_path_remove_device`.
    ///
    /// - Returns: Whether a device was removed.
    @discardableResult
    func remove(path: String) -> Bool {
        guard let device = numbers.first(where: { self.path(of: $0.key) == path })?.key else { return false }
        libinput_path_remove_device(device)
        return true
    }

    /// The nodes of the devices libinput reports now (added, not yet removed).
    var paths: [String] { numbers.keys.map { path(of: $0) } }

    /// The node of a device libinput reports (`/dev/input/` and its sysname).
    func path(of device: OpaquePointer) -> String {
        "/dev/input/" + String(cString: libinput_device_get_sysname(device))
    }

    /// Reads what the devices sent and returns it as values: one `libinput_dispatch`, then every
    /// event queued. `screen` gives the size positions are transformed to; `kind` says what a
    /// newly added device is (from udev's tags); `configure` is called with each new device.
    func dispatch(
        screen: (width: Int, height: Int)?, kind: (String, OpaquePointer) -> LibinputDeviceKind,
        outputName: (String) -> String?, tapToClick: Bool
    ) -> [LibinputEvent] {
        _ = libinput_dispatch(handle)
        var events: [LibinputEvent] = []
        let width = UInt32(clamping: screen?.width ?? 1)
        let height = UInt32(clamping: screen?.height ?? 1)
        while let event = libinput_get_event(handle) {
            defer { libinput_event_destroy(event) }
            if let value = convert(
                event, width: width, height: height, kind: kind, outputName: outputName, tapToClick: tapToClick)
            {
                events.append(value)
            }
        }
        return events
    }

    private func convert(
        _ event: OpaquePointer, width: UInt32, height: UInt32, kind: (String, OpaquePointer) -> LibinputDeviceKind,
        outputName: (String) -> String?, tapToClick: Bool
    ) -> LibinputEvent? {
        guard let device = libinput_event_get_device(event) else { return nil }
        let type = libinput_event_get_type(event)
        if type == LIBINPUT_EVENT_DEVICE_ADDED {
            guard numbers[device] == nil else { return nil }
            nextNumber += 1
            numbers[device] = nextNumber
            libinput_device_ref(device)
            if tapToClick, libinput_device_config_tap_get_finger_count(device) > 0 {
                _ = libinput_device_config_tap_set_enabled(device, LIBINPUT_CONFIG_TAP_ENABLED)
            }
            let path = path(of: device)
            return .added(
                device: nextNumber, name: String(cString: libinput_device_get_name(device)), path: path,
                kind: kind(path, device), outputName: outputName(path))
        }
        guard let number = numbers[device] else { return nil }
        if type == LIBINPUT_EVENT_DEVICE_REMOVED {
            numbers[device] = nil
            libinput_device_unref(device)
            return .removed(device: number)
        }
        // Each getter is asked only of its own event types: libinput logs a client bug otherwise.
        switch type {
        case LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE, LIBINPUT_EVENT_POINTER_BUTTON:
            guard let pointer = libinput_event_get_pointer_event(event) else { return nil }
            let time = Double(libinput_event_pointer_get_time_usec(pointer)) / 1_000_000
            switch type {
            case LIBINPUT_EVENT_POINTER_MOTION:
                return .motion(
                    device: number, dx: libinput_event_pointer_get_dx(pointer),
                    dy: libinput_event_pointer_get_dy(pointer), time: time)
            case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
                return .absolute(
                    device: number, x: libinput_event_pointer_get_absolute_x_transformed(pointer, width),
                    y: libinput_event_pointer_get_absolute_y_transformed(pointer, height), time: time)
            default:
                return .button(
                    device: number, code: libinput_event_pointer_get_button(pointer),
                    pressed: libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED,
                    time: time)
            }
        case LIBINPUT_EVENT_TOUCH_FRAME:
            return .frame(device: number)
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            guard let touch = libinput_event_get_touch_event(event) else { return nil }
            let time = Double(libinput_event_touch_get_time_usec(touch)) / 1_000_000
            let slot = libinput_event_touch_get_seat_slot(touch)
            let x = libinput_event_touch_get_x_transformed(touch, width)
            let y = libinput_event_touch_get_y_transformed(touch, height)
            return type == LIBINPUT_EVENT_TOUCH_DOWN
                ? .touchDown(device: number, slot: slot, x: x, y: y, time: time)
                : .touchMotion(device: number, slot: slot, x: x, y: y, time: time)
        case LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            // Positions are not to be asked of an up or a cancel.
            guard let touch = libinput_event_get_touch_event(event) else { return nil }
            let time = Double(libinput_event_touch_get_time_usec(touch)) / 1_000_000
            let slot = libinput_event_touch_get_seat_slot(touch)
            return type == LIBINPUT_EVENT_TOUCH_UP
                ? .touchUp(device: number, slot: slot, time: time)
                : .touchCancel(device: number, slot: slot, time: time)
        default:
            return nil  // scrolling, keys (EvdevSource reads keyboards), gestures, tablet tools, switches
        }
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
