internal import CEvdev
public import LinuxSystem
public import ResponderChain
public import Seat

/// An evdev input device opened for reading through libevdev.
///
/// The file descriptor is non-blocking: an event loop waits for it to become readable and then
/// calls ``readAvailable(into:)``. Not `Sendable`: it belongs to the loop's thread.
public final class InputDevice {
    /// The device path, such as `/dev/input/event3`.
    public let path: String
    /// The file descriptor (non-blocking), for `poll`.
    public let fileDescriptor: Int32
    private let device: OpaquePointer
    /// Whether ``grab()`` holds the device exclusively.
    public private(set) var isGrabbed = false
    /// Receives every event read, including the sync delta after a drop, when set.
    public var recorder: EvemuRecorder?

    /// Opens a device.
    ///
    /// - Parameter path: The device path.
    /// - Throws: `InputError` naming the path and the fix (permissions, no such device, not an
    ///   evdev device). Uses `open` and `libevdev_new_from_fd`.
    public convenience init(path: String) throws(InputError) {
        let fd: Int32
        switch Syscalls.openForReading(path) {
        case .success(let descriptor): fd = descriptor
        case .failure(let error): throw InputError.opening(path, errno: error)
        }
        try self.init(path: path, descriptor: fd, release: nil)
    }

    /// Opens a device through a seat (libseat): the seat manager opens it for this session, so
    /// an ordinary user can read it; it is closed through the seat too.
    ///
    /// - Parameters:
    ///   - path: The device path.
    ///   - seat: The seat.
    /// - Throws: `InputError` naming the path (the seat refused it, or it is not an evdev device).
    public convenience init(path: String, seat: Seat) throws(InputError) {
        let (fd, close) = try seat.openDevice(path)
        try self.init(path: path, descriptor: fd, release: close)
    }

    private let release: (() -> Void)?

