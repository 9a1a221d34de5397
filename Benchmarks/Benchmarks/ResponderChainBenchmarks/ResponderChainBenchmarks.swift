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
@MainActor
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
@MainActor
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

/// One warm-up press and release of `code` (a fresh scene's first key builds the key-command
/// index), then the measured presses and releases.
@MainActor
func measureTaps(_ benchmark: Benchmark, _ dispatcher: Dispatcher, _ code: KeyCode) {
    dispatcher.handle(KeyEvent(code, .down))
    dispatcher.handle(KeyEvent(code, .up))
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        dispatcher.handle(KeyEvent(code, .down))
        dispatcher.handle(KeyEvent(code, .up))
    }
    benchmark.stopMeasurement()
}

/// F8 through `depth` plain responders to an `onKeyPress` handler on the window, which takes it.
@MainActor
func measureHandlerAtTop(_ benchmark: Benchmark, depth: Int) {
    let scene = UnboundScene(depth: depth)
    var handled = 0
    scene.window.onKeyPress([.f8], phases: [.down, .up]) { _ in
        handled &+= 1
        return .handled
    }
    measureTaps(benchmark, scene.dispatcher, .f8)
    precondition(handled > 2)
    blackHole(handled)
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        maxDuration: .seconds(2), maxIterations: 1_000_000)
    Benchmark.defaultConfiguration = configuration

    for depth in [10, 50] {
        Benchmark("Key bound at the top of a \(depth)-ancestor chain (press + release)") { @MainActor benchmark async in
            let scene = ChainScene(depth: depth)
            scene.tap(.f5)  // builds the index once, outside the measurement
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { scene.tap(.f5) }
            benchmark.stopMeasurement()
            precondition(scene.top.performed > 1)
            blackHole(scene.top.performed)
        }
    }

    Benchmark("Key bound to an onKeyPress handler at the top of a 10-ancestor chain (press + release)") {
        @MainActor benchmark async in
        measureHandlerAtTop(benchmark, depth: 10)
    }

    Benchmark("Unbound key through a 50-ancestor chain to unhandled (press + release)") { @MainActor benchmark async in
        let scene = UnboundScene(depth: 50)
        measureTaps(benchmark, scene.dispatcher, .f9)
        blackHole(scene.dispatcher.activePresses.count)
    }

    Benchmark("Unbound key with 1,000 key commands on a 50-ancestor chain (press + release)") {
        @MainActor benchmark async in
        let scene = ChainScene(depth: 50)
        scene.tap(.f9)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { scene.tap(.f9) }
        benchmark.stopMeasurement()
        blackHole(scene.dispatcher.activePresses.count)
    }

    focusBenchmarks()
    keytraceBenchmarks()
    inspectionBenchmarks()
    canvasBenchmarks()
    graphicsBenchmarks()
    focusRedrawBenchmarks()
    narratorBenchmarks()
    qtSceneBenchmarks()

    Benchmark("Rebuild the key-command index: 1,000 commands on a 50-ancestor chain") { @MainActor benchmark async in
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

/// A window with `count` focusable items in a grid of `columns` columns, each 20×20, either each
/// in a group of its own (Tab visits every item) or all in one group (arrows move among them).
@MainActor
struct GridScene {
    let window = Window(identifier: "window")
    let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 100_000, height: 100_000))
    let focus: FocusSystem
    let items: [FocusNode]

    init(count: Int, columns: Int, oneGroup: Bool) {
        window.addChild(root)
        if oneGroup { root.focusGroupIdentifier = "grid" }
        var made: [FocusNode] = []
        made.reserveCapacity(count)
        for index in 0..<count {
            let frame = Rect(x: Double(index % columns) * 20, y: Double(index / columns) * 20, width: 20, height: 20)
            let node = FocusNode(identifier: "item\(index)", frame: frame, isFocusable: true)
            root.addChild(node)
            made.append(node)
        }
        items = made
        focus = FocusSystem(window: window, root: root)
        focus.updateFocusIfNeeded()
    }
}

/// The grid sizes of the growth series, with their column counts.
let growthSizes: [(count: Int, columns: Int)] = [(100, 10), (1000, 40), (10_000, 100), (100_000, 300)]

/// Samples for a series member: large scenes take a while to build (each sample builds its own),
/// so they get fewer. Key moves run a thousand per sample (`perSample`), so the clock and malloc
/// readings around a sample do not weigh on a figure of a microsecond; rebuilds run one.
func growthConfiguration(_ count: Int, perSample: Bool) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: perSample ? .kilo : .one,
        maxDuration: .seconds(count >= 100_000 ? 1 : 2),
        maxIterations: count >= 100_000 ? 5 : (count >= 10_000 ? 200 : 100_000))
}

