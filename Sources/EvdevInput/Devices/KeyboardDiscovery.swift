public import LinuxSystem
internal import Udev

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

/// Finds input devices and keyboards through the Udev module's enumeration (subsystem `input`,
/// `/dev/input/event*`).
public enum KeyboardDiscovery {
    /// Whether udevd runs: then devices carry `ID_INPUT_*` tags and hot-plug listens to udev's
    /// events; without it (containers, initramfs kiosks, the test VM) the kernel's are used.
    public static var udevIsRunning: Bool { UdevEnumeration.udevIsRunning }

    /// Every evdev input device, with its kind. Uses the Udev module's `UdevEnumeration.inputDevices()`.
    ///
    /// - Returns: The devices, in path order.
    /// - Throws: `InputError` when libudev cannot be used at all.
    public static func inputDevices() throws(InputError) -> [DiscoveredDevice] {
        try UdevEnumeration.inputDevices().compactMap { device in device.path.map { describe(device, path: $0) } }
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
    /// does not know the node). Uses the Udev module's `UdevEnumeration.device(node:)`.
    ///
    /// - Parameter path: The device node, or a link to it.
    /// - Returns: The seat's name.
    public static func seat(of path: String) -> String {
        UdevEnumeration.device(node: path)?.seat ?? "seat0"
    }

    /// The kind udev's tags say (`ID_INPUT_KEYBOARD`, `ID_INPUT_JOYSTICK`, an input device without
    /// `ID_INPUT_KEY`), or `nil` when the device's declared keys must decide: no udevd, or keys
    /// without the keyboard tag (keypads, remotes).
    static func taggedKind(_ device: UdevDevice) -> KeyboardKind? {
        guard device.isInitialized, device.isTaggedInput else { return nil }
        let classes = device.inputClasses
        if classes.contains(.keyboard) { return .keyboard }
        // udev's input_id tags gamepads (BTN_SOUTH, also called BTN_A) and joysticks alike.
        if classes.contains(.joystick) { return .gamepad }
        if !classes.contains(.key) { return KeyboardKind.none }
        return nil
    }

    /// The device as discovery reports it: the kind from udev's tags or, failing those, from opening
    /// the device and reading its declared keys.
    static func describe(_ device: UdevDevice, path: String) -> DiscoveredDevice {
        var result = DiscoveredDevice(
            path: path, name: device.name, kind: nil, taggedByUdev: device.isInitialized && device.isTaggedInput,
            openError: nil)
        result.links = device.links
        result.seat = device.properties["ID_SEAT"].flatMap { $0.isEmpty ? nil : $0 }
        if let kind = taggedKind(device) {
            result.kind = kind
            return result
        }
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
