import FuzzSupport
import ResponderChain

// Scene files: the JSON parser, the scene grammar (priorities, shortcuts, geometry) and, for a
// scene that loads, the focus system and dispatch on a few keys. Any input may fail with a
// SceneError; none may trap or hang.
// libFuzzer calls the target on the thread that called the driver, the main thread.
fuzz { data, count in
    let input = bytes(data, count)
    MainActor.assumeIsolated {
        guard let scene = try? Scene(json: input, file: "fuzz.json") else { return }
        let (dispatcher, _) = scene.makeDispatcher()
        for code in [KeyCode.tab, .downArrow, .rightArrow, .return, .a] {
            dispatcher.handle(KeyEvent(code, .down))
            dispatcher.handle(KeyEvent(code, .up))
        }
    }
    return 0
}
