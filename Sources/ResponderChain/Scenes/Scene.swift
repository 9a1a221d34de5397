/// A window described in JSON, loaded into ``FocusNode``s: for tests and keytrace to try layouts
/// without writing an app. The format is in <doc:SceneFormat>.
///
/// ```swift
/// let scene = try Scene(json: text, file: "reminders.json")
/// let (dispatcher, focus) = scene.makeDispatcher()
/// ```
@MainActor
public final class Scene {
    /// The scene's name.
    public let name: String
    /// The window, with the root node as its only child.
    public let window: Window
    /// The root node.
    public let root: FocusNode
    /// Every node by its id.
    public let nodes: [String: FocusNode]
    /// The ids in document order.
    public let nodeOrder: [String]
    /// How arrows navigate.
    public let navigationStyle: FocusSystem.NavigationStyle
    /// Whether activate-only items are focusable by keyboard.
    public let fullKeyboardAccess: Bool
    /// The select keys.
    public let selectKeys: Set<KeyCode>
    /// Menu-bar-like commands for ``Dispatcher/globalKeyCommands``.
    public let globalKeyCommands: [KeyCommand]
    /// The smallest width and height a tapped item should have (``Window/minimumTargetSize``), in
    /// the frames' units: `keytrace --conflicts` flags smaller ones. `nil` when not given.
    public let minimumTargetSize: Double?

    static let sceneFields = [
        "name", "layoutDirection", "navigationStyle", "fullKeyboardAccess", "selectKeys", "globalKeyCommands",
        "minimumTargetSize", "root",
    ]
    static let nodeFields = [
        "id", "kind", "frame", "focusable", "interactions", "hidden", "group", "groupKind", "priority", "order",
        "layoutDirection", "firstResponder", "preferredFocus", "primaryAction", "selectionFollowsFocus", "handlesKeys",
        "actions", "keyCommands", "secure", "enabled", "label", "children",
    ]
    static let commandFields = [
        "shortcut", "action", "title", "discoverabilityTitle", "attributes", "state", "wantsPriorityOverSystemBehavior",
        "allowsAutomaticLocalization", "allowsAutomaticMirroring", "repeats",
    ]

    /// The largest scene description accepted, in bytes (4 MiB): larger text is refused before
    /// it is parsed, so a huge or endless input cannot exhaust memory.
    public static let maximumSize = 4 << 20

    /// Loads a scene from JSON text.
    ///
    /// - Parameters:
    ///   - json: The scene description.
    ///   - file: The name errors give for the text, usually its file name.
    /// - Throws: ``SceneError`` naming the line, column and field of the first problem.
    public convenience init(json: String, file: String = "scene.json") throws(SceneError) {
        try self.init(json: Array(json.utf8), file: file)
    }

