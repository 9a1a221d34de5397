import ResponderChain
import ResponderChainTesting
import Testing

/// A parking kiosk's checkout (issue 37): the plate field on top, the on-screen keyboard under it,
/// the pay buttons on the right, starting a little lower than the keyboard. Reading order gives
/// plate → keyboard → pay; the newcomer wanted plate → pay buttons → keyboard.
@MainActor
struct CheckoutScreen {
    let harness: FocusHarness
    let plate: TextInputNode
    let keyboard: FocusNode
    let pay: FocusNode
    let keys: [FocusNode]
    let payButtons: [FocusNode]

    init(plate plateOrder: Double? = nil, pay payOrder: Double? = nil, keyboard keyboardOrder: Double? = nil) {
        let h = FocusHarness()
        harness = h
        plate = TextInputNode(identifier: "plate", frame: Rect(x: 40, y: 40, width: 400, height: 60))
        h.root.addChild(plate)
        let keyboard = h.node("keyboard", 40, 120, 600, 300, focusable: false, group: "keyboard")
        self.keyboard = keyboard
        keys = ["q", "w", "e"].enumerated().map { index, name in
            h.node(name, 40 + Double(index) * 60, 120, 56, 56, in: keyboard)
        }
        let pay = h.node("pay", 700, 160, 250, 200, focusable: false, group: "pay")
        self.pay = pay
        payButtons = ["card", "cash"].enumerated().map { index, name in
            h.node(name, 700, 160 + Double(index) * 70, 250, 60, in: pay)
        }
        plate.focusTraversalOrder = plateOrder
        pay.focusTraversalOrder = payOrder
        keyboard.focusTraversalOrder = keyboardOrder
    }

    var focus: FocusSystem { harness.focus }
    var tabLoop: [String] { harness.tabLoopNames }

    /// Where focus is after each chord of a key sequence, from the initial focus.
    func walk(_ sequence: String) -> [String] {
        focus.updateFocusIfNeeded()
        var visited = [harness.focusedName ?? "nothing"]
        for chord in sequence.split(separator: " ") {
            harness.keyboard.tap(String(chord))
            visited.append(harness.focusedName ?? "nothing")
        }
        return visited
    }
}

/// An app's own environment (not a ``FocusNode``) that declares a group with an order.
@MainActor final class OrderedPanel: FocusEnvironment {
    let name: String
    var order: Double?
    weak var parent: FocusNode?
    var children: [FocusNode] = []

    init(_ name: String, order: Double?) {
        self.name = name
        self.order = order
    }

    var parentFocusEnvironment: (any FocusEnvironment)? { parent }
    var childFocusEnvironments: [any FocusEnvironment] { children }
    var focusGroupIdentifier: String? { name }
    var focusTraversalOrder: Double? { order }
    var focusDebugName: String { name }
}

@MainActor @Suite struct FocusTraversalOrderTests {
    @Test(
        "the tab loop follows the app's order first, then reading order for ties and the rest",
        arguments: [
            // (plate, pay, keyboard) orders → the loop (each stop's primary item)
            ((nil, nil, nil), ["plate", "q", "card"]),  // reading order: the keyboard starts higher
            ((1, 2, 3), ["plate", "card", "q"]),  // what the newcomer wanted
            ((nil, 1, nil), ["card", "plate", "q"]),  // ordered first; the rest in reading order
            ((2, 2, 1), ["q", "plate", "card"]),  // a tie goes to reading order
            ((-1, 0.5, 0.25), ["plate", "q", "card"]),  // any numbers: negative, fractions
            ((.nan, 1, .nan), ["card", "plate", "q"]),  // NaN is no order
        ] as [((Double?, Double?, Double?), [String])])
    func loop(orders: (Double?, Double?, Double?), expected: [String]) {
        let screen = CheckoutScreen(plate: orders.0, pay: orders.1, keyboard: orders.2)
        #expect(screen.tabLoop == expected)
        // Initial focus goes to the first stop; Tab walks the loop and wraps.
        #expect(screen.walk("tab tab tab") == expected + [expected[0]])
    }

