public import DispatchTrace
public import ResponderChain
public import TerminalCanvas

/// keytrace's live view: the scene drawn with box characters (frames scaled to the terminal),
/// the focused item highlighted, the first responder marked, the current focus group outlined;
/// a status line; and a scrolling trace pane. Overlays number the tab loop (like UIKit's focus
/// loop debugger) or name each item's focus group.
///
/// Rendering is pure: ``render(columns:rows:)`` returns the frame's lines, with or without
/// terminal escapes, so tests can read it.
@MainActor
public final class LiveView {
    /// The session drawn.
    public let session: TraceSession
    /// Its scene.
    public let scene: Scene
    /// Whether the tab-loop overlay is on (F2).
    public var showsTabLoop = false
    /// Whether the group overlay is on (F3).
    public var showsGroups = false
    /// The input's name and anything to say about it, for the status line.
    public var inputNote: String
    /// The layout's name, for the status line.
    public var layoutName: String
    /// Whether the status line shows the keys held and the modifiers: off for a mirror of a
    /// running app (`keytrace --attach`), whose dispatcher is never given a key.
    public var showsKeyboardState = true
    /// Why keytrace cannot speak (`--speak` without speech-dispatcher), for the status line; `nil`
    /// when it can, or was not asked to.
    public var speechNote: String?

    /// Creates a view.
    ///
    /// - Parameters:
    ///   - session: The session; its history (`TraceSession.keepsHistory`) feeds the trace pane.
    ///   - scene: The scene the session traces.
    ///   - input: The input's description.
    ///   - layout: The layout's name.
    public init(session: TraceSession, scene: Scene, input: String, layout: String) {
        self.session = session
        self.scene = scene
        inputNote = input
        layoutName = layout
    }

    /// The frame for a terminal of this size.
    ///
    /// - Parameters:
    ///   - columns: The terminal's width.
    ///   - rows: Its height.
    ///   - escapes: Whether to include colour escapes.
    /// - Returns: One string per row.
    public func render(columns: Int, rows: Int, escapes: Bool = true) -> [String] {
        canvas(columns: columns, rows: rows).lines(escapes: escapes)
    }

    /// The frame for a terminal of this size, as a canvas (``Canvas/frame(replacing:)`` writes
    /// only what changed since the last one).
    ///
    /// - Parameters:
    ///   - columns: The terminal's width.
    ///   - rows: Its height.
    /// - Returns: The drawn canvas.
    public func canvas(columns: Int, rows: Int) -> Canvas {
        let geometry = axes()
        let (needColumns, needRows) = minimumSize(geometry)
        guard columns >= needColumns, rows >= needRows else {
            var canvas = Canvas(columns: columns, rows: rows)
            canvas.wrapped(
                "keytrace needs at least \(needColumns)x\(needRows) for this scene (now \(columns)x\(rows));"
                    + " enlarge the terminal", 0, 0, width: canvas.columns, .heading)
            return canvas
        }
        var canvas = Canvas(columns: columns, rows: rows)
        // The scene gets what it needs to show every item, at least half the screen, and leaves
        // the status lines and three trace lines.
        let sceneRows = min(rows - 5, max(needRows - 5, rows * 11 / 20))
        drawScene(&canvas, top: 0, height: sceneRows, geometry: geometry)
        drawStatus(&canvas, row: sceneRows)
        drawTrace(&canvas, top: sceneRows + 2, height: rows - sceneRows - 2)
        return canvas
    }

    // MARK: Scene

    /// Where a node sits on the canvas: columns `left..<right`, rows `upper..<lower`.
    struct Cells {
        var left, right, upper, lower: Int
        /// Less than three rows high: drawn on one row, with no inside.
        var isFlat: Bool { lower - upper < 3 }
    }

    /// One axis of the layout: scene coordinates to cells, monotonic, so that nodes apart in
    /// points are apart in cells, a box's children stay inside its border and every item gets a
    /// row (or columns) of its own. Each requirement is "edge b at least w cells after edge a";
    /// the least positions satisfying them all come from one pass in coordinate order (a
    /// longest path), and the cells left over are shared out in proportion to the coordinates.
    struct Axis {
        private var gaps: [Double: [(from: Double, cells: Int)]] = [:]
        private var edges: Set<Double> = []

        mutating func require(_ from: Double, _ to: Double, cells: Int) {
            edges.insert(from)
            edges.insert(to)
            if to > from { gaps[to, default: []].append((from, cells)) }
        }

        /// The least positions, and the cells the whole axis needs.
        func minimum() -> (positions: [Double: Int], needed: Int) {
            var positions: [Double: Int] = [:]
            var previous = 0
            for edge in edges.sorted() {
                var position = previous
                for gap in gaps[edge] ?? [] { position = max(position, (positions[gap.from] ?? 0) + gap.cells) }
                positions[edge] = position
                previous = position
            }
            return (positions, previous)
        }

