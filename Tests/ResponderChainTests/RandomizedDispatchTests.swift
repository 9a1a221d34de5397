import ResponderChain
import ResponderChainTesting
import Testing

/// SplitMix64: a small seeded generator, so a failing run can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Checks, for every delivery, that each responder sees began, then changed, then one ended or
/// cancelled per press, and nothing after.
@MainActor
final class LifecycleChecker {
    enum Stage { case open, closed }
    struct Slot: Hashable {
        var responder: ObjectIdentifier
        var press: PressID
    }
    var slots: [Slot: Stage] = [:]
    var violations: [String] = []

    func record(_ press: Press, at responder: Responder) {
        let slot = Slot(responder: ObjectIdentifier(responder), press: press.id)
        let what = "\(press.phase) \(press.key.keyCode) \(press.id) at \(responder.traceName)"
        switch (press.phase, slots[slot]) {
        case (.began, nil): slots[slot] = .open
        case (.began, _): violations.append("second began: \(what)")
        case (.changed, .open), (.repeated, .open): break
        case (.ended, .open), (.cancelled, .open): slots[slot] = .closed
        case (_, nil): violations.append("\(press.phase) without began: \(what)")
        case (_, .closed): violations.append("delivered after the end: \(what)")
        }
    }

    var openCount: Int { slots.values.filter { $0 == .open }.count }
}

final class CheckedResponder: Responder {
    let checker: LifecycleChecker
    var handled: Set<KeyCode> = []
    var actions: Set<Action> = []
    var focusable = true

    init(_ name: String, checker: LifecycleChecker) {
        self.checker = checker
        super.init(identifier: name)
    }

    override var canBecomeFirstResponder: Bool { focusable }
    override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool { actions.contains(action) }
    override func pressesBegan(_ press: Press, with event: PressEvent) {
        checker.record(press, at: self)
        if !handled.contains(press.key.keyCode) { super.pressesBegan(press, with: event) }
    }
    override func pressesChanged(_ press: Press, with event: PressEvent) { checker.record(press, at: self) }
    override func pressesEnded(_ press: Press, with event: PressEvent) { checker.record(press, at: self) }
    override func pressesCancelled(_ press: Press, with event: PressEvent) { checker.record(press, at: self) }
}

@MainActor @Suite struct RandomizedDispatchTests {
    static let keys: [KeyCode] = [.a, .b, .j, .tab, .downArrow, .return, .f5, .leftShift, .leftControl, .capsLock]
    static let devices = [DeviceID(rawValue: 1), DeviceID(rawValue: 2), DeviceID(rawValue: 3)]
    static let actions: [Action] = [.find, .next, .delete]

    /// Events per seed: 1,000,000 in all over the two seeds.
    static let eventsPerSeed = 500_000

