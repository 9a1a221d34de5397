import EvdevInput
import LinuxSystem
import ResponderChain
import ResponderChainTesting
import Testing

/// Gamepads on the evdev path: classified at discovery, their hat decoded into D-pad presses
/// inside the frame, resynchronized after a drop, replayed from evemu recordings.
@MainActor @Suite struct GamepadDecodingTests {
    static let south = KeyCode.gamepadSouth.rawValue
    static let hatX = KeyboardKind.hatX
    static let hatY = KeyboardKind.hatY

    nonisolated static let classified: [(Set<KeyCode>, Set<UInt16>, KeyboardKind)] = [
        ([.gamepadSouth, .gamepadEast], [], .gamepad),
        ([.dpadLeft], [], .gamepad),
        ([.gamepadEast], [0x10, 0x11], .gamepad),
        ([.gamepadEast], [0x00, 0x01], .none),
        ([KeyCode(0x110), KeyCode(0x111)], [0x00, 0x01], .none),
        (Set(KeyCode.allNamed.filter { $0.rawValue < 120 }).union([.gamepadSouth]), [0x10], .keyboard),
        ([.upArrow, .downArrow, .leftArrow, .rightArrow, .ok], [], .remote),
    ]

    @Test(
        "gamepads are told apart by BTN_SOUTH, a BTN_DPAD_* button or the hat axis; letters still make a keyboard",
        arguments: classified)
    func classify(keys: Set<KeyCode>, axes: Set<UInt16>, kind: KeyboardKind) {
        #expect(KeyboardKind.classify(keys: keys, absoluteAxes: axes) == kind)
    }

    nonisolated static let hatPositions: [(UInt16, Int32, KeyCode?)] = [
        (0x10, -1, .dpadLeft), (0x10, 1, .dpadRight), (0x11, -1, .dpadUp), (0x11, 1, .dpadDown), (0x10, 0, nil),
        (0x11, 0, nil), (0x10, Int32.min, .dpadLeft), (0x11, Int32.max, .dpadDown), (0x00, 1, nil),
    ]

    @Test(
        "a hat position is a D-pad key; the centre is none; values beyond ±1 count as their sign",
        arguments: hatPositions)
    func hatKey(axis: UInt16, value: Int32, key: KeyCode?) {
        #expect(EvdevDecoder.hatKey(axis: axis, value: value) == key)
    }

    func decoder(isLive: Bool = false) -> (EvdevDecoder, RecordingInputSink) {
        let sink = RecordingInputSink()
        return (EvdevDecoder(device: DeviceID(rawValue: 4), sink: sink, isLive: isLive), sink)
    }

    func keys(_ sink: RecordingInputSink) -> [String] {
        sink.inputs.compactMap {
            switch $0 {
            case .key(let event): return "\(event.code.name) \(event.action)"
            case .cancelKey(let code, _, _): return "\(code.name) cancel"
            case .resynchronize(_, let keys, _): return "resync \(keys.map(\.name))"
            default: return nil
            }
        }
    }

