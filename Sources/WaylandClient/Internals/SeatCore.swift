internal import CWayland
internal import Glibc
internal import LinuxSystem
internal import XKBKeymap

/// The C side of ``WaylandSeatSource``: the seat's `wl_keyboard`, `wl_pointer` and `wl_touch`,
/// bound and released as the seat's capabilities change, and their listeners, which hand each
/// event to the decoder as a ``WaylandSeatEvent`` (events for another surface are dropped).
@MainActor
final class SeatCore {
    let display: DisplayCore
    let window: WindowCore
    let decoder: WaylandSeatDecoder
    private var userdata: CallbackUserdata<SeatCore>?
    private var keyboard: OpaquePointer?
    private var pointer: OpaquePointer?
    private var touch: OpaquePointer?
    private(set) var started = false
    private var observer: UInt64?

    init(display: DisplayCore, window: WindowCore, decoder: WaylandSeatDecoder) {
        self.display = display
        self.window = window
        self.decoder = decoder
    }

    /// Binds the devices the seat has now, and follows its changes.
    func start() {
        guard !started else { return }
        started = true
        userdata = CallbackUserdata(retaining: self)
        if let name = display.seatName { decoder.seatName = name }
        observer = display.addSeatCapabilitiesObserver { [unowned self] capabilities in
            self.capabilitiesChanged(capabilities)
        }
        capabilitiesChanged(display.seatCapabilities)
    }

    /// Releases every device (their presses and contacts end cancelled) and stops following the seat.
    func stop() {
        guard started else { return }
        started = false
        if let observer { display.removeSeatCapabilitiesObserver(observer) }
        observer = nil
        capabilitiesChanged([])
        userdata?.release()
        userdata = nil
    }

    private func capabilitiesChanged(_ capabilities: SeatCapabilities) {
        // A seat that appears later may have another name.
        if let name = display.seatName { decoder.seatName = name }
        let version = display.seatVersion
        let live = display.disconnectError == nil
        if !capabilities.contains(.keyboard), let keyboard {
            if live { if version >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) } }
            self.keyboard = nil
        }
        if !capabilities.contains(.pointer), let pointer {
            if live { if version >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) } }
            self.pointer = nil
        }
        if !capabilities.contains(.touch), let touch {
            if live { if version >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) } }
            self.touch = nil
        }
        decoder.receive(.capabilities(capabilities))
        guard live, let seat = display.seat, let userdata else { return }
        if capabilities.contains(.keyboard), keyboard == nil, let bound = wl_seat_get_keyboard(seat) {
            keyboard = bound
            wl_keyboard_add_listener(bound, keyboardListener, userdata.pointer)
        }
        if capabilities.contains(.pointer), pointer == nil, let bound = wl_seat_get_pointer(seat) {
            pointer = bound
            wl_pointer_add_listener(bound, pointerListener, userdata.pointer)
        }
        if capabilities.contains(.touch), touch == nil, let bound = wl_seat_get_touch(seat) {
            touch = bound
            wl_touch_add_listener(bound, touchListener, userdata.pointer)
        }
    }

    /// Whether an event's surface is the window's.
    fileprivate func isWindow(_ surface: UInt?) -> Bool {
        surface != nil && surface == window.surface.map { UInt(bitPattern: $0) }
    }

    /// Reads the keymap's file (bounded, mapped read-only and private) and hands its text to the
    /// decoder, which compiles it when the keyboard first needs it (after the first frame).
    fileprivate func keymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { Glibc.close(fd) }
        guard format == 1 else {
            decoder.keymap(format: format, text: UnsafeRawBufferPointer(start: nil, count: 0))
            return
        }
        if let problem = Self.withKeymapFile(fd: fd, size: size, { decoder.deferKeymap(format: format, text: $0) }) {
            decoder.keymapFailed(problem + ": keys go through the layout in use")
        }
    }

    /// Maps a keymap file the compositor sent and hands its bytes to `body`: at most
    /// `XKBKeyboardLayout.maximumKeymapSize` bytes, and never more than the file holds (mapping
    /// past its end would fault, SIGBUS, on the first byte read there).
    ///
    /// - Returns: Why the file could not be read, or `nil` when `body` ran.
    static func withKeymapFile(fd: Int32, size: UInt32, _ body: (UnsafeRawBufferPointer) -> Void) -> String? {
        let limit = XKBKeyboardLayout.maximumKeymapSize
        guard size > 0, Int(size) <= limit else {
            return "the compositor's keymap is \(size) bytes; 1 to \(limit) are read"
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            return "cannot read the compositor's keymap file: \(Errno.current)"
        }
        guard status.st_size >= off_t(size) else {
            return "the compositor announced a \(size)-byte keymap in a file of \(status.st_size) bytes"
        }
        guard let mapped = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            return "cannot map the compositor's keymap (\(size) bytes): \(Errno.current)"
        }
        defer { munmap(mapped, Int(size)) }
        body(UnsafeRawBufferPointer(start: mapped, count: Int(size)))
        return nil
    }
}

