import Glibc
import ResponderChain
import Testing
import XKBKeymap

@testable import WaylandClient

/// The compositor's seat events, decoded without a compositor: each rule of `WaylandSeatDecoder`
/// on a scene's dispatcher, seen through its trace.
@MainActor @Suite struct WaylandSeatDecoderTests {
    static let json = """
        {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
          {"id": "open", "frame": [0, 0, 40, 20], "focusable": true, "primaryAction": "open", "actions": ["open"]},
          {"id": "name", "kind": "textInput", "frame": [50, 30, 40, 10]}]}}
        """

    /// A decoder on a scene's dispatcher, recording presses (`a began`) and pointer outcomes.
    @MainActor final class Rig {
        let scene: Scene
        let dispatcher: Dispatcher
        let focus: FocusSystem
        let repeater: SoftwareRepeater
        let decoder: WaylandSeatDecoder
        var log: [String] = []
        var seen: Set<String> = []
        var changes: [InputDeviceChange] = []
        var performed: [String] = []
        var now = 1.0
        var observation: TraceObservation?

        init() throws {
            scene = try Scene(json: WaylandSeatDecoderTests.json, file: "seat.json")
            (dispatcher, focus) = scene.makeDispatcher()
            focus.updateFocusIfNeeded()
            repeater = SoftwareRepeater(timing: .standard, next: dispatcher)
            var clock: () -> Double = { 0 }
            decoder = WaylandSeatDecoder(
                sink: repeater, repeater: repeater, clock: { clock() },
                makeDeviceID: { [unowned dispatcher] in dispatcher.makeDeviceID() })
            clock = { [unowned self] in self.now }
            decoder.onDeviceChange = { [unowned self] in self.changes.append($0) }
            scene.nodes["open"]?.onAction = { [unowned self] action, _ in self.performed.append(action.rawValue) }
            observation = dispatcher.addTraceObserver { [unowned self] record in
                switch record.kind {
                case .press(let press, _), .pressOwned(let press, _, _):
                    // A press is traced once per responder it reaches: log each phase once.
                    guard self.seen.insert("\(press.id) \(press.phase)").inserted else { break }
                    self.log.append("\(press.key.keyCode.name) \(press.phase)")
                case .pointer(let event, let item, let outcome):
                    self.log.append("\(event.kind) \(event.phase) \(item ?? "-") \(outcome ?? "-")")
                default:
                    break
                }
            }
        }

        func send(_ events: WaylandSeatEvent...) {
            for event in events {
                now += 0.01
                decoder.receive(event)
            }
        }
    }

    @Test("keys already down at enter begin no press, and their release ends nothing; later keys press as usual")
    func enterWithKeysDown() throws {
        let rig = try Rig()
        let a = UInt32(KeyCode.a.rawValue)
        rig.send(.capabilities(.keyboard), .keyboardEnter(keys: [a]), .key(a, state: 0))
        #expect(rig.log.isEmpty, "\(rig.log)")
        rig.send(.key(a, state: 1), .key(a, state: 0))
        #expect(rig.log == ["KeyA began", "KeyA ended"], "\(rig.log)")
        guard case .added(let keyboard) = rig.changes.first else {
            Issue.record("\(rig.changes)")
            return
        }
        #expect(keyboard.name == "seat keyboard" && keyboard.path == nil)
    }

    @Test("leave cancels the held press (no ended) and stops its repeat; keys without focus are ignored")
    func leaveCancels() throws {
        let rig = try Rig()
        let a = UInt32(KeyCode.a.rawValue)
        rig.send(.capabilities(.keyboard), .keyboardEnter(keys: []), .key(a, state: 1))
        #expect(rig.repeater.repeatingKey?.key == .a)
        rig.send(.keyboardLeave)
        #expect(rig.repeater.repeatingKey == nil)
        rig.send(.key(a, state: 0), .key(a, state: 1))
        #expect(rig.log == ["KeyA began", "KeyA cancelled"], "\(rig.log)")
        #expect(!rig.decoder.hasKeyboardFocus)
    }

    @Test("repeat_info sets the repeat's delay and rate; a rate of 0 turns repeat off, a later rate on again")
    func repeatInfo() throws {
        let rig = try Rig()
        let a = UInt32(KeyCode.a.rawValue)
        rig.send(.capabilities(.keyboard), .repeatInfo(rate: 10, delay: 300), .keyboardEnter(keys: []))
        #expect(rig.repeater.timing == RepeatTiming(delay: 0.3, interval: 0.1))
        rig.send(.key(a, state: 1))
        let deadline = try #require(rig.repeater.nextDeadline)
        #expect(abs(deadline - (rig.now + 0.3)) < 1e-9)
        rig.send(.key(a, state: 0), .repeatInfo(rate: 0, delay: 300), .key(a, state: 1))
        #expect(rig.repeater.nextDeadline == nil, "rate 0: nothing repeats")
        #expect(rig.decoder.announcedRepeat == nil)
        rig.send(.key(a, state: 0), .repeatInfo(rate: 25, delay: 600), .key(a, state: 1))
        #expect(rig.repeater.nextDeadline != nil)
    }