        /// Maps each edge into `0...count`; when the axis needs more cells than that, the
        /// positions are squeezed proportionally and nodes may share cells.
        func positions(count: Int) -> [Double: Int] {
            let (least, needed) = minimum()
            let sorted = edges.sorted()
            guard let first = sorted.first, let last = sorted.last, last > first else { return least }
            var result: [Double: Int] = [:]
            let slack = count - needed
            for edge in sorted {
                let fraction = (edge - first) / (last - first)
                result[edge] =
                    slack >= 0
                    ? least[edge, default: 0] + Int((Double(slack) * fraction).rounded(.down))
                    : Int((Double(count) * fraction).rounded())
            }
            return result
        }
    }

    /// The scene's nodes as drawn: visible ones, each with its frame nudged inside its parent's
    /// so that a child starting on its parent's edge still starts inside the border.
    private func visibleFrames() -> [(node: FocusNode, parent: FocusNode?, frame: Rect, hasChildren: Bool)] {
        var result: [(FocusNode, FocusNode?, Rect, Bool)] = []
        func visit(_ node: FocusNode, parent: FocusNode?, parentFrame: Rect?) {
            guard !node.isHidden else { return }
            var frame = node.frame
            if let outer = parentFrame {
                let nudgeX = max(outer.width, 1) * 1e-6
                let nudgeY = max(outer.height, 1) * 1e-6
                let minX = max(frame.minX, outer.minX + nudgeX)
                let minY = max(frame.minY, outer.minY + nudgeY)
                let maxX = max(min(frame.maxX, outer.maxX - nudgeX), minX + nudgeX)
                let maxY = max(min(frame.maxY, outer.maxY - nudgeY), minY + nudgeY)
                frame = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
            }
            let children = node.children.compactMap { $0 as? FocusNode }.filter { !$0.isHidden }
            result.append((node, parent, frame, !children.isEmpty))
            for child in children { visit(child, parent: node, parentFrame: frame) }
        }
        visit(scene.root, parent: nil, parentFrame: nil)
        return result
    }

    /// The smallest terminal that shows every item of the scene, the two status lines and
    /// three trace lines (and the status line's start: 40 columns at least).
    public func minimumSize() -> (columns: Int, rows: Int) {
        minimumSize(axes())
    }

    private func minimumSize(_ geometry: Geometry) -> (columns: Int, rows: Int) {
        (max(40, geometry.columns.minimum().needed), geometry.rows.minimum().needed + 5)
    }

    /// Both axes' requirements and the frames they came from: worked out once per frame.
    private typealias Geometry = (
        columns: Axis, rows: Axis, frames: [(node: FocusNode, frame: Rect, hasChildren: Bool)]
    )

    private func axes() -> Geometry {
        let nodes = visibleFrames()
        var frames: [ObjectIdentifier: Rect] = [:]
        var columns = Axis()
        var rows = Axis()
        for (node, parent, frame, hasChildren) in nodes {
            frames[ObjectIdentifier(node)] = frame
            // A box needs its two borders and a row inside; a leaf one row, and room for its ends.
            rows.require(frame.minY, frame.maxY, cells: hasChildren ? 3 : 1)
            columns.require(frame.minX, frame.maxX, cells: hasChildren ? 3 : 4)
            if let parent, let outer = frames[ObjectIdentifier(parent)] {
                rows.require(outer.minY, frame.minY, cells: 1)
                rows.require(frame.maxY, outer.maxY, cells: 1)
                columns.require(outer.minX, frame.minX, cells: 1)
                columns.require(frame.maxX, outer.maxX, cells: 1)
            }
        }
        return (columns, rows, nodes.map { ($0.node, $0.frame, $0.hasChildren) })
    }

    /// Lays the scene out in cells (see ``Axis``); a node less than three rows high is drawn
    /// flat, on its first row.
    private func layout(top: Int, height: Int, columns: Int, geometry: Geometry) -> [ObjectIdentifier: Cells] {
        let (columnAxis, rowAxis, frames) = geometry
        let xs = columnAxis.positions(count: columns)
        let ys = rowAxis.positions(count: height)
        var cells: [ObjectIdentifier: Cells] = [:]
        for (node, frame, _) in frames {
            let left = xs[frame.minX, default: 0]
            let upper = top + ys[frame.minY, default: 0]
            cells[ObjectIdentifier(node)] = Cells(
                left: left, right: max(xs[frame.maxX, default: columns], left + 1),
                upper: upper, lower: max(top + ys[frame.maxY, default: height], upper + 1))
        }
        return cells
    }

