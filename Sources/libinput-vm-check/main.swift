// Runs inside the test VM (Tools/vm-test): reads a real touch screen, mouse or QEMU usb-tablet
// through LibinputSource (udev, libinput's path backend, the seat) into a Dispatcher whose focus
// tree is one screen of 1280×800 pixels: a tile `open` in the top-left quarter (its primary
// action `open`), a text field `name` in the bottom-right one. Prints every pointer record, the
// actions performed and the device changes, then `PASS name` or `FAIL name: why`; exits 0 or 1.
//
// The guest tells the host when to act through files in $VM_RUN: this program makes `ready` once
// libinput reads its devices; the guest's script (or the host's QMP actions) make `done` when they
// are through. With VM_CHECK_SEAT=1 the devices are opened through a Seat (seatd).
import EventLoop
import Foundation
import LibinputInput
import ResponderChain
import Seat

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: libinput-vm-check touch|tablet [seconds]")
    exit(2)
}
let scenario = arguments[1]
let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 20 : 20
let environment = ProcessInfo.processInfo.environment
let run = environment["VM_RUN"] ?? "/tmp"

func fail(_ why: String) -> Never {
    print("FAIL libinput-\(scenario): \(why)")
    exit(1)
}
func signal(_ name: String) { _ = FileManager.default.createFile(atPath: run + "/" + name, contents: nil) }
func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: run + "/" + name) }

let json = """
    {"root": {"id": "screen", "frame": [0, 0, 1280, 800], "children": [
      {"id": "open", "frame": [0, 0, 640, 400], "focusable": true, "primaryAction": "open", "actions": ["open"]},
      {"id": "name", "kind": "textInput", "frame": [640, 400, 640, 400]}]}}
    """
let scene: Scene
do { scene = try Scene(json: json, file: "libinput-vm-check.json") } catch { fail("the scene: \(error)") }
let (dispatcher, focus) = scene.makeDispatcher()
focus.updateFocusIfNeeded()
var performed: [String] = []
var records: [String] = []
var changes: [String] = []
scene.nodes["open"]?.onAction = { action, _ in
    performed.append(action.rawValue)
    print("performed \(action.rawValue)")
}
let observation = dispatcher.addTraceObserver { record in
    guard case .pointer(let event, let item, let outcome) = record.kind else { return }
    let line =
        "\(event.kind) \(event.phase) contact \(event.contact) at \(Int(event.point.x)),\(Int(event.point.y))"
        + " on \(item ?? "-"): \(outcome ?? "-")"
    records.append("\(event.kind) \(event.phase)")
    print(line)
}

let loop: EventLoop
do { loop = try EventLoop() } catch { fail("the loop: \(error)") }
var seat: Seat?
if environment["VM_CHECK_SEAT"] == "1" {
    do { seat = try Seat() } catch { fail("no seat: \(error)") }
    if let seat {
        do { try loop.watch(seat.fileDescriptor) { _ in seat.dispatch() } } catch { fail("the seat: \(error)") }
        print("seat: \(seat.name) through \(seat.backend) as uid \(getuid())")
    }
}
/// The VM's screen as the pointer's surface: 1280x800 pixels, the window's points in pixels; it
/// counts the cursor's moves instead of drawing it.
final class CheckScreen: PointerSurface {
    var cursorMoves = 0
    var pointerArea: (width: Int, height: Int)? { (1280, 800) }
    func windowPoint(x: Double, y: Double) -> Point { Point(x: x, y: y) }
    func showCursor(at position: (x: Double, y: Double)?) { cursorMoves += 1 }
}
let screen = CheckScreen()
let source = LibinputSource(loop: loop, context: dispatcher.inputContext, seat: seat)
source.surface = screen
source.onDeviceChange = { change in
    switch change {
    case .added(let info): changes.append("added \(info.name)")
    case .removed(let info, _): changes.append("removed \(info.name)")
    case .failed(let path, let message): changes.append("failed \(path): \(message)")
    default: changes.append("\(change)")
    }
    print("device: \(changes.last ?? "")")
    if case .seatDisabled = change { signal("disabled") }
    if case .seatEnabled = change { signal("enabled") }
}
do { try source.start() } catch { fail("start: \(error)") }
print("reading: \(source.inputNote ?? "-")")
if source.devices.isEmpty { fail("no touch screen or pointer") }
signal("ready")

