import DispatchTrace
import Inspection
import KeytraceKit
import ResponderChain
import Testing

@MainActor
@Suite struct TreeSnapshotTests {
    /// The demo scene, live, with focus somewhere other than its start.
    func demo() throws -> (Scene, Dispatcher, FocusSystem) {
        let scene = try Scene(json: DemoScene.json, file: DemoScene.fileName)
        let (dispatcher, focus) = scene.makeDispatcher()
        return (scene, dispatcher, focus)
    }

    func roundTrip(_ snapshot: TreeSnapshot) throws -> TreeSnapshot {
        var out = ByteWriter()
        snapshot.writeJSON(to: &out)
        let line = out.withBytes { Array($0) }
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
        guard case .snapshot(let read) = try InspectionMessage(jsonLine: line) else {
            Issue.record("not read back as a snapshot")
            return snapshot
        }
        return read
    }

    @Test("a snapshot of a live tree rebuilds a scene with the same groups, tab loop and conflicts")
    func rebuildsTheSameScene() throws {
        let (scene, dispatcher, focus) = try demo()
        #expect(focus.requestFocus(on: try #require(scene.nodes["callMom"])))
        let snapshot = TreeSnapshot(
            name: "demo", window: scene.window, root: scene.root, focusSystem: focus, dispatcher: dispatcher, t: 1.5)
        let read = try roundTrip(snapshot)
        #expect(read == snapshot)
        #expect(read.focused == "callMom")
        #expect(read.focusedGroup == focus.focusGroup(of: try #require(scene.nodes["callMom"])))
        #expect(read.itemCount == scene.nodeOrder.count)

        let mirror = try read.makeScene()
        #expect(mirror.nodeOrder == scene.nodeOrder)
        let (mirrorDispatcher, mirrorFocus) = mirror.makeDispatcher()
        #expect(mirrorFocus.requestFocus(on: try #require(mirror.nodes["callMom"])))
        #expect(mirrorFocus.debugGroupTree == focus.debugGroupTree)
        #expect(mirrorFocus.debugTabLoop == focus.debugTabLoop)
        #expect(mirrorFocus.tabLoop.map(\.focusDebugName) == read.tabLoop)
        #expect(
            KeyCommandConflictReport(mirrorDispatcher).description == KeyCommandConflictReport(dispatcher).description)
        #expect(mirrorDispatcher.globalKeyCommands == dispatcher.globalKeyCommands)
    }

    @Test("the app's traversal order reaches the mirror: an attached keytrace shows the same loop")
    func traversalOrder() throws {
        let (scene, dispatcher, focus) = try demo()
        try #require(scene.nodes["reminders"]).focusTraversalOrder = 1
        try #require(scene.nodes["search"]).focusTraversalOrder = 2.5
        let snapshot = TreeSnapshot(
            name: "demo", window: scene.window, root: scene.root, focusSystem: focus, dispatcher: dispatcher, t: 0)
        let mirror = try roundTrip(snapshot).makeScene()
        #expect(mirror.nodes["reminders"]?.focusTraversalOrder == 1)
        #expect(mirror.nodes["search"]?.focusTraversalOrder == 2.5)
        #expect(mirror.nodes["lists"]?.focusTraversalOrder == nil)
        let (_, mirrorFocus) = mirror.makeDispatcher()
        #expect(mirrorFocus.debugTabLoop == focus.debugTabLoop)
        #expect(focus.debugTabLoop.contains("order 2.5"))
    }

    @Test("each item's accessibility label reaches the mirror and its focus debugger (an on-screen key's character)")
    func accessibilityLabels() throws {
        let (scene, dispatcher, focus) = try demo()
        let item = try #require(scene.nodes["buyMilk"])
        item.accessibilityLabel = "Milch kaufen"
        let snapshot = TreeSnapshot(
            name: "demo", window: scene.window, root: scene.root, focusSystem: focus, dispatcher: dispatcher, t: 0)
        let json = String(decoding: snapshot.sceneJSON, as: UTF8.self)
        #expect(json.contains("\"label\":\"Milch kaufen\""))
        let mirror = try roundTrip(snapshot).makeScene()
        #expect(mirror.nodes["buyMilk"]?.accessibilityLabel == "Milch kaufen")
        let (_, mirrorFocus) = mirror.makeDispatcher()
        #expect(mirrorFocus.debugGroupTree.contains("- buyMilk \"Milch kaufen\":"), "\(mirrorFocus.debugGroupTree)")
        #expect(mirrorFocus.debugGroupTree == focus.debugGroupTree)
    }

    @Test("the window's minimum target size reaches the mirror, so keytrace --attach --conflicts flags small targets")
    func minimumTargetSize() throws {
        let (scene, dispatcher, focus) = try demo()
        scene.window.minimumTargetSize = 60
        let snapshot = TreeSnapshot(
            name: "demo", window: scene.window, root: scene.root, focusSystem: focus, dispatcher: dispatcher, t: 0)
        let mirror = try roundTrip(snapshot).makeScene()
        #expect(mirror.minimumTargetSize == 60)
        #expect(mirror.window.minimumTargetSize == 60)
        let (_, mirrorFocus) = mirror.makeDispatcher()
        #expect(PointerTargetReport(mirrorFocus).tooSmall.count == PointerTargetReport(focus).tooSmall.count)
        #expect(!PointerTargetReport(focus).tooSmall.isEmpty, "the demo's cells are all under 60")
    }

    @Test("every key command a scene can hold comes back the same", arguments: KeyCommand.SpecialKey.allCases)
    func commandsRoundTrip(key: KeyCommand.SpecialKey) throws {
        let window = Window(identifier: "w")
        let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 10, height: 10))
        window.addChild(root)
        var commands: [KeyCommand] = []
        for flags in [ModifierFlags(), .control, [.control, .shift], [.alternate, .command], .numericPad] {
            var command = KeyCommand(input: .special(key), modifierFlags: flags, action: "act")
            command.title = "Do \"it\""
            command.wantsPriorityOverSystemBehavior = flags.contains(.control)
            command.repeatBehavior = .repeatable
            command.attributes = [.destructive]
            command.state = .mixed
            commands.append(command)
        }
        for character in ["a", "+", "?", "]", "1", "é"] {
            commands.append(KeyCommand(input: .character(character), modifierFlags: .command, action: "type"))
        }
        root.keyCommands = commands
        root.performableActions = ["act"]
        let focus = FocusSystem(window: window, root: root)
        let snapshot = TreeSnapshot(
            name: "keys", window: window, root: root, focusSystem: focus, dispatcher: nil, t: 0)
        let mirror = try roundTrip(snapshot).makeScene()
        let node = try #require(mirror.nodes["root"])
        #expect(node.keyCommands == commands)
        #expect(node.performableActions == ["act"])
    }

    /// A focus tree of an app's own types, not FocusNodes: ids come from their debug names.
    final class Tile: FocusItem {
        weak var parent: (any FocusEnvironment)?
        var children: [any FocusEnvironment] = []
        let name: String
        let frame: Rect
        init(_ name: String, _ frame: Rect) {
            self.name = name
            self.frame = frame
        }
        var parentFocusEnvironment: (any FocusEnvironment)? { parent }
        var childFocusEnvironments: [any FocusEnvironment] { children }
        var focusFrame: Rect { frame }
        var focusDebugName: String { name }
        var canBecomeFocused: Bool { !children.isEmpty ? false : true }
        var focusGroupIdentifier: String? { name == "grid" ? "grid" : nil }
    }

    @Test("items of an app's own types get unique ids, and names shared are told apart")
    func ownTypes() throws {
        let window = Window(identifier: "w")
        let holder = FocusNode(identifier: "holder", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        window.addChild(holder)
        let grid = Tile("grid", Rect(x: 0, y: 0, width: 100, height: 100))
        let a = Tile("tile", Rect(x: 0, y: 0, width: 10, height: 10))
        let b = Tile("tile", Rect(x: 20, y: 0, width: 10, height: 10))
        for tile in [a, b] {
            tile.parent = grid
            grid.children.append(tile)
        }
        let focus = FocusSystem(window: window, root: grid)
        focus.updateFocusIfNeeded()
        let snapshot = TreeSnapshot(name: "own", window: window, root: grid, focusSystem: focus, dispatcher: nil, t: 0)
        #expect(snapshot.focused == "tile")
        let mirror = try roundTrip(snapshot).makeScene()
        #expect(mirror.nodeOrder == ["grid", "tile", "tile#2"])
        #expect(mirror.nodes["tile#2"]?.frame == Rect(x: 20, y: 0, width: 10, height: 10))
        #expect(mirror.nodes["grid"]?.focusGroupIdentifier == "grid")
    }
}
