import LinuxKeyboard
import ResponderChain

// A search field above a list; Tab moves between them, the arrows move in the list.
let window = Window(identifier: "example")
let root = FocusNode(identifier: "root", frame: Rect(x: 0, y: 0, width: 40, height: 8))
let field = TextInputNode(identifier: "search", frame: Rect(x: 0, y: 0, width: 40, height: 1))
let list = FocusNode(identifier: "list", frame: Rect(x: 0, y: 1, width: 40, height: 5))
list.focusGroupIdentifier = "list"
let rows = (1...5).map { FocusNode(identifier: "Row \($0)", frame: Rect(x: 0, y: Double($0), width: 40, height: 1)) }
window.addChild(root)
for node in [field, list] { root.addChild(node) }
for row in rows {
    row.isFocusable = true
    list.addChild(row)
}
var status = "type, then Return to search"

// Return in the field starts a task: it awaits work off the main actor, then updates the tree.
field.onSubmit {
    let query = field.text
    status = "searching for \"\(query)\"…"
    Task {
        let hits = await Task.detached { (1...5).filter { $0 % 2 == 1 } }.value  // stands in for I/O
        for (index, row) in rows.enumerated() { row.isHidden = !hits.contains(index + 1) }
        status = "\(hits.count) rows match \"\(query)\""
    }
}

var configuration = KeyboardApp.Configuration()  // keyboards when readable, else the terminal
configuration.fullScreen = true
if CommandLine.arguments.contains("--terminal") { configuration.input = .terminal }
let app = try KeyboardApp(window: window, root: root, configuration: configuration)
app.onFrame = {
    var screen = "\u{1b}[H\u{1b}[2J" + (field.isFocused ? "> " : "  ") + "search: \(field.text)\r\n"
    for row in rows where !row.isHidden { screen += (row.isFocused ? "> " : "  ") + row.traceName + "\r\n" }
    screen += "\(status) (\(app.input?.rawValue ?? ""); Ctrl-C quits)"
    app.terminal?.write(Array(screen.utf8))
}
try app.run()
