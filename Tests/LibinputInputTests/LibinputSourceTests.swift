import EventLoop
import LinuxSystem
import ResponderChain
import Testing
import Udev

@testable import LibinputInput

/// What the source takes from udev's list, without libinput: its filter and its reports.
@MainActor @Suite struct LibinputSourceTests {
    static func device(_ path: String, _ properties: [String: String], name: String = "device") -> UdevDevice {
        UdevDevice(
            path: path, syspath: "/sys/devices/virtual/input/x", subsystem: "input", name: name, isInitialized: true,
            properties: properties)
    }

    static func source(_ options: LibinputSource.Options = .init()) throws -> LibinputSource {
        let (dispatcher, _) = try Scene(json: LibinputDecoderTests.json, file: "libinput.json").makeDispatcher()
        return LibinputSource(loop: try EventLoop(), context: dispatcher.inputContext, options: options)
    }

    @Test(
        "touch screens, mice, tablets and touchpads of the seat are read; keyboards, gamepads, untagged nodes are not")
    func wants() throws {
        let source = try Self.source()
        let tagged = ["ID_INPUT": "1"]
        #expect(source.wants(Self.device("/dev/input/event1", tagged.merging(["ID_INPUT_TOUCHSCREEN": "1"]) { $1 })))
        #expect(source.wants(Self.device("/dev/input/event2", tagged.merging(["ID_INPUT_MOUSE": "1"]) { $1 })))
        #expect(source.wants(Self.device("/dev/input/event3", tagged.merging(["ID_INPUT_TOUCHPAD": "1"]) { $1 })))
        #expect(source.wants(Self.device("/dev/input/event4", tagged.merging(["ID_INPUT_TABLET": "1"]) { $1 })))
        // One reader a node: what EvdevSource reads stays there.
        #expect(!source.wants(Self.device("/dev/input/event5", tagged.merging(["ID_INPUT_KEYBOARD": "1"]) { $1 })))
        #expect(
            !source.wants(
                Self.device(
                    "/dev/input/event6", tagged.merging(["ID_INPUT_KEYBOARD": "1", "ID_INPUT_MOUSE": "1"]) { $1 })))
        #expect(
            !source.wants(
                Self.device(
                    "/dev/input/event7", tagged.merging(["ID_INPUT_JOYSTICK": "1", "ID_INPUT_MOUSE": "1"]) { $1 })))
        // An "air mouse" remote: keys (arrows, OK) and a pointer on one node, which EvdevSource reads as a remote.
        #expect(
            !source.wants(
                Self.device("/dev/input/event10", tagged.merging(["ID_INPUT_KEY": "1", "ID_INPUT_MOUSE": "1"]) { $1 })))
        // Untagged (no udevd: libinput would refuse it), another seat's, not an event node.
        #expect(!source.wants(Self.device("/dev/input/event8", ["ID_INPUT_MOUSE": "1"])))
        #expect(
            !source.wants(
                Self.device("/dev/input/event9", tagged.merging(["ID_INPUT_MOUSE": "1", "ID_SEAT": "seat1"]) { $1 })))
        #expect(!source.wants(Self.device("/dev/input/mouse0", tagged.merging(["ID_INPUT_MOUSE": "1"]) { $1 })))
    }

    @Test("devices named by path are read whatever udev says; by name, only pointing devices whose name matches")
    func selection() throws {
        let source = try Self.source(.init(devices: ["/dev/input/event8", "tablet"]))
        let mouse = ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1"]
        #expect(source.wants(Self.device("/dev/input/event8", [:])))
        #expect(source.wants(Self.device("/dev/input/event2", mouse, name: "QEMU QEMU USB Tablet")))
        #expect(!source.wants(Self.device("/dev/input/event3", mouse, name: "Logitech mouse")))
    }

    @Test("the source says what it reads, through what, and that it holds no seat without one")
    func note() throws {
        let source = try Self.source()
        #expect(source.inputName == "touch and pointer")
        #expect(source.inputNote == "no touch screen or pointer yet (opened directly)")
        #expect(!source.holdsSeat)
        #expect(source.activeSeatName == "seat0")
    }

    @Test("without udevd, start says that touch and pointer need it, instead of seeing nothing")
    func withoutUdevd() throws {
        let source = try Self.source()
        source.udevIsRunning = { false }
        #expect {
            try source.start()
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.path == "/run/udev/control" && error.message.contains("touch and pointer need udevd")
                && error.message.contains("systemd-udevd")
        }
        #expect(source.devices.isEmpty)
    }
}
