public import ResponderChain
public import XKBKeymap

/// One event of the compositor's seat, as `wl_keyboard`, `wl_pointer` and `wl_touch` deliver it
/// for the app's surface: the values libwayland parsed, not yet trusted.
public enum WaylandSeatEvent: Hashable, Sendable {
    /// The seat's devices now (`wl_seat.capabilities`).
    case capabilities(SeatCapabilities)
    /// The surface got keyboard focus with these keys already down (`wl_keyboard.enter`; evdev codes).
    case keyboardEnter(keys: [UInt32])
    /// The surface lost keyboard focus (`wl_keyboard.leave`).
    case keyboardLeave
    /// A key went down (`state` 1) or up (`state` 0) (`wl_keyboard.key`; an evdev code).
    case key(UInt32, state: UInt32)
    /// The compositor's modifier and group state (`wl_keyboard.modifiers`).
    case modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32)
    /// Repeats a second and the delay before the first, in milliseconds (`wl_keyboard.repeat_info`).
    case repeatInfo(rate: Int32, delay: Int32)
    /// The pointer entered the surface at a surface-local position (`wl_pointer.enter`).
    case pointerEnter(x: Double, y: Double)
    /// The pointer left the surface (`wl_pointer.leave`).
    case pointerLeave
    /// The pointer moved (`wl_pointer.motion`).
    case pointerMotion(x: Double, y: Double)
    /// A button went down (`state` 1) or up (`state` 0) (`wl_pointer.button`; an evdev code, `BTN_LEFT` 0x110).
    case pointerButton(UInt32, state: UInt32)
    /// A finger touched the surface (`wl_touch.down`).
    case touchDown(id: Int32, x: Double, y: Double)
    /// A finger moved (`wl_touch.motion`).
    case touchMotion(id: Int32, x: Double, y: Double)
    /// A finger lifted (`wl_touch.up`).
    case touchUp(id: Int32)
    /// The compositor took every touch over, a gesture of its own (`wl_touch.cancel`).
    case touchCancel
}

/// Turns the compositor's seat events into the app's input, the way the evdev decoder turns a
/// keyboard's: keys through the one key path (evdev codes, the compositor's keymap and modifiers),
/// and clicks and taps as pointer events that hit-test the focus tree.
///
/// Its rules, where Wayland leaves them to the client:
/// - Keys already down at `enter` begin no press: a key pressed before the window had focus is
///   not this window's. Their release ends nothing.
/// - `leave` cancels every held press and stops repeating (the keyboard is lost to the window).
/// - `modifiers` is the truth for modifiers, locks and group; key-downs of Shift do not apply.
/// - `repeat_info` sets the software repeat's delay and rate; a rate of 0 turns repeat off.
/// - Only the left button (`BTN_LEFT`) and touches activate; hover moves nothing and is not
///   passed on. A button still down when the pointer leaves, a touch the compositor cancels,
///   and the devices a capability change takes away end `cancel`: nothing activates.
/// - A device appearing or going away is reported as a device added or removed; its held presses
///   are cancelled.
///
/// Untrusted values are checked, never trapped on: key codes above `KEY_MAX` (0x2FF), unknown states and
/// buttons are ignored; at most ``maximumTouches`` fingers are followed; positions that are not
/// finite are ignored.
///
/// `WaylandSeatSource` feeds it from libwayland's listeners; it is public so that fuzzers and an
/// app's own compositor glue can feed it too.
@MainActor
public final class WaylandSeatDecoder {
    /// The most fingers followed at once; further touches are ignored until one lifts.
    public static let maximumTouches = 16
    /// The highest key code a compositor sends (evdev's `KEY_MAX`); higher ones are ignored.
    public static let highestKeyCode: UInt32 = 0x2FF
    /// The evdev code of the left button (`BTN_LEFT`).
    public static let leftButton: UInt32 = 0x110

