public import DispatchTrace
public import ResponderChain

/// A window's focus tree and focus state at one moment, as an app's inspection socket sends it:
/// the tree in the scene format (so that keytrace rebuilds it with `Scene` and reports on it as
/// on a scene file), the focused item, the first responder, the modal scope and the tab loop.
///
/// Each environment's id is its `focusDebugName` (the name trace events use), made unique with
/// `#2`, `#3` when two share one. What a scene cannot say is left out: presses a responder takes
/// in code (a scene's `handlesKeys` comes only from `FocusNode.handledKeys`), and actions that no
/// key command or primary action names.
public struct TreeSnapshot: Hashable, Sendable {
    /// Seconds on the app's trace clock.
    public var t: Double
    /// The app's name (the scene's `name`).
    public var app: String
    /// The focused item's id.
    public var focused: String?
    /// The first responder's trace name.
    public var firstResponder: String?
    /// The focused item's focus group.
    public var focusedGroup: String?
    /// The modal scope's id, when one is presented.
    public var modal: String?
    /// The tab loop's items, in order, when the snapshot was taken.
    public var tabLoop: [String]
    /// How many environments the tree has.
    public var itemCount: Int
    /// The tree in the scene format (ResponderChain's article "The scene format"), as UTF-8 JSON.
    public var sceneJSON: [UInt8]

    /// Creates a snapshot from its parts.
    public init(
        t: Double, app: String, focused: String?, firstResponder: String?, focusedGroup: String?, modal: String?,
        tabLoop: [String], itemCount: Int, sceneJSON: [UInt8]
    ) {
        self.t = t
        self.app = app
        self.focused = focused
        self.firstResponder = firstResponder
        self.focusedGroup = focusedGroup
        self.modal = modal
        self.tabLoop = tabLoop
        self.itemCount = itemCount
        self.sceneJSON = sceneJSON
    }

    /// Takes a snapshot of a live window.
    ///
    /// - Parameters:
    ///   - name: The app's name.
    ///   - window: The window.
    ///   - root: The root of its focus tree.
    ///   - focusSystem: Its focus system.
    ///   - dispatcher: Its dispatcher (global key commands), if any.
    ///   - t: Seconds on the app's trace clock.
    @MainActor
    public init(
        name: String, window: Window, root: any FocusEnvironment, focusSystem: FocusSystem, dispatcher: Dispatcher?,
        t: Double
    ) {
        var writer = SceneWriter(
            window: window, focusSystem: focusSystem, globalCommands: dispatcher?.globalKeyCommands ?? [])
        writer.collect(root)
        var out = ByteWriter(capacity: 4096)
        writer.write(name: name, root: root, to: &out)
        let ids = writer.ids
        func id(_ environment: (any FocusEnvironment)?) -> String? {
            environment.flatMap { ids[ObjectIdentifier($0)] }
        }
        self.init(
            t: t, app: name, focused: id(focusSystem.focusedItem), firstResponder: window.firstResponder?.traceName,
            focusedGroup: focusSystem.focusedItem.flatMap { focusSystem.focusGroup(of: $0) },
            modal: id(focusSystem.modalScope), tabLoop: focusSystem.tabLoop.compactMap { id($0) },
            itemCount: writer.order.count, sceneJSON: out.withBytes { Array($0) })
    }

    /// Rebuilds the tree as a `Scene`: nodes with the app's ids, frames, groups, priorities,
    /// key commands and actions, in a window of their own.
    ///
    /// - Returns: The scene.
    /// - Throws: `SceneError` when the tree cannot be read back (an app's tree larger than
    ///   `Scene.maximumSize`, or a snapshot from a newer release).
    @MainActor
    public func makeScene() throws(SceneError) -> Scene {
        try Scene(json: sceneJSON, file: "snapshot of \(app)")
    }