    /// Loads a scene from the bytes of a JSON file.
    ///
    /// The bytes must be UTF-8 text: an invalid sequence is an error at its line and column, never
    /// replaced. Text longer than ``maximumSize`` is refused.
    ///
    /// - Parameters:
    ///   - json: The scene description's bytes.
    ///   - file: The name errors give for the text, usually its file name.
    /// - Throws: ``SceneError`` naming the line, column and field of the first problem.
    public init(json: [UInt8], file: String = "scene.json") throws(SceneError) {
        let decoder = SceneDecoder(file: file)
        guard json.count <= Self.maximumSize else {
            throw SceneError(
                file: file, line: 1, column: 1, field: "",
                message: "the scene is \(json.count) bytes, over the limit of \(Self.maximumSize) bytes (4 MiB); "
                    + "is this the right file?")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: json)
        } catch {
            throw SceneError(file: file, line: error.line, column: error.column, field: "", message: error.message)
        }
        let fields = try decoder.object(document, "", allowed: Self.sceneFields)
        name = try fields["name"].map { v throws(SceneError) in try decoder.string(v, "name") } ?? file
        let directions: [(String, LayoutDirection)] = [("leftToRight", .leftToRight), ("rightToLeft", .rightToLeft)]
        let direction = try fields["layoutDirection"].map { v throws(SceneError) in
            try decoder.oneOf(v, "layoutDirection", directions)
        }
        navigationStyle =
            try fields["navigationStyle"].map { v throws(SceneError) in
                try decoder.oneOf(v, "navigationStyle", [("keyboard", .keyboard), ("directional", .directional)])
            } ?? .keyboard
        fullKeyboardAccess =
            try fields["fullKeyboardAccess"].map { v throws(SceneError) in
                try decoder.bool(v, "fullKeyboardAccess")
            } ?? true
        var select = FocusSystem.defaultSelectKeys
        if let value = fields["selectKeys"] {
            select = []
            for (index, element) in try decoder.array(value, "selectKeys").enumerated() {
                select.insert(try Self.keyCode(element, "selectKeys[\(index)]", decoder))
            }
        }
        selectKeys = select
        var global: [KeyCommand] = []
        if let value = fields["globalKeyCommands"] {
            for (index, element) in try decoder.array(value, "globalKeyCommands").enumerated() {
                global.append(try Self.keyCommand(element, "globalKeyCommands[\(index)]", decoder))
            }
        }
        globalKeyCommands = global
        minimumTargetSize = try fields["minimumTargetSize"].map { v throws(SceneError) in
            let size = try decoder.number(v, "minimumTargetSize")
            guard size.isFinite, size > 0, size <= 10_000 else {
                throw decoder.fail(
                    v, "minimumTargetSize", "\(size) is not a size between 0 and 10000 (points or cells)")
            }
            return size
        }
        guard let rootValue = fields["root"] else {
            throw SceneError(
                file: file, line: document.line, column: document.column, field: "root",
                message: "missing: a scene needs a root node")
        }
        var builder = Builder(decoder: decoder)
        let root = try builder.node(rootValue, "root")
        try builder.checkReferences()
        self.root = root
        nodes = builder.nodes
        nodeOrder = builder.order
        window = Window(identifier: name)
        if let direction { window.layoutDirection = direction }
        window.minimumTargetSize = minimumTargetSize
        window.addChild(root)
    }

    /// Makes a dispatcher for the scene's window with a focus system installed and configured, the
    /// global commands set, and initial focus given.
    ///
    /// - Parameter layout: The keyboard layout; US by default.
    /// - Returns: The dispatcher and the focus system.
    public func makeDispatcher(layout: any KeyboardLayout = USKeyboardLayout()) -> (Dispatcher, FocusSystem) {
        let dispatcher = Dispatcher(window: window, layout: layout)
        let focus = FocusSystem(window: window, root: root)
        focus.navigationStyle = navigationStyle
        focus.fullKeyboardAccess = fullKeyboardAccess
        focus.selectKeys = selectKeys
        dispatcher.systemKeyHandler = focus
        dispatcher.globalKeyCommands = globalKeyCommands
        focus.updateFocusIfNeeded()
        return (dispatcher, focus)
    }

    @MainActor private struct Builder {
        let decoder: SceneDecoder
        var nodes: [String: FocusNode] = [:]
        var order: [String] = []
        var references: [(id: String, value: JSONValue, path: String)] = []

        mutating func node(_ value: JSONValue, _ path: String) throws(SceneError) -> FocusNode {
            let d = decoder
            let fields = try d.object(value, path, allowed: Scene.nodeFields)
            guard let idValue = fields["id"] else {
                throw d.fail(value, path, "missing \"id\": every node needs a unique id")
            }
            let id = try d.string(idValue, "\(path).id")
            guard !id.isEmpty else { throw d.fail(idValue, "\(path).id", "an id must not be empty") }
            guard nodes[id] == nil else { throw d.fail(idValue, "\(path).id", "id \"\(id)\" is used twice") }
            let kind =
                try fields["kind"].map { v throws(SceneError) in
                    try d.oneOf(
                        v, "\(path).kind",
                        [("node", "node"), ("textInput", "textInput"), ("guide", "guide"), ("section", "section")])
                } ?? "node"
            let frame = try fields["frame"].map { v throws(SceneError) in try d.rect(v, "\(path).frame") } ?? .zero
            let node: FocusNode
            if kind == "textInput" {
                let input = TextInputNode(identifier: id, frame: frame)
                input.isSecureTextEntry =
                    try fields["secure"].map { v throws(SceneError) in try d.bool(v, "\(path).secure") } ?? false
                node = input
            } else {
                node = FocusNode(identifier: id, frame: frame)
                if let secure = fields["secure"] {
                    throw d.fail(secure, "\(path).secure", "only textInput nodes have secure text entry")
                }
            }
            switch kind {
            case "guide":
                let enabled =
                    try fields["enabled"].map { v throws(SceneError) in try d.bool(v, "\(path).enabled") } ?? true
                node.focusRole = .guide(isEnabled: enabled)
            case "section":
                node.focusRole = .section
            default:
                if let enabled = fields["enabled"] {
                    throw d.fail(enabled, "\(path).enabled", "only guides can be enabled or disabled")
                }
            }
            if let v = fields["focusable"] { node.isFocusable = try d.bool(v, "\(path).focusable") }
            if let v = fields["hidden"] { node.isHidden = try d.bool(v, "\(path).hidden") }
            if let v = fields["interactions"] {
                var interactions: FocusInteractions = []
                for (index, element) in try d.array(v, "\(path).interactions").enumerated() {
                    interactions.insert(
                        try d.oneOf(
                            element, "\(path).interactions[\(index)]", [("edit", .edit), ("activate", .activate)]))
                }
                node.focusInteractions = interactions
            }
            if let v = fields["group"] { node.focusGroupIdentifier = try d.string(v, "\(path).group") }
            if let v = fields["groupKind"] {
                node.focusGroupKind = try d.oneOf(
                    v, "\(path).groupKind", [("none", .none), ("container", .container), ("textInput", .textInput)])
            }
            if let v = fields["priority"] { node.focusGroupPriority = try Scene.priority(v, "\(path).priority", d) }
            // Finite: the JSON parser refuses a number out of Double's range (1e400).
            if let v = fields["order"] { node.focusTraversalOrder = try d.number(v, "\(path).order") }
            if let v = fields["label"] { node.accessibilityLabel = try d.string(v, "\(path).label") }
            if let v = fields["layoutDirection"] {
                node.layoutDirection = try d.oneOf(
                    v, "\(path).layoutDirection", [("leftToRight", .leftToRight), ("rightToLeft", .rightToLeft)])
            }
            if let v = fields["firstResponder"] { node.acceptsFirstResponder = try d.bool(v, "\(path).firstResponder") }
            if let v = fields["preferredFocus"] {
                node.preferredFocusIdentifiers = try d.strings(v, "\(path).preferredFocus")
                for (index, element) in try d.array(v, "\(path).preferredFocus").enumerated() {
                    references.append((try d.string(element, ""), element, "\(path).preferredFocus[\(index)]"))
                }
            }
            if let v = fields["primaryAction"] { node.primaryAction = Action(try d.string(v, "\(path).primaryAction")) }
            if let v = fields["selectionFollowsFocus"] {
                node.selectionFollowsFocus = try d.bool(v, "\(path).selectionFollowsFocus")
            }
            if let v = fields["handlesKeys"] {
                for (index, element) in try d.array(v, "\(path).handlesKeys").enumerated() {
                    node.handledKeys.insert(try Scene.keyCode(element, "\(path).handlesKeys[\(index)]", d))
                }
            }
            if let v = fields["actions"] {
                node.performableActions = Set(try d.strings(v, "\(path).actions").map { Action($0) })
            }
            if let v = fields["keyCommands"] {
                var commands: [KeyCommand] = []
                for (index, element) in try d.array(v, "\(path).keyCommands").enumerated() {
                    commands.append(try Scene.keyCommand(element, "\(path).keyCommands[\(index)]", d))
                }
                node.keyCommands = commands
            }
            nodes[id] = node
            order.append(id)
            if let v = fields["children"] {
                for (index, element) in try d.array(v, "\(path).children").enumerated() {
                    node.addChild(try self.node(element, "\(path).children[\(index)]"))
                }
            }
            return node
        }

        func checkReferences() throws(SceneError) {
            for reference in references where nodes[reference.id] == nil {
                throw decoder.fail(reference.value, reference.path, "no node has id \"\(reference.id)\"")
            }
        }
    }

    static func keyCode(_ value: JSONValue, _ path: String, _ decoder: SceneDecoder) throws(SceneError) -> KeyCode {
        let text = try decoder.string(value, path)
        do {
            let chord = try KeyChord(parsing: text)
            guard chord.modifierFlags.isEmpty || (chord.modifierFlags == .shift && text.count == 1) else {
                throw decoder.fail(
                    value, path, "\"\(text)\": give a key without modifiers, such as \"j\" or \"return\"")
            }
            return chord.code
        } catch let error as SceneError {
            throw error
        } catch {
            throw decoder.fail(value, path, "\"\(text)\" is not a key name (write j, return, space, up, f5, KeyA)")
        }
    }

    static func priority(_ value: JSONValue, _ path: String, _ decoder: SceneDecoder) throws(SceneError)
        -> FocusGroupPriority
    {
        if case .number(let number, let text) = value.kind {
            if let exact = Int(text) { return FocusGroupPriority(rawValue: exact) }
            let isInteger = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            // Outside ±9.2e18 no Int holds it. (No Int(exactly:): it needs libm, which the core does not link.)
            guard !isInteger, number.magnitude < 9.2e18 else {
                throw decoder.fail(
                    value, path, "\(text) is out of range: a priority is a whole number from \(Int.min) to \(Int.max)")
            }
            guard Double(Int(number)) == number else { throw decoder.fail(value, path, "a priority is a whole number") }
            return FocusGroupPriority(rawValue: Int(number))
        }
        let text = try decoder.string(value, path)
        let named: [(String, FocusGroupPriority)] = [
            ("ignored", .ignored), ("previouslyFocused", .previouslyFocused), ("prioritized", .prioritized),
            ("currentlyFocused", .currentlyFocused),
        ]
        func invalid() -> SceneError {
            decoder.fail(
                value, path,
                "\"\(text)\" is not a priority: write a number, ignored, previouslyFocused, prioritized, currentlyFocused, "
                    + "or one of those plus or minus a number (\"previouslyFocused+10\", \"prioritized-5\")")
        }
        // NAME, or NAME followed by + or - and decimal digits, spaces allowed around the sign.
        let trimmed = text.trimmingSpaces()
        guard let (name, base) = named.first(where: { trimmed.hasPrefix($0.0) }) else { throw invalid() }
        let rest = Substring(trimmed.dropFirst(name.count)).trimmingSpaces()
        if rest.isEmpty { return base }
        guard let sign = rest.first, sign == "+" || sign == "-" else { throw invalid() }
        let digits = Substring(rest.dropFirst()).trimmingSpaces()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw invalid() }
        guard let offset = Int(digits) else {
            throw decoder.fail(value, path, "\"\(text)\": \(digits) is out of range for a priority offset")
        }
        let (sum, overflow) =
            sign == "+"
            ? base.rawValue.addingReportingOverflow(offset) : base.rawValue.subtractingReportingOverflow(offset)
        guard !overflow else {
            throw decoder.fail(
                value, path, "\"\(text)\" is out of range: a priority is from \(Int.min) to \(Int.max)")
        }
        return FocusGroupPriority(rawValue: sum)
    }

    static func keyCommand(_ value: JSONValue, _ path: String, _ d: SceneDecoder) throws(SceneError) -> KeyCommand {
        let fields = try d.object(value, path, allowed: commandFields)
        guard let shortcutValue = fields["shortcut"] else {
            throw d.fail(value, path, "missing \"shortcut\", such as \"ctrl+f\", \"shift+tab\" or \"cmd+?\"")
        }
        guard let actionValue = fields["action"] else { throw d.fail(value, path, "missing \"action\"") }
        let shortcut = try d.string(shortcutValue, "\(path).shortcut")
        let input: KeyCommand.Input
        let modifiers: ModifierFlags
        do {
            (input, modifiers) = try KeyCommand.parseShortcut(shortcut)
        } catch {
            throw d.fail(
                shortcutValue, "\(path).shortcut",
                "\"\(error.token)\" in \"\(shortcut)\": \(error.reason); write shortcuts as keytrace's --keys does: "
                    + "ctrl+f, shift+tab, cmd+?, ctrl++, pgdn, f5, numpad+1 (modifiers: ctrl, alt, shift, cmd, numpad)")
        }
        var command = KeyCommand(
            input: input, modifierFlags: modifiers, action: Action(try d.string(actionValue, "\(path).action")))
        if let v = fields["title"] { command.title = try d.string(v, "\(path).title") }
        if let v = fields["discoverabilityTitle"] {
            command.discoverabilityTitle = try d.string(v, "\(path).discoverabilityTitle")
        }
        if let v = fields["attributes"] {
            var attributes: KeyCommand.Attributes = []
            for (index, element) in try d.array(v, "\(path).attributes").enumerated() {
                attributes.insert(
                    try d.oneOf(
                        element, "\(path).attributes[\(index)]",
                        [("disabled", .disabled), ("hidden", .hidden), ("destructive", .destructive)]))
            }
            command.attributes = attributes
        }
        if let v = fields["state"] {
            command.state = try d.oneOf(v, "\(path).state", [("off", .off), ("on", .on), ("mixed", .mixed)])
        }
        if let v = fields["wantsPriorityOverSystemBehavior"] {
            command.wantsPriorityOverSystemBehavior = try d.bool(v, "\(path).wantsPriorityOverSystemBehavior")
        }
        if let v = fields["allowsAutomaticLocalization"] {
            command.allowsAutomaticLocalization = try d.bool(v, "\(path).allowsAutomaticLocalization")
        }
        if let v = fields["allowsAutomaticMirroring"] {
            command.allowsAutomaticMirroring = try d.bool(v, "\(path).allowsAutomaticMirroring")
        }
        if let v = fields["repeats"] {
            command.repeatBehavior = try d.bool(v, "\(path).repeats") ? .repeatable : .nonRepeatable
        }
        return command
    }
}

extension StringProtocol {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
