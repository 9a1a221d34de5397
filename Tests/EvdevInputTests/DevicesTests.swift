import LinuxSystem
import ResponderChain
import Testing

@testable import EvdevInput

@MainActor @Suite struct DevicesTests {
    @Test(
        "keyboards, keypads and remote controls are told apart by their declared keys",
        arguments: [
            (Set(KeyCode.allNamed.filter { $0.rawValue < 120 }), KeyboardKind.keyboard),
            (
                Set([
                    KeyCode.keypad0, .keypad1, .keypad2, .keypad3, .keypad4, .keypad5, .keypad6, .keypad7, .keypad8,
                    .keypad9, .keypadEnter,
                ]), .keypad
            ),
            (Set([KeyCode.upArrow, .downArrow, .leftArrow, .rightArrow, .ok, .back]), .remote),
            (Set([KeyCode.upArrow, .downArrow, .leftArrow, .rightArrow]), .none),
            (Set([KeyCode(0x110), KeyCode(0x111)]), .none),
            (Set([KeyCode(116)]), .none),
        ])
    func classify(keys: Set<KeyCode>, kind: KeyboardKind) {
        #expect(KeyboardKind.classify(keys: keys) == kind)
    }

    @Test("opening a missing device names the path and how to list keyboards")
    func missingDevice() {
        do {
            _ = try InputDevice(path: "/dev/input/event999")
            Issue.record("expected an error")
        } catch {
            #expect(error.errno == .noSuchFileOrDirectory)
            #expect(
                error.description == "open /dev/input/event999: no such device file. "
                    + "List keyboards with `keytrace --list-devices` or `ls /dev/input/by-id`")
        }
    }

    @Test("opening something that is not an evdev device says so")
    func notEvdev() {
        do {
            _ = try InputDevice(path: "/dev/null")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("open /dev/null: not an evdev input device"))
        }
    }

    @Test("the permission and no-keyboard errors name the fix")
    func messages() {
        #expect(
            "\(InputError.opening("/dev/input/event3", errno: .permissionDenied))".contains(
                "add your user to the input group"))
        #expect(InputError.noKeyboards(searched: 0).message.contains("no input devices at all"))
        #expect(InputError.noKeyboards(searched: 3).message.hasPrefix("3 input devices, none of them a keyboard"))
    }

    @Test("a device path with control characters is escaped in the error's text")
    func escapedPath() {
        let error = InputError.opening("/dev/input/\u{1B}]0;pwned\u{07}\nevent3", errno: .noSuchFileOrDirectory)
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(error.description.contains("/dev/input/\\u{1B}]0;pwned\\u{7}\\nevent3"), "\(error)")
    }

    @Test(
        "udev enumeration runs here; every device it reports is an event node, and without keyboards the error says what was searched"
    )
    func discovery() throws {
        let devices = try KeyboardDiscovery.inputDevices()
        #expect(devices.allSatisfy { $0.path.hasPrefix("/dev/input/event") })
        if devices.allSatisfy({ ($0.kind ?? KeyboardKind.none) == KeyboardKind.none }) {
            #expect(throws: InputError.noKeyboards(searched: devices.count)) { try KeyboardDiscovery.keyboards() }
        } else {
            #expect(try !KeyboardDiscovery.keyboards().isEmpty)
        }
    }
}
