import ResponderChain
import Testing

@MainActor @Suite struct KeyboardStateTests {
    let kbd1 = DeviceID(rawValue: 1)
    let kbd2 = DeviceID(rawValue: 2)

    @Test("two keyboards holding Shift: Shift stays down until both release")
    func mergedModifiers() {
        var state = KeyboardState()
        #expect(state.apply(KeyEvent(.leftShift, .down, device: kbd1)) == .pressed)
        #expect(state.apply(KeyEvent(.leftShift, .down, device: kbd2)) == .pressed)
        #expect(state.modifierFlags == .shift)
        #expect(state.apply(KeyEvent(.leftShift, .up, device: kbd1)) == .released)
        #expect(state.modifierFlags == .shift)
        #expect(state.isPressed(.leftShift))
        #expect(!state.isPressed(.leftShift, on: kbd1))
        #expect(state.apply(KeyEvent(.leftShift, .up, device: kbd2)) == .released)
        #expect(state.modifierFlags == [])
    }

    @Test("left and right modifier keys add up to one flag each")
    func bothSides() {
        var state = KeyboardState()
        _ = state.apply(KeyEvent(.leftControl, .down))
        _ = state.apply(KeyEvent(.rightControl, .down))
        _ = state.apply(KeyEvent(.leftControl, .up))
        #expect(state.modifierFlags == .control)
        _ = state.apply(KeyEvent(.rightAlt, .down))
        _ = state.apply(KeyEvent(.rightMeta, .down))
        #expect(state.modifierFlags == [.control, .alternate, .command])
    }

    @Test("lock keys toggle on key-down, not on repeat or key-up")
    func locks() {
        var state = KeyboardState()
        _ = state.apply(KeyEvent(.capsLock, .down))
        #expect(state.locks == .capsLock)
        #expect(state.modifierFlags == .alphaShift)
        #expect(state.apply(KeyEvent(.capsLock, .repeat)) == .repeated)
        _ = state.apply(KeyEvent(.capsLock, .up))
        #expect(state.locks == .capsLock)
        _ = state.apply(KeyEvent(.capsLock, .down))
        _ = state.apply(KeyEvent(.capsLock, .up))
        #expect(state.locks == [])
        _ = state.apply(KeyEvent(.numLock, .down))
        #expect(state.layoutState.numLock)
    }

    @Test("ups and repeats of keys that are not down are ignored; a second down is a repeat")
    func mismatches() {
        var state = KeyboardState()
        #expect(state.apply(KeyEvent(.a, .up)) == .ignored)
        #expect(state.apply(KeyEvent(.a, .repeat)) == .ignored)
        #expect(state.apply(KeyEvent(.a, .down)) == .pressed)
        #expect(state.apply(KeyEvent(.a, .down)) == .repeated)
        #expect(state.apply(KeyEvent(KeyCode(0x300), .down)) == .ignored)
        #expect(state.pressedKeys == [.a])
    }

    @Test("removing a device releases exactly its keys")
    func removeDevice() {
        var state = KeyboardState()
        _ = state.apply(KeyEvent(.a, .down, device: kbd1))
        _ = state.apply(KeyEvent(.leftShift, .down, device: kbd1))
        _ = state.apply(KeyEvent(.b, .down, device: kbd2))
        #expect(state.removeDevice(kbd1) == [.a, .leftShift])
        #expect(state.pressedKeys == [.b])
        #expect(state.modifierFlags == [])
        #expect(state.devicesWithPressedKeys == [kbd2])
        #expect(state.removeDevice(DeviceID(rawValue: 9)) == [])
    }

    @Test("a resync can record a held key without toggling its lock")
    func noteHeld() {
        var state = KeyboardState()
        state.noteHeld(.capsLock, on: kbd1)
        state.noteHeld(.leftControl, on: kbd1)
        #expect(state.locks == [])
        #expect(state.modifierFlags == .control)
        let first = state.forceRelease(.leftControl, on: kbd1)
        let second = state.forceRelease(.leftControl, on: kbd1)
        #expect(first)
        #expect(!second)
        #expect(state.modifierFlags == [])
    }

    @Test("Right Alt is AltGr (level three), not Alt, when the layout says so")
    func levelThree() {
        var state = KeyboardState()
        state.rightAltIsLevelThree = true
        _ = state.apply(KeyEvent(.rightAlt, .down))
        #expect(state.modifierFlags == [])
        #expect(state.layoutState.levelThree)
        _ = state.apply(KeyEvent(.rightAlt, .up))
        #expect(!state.layoutState.levelThree)
    }
}
