internal import CUdev
public import LinuxSystem

/// An input device found by discovery.
public struct DiscoveredDevice: Hashable, Sendable {
    /// The device node, such as `/dev/input/event3`.
    public var path: String
    /// The kernel's name for it.
    public var name: String
    /// The kind of keyboard, from udev's `ID_INPUT_KEYBOARD` and `ID_INPUT_JOYSTICK` tags or,
    /// without udevd, from the device's declared keys and axes; `nil` when the device could not be
    /// opened to check.
    public var kind: KeyboardKind?
    /// Whether the kind came from udev's tags (`true`) or from reading the device (`false`).
    public var taggedByUdev: Bool
    /// Why the device could not be opened, when it could not.
    public var openError: InputError?
    /// The stable names udevd made for it (`/dev/input/by-id/…-event-kbd`, `/dev/input/by-path/…`),
    /// which survive a re-plug; empty without udevd.
    public var links: [String] = []
    /// The seat udev assigned (`ID_SEAT`), or `nil`: then it is on `seat0`.
    public var seat: String?
}

/// Finds input devices and keyboards with libudev (subsystem `input`, `/dev/input/event*`).
public enum KeyboardDiscovery {
    /// Whether udevd runs: then devices carry `ID_INPUT_*` tags and hot-plug listens to udev's
    /// events; without it (containers, initramfs kiosks, the test VM) the kernel's are used.
    public static var udevIsRunning: Bool { Syscalls.exists("/run/udev/control") }

    /// Every evdev input device, with its kind. Uses `udev_enumerate_scan_devices`.
    ///
    /// - Returns: The devices, in path order.
    /// - Throws: `InputError` when libudev cannot be used at all.
    public static func inputDevices() throws(InputError) -> [DiscoveredDevice] {
        guard let udev = udev_new() else {
            throw InputError(
                operation: "udev", path: nil, message: "libudev could not start (out of memory?)")
        }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else {
            throw InputError(operation: "udev", path: nil, message: "libudev could not enumerate devices")
        }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_scan_devices(enumerate)
        var found: [DiscoveredDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            defer { entry = udev_list_entry_get_next(current) }
            guard let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }),
                node.hasPrefix("/dev/input/event")
            else { continue }
            found.append(describe(device, path: node))
        }
        return found.sorted { $0.path.localizedStandardLess($1.path) }
    }

    /// The keyboards among the input devices: full keyboards, keypads, remote controls and gamepads.
    ///
    /// - Returns: The keyboards.
    /// - Throws: `InputError` when none is found, saying how many devices were looked at and,
    ///   when some could not be opened, the permission fix.
    public static func keyboards() throws(InputError) -> [DiscoveredDevice] {
        let devices = try inputDevices()
        let keyboards = devices.filter { ($0.kind ?? KeyboardKind.none) != KeyboardKind.none }
        if keyboards.isEmpty {
            if let denied = devices.first(where: { $0.openError?.errno == .permissionDenied })?.openError {
                throw denied
            }
            throw InputError.noKeyboards(searched: devices.count)
        }
        return keyboards
    }

    /// The seat a device node is on: udev's `ID_SEAT`, or `seat0` when it has none (or udev
    /// does not know the node). Uses `udev_device_new_from_devnum`.
    ///
    /// - Parameter path: The device node, or a link to it.
    /// - Returns: The seat's name.
    public static func seat(of path: String) -> String {
        guard let number = Syscalls.characterDeviceNumber(path), let udev = udev_new() else { return "seat0" }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_devnum(udev, Int8(UInt8(ascii: "c")), dev_t(number)) else {
            return "seat0"
        }
        defer { udev_device_unref(device) }
        guard let value = udev_device_get_property_value(device, "ID_SEAT").map({ String(cString: $0) }), !value.isEmpty
        else { return "seat0" }
        return value
    }

    private static func describe(_ device: OpaquePointer, path: String) -> DiscoveredDevice {
        func property(_ name: String) -> String? {
            udev_device_get_property_value(device, name).map { String(cString: $0) }
        }
        let parentName = udev_device_get_parent(device).flatMap { parent in
            udev_device_get_sysattr_value(parent, "name").map { String(cString: $0) }
        }
        var result = DiscoveredDevice(
            path: path, name: parentName ?? "", kind: nil, taggedByUdev: false, openError: nil)
        var link = udev_device_get_devlinks_list_entry(device)
        while let current = link {
            if let name = udev_list_entry_get_name(current) { result.links.append(String(cString: name)) }
            link = udev_list_entry_get_next(current)
        }
        result.links.sort()
        result.seat = property("ID_SEAT").flatMap { $0.isEmpty ? nil : $0 }
        if udev_device_get_is_initialized(device) != 0, property("ID_INPUT") == "1" {
            result.taggedByUdev = true
            if property("ID_INPUT_KEYBOARD") == "1" {
                result.kind = .keyboard
                return result
            }
            // udev's input_id tags gamepads (BTN_SOUTH, also called BTN_A) and joysticks alike.
            if property("ID_INPUT_JOYSTICK") == "1" {
                result.kind = .gamepad
                return result
            }
            if property("ID_INPUT_KEY") != "1" {
                result.kind = KeyboardKind.none
                return result
            }
        }
        // Untagged (no udevd), or tagged with keys but not as a keyboard (keypads, remotes):
        // the declared keys decide.
        do {
            let opened = try InputDevice(path: path)
            result.kind = opened.kind
            if result.name.isEmpty { result.name = opened.name }
            result.taggedByUdev = false
        } catch {
            result.openError = error
        }
        return result
    }
}

extension String {
    /// Orders `event2` before `event10`.
    fileprivate func localizedStandardLess(_ other: String) -> Bool {
        let a = self.split(whereSeparator: { !$0.isNumber }).last.flatMap { Int($0) }
        let b = other.split(whereSeparator: { !$0.isNumber }).last.flatMap { Int($0) }
        if let a, let b, self.filter({ !$0.isNumber }) == other.filter({ !$0.isNumber }) { return a < b }
        return self < other
    }
}