let focusBenchmarks: @Sendable () -> Void = {
    let time = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))

    Benchmark(
        "Focus: Tab key through the dispatcher, grid of 100 under 1,000 key commands (press + release)",
        configuration: time
    ) {
        @MainActor benchmark async in
        let scene = GridScene(count: 100, columns: 10, oneGroup: false)
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let modifierSets: [ModifierFlags] = [.control, [.control, .shift], .alternate, [.control, .alternate]]
        scene.root.keyCommands = (0..<1000).map { n in
            KeyCommand(letters[n % 26], modifierFlags: modifierSets[(n / 26) % 4], action: Action("a\(n % 50)"))
        }
        let dispatcher = Dispatcher(window: scene.window)
        dispatcher.systemKeyHandler = scene.focus
        measureTaps(benchmark, dispatcher, .tab)
        blackHole(scene.focus.focusedItem)
    }

    // The app's order (focusTraversalOrder) against reading order: every item of the grid has
    // one, backwards and in pairs (ties go to reading order), so the loop is read off ordered
    // blocks; gated as the plain Tab and the in-place move are.
    @MainActor func orderedGrid() -> GridScene {
        let scene = GridScene(count: 100, columns: 10, oneGroup: false)
        for (index, item) in scene.items.enumerated() { item.focusTraversalOrder = Double((100 - index) / 2) }
        return scene
    }
    Benchmark(
        "Focus: Tab key through the dispatcher, grid of 100 with an app's order (press + release)",
        configuration: growthConfiguration(100, perSample: true)
    ) {
        @MainActor benchmark async in
        let scene = orderedGrid()
        let dispatcher = Dispatcher(window: scene.window)
        dispatcher.systemKeyHandler = scene.focus
        measureTaps(benchmark, dispatcher, .tab)
        blackHole(scene.focus.focusedItem)
    }
    Benchmark(
        "Focus: one item's frame changes, then Tab, grid of 100 with an app's order",
        configuration: growthConfiguration(100, perSample: true)
    ) {
        @MainActor benchmark async in
        let scene = orderedGrid()
        let dispatcher = Dispatcher(window: scene.window)
        dispatcher.systemKeyHandler = scene.focus
        let moved = scene.items[50]
        let home = moved.frame.y
        var flip = false
        dispatcher.handle(KeyEvent(.tab, .down))
        dispatcher.handle(KeyEvent(.tab, .up))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            flip.toggle()
            moved.frame.y = flip ? 220 : home
            dispatcher.handle(KeyEvent(.tab, .down))
            dispatcher.handle(KeyEvent(.tab, .up))
        }
        benchmark.stopMeasurement()
        blackHole(scene.focus.focusedItem)
    }

    // Growth series: the same four operations at 100, 1,000, 10,000 and 100,000 items, so that
    // the growth of each cost shows. The first three are gated at 0 mallocs.
    for (count, columns) in growthSizes {
        Benchmark(
            "Focus: Tab key through the dispatcher, \(count) items (press + release)",
            configuration: growthConfiguration(count, perSample: true)
        ) {
            @MainActor benchmark async in
            let scene = GridScene(count: count, columns: columns, oneGroup: false)
            let dispatcher = Dispatcher(window: scene.window)
            dispatcher.systemKeyHandler = scene.focus
            measureTaps(benchmark, dispatcher, .tab)
            blackHole(scene.focus.focusedItem)
        }

        Benchmark(
            "Focus: arrow key through the dispatcher, \(count) items in one group (press + release)",
            configuration: growthConfiguration(count, perSample: true)
        ) {
            @MainActor benchmark async in
            let scene = GridScene(count: count, columns: columns, oneGroup: true)
            let dispatcher = Dispatcher(window: scene.window)
            dispatcher.systemKeyHandler = scene.focus
            scene.focus.requestFocus(on: scene.items[count / 2 + columns / 2])
            // Right then left, so focus stays in the middle of the grid; the first pair builds
            // the arrow grid.
            for code in [KeyCode.rightArrow, .leftArrow] {
                dispatcher.handle(KeyEvent(code, .down))
                dispatcher.handle(KeyEvent(code, .up))
            }
            var right = true
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let code: KeyCode = right ? .rightArrow : .leftArrow
                dispatcher.handle(KeyEvent(code, .down))
                dispatcher.handle(KeyEvent(code, .up))
                right.toggle()
            }
            benchmark.stopMeasurement()
            blackHole(scene.focus.focusedItem)
        }

        Benchmark(
            "Focus: one item's frame changes, then Tab, \(count) items",
            configuration: growthConfiguration(count, perSample: true)
        ) {
            @MainActor benchmark async in
            let scene = GridScene(count: count, columns: columns, oneGroup: false)
            let dispatcher = Dispatcher(window: scene.window)
            dispatcher.systemKeyHandler = scene.focus
            // An item of the middle row moves below the last row and back: the tab loop changes
            // order every time. A member write (`frame.y = …`), as an animation step would do it.
            let moved = scene.items[count / 2]
            let home = moved.frame.y
            let away = Double(count / columns + 1) * 20
            var flip = false
            dispatcher.handle(KeyEvent(.tab, .down))
            dispatcher.handle(KeyEvent(.tab, .up))
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                flip.toggle()
                moved.frame.y = flip ? away : home
                dispatcher.handle(KeyEvent(.tab, .down))
                dispatcher.handle(KeyEvent(.tab, .up))
            }
            benchmark.stopMeasurement()
            blackHole(scene.focus.focusedItem)
        }

        Benchmark(
            "Focus: full rebuild of the tab loop, \(count) items",
            configuration: growthConfiguration(count, perSample: false)
        ) {
            @MainActor benchmark async in
            let scene = GridScene(count: count, columns: columns, oneGroup: false)
            blackHole(scene.focus.target(for: .next))
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                scene.focus.invalidateLayout(of: scene.root)  // everything may have changed: rebuild
                blackHole(scene.focus.target(for: .next))
            }
            benchmark.stopMeasurement()
        }
    }
}