    @Test(
        "the compositor's keymap becomes the layout through the sink; one in another format or malformed keeps the one in use"
    )
    func keymaps() throws {
        let rig = try Rig()
        let german = try XKBKeyboardLayout(KeymapNames(layout: "de"), composeLocale: nil)
        let text = Array(german.keymapText.utf8) + [0]
        #expect(text.withUnsafeBytes { rig.decoder.keymap(format: 1, text: $0) })
        #expect(rig.dispatcher.layout.name.contains("German"), "\(rig.dispatcher.layout.name)")
        let y = UInt32(KeyCode.y.rawValue)
        var typed: [String] = []
        let watch = rig.dispatcher.addTraceObserver { record in
            if case .input(_, let key, .pressed) = record.kind { typed.append(key.characters) }
        }
        rig.send(.capabilities(.keyboard), .keyboardEnter(keys: []), .key(y, state: 1), .key(y, state: 0))
        #expect(typed == ["z"], "de's layout types z at KEY_Y")
        #expect(!Array("garbage".utf8).withUnsafeBytes { rig.decoder.keymap(format: 1, text: $0) })
        #expect(!Array("xkb_keymap {}".utf8).withUnsafeBytes { rig.decoder.keymap(format: 0, text: $0) })
        #expect(rig.dispatcher.layout.name.contains("German"), "the layout in use stays")
        let failures = rig.changes.compactMap { change -> String? in
            if case .failed(let path, let message) = change { return "\(path): \(message)" }
            return nil
        }
        #expect(failures.count == 2, "\(failures)")
        #expect(failures.last?.contains("format 0, not xkb v1") == true, "\(failures)")
        _ = watch
    }

    @Test(
        "a keymap taken before the first frame is compiled at the keyboard's next event (enter, a key, modifiers), not when it arrives"
    )
    func deferredKeymaps() throws {
        let rig = try Rig()
        let german = try XKBKeyboardLayout(KeymapNames(layout: "de"), composeLocale: nil)
        let system = rig.dispatcher.layout.name
        Array(german.keymapText.utf8).withUnsafeBytes { rig.decoder.deferKeymap(format: 1, text: $0) }
        rig.send(.capabilities(.keyboard), .repeatInfo(rate: 25, delay: 600))
        #expect(rig.decoder.hasDeferredKeymap, "neither the seat's devices nor the repeat need the keymap")
        #expect(rig.dispatcher.layout.name == system, "not compiled yet: the layout in use stays")
        var typed: [String] = []
        let watch = rig.dispatcher.addTraceObserver { record in
            if case .input(_, let key, .pressed) = record.kind { typed.append(key.characters) }
        }
        let y = UInt32(KeyCode.y.rawValue)
        rig.send(.keyboardEnter(keys: []), .key(y, state: 1), .key(y, state: 0))
        #expect(!rig.decoder.hasDeferredKeymap)
        #expect(rig.dispatcher.layout.name.contains("German"), "\(rig.dispatcher.layout.name)")
        #expect(typed == ["z"], "compiled before the enter: de's layout types z at KEY_Y")

        // Reading the layout compiles nothing; a keymap sent later replaces one not compiled yet, so a malformed
        // one replaced is never reported.
        Array("garbage".utf8).withUnsafeBytes { rig.decoder.deferKeymap(format: 1, text: $0) }
        let us = try XKBKeyboardLayout(KeymapNames(layout: "us"), composeLocale: nil)
        Array(us.keymapText.utf8).withUnsafeBytes { rig.decoder.deferKeymap(format: 1, text: $0) }
        #expect(rig.decoder.layout?.name.contains("German") == true, "\(rig.decoder.layout?.name ?? "none")")
        rig.send(.modifiers(depressed: 0, latched: 0, locked: 0, group: 0))
        #expect(!rig.decoder.hasDeferredKeymap)
        #expect(rig.dispatcher.layout.name.contains("English"), "\(rig.dispatcher.layout.name)")
        // One the keyboard goes away with is dropped; a malformed one is reported when it is compiled, and the
        // layout in use stays.
        Array(german.keymapText.utf8).withUnsafeBytes { rig.decoder.deferKeymap(format: 1, text: $0) }
        rig.send(.capabilities([]))
        #expect(!rig.decoder.hasDeferredKeymap, "dropped with the keyboard")
        rig.send(.capabilities(.keyboard))
        Array("garbage".utf8).withUnsafeBytes { rig.decoder.deferKeymap(format: 1, text: $0) }
        #expect(!rig.changes.contains { if case .failed = $0 { true } else { false } })
        rig.send(.keyboardEnter(keys: []))
        let failures = rig.changes.compactMap { change -> String? in
            if case .failed(let path, let message) = change { return "\(path): \(message)" }
            return nil
        }
        #expect(failures.count == 1 && failures[0].contains("wl_keyboard.keymap"), "\(failures)")
        #expect(rig.dispatcher.layout.name.contains("English"), "\(rig.dispatcher.layout.name)")
        _ = watch
    }

