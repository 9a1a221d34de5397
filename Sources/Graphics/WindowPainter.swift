public import ResponderChain

/// Draws a window's nodes on a screen and works out what to draw again: the link between a
/// focus tree and a pixel output.
///
/// Each frame the output asks for ``takeDamage()``, the rectangles that changed since the last
/// frame, and when there are any, has them drawn with ``paint(_:in:)`` into its buffer. What
/// changed is followed without the app's help:
///
/// - a node's `FocusNode.setNeedsDisplay()` (a label's text, a field's cursor, a pressed or
///   selected state): that node;
/// - a focus move: the two items, with their focus effects, and the outlines of the groups focus
///   entered or left (`FocusNode.focusContainmentRedraw`);
/// - a node added, removed, moved, resized, shown or hidden: where it was and where it is.
///
/// So a focus move costs the two items, whatever the size of the screen, and an app that changes
/// nothing costs nothing: ``takeDamage()`` is empty and the output shows no new frame.
///
/// Nodes draw themselves (`FocusNode.draw(in:state:)`) in tree order, parents under children;
/// the focused item's `FocusEffect` is drawn last, over everything.
///
/// An output that can show a layer over the window (a Wayland subsurface, as Core Animation shows a
/// focused view's layer on tvOS) sets ``drawsFocusedItemApart``: the window then draws every item at
/// rest, the focused one too, and the output shows ``focusLayer()``, painted by
/// ``paintFocusLayer(_:in:)``, over it. A focus move then changes nothing in the window.
///
/// ```swift
/// let painter = WindowPainter(window: window, size: Size(width: 1280, height: 800))
/// let damage = painter.takeDamage()                 // at each frame the output may show
/// if !damage.isEmpty { painter.paint(damage, in: context) }
/// ```
@MainActor
public final class WindowPainter {
    /// The window drawn.
    public let window: Window
    /// The window's size in points: what ``paint(_:in:)`` covers. Changing it draws everything.
    public var size: Size {
        didSet { if size != oldValue { invalidateAll() } }
    }
    /// What is under every node: the window's `Window.backgroundColor`.
    public var backgroundColor: Color { window.backgroundColor }
    /// The colour of the `FocusEffect.automatic` ring and of rings without their own: the
    /// window's `Window.tintColor`.
    public var focusColor: Color { window.tintColor }

    /// What each node drawn last covered (its frame, its drawing outset and focus effect), by node.
    private var painted: [ObjectIdentifier: Rect] = [:]
    /// The window's layout generation at the last walk.
    private var walkedGeneration: UInt64 = .max
    /// What changed since the last ``takeDamage()``.
    private var pending = DamageRegion()
    /// Whether everything is to be drawn.
    private var needsEverything = true
    /// The focus system observed, and the observation.
    private weak var observedFocusSystem: FocusSystem?
    private var observation: UInt64?
    /// The ancestors of the focused item while painting (reused: painting allocates nothing for it).
    private var focusChain: [ObjectIdentifier] = []
    /// The damage rectangles of the frame being painted, in whole points.
    private var rects: [Rect] = []
    /// The node the window's buffer shows as first responder (`DrawingState.isFirstResponder`: a
    /// field's caret), and the one it shows so in the paint under way: not the item left to a layer.
    private var drawnFirstResponder: FocusNode?
    private var paintingFirstResponder: FocusNode?

    /// Whether the focused item is left to a layer over the window: the window draws it at rest
    /// (unfocused, not first responder, without its focus effect), and a focus move damages only the outlines of the
    /// groups it crossed; the output shows ``focusLayer()`` over the window. An item whose layer
    /// would cover more than a quarter of the window is drawn in the window as usual. Changing it
    /// draws everything.
    public var drawsFocusedItemApart = false {
        didSet { if drawsFocusedItemApart != oldValue { invalidateAll() } }
    }

    /// How many frames were painted, and how many nodes were drawn in all: for tests and the
    /// frame log.
    public private(set) var framesPainted = 0
    /// How many times a node's `FocusNode.draw(in:state:)` was called.
    public private(set) var nodesDrawn = 0

