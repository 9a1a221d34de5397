import Benchmark
import CairoGraphics
import Graphics
import ResponderChain

/// A kiosk's home screen in points: a title, a sidebar group of three buttons, a content group of
/// four tiles of one size (272x200, as a designer fixes them) whatever the screen's size.
@MainActor
final class RedrawScreen {
    let window = Window(identifier: "window")
    let dispatcher: Dispatcher
    let painter: WindowPainter
    let renderer = CairoRenderer()
    let width: Int
    let height: Int
    var pixels: [UInt8]
    /// The focused item's layer, drawn anew at every focus move (as when no kept patch serves).
    var layerPixels: [UInt8] = []

    /// - Parameter layered: Whether the focused item is drawn apart, in a layer of its own (as under
    ///   a compositor with subsurfaces).
    init(width: Int, height: Int, layered: Bool = false) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        window.addChild(root)
        window.backgroundColor = Theme.standard.background
        root.addChild(
            LabelNode(
                "Riverside Clinic", style: TextStyle(font: Font(size: 48, weight: .bold)), identifier: "title",
                frame: Rect(x: 40, y: 24, width: Double(width) - 80, height: 64)))
        let sidebar = PanelNode(
            showsFocusContainment: true, identifier: "sidebar",
            frame: Rect(x: 24, y: 112, width: 260, height: Double(height) - 136))
        sidebar.focusGroupIdentifier = "sidebar"
        root.addChild(sidebar)
        for index in 0..<3 {
            sidebar.addChild(
                ButtonNode(
                    ["Home", "Check in", "Directory"][index], look: .plain, identifier: "menu\(index)",
                    frame: Rect(x: 36, y: 128 + Double(index) * 80, width: 236, height: 64)))
        }
        let content = PanelNode(
            showsFocusContainment: true, identifier: "content",
            frame: Rect(x: 308, y: 112, width: Double(width) - 332, height: Double(height) - 136))
        content.focusGroupIdentifier = "content"
        root.addChild(content)
        for index in 0..<4 {
            content.addChild(
                ButtonNode(
                    "Tile \(index)", subtitle: "Tap or press Return", look: .tile, identifier: "tile\(index)",
                    frame: Rect(
                        x: 332 + Double(index % 2) * 296, y: 136 + Double(index / 2) * 224, width: 272, height: 200)))
        }
        root.preferredFocusIdentifiers = ["tile0"]
        let focusSystem: FocusSystem
        (dispatcher, focusSystem) = window.makeDispatcher(focusRoot: root, layout: USKeyboardLayout())
        focusSystem.updateFocusIfNeeded()
        painter = WindowPainter(window: window, size: Size(width: Double(width), height: Double(height)))
        painter.drawsFocusedItemApart = layered
        frame()
    }

    /// A key down and up, then the frame an output would draw.
    func key(_ code: KeyCode, shift: Bool = false) {
        if shift { dispatcher.handle(KeyEvent(.leftShift, .down)) }
        dispatcher.handle(KeyEvent(code, .down))
        dispatcher.handle(KeyEvent(code, .up))
        if shift { dispatcher.handle(KeyEvent(.leftShift, .up)) }
        window.updateFocusAfterInput()
        frame()
    }

    func frame() {
        drawLayer()
        let damage = painter.takeDamage()
        guard !damage.isEmpty else { return }
        let (width, height) = (width, height)
        pixels.withUnsafeMutableBytes { buffer in
            renderer.render(
                into: buffer, width: width, height: height, stride: width * 4, scale: 1, damage: damage.rects
            ) { context in self.painter.paint(damage, in: context) }
        }
    }

    /// The focused item's layer, drawn whole into its own buffer.
    func drawLayer() {
        guard let (_, rect) = painter.focusLayer() else { return }
        let (width, height) = (Int(rect.width), Int(rect.height))
        if layerPixels.count < width * height * 4 { layerPixels = [UInt8](repeating: 0, count: width * height * 4) }
        layerPixels.withUnsafeMutableBytes { buffer in
            renderer.render(into: buffer, width: width, height: height, stride: width * 4, format: .xrgb8888, scale: 1)
            { context in
                context.translate(x: -rect.minX, y: -rect.minY)
                self.painter.paintFocusLayer(rect, in: context)
            }
        }
    }
}

let focusRedrawBenchmarks: @Sendable () -> Void = {
    // A focus move's frame as a pixel output draws it: the key through the dispatcher and the focus
    // system, the painter's damage, and the damage drawn with Cairo and Pango. An arrow between two tiles
    // of one group, and Tab into the other group (the two groups' outlines change too), at 800x600 and
    // 1920x1080: the cost follows the damage, not the screen.
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one, maxDuration: .seconds(1))
    for (width, height) in [(800, 600), (1920, 1080)] {
        Benchmark("Graphics: an arrow's redraw at \(width)x\(height)", configuration: configuration) {
            @MainActor benchmark async in
            let screen = RedrawScreen(width: width, height: height)
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                screen.key(index % 2 == 0 ? .rightArrow : .leftArrow)
            }
            benchmark.stopMeasurement()
        }
        Benchmark("Graphics: Tab's redraw into another group at \(width)x\(height)", configuration: configuration) {
            @MainActor benchmark async in
            let screen = RedrawScreen(width: width, height: height)
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                screen.key(.tab, shift: index % 2 == 1)
            }
            benchmark.stopMeasurement()
        }
        // The same keys with the focused item in a layer, its patch drawn anew at every move: the cost
        // when no kept patch serves (an item not shown lately, or something under it changed).
        Benchmark("Graphics: an arrow's focus layer drawn anew at \(width)x\(height)", configuration: configuration) {
            @MainActor benchmark async in
            let screen = RedrawScreen(width: width, height: height, layered: true)
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                screen.key(index % 2 == 0 ? .rightArrow : .leftArrow)
            }
            benchmark.stopMeasurement()
        }
        Benchmark(
            "Graphics: Tab's focus layer drawn anew, into another group, at \(width)x\(height)",
            configuration: configuration
        ) {
            @MainActor benchmark async in
            let screen = RedrawScreen(width: width, height: height, layered: true)
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                screen.key(.tab, shift: index % 2 == 1)
            }
            benchmark.stopMeasurement()
        }
    }
}
