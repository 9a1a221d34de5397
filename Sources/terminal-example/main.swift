import AppRuntime
import ResponderChain
import TerminalCanvas

// A console app that reads only the terminal: it depends on AppRuntime, not LinuxKeyboard, so it
// links no device library (no libevdev, libudev, libseat or libxkbcommon; a test checks with ldd).
let window = Window(identifier: "counter")
let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 40, height: 6))
window.addChild(root)
var count = 0
let buttons = ["minus", "plus", "reset"].enumerated().map { index, name in
    let button = FocusNode(identifier: name, frame: Rect(x: Double(index) * 10, y: 2, width: 8, height: 1))
    button.isFocusable = true
    button.primaryAction = Action(name)  // Return (the select key) sends it
    button.performableActions = [Action(name)]
    root.addChild(button)
    return button
}
root.keyCommands = [KeyCommand("r", modifierFlags: .control, action: "reset", title: "Reset")]
root.performableActions = ["reset"]
for node in buttons + [root] {
    node.onAction = { action, _ in
        count = action == "minus" ? count - 1 : action == "plus" ? count + 1 : 0
    }
}

let app = try Application(window: window, root: root)  // the terminal is the input and the output
app.onFrame = {
    var canvas = Canvas(columns: 40, rows: 6)
    canvas.text("count: \(count)", 0, 0, .heading)
    for button in buttons {
        let label = button.isFocused ? "[\(button.traceName)]" : " \(button.traceName) "
        canvas.text(label, Int(button.frame.x), 2, .plain)
    }
    canvas.text("\(app.input?.rawValue ?? "") · Ctrl-R resets · Ctrl-C quits", 0, 4, .plain)
    app.output?.show(canvas)
}
try app.run()
