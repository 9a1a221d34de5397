import ResponderChain
import Testing

/// Clicks and taps hit the focus tree by frame and activate what they land on, as a touch screen's
/// users expect; the keyboard's focus stays where it is unless a text field is tapped.
@MainActor @Suite struct PointerActivationTests {
    static let json = """
        {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
          {"id": "open", "frame": [0, 0, 40, 20], "focusable": true, "primaryAction": "open", "actions": ["open"]},
          {"id": "plain", "frame": [50, 0, 40, 20], "focusable": true},
          {"id": "gone", "frame": [0, 30, 40, 10], "focusable": true, "hidden": true, "primaryAction": "open",
           "actions": ["open"]},
          {"id": "name", "kind": "textInput", "frame": [50, 30, 40, 10], "firstResponder": true},
          {"id": "orphan", "frame": [0, 45, 40, 10], "focusable": true, "primaryAction": "nobody"}]}}
        """

    static func scene() throws -> (Scene, FocusSystem, [String]) {
        let scene = try Scene(json: json, file: "pointer.json")
        let (_, focus) = scene.makeDispatcher()
        focus.updateFocusIfNeeded()
        return (scene, focus, [])
    }

    @Test("a point hits the visible item whose frame holds it; edges: left and top in, right and bottom out")
    func hitTest() throws {
        let (_, focus, _) = try Self.scene()
        #expect(focus.item(at: Point(x: 5, y: 5))?.focusDebugName == "open")
        #expect(focus.item(at: Point(x: 0, y: 0))?.focusDebugName == "open")
        #expect(focus.item(at: Point(x: 40, y: 5)) == nil, "the right edge is outside")
        #expect(focus.item(at: Point(x: 45, y: 5)) == nil, "between the items")
        #expect(focus.item(at: Point(x: 5, y: 35)) == nil, "a hidden item is never hit")
        #expect(focus.item(at: Point(x: 60, y: 35))?.focusDebugName == "name")
    }

    @Test("a click on an item with a primary action performs it and leaves keyboard focus where it was")
    func clickPerforms() throws {
        let (scene, focus, _) = try Self.scene()
        var performed: [String] = []
        scene.nodes["open"]?.onAction = { action, _ in performed.append(action.rawValue) }
        let before = focus.focusedItem?.focusDebugName
        let outcome = focus.activate(at: Point(x: 10, y: 10))
        #expect(performed == ["open"], "\(outcome)")
        guard case .performed(let action, let item, _) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(action == "open" && item == "open")
        #expect(focus.focusedItem?.focusDebugName == before, "focus did not move")
    }

