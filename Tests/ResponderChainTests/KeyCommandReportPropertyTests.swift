import ResponderChain
import ResponderChainTesting
import Testing

/// The conflict report and the discoverability list read the dispatcher's key-command index, which
/// is kept and retargeted while focus moves between responders with the same declarers. These
/// properties hold them, over random trees, commands and focus moves, to what an index built
/// afresh at the same focus says.
@MainActor @Suite struct KeyCommandReportPropertyTests {
    /// Trees per seed, and steps (focus moves or command changes) per tree.
    static let trees = 60
    static let steps = 60

    /// The chords commands are drawn from: few, so that declarations collide, and some of them
    /// system focus keys or keys a text field edits with.
    static let chords: [(KeyCommand.Input, ModifierFlags)] = [
        (.character("p"), .control), (.character("l"), .control), (.special(.f1), []),
        (.special(.downArrow), []), (.special(.tab), []), (.character("a"), []),
        (.character("p"), [.control, .shift]), (.special(.return), []), (.character("z"), .control),
    ]
    static let actions: [Action] = ["pay", "lost", "help", "next"]

    /// A random window: a root, containers (some declaring focus groups), focusable items and text
    /// fields, commands on random responders.
    @MainActor
    final class RandomScreen {
        let harness = FocusHarness()
        var nodes: [FocusNode] = []
        var random: SeededGenerator
        var commandCount = 0

        init(seed: UInt64, commandsOnlyOnRoot: Bool) {
            random = SeededGenerator(seed: seed)
            var containers: [FocusNode] = [harness.root]
            for index in 0..<Int.random(in: 4...24, using: &random) {
                let parent = containers.randomElement(using: &random)!
                let frame = Rect(
                    x: Double(Int.random(in: 0..<10, using: &random) * 60),
                    y: Double(Int.random(in: 0..<12, using: &random) * 40), width: 50, height: 30)
                let node: FocusNode
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<11:
                    node = FocusNode(identifier: "item\(index)", frame: frame, isFocusable: true)
                case 11..<14:
                    node = TextInputNode(identifier: "field\(index)", frame: frame)
                default:
                    node = FocusNode(identifier: "box\(index)", frame: Rect(x: 0, y: 0, width: 600, height: 480))
                    if Bool.random(using: &random) { node.focusGroupIdentifier = "group\(index)" }
                    containers.append(node)
                }
                node.performableActions = Set(Self.pick(KeyCommandReportPropertyTests.actions, &random))
                parent.addChild(node)
                nodes.append(node)
            }
            harness.root.performableActions = Set(KeyCommandReportPropertyTests.actions)
            if commandsOnlyOnRoot {
                // Distinct chords that no focus key or text field takes: never a conflict.
                harness.root.keyCommands = [
                    KeyCommand("p", modifierFlags: .control, action: "pay", title: "Pay"),
                    KeyCommand("l", modifierFlags: .control, action: "lost", title: "Lost ticket"),
                    KeyCommand(.f1, action: "help", title: "Help"),
                ]
            } else {
                for responder in [harness.root] + nodes where Int.random(in: 0..<3, using: &random) == 0 {
                    responder.keyCommands = makeCommands()
                }
            }
            harness.focus.updateFocusIfNeeded()
        }

        static func pick<Element>(_ elements: [Element], _ random: inout SeededGenerator) -> [Element] {
            elements.filter { _ in Bool.random(using: &random) }
        }

        func makeCommands() -> [KeyCommand] {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in
                let (input, flags) = KeyCommandReportPropertyTests.chords.randomElement(using: &random)!
                commandCount += 1
                var attributes: KeyCommand.Attributes = []
                if Int.random(in: 0..<8, using: &random) == 0 { attributes.insert(.disabled) }
                return KeyCommand(
                    input: input, modifierFlags: flags,
                    action: KeyCommandReportPropertyTests.actions.randomElement(using: &random)!,
                    title: "c\(commandCount)", attributes: attributes,
                    wantsPriorityOverSystemBehavior: Int.random(in: 0..<5, using: &random) == 0)
            }
        }

        /// One random step: mostly a focus move by key or by request, sometimes a command change.
        func step(changingCommands: Bool) {
            let keyboard = harness.keyboard
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<5: keyboard.tap("tab")
            case 5..<7: keyboard.tap("shift+tab")
            case 7..<13: keyboard.tap(["up", "down", "left", "right"].randomElement(using: &random)!)
            case 13..<18:
                let focusable = nodes.filter(\.isFocusable)
                if let target = focusable.randomElement(using: &random) { harness.focus.requestFocus(on: target) }
            default:
                guard changingCommands else { return keyboard.tap("tab") }
                let responder = ([harness.root] + nodes).randomElement(using: &random)!
                responder.keyCommands = Bool.random(using: &random) ? makeCommands() : []
            }
        }
    }

    /// The report and the help list as text: every command, chord, declarer, status and entry.
    static func reading(_ dispatcher: Dispatcher) -> (report: String, list: [String]) {
        let report = KeyCommandConflictReport(dispatcher).description
        let list = dispatcher.discoverableKeyCommands().map { group in
            "\(group.source) \(group.title): "
                + group.commands.map { "\($0.shortcut) \($0.title) \($0.isEnabled)" }.joined(separator: ", ")
        }
        return (report, list)
    }

    @Test(
        "at every focus, the report and the help list equal those of an index built afresh (random trees and moves)",
        arguments: [UInt64(0x000C_0F11_C700), 0x5EED_2100_0002])
    func reusedIndexAgreesWithFreshIndex(seed: UInt64) {
        var checks = 0
        for tree in 0..<Self.trees {
            let screen = RandomScreen(seed: seed &+ UInt64(tree), commandsOnlyOnRoot: false)
            let dispatcher = screen.harness.dispatcher
            for step in 0..<Self.steps {
                screen.step(changingCommands: true)
                let reused = Self.reading(dispatcher)
                let fresh = dispatcher.withFreshKeyCommandIndex { Self.reading(dispatcher) }
                checks += 1
                guard reused == fresh else {
                    let focus = screen.harness.focusedName ?? "none"
                    let comparison =
                        "reused index:\n\(reused.report)\(reused.list)\nfresh:\n\(fresh.report)\(fresh.list)"
                    Issue.record(
                        Comment(rawValue: "seed \(seed), tree \(tree), step \(step), focus \(focus):\n" + comparison))
                    return
                }
            }
        }
        #expect(checks == Self.trees * Self.steps)
    }

    @Test(
        "commands only on the root: no conflict and the same help list at every focus (random trees and moves)",
        arguments: [UInt64(0x0000_2001), 0x0000_2002])
    func rootCommandsNeverConflict(seed: UInt64) {
        for tree in 0..<Self.trees {
            let screen = RandomScreen(seed: seed &+ UInt64(tree), commandsOnlyOnRoot: true)
            let dispatcher = screen.harness.dispatcher
            let initial = Self.reading(dispatcher).list
            #expect(initial == ["responder(root) root: Ctrl+P Pay true, Ctrl+L Lost ticket true, F1 Help true"])
            for step in 0..<Self.steps {
                screen.step(changingCommands: false)
                let report = KeyCommandConflictReport(dispatcher)
                let list = Self.reading(dispatcher).list
                guard report.conflicts.isEmpty, list == initial else {
                    Issue.record(Comment(rawValue: "seed \(seed), tree \(tree), step \(step):\n\(report)\(list)"))
                    return
                }
            }
        }
    }
}