    /// Appends the snapshot as one JSON line and a newline.
    ///
    /// - Parameter out: The buffer.
    public func writeJSON(to out: inout ByteWriter) {
        InspectionMessage.head(&out, t, "snapshot")
        InspectionMessage.field(&out, ",\"app\":", app)
        InspectionMessage.field(&out, ",\"focused\":", focused)
        InspectionMessage.field(&out, ",\"firstResponder\":", firstResponder)
        InspectionMessage.field(&out, ",\"group\":", focusedGroup)
        InspectionMessage.field(&out, ",\"modal\":", modal)
        out.append(",\"tabLoop\":[")
        for (index, id) in tabLoop.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendJSONString(id)
        }
        out.append("],\"items\":")
        out.append(decimal: itemCount)
        out.append(",\"scene\":")
        sceneJSON.withUnsafeBytes { out.append(bytes: $0) }
        out.append("}\n")
    }

    init(fields: MessageFields) throws(InspectionError) {
        guard let scene = fields.value("scene") else {
            throw InspectionError("field \"scene\" is missing; it holds the tree in the scene format")
        }
        guard case .object = scene.kind else {
            throw InspectionError("field \"scene\" is \(scene.typeName); it holds the tree in the scene format")
        }
        var json: [UInt8] = []
        JSONValueWriter.write(scene, to: &json)
        self.init(
            t: try fields.time(), app: try fields.string("app"), focused: try fields.optionalString("focused"),
            firstResponder: try fields.optionalString("firstResponder"),
            focusedGroup: try fields.optionalString("group"), modal: try fields.optionalString("modal"),
            tabLoop: try fields.strings("tabLoop"), itemCount: try fields.integer("items"), sceneJSON: json)
    }
}

/// Writes a live tree in the scene format.
@MainActor
struct SceneWriter {
    let window: Window
    let focusSystem: FocusSystem
    let globalCommands: [KeyCommand]
    /// Each environment's unique id.
    var ids: [ObjectIdentifier: String] = [:]
    /// The environments in document order.
    var order: [any FocusEnvironment] = []
    private var used: Set<String> = []
    /// Every action a key command or a primary action names: the ones a node's `actions` list.
    private var actions: [Action] = []
    private var seenActions: Set<Action> = []

    init(window: Window, focusSystem: FocusSystem, globalCommands: [KeyCommand]) {
        self.window = window
        self.focusSystem = focusSystem
        self.globalCommands = globalCommands
        for command in globalCommands { note(command.action) }
    }

    private mutating func note(_ action: Action) {
        if seenActions.insert(action).inserted { actions.append(action) }
    }

    /// Gives every environment an id and gathers the actions, depth first; a subtree seen twice
    /// (a malformed tree) or deeper than the scene format reads is left out.
    mutating func collect(_ environment: any FocusEnvironment, depth: Int = 0) {
        let key = ObjectIdentifier(environment)
        guard ids[key] == nil, depth < 90 else { return }
        let base = environment.focusDebugName.isEmpty ? "item" : environment.focusDebugName
        var id = base
        var suffix = 2
        while used.contains(id) {
            id = "\(base)#\(suffix)"
            suffix += 1
        }
        used.insert(id)
        ids[key] = id
        order.append(environment)
        if let item = environment as? any FocusItem, let action = item.primaryAction { note(action) }
        if let responder = environment as? Responder {
            for command in responder.keyCommands { note(command.action) }
        }
        for child in environment.childFocusEnvironments { collect(child, depth: depth + 1) }
    }

