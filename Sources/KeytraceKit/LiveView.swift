internal import ResponderChain

/// keytrace's live view: the scene drawn with box characters (frames scaled to the terminal),
/// the focused item highlighted, the first responder marked, the current focus group outlined;
/// a status line; and a scrolling trace pane. Overlays number the tab loop (like UIKit's focus
/// loop debugger) or name each item's focus group.
///
/// Rendering is pure: ``render(columns:rows:)`` returns the frame's lines, with or without
/// terminal escapes, so tests can read it.
public final class LiveView {
    /// The session drawn.
    public let session: TraceSession
    /// Whether the tab-loop overlay is on (F2).
    public var showsTabLoop = false
    /// Whether the group overlay is on (F3).
    public var showsGroups = false
    /// The input's name and anything to say about it, for the status line.
    public var inputNote: String
    /// The layout's name, for the status line.
    public var layoutName: String

    /// Creates a view.
    ///
    /// - Parameters:
    ///   - session: The session; its history (``TraceSession/keepsHistory``) feeds the trace pane.
    ///   - input: The input's description.
    ///   - layout: The layout's name.
    public init(session: TraceSession, input: String, layout: String) {
        self.session = session
        inputNote = input
        layoutName = layout
    }

    /// Cell styles.
    enum Style: UInt8 {
        case plain, focused, group, firstResponder, overlay, dim, heading
    }

    struct Canvas {
        let columns: Int
        let rows: Int
        var cells: [Character]
        var styles: [Style]

        init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
            cells = Array(repeating: " ", count: columns * rows)
            styles = Array(repeating: .plain, count: columns * rows)
        }

        mutating func put(_ character: Character, _ column: Int, _ row: Int, _ style: Style) {
            guard column >= 0, column < columns, row >= 0, row < rows else { return }
            cells[row * columns + column] = character
            styles[row * columns + column] = style
        }

        mutating func text(_ text: String, _ column: Int, _ row: Int, _ style: Style, limit: Int = .max) {
            var x = column
            for character in text.prefix(max(0, limit)) {
                put(character, x, row, style)
                x += 1
            }
        }

        mutating func box(_ left: Int, _ top: Int, _ right: Int, _ bottom: Int, double: Bool, _ style: Style) {
            guard right > left, bottom > top else { return }
            let (h, v, tl, tr, bl, br): (Character, Character, Character, Character, Character, Character) =
                double ? ("═", "║", "╔", "╗", "╚", "╝") : ("─", "│", "┌", "┐", "└", "┘")
            for x in (left + 1)..<right {
                put(h, x, top, style)
                put(h, x, bottom, style)
            }
            for y in (top + 1)..<bottom {
                put(v, left, y, style)
                put(v, right, y, style)
            }
            put(tl, left, top, style)
            put(tr, right, top, style)
            put(bl, left, bottom, style)
            put(br, right, bottom, style)
        }