    @Test("plate → pay buttons → keyboard: Tab walks it, Shift-Tab walks it backwards")
    func newcomer() {
        let screen = CheckoutScreen(plate: 1, pay: 2, keyboard: 3)
        screen.focus.requestFocus(on: screen.plate)
        #expect(screen.walk("tab tab tab") == ["plate", "card", "q", "plate"])
        #expect(screen.walk("shift+tab shift+tab shift+tab") == ["plate", "q", "card", "plate"])
        // The groups remember their items, whatever the order.
        screen.focus.requestFocus(on: screen.payButtons[1])
        #expect(screen.walk("tab shift+tab") == ["cash", "q", "cash"])
        // Arrows stay geometric inside a group.
        screen.focus.requestFocus(on: screen.keys[0])
        #expect(screen.walk("right right") == ["q", "w", "e"])
    }

    @Test("without an order Shift-Tab from the first stop wraps to the last in reading order; with one, in the app's")
    func shiftTabWraps() {
        let plain = CheckoutScreen()
        plain.focus.requestFocus(on: plain.plate)
        #expect(plain.walk("shift+tab") == ["plate", "card"])
        let ordered = CheckoutScreen(plate: 1, pay: 2, keyboard: 3)
        ordered.focus.requestFocus(on: ordered.plate)
        #expect(ordered.walk("shift+tab") == ["plate", "q"])
        // With nothing focused, Shift-Tab starts at the app's last stop.
        let fresh = CheckoutScreen(plate: 1, pay: 2, keyboard: 3)
        #expect(fresh.focus.target(for: .previous)?.focusDebugName == "q")
    }

    @Test(
        "orders hold in both directions; ties and items without one follow the direction's reading order",
        arguments: [
            (LayoutDirection.leftToRight, [Double?](repeating: nil, count: 4), ["one", "two", "three", "four"]),
            (.rightToLeft, [nil, nil, nil, nil], ["four", "three", "two", "one"]),
            (.leftToRight, [1, nil, nil, nil], ["one", "two", "three", "four"]),
            (.rightToLeft, [1, nil, nil, nil], ["one", "four", "three", "two"]),
            (.leftToRight, [5, 5, nil, 1], ["four", "one", "two", "three"]),
            (.rightToLeft, [5, 5, nil, 1], ["four", "two", "one", "three"]),
        ])
    func directions(direction: LayoutDirection, orders: [Double?], expected: [String]) {
        let h = FocusHarness()
        h.window.layoutDirection = direction
        var nodes: [String: FocusNode] = [:]
        for (index, name) in ["one", "two", "three", "four"].enumerated() {
            nodes[name] = h.node(name, Double(index) * 100, 0, 80, 40)
            nodes[name]?.focusTraversalOrder = orders[index]
        }
        #expect(h.tabLoopNames == expected)
        // Shift-Tab visits the same loop backwards.
        h.focus.requestFocus(on: nodes[expected[0]]!)
        var backwards = [h.focusedName!]
        for _ in expected.indices.dropFirst() {
            h.keyboard.tap("shift+tab")
            backwards.append(h.focusedName!)
        }
        #expect(backwards == [expected[0]] + expected.dropFirst().reversed())
    }

