import ResponderChain
import ResponderChainTesting

extension Action {
    static let find: Action = "find"
    static let next: Action = "next"
    static let newItem: Action = "newItem"
    static let delete: Action = "delete"
    static let help: Action = "help"
    static let quit: Action = "quit"
    static let scroll: Action = "scroll"
}

/// A system-behaviour participant written for these tests: Tab and Shift-Tab move the first
/// responder through the window's responders that can become first responder, in tree order,
/// wrapping; Return "selects" (counts). It is what the focus system will be, reduced to a list.
final class TabNavigator: SystemKeyHandler {
    var name: String { "tabNavigator" }
    private(set) var moves: [String] = []
    private(set) var repeats = 0
    private(set) var releases = 0
    private(set) var cancels = 0
    var takesReturn = false

    func claims(_ key: Key, in window: Window) -> Bool {
        let chord = key.modifierFlags.intersection(.deviceIndependentChord)
        if key.keyCode == .tab { return chord == [] || chord == .shift }
        return takesReturn && key.keyCode == .return && chord.isEmpty
    }

    func keyDown(_ press: Press, in window: Window) -> SystemKeyDecision {
        guard claims(press.key, in: window) else { return .decline(reason: "not a navigation key") }
        if press.key.keyCode == .return {
            moves.append("select")
            return .take(reason: "Return selects")
        }
        let backwards = press.key.modifierFlags.contains(.shift)
        move(backwards: backwards, in: window)
        return .take(reason: backwards ? "Shift-Tab moves focus back" : "Tab moves focus")
    }

    func keyRepeated(_ press: Press, in window: Window) {
        repeats += 1
        move(backwards: press.key.modifierFlags.contains(.shift), in: window)
    }

    func keyReleased(_ press: Press, in window: Window) { releases += 1 }
    func keyCancelled(_ press: Press, in window: Window) { cancels += 1 }

    private func move(backwards: Bool, in window: Window) {
        var loop: [Responder] = []
        func visit(_ node: Responder) {
            if node.canBecomeFirstResponder { loop.append(node) }
            node.children.forEach(visit)
        }
        visit(window)
        guard !loop.isEmpty else { return }
        let current = loop.firstIndex { $0 === window.firstResponder }
        let next: Int
        if let current {
            next = (current + (backwards ? loop.count - 1 : 1)) % loop.count
        } else {
            next = backwards ? loop.count - 1 : 0
        }
        loop[next].becomeFirstResponder()
        moves.append(loop[next].traceName)
    }
}

/// A text field written for these tests: takes the standard editing keys and appends characters.
final class TextField: RecordingResponder, TextInputResponder {
    var text = ""

    init(_ identifier: String) {
        super.init(identifier, canBecomeFirstResponder: true)
    }

    override func pressesBegan(_ press: Press, with event: PressEvent) {
        text += press.key.characters
        super.pressesBegan(press, with: event)
    }
}

/// A QWERTZ layout written for these tests, standing in for xkbcommon's `de` (which arrives with
/// the Linux module): Y and Z swap, `/` is Shift-7, and `[`, `]` need AltGr, so they cannot be
/// typed at the base or Shift level.
struct QWERTZTestLayout: KeyboardLayout {
    var name: String { "qwertz-test" }
    private let us = USKeyboardLayout()

    func characters(for code: KeyCode, in state: LayoutState) -> String {
        let shift = state.modifierFlags.contains(.shift)
        switch code {
        case .y: return us.characters(for: .z, in: state)
        case .z: return us.characters(for: .y, in: state)
        case .digit7: return shift ? "/" : "7"
        case .leftBracket: return shift ? "Ü" : "ü"
        case .rightBracket: return shift ? "*" : "+"
        case .minus: return shift ? "?" : "ß"
        case .slash: return shift ? "_" : "-"
        default: return us.characters(for: code, in: state)
        }
    }
}

/// A window with a dispatcher, trace recorder and keyboard, for tests.
@MainActor
struct Harness {
    let window = Window(identifier: "window")
    let dispatcher: Dispatcher
    let keyboard: VirtualKeyboard
    let trace: TraceRecorder

    init(layout: any KeyboardLayout = USKeyboardLayout()) {
        dispatcher = Dispatcher(window: window, layout: layout)
        keyboard = VirtualKeyboard(dispatcher)
        trace = TraceRecorder(dispatcher)
    }

    /// window > root > middle > leaf: a three-level chain under the window.
    func chain(_ names: String...) -> [RecordingResponder] {
        var parent: Responder = window
        var made: [RecordingResponder] = []
        for name in names {
            let node = RecordingResponder(name, canBecomeFirstResponder: true)
            parent.addChild(node)
            made.append(node)
            parent = node
        }
        return made
    }
}

extension Responder {
    func isDescendant(of ancestor: Responder) -> Bool {
        var node: Responder? = self
        while let current = node {
            if current === ancestor { return true }
            node = current.parent
        }
        return false
    }
}