    @Test("modifiers come from the compositor: Shift held by its masks types capitals, a Shift key-down alone does not")
    func modifiersAreTheTruth() throws {
        let rig = try Rig()
        let us = try XKBKeyboardLayout(KeymapNames(layout: "us"), composeLocale: nil)
        let text = Array(us.keymapText.utf8)
        _ = text.withUnsafeBytes { rig.decoder.keymap(format: 1, text: $0) }
        var typed: [String] = []
        let watch = rig.dispatcher.addTraceObserver { record in
            if case .input(_, let key, .pressed) = record.kind { typed.append(key.characters) }
        }
        let a = UInt32(KeyCode.a.rawValue)
        let shift = UInt32(KeyCode.leftShift.rawValue)
        rig.send(
            // A compositor sends its modifiers right after enter (wlroots does, in the same batch).
            .capabilities(.keyboard), .keyboardEnter(keys: []),
            .modifiers(depressed: 0, latched: 0, locked: 0, group: 0),
            .key(shift, state: 1), .key(a, state: 1),
            .key(a, state: 0), .modifiers(depressed: 1, latched: 0, locked: 0, group: 0), .key(a, state: 1),
            .key(a, state: 0), .modifiers(depressed: 0, latched: 0, locked: 2, group: 0), .key(shift, state: 0),
            .key(a, state: 1), .key(a, state: 0))
        #expect(typed.filter { !$0.isEmpty } == ["a", "A", "A"], "Shift by mask 1, Caps Lock by mask 2: \(typed)")
        #expect(rig.dispatcher.keyboardState.locks.contains(.capsLock))
        _ = watch
    }

    @Test("a left click on a tile performs its primary action; hover passes nothing on; other buttons do nothing")
    func click() throws {
        let rig = try Rig()
        rig.send(
            .capabilities(.pointer), .pointerEnter(x: 60, y: 50), .pointerMotion(x: 10, y: 10),
            .pointerButton(0x111, state: 1), .pointerButton(0x111, state: 0))
        #expect(rig.log.isEmpty, "hover and the right button: \(rig.log)")
        rig.send(.pointerButton(WaylandSeatDecoder.leftButton, state: 1), .pointerButton(0x110, state: 0))
        #expect(rig.performed == ["open"], "\(rig.log)")
        #expect(rig.log.first == "mouse down open -", "\(rig.log)")
    }

    @Test("a click that moves off before the release, or whose pointer leaves, activates nothing")
    func clickMovedOff() throws {
        let rig = try Rig()
        rig.send(
            .capabilities(.pointer), .pointerEnter(x: 10, y: 10), .pointerButton(0x110, state: 1),
            .pointerMotion(x: 45, y: 50), .pointerButton(0x110, state: 0))
        rig.send(.pointerMotion(x: 10, y: 10), .pointerButton(0x110, state: 1), .pointerLeave)
        rig.send(.pointerEnter(x: 10, y: 10), .pointerButton(0x110, state: 0))
        #expect(rig.performed.isEmpty, "\(rig.log)")
        #expect(rig.log.contains { $0.hasPrefix("mouse cancel") }, "\(rig.log)")
    }

    @Test("a tap on a text field focuses it and makes it first responder; positions go through mapPoint")
    func tapTextField() throws {
        let rig = try Rig()
        rig.decoder.mapPoint = { x, y in Point(x: x / 10, y: y / 20) }
        rig.send(.capabilities(.touch), .touchDown(id: 3, x: 600, y: 650), .touchUp(id: 3))
        #expect(rig.focus.focusedItem?.focusDebugName == "name", "\(rig.log)")
        #expect(rig.scene.window.firstResponder?.traceName == "name")
    }

