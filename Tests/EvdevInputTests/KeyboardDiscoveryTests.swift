import LinuxSystem
import Testing
import Udev

@testable import EvdevInput

/// Discovery on the Udev module's values: the kind from udev's tags, else from the device's keys.
@Suite struct KeyboardDiscoveryTests {
    static func device(
        _ properties: [String: String], initialized: Bool = true, path: String = "/dev/input/event999",
        links: [String] = []
    ) -> UdevDevice {
        UdevDevice(
            path: path, syspath: "/sys/devices/virtual/input/input999/event999", subsystem: "input",
            name: "Test Keys", isInitialized: initialized, properties: properties, links: links)
    }

    static let tagCases: [([String: String], Bool, KeyboardKind?)] = [
        (["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1", "ID_INPUT_KEY": "1"], true, .keyboard),
        (["ID_INPUT": "1", "ID_INPUT_JOYSTICK": "1"], true, .gamepad),
        (["ID_INPUT": "1", "ID_INPUT_MOUSE": "1"], true, KeyboardKind.none),
        // Keys without the keyboard tag (keypads, remotes): the declared keys decide.
        (["ID_INPUT": "1", "ID_INPUT_KEY": "1"], true, nil),
        // Not an input device by udev's tags, or not processed by udevd: the declared keys decide.
        (["ID_INPUT_KEYBOARD": "1"], true, nil),
        (["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1"], false, nil),
        ([:], false, nil),
    ]

    @Test("udev's tags give the kind, or leave it to the device's keys", arguments: tagCases)
    func taggedKind(properties: [String: String], initialized: Bool, kind: KeyboardKind?) {
        #expect(KeyboardDiscovery.taggedKind(Self.device(properties, initialized: initialized)) == kind)
    }

    @Test("a tagged device is described from udev alone: its name, links and seat, without opening it")
    func taggedDevice() {
        let links = ["/dev/input/by-id/usb-Test-event-kbd", "/dev/input/by-path/platform-i8042-serio-0-event-kbd"]
        let found = KeyboardDiscovery.describe(
            Self.device(["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1", "ID_SEAT": "seat1"], links: links),
            path: "/dev/input/event999")
        #expect(
            found
                == DiscoveredDevice(
                    path: "/dev/input/event999", name: "Test Keys", kind: .keyboard, taggedByUdev: true, openError: nil,
                    links: links, seat: "seat1"))
        let noSeat = KeyboardDiscovery.describe(
            Self.device(["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1", "ID_SEAT": ""]), path: "/dev/input/event999")
        #expect(noSeat.seat == nil, "an empty ID_SEAT is seat0, said as nil")
    }

    @Test("an untagged device is opened to read its keys: a missing one carries the open error")
    func untaggedDevice() {
        let found = KeyboardDiscovery.describe(Self.device([:], initialized: false), path: "/dev/input/event999")
        #expect(found.kind == nil)
        #expect(!found.taggedByUdev)
        #expect(found.openError == InputError.opening("/dev/input/event999", errno: .noSuchFileOrDirectory))
    }

    @Test("a node udev does not know, or no node at all, is on seat0")
    func seat() {
        #expect(KeyboardDiscovery.seat(of: "/dev/null") == "seat0")
        #expect(KeyboardDiscovery.seat(of: "/nonexistent/event3") == "seat0")
    }
}
