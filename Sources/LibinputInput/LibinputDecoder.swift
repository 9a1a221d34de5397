public import ResponderChain

/// Turns libinput's events into the app's pointer input: touches by seat slot, the left button
/// as a click at the cursor, the cursor moved by relative or absolute motion. Its output is
/// `InputEvent.pointer` values, the one path that hit-tests the focus tree (a Wayland
/// window's clicks and taps take it too).
///
/// Its rules:
/// - A touch goes down, moves and lifts by its seat slot (`contact`); a cancelled touch (a palm,
///   the device suspended) ends `cancel`: nothing activates. A touch hides the cursor.
/// - Only the left button (`BTN_LEFT`) clicks, at the cursor; the pointer's motion is passed on
///   only while the button is down (hovering moves nothing).
/// - Relative motion (already accelerated by libinput) moves the cursor from the screen's
///   middle, absolute motion puts it where it says; both are clamped to the screen.
/// - **The batch rule**: libinput releases a removed device's buttons and lifts its touches in
///   the same dispatch as its removal. Events are decoded a dispatch at a time
///   (``receive(batch:)``), and a release or a lift of a device removed later in the same batch
///   becomes a cancel: a mouse unplugged mid-click does not click.
/// - **The release grace**: the kernel itself releases a device's held buttons as it goes
///   (`input_dev_release_keys`), in a frame of their own that libinput may pass on a dispatch
///   before it sees the device gone. With a ``releaseGrace``, a button's release waits that long
///   (``nextDeadline``, ``flush(now:)``) and becomes a cancel when its device is removed meanwhile.
/// - A device that belongs to another output (udev's `WL_OUTPUT` names a connector other than
///   ``outputName``) is ignored, and reported.
///
/// Untrusted values are checked, never trapped on: at most ``maximumTouches`` fingers and
/// ``maximumDevices`` devices are followed; positions and motion that are not finite are ignored;
/// events of a device never added are ignored.
///
/// `LibinputSource` feeds it from libinput; it is public so that fuzzers and tests can feed it.
@MainActor
public final class LibinputDecoder {
    /// The most fingers followed at once; further touches are ignored until one lifts.
    public static let maximumTouches = 16
    /// The most devices followed at once; further ones are ignored until one goes.
    public static let maximumDevices = 64
    /// The evdev code of the left button (`BTN_LEFT`).
    public static let leftButton: UInt32 = 0x110

    /// Where input goes: the dispatcher.
    public let sink: any InputSink
    /// The screen's size in pixels (the display's mode); `nil` when unknown: positions are then
    /// only kept from going negative.
    public var screen: () -> (width: Int, height: Int)? = { nil }
    /// Maps a position in screen pixels to the window's coordinate space (the focus tree's
    /// frames: a display's cells). The identity by default.
    public var mapPoint: (_ x: Double, _ y: Double) -> Point = { Point(x: $0, y: $1) }
    /// Called with the cursor's position in screen pixels whenever it moves, and with `nil` when
    /// it should be hidden (a finger touched): a display draws it.
    public var onCursor: (((x: Double, y: Double)?) -> Void)?
    /// Called with every device added, removed or ignored.
    public var onDeviceChange: ((InputDeviceChange) -> Void)?
    /// The connector the app's display uses (`HDMI-A-1`): a device whose `WL_OUTPUT` names
    /// another is ignored. `nil`: every device is read.
    public var outputName: String?
    /// How long, in seconds, a button's release waits before it clicks: a release whose device is
    /// removed meanwhile is a cancel (the kernel releases a removed device's buttons itself, maybe
    /// a dispatch before libinput reports the removal). 0: releases are passed on at once, and
    /// only the batch rule applies.
    public var releaseGrace: Double = 0

    private struct Device {
        var info: InputDeviceInfo
        var kind: LibinputDeviceKind
    }

    private struct Touch {
        var device: Int
        var point: Point
    }

    private let makeDeviceID: () -> DeviceID
    private var devices: [Int: Device] = [:]
    private var ignored: Set<Int> = []
    private var touches: [Int32: Touch] = [:]
    /// The device whose left button is down.
    private var buttonDevice: Int?
    /// A release waiting out ``releaseGrace``: its device, where and when.
    private var pendingRelease: (device: Int, point: Point, time: Double)?
    /// The cursor, in screen pixels, once the pointer moved.
    public private(set) var cursor: (x: Double, y: Double)?

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - sink: Where input goes (the dispatcher).
    ///   - makeDeviceID: Makes the id of a device that appears (`Dispatcher.makeDeviceID()`).
    public init(sink: any InputSink, makeDeviceID: @escaping () -> DeviceID) {
        self.sink = sink
        self.makeDeviceID = makeDeviceID
    }

    /// The devices read now, in the order they were added.
    public var deviceInfos: [InputDeviceInfo] {
        devices.values.map(\.info).sorted { $0.id.rawValue < $1.id.rawValue }
    }