    /// Where input goes: the software repeater, then the dispatcher.
    public let sink: any InputSink
    /// The software repeater the compositor's `repeat_info` sets, when keys repeat in software.
    public let repeater: SoftwareRepeater?
    /// Maps a surface-local position (logical pixels) to the window's coordinate space (the focus
    /// tree's frames). The identity by default.
    public var mapPoint: (_ x: Double, _ y: Double) -> Point = { Point(x: $0, y: $1) }
    /// Called with every device added or removed, and with a keymap that could not be used.
    public var onDeviceChange: ((InputDeviceChange) -> Void)?
    /// The seat's name for devices' names (`seat0`).
    public var seatName = "seat"
    /// The events' clock, in seconds (the loop's monotonic clock by default).
    public var clock: () -> Double

    private let makeDeviceID: () -> DeviceID
    private var capabilities = SeatCapabilities()
    private(set) var keyboard: InputDeviceInfo?
    private(set) var pointer: InputDeviceInfo?
    private(set) var touch: InputDeviceInfo?
    private var keyboardFocused = false
    private var keysDown: Set<UInt16> = []
    private var pointerPosition: Point?
    private var buttonDown = false
    private var touches: [Int32: Point] = [:]

    /// The compositor's repeat, as last announced (`nil`: repeat off).
    public private(set) var announcedRepeat: RepeatTiming?
    /// The compositor's keymap, once one compiled (one ``deferKeymap(format:text:)`` took is not,
    /// until the keyboard's next event).
    public private(set) var layout: XKBKeyboardLayout?
    /// A keymap taken but not compiled yet: its format and its bytes.
    private var deferredKeymap: (format: UInt32, text: [UInt8])?

    /// Whether a keymap was taken by ``deferKeymap(format:text:)`` and is not compiled yet (tests).
    package var hasDeferredKeymap: Bool { deferredKeymap != nil }

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - sink: Where input goes (a `SoftwareRepeater` in front of the dispatcher).
    ///   - repeater: The repeater `repeat_info` sets, when there is one.
    ///   - clock: The events' clock, in seconds.
    ///   - makeDeviceID: Makes the id of a device that appears (`Dispatcher.makeDeviceID()`).
    public init(
        sink: any InputSink, repeater: SoftwareRepeater?, clock: @escaping () -> Double,
        makeDeviceID: @escaping () -> DeviceID
    ) {
        self.sink = sink
        self.repeater = repeater
        self.clock = clock
        self.makeDeviceID = makeDeviceID
        announcedRepeat = repeater?.timing
    }

    /// The devices the seat has now: its keyboard, pointer and touch screen, as they were reported.
    public var devices: [InputDeviceInfo] { [keyboard, pointer, touch].compactMap { $0 } }

    /// Whether the window has keyboard focus.
    public var hasKeyboardFocus: Bool { keyboardFocused }

    /// Takes one event.
    ///
    /// - Parameter event: The event.
    public func receive(_ event: WaylandSeatEvent) {
        let now = clock()
        switch event {
        case .keyboardEnter, .keyboardLeave, .key, .modifiers: compileDeferredKeymap(at: now)
        default: break
        }
        switch event {
        case .capabilities(let new): setCapabilities(new, at: now)
        case .keyboardEnter(let keys): keyboardEntered(keys, at: now)
        case .keyboardLeave: keyboardLeft(at: now)
        case .key(let code, let state): key(code, state: state, at: now)
        case .modifiers(let depressed, let latched, let locked, let group):
            guard let keyboard else { return }
            let modifiers = SerializedModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
            sink.receive(.modifiers(modifiers, device: keyboard.id, timestamp: now))
        case .repeatInfo(let rate, let delay):
            announcedRepeat = RepeatTiming.announced(rate: rate, delay: delay)
            if let repeater {
                if let timing = announcedRepeat { repeater.timing = timing }
                repeater.isEnabled = announcedRepeat != nil
            }
        case .pointerEnter(let x, let y): pointerPosition = point(x, y) ?? pointerPosition
        case .pointerLeave:
            cancelButton(at: now)
            pointerPosition = nil
        case .pointerMotion(let x, let y):
            guard let position = point(x, y) else { return }
            pointerPosition = position
            if buttonDown, let pointer {
                sink.receive(.pointer(PointerEvent(.move, .mouse, at: position, device: pointer.id, timestamp: now)))
            }
        case .pointerButton(let button, let state): self.button(button, state: state, at: now)
        case .touchDown(let id, let x, let y):
            guard let touch, touches[id] == nil, touches.count < Self.maximumTouches, let position = point(x, y)
            else { return }
            touches[id] = position
            sink.receive(
                .pointer(
                    PointerEvent(.down, .touch, contact: Int(id), at: position, device: touch.id, timestamp: now)))
        case .touchMotion(let id, let x, let y):
            guard let touch, touches[id] != nil, let position = point(x, y) else { return }
            touches[id] = position
            sink.receive(
                .pointer(
                    PointerEvent(.move, .touch, contact: Int(id), at: position, device: touch.id, timestamp: now)))
        case .touchUp(let id):
            guard let touch, let position = touches.removeValue(forKey: id) else { return }
            sink.receive(
                .pointer(PointerEvent(.up, .touch, contact: Int(id), at: position, device: touch.id, timestamp: now)))
        case .touchCancel: cancelTouches(at: now)
        }
    }

