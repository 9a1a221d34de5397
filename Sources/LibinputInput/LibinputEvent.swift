/// One event of libinput's, as a value made at the C boundary (the C event is destroyed at
/// once): what ``LibinputDecoder`` reads. Devices are numbered by the source that made the
/// events; positions are in screen pixels (libinput's `*_transformed` to the screen's size,
/// after the device's calibration matrix) and times in seconds of the monotonic clock.
public enum LibinputEvent: Hashable, Sendable {
    /// A device was added (`LIBINPUT_EVENT_DEVICE_ADDED`).
    ///
    /// - Parameters:
    ///   - device: The source's number for it.
    ///   - name: The kernel's name for it.
    ///   - path: Its device node.
    ///   - kind: What it is.
    ///   - outputName: The output it belongs to (udev's `WL_OUTPUT`), when set.
    case added(device: Int, name: String, path: String?, kind: LibinputDeviceKind, outputName: String?)
    /// A device went away (`LIBINPUT_EVENT_DEVICE_REMOVED`): unplugged, or let go.
    case removed(device: Int)
    /// The pointer moved by this much, in pixels, accelerated by libinput
    /// (`LIBINPUT_EVENT_POINTER_MOTION`, `libinput_event_pointer_get_dx`).
    case motion(device: Int, dx: Double, dy: Double, time: Double)
    /// The pointer is here, in screen pixels (`LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE`: QEMU's
    /// `usb-tablet`, a tablet in mouse mode).
    case absolute(device: Int, x: Double, y: Double, time: Double)
    /// A button went down or up (`LIBINPUT_EVENT_POINTER_BUTTON`; an evdev code, `BTN_LEFT` 0x110).
    /// A touchpad's tap comes as a button too.
    case button(device: Int, code: UInt32, pressed: Bool, time: Double)
    /// A finger touched, in screen pixels (`LIBINPUT_EVENT_TOUCH_DOWN`); `slot` is the seat slot,
    /// unique across the seat's devices.
    case touchDown(device: Int, slot: Int32, x: Double, y: Double, time: Double)
    /// A finger moved (`LIBINPUT_EVENT_TOUCH_MOTION`).
    case touchMotion(device: Int, slot: Int32, x: Double, y: Double, time: Double)
    /// A finger lifted (`LIBINPUT_EVENT_TOUCH_UP`).
    case touchUp(device: Int, slot: Int32, time: Double)
    /// A finger's touch was cancelled (`LIBINPUT_EVENT_TOUCH_CANCEL`): a palm, or the device
    /// going away or being suspended.
    case touchCancel(device: Int, slot: Int32, time: Double)
    /// The end of a set of touch changes made at once (`LIBINPUT_EVENT_TOUCH_FRAME`).
    case frame(device: Int)

    /// The source's number of the device the event is about.
    public var device: Int {
        switch self {
        case .added(let device, _, _, _, _), .removed(let device), .motion(let device, _, _, _),
            .absolute(let device, _, _, _), .button(let device, _, _, _), .touchDown(let device, _, _, _, _),
            .touchMotion(let device, _, _, _, _), .touchUp(let device, _, _), .touchCancel(let device, _, _),
            .frame(let device):
            return device
        }
    }
}

/// What a device libinput reads is, from udev's tags.
public enum LibinputDeviceKind: String, Hashable, Sendable, CaseIterable {
    /// A touch screen (`ID_INPUT_TOUCHSCREEN`): fingers tap and drag where they touch.
    case touchscreen
    /// A mouse (`ID_INPUT_MOUSE`), or an absolute pointer that says it is one (QEMU's `usb-tablet`).
    case mouse
    /// A touchpad (`ID_INPUT_TOUCHPAD`): it moves the pointer; a tap clicks.
    case touchpad
    /// A graphics tablet (`ID_INPUT_TABLET`).
    case tablet

    /// How its input activates, for a device's description.
    var detail: String {
        switch self {
        case .touchscreen: return "touchscreen, a tap activates"
        case .mouse: return "mouse, left button activates"
        case .touchpad: return "touchpad, a click or a tap activates"
        case .tablet: return "tablet, as a pointer"
        }
    }
}
