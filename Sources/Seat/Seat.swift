internal import CSeat
public import LinuxSystem

/// A seat opened through libseat: seatd, or logind through libseat, gives an ordinary user the
/// seat's input devices, as cage and weston get them. The seat can be taken away (a switch to
/// another VT, another session): libseat revokes the devices and reports the seat disabled;
/// when the session comes back it reports it enabled, and the devices must be opened again.
///
/// A process opens its seat once: seatd refuses a second client on the same VT. Every user of
/// devices (the keyboards, a DRM display, touch and pointer) shares it and follows the seat with
/// ``observe(_:onDisable:onEnable:)``. `EvdevSource` opens one of its own when it is given none and
/// its options' `seatAccess` allows; whoever opens the seat watches ``fileDescriptor`` and calls
/// ``dispatch()`` when it is readable. Not `Sendable`: it belongs to the loop's thread.
public final class Seat {
    /// Who follows the seat: inputs let go of their devices before outputs, and outputs come
    /// back before inputs, so that no key lands on a display that is not drawn yet.
    public enum ObserverRole: Hashable, Sendable {
        /// Input devices: told first when the seat goes, last when it comes back.
        case input
        /// Displays: told last when the seat goes, first when it comes back.
        case output
    }

    /// The seat's name, such as `seat0`.
    public let name: String
    /// The seat manager libseat reached: `seatd` or `logind`.
    public let backend: String
    /// Whether the session holds the seat now (devices can be opened).
    public private(set) var isEnabled = false
    /// Called when the seat is taken away, before libseat is told the devices are let go: stop
    /// using them (their descriptors are already revoked) and cancel what they held. An input
    /// observer's, called before those of ``observe(_:onDisable:onEnable:)``.
    public var onDisable: (() -> Void)?
    /// Called when the seat is back: open the devices again. An input observer's, after the others.
    public var onEnable: (() -> Void)?

    private let observers = SeatObservers()

    private let handle: OpaquePointer
    /// libseat keeps the listener's address: it lives on the heap as long as the seat.
    private let listener: UnsafeMutablePointer<libseat_seat_listener>
    private var devices: [Int32: Int32] = [:]  // descriptor → libseat device id

