/// A device udev knows, as values: its node, its subsystem and the properties udev's rules set.
public struct UdevDevice: Hashable, Sendable {
    /// What kind of input device udev's `input_id` builtin says it is (its `ID_INPUT_*` tags).
    public struct InputClasses: OptionSet, Hashable, Sendable, CustomStringConvertible {
        /// The classes' bits.
        public var rawValue: UInt16

        /// Creates classes from their bits.
        ///
        /// - Parameter rawValue: The bits.
        public init(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// `ID_INPUT_TOUCHSCREEN`: a touch screen.
        public static let touchscreen = InputClasses(rawValue: 1 << 0)
        /// `ID_INPUT_MOUSE`: a mouse, or an absolute pointer such as QEMU's `usb-tablet`.
        public static let mouse = InputClasses(rawValue: 1 << 1)
        /// `ID_INPUT_TABLET`: a graphics tablet.
        public static let tablet = InputClasses(rawValue: 1 << 2)
        /// `ID_INPUT_TOUCHPAD`: a touchpad.
        public static let touchpad = InputClasses(rawValue: 1 << 3)
        /// `ID_INPUT_KEYBOARD`: a full keyboard.
        public static let keyboard = InputClasses(rawValue: 1 << 4)
        /// `ID_INPUT_KEY`: some keys (keypads, remotes, power buttons).
        public static let key = InputClasses(rawValue: 1 << 5)
        /// `ID_INPUT_JOYSTICK`: a joystick or a gamepad.
        public static let joystick = InputClasses(rawValue: 1 << 6)

        /// The pointing classes libinput reads for an app: touch screens, mice, tablets, touchpads.
        public static let pointing: InputClasses = [.touchscreen, .mouse, .tablet, .touchpad]

        /// The udev property of each class, in this order.
        public static let properties: [(String, InputClasses)] = [
            ("ID_INPUT_TOUCHSCREEN", .touchscreen), ("ID_INPUT_MOUSE", .mouse), ("ID_INPUT_TABLET", .tablet),
            ("ID_INPUT_TOUCHPAD", .touchpad), ("ID_INPUT_KEYBOARD", .keyboard), ("ID_INPUT_KEY", .key),
            ("ID_INPUT_JOYSTICK", .joystick),
        ]

        /// The classes read from udev's properties: each `ID_INPUT_*` set to `1`.
        ///
        /// - Parameter properties: The device's properties.
        public init(properties: [String: String]) {
            var classes: InputClasses = []
            for (name, value) in Self.properties where properties[name] == "1" { classes.insert(value) }
            self = classes
        }

        /// The classes' names, lowercased without `ID_INPUT_` (`touchscreen, mouse`); `none` when empty.
        public var description: String {
            let names = Self.properties.filter { contains($0.1) }.map {
                $0.0.dropFirst("ID_INPUT_".count).lowercased()
            }
            return names.isEmpty ? "none" : names.joined(separator: ", ")
        }
    }

    /// The most properties kept of one device; udev sets a few dozen.
    public static let maximumProperties = 256
    /// The longest property value kept, in bytes; longer ones are cut.
    public static let maximumValueLength = 4096

    /// The device node (`/dev/input/event3`, `/dev/dri/card0`), when it has one.
    public var path: String?
    /// Its path in sysfs (`/sys/devices/…/input/input5/event3`).
    public var syspath: String
    /// Its subsystem (`input`, `drm`).
    public var subsystem: String
    /// The kernel's name for the device behind the node (its parent's `name` attribute: `QEMU
    /// QEMU USB Tablet`); empty when it has none.
    public var name: String
    /// Whether udevd has processed it (its rules ran and its properties are set). Without udevd
    /// nothing is ever initialized and no `ID_INPUT*` property is set.
    public var isInitialized: Bool
    /// Its properties (udev's environment for it: `ID_INPUT_MOUSE=1`, `ID_SEAT=seat1`), at most
    /// ``maximumProperties``.
    public var properties: [String: String]
    /// The stable names udevd made for the node (`/dev/input/by-id/usb-…-event-kbd`,
    /// `/dev/input/by-path/…`), which survive a re-plug, sorted; at most ``maximumProperties``, and
    /// empty without udevd.
    public var links: [String]

    /// Describes a device.
    ///
    /// - Parameters:
    ///   - path: The device node.
    ///   - syspath: The sysfs path.
    ///   - subsystem: The subsystem.
    ///   - name: The kernel's name for it.
    ///   - isInitialized: Whether udevd has processed it.
    ///   - properties: Its properties.
    ///   - links: The stable names of its node.
    public init(
        path: String?, syspath: String, subsystem: String, name: String = "", isInitialized: Bool,
        properties: [String: String], links: [String] = []
    ) {
        self.path = path
        self.syspath = syspath
        self.subsystem = subsystem
        self.name = name
        self.isInitialized = isInitialized
        self.properties = properties
        self.links = links
    }

    /// Whether udev's `input_id` tagged it as an input device (`ID_INPUT=1`): libinput reads only those.
    public var isTaggedInput: Bool { properties["ID_INPUT"] == "1" }
    /// Its input classes (`ID_INPUT_TOUCHSCREEN`, `ID_INPUT_MOUSE`…).
    public var inputClasses: InputClasses { InputClasses(properties: properties) }
    /// The seat udev assigned it (`ID_SEAT`); `seat0` when none is set.
    public var seat: String { properties["ID_SEAT"].flatMap { $0.isEmpty ? nil : $0 } ?? "seat0" }
    /// The output a touch screen belongs to (`WL_OUTPUT`, a connector name such as `HDMI-A-1`), when set.
    public var outputName: String? { properties["WL_OUTPUT"].flatMap { $0.isEmpty ? nil : $0 } }
    /// Whether a calibration matrix is set for it (`LIBINPUT_CALIBRATION_MATRIX`): libinput applies it.
    public var hasCalibration: Bool { properties["LIBINPUT_CALIBRATION_MATRIX"] != nil }
    /// Whether it is an evdev node (`/dev/input/eventN`).
    public var isEventNode: Bool { path?.hasPrefix("/dev/input/event") ?? false }
}