// MARK: - Listeners

private func seat(_ data: UnsafeMutableRawPointer?) -> SeatCore? {
    CallbackUserdata<SeatCore>.target(from: data)
}

/// The keys of `wl_keyboard.enter`: a `wl_array` of 32-bit evdev codes (at most its size's worth).
private func keys(in array: UnsafeMutablePointer<wl_array>?) -> [UInt32] {
    guard let array, let data = array.pointee.data else { return [] }
    let count = min(array.pointee.size / MemoryLayout<UInt32>.stride, 1024)
    return Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count))
}

nonisolated(unsafe) private let keyboardListener = staticListener(
    wl_keyboard_listener(
        keymap: { data, _, format, fd, size in
            let target = seat(data)
            guard let target else {
                Glibc.close(fd)
                return
            }
            MainActor.assumeIsolated { target.keymap(format: format, fd: fd, size: size) }
        },
        enter: { data, _, _, surface, array in
            let target = seat(data)
            let surface = surface.map { UInt(bitPattern: $0) }
            let pressed = keys(in: array)
            MainActor.assumeIsolated {
                guard let target, target.isWindow(surface) else { return }
                target.decoder.receive(.keyboardEnter(keys: pressed))
            }
        },
        leave: { data, _, _, surface in
            let target = seat(data)
            let surface = surface.map { UInt(bitPattern: $0) }
            MainActor.assumeIsolated {
                // A destroyed surface arrives as null: the keyboard has one focus, so any leave ends it.
                guard let target, surface == nil || target.isWindow(surface) else { return }
                target.decoder.receive(.keyboardLeave)
            }
        },
        key: { data, _, _, _, key, state in
            let target = seat(data)
            MainActor.assumeIsolated { target?.decoder.receive(.key(key, state: state)) }
        },
        modifiers: { data, _, _, depressed, latched, locked, group in
            let target = seat(data)
            MainActor.assumeIsolated {
                target?.decoder.receive(
                    .modifiers(depressed: depressed, latched: latched, locked: locked, group: group))
            }
        },
        repeat_info: { data, _, rate, delay in
            let target = seat(data)
            MainActor.assumeIsolated { target?.decoder.receive(.repeatInfo(rate: rate, delay: delay)) }
        }))

nonisolated(unsafe) private let pointerListener = staticListener(
    wl_pointer_listener(
        enter: { data, _, _, surface, x, y in
            let target = seat(data)
            let surface = surface.map { UInt(bitPattern: $0) }
            MainActor.assumeIsolated {
                guard let target, target.isWindow(surface) else { return }
                target.decoder.receive(.pointerEnter(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
            }
        },
        leave: { data, _, _, surface in
            let target = seat(data)
            let surface = surface.map { UInt(bitPattern: $0) }
            MainActor.assumeIsolated {
                guard let target, surface == nil || target.isWindow(surface) else { return }
                target.decoder.receive(.pointerLeave)
            }
        },
        motion: { data, _, _, x, y in
            let target = seat(data)
            MainActor.assumeIsolated {
                target?.decoder.receive(.pointerMotion(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
            }
        },
        button: { data, _, _, _, button, state in
            let target = seat(data)
            MainActor.assumeIsolated { target?.decoder.receive(.pointerButton(button, state: state)) }
        },
        axis: { _, _, _, _, _ in },
        frame: { _, _ in },
        axis_source: { _, _, _ in },
        axis_stop: { _, _, _, _ in },
        axis_discrete: { _, _, _, _ in },
        axis_value120: { _, _, _, _ in }))

nonisolated(unsafe) private let touchListener = staticListener(
    wl_touch_listener(
        down: { data, _, _, _, surface, id, x, y in
            let target = seat(data)
            let surface = surface.map { UInt(bitPattern: $0) }
            MainActor.assumeIsolated {
                guard let target, target.isWindow(surface) else { return }
                target.decoder.receive(.touchDown(id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
            }
        },
        up: { data, _, _, _, id in
            let target = seat(data)
            MainActor.assumeIsolated { target?.decoder.receive(.touchUp(id: id)) }
        },
        motion: { data, _, _, id, x, y in
            let target = seat(data)
            MainActor.assumeIsolated {
                target?.decoder.receive(
                    .touchMotion(id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
            }
        },
        frame: { _, _ in },
        cancel: { data, _ in
            let target = seat(data)
            MainActor.assumeIsolated { target?.decoder.receive(.touchCancel) }
        },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }))