    /// Starts drawing a window: from now on its nodes record what they need drawn again.
    ///
    /// - Parameters:
    ///   - window: The window (its `Window.backgroundColor` and
    ///     `Window.tintColor` are the background and the focus ring's colour).
    ///   - size: Its size in points.
    public init(window: Window, size: Size) {
        self.window = window
        self.size = size
        window.isDisplayObserved = true
        if window.minimumTargetSize == nil { window.minimumTargetSize = Self.minimumTargetSize }
    }

    /// The smallest target a finger can hit, in points (WCAG 2.5.5): a painted window's
    /// `Window.minimumTargetSize` unless the app set one.
    public static let minimumTargetSize = 44.0

    /// Stops following the window (its nodes stop recording what they need drawn).
    public func detach() {
        window.isDisplayObserved = false
        if let observation, let observedFocusSystem { observedFocusSystem.removeObserver(observation) }
        observation = nil
    }

    /// Draws everything at the next frame (the output lost what it showed).
    public func invalidateAll() {
        needsEverything = true
    }

    /// The window's bounds in points.
    public var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// The focused item's layer, when ``drawsFocusedItemApart``: the item and the rectangle, in
    /// whole points within the window, that its focused look and effect cover; `nil` when nothing
    /// is focused, the item is hidden, or it is drawn in the window.
    ///
    /// - Returns: The item and its layer's rectangle.
    public func focusLayer() -> (item: FocusNode, rect: Rect)? {
        guard drawsFocusedItemApart, let focused = window.focusSystem?.focusedItem as? FocusNode,
            let rect = layerRect(of: focused)
        else { return nil }
        return (focused, rect)
    }

    /// Paints the window as it is, the focused item focused with its effect, within a rectangle:
    /// the focused item's layer (``focusLayer()``), opaque, to show over a window that drew it at
    /// rest. The context's origin is the window's.
    ///
    /// - Parameters:
    ///   - rect: The layer's rectangle, in whole points.
    ///   - context: Where: the layer's buffer, translated so that the window's points land in it.
    public func paintFocusLayer(_ rect: Rect, in context: any GraphicsContext) {
        var region = DamageRegion()
        region.add(rect)
        paint(region, in: context, apart: false)
    }

    /// The rectangle of whole points within the window that a focused node's layer covers, or
    /// `nil` when the node is drawn in the window (hidden, not in it, or a layer larger than a
    /// quarter of the window: drawing it there costs no more).
    private func layerRect(of node: FocusNode) -> Rect? {
        guard isVisible(node) else { return nil }
        let rect = Self.wholePoints(coverage(of: node, focused: true)).intersection(bounds)
        guard !rect.isEmpty, rect.width * rect.height * 4 <= size.width * size.height else { return nil }
        return rect
    }

    /// The node the window's buffer draws as first responder: the window's first responder unless
    /// it is the item left to a layer.
    private var windowFirstResponder: FocusNode? {
        guard let node = window.firstResponder as? FocusNode else { return nil }
        if drawsFocusedItemApart, window.focusSystem?.focusedItem === node, layerRect(of: node) != nil { return nil }
        return node
    }

    /// Whether the window draws a node focused, with its effect: it is focused and not left to a layer.
    private func isDrawnFocused(_ node: FocusNode) -> Bool {
        guard window.focusSystem?.focusedItem === node else { return false }
        return !drawsFocusedItemApart || layerRect(of: node) == nil
    }

    /// Whether something changed since the last ``takeDamage()``: cheap, for an output deciding
    /// whether to ask for a frame.
    public var needsFrame: Bool {
        needsEverything || !pending.isEmpty || !window.displayInvalidations.isEmpty
            || window.displayInvalidationsOverflowed || walkedGeneration != window.layoutGeneration
    }

