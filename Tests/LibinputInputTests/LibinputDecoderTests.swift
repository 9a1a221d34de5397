import ResponderChain
import Testing

@testable import LibinputInput

/// libinput's events decoded without libinput: each rule of `LibinputDecoder` on a scene's
/// dispatcher, seen through its trace. The screen is 1000×600 pixels, mapped to the scene's
/// 100×60 cells (a tenth), so that every case also checks `mapPoint`.
@MainActor @Suite struct LibinputDecoderTests {
    static let json = """
        {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
          {"id": "open", "frame": [0, 0, 40, 20], "focusable": true, "primaryAction": "open", "actions": ["open"]},
          {"id": "name", "kind": "textInput", "frame": [50, 30, 40, 10]}]}}
        """

    /// A decoder on a scene's dispatcher, recording pointer outcomes, actions and the cursor.
    @MainActor final class Rig {
        let scene: Scene
        let dispatcher: Dispatcher
        let focus: FocusSystem
        let decoder: LibinputDecoder
        var log: [String] = []
        var changes: [InputDeviceChange] = []
        var performed: [String] = []
        var cursor: [String] = []
        /// The devices the dispatcher's trace says went.
        var removals: [DeviceID] = []
        var observation: TraceObservation?

        init() throws {
            scene = try Scene(json: LibinputDecoderTests.json, file: "libinput.json")
            (dispatcher, focus) = scene.makeDispatcher()
            focus.updateFocusIfNeeded()
            decoder = LibinputDecoder(
                sink: dispatcher, makeDeviceID: { [unowned dispatcher] in dispatcher.makeDeviceID() })
            decoder.screen = { (1000, 600) }
            decoder.mapPoint = { Point(x: $0 / 10, y: $1 / 10) }
            decoder.onDeviceChange = { [unowned self] in self.changes.append($0) }
            decoder.onCursor = { [unowned self] in
                self.cursor.append($0.map { "\(Int($0.x)),\(Int($0.y))" } ?? "hidden")
            }
            scene.nodes["open"]?.onAction = { [unowned self] action, _ in self.performed.append(action.rawValue) }
            observation = dispatcher.addTraceObserver { [unowned self] record in
                if case .pointer(let event, let item, let outcome) = record.kind {
                    self.log.append("\(event.kind) \(event.phase) \(item ?? "-") \(outcome ?? "-")")
                }
                if case .deviceRemoved(let device) = record.kind { self.removals.append(device) }
            }
        }

        func send(_ batches: [[LibinputEvent]]) {
            for batch in batches { decoder.receive(batch: batch) }
        }
    }