/// The scenes `Tools/compare-qt` builds with Qt 6 Widgets, here on this framework: a grid of
/// buttons (Tab, a window-wide shortcut, a key taken two levels up) and a chain of ancestors (a
/// key taken at the top, a shortcut declared at the top). Named "Qt scene: …" so the script finds
/// them; not gated (Tools/benchmark --check-allocations gates the dispatch benchmarks above).
let qtSceneBenchmarks: @Sendable () -> Void = {
    // A thousand keys per sample, as the Qt harness times thousands of keys per reading: the
    // clock and malloc readings around each sample do not weigh on a figure of a microsecond.
    let perSample = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(2))
    let chord: [KeyCode] = [.leftControl, .leftAlt, .leftMeta]

    for (count, columns) in [(100, 10), (1000, 40)] {
        Benchmark("Qt scene: Tab, grid of \(count)", configuration: perSample) { @MainActor benchmark async in
            let scene = GridScene(count: count, columns: columns, oneGroup: false)
            let dispatcher = Dispatcher(window: scene.window)
            dispatcher.systemKeyHandler = scene.focus
            measureTaps(benchmark, dispatcher, .tab)
            blackHole(scene.focus.focusedItem)
        }

        Benchmark("Qt scene: window shortcut, grid of \(count)", configuration: perSample) {
            @MainActor benchmark async in
            let scene = GridScene(count: count, columns: columns, oneGroup: false)
            var fired = 0
            scene.root.keyCommands = [KeyCommand(.f5, modifierFlags: [.control, .alternate, .command], action: "go")]
            scene.root.performableActions = ["go"]
            scene.root.onAction = { _, _ in fired &+= 1 }
            let dispatcher = Dispatcher(window: scene.window)
            dispatcher.systemKeyHandler = scene.focus
            for code in chord { dispatcher.handle(KeyEvent(code, .down)) }
            measureTaps(benchmark, dispatcher, .f5)
            precondition(fired > 0)
            blackHole(fired)
        }

        Benchmark("Qt scene: key bubbling two levels, grid of \(count)", configuration: perSample) {
            @MainActor benchmark async in
            let scene = GridScene(count: count, columns: columns, oneGroup: false)
            var taken = 0
            scene.window.onKeyPress([.f9], phases: [.down, .up]) { _ in
                taken &+= 1
                return .handled
            }
            let dispatcher = Dispatcher(window: scene.window)
            dispatcher.systemKeyHandler = scene.focus
            measureTaps(benchmark, dispatcher, .f9)
            precondition(taken > 0)
            blackHole(taken)
        }
    }

    for depth in [10, 50] {
        Benchmark("Qt scene: key bubbling to the top of \(depth) ancestors", configuration: perSample) {
            @MainActor benchmark async in
            measureHandlerAtTop(benchmark, depth: depth)
        }

        Benchmark("Qt scene: shortcut at the top of \(depth) ancestors", configuration: perSample) {
            @MainActor benchmark async in
            let scene = ChainScene(depth: depth, commands: 0)
            scene.tap(.f5)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { scene.tap(.f5) }
            benchmark.stopMeasurement()
            precondition(scene.top.performed > 1)
            blackHole(scene.top.performed)
        }
    }
}
