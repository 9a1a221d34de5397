/// The lock keys' state: Caps Lock, Num Lock, Scroll Lock.
public struct LockState: OptionSet, Hashable, Sendable {
    /// The bits.
    public var rawValue: UInt8

    /// Creates a lock state from bits.
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Caps Lock is on.
    public static let capsLock = LockState(rawValue: 1 << 0)
    /// Num Lock is on.
    public static let numLock = LockState(rawValue: 1 << 1)
    /// Scroll Lock is on.
    public static let scrollLock = LockState(rawValue: 1 << 2)
}

/// Which keys are down on which device, the modifiers they add up to, and the lock state.
///
/// Keys are tracked per device and merged across devices: when two keyboards both hold Shift,
/// Shift stays down until both release it. The tracker is a value type with no allocation in the
/// steady state, so the dispatcher can consult it on every event.
public struct KeyboardState: Sendable {
    /// What applying an event did to the state.
    public enum Transition: Equatable, Sendable {
        /// The key went down on this device.
        case pressed
        /// The key, already down on this device, repeated (or a second down arrived without an up).
        case repeated
        /// The key, down on this device, came up.
        case released
        /// The event did not match the state (an up or repeat for a key that is not down) and changed nothing.
        case ignored
    }

    private struct DeviceKeys: Sendable {
        var device: DeviceID
        var keys: [KeyCode]
    }

    private static let codeLimit = 0x300

    private var devices: [DeviceKeys] = []
    /// How many devices hold each key, indexed by evdev code (`KEY_MAX` is 0x2ff).
    private var holders: [UInt8] = Array(repeating: 0, count: KeyboardState.codeLimit)
    private var held: ModifierFlags = []
    private var levelThreeCount = 0
    private var group = 0
    /// Whether a ``KeyStateTracker`` owns the modifiers, locks and level (see ``adopt(_:)``):
    /// then key codes only say which keys are down.
    public private(set) var isTrackedByLayout = false

    /// The lock state. Caps Lock, Num Lock and Scroll Lock toggle on their key-down, unless a
    /// layout tracks the state (``adopt(_:)``): then the keymap says; input sources that read the
    /// state elsewhere (keyboard LEDs) may set it.
    public var locks: LockState = []

    /// Whether Right Alt counts as AltGr (level three) rather than Alt, as the layout says.
    public var rightAltIsLevelThree = false

    /// Creates an empty state: no key down, no lock on.
    public init() {
        devices.reserveCapacity(4)
    }

    /// The held modifiers plus ``ModifierFlags/alphaShift`` when Caps Lock is on.
    public var modifierFlags: ModifierFlags {
        locks.contains(.capsLock) ? held.union(.alphaShift) : held
    }

    /// The state a layout needs: modifiers, Num Lock, level three.
    public var layoutState: LayoutState {
        LayoutState(
            modifierFlags: modifierFlags, numLock: locks.contains(.numLock), levelThree: levelThreeCount > 0,
            group: group)
    }

    /// Takes the modifiers, locks, level and layout from a ``KeyStateTracker``; from then on the
    /// key codes no longer change them (a Caps Lock key-down toggles nothing by itself).
    ///
    /// - Parameter tracked: The tracker's state.
    public mutating func adopt(_ tracked: TrackedKeyState) {
        isTrackedByLayout = true
        held = tracked.modifierFlags.subtracting(.alphaShift)
        locks = tracked.locks
        levelThreeCount = tracked.levelThree ? 1 : 0
        group = tracked.group
    }

    /// Goes back to modifiers and locks derived from the key codes (the layout has no tracker).
    public mutating func stopTracking() {
        guard isTrackedByLayout else { return }
        isTrackedByLayout = false
        group = 0
        held = []
        levelThreeCount = 0
        for code in pressedKeys { updateModifiers(for: code, delta: 1) }
    }

    /// Whether a key is down on any device.
    ///
    /// - Parameter code: The key.
    /// - Returns: `true` while at least one device holds it.
    public func isPressed(_ code: KeyCode) -> Bool {
        Int(code.rawValue) < Self.codeLimit && holders[Int(code.rawValue)] > 0
    }

    /// Whether a key is down on one device.
    ///
    /// - Parameters:
    ///   - code: The key.
    ///   - device: The device.
    /// - Returns: `true` while that device holds it.
    public func isPressed(_ code: KeyCode, on device: DeviceID) -> Bool {
        devices.first { $0.device == device }?.keys.contains(code) ?? false
    }

    /// The keys down on one device, in the order they went down.
    ///
    /// - Parameter device: The device.
    /// - Returns: The keys.
    public func pressedKeys(on device: DeviceID) -> [KeyCode] {
        devices.first { $0.device == device }?.keys ?? []
    }

