import Benchmark
import ResponderChain

/// A responder that performs one action and counts, with nothing allocated per call.
final class BenchResponder: Responder {
    let action: Action?
    var performed = 0

    init(_ name: String, action: Action? = nil) {
        self.action = action
        super.init(identifier: name)
    }

    override var canBecomeFirstResponder: Bool { true }
    override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool { action == self.action }
    override func perform(_ action: Action, sender: ActionSender) { performed &+= 1 }
}

/// A window with `depth` responders above the first responder, 1,000 key commands spread evenly
/// over the chain (the same chords repeat at several levels, so nearer ones shadow farther ones),
/// and one chord, ctrl+alt+cmd+F5, bound only at the top.
struct ChainScene {
    let window = Window(identifier: "window")
    let dispatcher: Dispatcher
    let top: BenchResponder

    init(depth: Int, commands: Int = 1000) {
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let modifierSets: [ModifierFlags] = [.control, [.control, .shift], .alternate, [.control, .alternate]]
        top = BenchResponder("top", action: "topAction")
        window.addChild(top)
        var parent: Responder = top
        var chain: [Responder] = [top]
        for level in 1...depth {
            let node = BenchResponder("level\(level)")
            parent.addChild(node)
            chain.append(node)
            parent = node
        }
        let perResponder = commands / chain.count
        for (level, responder) in chain.enumerated() {
            responder.keyCommands = (0..<perResponder).map { i in
                let n = level * 7 + i
                return KeyCommand(
                    letters[n % 26], modifierFlags: modifierSets[(n / 26) % 4], action: Action("a\(n % 50)"))
            }
        }
        top.keyCommands.append(KeyCommand(.f5, modifierFlags: [.control, .alternate, .command], action: "topAction"))
        dispatcher = Dispatcher(window: window)
        _ = parent.becomeFirstResponder()
        // Hold the modifiers once; the measured loop presses and releases F5 (or F9).
        for code in [KeyCode.leftControl, .leftAlt, .leftMeta] { dispatcher.handle(KeyEvent(code, .down)) }
    }

    func tap(_ code: KeyCode) {
        dispatcher.handle(KeyEvent(code, .down))
        dispatcher.handle(KeyEvent(code, .up))
    }
}

/// A window with `depth` plain responders and no key commands, for keys nobody takes.
struct UnboundScene {
    let window = Window(identifier: "window")
    let dispatcher: Dispatcher

    init(depth: Int) {
        var parent: Responder = window
        for level in 0..<depth {
            let node = BenchResponder("level\(level)")
            parent.addChild(node)
            parent = node
        }
        dispatcher = Dispatcher(window: window)
        _ = parent.becomeFirstResponder()
    }
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        maxDuration: .seconds(2), maxIterations: 1_000_000)
    Benchmark.defaultConfiguration = configuration

    for depth in [10, 50] {
        Benchmark("Key bound at the top of a \(depth)-ancestor chain (press + release)") { benchmark in
            let scene = ChainScene(depth: depth)
            scene.tap(.f5)  // builds the index once, outside the measurement
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { scene.tap(.f5) }
            benchmark.stopMeasurement()
            precondition(scene.top.performed > 1)
            blackHole(scene.top.performed)
        }
    }

    Benchmark("Unbound key through a 50-ancestor chain to unhandled (press + release)") { benchmark in
        let scene = UnboundScene(depth: 50)
        scene.dispatcher.handle(KeyEvent(.f9, .down))
        scene.dispatcher.handle(KeyEvent(.f9, .up))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            scene.dispatcher.handle(KeyEvent(.f9, .down))
            scene.dispatcher.handle(KeyEvent(.f9, .up))
        }
        benchmark.stopMeasurement()
        blackHole(scene.dispatcher.activePresses.count)
    }

    Benchmark("Unbound key with 1,000 key commands on a 50-ancestor chain (press + release)") { benchmark in
        let scene = ChainScene(depth: 50)
        scene.tap(.f9)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { scene.tap(.f9) }
        benchmark.stopMeasurement()
        blackHole(scene.dispatcher.activePresses.count)
    }

    Benchmark("Rebuild the key-command index: 1,000 commands on a 50-ancestor chain") { benchmark in
        let scene = ChainScene(depth: 50)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            scene.window.layoutDirection = .leftToRight  // bumps the window generation
            scene.tap(.f5)
        }
        benchmark.stopMeasurement()
        blackHole(scene.top.performed)
    }
}