    /// Opens the seat through the seat managers named, in order (`seatd`, then `logind`), and
    /// waits up to `timeout` seconds for it to be enabled. A seat manager that accepts the
    /// connection and does not answer within `timeout` seconds (seatd stopped or hung: libseat
    /// itself would wait for ever; logind, answering through sd-bus, gets at least 25 s) counts as
    /// failed, and the next one is tried. libseat's own `builtin` backend is
    /// never tried unless `LIBSEAT_BACKEND` names it: as root it would take the VT over.
    ///
    /// - Parameters:
    ///   - backends: The backends to try, unless `LIBSEAT_BACKEND` is set (then only it).
    ///   - timeout: How long to wait for each seat manager's answer, and for the seat to be enabled.
    /// - Throws: `InputError` naming each backend tried and why it failed.
    ///
    /// Chooses the backend through the `LIBSEAT_BACKEND` environment variable (libseat reads no
    /// other way): open the seat before the program starts other threads that read the environment.
    public init(backends: [String] = ["seatd", "logind"], timeout: Double = 2) throws(InputError) {
        libseat_set_log_level(LIBSEAT_LOG_LEVEL_SILENT)
        let chosen = Syscalls.environment("LIBSEAT_BACKEND").map { [$0] } ?? backends
        var failures: [String] = []
        var opened: (OpaquePointer, String)?
        var lastError = Errno(rawValue: 0)
        var box = SeatBox()
        let listener = UnsafeMutablePointer<libseat_seat_listener>.allocate(capacity: 1)
        listener.initialize(
            to: libseat_seat_listener(
                enable_seat: { _, userdata in
                    guard let box = CallbackUserdata<SeatBox>.target(from: userdata) else { return }
                    box.enabled = true
                    box.seat?.enabled()
                },
                disable_seat: { seat, userdata in
                    guard let box = CallbackUserdata<SeatBox>.target(from: userdata) else { return }
                    box.enabled = false
                    if let owner = box.seat { owner.disabled() } else if let seat { _ = libseat_disable_seat(seat) }
                }))
        var userdata = CallbackUserdata(retaining: box)
        // A seat manager that never answered may still call the listener: it is kept for ever then.
        var abandoned = false
        let setByUser = Syscalls.environment("LIBSEAT_BACKEND") != nil
        for backend in chosen {
            if !setByUser { Syscalls.setEnvironment("LIBSEAT_BACKEND", backend) }
            // seatd answers at once or not at all; logind's answers go through sd-bus, whose calls may take up
            // to its default 25 s on a busy boot before they fail: it gets that long.
            let answerWait = backend == "logind" ? max(timeout, 25) : timeout
            let result = SeatOpening.open(listener: listener, userdata: userdata.pointer, timeout: answerWait)
            if !setByUser { Syscalls.setEnvironment("LIBSEAT_BACKEND", nil) }
            guard case .answered(let handle, let code) = result else {
                // Its box and userdata stay with the thread still waiting; the next try gets new ones.
                abandoned = true
                lastError = .timedOut
                failures.append(
                    "\(backend): it accepted the connection but did not answer within \(answerWait) s (stopped or "
                        + "hung): restart it")
                box = SeatBox()
                userdata = CallbackUserdata(retaining: box)
                continue
            }
            if let handle {
                opened = (handle, backend)
                break
            }
            lastError = code
            failures.append("\(backend): \(Self.reason(code, backend: backend))")
        }
        guard let (handle, backend) = opened else {
            userdata.release()
            if !abandoned { listener.deallocate() }
            throw InputError(
                errno: lastError, operation: "open seat", path: nil,
                message: "no seat manager could be reached (\(failures.joined(separator: "; ")))")
        }
        // The first enable comes through dispatch, never inside libseat_open_seat. Waited for
        // before the seat is made, so a failure cleans up here and deinit never runs.
        let deadline = Syscalls.monotonicNow() + timeout
        while !box.enabled {
            guard libseat_dispatch(handle, 0) >= 0, !box.enabled else { break }
            let left = deadline - Syscalls.monotonicNow()
            guard left > 0 else { break }
            _ = Syscalls.waitReadable(libseat_get_fd(handle), milliseconds: Int32(min(left, 0.1) * 1000) + 1)
        }
        let seatName = libseat_seat_name(handle).map { String(cString: $0) } ?? "seat0"
        guard box.enabled else {
            libseat_close_seat(handle)
            userdata.release()
            if !abandoned { listener.deallocate() }
            throw InputError(
                operation: "open seat", path: nil,
                message: "\(backend) opened \(seatName) but never enabled it within \(timeout) s: "
                    + "another session holds it, or this session is not on it")
        }
        self.handle = handle
        self.listener = listener
        listenerIsShared = abandoned
        self.backend = backend
        self.userdata = userdata
        name = seatName
        isEnabled = true
        box.seat = self
    }

    private let userdata: CallbackUserdata<SeatBox>
    /// Whether a seat manager that never answered may still call the listener: it is not freed then.
    private let listenerIsShared: Bool

    deinit {
        for (_, id) in devices { _ = libseat_close_device(handle, id) }
        libseat_close_seat(handle)
        userdata.release()
        if !listenerIsShared { listener.deallocate() }
    }

    /// The descriptor to watch: readable when libseat has something to deliver.
    public var fileDescriptor: Int32 { libseat_get_fd(handle) }

    /// Delivers what libseat has (seat enabled or disabled) without waiting.
    public func dispatch() {
        _ = libseat_dispatch(handle, 0)
    }

    /// Opens a device through the seat.
    ///
    /// - Parameter path: The device path.
    /// - Returns: Its descriptor (non-blocking, read-write), and a closure that closes it
    ///   through the seat.
    /// - Throws: `InputError` naming the path; `EPERM` while the seat is disabled.
    package func openDevice(_ path: String) throws(InputError) -> (descriptor: Int32, close: () -> Void) {
        var descriptor: Int32 = -1
        let id = libseat_open_device(handle, path, &descriptor)
        guard id >= 0, descriptor >= 0 else {
            let code = Errno.current
            throw InputError(
                errno: code, operation: "open", path: path,
                message: "\(backend) would not give the device to this session (errno \(code.rawValue))"
                    + (isEnabled ? "" : ": the seat is disabled (another session is active)"))
        }
        // seatd hands the descriptor over blocking; the loop needs it non-blocking.
        Syscalls.makeNonBlocking(descriptor)
        devices[descriptor] = id
        return (
            descriptor,
            { [weak self] in
                guard let self, let id = self.devices.removeValue(forKey: descriptor) else { return }
                _ = libseat_close_device(self.handle, id)
            }
        )
    }