    /// Takes the compositor's keymap (`wl_keyboard.keymap`): compiles it and sends it through the
    /// sink (`InputEvent.layout`) as the layout keys go through from now on. A format other than
    /// xkb v1 (1), a keymap too large or one xkbcommon refuses is reported (``onDeviceChange``
    /// `.failed`) and the layout in use stays.
    ///
    /// - Parameters:
    ///   - format: `wl_keyboard.keymap`'s format: 1 for xkb v1 text, 0 for none.
    ///   - text: The keymap's bytes (a trailing NUL allowed).
    /// - Returns: Whether the keymap is now in use.
    @discardableResult
    public func keymap(format: UInt32, text: UnsafeRawBufferPointer) -> Bool {
        compile(format: format, text: text, at: clock())
    }

    @discardableResult
    private func compile(format: UInt32, text: UnsafeRawBufferPointer, at now: Double) -> Bool {
        deferredKeymap = nil
        guard format == 1 else {
            fail(
                "the compositor sent a keymap in format \(format), not xkb v1 (1): keys go through the layout in use"
                    + (layout == nil ? " (the system's)" : ""))
            return false
        }
        do {
            let compiled = try XKBKeyboardLayout(keymapText: text)
            layout = compiled
            // The keys go through it from now on: said as input, through the sink.
            sink.receive(.layout(KeyboardLayoutChange(compiled), device: keyboard?.id ?? .primary, timestamp: now))
            return true
        } catch {
            fail("\(error.message); keys go through the layout in use")
            return false
        }
    }

    /// Takes the compositor's keymap (`wl_keyboard.keymap`) and compiles it when the keyboard first
    /// needs it, as ``keymap(format:text:)`` does: before the next keyboard event (enter, leave, a
    /// key, modifiers) is handled, stamped with that event's time. A
    /// compositor sends it when the seat is bound, before the window's first configure: compiling it
    /// there (milliseconds) would hold back the first frame, while no key can arrive before the
    /// keyboard enters the window. A keymap sent later replaces one not compiled yet, and one the
    /// seat's keyboard goes away with is dropped.
    ///
    /// - Parameters:
    ///   - format: `wl_keyboard.keymap`'s format: 1 for xkb v1 text, 0 for none.
    ///   - text: The keymap's bytes (copied).
    public func deferKeymap(format: UInt32, text: UnsafeRawBufferPointer) {
        deferredKeymap = (format, Array(text))
    }

    /// Compiles the keymap ``deferKeymap(format:text:)`` took, if any.
    private func compileDeferredKeymap(at now: Double) {
        guard let (format, text) = deferredKeymap else { return }
        deferredKeymap = nil
        _ = text.withUnsafeBytes { compile(format: format, text: $0, at: now) }
    }

    /// Reports a keymap that could not be read (its file was too large or could not be mapped).
    ///
    /// - Parameter message: What went wrong, and what happens now.
    public func keymapFailed(_ message: String) {
        fail(message)
    }

    private func fail(_ message: String) {
        onDeviceChange?(.failed(path: "wl_keyboard.keymap", message: message))
    }