    /// What changed since the last call, in points, clipped to the window; empty when nothing did.
    ///
    /// - Returns: The region to draw.
    public func takeDamage() -> DamageRegion {
        observeFocus()
        var everything = needsEverything
        window.takeDisplayInvalidations { invalidations, overflowed in
            if overflowed { everything = true }
            for (node, rect) in invalidations where !everything {
                if let rect {
                    pending.add(rect)
                } else {
                    addNode(node)
                }
            }
        }
        // The first responder's look (a field's caret) moves with it, also when focus does not (an
        // on-screen keyboard's key typing into a field) or when only the layer shows it.
        let firstResponder = windowFirstResponder
        if firstResponder !== drawnFirstResponder {
            if !everything {
                if let drawnFirstResponder { addNode(drawnFirstResponder) }
                if let firstResponder { addNode(firstResponder) }
            }
            drawnFirstResponder = firstResponder
        }
        if walkedGeneration != window.layoutGeneration || everything {
            walk(reportingChanges: !everything)
        }
        needsEverything = false
        var damage = everything ? DamageRegion() : pending
        if everything { damage.add(bounds) }
        pending = DamageRegion()
        damage.clip(to: bounds)
        return damage
    }

    /// Draws the window's nodes that reach into the region, clipped to it, over the background.
    ///
    /// - Parameters:
    ///   - damage: What to draw (``takeDamage()``).
    ///   - context: Where: the output's buffer, in points.
    public func paint(_ damage: DamageRegion, in context: any GraphicsContext) {
        paint(damage, in: context, apart: drawsFocusedItemApart)
    }

    private func paint(_ damage: DamageRegion, in context: any GraphicsContext, apart: Bool) {
        guard !damage.isEmpty else { return }
        framesPainted += 1
        let focusSystem = window.focusSystem
        var focused = focusSystem?.focusedItem as? FocusNode
        // Left to a layer: drawn here at rest, as if unfocused and not first responder, its ancestors
        // containing focus.
        let resting = apart && focused.map { layerRect(of: $0) != nil } == true
        paintingFirstResponder = apart ? windowFirstResponder : window.firstResponder as? FocusNode
        defer { paintingFirstResponder = nil }
        focusChain.removeAll(keepingCapacity: true)
        var ancestor = focused?.parent
        while let node = ancestor {
            focusChain.append(ObjectIdentifier(node))
            ancestor = node.parent
        }
        if resting { focused = nil }
        let lifted: FocusNode? = {
            guard let focused, !focused.isHidden, case .lift = focused.focusEffect else { return nil }
            return focused
        }()
        // Whole points: a clip edge inside a pixel would blend that pixel's column or row again
        // over what it showed (a faint seam across a card) and take Cairo's masked path for every
        // shape drawn. The output damages the enclosing pixels anyway. The region's rectangles do
        // not overlap; rounded out they may by a point, which the union clip draws once.
        rects.removeAll(keepingCapacity: true)
        for damaged in damage.rects { rects.append(Self.wholePoints(damaged)) }
        // One pass over the tree for all the rectangles, each node drawn once within their union:
        // a Tab's two rectangles drew the nodes both reach (a card, the tiles whose shadows reach
        // in) twice, and Cairo's cost per shape is fixed.
        context.withSavedState {
            if rects.count == 1 { context.clip(to: rects[0]) } else { context.clip(to: rects) }
            for rect in rects { context.fill(.rect(rect), backgroundColor) }
            for child in window.children {
                paint(
                    child, context: context, focused: focused, skipping: lifted, direction: window.layoutDirection)
            }
            if let focused, !focused.isHidden, isVisible(focused) {
                drawFocusEffect(of: focused, context: context)
            }
        }
    }

    /// Whether a rectangle meets any of the frame's damage rectangles.
    private func reachesDamage(_ area: Rect) -> Bool {
        for rect in rects where area.intersects(rect) { return true }
        return false
    }

    /// The smallest rectangle of whole points that holds a rectangle: whole device pixels at any
    /// integer scale.
    static func wholePoints(_ rect: Rect) -> Rect {
        let left = rect.minX.rounded(.down)
        let top = rect.minY.rounded(.down)
        return Rect(x: left, y: top, width: rect.maxX.rounded(.up) - left, height: rect.maxY.rounded(.up) - top)
    }

    // MARK: - Damage

    /// Follows the window's focus system, whichever it is now.
    private func observeFocus() {
        guard let focusSystem = window.focusSystem, focusSystem !== observedFocusSystem else { return }
        if let observation, let observedFocusSystem { observedFocusSystem.removeObserver(observation) }
        observedFocusSystem = focusSystem
        observation = focusSystem.addObserver { [weak self] context in
            self?.focusMoved(from: context.previouslyFocusedItem, to: context.nextFocusedItem)
        }
    }