    @Test("a touch the compositor cancels, a second finger, and a touch screen going away activate nothing")
    func touchCancelled() throws {
        let rig = try Rig()
        rig.send(.capabilities(.touch), .touchDown(id: 1, x: 10, y: 10), .touchCancel, .touchUp(id: 1))
        rig.send(.touchDown(id: 1, x: 10, y: 10), .touchDown(id: 2, x: 12, y: 12), .touchUp(id: 1), .touchUp(id: 2))
        rig.send(.touchDown(id: 4, x: 10, y: 10), .capabilities([]), .touchUp(id: 4))
        #expect(rig.performed.isEmpty, "\(rig.log)")
        #expect(rig.log.filter { $0.hasPrefix("touch cancel") }.count == 2, "\(rig.log)")
        #expect(
            rig.changes.contains { if case .removed(let device, _) = $0 { device.name == "seat touch" } else { false } }
        )
    }

    @Test("the keyboard going away cancels its held press and reports the key; a new keyboard is a new device")
    func keyboardRemoved() throws {
        let rig = try Rig()
        let a = UInt32(KeyCode.a.rawValue)
        rig.send(.capabilities([.keyboard, .pointer]), .keyboardEnter(keys: []), .key(a, state: 1))
        let first = try #require(rig.decoder.devices.first)
        rig.send(.capabilities(.pointer), .key(a, state: 0))
        #expect(rig.log == ["KeyA began", "KeyA cancelled"], "\(rig.log)")
        let removed = rig.changes.compactMap { change -> [KeyCode]? in
            if case .removed(let device, let keys) = change, device.id == first.id { return keys }
            return nil
        }
        #expect(removed == [[.a]])
        rig.send(.capabilities([.keyboard, .pointer]))
        #expect(rig.decoder.devices.count == 2 && !rig.decoder.devices.contains { $0.id == first.id })
    }

    @Test("untrusted values are ignored, never trapped on: huge key codes, unknown states, NaN, a 17th finger")
    func untrusted() throws {
        let rig = try Rig()
        rig.send(
            .capabilities([.keyboard, .pointer, .touch]), .keyboardEnter(keys: [0xFFFF_FFFF, 30, 30]),
            .key(0x1_0000, state: 1), .key(31, state: 7), .pointerEnter(x: .nan, y: 1),
            .pointerButton(0x110, state: 1), .touchDown(id: 0, x: .infinity, y: 0),
            .repeatInfo(rate: .max, delay: .min))
        for id in Int32(0)..<20 { rig.send(.touchDown(id: id, x: 99, y: 59)) }
        #expect(rig.log.filter { $0.hasPrefix("touch down") }.count == WaylandSeatDecoder.maximumTouches)
        #expect(!rig.log.contains { $0.hasPrefix("mouse") }, "no position yet: the button does nothing")
        #expect(!rig.log.contains { $0.contains("began") }, "\(rig.log)")
        rig.decoder.cancelAll()
        #expect(rig.log.filter { $0.hasPrefix("touch cancel") }.count == WaylandSeatDecoder.maximumTouches)
        #expect(rig.repeater.timing.interval >= 0.005)
    }
}

/// The compositor's keymap file, read as `wl_keyboard.keymap` hands it over: bounded, and never
/// mapped past its end.
@MainActor @Suite struct KeymapFileTests {
    @Test(
        "a keymap file shorter than announced, empty or too large is refused with its sizes, never mapped past its end")
    func keymapFileBounds() throws {
        let fd = cwaylandTestMemfd()
        defer { close(fd) }
        let text = Array("xkb_keymap {};".utf8)
        #expect(text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == text.count)
        var read: [UInt8] = []
        let whole = SeatCore.withKeymapFile(fd: fd, size: UInt32(text.count)) { read = Array($0) }
        #expect(whole == nil && read == text)
        // Announced 4096 bytes in a 14-byte file: mapping it would fault on byte 4095.
        let short = SeatCore.withKeymapFile(fd: fd, size: 4096) { _ in Issue.record("mapped past the end") }
        #expect(short?.contains("4096-byte keymap in a file of 14 bytes") == true, "\(short ?? "")")
        let empty = SeatCore.withKeymapFile(fd: fd, size: 0) { _ in Issue.record("an empty keymap was mapped") }
        #expect(empty?.contains("1 to 1048576") == true)
        let large = SeatCore.withKeymapFile(fd: fd, size: 2 << 20) { _ in Issue.record("a 2 MiB keymap was mapped") }
        #expect(large?.contains("2097152 bytes") == true)
    }
}

/// An unlinked temporary file, as a compositor's keymap file is.
func cwaylandTestMemfd() -> Int32 {
    var template = Array("/tmp/rc-keymap-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    precondition(fd >= 0, "mkstemp failed")
    unlink(template)
    return fd
}