    /// Ends every press and contact, as when the devices go away (the source stops, the
    /// compositor is gone).
    public func cancelAll() {
        setCapabilities([], at: clock())
    }

    // MARK: - Devices

    private func setCapabilities(_ new: SeatCapabilities, at now: Double) {
        let old = capabilities
        capabilities = new
        if !new.contains(.keyboard) { deferredKeymap = nil }
        if old.contains(.keyboard) && !new.contains(.keyboard), let keyboard {
            let cancelled = keyboardFocused ? Array(keysDown).sorted().map { KeyCode($0) } : []
            keyboardFocused = false
            keysDown = []
            self.keyboard = nil
            sink.receive(.deviceRemoved(keyboard.id, timestamp: now))
            onDeviceChange?(.removed(keyboard, cancelledKeys: cancelled))
        }
        if old.contains(.pointer) && !new.contains(.pointer), let pointer {
            cancelButton(at: now)
            pointerPosition = nil
            self.pointer = nil
            onDeviceChange?(.removed(pointer, cancelledKeys: []))
        }
        if old.contains(.touch) && !new.contains(.touch), let touch {
            cancelTouches(at: now)
            self.touch = nil
            onDeviceChange?(.removed(touch, cancelledKeys: []))
        }
        if new.contains(.keyboard) && keyboard == nil {
            let repeats = repeater == nil ? "none" : "software, at the compositor's rate"
            let device = InputDeviceInfo(
                id: makeDeviceID(), name: "\(seatName) keyboard", path: nil,
                detail: "keyboard, keymap: the compositor's, repeats: \(repeats)")
            keyboard = device
            onDeviceChange?(.added(device))
        }
        if new.contains(.pointer) && pointer == nil {
            let device = InputDeviceInfo(
                id: makeDeviceID(), name: "\(seatName) pointer", path: nil, detail: "pointer, left button activates")
            pointer = device
            onDeviceChange?(.added(device))
        }
        if new.contains(.touch) && touch == nil {
            let device = InputDeviceInfo(
                id: makeDeviceID(), name: "\(seatName) touch", path: nil, detail: "touch, a tap activates")
            touch = device
            onDeviceChange?(.added(device))
        }
    }

    // MARK: - Keyboard

    private func keyboardEntered(_ keys: [UInt32], at now: Double) {
        guard let keyboard else { return }
        if keyboardFocused { keyboardLeft(at: now) }
        keyboardFocused = true
        // Keys already down were pressed for another window: noted held, so their release ends
        // nothing, and no press begins.
        var held: [KeyCode] = []
        for raw in keys.prefix(256) {
            guard raw <= Self.highestKeyCode, let code = UInt16(exactly: raw), !keysDown.contains(code) else {
                continue
            }
            keysDown.insert(code)
            held.append(KeyCode(code))
        }
        sink.receive(.resynchronize(device: keyboard.id, pressedKeys: held, timestamp: now))
    }

    private func keyboardLeft(at now: Double) {
        guard keyboardFocused else { return }
        keyboardFocused = false
        keysDown = []
        sink.receive(.keyboardLost(timestamp: now))
    }

    private func key(_ raw: UInt32, state: UInt32, at now: Double) {
        guard let keyboard, keyboardFocused, raw <= Self.highestKeyCode, let code = UInt16(exactly: raw) else {
            return
        }
        switch state {
        case 1:
            guard keysDown.insert(code).inserted else { return }
            sink.receive(.key(KeyEvent(KeyCode(code), .down, device: keyboard.id, timestamp: now)))
        case 0:
            guard keysDown.remove(code) != nil else { return }
            sink.receive(.key(KeyEvent(KeyCode(code), .up, device: keyboard.id, timestamp: now)))
        default:
            break  // wl_keyboard v10's "repeated" is not bound: repeats are made here
        }
    }

    // MARK: - Pointer and touch

    private func point(_ x: Double, _ y: Double) -> Point? {
        guard x.isFinite, y.isFinite else { return nil }
        let mapped = mapPoint(x, y)
        return mapped.x.isFinite && mapped.y.isFinite ? mapped : nil
    }