    /// The fingers down now.
    public var touchCount: Int { touches.count }

    /// Whether the left button is down (or its release waits out ``releaseGrace``).
    public var isButtonDown: Bool { buttonDevice != nil || pendingRelease != nil }

    /// When the release waiting out ``releaseGrace`` is due, on the events' clock; `nil` when none waits.
    public var nextDeadline: Double? { pendingRelease.map { $0.time + releaseGrace } }

    /// Passes on the release waiting out ``releaseGrace`` when it is due at `now`.
    ///
    /// - Parameter now: The time, on the events' clock (the monotonic clock).
    public func flush(now: Double) {
        guard let deadline = nextDeadline, now >= deadline else { return }
        releasePending()
    }

    /// Takes the events of one `libinput_dispatch`, in order, applying the batch rule: a button
    /// release or a touch lift of a device removed later in the batch ends `cancel`.
    ///
    /// - Parameter batch: The events.
    public func receive(batch: [LibinputEvent]) {
        var removedAt: [Int: Int] = [:]
        for (index, event) in batch.enumerated() {
            if case .removed(let device) = event { removedAt[device] = index }
        }
        for (index, event) in batch.enumerated() {
            let goes = removedAt[event.device].map { $0 > index } ?? false
            receive(event, deviceGoes: goes)
        }
    }

    /// Ends every touch and the button press with `cancel` (the seat was taken away, the source
    /// stops): nothing activates.
    ///
    /// - Parameter time: When, in seconds.
    public func cancelAll(time: Double) {
        for slot in touches.keys.sorted() { cancelTouch(slot, time: time) }
        cancelButton(time: time)
        cancelPending(time: time)
    }

    /// Forgets every device (after ``cancelAll(time:)``), reporting each removed: the source let
    /// them all go.
    public func removeAll() {
        for number in devices.keys.sorted() { removeDevice(number, time: nil) }
        ignored.removeAll()
    }

    // MARK: - Events

    private func receive(_ event: LibinputEvent, deviceGoes: Bool) {
        if let time = event.time, time.isFinite { lastTime = time }
        switch event {
        case .added(let device, let name, let path, let kind, let output):
            add(device, name: name, path: path, kind: kind, output: output)
        case .removed(let device):
            removeDevice(device, time: nil)
        case .motion(let device, let dx, let dy, let time):
            guard devices[device] != nil, dx.isFinite, dy.isFinite else { return }
            let start = cursor ?? middle
            moveCursor(to: (start.x + dx, start.y + dy), device: device, time: time)
        case .absolute(let device, let x, let y, let time):
            guard devices[device] != nil, x.isFinite, y.isFinite else { return }
            moveCursor(to: (x, y), device: device, time: time)
        case .button(let device, let code, let pressed, let time):
            guard let entry = devices[device], code == Self.leftButton else { return }
            if pressed {
                guard buttonDevice == nil else { return }
                releasePending()
                if cursor == nil {
                    cursor = middle
                    onCursor?(middle)
                }
                guard let at = mapped(cursor ?? middle) else { return }
                buttonDevice = device
                sink.receive(.pointer(PointerEvent(.down, .mouse, at: at, device: entry.info.id, timestamp: time)))
            } else {
                guard buttonDevice == device else { return }
                if deviceGoes {
                    cancelButton(time: time)
                    return
                }
                buttonDevice = nil
                let at = mapped(cursor ?? middle) ?? Point(x: 0, y: 0)
                if releaseGrace > 0 {
                    pendingRelease = (device, at, time)
                    return
                }
                sink.receive(.pointer(PointerEvent(.up, .mouse, at: at, device: entry.info.id, timestamp: time)))
            }
        case .touchDown(let device, let slot, let x, let y, let time):
            guard let entry = devices[device], slot >= 0, touches[slot] == nil, touches.count < Self.maximumTouches,
                let pixel = clamped(x, y), let at = mapped(pixel)
            else { return }
            releasePending()
            if touches.isEmpty, cursor != nil { onCursor?(nil) }
            touches[slot] = Touch(device: device, point: at)
            sink.receive(
                .pointer(
                    PointerEvent(.down, .touch, contact: Int(slot), at: at, device: entry.info.id, timestamp: time)))
        case .touchMotion(let device, let slot, let x, let y, let time):
            guard let entry = devices[device], touches[slot]?.device == device, let pixel = clamped(x, y),
                let at = mapped(pixel)
            else { return }
            touches[slot]?.point = at
            sink.receive(
                .pointer(
                    PointerEvent(.move, .touch, contact: Int(slot), at: at, device: entry.info.id, timestamp: time)))
        case .touchUp(let device, let slot, let time):
            guard let entry = devices[device], let touch = touches[slot], touch.device == device else { return }
            if deviceGoes {
                cancelTouch(slot, time: time)
                return
            }
            touches[slot] = nil
            sink.receive(
                .pointer(
                    PointerEvent(
                        .up, .touch, contact: Int(slot), at: touch.point, device: entry.info.id, timestamp: time)
                ))
        case .touchCancel(let device, let slot, let time):
            guard touches[slot]?.device == device else { return }
            cancelTouch(slot, time: time)
        case .frame:
            break  // each touch change is passed on as it comes
        }
    }