        func lines(escapes: Bool) -> [String] {
            (0..<rows).map { row in
                var line = ""
                var current = Style.plain
                for column in 0..<columns {
                    let style = styles[row * columns + column]
                    if escapes && style != current {
                        line += LiveView.escape(for: style)
                        current = style
                    }
                    line.append(cells[row * columns + column])
                }
                if escapes && current != .plain { line += LiveView.escape(for: .plain) }
                if !escapes {
                    while line.last == " " { line.removeLast() }
                }
                return line
            }
        }
    }

    static func escape(for style: Style) -> String {
        switch style {
        case .plain: return "\u{1b}[0m"
        case .focused: return "\u{1b}[0;1;7m"
        case .group: return "\u{1b}[0;36m"
        case .firstResponder: return "\u{1b}[0;1;35m"
        case .overlay: return "\u{1b}[0;1;30;43m"
        case .dim: return "\u{1b}[0;2m"
        case .heading: return "\u{1b}[0;1m"
        }
    }

    /// The frame for a terminal of this size.
    ///
    /// - Parameters:
    ///   - columns: The terminal's width.
    ///   - rows: Its height.
    ///   - escapes: Whether to include colour escapes.
    /// - Returns: One string per row.
    public func render(columns: Int, rows: Int, escapes: Bool = true) -> [String] {
        guard columns >= 40, rows >= 12 else {
            var canvas = Canvas(columns: max(columns, 1), rows: max(rows, 1))
            canvas.text("keytrace needs at least 40x12", 0, 0, .heading)
            return canvas.lines(escapes: escapes)
        }
        var canvas = Canvas(columns: columns, rows: rows)
        let sceneRows = max(8, rows * 11 / 20)
        drawScene(&canvas, top: 0, height: sceneRows)
        drawStatus(&canvas, row: sceneRows)
        drawTrace(&canvas, top: sceneRows + 2, height: rows - sceneRows - 2)
        return canvas.lines(escapes: escapes)
    }

    // MARK: Scene

    private func drawScene(_ canvas: inout Canvas, top: Int, height: Int) {
        let scene = session.scene
        let bounds = scene.root.frame
        let width = max(bounds.width, 1)
        let heightPoints = max(bounds.height, 1)
        let columns = canvas.columns
        // Inside the window's own box.
        let innerColumns = Double(columns - 3)
        let innerRows = Double(height - 3)
        func map(_ rect: Rect) -> (Int, Int, Int, Int) {
            let left = 1 + Int(((rect.minX - bounds.minX) / width * innerColumns).rounded())
            let right = 1 + Int(((rect.maxX - bounds.minX) / width * innerColumns).rounded())
            let upper = top + 1 + Int(((rect.minY - bounds.minY) / heightPoints * innerRows).rounded())
            let lower = top + 1 + Int(((rect.maxY - bounds.minY) / heightPoints * innerRows).rounded())
            return (left, upper, max(right, left + 2), max(lower, upper + 1))
        }
        let focused = session.focusSystem.focusedItem.map { ObjectIdentifier($0) }
        let firstResponder = session.scene.window.firstResponder.map { ObjectIdentifier($0) }
        let currentGroup = session.focusedGroup
        canvas.box(0, top, columns - 1, top + height - 1, double: false, .dim)
        canvas.text(" \(scene.name) ", 2, top, .heading, limit: columns - 4)
        for id in scene.nodeOrder {
            guard let node = scene.nodes[id], node !== scene.root, !isHidden(node) else { continue }
            let (left, upper, right, lower) = map(node.frame)
            let isFocused = focused == ObjectIdentifier(node)
            let inGroup = currentGroup != nil && groupOf(node) == currentGroup
            let style: Style = isFocused ? .focused : inGroup ? .group : .plain
            canvas.box(left, upper, right, lower, double: isFocused, style)
            var label = id
            if firstResponder == ObjectIdentifier(node) { label = "*" + label }
            if let input = node as? TextInputNode, input.isSecureTextEntry { label += " (secure)" }
            canvas.text(
                label, left + 1, upper,
                isFocused ? .focused : firstResponder == ObjectIdentifier(node) ? .firstResponder : style,
                limit: right - left - 1)
        }
        if showsTabLoop {
            for (index, item) in session.focusSystem.tabLoop.enumerated() {
                guard let node = item as? FocusNode else { continue }
                let (left, upper, _, lower) = map(node.frame)
                canvas.text(" \(index + 1) ", left + 1, min(upper + 1, lower), .overlay)
            }
        }
        if showsGroups {
            for id in scene.nodeOrder {
                guard let node = scene.nodes[id], node.isFocusable, !isHidden(node), let group = groupOf(node) else {
                    continue
                }
                let (left, upper, right, lower) = map(node.frame)
                let row = lower > upper + 1 ? lower - 1 : upper
                canvas.text(group, left + 1, row, .overlay, limit: right - left - 1)
            }
        }
    }

    private func isHidden(_ node: FocusNode) -> Bool {
        var current: Responder? = node
        while let responder = current {
            if let focusNode = responder as? FocusNode, focusNode.isHidden { return true }
            current = responder.nextResponder
        }
        return false
    }

    private func groupOf(_ node: FocusNode) -> String? {
        node.isFocusable ? session.focusSystem.focusGroup(of: node) : nil
    }

    // MARK: Status and trace

    private func drawStatus(_ canvas: inout Canvas, row: Int) {
        let held = session.dispatcher.keyboardState.pressedKeys.map(\.name)
        let modifiers = session.dispatcher.keyboardState.modifierFlags.description
        let first =
            "focus \(session.focusedID ?? "none") │ first responder \(session.firstResponderID ?? "none")"
            + " │ group \(session.focusedGroup ?? "none")"
        let second =
            "held \(held.isEmpty ? "-" : held.joined(separator: " ")) │ modifiers \(modifiers.isEmpty ? "-" : modifiers)"
            + " │ layout \(layoutName) │ \(inputNote) │ F2 tab loop\(showsTabLoop ? " (on)" : "") F3 groups\(showsGroups ? " (on)" : "") Ctrl-C quit"
        canvas.text(first, 0, row, .heading, limit: canvas.columns)
        canvas.text(second, 0, row + 1, .plain, limit: canvas.columns)
    }

    private func drawTrace(_ canvas: inout Canvas, top: Int, height: Int) {
        guard height > 0 else { return }
        let lines = session.history.suffix(height)
        for (offset, event) in lines.enumerated() {
            let style: Style
            switch event.kind {
            case .stage: style = .dim
            case .focus, .keyCommand: style = .heading
            default: style = .plain
            }
            canvas.text(event.plainLine, 0, top + offset, style, limit: canvas.columns)
        }
    }
}