    /// One case: the dispatches, the actions performed and the pointer records' phases.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var batches: [[LibinputEvent]]
        var performed: [String]
        var phases: [String]
        var testDescription: String { name }
    }

    nonisolated static let touch: LibinputEvent = .added(
        device: 1, name: "test touchscreen", path: "/dev/input/event1", kind: .touchscreen, outputName: nil)
    nonisolated static let mouse: LibinputEvent = .added(
        device: 2, name: "QEMU QEMU USB Tablet", path: "/dev/input/event2", kind: .mouse, outputName: nil)

    nonisolated static let cases: [Case] = [
        Case(
            name: "a tap on the tile performs its action",
            batches: [
                [touch], [.touchDown(device: 1, slot: 0, x: 100, y: 100, time: 1), .frame(device: 1)],
                [.touchUp(device: 1, slot: 0, time: 1.1), .frame(device: 1)],
            ],
            performed: ["open"], phases: ["touch down", "touch up"]),
        Case(
            name: "a finger dragged off the tile activates nothing",
            batches: [
                [touch], [.touchDown(device: 1, slot: 0, x: 100, y: 100, time: 1)],
                [.touchMotion(device: 1, slot: 0, x: 700, y: 450, time: 1.1)],
                [.touchUp(device: 1, slot: 0, time: 1.2)],
            ],
            performed: [], phases: ["touch down", "touch up"]),
        Case(
            name: "two fingers activate nothing",
            batches: [
                [touch],
                [
                    .touchDown(device: 1, slot: 0, x: 100, y: 100, time: 1),
                    .touchDown(device: 1, slot: 1, x: 200, y: 100, time: 1), .frame(device: 1),
                ],
                [.touchUp(device: 1, slot: 0, time: 1.1), .touchUp(device: 1, slot: 1, time: 1.1)],
            ],
            performed: [], phases: ["touch down", "touch down", "touch up", "touch up"]),
        Case(
            name: "a cancelled touch (a palm) activates nothing, and its later lift is ignored",
            batches: [
                [touch], [.touchDown(device: 1, slot: 0, x: 100, y: 100, time: 1)],
                [.touchCancel(device: 1, slot: 0, time: 1.1), .frame(device: 1)],
                [.touchUp(device: 1, slot: 0, time: 1.2)],
            ],
            performed: [], phases: ["touch down", "touch cancel"]),
        Case(
            name: "a touchscreen unplugged mid-touch: the lift in its removal's dispatch is a cancel",
            batches: [
                [touch], [.touchDown(device: 1, slot: 0, x: 100, y: 100, time: 1)],
                [.touchUp(device: 1, slot: 0, time: 2), .frame(device: 1), .removed(device: 1)],
            ],
            performed: [], phases: ["touch down", "touch cancel"]),
        Case(
            name: "libinput's own cancel before the removal (1.22's unplug) activates nothing",
            batches: [
                [touch], [.touchDown(device: 1, slot: 0, x: 100, y: 100, time: 1)],
                [.touchCancel(device: 1, slot: 0, time: 2), .frame(device: 1), .removed(device: 1)],
            ],
            performed: [], phases: ["touch down", "touch cancel"]),
        Case(
            name: "a mouse unplugged mid-click does not click: its release in the removal's dispatch is a cancel",
            batches: [
                [mouse], [.absolute(device: 2, x: 100, y: 100, time: 1)],
                [.button(device: 2, code: 0x110, pressed: true, time: 1.1)],
                [.button(device: 2, code: 0x110, pressed: false, time: 2), .removed(device: 2)],
            ],
            performed: [], phases: ["mouse down", "mouse cancel"]),
        Case(
            name: "the same release in a dispatch of its own clicks",
            batches: [
                [mouse], [.absolute(device: 2, x: 100, y: 100, time: 1)],
                [.button(device: 2, code: 0x110, pressed: true, time: 1.1)],
                [.button(device: 2, code: 0x110, pressed: false, time: 2)], [.removed(device: 2)],
            ],
            performed: ["open"], phases: ["mouse down", "mouse up"]),
        Case(
            name: "a removal earlier in the dispatch than the release leaves the release to nobody",
            batches: [
                [mouse], [.absolute(device: 2, x: 100, y: 100, time: 1)],
                [.button(device: 2, code: 0x110, pressed: true, time: 1.1)],
                [.removed(device: 2), .button(device: 2, code: 0x110, pressed: false, time: 2)],
            ],
            performed: [], phases: ["mouse down", "mouse cancel"]),
        Case(
            name: "an absolute pointer (QEMU's usb-tablet) clicks where it points",
            batches: [
                [mouse], [.absolute(device: 2, x: 150, y: 150, time: 1)],
                [.button(device: 2, code: 0x110, pressed: true, time: 1.1)],
                [.button(device: 2, code: 0x110, pressed: false, time: 1.2)],
            ],
            performed: ["open"], phases: ["mouse down", "mouse up"]),
        Case(
            name: "relative motion moves the cursor from the screen's middle",
            batches: [
                [mouse], [.motion(device: 2, dx: -450, dy: -250, time: 1)],
                [.button(device: 2, code: 0x110, pressed: true, time: 1.1)],
                [.button(device: 2, code: 0x110, pressed: false, time: 1.2)],
            ],
            performed: ["open"], phases: ["mouse down", "mouse up"]),
        Case(
            name: "a drag with the button down moves, and off the tile activates nothing",
            batches: [
                [mouse], [.absolute(device: 2, x: 100, y: 100, time: 1)],
                [.button(device: 2, code: 0x110, pressed: true, time: 1.1)],
                [.motion(device: 2, dx: 600, dy: 300, time: 1.15)],
                [.button(device: 2, code: 0x110, pressed: false, time: 1.2)],
            ],
            performed: [], phases: ["mouse down", "mouse up"]),
        Case(
            name: "the right button clicks nothing",
            batches: [
                [mouse], [.absolute(device: 2, x: 100, y: 100, time: 1)],
                [.button(device: 2, code: 0x111, pressed: true, time: 1.1)],
                [.button(device: 2, code: 0x111, pressed: false, time: 1.2)],
            ],
            performed: [], phases: []),
        Case(
            name: "positions that are not finite are dropped",
            batches: [
                [touch], [.touchDown(device: 1, slot: 0, x: .nan, y: 100, time: 1)],
                [.touchUp(device: 1, slot: 0, time: 1.1)],
                [.touchDown(device: 1, slot: 1, x: 100, y: .infinity, time: 1.2)],
            ],
            performed: [], phases: []),
        Case(
            name: "events of a device never added are ignored",
            batches: [
                [.touchDown(device: 9, slot: 0, x: 100, y: 100, time: 1)], [.touchUp(device: 9, slot: 0, time: 1.1)],
                [.button(device: 9, code: 0x110, pressed: true, time: 1.2)],
            ],
            performed: [], phases: []),
        Case(
            name: "a tap on the text field gives it focus",
            batches: [
                [touch], [.touchDown(device: 1, slot: 0, x: 600, y: 350, time: 1)],
                [.touchUp(device: 1, slot: 0, time: 1.1)],
            ],
            performed: [], phases: ["touch down", "touch up"]),
    ]

    @Test("each case's dispatches hit the focus tree as libinput's user expects", arguments: cases)
    func decodes(_ example: Case) throws {
        let rig = try Rig()
        rig.send(example.batches)
        #expect(rig.performed == example.performed, "\(rig.log)")
        #expect(
            rig.log.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == example.phases, "\(rig.log)")
    }

    @Test("a tap on the text field makes it first responder")
    func textField() throws {
        let rig = try Rig()
        rig.send([
            [Self.touch], [.touchDown(device: 1, slot: 0, x: 600, y: 350, time: 1)],
            [.touchUp(device: 1, slot: 0, time: 1.1)],
        ])
        #expect(rig.focus.focusedItem?.focusDebugName.contains("name") == true, "\(rig.log)")
        #expect(rig.log.last?.contains("took focus") == true, "\(rig.log)")
    }

    @Test("positions are clamped to the screen: the cursor stops at its edges")
    func clamped() throws {
        let rig = try Rig()
        rig.send([
            [Self.mouse], [.motion(device: 2, dx: -5000, dy: 9000, time: 1)],
            [.absolute(device: 2, x: 2000, y: -3, time: 1.1)],
        ])
        #expect(rig.cursor == ["0,599", "999,0"])
        #expect(rig.decoder.cursor?.x == 999)
    }

    @Test("motion that is not finite does not move the cursor")
    func nonFiniteMotion() throws {
        let rig = try Rig()
        rig.send([
            [Self.mouse], [.motion(device: 2, dx: 10, dy: 0, time: 1)],
            [.motion(device: 2, dx: .infinity, dy: 0, time: 1.1), .absolute(device: 2, x: .nan, y: 1, time: 1.2)],
        ])
        #expect(rig.cursor == ["510,300"])
    }

    @Test("a touch hides the cursor; the pointer's next motion shows it again")
    func touchHidesCursor() throws {
        let rig = try Rig()
        rig.send([
            [Self.mouse, Self.touch], [.absolute(device: 2, x: 10, y: 10, time: 1)],
            [.touchDown(device: 1, slot: 0, x: 800, y: 500, time: 1.1)], [.touchUp(device: 1, slot: 0, time: 1.2)],
            [.motion(device: 2, dx: 1, dy: 1, time: 1.3)],
        ])
        #expect(rig.cursor == ["10,10", "hidden", "11,11"])
    }

    @Test("at most 16 fingers are followed")
    func sixteenFingers() throws {
        let rig = try Rig()
        let downs: [LibinputEvent] = (0..<20).map {
            .touchDown(device: 1, slot: Int32($0), x: 900, y: 50, time: 1)
        }
        rig.send([[Self.touch], downs])
        #expect(rig.decoder.touchCount == LibinputDecoder.maximumTouches)
        #expect(rig.log.count == 16)
    }

    @Test("cancelAll ends every touch and the button with cancel: nothing activates")
    func cancelAll() throws {
        let rig = try Rig()
        rig.send([
            [Self.mouse, Self.touch], [.absolute(device: 2, x: 100, y: 100, time: 1)],
            [.button(device: 2, code: 0x110, pressed: true, time: 1.1)],
            [.touchDown(device: 1, slot: 3, x: 100, y: 100, time: 1.1)],
        ])
        rig.decoder.cancelAll(time: 2)
        rig.send([
            [.button(device: 2, code: 0x110, pressed: false, time: 2.1), .touchUp(device: 1, slot: 3, time: 2.1)]
        ])
        #expect(rig.performed.isEmpty)
        #expect(!rig.decoder.isButtonDown && rig.decoder.touchCount == 0)
        #expect(rig.log.filter { $0.contains("cancel") }.count == 2, "\(rig.log)")
    }

    @Test("devices are reported added and removed, with what activates")
    func deviceChanges() throws {
        let rig = try Rig()
        rig.send([[Self.touch, Self.mouse], [.removed(device: 1)]])
        #expect(rig.changes.count == 3)
        guard case .added(let touch) = rig.changes.first, case .removed(let gone, _) = rig.changes.last else {
            Issue.record("\(rig.changes)")
            return
        }
        #expect(touch.name == "test touchscreen" && touch.path == "/dev/input/event1")
        #expect(touch.detail == "touchscreen, a tap activates")
        #expect(gone.id == touch.id)
        #expect(rig.decoder.deviceInfos.map(\.name) == ["QEMU QEMU USB Tablet"])
        #expect(rig.removals == [touch.id], "the dispatcher's trace says the device went")
    }

    @Test("a touch screen of another output is ignored and reported; one of ours or of none is read")
    func otherOutput() throws {
        let rig = try Rig()
        rig.decoder.outputName = "Virtual-1"
        rig.send([
            [
                .added(device: 1, name: "other", path: "/dev/input/event1", kind: .touchscreen, outputName: "HDMI-A-1"),
                .added(device: 2, name: "ours", path: "/dev/input/event2", kind: .touchscreen, outputName: "Virtual-1"),
            ],
            [.touchDown(device: 1, slot: 0, x: 100, y: 100, time: 1), .touchUp(device: 1, slot: 0, time: 1.1)],
        ])
        #expect(rig.performed.isEmpty)
        #expect(rig.decoder.deviceInfos.map(\.name) == ["ours"])
        guard case .failed(let path, let message) = rig.changes.first else {
            Issue.record("\(rig.changes)")
            return
        }
        #expect(path == "/dev/input/event1")
        #expect(message.contains("HDMI-A-1") && message.contains("Virtual-1"))
    }

    @Test("a touch's slot is its contact, whatever device it is on")
    func contacts() throws {
        let rig = try Rig()
        var contacts: [Int] = []
        let watch = rig.dispatcher.addTraceObserver { record in
            if case .pointer(let event, _, _) = record.kind { contacts.append(event.contact) }
        }
        rig.send([
            [Self.touch], [.touchDown(device: 1, slot: 5, x: 100, y: 100, time: 1)],
            [.touchUp(device: 1, slot: 5, time: 2)],
        ])
        #expect(contacts == [5, 5])
        _ = watch
    }

    @Test("with a release grace, a release clicks only when it is due")
    func graceDue() throws {
        let rig = try Rig()
        rig.decoder.releaseGrace = 0.05
        rig.send([
            [Self.mouse], [.absolute(device: 2, x: 100, y: 100, time: 1)],
            [.button(device: 2, code: 0x110, pressed: true, time: 1.5)],
            [.button(device: 2, code: 0x110, pressed: false, time: 2)],
        ])
        #expect(rig.performed.isEmpty)
        #expect(rig.decoder.nextDeadline == 2.05)
        rig.decoder.flush(now: 2.04)
        #expect(rig.performed.isEmpty)
        rig.decoder.flush(now: 2.05)
        #expect(rig.performed == ["open"])
        #expect(rig.decoder.nextDeadline == nil && !rig.decoder.isButtonDown)
    }

    @Test(
        "with a release grace, the kernel's release of an unplugged mouse, a dispatch before its removal, is a cancel")
    func graceUnplug() throws {
        let rig = try Rig()
        rig.decoder.releaseGrace = 0.05
        rig.send([
            [Self.mouse], [.absolute(device: 2, x: 100, y: 100, time: 1)],
            [.button(device: 2, code: 0x110, pressed: true, time: 1.5)],
            [.button(device: 2, code: 0x110, pressed: false, time: 2)], [.removed(device: 2)],
        ])
        rig.decoder.flush(now: 3)
        #expect(rig.performed.isEmpty)
        #expect(
            rig.log.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["mouse down", "mouse cancel"])
    }

    @Test("with a release grace, a new press or a touch passes the waiting release on first")
    func graceNewPress() throws {
        let rig = try Rig()
        rig.decoder.releaseGrace = 10
        rig.send([
            [Self.mouse, Self.touch], [.absolute(device: 2, x: 100, y: 100, time: 1)],
            [.button(device: 2, code: 0x110, pressed: true, time: 1.1)],
            [.button(device: 2, code: 0x110, pressed: false, time: 1.2)],
            [.button(device: 2, code: 0x110, pressed: true, time: 1.3)],
            [.button(device: 2, code: 0x110, pressed: false, time: 1.4)],
            [.touchDown(device: 1, slot: 0, x: 100, y: 100, time: 1.5)], [.touchUp(device: 1, slot: 0, time: 1.6)],
        ])
        #expect(rig.performed == ["open", "open", "open"], "\(rig.log)")
    }
}
