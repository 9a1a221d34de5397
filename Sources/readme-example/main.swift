// The README's example, runnable: `swift run readme-example`. It links the core without
// Foundation, so `swift build` proves the core needs neither Foundation nor libm.
import ResponderChain

extension Action {
    static let find: Action = "find"
    static let delete: Action = "delete"
}

final class ListView: Responder {
    override init(identifier: String? = nil) {
        super.init(identifier: identifier)
        keyCommands = [
            KeyCommand("f", modifierFlags: .control, action: .find, title: "Find"),
            KeyCommand(.backspace, action: .delete, title: "Delete", repeatBehavior: .repeatable),
        ]
    }
    override var canBecomeFirstResponder: Bool { true }
    override func canPerformAction(_ action: Action, sender: ActionSender) -> Bool {
        [.find, .delete].contains(action)
    }
    override func perform(_ action: Action, sender: ActionSender) { print("perform \(action)") }
    override func pressesBegan(_ press: Press, with event: PressEvent) {
        if press.key.keyCode == .j { print("j: next row") } else { super.pressesBegan(press, with: event) }
    }
}

let window = Window(identifier: "main")
let list = ListView(identifier: "list")
window.addChild(list)
list.becomeFirstResponder()
let dispatcher = Dispatcher(window: window)
dispatcher.addTraceObserver { print("  trace: \($0)") }
dispatcher.handle(KeyEvent(.j, .down))
dispatcher.handle(KeyEvent(.leftControl, .down))
dispatcher.handle(KeyEvent(.f, .down))

// Focus and scenes need no Foundation either.
let scene = try Scene(
    json: """
        {"root": {"id": "root", "frame": [0, 0, 100, 100], "children": [
          {"id": "a", "frame": [0, 0, 50, 50], "focusable": true, "priority": 2},
          {"id": "b", "frame": [50, 0, 50, 50], "focusable": true}]}}
        """, file: "inline.json")
let (sceneDispatcher, focus) = scene.makeDispatcher()
sceneDispatcher.handle(KeyEvent(.tab, .down))
print(focus.debugTabLoop)
print("focused: \(focus.focusedItem?.focusDebugName ?? "nothing"), \(Rect(x: 1, y: 2, width: 3.5, height: 4))")
_ = focus.target(for: .right)
