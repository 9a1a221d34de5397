// Runs inside the test VM (Tools/vm-test): reads a real kernel input device through
// KeyboardDiscovery, InputDevice and EvdevDecoder into a Dispatcher, then checks what one
// scenario expects. Prints what it saw and `PASS name` or `FAIL name: why`; exits 0 or 1.
import Foundation
import LinuxKeyboard
import ResponderChain

final class Log: Responder {
    var lines: [String] = []
    override var canBecomeFirstResponder: Bool { true }
    override func pressesBegan(_ press: Press, with event: PressEvent) {
        lines.append("began \(press.key.keyCode.name) \(press.key.characters)")
    }
    override func pressesChanged(_ press: Press, with event: PressEvent) {
        lines.append("changed \(press.key.keyCode.name)")
    }
    override func pressesEnded(_ press: Press, with event: PressEvent) {
        lines.append("ended \(press.key.keyCode.name)")
    }
    override func pressesCancelled(_ press: Press, with event: PressEvent) {
        lines.append("cancelled \(press.key.keyCode.name)")
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: keyboard-vm-check <scenario> <device name> [seconds]")
    exit(2)
}
let scenario = arguments[1]
let deviceName = arguments[2]
let seconds = arguments.count > 3 ? Double(arguments[3]) ?? 3 : 3
let environment = ProcessInfo.processInfo.environment

func fail(_ why: String) -> Never {
    print("FAIL \(scenario): \(why)")
    exit(1)
}

var devices: [DiscoveredDevice] = []
for _ in 0..<100 {
    devices = (try? KeyboardDiscovery.inputDevices()) ?? []
    if devices.contains(where: { $0.name == deviceName }) { break }
    usleep(100_000)
}
guard let found = devices.first(where: { $0.name == deviceName }) else {
    fail("no device named \"\(deviceName)\" among \(devices.map(\.name))")
}
guard found.kind == .keyboard else { fail("\(deviceName) classified as \(String(describing: found.kind))") }
let device: InputDevice
do { device = try InputDevice(path: found.path) } catch { fail("\(error)") }

let window = Window()
let log = Log()
window.addChild(log)
_ = log.becomeFirstResponder()
let dispatcher = Dispatcher(window: window)
let decoder = EvdevDecoder(device: DeviceID(rawValue: 1), dispatcher: dispatcher)
if let run = environment["VM_RUN"] { _ = FileManager.default.createFile(atPath: run + "/ready", contents: nil) }
if let pause = environment["VM_CHECK_SLEEP"].flatMap(Double.init) { usleep(UInt32(pause * 1_000_000)) }

let deadline = Date().addingTimeInterval(seconds)
var removed = false
while Date() < deadline && !removed {
    var descriptor = pollfd(fd: device.fileDescriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, 100)
    if descriptor.revents != 0, device.readAvailable(into: decoder) == .removed {
        decoder.deviceRemoved(time: 0)
        removed = true
    }
}
let lines = log.lines
let held = dispatcher.keyboardState.pressedKeys
print("\(scenario): \(lines.count) deliveries \(lines), drops \(decoder.drops), removed \(removed), held \(held)")

switch scenario {
case "uinput-typing":
    let expected = ["began ShiftLeft ", "began KeyA A", "ended KeyA", "ended ShiftLeft"]
    guard lines == expected else { fail("expected \(expected)") }
case "usb-unplug":
    guard removed else { fail("the unplug was not seen (no ENODEV)") }
    guard lines.contains("cancelled KeyA"), lines.contains("cancelled KeyB") else { fail("A and B must end cancelled") }
    guard !lines.contains("ended KeyA"), !lines.contains("ended KeyB") else {
        fail("an unplug release must not be `ended`")
    }
case "syn-dropped":
    guard decoder.drops >= 1 else { fail("no SYN_DROPPED was provoked") }
    guard held == [.b] else { fail("after the resync only B is held, got \(held)") }
    guard !lines.contains(where: { $0.hasPrefix("began KeyB") }) else { fail("no began may be invented for B") }
case "ps2-typing":
    let expected = ["began KeyH h", "ended KeyH", "began KeyI i", "ended KeyI"]
    guard lines == expected else { fail("expected \(expected)") }
default:
    fail("unknown scenario")
}
guard held.isEmpty || scenario == "syn-dropped" else { fail("keys stuck: \(held)") }
print("PASS \(scenario)")