    @Test(
        "1,000,000 random events (two seeds) keep every lifecycle rule and the pressed-key state",
        arguments: [UInt64(0x5EED_0001), 0xC0FF_EE42])
    func randomEvents(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let checker = LifecycleChecker()
        let window = Window(identifier: "window")
        let dispatcher = Dispatcher(window: window)
        let navigator = TabNavigator()
        dispatcher.systemKeyHandler = navigator
        var nodes: [CheckedResponder] = []
        var detached: [CheckedResponder] = []
        var model: [DeviceID: Set<KeyCode>] = [:]
        var clock = 0.0
        var counter = 0
        var events = 0

        func makeNode() -> CheckedResponder {
            counter += 1
            let node = CheckedResponder("n\(counter)", checker: checker)
            node.handled = Set(Self.keys.filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
            node.actions = Set(Self.actions.filter { _ in Bool.random(using: &random) })
            node.focusable = Int.random(in: 0..<3, using: &random) != 0
            if Int.random(in: 0..<3, using: &random) == 0 {
                let key = Self.keys.randomElement(using: &random)!
                let flags: ModifierFlags = Bool.random(using: &random) ? .control : []
                node.keyCommands = [
                    KeyCommand(
                        input: key == .tab ? .special(.tab) : .character(key == .a ? "a" : "j"), modifierFlags: flags,
                        action: Self.actions.randomElement(using: &random)!,
                        wantsPriorityOverSystemBehavior: Bool.random(using: &random),
                        repeatBehavior: Bool.random(using: &random) ? .repeatable : .nonRepeatable)
                ]
            }
            return node
        }
        func attached() -> [Responder] { [window] + nodes.filter { $0.window === window } }

        for _ in 0..<12 {
            let node = makeNode()
            attached().randomElement(using: &random)!.addChild(node)
            nodes.append(node)
        }

        var step = 0
        while events < Self.eventsPerSeed {
            step += 1
            clock += 0.001
            let roll = Int.random(in: 0..<1000, using: &random)
            let device = Self.devices.randomElement(using: &random)!
            switch roll {
            case 0..<820:
                let key = Self.keys.randomElement(using: &random)!
                let isDown = model[device, default: []].contains(key)
                let action: KeyAction
                if isDown {
                    let choice = Int.random(in: 0..<10, using: &random)
                    action = choice < 5 ? .up : (choice < 9 ? .repeat : .down)
                } else {
                    action = Int.random(in: 0..<10, using: &random) == 0 ? .up : .down
                }
                if action == .down { model[device, default: []].insert(key) }
                if action == .up { model[device]?.remove(key) }
                dispatcher.handle(KeyEvent(key, action, device: device, timestamp: clock))
                events += 1
                // The second event of each step: an auto-repeat or a release of something held.
                if let held = model[device]?.randomElement(using: &random) {
                    let release = Bool.random(using: &random)
                    if release { model[device]?.remove(held) }
                    dispatcher.handle(KeyEvent(held, release ? .up : .repeat, device: device, timestamp: clock))
                    events += 1
                }
            case 820..<880:
                attached().randomElement(using: &random)?.becomeFirstResponder()
            case 880..<920:
                if let node = nodes.filter({ $0.window === window }).randomElement(using: &random) {
                    node.removeFromParent()
                    detached.append(node)
                }
            case 920..<960:
                let node = detached.popLast() ?? makeNode()
                if !nodes.contains(where: { $0 === node }) { nodes.append(node) }
                attached().randomElement(using: &random)!.addChild(node)
            case 960..<975:
                model[device] = []
                dispatcher.deviceRemoved(device, timestamp: clock)
                events += 1
            case 975..<980:
                model = [:]
                dispatcher.keyboardLost(timestamp: clock)
                events += 1
            case 980..<990:
                let kept = Set(model[device, default: []].filter { _ in Bool.random(using: &random) })
                let extra = Bool.random(using: &random) ? [Self.keys.randomElement(using: &random)!] : []
                model[device] = kept.union(extra)
                dispatcher.resynchronize(device: device, pressedKeys: Array(kept.union(extra)), timestamp: clock)
                events += 1
            default:
                if let key = model[device]?.randomElement(using: &random) {
                    model[device]?.remove(key)
                    dispatcher.cancelKey(key, on: device, timestamp: clock)
                    events += 1
                }
            }

            for device in Self.devices {
                let actual = Set(dispatcher.keyboardState.pressedKeys(on: device))
                if actual != model[device, default: []] {
                    Issue.record(
                        "step \(step): \(device) holds \(actual.sorted()), events say \(model[device, default: []].sorted())"
                    )
                    return
                }
            }
            if !checker.violations.isEmpty {
                Issue.record("step \(step) (seed \(seed)): \(checker.violations.prefix(3).joined(separator: "; "))")
                return
            }
            if step % 1000 == 0 { window.checkTreeInvariants() }
            // Moving a node inside the window keeps its presses and first-responder status.
            if step % 97 == 0, let node = nodes.filter({ $0.window === window }).randomElement(using: &random),
                let parent = attached().filter({ $0 !== node && !$0.isDescendant(of: node) }).randomElement(
                    using: &random)
            {
                parent.addChild(node)
            }
        }

        // Every press ever begun ends: release everything, and no delivery is still open.
        dispatcher.keyboardLost(timestamp: clock + 1)
        #expect(checker.violations.isEmpty)
        #expect(checker.openCount == 0)
        #expect(dispatcher.activePresses.isEmpty)
        #expect(events >= Self.eventsPerSeed)
        #expect(checker.slots.count > 10_000, "the run exercised many presses: \(checker.slots.count)")
    }
}
