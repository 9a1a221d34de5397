public import LinuxSystem
internal import Udev

/// Hot-plug notifications for `/dev/input/event*` devices: the Udev module's monitor of the
/// `input` subsystem, narrowed to event nodes added and removed.
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
    public var source: String { monitor.source }
    /// The descriptor to wait on (non-blocking).
    public var fileDescriptor: Int32 { monitor.fileDescriptor }
    private let monitor: UdevMonitor

    /// Starts listening.
    ///
    /// - Parameter source: `udev` or `kernel`; by default `udev` when udevd runs, else `kernel`.
    /// - Throws: `InputError` when the monitor cannot be created (no netlink in this sandbox).
    public init(source: String? = nil) throws(InputError) {
        do {
            monitor = try UdevMonitor(subsystem: "input", source: source)
        } catch {
            var error = error
            error.message = error.message.replacingSuffix(
                "devices plugged in later will not be seen",
                with: "keyboards plugged in later will not be seen. Turn hot-plug off to silence this")
            throw error
        }
    }

    /// Every change waiting now, oldest first: additions and removals of `/dev/input/event*` nodes.
    ///
    /// - Returns: The changes; empty when nothing is waiting.
    public func receive() -> [Change] {
        monitor.receive().compactMap { event in
            guard let node = event.device.path, node.hasPrefix("/dev/input/event") else { return nil }
            switch event.action {
            case .add: return .added(path: node)
            case .remove: return .removed(path: node)
            default: return nil
            }
        }
    }
}

extension String {
    /// The string with `suffix` replaced, when it ends with it.
    fileprivate func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