    private init(path: String, descriptor fd: Int32, release: (() -> Void)?) throws(InputError) {
        self.path = path
        self.release = release
        var handle: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &handle)
        guard rc == 0, let handle else {
            release?()
            Syscalls.close(fd)
            throw InputError(
                errno: Errno(rawValue: -rc), operation: "open", path: path,
                message: "not an evdev input device (libevdev_new_from_fd failed with errno \(-rc)); "
                    + "give a /dev/input/event* path")
        }
        fileDescriptor = fd
        device = handle
        // Event times on the monotonic clock, as libinput does: immune to wall-clock jumps, and
        // the clock software repeats are timed with.
        _ = libevdev_set_clock_id(handle, Syscalls.monotonicClockID)
    }

    deinit {
        if isGrabbed { _ = libevdev_grab(device, LIBEVDEV_UNGRAB) }
        libevdev_free(device)
        release?()
        Syscalls.close(fileDescriptor)
    }

    /// The device's name, such as `AT Translated Set 2 keyboard`.
    public var name: String { libevdev_get_name(device).map { String(cString: $0) } ?? "" }
    /// The physical path, such as `usb-0000:00:14.0-1/input0`, when the driver reports one.
    public var physicalPath: String? { libevdev_get_phys(device).map { String(cString: $0) } }
    /// The unique identifier (a serial number), when the driver reports one.
    public var uniqueID: String? { libevdev_get_uniq(device).map { String(cString: $0) } }
    /// Bus type, vendor, product and version.
    public var id: (bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        (
            UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            UInt16(truncatingIfNeeded: libevdev_get_id_version(device))
        )
    }
    /// A stable identity across reconnections: bus, vendor, product, and the unique id or physical path.
    public var stableID: String {
        let (bus, vendor, product, _) = id
        let hex = { (value: UInt16) in String(value, radix: 16) }
        return "\(hex(bus)):\(hex(vendor)):\(hex(product)):\(uniqueID ?? physicalPath ?? name)"
    }

    /// The keys the device declares.
    public var declaredKeys: Set<KeyCode> {
        var keys: Set<KeyCode> = []
        for code in UInt32(1)..<0x300 where libevdev_has_event_code(device, 1, code) != 0 {
            keys.insert(KeyCode(UInt16(code)))
        }
        return keys
    }

    /// The device's description in evemu form (name, ids, properties, event bits), without
    /// events: the header of a recording of this device.
    public var evemuHeader: EvemuRecording {
        var header = EvemuRecording(name: name)
        header.id = id
        for property in UInt32(0)..<32 where libevdev_has_property(device, property) != 0 {
            header.properties[Int(property / 8)] |= 1 << (property % 8)
        }
        for type in UInt32(1)..<0x20 where libevdev_has_event_type(device, type) != 0 {
            let maximum = libevdev_event_type_get_max(type)
            guard maximum > 0 else { continue }
            for code in 0...UInt32(maximum) where libevdev_has_event_code(device, type, code) != 0 {
                header.declare(type: UInt16(type), code: UInt16(code))
            }
        }
        return header
    }

    /// The absolute axes the device declares (`EV_ABS` codes: `ABS_HAT0X` is `0x10`). Uses
    /// `libevdev_has_event_code`.
    public var declaredAbsoluteAxes: Set<UInt16> {
        var axes: Set<UInt16> = []
        for code in UInt32(0)..<0x40 where libevdev_has_event_code(device, 3, code) != 0 { axes.insert(UInt16(code)) }
        return axes
    }

    /// What kind of keyboard the declared keys and axes make this device (a gamepad counts).
    public var kind: KeyboardKind {
        KeyboardKind.classify(keys: declaredKeys, absoluteAxes: declaredAbsoluteAxes)
    }

    /// Whether the kernel auto-repeats this device's keys (it declares `EV_REP`).
    public var hasKernelRepeat: Bool { libevdev_has_event_type(device, 0x14) != 0 }

    /// The keys down now, as the kernel's state says; a gamepad's hat held off centre counts as
    /// its `BTN_DPAD_*` key (what ``EvdevDecoder`` makes of it). Uses `libevdev_get_event_value`.
    public var pressedKeys: [KeyCode] {
        var keys = declaredKeys.filter { libevdev_get_event_value(device, 1, UInt32($0.rawValue)) != 0 }
        for axis in [KeyboardKind.hatX, KeyboardKind.hatY] where libevdev_has_event_code(device, 3, UInt32(axis)) != 0 {
            let value = libevdev_get_event_value(device, 3, UInt32(axis))
            if let key = EvdevDecoder.hatKey(axis: axis, value: value) { keys.insert(key) }
        }
        return keys.sorted()
    }

    /// Takes the device exclusively: its keys stop reaching the console and other readers.
    ///
    /// - Throws: `InputError` with `Errno.resourceBusy` when another process holds the grab. Uses `libevdev_grab`.
    public func grab() throws(InputError) {
        let rc = libevdev_grab(device, LIBEVDEV_GRAB)
        guard rc == 0 else {
            throw InputError(
                errno: Errno(rawValue: -rc), operation: "grab", path: path,
                message: Errno(rawValue: -rc) == .resourceBusy
                    ? "another process holds this keyboard exclusively (a kiosk session, `evtest --grab`, another keytrace --grab); stop it or run without --grab"
                    : "could not grab the device (errno \(-rc))")
        }
        isGrabbed = true
    }

    /// Releases a grab.
    public func ungrab() {
        guard isGrabbed else { return }
        _ = libevdev_grab(device, LIBEVDEV_UNGRAB)
        isGrabbed = false
    }

    /// Sets the Caps Lock, Num Lock and Scroll Lock LEDs (on devices that have them). Uses `libevdev_kernel_set_led_value`.
    ///
    /// - Parameter locks: The lock state to show.
    public func setLEDs(_ locks: LockState) {
        let leds: [(UInt32, LockState)] = [(0, .numLock), (1, .capsLock), (2, .scrollLock)]
        for (code, lock) in leds where libevdev_has_event_code(device, 0x11, code) != 0 {
            _ = libevdev_kernel_set_led_value(device, code, locks.contains(lock) ? LIBEVDEV_LED_ON : LIBEVDEV_LED_OFF)
        }
    }

    /// Whether the device has lock LEDs (`EV_LED`): a keypad or a scanner may have none.
    public var hasLEDs: Bool { libevdev_has_event_type(device, 0x11) != 0 }

    /// The lock LEDs lit now, as the kernel reports them (`EVIOCGLED`, read when the device was
    /// opened and updated by its events and ``setLEDs(_:)``).
    public var lockLEDs: LockState {
        var locks: LockState = []
        let leds: [(UInt32, LockState)] = [(0, .numLock), (1, .capsLock), (2, .scrollLock)]
        for (code, lock) in leds where libevdev_get_event_value(device, 0x11, code) != 0 { locks.insert(lock) }
        return locks
    }

    /// What reading found.
    public enum ReadResult: Equatable, Sendable {
        /// Everything available was read.
        case drained
        /// The device is gone (`ENODEV`): its presses must be cancelled.
        case removed
    }

    /// Reads every event available now and decodes it. After a `SYN_DROPPED`, libevdev's sync
    /// mode brings its state up to date and the device gives it to the decoder
    /// (``EvdevDecoder/resynchronize(pressedKeys:time:)``): keys found released end `cancelled`,
    /// keys found held are recorded without a `began`. Uses `libevdev_next_event`.
    ///
    /// - Parameter decoder: The decoder for this device.
    /// - Returns: Whether the device is still there.
    @MainActor
    public func readAvailable(into decoder: EvdevDecoder) -> ReadResult {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(device, flags, &event)
            let time = Double(event.time.tv_sec) + Double(event.time.tv_usec) / 1_000_000
            if let recorder, rc >= 0 {
                recorder.record(
                    type: event.type, code: event.code, value: event.value, seconds: event.time.tv_sec,
                    microseconds: event.time.tv_usec)
            }
            if rc == Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) {
                // Sync deltas are skipped: the state query after the sync covers them.
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue { continue }
                decoder.decode(type: event.type, code: event.code, value: event.value, time: time)
            } else if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                    // SYN_DROPPED: the decoder drops the partial frame; libevdev now replays the delta.
                    decoder.decode(type: EvdevDecoder.eventSync, code: EvdevDecoder.syncDropped, value: 0, time: time)
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                }
            } else if Errno(rawValue: -rc) == .resourceTemporarilyUnavailable {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    // The sync is complete: the decoder resyncs from libevdev's state, then
                    // events are read normally again.
                    decoder.resynchronize(pressedKeys: pressedKeys, time: time)
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return .drained
            } else if Errno(rawValue: -rc) == .noSuchDevice {
                return .removed
            } else {
                return .drained
            }
        }
    }
}
