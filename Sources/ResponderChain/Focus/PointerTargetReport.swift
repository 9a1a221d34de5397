/// What a tap or a click would do on each item of a window now: where it can be reached, and what
/// it would run. The touch and pointer side of ``KeyCommandConflictReport``: an item that another
/// one covers whole can never be tapped (as a shadowed key command can never fire), which is a
/// conflict; `keytrace --conflicts` prints both, and tests check them without a screen:
///
/// ```swift
/// let targets = PointerTargetReport(app.focusSystem)
/// #expect(targets.conflicts.isEmpty, "\(targets)")
/// let pay = try #require(targets.entry("pay")?.tapPoint)
/// app.tap(at: pay)                       // the point a finger would use, not covered by anything
/// ```
///
/// The report uses the focus system's own hit test (``FocusSystem/item(at:)``: the last item in
/// document order whose frame holds the point, inside the current modal scope) and the responder
/// chain's own action lookup, without performing anything.
public struct PointerTargetReport: CustomStringConvertible, Sendable {
    /// Where an item can be tapped.
    public enum Reach: Hashable, Sendable, CustomStringConvertible {
        /// Anywhere in its frame.
        case whole
        /// In part of its frame: the items named cover the rest.
        case partly(coveredBy: [String])
        /// Nowhere: the items named cover all of it (drawn after it, so on top).
        case none(coveredBy: [String])

        /// A short phrase.
        public var description: String {
            switch self {
            case .whole: return "reachable"
            case .partly(let names): return "partly covered by \(names.joined(separator: ", "))"
            case .none(let names): return "covered by \(names.joined(separator: ", ")): a tap never reaches it"
            }
        }
    }

    /// What a tap (or a click) that lifts on the item does.
    public enum Outcome: Hashable, Sendable, CustomStringConvertible {
        /// A responder performs the item's primary action.
        case performs(Action, responder: String)
        /// The item is a text input: it takes focus and becomes first responder.
        case takesFocus
        /// Nothing, and why.
        case nothing(reason: String)

        /// A short phrase.
        public var description: String {
            switch self {
            case .performs(let action, let responder): return "\(responder) performs \(action.rawValue)"
            case .takesFocus: return "takes focus (text input)"
            case .nothing(let reason): return "nothing: \(reason)"
            }
        }
    }

    /// One item.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// The item's debug name (its identifier, as in traces).
        public var item: String
        /// Its frame, in the window's coordinates.
        public var frame: Rect
        /// Where it can be tapped.
        public var reach: Reach
        /// A point a tap reaches it at: its centre when that is uncovered, else the centre of the
        /// largest uncovered part; `nil` when it cannot be reached.
        public var tapPoint: Point?
        /// What a tap does.
        public var outcome: Outcome
        /// Whether its frame is narrower or shorter than the window's
        /// ``Window/minimumTargetSize`` (a finger misses it); `false` when the window sets none.
        public var isTooSmall = false

        /// Whether the item can never be tapped: a conflict between the items' frames.
        public var isConflict: Bool {
            if case .none = reach { return true }
            return false
        }