    @Test("an order on a nested group places it among its parent group's blocks; the parent keeps its place")
    func nestedGroup() {
        // A "checkout" group holds the three blocks; a help button outside it sits above everything.
        let h = FocusHarness()
        h.node("help", 900, 0, 80, 30)
        let checkout = h.node("checkout", 0, 40, 1000, 600, focusable: false, group: "checkout")
        let plate = h.node("plate", 40, 40, 400, 60, in: checkout)  // a member of checkout: its own stop
        let keyboard = h.node("keyboard", 40, 120, 600, 300, focusable: false, in: checkout, group: "keyboard")
        h.node("q", 40, 120, 56, 56, in: keyboard)
        let pay = h.node("pay", 700, 160, 250, 200, focusable: false, in: checkout, group: "pay")
        h.node("card", 700, 160, 250, 60, in: pay)
        #expect(h.tabLoopNames == ["help", "plate", "q", "card"])
        pay.focusTraversalOrder = 1
        #expect(
            h.tabLoopNames == ["help", "card", "plate", "q"],
            "ordered pay comes first inside checkout; checkout's own stop (plate) and keyboard follow in reading order")
        plate.focusTraversalOrder = 0
        #expect(h.tabLoopNames == ["help", "plate", "card", "q"], "a member's order places its group's own stop")
        checkout.focusTraversalOrder = 1
        #expect(h.tabLoopNames == ["plate", "card", "q", "help"], "checkout as a whole before the help button")
        h.focus.requestFocus(on: plate)
        h.keyboard.tap("shift+tab")
        #expect(h.focusedName == "help")
        h.keyboard.tap("shift+tab")
        #expect(h.focusedName == "q")
    }

    @Test("inside a group the app's order picks the primary item when priorities tie; a priority still wins")
    func primaryItem() {
        let h = FocusHarness()
        h.node("before", 0, 0, 80, 30)
        let group = h.node("row", 0, 40, 400, 40, focusable: false, group: "row")
        let a = h.node("a", 0, 40, 80, 40, in: group)
        let b = h.node("b", 100, 40, 80, 40, in: group)
        #expect(h.tabLoopNames == ["before", "a"])
        b.focusTraversalOrder = 1
        #expect(h.tabLoopNames == ["before", "b"])
        a.focusGroupPriority = .prioritized
        #expect(h.tabLoopNames == ["before", "a"])
    }

    @Test("changing an order at run time takes effect at the next focus update")
    func changesAtRunTime() {
        let screen = CheckoutScreen()
        screen.focus.requestFocus(on: screen.plate)
        #expect(screen.walk("tab") == ["plate", "q"])
        screen.pay.focusTraversalOrder = 1
        screen.keyboard.focusTraversalOrder = 2
        // The next key sees the change: pay, keyboard, then plate (no order).
        #expect(screen.walk("tab tab") == ["q", "plate", "card"])
        screen.pay.focusTraversalOrder = 3
        #expect(screen.walk("tab") == ["card", "plate"], "keyboard (2), pay (3), plate")
        #expect(screen.tabLoop == ["q", "card", "plate"])
        screen.pay.focusTraversalOrder = nil
        screen.keyboard.focusTraversalOrder = nil
        #expect(screen.tabLoop == ["plate", "q", "card"], "back to reading order")
    }

    @Test("frames that change in place keep the app's order: the loop matches a rebuild")
    func inPlaceFrameChanges() {
        let screen = CheckoutScreen(plate: 1, pay: 2, keyboard: 3)
        #expect(screen.tabLoop == ["plate", "card", "q"])
        // A button moves (an animation step): its group keeps the app's place.
        screen.payButtons[0].frame.y = 0
        #expect(screen.tabLoop == ["plate", "card", "q"])
        screen.payButtons[0].isHidden = true
        #expect(screen.tabLoop == ["plate", "cash", "q"])
        // Single items at the root reorder in place by their order, not their new frame.
        let h = FocusHarness()
        let one = h.node("one", 0, 0, 80, 40)
        let two = h.node("two", 100, 0, 80, 40)
        one.focusTraversalOrder = 2
        two.focusTraversalOrder = 1
        #expect(h.tabLoopNames == ["two", "one"])
        one.frame.x = 300
        two.frame.x = 500
        #expect(h.tabLoopNames == ["two", "one"])
        one.isFocusable = false
        one.isFocusable = true
        #expect(h.tabLoopNames == ["two", "one"])
    }

    @Test("an app's own environment gives its order through the protocol")
    func ownEnvironment() {
        let window = Window(identifier: "window")
        let host = PanelHost(identifier: "host", frame: Rect(x: 0, y: 0, width: 400, height: 400))
        window.addChild(host)
        let first = FocusNode(identifier: "first", frame: Rect(x: 0, y: 0, width: 80, height: 40), isFocusable: true)
        let button = FocusNode(
            identifier: "button", frame: Rect(x: 0, y: 100, width: 80, height: 40), isFocusable: true)
        // Both are the host's responder children (so they are in the window); the button is the panel's focus child.
        host.addChild(first)
        host.addChild(button)
        let panel = OrderedPanel("panel", order: nil)
        panel.parent = host
        panel.children = [button]
        host.focusChildren = [first, panel]
        let focus = FocusSystem(window: window, root: host)
        #expect(focus.tabLoop.map(\.focusDebugName) == ["first", "button"])
        panel.order = 1
        focus.invalidateLayout(of: panel, changes: .structure)
        #expect(focus.tabLoop.map(\.focusDebugName) == ["button", "first"])
    }

    /// A node whose focus children are given, not its responder children.
    final class PanelHost: FocusNode {
        var focusChildren: [any FocusEnvironment] = []
        override var childFocusEnvironments: [any FocusEnvironment] { focusChildren }
    }

    @Test("the focus debugger numbers the app's loop, shows each order and what reading order alone would give")
    func debugger() {
        let screen = CheckoutScreen(plate: 1, pay: 2, keyboard: 3)
        screen.focus.requestFocus(on: screen.payButtons[0])
        #expect(
            screen.focus.debugTabLoop == """
                tab loop (3 stops, Tab):
                  1. plate  (group "plate (automatic)")  order 1
                  2. card  (group "pay")  order 2  <- focus is here
                  3. q  (group "keyboard")  order 3
                the loop follows the app's order (focusTraversalOrder), not geometry: blocks with an order first, smaller first; ties and the rest in reading order
                reading order alone would give: 1. plate, 2. q, 3. card
                """)
        let tree = screen.focus.debugGroupTree
        #expect(tree.contains("group \"pay\" [focusGroupIdentifier on pay] order 2 primary: card"), "\(tree)")
        #expect(tree.contains("group \"plate (automatic)\" [automatic: text input plate] order 1 primary: plate"))
        #expect(!tree.contains("orders with no effect"))
        // An order where it means nothing (a plain container) is listed, not silently dropped.
        let wrapper = screen.harness.node("wrapper", 0, 600, 100, 40, focusable: false)
        wrapper.focusTraversalOrder = 1.5
        #expect(
            screen.focus.debugGroupTree.hasSuffix(
                """
                orders with no effect (on neither a group's declarer nor an item that can be focused):
                  - wrapper: order 1.5
                """))
        // Orders that agree with reading order say so.
        let agreeing = CheckoutScreen(plate: 1, pay: 3, keyboard: 2)
        #expect(agreeing.focus.debugTabLoop.hasSuffix("\nreading order alone gives the same loop"))
        // No order anywhere: the loop reads as before.
        let plain = CheckoutScreen()
        #expect(!plain.focus.debugTabLoop.contains("order"))
        #expect(!plain.focus.debugGroupTree.contains("order"))
    }

    @Test("a scene gives orders with \"order\", and the debugger that keytrace --focus-debug prints shows them")
    func scene() throws {
        let json = """
            {"name": "checkout", "root": {"id": "root", "frame": [0, 0, 1000, 700], "children": [
              {"id": "plate", "kind": "textInput", "frame": [40, 40, 400, 60], "order": 1},
              {"id": "keyboard", "group": "keyboard", "frame": [40, 120, 600, 300], "order": 3, "children": [
                {"id": "q", "frame": [40, 120, 56, 56], "focusable": true}]},
              {"id": "pay", "group": "pay", "frame": [700, 160, 250, 200], "order": 2.5, "children": [
                {"id": "card", "frame": [700, 160, 250, 60], "focusable": true}]}
            ]}}
            """
        let scene = try Scene(json: json, file: "checkout.json")
        #expect(scene.nodes["pay"]?.focusTraversalOrder == 2.5)
        #expect(scene.nodes["q"]?.focusTraversalOrder == nil)
        let (_, focus) = scene.makeDispatcher()
        #expect(focus.tabLoop.map(\.focusDebugName) == ["plate", "card", "q"])
        #expect(focus.debugTabLoop.contains("  2. card  (group \"pay\")  order 2.5\n"))
        #expect(throws: SceneError.self) {
            try Scene(json: #"{"root": {"id": "a", "order": "first"}}"#, file: "bad.json")
        }
        do {
            _ = try Scene(json: #"{"root": {"id": "a", "order": "first"}}"#, file: "bad.json")
        } catch {
            #expect(error.description == "bad.json:1:31: root.order: expected a number, got a string")
        }
    }
}
