internal import CUdev
public import LinuxSystem

/// Device events of one subsystem from a libudev monitor: `input` nodes plugged in and out, a
/// `drm` card's `change` when a monitor is connected or a mode list changes. Every event is
/// passed on: no property (such as `HOTPLUG=1`, which a change written to sysfs does not carry)
/// filters them.
///
/// Listens to the `udev` source when udevd runs (events come after udev's rules have tagged the
/// device and set its permissions), and to the `kernel` source otherwise. Not `Sendable`: it
/// belongs to the event loop's thread; watch ``fileDescriptor`` and call ``receive()``.
public final class UdevMonitor {
    /// What happened to a device.
    public struct Action: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// udev's name for it (`add`, `remove`, `change`, `bind`…).
        public var rawValue: String

        /// Creates an action from udev's name.
        ///
        /// - Parameter rawValue: The name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The device appeared.
        public static let add = Action(rawValue: "add")
        /// The device went away.
        public static let remove = Action(rawValue: "remove")
        /// Something about the device changed (a DRM card's connectors).
        public static let change = Action(rawValue: "change")

        /// udev's name.
        public var description: String { rawValue }
    }

    /// One event: the action and the device as it is now (its properties as the event carries them).
    public struct Event: Hashable, Sendable {
        /// What happened.
        public var action: Action
        /// The device.
        public var device: UdevDevice

        /// Creates an event.
        ///
        /// - Parameters:
        ///   - action: What happened.
        ///   - device: The device.
        public init(action: Action, device: UdevDevice) {
            self.action = action
            self.device = device
        }
    }

    /// The subsystem listened to.
    public let subsystem: String
    /// Which netlink source is listened to: `udev` or `kernel`.
    public let source: String
    /// The descriptor to wait on (non-blocking).
    public let fileDescriptor: Int32
    private let udev: OpaquePointer
    private let monitor: OpaquePointer

    /// The most events taken in one ``receive()``; the rest wait for the next.
    public static let maximumEventsPerReceive = 256

    /// Starts listening to one subsystem's events.
    ///
    /// - Parameters:
    ///   - subsystem: The subsystem (`input`, `drm`).
    ///   - source: `udev` or `kernel`; by default `udev` when udevd runs, else `kernel`.
    /// - Throws: `InputError` when the monitor cannot be created (no netlink in this sandbox).
    ///   Uses `udev_monitor_new_from_netlink`, `udev_monitor_filter_add_match_subsystem_devtype`
    ///   and `udev_monitor_enable_receiving`.
    public init(subsystem: String, source: String? = nil) throws(InputError) {
        let chosen = source ?? (UdevEnumeration.udevIsRunning ? "udev" : "kernel")
        guard let udev = udev_new() else {
            throw InputError(
                operation: "udev", path: nil, message: "libudev could not start (out of memory?)")
        }
        guard let monitor = udev_monitor_new_from_netlink(udev, chosen) else {
            udev_unref(udev)
            throw InputError(
                operation: "hot-plug monitor", path: nil,
                message: "could not listen to \(chosen) \(subsystem) events (netlink unavailable in this sandbox?); "
                    + "devices plugged in later will not be seen")
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
        let rc = udev_monitor_enable_receiving(monitor)
        guard rc >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw InputError(
                errno: Errno(rawValue: -rc), operation: "hot-plug monitor", path: nil,
                message: "could not receive \(chosen) \(subsystem) events (errno \(-rc)); "
                    + "devices plugged in later will not be seen")
        }
        self.subsystem = subsystem
        self.source = chosen
        self.udev = udev
        self.monitor = monitor
        fileDescriptor = udev_monitor_get_fd(monitor)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// The events waiting now, oldest first (at most ``maximumEventsPerReceive``). Uses
    /// `udev_monitor_receive_device`.
    ///
    /// - Returns: The events; empty when nothing is waiting.
    public func receive() -> [Event] {
        var events: [Event] = []
        while events.count < Self.maximumEventsPerReceive, let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            guard let action = udev_device_get_action(device).map({ String(cString: $0) }) else { continue }
            events.append(Event(action: Action(rawValue: action), device: UdevReader.describe(device)))
        }
        return events
    }
}
