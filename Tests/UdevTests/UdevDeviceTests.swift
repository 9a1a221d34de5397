import Glibc
import Testing
import Udev

@Suite struct UdevDeviceTests {
    static func device(_ properties: [String: String], path: String? = "/dev/input/event3") -> UdevDevice {
        UdevDevice(
            path: path, syspath: "/sys/devices/virtual/input/input3/event3", subsystem: "input", name: "test",
            isInitialized: true, properties: properties)
    }

    typealias Classes = UdevDevice.InputClasses
    static let classCases: [([String: String], Classes)] = [
        (["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"], Classes.touchscreen),
        (["ID_INPUT": "1", "ID_INPUT_MOUSE": "1"], Classes.mouse),
        (["ID_INPUT_TABLET": "1", "ID_INPUT_MOUSE": "1"], Classes([.tablet, .mouse])),
        (["ID_INPUT_TOUCHPAD": "1"], Classes.touchpad),
        (["ID_INPUT_KEYBOARD": "1", "ID_INPUT_KEY": "1"], Classes([.keyboard, .key])),
        (["ID_INPUT_JOYSTICK": "1"], Classes.joystick),
        (["ID_INPUT_MOUSE": "0", "ID_INPUT_TOUCHSCREEN": ""], Classes()),
    ]

    @Test("input classes come from each ID_INPUT_* set to 1", arguments: classCases)
    func classes(properties: [String: String], expected: UdevDevice.InputClasses) {
        #expect(Self.device(properties).inputClasses == expected)
    }

    @Test("the classes read as their names, or none")
    func classNames() {
        #expect(UdevDevice.InputClasses([.touchscreen, .mouse]).description == "touchscreen, mouse")
        #expect(UdevDevice.InputClasses().description == "none")
    }

    @Test("seat, output, calibration and tagging come from their properties")
    func properties() {
        let plain = Self.device([:])
        #expect(plain.seat == "seat0")
        #expect(plain.outputName == nil)
        #expect(!plain.hasCalibration)
        #expect(!plain.isTaggedInput)
        let set = Self.device([
            "ID_INPUT": "1", "ID_SEAT": "seat1", "WL_OUTPUT": "HDMI-A-1",
            "LIBINPUT_CALIBRATION_MATRIX": "0 -1 1 1 0 0",
        ])
        #expect(set.seat == "seat1")
        #expect(set.outputName == "HDMI-A-1")
        #expect(set.hasCalibration)
        #expect(set.isTaggedInput)
        #expect(Self.device(["ID_SEAT": ""]).seat == "seat0")
    }

    @Test("only /dev/input/event nodes are event nodes")
    func eventNodes() {
        #expect(Self.device([:]).isEventNode)
        #expect(!Self.device([:], path: "/dev/input/mouse0").isEventNode)
        #expect(!Self.device([:], path: nil).isEventNode)
    }

    @Test("the enumeration lists only event nodes, in number order, without trapping here")
    func enumeration() throws {
        // This machine's devices (none in a container): whatever they are, the list holds only
        // event nodes, in number order.
        let devices = try UdevEnumeration.inputDevices()
        #expect(devices.allSatisfy { $0.isEventNode })
        let numbers = devices.compactMap { $0.path.flatMap { Int($0.dropFirst("/dev/input/event".count)) } }
        #expect(numbers == numbers.sorted())
    }

    @Test("a device's links are kept as given, none by default")
    func links() {
        #expect(Self.device([:]).links.isEmpty)
        let links = [
            "/dev/input/by-id/usb-Keyboard-event-kbd", "/dev/input/by-path/pci-0000:00:14.0-usb-0:1:1.0-event-kbd",
        ]
        let device = UdevDevice(
            path: "/dev/input/event3", syspath: "/sys/devices/virtual/input/input3/event3", subsystem: "input",
            isInitialized: true, properties: [:], links: links)
        #expect(device.links == links)
    }

    /// The links udev's `DEVLINKS` property lists (space-separated), sorted: what `links` must hold.
    static func devlinks(_ device: UdevDevice) -> [String] {
        (device.properties["DEVLINKS"] ?? "").split(separator: " ").map(String.init).sorted()
    }

    @Test("the enumeration reads each node's links, the names its DEVLINKS property lists")
    func enumeratedLinks() throws {
        // None in a container (no udevd, no links); on a machine with udevd, by-id and by-path names.
        for device in try UdevEnumeration.inputDevices() {
            #expect(device.links == Self.devlinks(device), "\(device.path ?? device.syspath)")
        }
    }

    @Test("a character device node is looked up by its number, through a link too")
    func deviceByNode() throws {
        let null = try #require(UdevEnumeration.device(node: "/dev/null"))
        #expect(null.path == "/dev/null")
        #expect(null.subsystem == "mem")
        #expect(null.syspath.hasSuffix("/null"))
        #expect(null.seat == "seat0")
        #expect(null.links == Self.devlinks(null))
        let link = "/tmp/udev-tests-null-\(getpid())"
        unlink(link)
        #expect(symlink("/dev/null", link) == 0)
        defer { unlink(link) }
        #expect(UdevEnumeration.device(node: link) == null)
        #expect(UdevEnumeration.device(node: "/nonexistent/event3") == nil)
        #expect(UdevEnumeration.device(node: #filePath) == nil, "a regular file is no device node")
    }

    @Test("a monitor listens to the subsystem asked for, from the kernel when told")
    func monitor() throws {
        let monitor = try UdevMonitor(subsystem: "drm", source: "kernel")
        #expect(monitor.subsystem == "drm")
        #expect(monitor.source == "kernel")
        #expect(monitor.fileDescriptor >= 0)
        #expect(monitor.receive().isEmpty)
    }
}