    private func drawScene(_ canvas: inout Canvas, top: Int, height: Int, geometry: Geometry) {
        let columns = canvas.columns
        let cells = layout(top: top, height: height, columns: columns, geometry: geometry)
        let focused = session.focusSystem.focusedItem.map { ObjectIdentifier($0) }
        let firstResponder = scene.window.firstResponder.map { ObjectIdentifier($0) }
        let currentGroup = session.focusedGroup
        let tabStops = Dictionary(
            session.focusSystem.tabLoop.enumerated().compactMap { index, item in
                (item as? FocusNode).map { (ObjectIdentifier($0), index + 1) }
            },
            uniquingKeysWith: { first, _ in first })
        canvas.box(0, top, columns - 1, top + height - 1, .single, .faint)
        let groupOutline = currentGroupExtent().map { ObjectIdentifier($0) }
        canvas.text(" \(scene.name) ", 2, top, .heading, limit: columns - 4)
        for id in scene.nodeOrder {
            guard let node = scene.nodes[id], node !== scene.root, !isHidden(node),
                let rect = cells[ObjectIdentifier(node)]
            else { continue }
            let key = ObjectIdentifier(node)
            let isFocused = focused == key
            let inGroup = currentGroup != nil && groupOf(node) == currentGroup
            let isOutline = groupOutline == key
            let style: CellStyle = isFocused ? .focused : inGroup || isOutline ? .group : .plain
            let line: Canvas.Line = isFocused ? .double : isOutline ? .heavy : .single
            if rect.isFlat || node.children.isEmpty && rect.lower - rect.upper < 3 {
                canvas.flat(rect.left, rect.right - 1, rect.upper, line, style)
            } else {
                canvas.box(rect.left, rect.upper, rect.right - 1, rect.lower - 1, line, style)
            }
            // Everything said about a node goes on its top row: label, tab stop, group.
            var label = id
            if firstResponder == key { label = "*" + label }
            if let input = node as? TextInputNode, input.isSecureTextEntry { label += " (secure)" }
            let room = rect.right - rect.left - 2
            canvas.text(
                label, rect.left + 1, rect.upper,
                isFocused ? .focused : firstResponder == key ? .firstResponder : style, limit: room)
            var end = rect.left + 1 + min(label.count, room)
            if showsTabLoop, let stop = tabStops[key] {
                let number = " \(stop) "
                canvas.text(number, end, rect.upper, .overlay, limit: rect.right - 1 - end)
                end += number.count
            }
            if showsGroups, node.isFocusable, let group = groupOf(node) {
                let name = " \(group) "
                let start = max(end + 1, rect.right - 1 - name.count)
                canvas.text(name, start, rect.upper, .overlay, limit: rect.right - 1 - start)
            }
        }
    }

    /// The node that spans the focused item's group: its largest ancestor, below the window's
    /// root, whose focusable descendants are all in that group; `nil` when the group is the item
    /// alone.
    private func currentGroupExtent() -> FocusNode? {
        guard let focused = session.focusSystem.focusedItem as? FocusNode, let group = groupOf(focused) else {
            return nil
        }
        func allInGroup(_ node: FocusNode) -> Bool {
            if node.isFocusable && !node.isHidden && groupOf(node) != group { return false }
            return node.children.allSatisfy { child in (child as? FocusNode).map(allInGroup) ?? true }
        }
        var extent: FocusNode?
        var current = focused.parent as? FocusNode
        while let node = current, node !== scene.root, allInGroup(node) {
            extent = node
            current = node.parent as? FocusNode
        }
        return extent
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
        // While keys go into a secure field, which keys are down is as secret as what they type.
        let secure = session.dispatcher.isSecureEntry
        let held = session.dispatcher.keyboardState.pressedKeys.map { secure ? "•" : $0.name }
        let modifiers = secure ? "•" : session.dispatcher.keyboardState.modifierFlags.description
        let first =
            "focus \(session.focusedID ?? "none") │ first responder \(session.firstResponderID ?? "none")"
            + " │ group \(session.focusedGroup ?? "none")"
        let keyboard =
            showsKeyboardState
            ? "held \(held.isEmpty ? "-" : held.joined(separator: " ")) │ modifiers \(modifiers.isEmpty ? "-" : modifiers) │ "
            : ""
        let second =
            keyboard
            + "layout \(layoutName) │ \(inputNote) │ " + (speechNote.map { "\($0) │ " } ?? "")
            + "F2 tab loop\(showsTabLoop ? " (on)" : "") F3 groups\(showsGroups ? " (on)" : "") Ctrl-C quit"
        canvas.text(first, 0, row, .heading, limit: canvas.columns)
        canvas.text(second, 0, row + 1, .plain, limit: canvas.columns)
    }

    private func drawTrace(_ canvas: inout Canvas, top: Int, height: Int) {
        guard height > 0 else { return }
        let lines = session.history.suffix(height)
        for (offset, event) in lines.enumerated() {
            let style: CellStyle
            switch event.kind {
            case .stage: style = .faint
            case .focus, .keyCommand: style = .heading
            default: style = .plain
            }
            canvas.text(event.plainLine, 0, top + offset, style, limit: canvas.columns)
        }
    }
}