    /// The two items with their effects, and the group outlines focus crossed.
    private func focusMoved(from previous: (any FocusItem)?, to next: (any FocusItem)?) {
        let old = previous as? FocusNode
        let new = next as? FocusNode
        // Left to a layer, an item looks the same in the window focused or not.
        if let old, !drawsFocusedItemApart || layerRect(of: old) == nil { addNode(old, effect: true) }
        if let new, !drawsFocusedItemApart || layerRect(of: new) == nil { addNode(new, effect: true) }
        // Ancestors of exactly one of the two: focus entered or left them.
        var oldAncestors: [ObjectIdentifier] = []
        var node = old?.parent
        while let current = node {
            oldAncestors.append(ObjectIdentifier(current))
            node = current.parent
        }
        var shared: Set<ObjectIdentifier> = []
        node = new?.parent
        while let current = node {
            let id = ObjectIdentifier(current)
            if oldAncestors.contains(id) {
                shared.insert(id)
            } else if let container = current as? FocusNode {
                addContainment(container)
            }
            node = current.parent
        }
        node = old?.parent
        while let current = node {
            if !shared.contains(ObjectIdentifier(current)), let container = current as? FocusNode {
                addContainment(container)
            }
            node = current.parent
        }
    }

    private func addContainment(_ container: FocusNode) {
        guard !container.isHidden else { return }
        switch container.focusContainmentRedraw {
        case .none: return
        case .frame: pending.add(container.frame)
        case .outline(let width):
            let frame = container.frame
            let band = max(0, width)
            pending.add(
                Rect(x: frame.minX - band, y: frame.minY - band, width: frame.width + 2 * band, height: 2 * band))
            pending.add(
                Rect(x: frame.minX - band, y: frame.maxY - band, width: frame.width + 2 * band, height: 2 * band))
            pending.add(
                Rect(x: frame.minX - band, y: frame.minY - band, width: 2 * band, height: frame.height + 2 * band))
            pending.add(
                Rect(x: frame.maxX - band, y: frame.minY - band, width: 2 * band, height: frame.height + 2 * band))
        }
    }

    /// A node's area now and where it was last drawn; with `effect`, its focus effect's area too
    /// (focus came or went).
    private func addNode(_ node: FocusNode, effect: Bool = false) {
        let id = ObjectIdentifier(node)
        if let was = painted[id] { pending.add(was) }
        guard isVisible(node) else {
            painted[id] = nil
            return
        }
        let now = coverage(of: node, focused: isDrawnFocused(node))
        pending.add(now)
        if effect { pending.add(coverage(of: node, focused: true)) }
        painted[id] = now
    }

    /// What drawing a node can touch: its frame, its outset, its focus effect when focused.
    private func coverage(of node: FocusNode, focused: Bool) -> Rect {
        var rect = node.frame
        let outset = node.drawingOutset
        if outset > 0 { rect = rect.insetBy(dx: -outset, dy: -outset) }
        if focused {
            let reach = node.focusEffect.reach(for: node.frame)
            rect = rect.union(
                Rect(
                    x: node.frame.minX - reach.left, y: node.frame.minY - reach.top,
                    width: node.frame.width + reach.left + reach.right,
                    height: node.frame.height + reach.top + reach.bottom))
        }
        return rect
    }

    /// Whether neither the node nor an ancestor is hidden, and it is in this window.
    private func isVisible(_ node: FocusNode) -> Bool {
        guard node.window === window else { return false }
        var current: Responder? = node
        while let responder = current {
            if let focusNode = responder as? FocusNode, focusNode.isHidden { return false }
            current = responder.parent
        }
        return true
    }