    /// The keys down on any device, in evdev order, each once.
    public var pressedKeys: [KeyCode] {
        var keys: [KeyCode] = []
        for (code, count) in holders.enumerated() where count > 0 { keys.append(KeyCode(UInt16(code))) }
        return keys
    }

    /// The devices that hold at least one key.
    public var devicesWithPressedKeys: [DeviceID] {
        devices.filter { !$0.keys.isEmpty }.map(\.device)
    }

    /// Applies one key event.
    ///
    /// - Parameter event: The event.
    /// - Returns: What changed.
    public mutating func apply(_ event: KeyEvent) -> Transition {
        guard Int(event.code.rawValue) < Self.codeLimit else { return .ignored }
        let slot = deviceSlot(event.device)
        let isDown = devices[slot].keys.contains(event.code)
        switch event.action {
        case .down where isDown, .repeat where isDown:
            return .repeated
        case .down:
            devices[slot].keys.append(event.code)
            press(event.code)
            return .pressed
        case .repeat:
            return .ignored
        case .up:
            guard isDown, let position = devices[slot].keys.firstIndex(of: event.code) else { return .ignored }
            devices[slot].keys.remove(at: position)
            release(event.code)
            return .released
        }
    }

    /// Releases every key of one device, as when it is unplugged.
    ///
    /// - Parameter device: The device.
    /// - Returns: The keys that were down on it, in the order they went down.
    public mutating func removeDevice(_ device: DeviceID) -> [KeyCode] {
        guard let slot = devices.firstIndex(where: { $0.device == device }) else { return [] }
        let keys = devices[slot].keys
        devices[slot].keys.removeAll(keepingCapacity: true)
        for code in keys { release(code) }
        return keys
    }

    /// Releases one key on one device without an up event (resync found it released).
    ///
    /// - Parameters:
    ///   - code: The key.
    ///   - device: The device.
    /// - Returns: Whether the key was down.
    @discardableResult
    public mutating func forceRelease(_ code: KeyCode, on device: DeviceID) -> Bool {
        guard let slot = devices.firstIndex(where: { $0.device == device }),
            devices[slot].keys.contains(code)
        else { return false }
        devices[slot].keys.removeAll { $0 == code }
        release(code)
        return true
    }

    /// Records a key as down on a device without toggling locks: a resync found it held.
    ///
    /// - Parameters:
    ///   - code: The key.
    ///   - device: The device.
    public mutating func noteHeld(_ code: KeyCode, on device: DeviceID) {
        guard Int(code.rawValue) < Self.codeLimit else { return }
        let slot = deviceSlot(device)
        guard !devices[slot].keys.contains(code) else { return }
        devices[slot].keys.append(code)
        let index = Int(code.rawValue)
        holders[index] &+= 1
        if holders[index] == 1 { updateModifiers(for: code, delta: 1) }
    }

    /// Releases every key on every device; locks stay as they are.
    public mutating func releaseAll() {
        for slot in devices.indices { devices[slot].keys.removeAll(keepingCapacity: true) }
        for index in holders.indices where holders[index] != 0 { holders[index] = 0 }
        if !isTrackedByLayout {
            held = []
            levelThreeCount = 0
        }
    }

    private mutating func deviceSlot(_ device: DeviceID) -> Int {
        if let slot = devices.firstIndex(where: { $0.device == device }) { return slot }
        var keys: [KeyCode] = []
        keys.reserveCapacity(16)
        devices.append(DeviceKeys(device: device, keys: keys))
        return devices.count - 1
    }

    private mutating func press(_ code: KeyCode) {
        let index = Int(code.rawValue)
        holders[index] &+= 1
        if isTrackedByLayout { return }
        switch code {
        case .capsLock: locks.formSymmetricDifference(.capsLock)
        case .numLock: locks.formSymmetricDifference(.numLock)
        case .scrollLock: locks.formSymmetricDifference(.scrollLock)
        default: break
        }
        if holders[index] == 1 { updateModifiers(for: code, delta: 1) }
    }

    private mutating func release(_ code: KeyCode) {
        let index = Int(code.rawValue)
        guard holders[index] > 0 else { return }
        holders[index] -= 1
        if holders[index] == 0 { updateModifiers(for: code, delta: -1) }
    }

    private mutating func updateModifiers(for code: KeyCode, delta: Int) {
        if isTrackedByLayout { return }
        if code == .rightAlt && rightAltIsLevelThree {
            levelThreeCount += delta
            return
        }
        guard code.heldModifier != nil else { return }
        held = []
        if isPressed(.leftShift) || isPressed(.rightShift) { held.insert(.shift) }
        if isPressed(.leftControl) || isPressed(.rightControl) { held.insert(.control) }
        if isPressed(.leftAlt) || (isPressed(.rightAlt) && !rightAltIsLevelThree) { held.insert(.alternate) }
        if isPressed(.leftMeta) || isPressed(.rightMeta) { held.insert(.command) }
    }
}