    @Test("a tap on a text field makes it first responder and focuses it; a tap elsewhere says why it did nothing")
    func textFieldAndNothing() throws {
        let (scene, focus, _) = try Self.scene()
        _ = focus.requestFocus(on: try #require(scene.nodes["plain"]))
        focus.updateFocusIfNeeded()
        let outcome = focus.activate(at: Point(x: 55, y: 32))
        guard case .focusedTextInput(let item) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(item == "name" && focus.focusedItem?.focusDebugName == "name")
        #expect(scene.window.firstResponder === scene.nodes["name"])
        #expect("\(focus.activate(at: Point(x: 60, y: 5)))".contains("plain has no primary action"))
        #expect("\(focus.activate(at: Point(x: 95, y: 59)))".contains("no item at"))
        #expect("\(focus.activate(at: Point(x: 5, y: 50)))".contains("no responder can perform nobody"))
    }

    @Test("a modal scope takes every touch: items behind it are not hit")
    func modalBlocks() throws {
        let json = """
            {"root": {"id": "screen", "frame": [0, 0, 100, 60], "children": [
              {"id": "behind", "frame": [0, 0, 100, 60], "focusable": true, "primaryAction": "go", "actions": ["go"]},
              {"id": "dialog", "frame": [20, 20, 40, 20], "children": [
                {"id": "ok", "frame": [25, 25, 10, 5], "focusable": true, "primaryAction": "ok", "actions": ["ok"]}]}]}}
            """
        let scene = try Scene(json: json, file: "modal.json")
        let (_, focus) = scene.makeDispatcher()
        focus.updateFocusIfNeeded()
        #expect(focus.item(at: Point(x: 5, y: 5))?.focusDebugName == "behind")
        #expect(focus.item(at: Point(x: 27, y: 27))?.focusDebugName == "ok", "the later, smaller item is on top")
        focus.presentModal(try #require(scene.nodes["dialog"]))
        #expect(focus.item(at: Point(x: 5, y: 5)) == nil)
        #expect(focus.item(at: Point(x: 27, y: 27))?.focusDebugName == "ok")
    }

    @Test("a tap activates when it lifts on its item; moved off, cancelled or with two fingers it does nothing")
    func tracker() throws {
        let (scene, focus, _) = try Self.scene()
        var performed = 0
        scene.nodes["open"]?.onAction = { _, _ in performed += 1 }
        let taps = PointerActivationTracker(focusSystem: focus)
        taps.down(0, at: Point(x: 5, y: 5))
        taps.move(0, to: Point(x: 6, y: 6))
        if case .performed = taps.up(0, at: Point(x: 7, y: 7)) {} else { Issue.record("a tap on the item") }
        #expect(performed == 1)
        // Moved off and back: still nothing (UIKit cancels a touch that left its control's bounds).
        taps.down(0, at: Point(x: 5, y: 5))
        taps.move(0, to: Point(x: 60, y: 5))
        taps.move(0, to: Point(x: 5, y: 5))
        #expect("\(taps.up(0, at: Point(x: 5, y: 5)))".contains("moved off"))
        // Cancelled.
        taps.down(0, at: Point(x: 5, y: 5))
        taps.cancelAll()
        #expect("\(taps.up(0, at: Point(x: 5, y: 5)))".contains("never went down"))
        // Two fingers.
        taps.down(0, at: Point(x: 5, y: 5))
        taps.down(1, at: Point(x: 10, y: 10))
        #expect("\(taps.up(1, at: Point(x: 10, y: 10)))".contains("more than one finger"))
        #expect("\(taps.up(0, at: Point(x: 5, y: 5)))".contains("more than one finger"))
        // The next single tap works again; a mouse click too.
        taps.down(PointerActivationTracker.pointerID, at: Point(x: 5, y: 5))
        taps.up(PointerActivationTracker.pointerID, at: Point(x: 5, y: 5))
        #expect(performed == 2)
    }

    @Test("pointer events go through the dispatcher: traced with the item and what the tap did, moves untraced")
    func throughDispatcher() throws {
        let scene = try Scene(json: Self.json, file: "pointer.json")
        let (dispatcher, focus) = scene.makeDispatcher()
        focus.updateFocusIfNeeded()
        var performed = 0
        scene.nodes["open"]?.onAction = { _, _ in performed += 1 }
        var records: [String] = []
        _ = dispatcher.addTraceObserver { record in
            if case .pointer = record.kind { records.append(record.description) }
        }
        dispatcher.receive(.pointer(PointerEvent(.down, .touch, contact: 3, at: Point(x: 5, y: 5), timestamp: 1)))
        dispatcher.receive(.pointer(PointerEvent(.move, .touch, contact: 3, at: Point(x: 6, y: 5), timestamp: 1.1)))
        dispatcher.receive(.pointer(PointerEvent(.up, .touch, contact: 3, at: Point(x: 6, y: 5), timestamp: 1.2)))
        #expect(performed == 1)
        #expect(records.count == 2, "down and up; the move is not traced: \(records)")
        #expect(records.first?.contains("touch 3 down at (5.0, 5.0) on open") == true, "\(records)")
        #expect(records.last?.contains("performed open of open") == true, "\(records)")
        dispatcher.receive(.pointer(PointerEvent(.down, .mouse, at: Point(x: 5, y: 5), timestamp: 2)))
        dispatcher.receive(.pointer(PointerEvent(.cancel, .mouse, at: Point(x: 5, y: 5), timestamp: 2.1)))
        dispatcher.receive(.pointer(PointerEvent(.up, .mouse, at: Point(x: 5, y: 5), timestamp: 2.2)))
        #expect(performed == 1, "a cancelled click activates nothing")
        #expect(records.contains { $0.contains("cancelled: nothing is activated") })
    }

    @Test("during secure entry a pointer record shows no position, item or outcome: an on-screen PIN pad's are the PIN")
    func secureEntryRedacts() throws {
        let json = """
            {"root": {"id": "pad", "frame": [0, 0, 30, 30], "children": [
              {"id": "pin", "kind": "textInput", "secure": true, "frame": [0, 0, 30, 5], "firstResponder": true},
              {"id": "digit4", "frame": [0, 10, 10, 10], "focusable": true, "primaryAction": "four",
               "actions": ["four"]}]}}
            """
        let scene = try Scene(json: json, file: "pad.json")
        let (dispatcher, focus) = scene.makeDispatcher()
        focus.updateFocusIfNeeded()
        _ = scene.nodes["pin"]?.becomeFirstResponder()
        #expect(dispatcher.isSecureEntry)
        var records: [DispatchRecord] = []
        _ = dispatcher.addTraceObserver { record in
            if case .pointer = record.kind { records.append(record) }
        }
        dispatcher.receive(.pointer(PointerEvent(.down, .touch, contact: 0, at: Point(x: 5, y: 15), timestamp: 1)))
        dispatcher.receive(.pointer(PointerEvent(.up, .touch, contact: 0, at: Point(x: 5, y: 15), timestamp: 1.1)))
        #expect(records.count == 2 && records.allSatisfy(\.isSecureEntry))
        for record in records {
            #expect(!record.description.contains("digit4") && !record.description.contains("15"), "\(record)")
            if case .pointer(let event, let item, _) = record.kind {
                #expect(event.point == Point(x: 0, y: 0) && item == "•")
            }
        }
    }
}