    /// Compares every visible node's coverage with what was drawn: moved, resized, shown, hidden,
    /// added and removed nodes are damaged where they were and where they are.
    private func walk(reportingChanges: Bool) {
        walkedGeneration = window.layoutGeneration
        let focused = window.focusSystem?.focusedItem as? FocusNode
        let drawnFocused = focused.map(isDrawnFocused) ?? false
        var seen: [ObjectIdentifier: Rect] = [:]
        seen.reserveCapacity(painted.count)
        func visit(_ responder: Responder) {
            if let node = responder as? FocusNode {
                if node.isHidden { return }
                let id = ObjectIdentifier(node)
                let now = coverage(of: node, focused: drawnFocused && node === focused)
                seen[id] = now
                if reportingChanges, painted[id] != now {
                    if let was = painted[id] { pending.add(was) }
                    pending.add(now)
                }
            }
            for child in responder.children { visit(child) }
        }
        for child in window.children { visit(child) }
        if reportingChanges {
            for (id, was) in painted where seen[id] == nil { pending.add(was) }
        }
        painted = seen
    }

    // MARK: - Painting

    private func paint(
        _ responder: Responder, context: any GraphicsContext, focused: FocusNode?,
        skipping lifted: FocusNode?, direction inherited: LayoutDirection
    ) {
        var direction = inherited
        if let node = responder as? FocusNode {
            if node.isHidden || node === lifted { return }
            direction = node.layoutDirection ?? inherited
            if reachesDamage(coverage(of: node, focused: false)) {
                draw(node, context: context, focused: focused, direction: direction)
            }
        }
        for child in responder.children {
            paint(child, context: context, focused: focused, skipping: lifted, direction: direction)
        }
    }

    private func draw(_ node: FocusNode, context: any GraphicsContext, focused: FocusNode?, direction: LayoutDirection)
    {
        let state = DrawingState(
            isFocused: node === focused, isPressed: node.isPressed, isEnabled: node.isEnabled,
            isSelected: node.isSelected, containsFocus: focusChain.contains(ObjectIdentifier(node)),
            isFirstResponder: paintingFirstResponder === node, layoutDirection: direction)
        nodesDrawn += 1
        let recorder = context as? DrawingRecorder
        recorder?.beginNode(name: node.traceName, state: state)
        context.withSavedState {
            context.layoutDirection = direction
            node.draw(in: context, state: state)
        }
        recorder?.endNode()
    }

    /// The focused item's effect, over everything: a ring, or the item lifted over its shadow.
    private func drawFocusEffect(of node: FocusNode, context: any GraphicsContext) {
        guard reachesDamage(coverage(of: node, focused: true)) else { return }
        let frame = node.frame
        switch node.focusEffect {
        case .none: return
        case .automatic:
            drawRing(around: frame, color: focusColor, width: 4, gap: 3, cornerRadius: node.cornerRadius, context)
        case .ring(let color, let width, let gap, let radius):
            drawRing(
                around: frame, color: color ?? focusColor, width: width, gap: gap,
                cornerRadius: radius ?? node.cornerRadius, context)
        case .lift(let scale, let shadow):
            let direction = node.effectiveLayoutDirection
            context.withSavedState {
                context.translate(x: frame.midX, y: frame.midY)
                context.scale(by: scale)
                context.translate(x: -frame.midX, y: -frame.midY)
                context.withSavedState {
                    context.setShadow(shadow)
                    context.fill(
                        .roundedRect(frame, cornerRadius: node.cornerRadius), node.backgroundColor ?? backgroundColor)
                }
                paintLifted(node, context: context, direction: direction)
            }
        }
    }

    private func paintLifted(_ responder: Responder, context: any GraphicsContext, direction inherited: LayoutDirection)
    {
        var direction = inherited
        if let node = responder as? FocusNode {
            if node.isHidden { return }
            direction = node.layoutDirection ?? inherited
            draw(node, context: context, focused: window.focusSystem?.focusedItem as? FocusNode, direction: direction)
        }
        for child in responder.children { paintLifted(child, context: context, direction: direction) }
    }

    private func drawRing(
        around frame: Rect, color: Color, width: Double, gap: Double, cornerRadius: Double,
        _ context: any GraphicsContext
    ) {
        let offset = gap + width / 2
        let ring = frame.insetBy(dx: -offset, dy: -offset)
        context.stroke(
            .roundedRect(ring, cornerRadius: cornerRadius > 0 ? cornerRadius + offset : 0), color, lineWidth: width)
    }
}