    /// Follows the seat: `onDisable` when it is taken away (before libseat is told the devices
    /// are let go: their descriptors are revoked already, and a display is no longer DRM master),
    /// `onEnable` when it is back. Inputs are told before outputs when the seat goes, outputs
    /// before inputs when it comes back; in one role, in the order they observed.
    ///
    /// - Parameters:
    ///   - role: Whether the observer reads input devices or shows a display.
    ///   - onDisable: Stop using the devices and cancel what they held.
    ///   - onEnable: Open or use the devices again.
    /// - Returns: The observation: the observer is called until it is cancelled or released.
    public func observe(
        _ role: ObserverRole, onDisable: @escaping () -> Void, onEnable: @escaping () -> Void
    ) -> SeatObservation {
        observers.add(role, onDisable: onDisable, onEnable: onEnable)
    }

    /// Closes a device opened with ``openDevice(_:)`` by its descriptor (what libinput's
    /// `close_restricted` is given); a descriptor not opened here is closed as a plain file.
    ///
    /// - Parameter descriptor: The descriptor `openDevice` returned.
    package func closeDevice(descriptor: Int32) {
        if let id = devices.removeValue(forKey: descriptor) {
            _ = libseat_close_device(handle, id)
        }
        Syscalls.close(descriptor)
    }

    private func enabled() {
        isEnabled = true
        observers.enable()
        onEnable?()
    }

    private func disabled() {
        isEnabled = false
        onDisable?()
        observers.disable()
        _ = libseat_disable_seat(handle)
    }

    private static func reason(_ code: Errno, backend: String) -> String {
        switch (code, backend) {
        case (.noSuchFileOrDirectory, "seatd"):
            return "seatd is not running (no /run/seatd.sock); start it with `seatd -g GROUP`"
        case (.permissionDenied, "seatd"): return "no permission for /run/seatd.sock: add the user to seatd's group"
        case (_, "logind"): return "no logind session on a seat for this user (errno \(code.rawValue))"
        default: return "errno \(code.rawValue)"
        }
    }
}

/// A seat observer's registration (``Seat/observe(_:onDisable:onEnable:)``): the observer is
/// called until ``cancel()`` or until this is released.
public final class SeatObservation {
    private var cancellation: (() -> Void)?

    init(_ cancellation: @escaping () -> Void) {
        self.cancellation = cancellation
    }

    deinit {
        cancellation?()
    }

    /// Stops calling the observer. Idempotent.
    public func cancel() {
        cancellation?()
        cancellation = nil
    }
}

/// The observers of a seat, in the order they are told (internal for tests: a real seat is
/// disabled only by a VT switch).
final class SeatObservers {
    private var entries: [(id: Int, role: Seat.ObserverRole, disable: () -> Void, enable: () -> Void)] = []
    private var next = 0

    func add(
        _ role: Seat.ObserverRole, onDisable: @escaping () -> Void, onEnable: @escaping () -> Void
    ) -> SeatObservation {
        next += 1
        let id = next
        entries.append((id, role, onDisable, onEnable))
        return SeatObservation { [weak self] in self?.entries.removeAll { $0.id == id } }
    }

    /// Inputs first, then outputs.
    func disable() {
        call(.input) { $0.disable() }
        call(.output) { $0.disable() }
    }

    /// Outputs first, then inputs.
    func enable() {
        call(.output) { $0.enable() }
        call(.input) { $0.enable() }
    }

    private func call(
        _ role: Seat.ObserverRole,
        _ body: ((id: Int, role: Seat.ObserverRole, disable: () -> Void, enable: () -> Void)) -> Void
    ) {
        // An observer may cancel itself or another while called: each is looked up again.
        for id in entries.filter({ $0.role == role }).map(\.id) {
            guard let entry = entries.first(where: { $0.id == id }) else { continue }
            body(entry)
        }
    }
}

/// Carries the seat to libseat's C callbacks.
private final class SeatBox {
    weak var seat: Seat?
    /// Whether libseat enabled the seat (set before the seat object exists, too).
    var enabled = false
}