    private func button(_ button: UInt32, state: UInt32, at now: Double) {
        guard button == Self.leftButton, let pointer, let position = pointerPosition else { return }
        switch state {
        case 1 where !buttonDown:
            buttonDown = true
            sink.receive(.pointer(PointerEvent(.down, .mouse, at: position, device: pointer.id, timestamp: now)))
        case 0 where buttonDown:
            buttonDown = false
            sink.receive(.pointer(PointerEvent(.up, .mouse, at: position, device: pointer.id, timestamp: now)))
        default:
            break
        }
    }

    private func cancelButton(at now: Double) {
        guard buttonDown, let pointer else { return }
        buttonDown = false
        sink.receive(
            .pointer(
                PointerEvent(
                    .cancel, .mouse, at: pointerPosition ?? Point(x: 0, y: 0), device: pointer.id, timestamp: now)))
    }

    private func cancelTouches(at now: Double) {
        guard let touch else { return }
        for (id, position) in touches.sorted(by: { $0.key < $1.key }) {
            sink.receive(
                .pointer(
                    PointerEvent(.cancel, .touch, contact: Int(id), at: position, device: touch.id, timestamp: now)))
        }
        touches = [:]
    }
}

extension WaylandSeatEvent {
    /// Reads a compact binary script of seat events: a fuzzer's input, or a regression input that
    /// once crashed one. Each event is an opcode byte (taken modulo 15) followed by its fields,
    /// little-endian 32-bit words (positions are signed 24.8 fixed point, as on the wire); a script
    /// that ends inside an event ends there. At most `limit` events are read.
    ///
    /// - Parameters:
    ///   - bytes: The script.
    ///   - limit: The most events to read.
    /// - Returns: The events.
    public static func script(_ bytes: [UInt8], limit: Int = 4096) -> [WaylandSeatEvent] {
        var index = 0
        func word() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            defer { index += 4 }
            return UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
                | UInt32(bytes[index + 3]) << 24
        }
        func fixed() -> Double? { word().map { Double(Int32(bitPattern: $0)) / 256 } }
        var events: [WaylandSeatEvent] = []
        while index < bytes.count, events.count < limit {
            let opcode = bytes[index] % 15
            index += 1
            let event: WaylandSeatEvent?
            switch opcode {
            case 0: event = word().map { .capabilities(SeatCapabilities(rawValue: $0 & 7)) }
            case 1:
                guard let count = word() else { return events }
                var keys: [UInt32] = []
                for _ in 0..<min(count, 16) {
                    guard let key = word() else { break }
                    keys.append(key)
                }
                event = .keyboardEnter(keys: keys)
            case 2: event = .keyboardLeave
            case 3:
                guard let key = word(), let state = word() else { return events }
                event = .key(key, state: state)
            case 4:
                guard let depressed = word(), let latched = word(), let locked = word(), let group = word() else {
                    return events
                }
                event = .modifiers(depressed: depressed, latched: latched, locked: locked, group: group)
            case 5:
                guard let rate = word(), let delay = word() else { return events }
                event = .repeatInfo(rate: Int32(bitPattern: rate), delay: Int32(bitPattern: delay))
            case 6:
                guard let x = fixed(), let y = fixed() else { return events }
                event = .pointerEnter(x: x, y: y)
            case 7: event = .pointerLeave
            case 8:
                guard let x = fixed(), let y = fixed() else { return events }
                event = .pointerMotion(x: x, y: y)
            case 9:
                guard let button = word(), let state = word() else { return events }
                event = .pointerButton(button, state: state)
            case 10:
                guard let id = word(), let x = fixed(), let y = fixed() else { return events }
                event = .touchDown(id: Int32(bitPattern: id), x: x, y: y)
            case 11:
                guard let id = word(), let x = fixed(), let y = fixed() else { return events }
                event = .touchMotion(id: Int32(bitPattern: id), x: x, y: y)
            case 12: event = word().map { .touchUp(id: Int32(bitPattern: $0)) }
            case 13: event = .touchCancel
            default: event = nil  // 14: a no-op, so that any byte is a valid opcode
            }
            guard let event else {
                if opcode == 14 { continue }
                return events
            }
            events.append(event)
        }
        return events
    }
}
