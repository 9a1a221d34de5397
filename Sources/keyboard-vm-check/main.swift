// Runs inside the test VM (Tools/vm-test): reads real kernel input devices through
// EvdevSource (udev discovery, hot-plug, libevdev, xkb) into a Dispatcher, then checks
// what one scenario expects. Prints what it saw and `PASS name` or `FAIL name: why`; exits 0 or 1.
//
// The guest side tells the host when to inject keys by creating files in $VM_RUN: `ready` once
// the loop reads its keyboards, `added` once a hot-plugged keyboard is open.
import Foundation
import LinuxKeyboard
import ResponderChain

final class Log: Responder {
    var lines: [String] = []
    var devices: [String: DeviceID] = [:]
    override var canBecomeFirstResponder: Bool { true }
    override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool { action == "undo" }
    override func perform(_ action: Action, sender: ActionSender) { lines.append("action \(action)") }
    override func pressesBegan(_ press: Press, with event: PressEvent) {
        lines.append("began \(press.key.keyCode.name) \(press.key.characters)")
        devices[press.key.keyCode.name] = press.device
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
guard arguments.count >= 2 else {
    print("usage: keyboard-vm-check <scenario> [seconds]")
    exit(2)
}
let scenario = arguments[1]
let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 4 : 4
let run = ProcessInfo.processInfo.environment["VM_RUN"] ?? "/tmp"

func fail(_ why: String) -> Never {
    print("FAIL \(scenario): \(why)")
    exit(1)
}
func signal(_ name: String) { _ = FileManager.default.createFile(atPath: run + "/" + name, contents: nil) }

let ps2 = "AT Translated Set 2 keyboard"
let usb = "QEMU QEMU USB Keyboard"
let uinput = "kernel-vm test keyboard"
var options = EvdevSource.Options(hotPlug: false)
var layout: (any KeyboardLayout)? = nil
switch scenario {
case "uinput-typing", "syn-dropped": options.devices = [uinput]
case "ps2-typing": options.devices = [ps2]
// The USB keyboard: usbhid repeats in the kernel (atkbd leaves repeats to the keyboard's own
// typematic, which QEMU's PS/2 does not emulate).
case "repeat-kernel": options.devices = [usb]
case "repeat-software":
    options.devices = [usb]
    options.repeatMode = .software(RepeatTiming(delay: 0.3, interval: 0.1))
case "usb-unplug": options.devices = [ps2, usb]
case "hotplug":
    options.devices = [ps2, usb]
    options.hotPlug = true
case "replug-by-path":
    // The USB keyboard named by udevd's by-path link, which must keep selecting it after a re-plug
    // gives it a new event node.
    let links = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/input/by-path")) ?? []
    guard let link = links.first(where: { $0.contains("usb") && $0.hasSuffix("-event-kbd") }) else {
        fail("no by-path link for the USB keyboard (is udevd running?): \(links)")
    }
    options.devices = ["/dev/input/by-path/" + link]
    options.hotPlug = true
    print("selected by \(options.devices[0])")
case "grab":
    options.devices = [uinput]
    options.grab = true
case "leds":
    options.devices = ["kernel-vm LED keyboard"]
    // Grabbed, so that the console's own keyboard handler never sees Caps Lock and cannot light
    // the LEDs itself: what lights them is the loop.
    options.grab = true
case "de-shortcut":
    options.devices = [ps2]
    do { layout = try XKBKeyboardLayout(KeymapNames(layout: "de")) } catch { fail("\(error)") }
// Keymap options, layout groups and dead keys on a real kernel keyboard, through xkb_state.
case "xkb-nocaps":
    options.devices = [ps2]
    do { layout = try XKBKeyboardLayout(KeymapNames(layout: "us", options: "ctrl:nocaps")) } catch { fail("\(error)") }
case "xkb-groups":
    options.devices = [ps2]
    do { layout = try XKBKeyboardLayout(KeymapNames(layout: "us,ru", options: "grp:alt_shift_toggle")) } catch {
        fail("\(error)")
    }
case "dead-key":
    options.devices = [ps2]
    do { layout = try XKBKeyboardLayout(KeymapNames(layout: "de"), composeLocale: "C.UTF-8") } catch {
        fail("\(error)")
    }
case "leds-initial":
    options.devices = ["kernel-vm LED keyboard"]
    options.grab = true
// Seats: as an ordinary user through seatd (libseat); a VT switch; two seats on one machine.
case "seat-user", "seat-vt":
    options.devices = [ps2]
    options.seatAccess = .required
case "seat-denied":
    options.seatAccess = .automatic
case "two-seats":
    options.seatAccess = .direct
    options.seatName = ProcessInfo.processInfo.environment["VM_CHECK_SEAT"] ?? "seat0"
    options.hotPlug = true
default: fail("unknown scenario")
}

let window = Window()
let log = Log()
log.keyCommands = [KeyCommand("z", modifierFlags: .control, action: "undo")]
window.addChild(log)
_ = log.becomeFirstResponder()
let dispatcher = Dispatcher(window: window)
if let layout { dispatcher.layout = layout }
let eventLoop: EventLoop
do { eventLoop = try EventLoop() } catch { fail("\(error)") }
let source = EvdevSource(loop: eventLoop, context: dispatcher.inputContext, options: options)

var changes: [EvdevSource.Change] = []
var started = false
var hotPlugged: EvdevSource.Keyboard?
source.onChange = { change in
    changes.append(change)
    print("change: \(change)")
    if started, !scenario.hasPrefix("seat"), case .added(let keyboard) = change {
        hotPlugged = keyboard
        if let attributes = try? FileManager.default.attributesOfItem(atPath: keyboard.path),
            let created = attributes[.modificationDate] as? Date
        {
            print(
                "hot-plug: \(keyboard.name) open \(Int(Date().timeIntervalSince(created) * 1000)) ms after its node appeared"
            )
        }
        signal("added")
    }
}
var idleWakeups = 0
var signalledHeld = false
var seatChanges: [String] = []
eventLoop.afterBatch = {
    if log.lines.isEmpty { idleWakeups += 1 }
    if scenario == "seat-vt", !signalledHeld, log.lines.contains("began KeyA a") {
        signalledHeld = true
        signal("held")
    }
}
if scenario == "seat-vt" {
    let report = source.onChange
    source.onChange = { change in
        report?(change)
        switch change {
        case .seatDisabled(let keys):
            seatChanges.append("disabled \(keys.map(\.name))")
            signal("disabled")
        case .seatEnabled: seatChanges.append("enabled")
        case .added where seatChanges.last == "enabled":
            seatChanges.append("reopened")
            signal("enabled")
        default: break
        }
    }
}
if scenario == "seat-denied" {
    do {
        try source.start()
        fail("an ordinary user without seatd must not read \(source.keyboards.map(\.path))")
    } catch {
        print("denied: \(error)")
        guard error.message.contains("input group"), error.message.contains("seatd") else {
            fail("the permission error must name both fixes (the input group, seatd): \(error)")
        }
        print("PASS seat-denied")
        exit(0)
    }
}
do { try source.start() } catch { fail("\(error)") }
started = true
let opened = source.keyboards
print("reading: \(opened.map { "\($0.name) \($0.path) repeats: \($0.repeatSource) grabbed: \($0.isGrabbed)" })")

// A second, ordinary reader of the grabbed device: it must see nothing.
var bystander: (InputDevice, EvdevDecoder, Dispatcher)?
if scenario == "grab", let first = opened.first {
    do {
        let device = try InputDevice(path: first.path)
        let other = Dispatcher(window: Window())
        bystander = (device, EvdevDecoder(device: DeviceID(rawValue: 99), sink: other, isLive: true), other)
    } catch { fail("a second reader could not open \(first.path): \(error)") }
}
var ledsAtStart: [LockState] = []
if scenario == "leds" {
    guard opened.count == 2 else { fail("expected two LED keyboards, got \(opened.count)") }
    ledsAtStart = opened.map { (try? InputDevice(path: $0.path))?.lockLEDs ?? [.scrollLock] }
}

signal(scenario == "two-seats" ? "ready-\(options.seatName ?? "")" : "ready")
if let pause = ProcessInfo.processInfo.environment["VM_CHECK_SLEEP"].flatMap(Double.init) {
    usleep(UInt32(pause * 1_000_000))
}

@MainActor func done() -> Bool {
    let lines = log.lines
    switch scenario {
    case "uinput-typing", "grab": return lines.contains("ended KeyA") && lines.contains("ended ShiftLeft")
    case "ps2-typing": return lines.contains("ended KeyI")
    case "usb-unplug": return lines.contains("ended KeyC")
    case "hotplug", "replug-by-path": return lines.contains("ended KeyX")
    case "leds": return lines.contains("ended KeyA")
    case "de-shortcut": return lines.contains("ended KeyZ")
    case "xkb-nocaps": return lines.contains("ended KeyA")
    case "xkb-groups": return lines.contains("ended KeyB")
    case "dead-key": return lines.contains("ended KeyE")
    case "leds-initial", "seat-denied": return true
    case "seat-user": return lines.contains("ended KeyI")
    case "seat-vt": return lines.contains("ended KeyB")
    case "repeat-kernel", "repeat-software": return lines.contains("ended KeyA")
    default: return false
    }
}

let deadline = Date().addingTimeInterval(seconds)
while Date() < deadline && !done() {
    eventLoop.runOnce(timeout: deadline.timeIntervalSinceNow)
}
// Let the last frames in (an unplug's removal, the last LED write).
eventLoop.runOnce(timeout: 0.1)

let lines = log.lines
let held = dispatcher.keyboardState.pressedKeys
print("\(scenario): \(lines.count) deliveries \(lines), held \(held), idle wake-ups \(idleWakeups)")

switch scenario {
case "uinput-typing":
    let expected = ["began ShiftLeft ", "began KeyA A", "ended KeyA", "ended ShiftLeft"]
    guard lines == expected else { fail("expected \(expected)") }
case "syn-dropped":
    guard !held.contains(.a) else { fail("A is stuck after the flood") }
    guard held == [.b] else { fail("after the resync only B is held, got \(held)") }
    guard !lines.contains(where: { $0.hasPrefix("began KeyB") }) else { fail("no began may be invented for B") }
    guard
        lines.filter({ $0.hasPrefix("began KeyA") }).count
            == lines.filter({ $0.hasPrefix("ended KeyA") || $0.hasPrefix("cancelled KeyA") }).count
    else { fail("every began of A needs one end") }
case "ps2-typing":
    let expected = ["began KeyH h", "ended KeyH", "began KeyI i", "ended KeyI"]
    guard lines == expected else { fail("expected \(expected)") }
    guard idleWakeups == 0 else { fail("the loop woke \(idleWakeups) times while idle") }
    print("idle: 0 wake-ups in the second before the first key")
case "usb-unplug":
    guard lines.contains("cancelled KeyA"), lines.contains("cancelled KeyB") else { fail("A and B must end cancelled") }
    guard !lines.contains("ended KeyA"), !lines.contains("ended KeyB") else {
        fail("an unplug release must not be `ended`")
    }
    guard
        let removed = changes.first(where: {
            if case .removed(let keyboard, _) = $0 { return keyboard.name == usb }
            return false
        }), case .removed(_, let cancelledKeys) = removed, Set(cancelledKeys) == [.a, .b]
    else { fail("the removal must report A and B cancelled: \(changes)") }
    let ps2ID = opened.first { $0.name == ps2 }?.id
    guard lines.contains("began KeyC c"), log.devices["KeyC"] == ps2ID else {
        fail("after the unplug the loop must keep serving the PS/2 keyboard")
    }
case "hotplug":
    guard let hotPlugged, hotPlugged.name == usb else { fail("no keyboard was hot-plugged: \(changes)") }
    guard log.devices["KeyX"] == hotPlugged.id else { fail("X must come from the new keyboard") }
    print("hot-plug source: \(source.monitor?.source ?? "none")")
case "replug-by-path":
    guard changes.contains(where: { if case .removed = $0 { return true } else { return false } }) else {
        fail("the first keyboard was never removed: \(changes)")
    }
    guard let hotPlugged, hotPlugged.name == usb, log.devices["KeyX"] == hotPlugged.id else {
        fail("X must come from the re-plugged keyboard: \(changes)")
    }
    print("re-plugged: \(hotPlugged.path) selected again through \(options.devices[0])")
case "grab":
    guard let (device, decoder, other) = bystander else { fail("no bystander") }
    _ = device.readAvailable(into: decoder)
    guard decoder.framesDecoded == 0, other.keyboardState.pressedKeys.isEmpty else {
        fail("the second reader saw \(decoder.framesDecoded) frames while the device was grabbed")
    }
    do {
        try device.grab()
        fail("a second grab succeeded")
    } catch {
        guard error.errno == .resourceBusy, "\(error)".contains("run without --grab") else {
            fail("the second grab must fail with EBUSY and the fix, got \(error)")
        }
        print("second grab: \(error)")
    }
case "leds":
    guard ledsAtStart == [[], []] else { fail("at start the LEDs show the dispatcher's locks (none): \(ledsAtStart)") }
    let ledsNow = opened.map { (try? InputDevice(path: $0.path))?.lockLEDs ?? [] }
    guard ledsNow == [.capsLock, .capsLock] else {
        fail("after Caps Lock on the first keyboard both must show Caps Lock: \(ledsNow)")
    }
    guard lines.contains("began KeyA A") else { fail("Caps Lock must make A type A") }
case "de-shortcut":
    guard lines.contains("action undo") else { fail("Ctrl and the key labelled Z (KEY_Y) on de must send undo") }
    guard !lines.contains(where: { $0.hasPrefix("began KeyY") }) else { fail("the command owns the key") }
    guard lines.contains("began KeyZ y") else { fail("KEY_Z types y on de") }
case "xkb-nocaps":
    guard lines.contains("action undo") else { fail("Caps Lock is Control under ctrl:nocaps: Caps+Z must send undo") }
    guard lines.contains("began KeyA a") else { fail("Caps Lock tapped must not lock: A types a") }
    guard !dispatcher.keyboardState.locks.contains(.capsLock) else { fail("Caps Lock locked under ctrl:nocaps") }
    print("ctrl:nocaps: Caps Lock+Z sent undo; A typed a after Caps Lock was tapped")
case "xkb-groups":
    let typed = lines.filter { $0.hasPrefix("began KeyA") || $0.hasPrefix("began KeyB") }
    guard typed == ["began KeyA a", "began KeyA ф", "began KeyB b"] else {
        fail("Alt+Shift must switch us → ru → us: \(typed)")
    }
    print("us,ru: \(typed)")
case "dead-key":
    guard lines.contains("began Equal "), lines.contains("began KeyE é") else { fail("´ then e must type é on de") }
    print("de dead key: ´ then e typed é")
case "seat-user":
    guard let seat = source.seat else { fail("no seat") }
    guard getuid() != 0 else { fail("must run as an ordinary user") }
    let expected = ["began KeyH h", "ended KeyH", "began KeyI i", "ended KeyI"]
    guard lines == expected else { fail("expected \(expected)") }
    print("seat: uid \(getuid()) read the PS/2 keyboard through \(seat.backend) on \(seat.name)")
case "seat-vt":
    print("seat changes: \(seatChanges)")
    guard seatChanges.first == "disabled [\"KeyA\"]", seatChanges.contains("reopened") else {
        fail("chvt must disable the seat with A held, and chvt back enable it: \(seatChanges)")
    }
    guard lines.contains("cancelled KeyA"), !lines.contains("ended KeyA") else { fail("A must end cancelled") }
    guard lines.contains("began KeyB b") else { fail("input must resume after the switch back") }
    print("VT switch: A held was cancelled; after the switch back B typed b")
case "two-seats":
    let seatName = options.seatName ?? ""
    let typed = lines.filter { $0.hasPrefix("began") }
    print("\(seatName) typed: \(typed)")
    let expected = seatName == "seat1" ? ["began KeyX x"] : ["began KeyY y"]
    guard typed == expected else { fail("\(seatName) must see only its own keyboard's key: \(expected)") }
case "leds-initial":
    let locks = dispatcher.keyboardState.locks
    let leds = opened.map { (try? InputDevice(path: $0.path))?.lockLEDs ?? [] }
    guard locks == .numLock else { fail("the keyboard's Num Lock LED must give the dispatcher Num Lock: \(locks)") }
    guard leds == [.numLock] else { fail("the Num Lock LED must stay lit: \(leds)") }
    print("initial locks from the LEDs: Num Lock on, its LED still lit on \(leds.count) keyboard")
case "repeat-kernel", "repeat-software":
    let repeats = lines.filter { $0 == "changed KeyA" }.count
    let source = opened.first?.repeatSource
    print("held A for 0.8 s: \(repeats) repeats from \(source.map { "\($0)" } ?? "no keyboard")")
    if scenario == "repeat-kernel" {
        guard source == .kernel, repeats >= 8 else { fail("expected the kernel's repeats (≥ 8)") }
    } else {
        guard source == .software, (3...7).contains(repeats) else {
            fail("expected 3-7 software repeats (0.3 s delay, 0.1 s interval) and none from the kernel")
        }
    }
default:
    fail("unknown scenario")
}
guard held.isEmpty || scenario == "syn-dropped" else { fail("keys stuck: \(held)") }
print("PASS \(scenario)")