    @Test("the hat presses and releases D-pad keys at the frame's end, the old direction released first")
    func hatFrames() {
        let (decoder, sink) = decoder()
        decoder.decode(type: 3, code: Self.hatX, value: 1, time: 0)
        #expect(sink.inputs.isEmpty, "nothing before SYN_REPORT")
        decoder.decode(type: 0, code: 0, value: 0, time: 0)
        decoder.decode(type: 3, code: Self.hatX, value: -1, time: 1)  // straight across: right up, left down
        decoder.decode(type: 3, code: Self.hatY, value: 1, time: 1)
        decoder.decode(type: 0, code: 0, value: 0, time: 1)
        decoder.decode(type: 3, code: Self.hatX, value: -1, time: 2)  // unchanged: nothing
        decoder.decode(type: 3, code: Self.hatY, value: 0, time: 2)
        decoder.decode(type: 0, code: 0, value: 0, time: 2)
        decoder.decode(type: 3, code: Self.hatX, value: 0, time: 3)
        decoder.decode(type: 3, code: 0x00, value: 200, time: 3)  // a stick: not read
        decoder.decode(type: 0, code: 0, value: 0, time: 3)
        #expect(
            keys(sink) == [
                "BTN_DPAD_RIGHT down", "BTN_DPAD_RIGHT up", "BTN_DPAD_LEFT down", "BTN_DPAD_DOWN down",
                "BTN_DPAD_DOWN up", "BTN_DPAD_LEFT up",
            ])
    }

    @Test("a frame discarded by SYN_DROPPED does not move the hat; the recorded delta after it does")
    func droppedRecordingFrame() {
        let (decoder, sink) = decoder()
        decoder.decode(type: 3, code: Self.hatY, value: -1, time: 0)
        decoder.decode(type: 0, code: 0, value: 0, time: 0)
        decoder.decode(type: 3, code: Self.hatY, value: 1, time: 1)  // lost in the drop
        decoder.decode(type: 0, code: 3, value: 0, time: 1)
        decoder.decode(type: 3, code: Self.hatY, value: 0, time: 1)  // the delta: centred
        decoder.decode(type: 0, code: 0, value: 0, time: 1)
        decoder.decode(type: 3, code: Self.hatY, value: 1, time: 2)
        decoder.decode(type: 0, code: 0, value: 0, time: 2)
        #expect(keys(sink) == ["BTN_DPAD_UP down", "resync []", "BTN_DPAD_DOWN down"])
    }

    @Test("after a drop on a live device the hat is where the device's state says")
    func liveResync() {
        let (decoder, sink) = decoder(isLive: true)
        decoder.decode(type: 3, code: Self.hatX, value: 1, time: 0)
        decoder.decode(type: 0, code: 0, value: 0, time: 0)
        decoder.decode(type: 0, code: 3, value: 0, time: 1)
        decoder.decode(type: 3, code: Self.hatX, value: -1, time: 1)  // ignored until the state comes
        decoder.decode(type: 0, code: 0, value: 0, time: 1)
        decoder.resynchronize(pressedKeys: [.dpadLeft], time: 2)
        decoder.decode(type: 3, code: Self.hatX, value: 0, time: 3)
        decoder.decode(type: 0, code: 0, value: 0, time: 3)
        #expect(keys(sink) == ["BTN_DPAD_RIGHT down", "resync [\"BTN_DPAD_LEFT\"]", "BTN_DPAD_LEFT up"])
    }

    @Test("a removed gamepad starts centred when its events come again")
    func removal() {
        let (decoder, sink) = decoder()
        decoder.decode(type: 3, code: Self.hatX, value: 1, time: 0)
        decoder.decode(type: 0, code: 0, value: 0, time: 0)
        decoder.deviceRemoved(time: 1)
        decoder.decode(type: 3, code: Self.hatX, value: 1, time: 2)
        decoder.decode(type: 0, code: 0, value: 0, time: 2)
        #expect(keys(sink) == ["BTN_DPAD_RIGHT down", "BTN_DPAD_RIGHT down"])
    }

    static let recording = """
        N: test gamepad
        I: 0003 045e 028e 0114
        P: 00 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 03 00 00 03 00 00 00 00 00
        A: 10 -1 1 0 0 0
        A: 11 -1 1 0 0 0
        E: 0.000001 0003 0010 0001
        E: 0.000001 0000 0000 0000
        E: 0.100000 0003 0010 0000
        E: 0.100000 0000 0000 0000
        E: 0.200000 0001 0130 0001
        E: 0.200000 0000 0000 0000
        E: 0.300000 0001 0130 0000
        E: 0.300000 0000 0000 0000
        E: 0.400000 0001 0131 0001
        E: 0.400000 0000 0000 0000
        E: 0.500000 0001 0131 0000
        E: 0.500000 0000 0000 0000
        """

    @Test("an evemu recording with hat frames replays: the D-pad moves focus, A selects, B exits")
    func replay() throws {
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 400, height: 100))
        window.addChild(root)
        let dispatcher = Dispatcher(window: window)
        let focus = FocusSystem(window: window, root: root)
        focus.navigationStyle = .directional
        dispatcher.systemKeyHandler = focus
        var log: [String] = []
        for (index, name) in ["first", "second"].enumerated() {
            let tile = FocusNode(
                identifier: name, frame: Rect(x: Double(index) * 200, y: 0, width: 100, height: 40), isFocusable: true)
            tile.primaryAction = Action(rawValue: "open-" + name)
            root.addChild(tile)
        }
        root.performableActions = ["open-first", "open-second"]
        root.onAction = { action, _ in log.append(action.rawValue) }
        root.onExitCommand { log.append("exit") }
        focus.updateFocusIfNeeded()
        #expect(focus.focusedItem?.focusDebugName == "first")
        let decoder = try EvemuRecording(parsing: Self.recording).replay(into: dispatcher)
        #expect(decoder.framesDecoded == 6)
        #expect(focus.focusedItem?.focusDebugName == "second")
        #expect(log == ["open-second", "exit"])
        #expect(dispatcher.keyboardState.pressedKeys.isEmpty)
    }
}
