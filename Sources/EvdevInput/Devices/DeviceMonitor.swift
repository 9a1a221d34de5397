internal import CUdev
public import LinuxSystem

/// Hot-plug notifications for `/dev/input/event*` devices, from a libudev monitor.
///
/// Listens to the `udev` source when udevd runs (events come after udev's rules have tagged the
/// device and set its permissions), and to the `kernel` source otherwise (containers, initramfs
/// kiosks, the test VM: the device node exists as soon as the kernel announces it, through
/// devtmpfs). Not `Sendable`: it belongs to the event loop's thread.
public final class DeviceMonitor {
    /// What happened to a device.
    public enum Change: Hashable, Sendable {
        /// A device node appeared.
        case added(path: String)
        /// A device node went away.
        case removed(path: String)
    }

    /// Which netlink source is listened to: `udev` or `kernel`.
    public let source: String
    /// The descriptor to wait on (non-blocking).
    public let fileDescriptor: Int32
    private let udev: OpaquePointer
    private let monitor: OpaquePointer

    /// Starts listening.
    ///
    /// - Parameter source: `udev` or `kernel`; by default `udev` when udevd runs, else `kernel`.
    /// - Throws: `InputError` when the monitor cannot be created (no netlink in this sandbox).
    ///   Uses `udev_monitor_new_from_netlink` and `udev_monitor_enable_receiving`.
    public init(source: String? = nil) throws(InputError) {
        let chosen = source ?? (KeyboardDiscovery.udevIsRunning ? "udev" : "kernel")
        guard let udev = udev_new() else {
            throw InputError(
                errno: 0, operation: "udev", path: nil, message: "libudev could not start (out of memory?)")
        }
        guard let monitor = udev_monitor_new_from_netlink(udev, chosen) else {
            udev_unref(udev)
            throw InputError(
                errno: 0, operation: "hot-plug monitor", path: nil,
                message: "could not listen to \(chosen) device events (netlink unavailable in this sandbox?); "
                    + "keyboards plugged in later will not be seen. Turn hot-plug off to silence this")
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        let rc = udev_monitor_enable_receiving(monitor)
        guard rc >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw InputError(
                errno: -rc, operation: "hot-plug monitor", path: nil,
                message: "could not receive \(chosen) device events (errno \(-rc)); "
                    + "keyboards plugged in later will not be seen. Turn hot-plug off to silence this")
        }
        self.source = chosen
        self.udev = udev
        self.monitor = monitor
        fileDescriptor = udev_monitor_get_fd(monitor)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Every change waiting now, oldest first: additions and removals of `/dev/input/event*` nodes.
    /// Uses `udev_monitor_receive_device`.
    ///
    /// - Returns: The changes; empty when nothing is waiting.
    public func receive() -> [Change] {
        var changes: [Change] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }),
                node.hasPrefix("/dev/input/event"),
                let action = udev_device_get_action(device).map({ String(cString: $0) })
            else { continue }
            switch action {
            case "add": changes.append(.added(path: node))
            case "remove": changes.append(.removed(path: node))
            default: break
            }
        }
        return changes
    }
}
