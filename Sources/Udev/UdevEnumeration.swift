internal import CUdev
public import LinuxSystem

/// The devices udev knows now, as values. Uses libudev's enumeration.
public enum UdevEnumeration {
    /// Whether udevd runs (`/run/udev/control` exists): then devices carry `ID_INPUT_*` tags and a
    /// monitor can listen to udev's events; without it (containers, initramfs kiosks) only the
    /// kernel's are there, and libinput sees no device.
    public static var udevIsRunning: Bool { Syscalls.exists("/run/udev/control") }

    /// The most devices listed; a machine has a few dozen input nodes.
    public static let maximumDevices = 1024

    /// Every evdev node of the `input` subsystem (`/dev/input/event*`), in path order, with its
    /// properties. Uses `udev_enumerate_scan_devices`.
    ///
    /// - Returns: The devices.
    /// - Throws: `InputError` when libudev cannot be used at all.
    public static func inputDevices() throws(InputError) -> [UdevDevice] {
        try devices(subsystem: "input").filter(\.isEventNode).sorted { pathOrder($0.path ?? "", $1.path ?? "") }
    }

    /// Every device of a subsystem (`input`, `drm`) that has a device node. Uses
    /// `udev_enumerate_add_match_subsystem` and `udev_enumerate_scan_devices`.
    ///
    /// - Parameter subsystem: The subsystem.
    /// - Returns: The devices, in udev's order, at most ``maximumDevices``.
    /// - Throws: `InputError` when libudev cannot be used at all.
    public static func devices(subsystem: String) throws(InputError) -> [UdevDevice] {
        guard let udev = udev_new() else {
            throw InputError(
                operation: "udev", path: nil, message: "libudev could not start (out of memory?)")
        }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else {
            throw InputError(operation: "udev", path: nil, message: "libudev could not enumerate devices")
        }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, subsystem)
        udev_enumerate_scan_devices(enumerate)
        var found: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry, found.count < maximumDevices {
            defer { entry = udev_list_entry_get_next(current) }
            guard let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            guard udev_device_get_devnode(device) != nil else { continue }
            found.append(UdevReader.describe(device))
        }
        return found
    }

    /// The device behind a character device node (a link to one is followed), with its properties, as
    /// ``devices(subsystem:)`` describes it: what udev says of a node that was named rather than found
    /// (its seat, its tags). Uses `udev_device_new_from_devnum`.
    ///
    /// - Parameter path: The node, such as `/dev/input/event3`, or a link to it.
    /// - Returns: The device; `nil` when the path is not a character device, or udev does not know it.
    public static func device(node path: String) -> UdevDevice? {
        guard let number = Syscalls.characterDeviceNumber(path), let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_devnum(udev, CChar(UInt8(ascii: "c")), dev_t(number)) else {
            return nil
        }
        defer { udev_device_unref(device) }
        return UdevReader.describe(device)
    }

    /// Orders `event2` before `event10`.
    static func pathOrder(_ a: String, _ b: String) -> Bool {
        let stemA = a.reversed().drop(while: \.isNumber)
        let stemB = b.reversed().drop(while: \.isNumber)
        guard String(stemA) == String(stemB) else { return a < b }
        let numberA = Int(String(a.reversed().prefix(while: \.isNumber).reversed())) ?? 0
        let numberB = Int(String(b.reversed().prefix(while: \.isNumber).reversed())) ?? 0
        return numberA < numberB
    }
}

/// Reads a libudev device into a value.
enum UdevReader {
    static func describe(_ device: OpaquePointer) -> UdevDevice {
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry, properties.count < UdevDevice.maximumProperties {
            defer { entry = udev_list_entry_get_next(current) }
            guard let name = udev_list_entry_get_name(current) else { continue }
            let value = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            properties[String(cString: name)] = String(value.utf8.prefix(UdevDevice.maximumValueLength)) ?? ""
        }
        var links: [String] = []
        var link = udev_device_get_devlinks_list_entry(device)
        while let current = link, links.count < UdevDevice.maximumProperties {
            defer { link = udev_list_entry_get_next(current) }
            if let name = udev_list_entry_get_name(current) { links.append(String(cString: name)) }
        }
        let name =
            udev_device_get_parent(device).flatMap { parent in
                udev_device_get_sysattr_value(parent, "name").map { String(cString: $0) }
            } ?? ""
        return UdevDevice(
            path: udev_device_get_devnode(device).map { String(cString: $0) },
            syspath: udev_device_get_syspath(device).map { String(cString: $0) } ?? "",
            subsystem: udev_device_get_subsystem(device).map { String(cString: $0) } ?? "",
            name: name, isInitialized: udev_device_get_is_initialized(device) != 0, properties: properties,
            links: links.sorted())
    }
}
