import ResponderChain
import ResponderChainTesting

/// A focus node that counts notifications and can veto, for the focus tests.
final class ObservedNode: FocusNode {
    var shouldUpdateCount = 0
    var didUpdateCount = 0
    var vetoes = false
    var contexts: [FocusUpdateContext] = []
    /// Where the node writes "should NAME" and "did NAME", in call order, when set.
    var log: UpdateLog?

    override func shouldUpdateFocus(in context: FocusUpdateContext) -> Bool {
        shouldUpdateCount += 1
        log?.entries.append("should " + traceName)
        return !vetoes
    }

    override func didUpdateFocus(in context: FocusUpdateContext) {
        didUpdateCount += 1
        log?.entries.append("did " + traceName)
        contexts.append(context)
    }
}

/// The order in which nodes were asked and told of focus updates.
@MainActor final class UpdateLog {
    var entries: [String] = []
}

/// A window, a root node, a dispatcher with the focus system installed, a keyboard and a trace.
@MainActor
struct FocusHarness {
    let window = Window(identifier: "window")
    let root: ObservedNode
    let dispatcher: Dispatcher
    let focus: FocusSystem
    let keyboard: VirtualKeyboard
    let trace: TraceRecorder

    init(width: Double = 1000, height: Double = 700) {
        root = ObservedNode(identifier: "root", frame: Rect(x: 0, y: 0, width: width, height: height))
        window.addChild(root)
        dispatcher = Dispatcher(window: window)
        focus = FocusSystem(window: window, root: root)
        dispatcher.systemKeyHandler = focus
        keyboard = VirtualKeyboard(dispatcher)
        trace = TraceRecorder(dispatcher)
    }

    @discardableResult
    func node(
        _ name: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double, focusable: Bool = true,
        in parent: FocusNode? = nil, group: String? = nil
    ) -> ObservedNode {
        let node = ObservedNode(
            identifier: name, frame: Rect(x: x, y: y, width: width, height: height), isFocusable: focusable)
        node.focusGroupIdentifier = group
        (parent ?? root).addChild(node)
        return node
    }

    var focusedName: String? { focus.focusedItem?.focusDebugName }
    var tabLoopNames: [String] { focus.tabLoop.map(\.focusDebugName) }
}

/// The Reminders-like window of the WWDC21 session "Focus on iPad keyboard navigation": a search
/// field and the lists in a sidebar column on the left, the reminders on the right.
@MainActor
struct RemindersWindow {
    let harness: FocusHarness
    let search: TextInputNode
    let lists: FocusNode
    let reminders: FocusNode
    let listRows: [FocusNode]
    let reminderRows: [FocusNode]

    init(sidebarGroup: Bool) {
        harness = FocusHarness()
        var parent: FocusNode = harness.root
        if sidebarGroup {
            let sidebar = FocusNode(identifier: "sidebar", frame: Rect(x: 0, y: 0, width: 300, height: 700))
            sidebar.focusGroupIdentifier = "sidebar"
            harness.root.addChild(sidebar)
            parent = sidebar
        }
        search = TextInputNode(identifier: "search", frame: Rect(x: 10, y: 10, width: 280, height: 40))
        parent.addChild(search)
        lists = FocusNode(identifier: "lists", frame: Rect(x: 0, y: 60, width: 300, height: 640))
        lists.focusGroupKind = .container
        parent.addChild(lists)
        listRows = ["today", "scheduled", "all"].enumerated().map { index, name in
            let row = FocusNode(
                identifier: name, frame: Rect(x: 0, y: 60 + Double(index) * 44, width: 300, height: 44),
                isFocusable: true)
            return row
        }
        listRows.forEach(lists.addChild)
        // The reminders pane starts under its title bar: its top edge is below the search field's.
        reminders = FocusNode(identifier: "reminders", frame: Rect(x: 300, y: 50, width: 700, height: 650))
        reminders.focusGroupKind = .container
        harness.root.addChild(reminders)
        reminderRows = ["milk", "call", "taxes"].enumerated().map { index, name in
            FocusNode(
                identifier: name, frame: Rect(x: 300, y: 50 + Double(index) * 44, width: 700, height: 44),
                isFocusable: true)
        }
        reminderRows.forEach(reminders.addChild)
    }
}