        /// One line: item, frame, reach, outcome; control characters escaped.
        public var description: String {
            let line: String
            if case .none = reach {
                line = "\(item) \(frame): \(reach)"
            } else {
                line = "\(item) \(frame): \(reach); a tap: \(outcome)"
            }
            if isTooSmall { return (line + "; too small for a finger").escapingControlCharacters() }
            return line.escapingControlCharacters()
        }
    }

    /// Every item a tap can be aimed at (focusable, or activated only), in document order.
    public var entries: [Entry]
    /// The smallest width and height a target should have (``Window/minimumTargetSize``), or
    /// `nil` when sizes are not checked.
    public var minimumTargetSize: Double?

    /// Makes the report for the focus system's window now: the items of the current modal scope.
    ///
    /// - Parameter focusSystem: The focus system.
    @MainActor
    public init(_ focusSystem: FocusSystem) {
        focusSystem.refreshSnapshot()
        let items = focusSystem.snapshot.items.filter { item in
            switch item.focusability {
            case .focusable, .activateOnlyWithoutFullKeyboardAccess:
                return item.frame.width > 0 && item.frame.height > 0
            default: return false
            }
        }
        let minimum = focusSystem.window.minimumTargetSize
        minimumTargetSize = minimum
        entries = items.enumerated().map { index, item in
            let above = items[(index + 1)...].filter { $0.frame.overlaps(item.frame) }
            let (reach, point) = Self.reach(of: item.frame, under: above.map { ($0.item.focusDebugName, $0.frame) })
            var entry = Entry(
                item: item.item.focusDebugName, frame: item.frame, reach: reach, tapPoint: point,
                outcome: Self.outcome(of: item.item, in: focusSystem))
            if let minimum { entry.isTooSmall = item.frame.width < minimum || item.frame.height < minimum }
            return entry
        }
    }

    /// The entry of an item, by its debug name.
    ///
    /// - Parameter name: The item's name.
    /// - Returns: The entry, or `nil`.
    public func entry(_ name: String) -> Entry? {
        entries.first { $0.item == name }
    }

    /// The items that can never be tapped.
    public var conflicts: [Entry] { entries.filter(\.isConflict) }

    /// The items smaller than ``minimumTargetSize`` in width or height.
    public var tooSmall: [Entry] { entries.filter(\.isTooSmall) }

    /// The report as text: a heading, then one line per item.
    public var description: String {
        var text = "Touch and pointer targets: \(entries.count) items, \(conflicts.count) conflicts"
        if let minimumTargetSize {
            text += ", \(tooSmall.count) smaller than \(Size(width: minimumTargetSize, height: minimumTargetSize))"
        }
        text += "\n"
        for entry in entries { text += "  " + entry.description + "\n" }
        return text
    }

    /// Which part of a frame no item above covers: split the frame at every edge of the covering
    /// frames, and look at each piece's centre.
    static func reach(of frame: Rect, under above: [(name: String, frame: Rect)]) -> (Reach, Point?) {
        let center = Point(x: frame.midX, y: frame.midY)
        guard !above.isEmpty else { return (.whole, center) }
        func clamp(_ values: [Double], _ low: Double, _ high: Double) -> [Double] {
            Array(Set(values.map { min(max($0, low), high) } + [low, high])).sorted()
        }
        let xs = clamp(above.flatMap { [$0.frame.minX, $0.frame.maxX] }, frame.minX, frame.maxX)
        let ys = clamp(above.flatMap { [$0.frame.minY, $0.frame.maxY] }, frame.minY, frame.maxY)
        var covering: Set<String> = []
        var uncoveredArea = 0.0
        var largest: (area: Double, point: Point)?
        for (left, right) in zip(xs, xs.dropFirst()) where right > left {
            for (top, bottom) in zip(ys, ys.dropFirst()) where bottom > top {
                let point = Point(x: (left + right) / 2, y: (top + bottom) / 2)
                if let cover = above.last(where: { $0.frame.contains(point) }) {
                    covering.insert(cover.name)
                } else {
                    let area = (right - left) * (bottom - top)
                    uncoveredArea += area
                    if area > (largest?.area ?? 0) { largest = (area, point) }
                }
            }
        }
        let names = above.map(\.name).filter { covering.contains($0) }
        guard let largest else { return (.none(coveredBy: names), nil) }
        if names.isEmpty { return (.whole, center) }
        let centerFree = !above.contains { $0.frame.contains(center) }
        return (.partly(coveredBy: names), centerFree ? center : largest.point)
    }

    /// What ``FocusSystem/activate(at:)`` would do with the item, without doing it.
    @MainActor
    static func outcome(of item: any FocusItem, in focusSystem: FocusSystem) -> Outcome {
        let name = item.focusDebugName
        if let input = item as? Responder, input.asTextInputResponder != nil { return .takesFocus }
        guard let action = item.primaryAction else { return .nothing(reason: "\(name) has no primary action") }
        let start =
            focusSystem.nearestResponder(at: item, requiringFirstResponder: false) ?? focusSystem.window.firstResponder
            ?? focusSystem.window
        guard let target = start.target(forAction: action, sender: .focusSelection) else {
            return .nothing(reason: "no responder can perform \(action.rawValue) for \(name)")
        }
        return .performs(action, responder: target.traceName)
    }
}

extension Rect {
    /// Whether the two frames share some area (touching edges do not).
    fileprivate func overlaps(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}