    // MARK: - Devices

    private func add(_ number: Int, name: String, path: String?, kind: LibinputDeviceKind, output: String?) {
        guard devices[number] == nil, !ignored.contains(number) else { return }
        let label = name.isEmpty ? (path ?? "device \(number)") : name
        if let output, let outputName, output != outputName {
            ignored.insert(number)
            onDeviceChange?(
                .failed(
                    path: path ?? label,
                    message: "\(label) belongs to output \(output) (udev's WL_OUTPUT), not \(outputName): ignored"))
            return
        }
        guard devices.count < Self.maximumDevices else {
            ignored.insert(number)
            onDeviceChange?(
                .failed(
                    path: path ?? label,
                    message: "\(label) ignored: \(Self.maximumDevices) pointing devices are read already"))
            return
        }
        let info = InputDeviceInfo(id: makeDeviceID(), name: label, path: path, detail: kind.detail)
        devices[number] = Device(info: info, kind: kind)
        onDeviceChange?(.added(info))
    }

    /// A device went: its touches and its button end `cancel` (libinput lifted them already when
    /// it saw the device go; this covers a device removed by the source).
    private func removeDevice(_ number: Int, time: Double?) {
        ignored.remove(number)
        guard let entry = devices[number] else { return }
        let now = time ?? lastTime
        for slot in touches.filter({ $0.value.device == number }).keys.sorted() { cancelTouch(slot, time: now) }
        if buttonDevice == number { cancelButton(time: now) }
        if pendingRelease?.device == number { cancelPending(time: now) }
        devices[number] = nil
        // Into the dispatcher too, as a keyboard's removal goes: its trace says the device went.
        sink.receive(.deviceRemoved(entry.info.id, timestamp: now))
        onDeviceChange?(.removed(entry.info, cancelledKeys: []))
    }

    // MARK: - Pointer and touch

    private var lastTime = 0.0

    private var middle: (x: Double, y: Double) {
        guard let size = screenSize else { return (0, 0) }
        return (Double(size.width) / 2, Double(size.height) / 2)
    }

    /// The screen's size, when it is known and sane.
    private var screenSize: (width: Int, height: Int)? {
        guard let size = screen(), size.width > 0, size.height > 0 else { return nil }
        return size
    }

    /// A position kept on the screen (the last pixel included); `nil` when not finite.
    private func clamped(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        guard x.isFinite, y.isFinite else { return nil }
        guard let size = screenSize else { return (max(0, x), max(0, y)) }
        return (min(max(0, x), Double(size.width - 1)), min(max(0, y), Double(size.height - 1)))
    }

    private func mapped(_ pixel: (x: Double, y: Double)) -> Point? {
        let point = mapPoint(pixel.x, pixel.y)
        return point.x.isFinite && point.y.isFinite ? point : nil
    }

    private func moveCursor(to target: (x: Double, y: Double), device: Int, time: Double) {
        guard let pixel = clamped(target.x, target.y) else { return }
        cursor = pixel
        onCursor?(pixel)
        guard let button = buttonDevice, let entry = devices[button], let at = mapped(pixel) else { return }
        sink.receive(.pointer(PointerEvent(.move, .mouse, at: at, device: entry.info.id, timestamp: time)))
    }

    private func cancelButton(time: Double) {
        guard let button = buttonDevice else { return }
        buttonDevice = nil
        guard let entry = devices[button] else { return }
        let at = mapped(cursor ?? middle) ?? Point(x: 0, y: 0)
        sink.receive(.pointer(PointerEvent(.cancel, .mouse, at: at, device: entry.info.id, timestamp: time)))
    }

    private func releasePending() {
        guard let pending = pendingRelease else { return }
        pendingRelease = nil
        guard let entry = devices[pending.device] else { return }
        sink.receive(
            .pointer(PointerEvent(.up, .mouse, at: pending.point, device: entry.info.id, timestamp: pending.time)))
    }

    private func cancelPending(time: Double) {
        guard let pending = pendingRelease else { return }
        pendingRelease = nil
        guard let entry = devices[pending.device] else { return }
        sink.receive(.pointer(PointerEvent(.cancel, .mouse, at: pending.point, device: entry.info.id, timestamp: time)))
    }

    private func cancelTouch(_ slot: Int32, time: Double) {
        guard let touch = touches.removeValue(forKey: slot), let entry = devices[touch.device] else { return }
        sink.receive(
            .pointer(
                PointerEvent(
                    .cancel, .touch, contact: Int(slot), at: touch.point, device: entry.info.id, timestamp: time)
            ))
    }
}