    func write(name: String, root: any FocusEnvironment, to out: inout ByteWriter) {
        out.append("{\"name\":")
        out.appendJSONString(name)
        out.append(",\"layoutDirection\":")
        out.appendJSONString(window.layoutDirection.rawValue)
        out.append(",\"navigationStyle\":")
        out.appendJSONString(focusSystem.navigationStyle.rawValue)
        out.append(focusSystem.fullKeyboardAccess ? ",\"fullKeyboardAccess\":true" : ",\"fullKeyboardAccess\":false")
        out.append(",\"selectKeys\":[")
        for (index, code) in focusSystem.selectKeys.sorted(by: { $0.rawValue < $1.rawValue }).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendJSONString(code.name)
        }
        out.append("],\"globalKeyCommands\":")
        writeCommands(globalCommands, to: &out)
        if let minimum = window.minimumTargetSize, minimum.isFinite, minimum > 0 {
            out.append(",\"minimumTargetSize\":")
            Self.writeNumber(minimum, to: &out)
        }
        out.append(",\"root\":")
        var written: Set<ObjectIdentifier> = []
        writeNode(root, written: &written, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private func writeNode(
        _ environment: any FocusEnvironment, written: inout Set<ObjectIdentifier>, to out: inout ByteWriter
    ) {
        let key = ObjectIdentifier(environment)
        written.insert(key)
        out.append("{\"id\":")
        out.appendJSONString(ids[key] ?? "item")
        let item = environment as? any FocusItem
        let responder = environment as? Responder
        let textInput = environment as? any TextInputResponder
        switch environment.focusRole {
        case .guide(let enabled):
            out.append(",\"kind\":\"guide\"")
            out.append(enabled ? ",\"enabled\":true" : ",\"enabled\":false")
        case .section:
            out.append(",\"kind\":\"section\"")
        case .plain:
            if let textInput {
                out.append(",\"kind\":\"textInput\"")
                out.append(textInput.isSecureTextEntry ? ",\"secure\":true" : ",\"secure\":false")
            }
        }
        let frame = environment.focusFrame
        out.append(",\"frame\":[")
        for (index, value) in [frame.minX, frame.minY, frame.width, frame.height].enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.writeNumber(value, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        out.append(item?.canBecomeFocused == true ? ",\"focusable\":true" : ",\"focusable\":false")
        if let item {
            out.append(",\"interactions\":[")
            var first = true
            for (flag, name) in [(FocusInteractions.edit, "edit"), (.activate, "activate")]
            where item.focusInteractions.contains(flag) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out.appendJSONString(name)
            }
            out.append(UInt8(ascii: "]"))
            out.append(",\"priority\":")
            out.append(decimal: item.focusGroupPriority.rawValue)
            if let action = item.primaryAction {
                out.append(",\"primaryAction\":")
                out.appendJSONString(action.rawValue)
            }
        }
        if environment.isHiddenFromFocus { out.append(",\"hidden\":true") }
        // What a narrator says and an on-screen keyboard's key shows: keytrace's tree names it.
        if let node = environment as? FocusNode, let label = node.accessibilityLabel, label != node.focusDebugName {
            out.append(",\"label\":")
            out.appendJSONString(label)
        }
        if let group = environment.focusGroupIdentifier {
            out.append(",\"group\":")
            out.appendJSONString(group)
        }
        if environment.focusGroupKind != .none {
            out.append(",\"groupKind\":")
            out.appendJSONString(environment.focusGroupKind.rawValue)
        }
        if let order = environment.focusTraversalOrder, order.isFinite {
            out.append(",\"order\":")
            Self.writeNumber(order, to: &out)
        }
        if let direction = environment.layoutDirection {
            out.append(",\"layoutDirection\":")
            out.appendJSONString(direction.rawValue)
        }
        if let follows = environment.selectionFollowsFocus {
            out.append(follows ? ",\"selectionFollowsFocus\":true" : ",\"selectionFollowsFocus\":false")
        }
        let preferred = environment.preferredFocusEnvironments.compactMap { ids[ObjectIdentifier($0)] }
        if !preferred.isEmpty {
            out.append(",\"preferredFocus\":[")
            for (index, id) in preferred.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.appendJSONString(id)
            }
            out.append(UInt8(ascii: "]"))
        }
        if let responder {
            if responder.canBecomeFirstResponder { out.append(",\"firstResponder\":true") }
            let performs = actions.filter { responder.canPerformAction($0, sender: .application) }
            if !performs.isEmpty {
                out.append(",\"actions\":[")
                for (index, action) in performs.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    out.appendJSONString(action.rawValue)
                }
                out.append(UInt8(ascii: "]"))
            }
            if !responder.keyCommands.isEmpty {
                out.append(",\"keyCommands\":")
                writeCommands(responder.keyCommands, to: &out)
            }
            if let node = responder as? FocusNode, !node.handledKeys.isEmpty {
                out.append(",\"handlesKeys\":[")
                for (index, code) in node.handledKeys.sorted(by: { $0.rawValue < $1.rawValue }).enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    out.appendJSONString(code.name)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        let children = environment.childFocusEnvironments.filter {
            ids[ObjectIdentifier($0)] != nil && !written.contains(ObjectIdentifier($0))
        }
        if !children.isEmpty {
            out.append(",\"children\":[")
            var first = true
            for child in children where !written.contains(ObjectIdentifier(child)) {
                // A child listed twice is written once.
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeNode(child, written: &written, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    private func writeCommands(_ commands: [KeyCommand], to out: inout ByteWriter) {
        out.append(UInt8(ascii: "["))
        var first = true
        for command in commands {
            guard let shortcut = command.sceneShortcut else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append("{\"shortcut\":")
            out.appendJSONString(shortcut)
            out.append(",\"action\":")
            out.appendJSONString(command.action.rawValue)
            if !command.title.isEmpty {
                out.append(",\"title\":")
                out.appendJSONString(command.title)
            }
            if let title = command.discoverabilityTitle {
                out.append(",\"discoverabilityTitle\":")
                out.appendJSONString(title)
            }
            let attributes: [(KeyCommand.Attributes, StaticString)] = [
                (.disabled, "\"disabled\""), (.hidden, "\"hidden\""), (.destructive, "\"destructive\""),
            ]
            out.append(",\"attributes\":[")
            var firstAttribute = true
            for (flag, name) in attributes where command.attributes.contains(flag) {
                if !firstAttribute { out.append(UInt8(ascii: ",")) }
                firstAttribute = false
                out.append(name)
            }
            out.append("],\"state\":")
            out.appendJSONString(command.state.rawValue)
            if command.wantsPriorityOverSystemBehavior { out.append(",\"wantsPriorityOverSystemBehavior\":true") }
            if !command.allowsAutomaticLocalization { out.append(",\"allowsAutomaticLocalization\":false") }
            if !command.allowsAutomaticMirroring { out.append(",\"allowsAutomaticMirroring\":false") }
            out.append(command.repeatBehavior == .repeatable ? ",\"repeats\":true}" : ",\"repeats\":false}")
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A frame coordinate: whole numbers as integers, others in Swift's shortest form (which the
    /// scene reader takes), anything not finite as 0.
    static func writeNumber(_ value: Double, to out: inout ByteWriter) {
        guard value.isFinite else { return out.append(UInt8(ascii: "0")) }
        if value == value.rounded(), value.magnitude < 1e15 {
            out.append(decimal: Int(value))
        } else {
            out.append(value.description)
        }
    }
}

extension KeyCommand {
    /// The command's chord as scene files write it (`ctrl+f`, `shift+Tab`), which
    /// `KeyCommand.parseShortcut(_:)` reads back; `nil` for a chord it cannot spell.
    var sceneShortcut: String? {
        var parts: [String] = []
        for (flag, name) in [
            (ModifierFlags.control, "ctrl"), (.alternate, "alt"), (.shift, "shift"), (.command, "cmd"),
            (.numericPad, "numpad"),
        ] where modifierFlags.contains(flag) {
            parts.append(name)
        }
        switch input {
        case .character(let text):
            guard text.count == 1 else { return nil }
            parts.append(text == "+" ? "plus" : text)
        case .special(let key):
            guard let code = key.keyCodes.first else { return nil }
            parts.append(code.name)
        }
        return parts.joined(separator: "+")
    }
}

/// Writes a parsed JSON value back as text: numbers as they were written, strings escaped.
enum JSONValueWriter {
    static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value.kind {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let text): writeString(text, to: &out)
        case .number(_, let text): out.append(contentsOf: text.utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }

    static func writeString(_ text: String, to out: inout [UInt8]) {
        var writer = ByteWriter(capacity: text.utf8.count * 6 + 2)
        writer.appendJSONString(text)
        writer.withBytes { out.append(contentsOf: $0) }
    }
}