let deadline = EventLoop.monotonicNow + seconds
var doneAt: Double?
while EventLoop.monotonicNow < deadline {
    _ = loop.runOnce(timeout: 0.05)
    // The guest's script says when it is through; QEMU's tablet is through when it is unplugged.
    let through = exists("done") || (scenario == "tablet" && changes.contains { $0.hasPrefix("removed") })
    if doneAt == nil && through { doneAt = EventLoop.monotonicNow }
    // What follows the last step (libinput's removal, its events) is read for half a second more.
    if let doneAt, EventLoop.monotonicNow > doneAt + 0.5 { break }
}
_ = observation
print(
    "performed: \(performed), focused: \(focus.focusedItem?.focusDebugName ?? "-"), cursor moves: \(screen.cursorMoves)"
)
print("records: \(records.joined(separator: ", "))")
if doneAt == nil { fail("the steps never finished within \(seconds) s") }
let focusedName = focus.focusedItem?.focusDebugName.contains("name") ?? false

switch scenario {
case "touch":
    // A tap on the tile; a tap on the field; two fingers on the tile; a finger down on the tile when the touch
    // screen goes; the mouse to the tile's corner and a click; a press there when the mouse goes.
    guard performed == ["open", "open"] else {
        fail("expected the tile's action twice (the tap and the click), got \(performed)")
    }
    guard focusedName else { fail("the tap on the field did not give it focus") }
    guard records.filter({ $0 == "touch down" }).count == 5, records.filter({ $0 == "touch up" }).count == 4 else {
        fail("expected 5 touches down and 4 up")
    }
    guard records.contains("touch cancel") else { fail("the touch screen's removal cancelled no touch") }
    guard records.last == "mouse cancel" else { fail("the mouse's removal mid-press did not end in a cancel") }
    guard changes.contains(where: { $0.hasPrefix("removed") && $0.contains("touchscreen") }),
        changes.contains(where: { $0.hasPrefix("removed") && $0.contains("mouse") })
    else { fail("the removals were not reported") }
    print(
        "PASS libinput-touch: a tap ran the tile's action, a tap focused the field, two fingers activated nothing,"
            + " a finger down when the touch screen went was cancelled, a mouse click ran the action and a press"
            + " when the mouse went was cancelled (no click)")
case "vt":
    // A finger down on the tile; a switch to VT 2 and back; the finger lifted; a new tap.
    guard changes.contains(where: { $0.hasPrefix("seatDisabled") }), changes.contains("seatEnabled") else {
        fail("the seat was never disabled and enabled again")
    }
    guard records.first == "touch down", records.dropFirst().first == "touch cancel" else {
        fail("the finger held across the VT switch was not cancelled first")
    }
    guard performed == ["open"] else {
        fail("expected the tile's action once (the tap after the return), got \(performed)")
    }
    print(
        "PASS libinput-vt: a finger held on the tile was cancelled when the seat went (chvt 2), the devices came back"
            + " with it (chvt 1), the held finger's lift did nothing and a new tap ran the action once")
case "tablet":
    guard performed == ["open"] else { fail("expected the tile's action once, got \(performed)") }
    guard focusedName else { fail("the click on the field did not give it focus") }
    guard records.last == "mouse cancel" else { fail("the tablet's removal mid-press did not end in a cancel") }
    print(
        "PASS libinput-tablet: QEMU's usb-tablet (absolute) clicked the tile (its action ran) and the field (it"
            + " took focus); a press when the tablet went was cancelled (no click)")
default:
    fail("unknown scenario")
}
