import ResponderChain
import Testing

/// The one wrapper for unretained links: free in release builds, checked in debug builds.
@Suite struct UnownedRefTests {
    final class Target {}

    @Test("a link reads its target and compares by address without following it")
    func readsAndCompares() {
        let target = Target()
        let other = Target()
        let link = UnownedRef(target)
        #expect(link.target === target)
        #expect(link.refers(to: target))
        #expect(!link.refers(to: other))
        #expect(link.withTarget { $0 === target })
    }

    /// A window that asks for its window while it goes away.
    final class SelfReadingWindow: Window {
        @MainActor static var sawItself: Bool?
        isolated deinit { Self.sawItself = window === self }
    }

    @Test("a window still answers for its own window from its deinit (its link is to itself)")
    @MainActor func windowInDeinit() {
        do { _ = SelfReadingWindow(identifier: "leaving") }
        #expect(SelfReadingWindow.sawItself == true)
    }

    @Test("a window forgets a focus system that goes away, and keeps the one that replaced it")
    @MainActor func focusSystemGoesAway() {
        let window = Window(identifier: "window")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        window.addChild(root)
        do {
            let focus = FocusSystem(window: window, root: root)
            #expect(FocusSystem.focusSystem(for: root) === focus)
        }
        #expect(FocusSystem.focusSystem(for: root) == nil, "a debug build stops here if the link dangles")
        var replacement: FocusSystem?
        do {
            let first = FocusSystem(window: window, root: root)
            replacement = FocusSystem(window: window, root: root)
            #expect(FocusSystem.focusSystem(for: root) !== first)
        }
        #expect(FocusSystem.focusSystem(for: root) === replacement)
    }

    #if DEBUG
        @Test("a debug build stops when a link is followed after its target was freed")
        func danglingLinkStops() async {
            await #expect(processExitsWith: .failure) {
                var link: UnownedRef<Target>?
                do {
                    let target = Target()
                    link = UnownedRef(target)
                }
                _ = link?.target
            }
        }
    #endif
}
