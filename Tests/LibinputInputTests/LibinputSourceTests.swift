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

/// The output a pointer lands on, as a test stands it in: a 1000x600 screen of 10x20-pixel cells
/// that records where it was asked to draw the cursor.
@MainActor final class TestScreen: PointerSurface {
    var cursor: [(x: Double, y: Double)?] = []
    var pointerArea: (width: Int, height: Int)? { (1000, 600) }
    func windowPoint(x: Double, y: Double) -> Point { Point(x: x / 10, y: y / 20) }
    func showCursor(at position: (x: Double, y: Double)?) { cursor.append(position) }
}

@MainActor @Suite struct LibinputSurfaceTests {
    @Test("the source's surface is what its decoder scales to, maps through and draws the cursor on; none: unmapped")
    func surface() throws {
        let source = try LibinputSourceTests.source()
        #expect(source.decoder.screen() == nil, "no surface: fractions of the device's range")
        #expect(source.decoder.mapPoint(50, 60) == Point(x: 50, y: 60))
        // Held by the source alone: an output holds no source, and a surface made for it stays.
        source.surface = TestScreen()
        #expect(source.decoder.screen()?.width == 1000 && source.decoder.screen()?.height == 600)
        #expect(source.decoder.mapPoint(50, 60) == Point(x: 5, y: 3))
        source.decoder.onCursor?((x: 7, y: 8))
        source.decoder.onCursor?(nil)
        let screen = try #require(source.surface as? TestScreen)
        #expect(screen.cursor.count == 2 && screen.cursor[0]?.x == 7 && screen.cursor[1] == nil)
    }
}
