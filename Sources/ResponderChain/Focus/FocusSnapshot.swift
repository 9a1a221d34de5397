/// Why an item can or cannot be focused now.
public enum Focusability: Hashable, Sendable, CustomStringConvertible {
    /// It can be focused.
    case focusable
    /// The item itself is hidden.
    case hidden
    /// An ancestor environment is hidden.
    case ancestorHidden(String)
    /// Its frame has no area.
    case zeroSize
    /// ``FocusItem/canBecomeFocused`` is `false`.
    case notFocusable
    /// It is reached by activation only and full keyboard access is off.
    case activateOnlyWithoutFullKeyboardAccess

    /// A short sentence.
    public var description: String {
        switch self {
        case .focusable: return "focusable"
        case .hidden: return "not focusable: hidden"
        case .ancestorHidden(let name): return "not focusable: ancestor \(name) is hidden"
        case .zeroSize: return "not focusable: zero size"
        case .notFocusable: return "not focusable: canBecomeFocused is false"
        case .activateOnlyWithoutFullKeyboardAccess:
            return "not focusable: activate-only (like a button) and full keyboard access is off"
        }
    }
}

/// What changed about an environment, for ``FocusSystem/invalidateLayout(of:changes:)``: the
/// focus system updates its picture of the tree in place for frame, visibility and focusability
/// changes of single environments, and rebuilds it for anything else.
public struct FocusLayoutChanges: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates a set from raw bits.
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ``FocusEnvironment/focusFrame`` changed.
    public static let frame = FocusLayoutChanges(rawValue: 1 << 0)
    /// ``FocusEnvironment/isHiddenFromFocus`` changed.
    public static let visibility = FocusLayoutChanges(rawValue: 1 << 1)
    /// ``FocusItem/canBecomeFocused`` or ``FocusItem/focusInteractions`` changed.
    public static let focusability = FocusLayoutChanges(rawValue: 1 << 2)
    /// Anything else: children, group declarations, roles, directions.
    public static let structure = FocusLayoutChanges(rawValue: 1 << 3)
    /// Every kind of change; the focus system rebuilds its picture of the tree.
    public static let all: FocusLayoutChanges = [.frame, .visibility, .focusability, .structure]
}

/// A focus group's identifier as a focus update carries it: built into a string only when read,
/// so that moving focus between single-item groups allocates nothing.
@MainActor
enum FocusGroupName {
    case named(String)
    case singleItem(any FocusItem)

    /// The identifier: the declared or automatic one, or "<item> (single item)".
    var identifier: String {
        switch self {
        case .named(let name): return name
        case .singleItem(let item): return item.focusDebugName + FocusSnapshot.singleItemSuffix
        }
    }

    /// Whether a group is a single item's own group (never remembered).
    var isSingleItem: Bool {
        if case .singleItem = self { return true }
        return false
    }

    /// The same group: equal names, or the same single item.
    static func same(_ lhs: FocusGroupName?, _ rhs: FocusGroupName?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (.named(let a)?, .named(let b)?): return a == b
        case (.singleItem(let a)?, .singleItem(let b)?): return a === b
        default: return false
        }
    }
}

/// The focus system's picture of the tree at one layout generation: items, groups, guides,
/// sections and the tab loop.
///
/// Built in one pass over the tree (``init(root:rootDirection:fullKeyboardAccess:)``), then kept
/// up to date in place when single environments change their frame, visibility or focusability
/// (``apply(_:to:fullKeyboardAccess:)``): each group keeps its blocks (its own members and its
/// child groups) sorted in reading order, so a moved item is taken out of its parent's list and
/// put back by binary search, and the tab loop is read off the lists again.
@MainActor
struct FocusSnapshot {
    static let singleItemSuffix = " (single item)"

    struct Item {
        let item: any FocusItem
        var frame: Rect
        /// The group the item belongs to: its nearest declared or automatic group, or, once it has
        /// been focusable in no group, the single-item group opened for it.
        var group: Int
        /// The nearest declared or automatic group above the item (0 for none).
        let inheritedGroup: Int
        let treeOrder: Int
        var focusability: Focusability
        /// The index into `environments` of the item itself.
        let environment: Int
        var isFocusable: Bool
        /// The reading direction at the item.
        let direction: LayoutDirection
        /// The app's order (``FocusEnvironment/focusTraversalOrder``), or `nil`.
        let traversalOrder: Double?
    }

    struct Group {
        /// The declared or automatic identifier; empty for single-item groups (see `identifier(of:)`).
        let name: String
        /// The item of a single-item group, else -1.
        let singleItem: Int
        /// The environment that declares the group (`nil` for the root and single-item groups).
        let declarer: (any FocusEnvironment)?
        let parent: Int?
        /// Child groups, in tree order.
        var children: [Int] = []
        /// Items whose group is this one and that can be focused now, in tree order (declared and
        /// automatic groups; see `members(of:)`).
        var memberList: [Int] = []
        /// The item of a single-item group while it can be focused, else -1 (no array per item).
        var singleMember = -1
        var frame: Rect
        let direction: LayoutDirection
        let treeOrder: Int
        /// How the group came to be, for the debugger.
        let origin: String
        /// How many environments declare the group.
        var declarers = 1
        /// Focusable members here and in every group inside.
        var subtreeMembers = 0
        /// The blocks the group's tab stops sort as, in the app's order, then reading order: the
        /// group itself (its own members, as one stop) and each child group. Empty for a group
        /// without children.
        var blocks: [Int] = []
        /// The app's order for the group as a block of its parent: the smallest
        /// ``FocusEnvironment/focusTraversalOrder`` of its declarers, or its single item's.
        var traversalOrder: Double?
    }

    struct Target {
        let environment: any FocusEnvironment
        var frame: Rect
        let group: Int
        var isEnabled: Bool
        let treeOrder: Int
        let environmentIndex: Int
    }

    var items: [Item] = []
    var groups: [Group] = []
    var guides: [Target] = []
    var sections: [Target] = []
    /// Every environment in tree order (for ancestor lookups).
    var environments: [any FocusEnvironment] = []
    /// Each environment's parent index in `environments` (-1 for the root).
    var parents: [Int] = []
    /// The index one past each environment's last descendant.
    var subtreeEnds: [Int] = []
    var itemIndex = IdentityTable()
    /// Environments that are not items (items are found through `itemIndex`; see `position(of:)`).
    var environmentIndex = IdentityTable()
    /// Declared group identifiers (two environments declaring one identifier form one group).
    var declaredGroups: [String: Int] = [:]
    /// The groups that are tab stops, in tab order.
    var tabStops: [Int] = []
    /// Each group's position in `tabStops`, or -1.
    var stopOfGroup: [Int] = []
    /// Whether any environment gives an order (``FocusEnvironment/focusTraversalOrder``), for the
    /// debugger; orders change only with a rebuild (a ``FocusLayoutChanges/structure`` change).
    var hasTraversalOrders = false
    var generation: UInt64 = .max
    /// Changes whenever item frames or memberships change; the arrow index is rebuilt then.
    var geometryEpoch: UInt64 = 0

    init() {}

    /// Builds the snapshot of a tree.
    ///
    /// - Parameter sizeHint: The environment and item counts of the snapshot this one replaces:
    ///   storage is reserved up front, since trees rarely change size much.
    init(
        root: any FocusEnvironment, rootDirection: LayoutDirection, fullKeyboardAccess: Bool,
        sizeHint: (environments: Int, items: Int, groups: Int) = (0, 0, 0)
    ) {
        environments.reserveCapacity(sizeHint.environments)
        parents.reserveCapacity(sizeHint.environments)
        subtreeEnds.reserveCapacity(sizeHint.environments)
        environmentIndex = IdentityTable(capacity: sizeHint.environments - sizeHint.items)
        items.reserveCapacity(sizeHint.items)
        itemIndex = IdentityTable(capacity: sizeHint.items)
        groups.reserveCapacity(sizeHint.groups)
        groups.append(
            Group(
                name: "", singleItem: -1, declarer: nil, parent: nil, frame: root.focusFrame,
                direction: root.layoutDirection ?? rootDirection, treeOrder: 0, origin: "root"))
        var order = 0
        visit(
            root, group: 0, hiddenAncestor: nil, direction: rootDirection, parent: -1,
            fullKeyboardAccess: fullKeyboardAccess, order: &order)
        for index in groups.indices.reversed() {
            let count = members(of: index).count + groups[index].subtreeMembers
            groups[index].subtreeMembers = count
            if let parent = groups[index].parent { groups[parent].subtreeMembers += count }
        }
        for index in groups.indices where !groups[index].children.isEmpty { sortBlocks(of: index) }
        rebuildStops()
    }

    /// What the snapshot needs from one environment, read in one go: a ``FocusNode`` is read with
    /// one load of its stored properties; any other adopter through its protocol requirements.
    struct Reading {
        var item: (any FocusItem)?
        var frame: Rect
        var isHidden: Bool
        var groupIdentifier: String?
        var groupKind: FocusGroupKind
        var role: FocusRole
        var direction: LayoutDirection?
        var canBecomeFocused: Bool
        var interactions: FocusInteractions
        /// The app's order; NaN reads as `nil`, so that sorting stays a strict order.
        var traversalOrder: Double?

        @MainActor init(_ environment: any FocusEnvironment) {
            // A class cast first: a protocol cast looks the conformance up (and checks the executor).
            if let node = environment as? FocusNode {
                let properties = node.focusProperties
                item = node
                frame = properties.frame
                isHidden = properties.isHidden
                groupIdentifier = properties.groupIdentifier
                groupKind = properties.groupKind
                role = properties.role
                direction = properties.direction
                canBecomeFocused = properties.isFocusable && properties.isEnabled
                interactions = properties.interactions
                traversalOrder = properties.traversalOrder.flatMap { $0.isNaN ? nil : $0 }
                return
            }
            item = environment as? any FocusItem
            frame = environment.focusFrame
            isHidden = environment.isHiddenFromFocus
            groupIdentifier = environment.focusGroupIdentifier
            groupKind = environment.focusGroupKind
            role = environment.focusRole
            direction = environment.layoutDirection
            canBecomeFocused = item?.canBecomeFocused ?? false
            interactions = item?.focusInteractions ?? .automatic
            traversalOrder = environment.focusTraversalOrder.flatMap { $0.isNaN ? nil : $0 }
        }
    }

    private mutating func visit(
        _ environment: any FocusEnvironment, group inherited: Int, hiddenAncestor: String?,
        direction inheritedDirection: LayoutDirection,
        parent: Int, fullKeyboardAccess: Bool, order: inout Int
    ) {
        order += 1
        let treeOrder = order
        let environmentPosition = environments.count
        let reading = Reading(environment)
        environments.append(environment)
        parents.append(parent)
        subtreeEnds.append(0)
        let direction = reading.direction ?? inheritedDirection
        let frame = reading.frame
        var group = inherited

        // A declared identifier, or an automatic group's "<name> (automatic)"; two environments
        // with one identifier form one group, automatic ones included.
        let identifier =
            reading.groupIdentifier
            ?? (reading.groupKind == .none ? nil : environment.focusDebugName + " (automatic)")
        if let identifier {
            if let existing = declaredGroups[identifier] {
                groups[existing].frame = groups[existing].frame.union(frame)
                groups[existing].declarers += 1
                groups[existing].traversalOrder = TraversalOrder.smaller(
                    groups[existing].traversalOrder, reading.traversalOrder)
                group = existing
            } else {
                let name = environment.focusDebugName
                let origin =
                    reading.groupIdentifier != nil
                    ? "focusGroupIdentifier on " + name
                    : "automatic: " + (reading.groupKind == .textInput ? "text input" : "container") + " " + name
                group = openGroup(
                    identifier, singleItem: -1, declarer: environment, in: inherited, frame: frame,
                    direction: direction, treeOrder: treeOrder, traversalOrder: reading.traversalOrder, origin: origin)
                declaredGroups[identifier] = group
            }
        }

        let hidden = hiddenAncestor == nil && reading.isHidden ? environment.focusDebugName : hiddenAncestor
        switch reading.role {
        case .guide(let isEnabled):
            guides.append(
                Target(
                    environment: environment, frame: frame, group: group, isEnabled: isEnabled && hidden == nil,
                    treeOrder: treeOrder, environmentIndex: environmentPosition))
        case .section:
            sections.append(
                Target(
                    environment: environment, frame: frame, group: group, isEnabled: hidden == nil,
                    treeOrder: treeOrder, environmentIndex: environmentPosition))
            fallthrough
        case .plain:
            if let item = reading.item {
                let focusability = Self.focusability(
                    of: reading, hiddenAncestor: hiddenAncestor, fullKeyboardAccess: fullKeyboardAccess)
                let index = items.count
                items.append(
                    Item(
                        item: item, frame: frame, group: group, inheritedGroup: group, treeOrder: treeOrder,
                        focusability: focusability, environment: environmentPosition,
                        isFocusable: focusability == .focusable, direction: direction,
                        traversalOrder: reading.traversalOrder))
                itemIndex[ObjectIdentifier(environment)] = index
                if focusability == .focusable { join(index) }
            }
        }

        // Items are found through `itemIndex`; every other environment (guides included, which
        // are no items even when their type is one) through this map (see `position(of:)`).
        if itemIndex[ObjectIdentifier(environment)] == nil {
            environmentIndex[ObjectIdentifier(environment)] = environmentPosition
        }
        if reading.traversalOrder != nil { hasTraversalOrders = true }

        for child in environment.childFocusEnvironments {
            visit(
                child, group: group, hiddenAncestor: hidden, direction: direction, parent: environmentPosition,
                fullKeyboardAccess: fullKeyboardAccess, order: &order)
        }
        subtreeEnds[environmentPosition] = environments.count
    }

    /// Why an item can or cannot be focused, from its own properties and its hidden ancestor.
    static func focusability(of reading: Reading, hiddenAncestor: String?, fullKeyboardAccess: Bool) -> Focusability {
        if reading.isHidden { return .hidden }
        if let hiddenAncestor { return .ancestorHidden(hiddenAncestor) }
        if !reading.canBecomeFocused { return .notFocusable }
        if reading.frame.isEmpty { return .zeroSize }
        if !reading.interactions.contains(.edit) && !fullKeyboardAccess {
            return .activateOnlyWithoutFullKeyboardAccess
        }
        return .focusable
    }

    /// An environment's position in `environments`, or `nil` when it is not in the tree.
    func position(of environment: any FocusEnvironment) -> Int? {
        let identity = ObjectIdentifier(environment)
        if let index = itemIndex[identity] { return items[index].environment }
        return environmentIndex[identity]
    }

    private mutating func openGroup(
        _ name: String, singleItem: Int, declarer: (any FocusEnvironment)?, in parent: Int, frame: Rect,
        direction: LayoutDirection, treeOrder: Int, traversalOrder: Double?, origin: String
    ) -> Int {
        let index = groups.count
        groups.append(
            Group(
                name: name, singleItem: singleItem, declarer: declarer, parent: parent, frame: frame,
                direction: direction, treeOrder: treeOrder, origin: origin, traversalOrder: traversalOrder))
        groups[parent].children.append(index)
        return index
    }

    /// Makes a focusable item a member of its group, opening its single-item group when it is in
    /// none (as in UIKit, an item in no focus group is a group of its own).
    private mutating func join(_ index: Int) {
        var group = items[index].group
        if group == 0 {
            group = openGroup(
                "", singleItem: index, declarer: nil, in: 0, frame: items[index].frame,
                direction: items[index].direction, treeOrder: items[index].treeOrder,
                traversalOrder: items[index].traversalOrder, origin: "single item")
            items[index].group = group
            groups[group].singleMember = index
        } else {
            groups[group].memberList.append(index)
        }
    }

    /// The focusable members of a group, in tree order.
    func members(of group: Int) -> GroupMembers {
        GroupMembers(single: groups[group].singleMember, list: groups[group].memberList)
    }

    // MARK: Names

    /// A group's identifier: the declared or automatic one, or "<item> (single item)".
    func identifier(of group: Int) -> String {
        name(of: group).identifier
    }

    func name(of group: Int) -> FocusGroupName {
        let single = groups[group].singleItem
        return single >= 0 ? .singleItem(items[single].item) : .named(groups[group].name)
    }

    // MARK: Tab stops

    /// The frame, tree order and app's order a block sorts by in its parent's list. The group's own
    /// members take the smallest order among them.
    func sortKey(of block: Int, in group: Int) -> ReadingOrder.Key {
        if block == group {
            let members = self.members(of: group)
            guard let first = members.first else {
                return ReadingOrder.Key(frame: .zero, treeOrder: groups[group].treeOrder, traversalOrder: nil)
            }
            var frame = items[first].frame
            var order = items[first].traversalOrder
            for member in members.dropFirst() {
                frame = frame.union(items[member].frame)
                order = TraversalOrder.smaller(order, items[member].traversalOrder)
            }
            return ReadingOrder.Key(frame: frame, treeOrder: items[first].treeOrder, traversalOrder: order)
        }
        let frame = groups[block].frame.isEmpty ? memberFrame(of: block) : groups[block].frame
        return ReadingOrder.Key(
            frame: frame, treeOrder: groups[block].treeOrder, traversalOrder: groups[block].traversalOrder)
    }

    /// Sorts a group's blocks (its own members, each child group): the app's order first, then
    /// reading order; reading order alone when `followingAppOrder` is `false` (the debugger's
    /// comparison).
    private mutating func sortBlocks(of group: Int, followingAppOrder: Bool = true) {
        var keyed: [(block: Int, key: ReadingOrder.Key)] = []
        keyed.reserveCapacity(groups[group].children.count + 1)
        if group != 0 { keyed.append((group, sortKey(of: group, in: group))) }
        for child in groups[group].children { keyed.append((child, sortKey(of: child, in: group))) }
        if !followingAppOrder {
            for index in keyed.indices { keyed[index].key.traversalOrder = nil }
        }
        ReadingOrder.sort(&keyed, direction: groups[group].direction)
        var blocks: [Int] = []
        blocks.reserveCapacity(keyed.count)
        for entry in keyed { blocks.append(entry.block) }
        groups[group].blocks = blocks
    }

    /// Takes a block out of its parent's list and puts it back where the app's order and reading
    /// order place it now.
    private mutating func reposition(_ block: Int, in group: Int) {
        var blocks = groups[group].blocks
        groups[group].blocks = []
        if let at = blocks.firstIndex(of: block) { blocks.remove(at: at) }
        let key = sortKey(of: block, in: group)
        let direction = groups[group].direction
        var low = 0
        var high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if ReadingOrder.precedes(sortKey(of: blocks[middle], in: group), key, direction: direction) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        blocks.insert(block, at: low)
        groups[group].blocks = blocks
    }

    /// Reads the tab loop off the sorted block lists.
    mutating func rebuildStops() {
        var stops = tabStops
        tabStops = []
        stops.removeAll(keepingCapacity: true)
        appendStops(of: 0, to: &stops)
        if stopOfGroup.count == groups.count {
            for index in stopOfGroup.indices { stopOfGroup[index] = -1 }
        } else {
            stopOfGroup = Array(repeating: -1, count: groups.count)
        }
        for (position, group) in stops.enumerated() { stopOfGroup[group] = position }
        tabStops = stops
    }

    /// The tab loop reading order alone would give, without the app's order: the focus debugger's
    /// comparison (a copy of the snapshot; never on a key's path).
    func readingOrderStops() -> [Int] {
        var plain = self
        for index in plain.groups.indices where !plain.groups[index].children.isEmpty {
            plain.sortBlocks(of: index, followingAppOrder: false)
        }
        var stops: [Int] = []
        plain.appendStops(of: 0, to: &stops)
        return stops
    }

    /// The app's order a stop sorts by in its parent's list: a group without child groups sorts
    /// with its own order, a group's own members with the smallest of theirs.
    func traversalOrder(ofStop stop: Int) -> Double? {
        groups[stop].blocks.isEmpty ? groups[stop].traversalOrder : sortKey(of: stop, in: stop).traversalOrder
    }

    /// The tab stops inside a group, in the app's order and reading order: the group's own members
    /// form one stop, each child group sorts as one block at its frame, and blocks expand in place.
    private func appendStops(of group: Int, to stops: inout [Int]) {
        // Fields read one by one: copying a `Group` retains its arrays and strings.
        if groups[group].blocks.isEmpty {
            if group != 0 && groups[group].subtreeMembers > 0 { stops.append(group) }
            return
        }
        for block in groups[group].blocks {
            if block == group {
                if !members(of: group).isEmpty { stops.append(group) }
            } else if groups[block].subtreeMembers > 0 {
                appendStops(of: block, to: &stops)
            }
        }
    }

    private func memberFrame(of group: Int) -> Rect {
        members(of: group).reduce(Rect.zero) { $0.union(items[$1].frame) }
            .union(groups[group].children.reduce(Rect.zero) { $0.union(memberFrame(of: $1)) })
    }

    // MARK: Changes in place

    /// Brings the snapshot up to date with one environment's change, in place.
    ///
    /// - Returns: `false` when the change needs a full rebuild (a container's visibility, a group
    ///   declarer's frame, a group whose frame comes from its members, anything structural).
    mutating func apply(
        _ changes: FocusLayoutChanges, to environment: any FocusEnvironment, fullKeyboardAccess: Bool
    ) -> Bool {
        if changes.contains(.structure) { return false }
        // Not in this tree (outside the modal scope, or gone): nothing here depends on it.
        guard let position = position(of: environment) else { return true }
        let reading = Reading(environment)
        let isContainer = subtreeEnds[position] > position + 1
        let declaresGroup = reading.groupIdentifier != nil || reading.groupKind != .none
        if changes.contains(.visibility) && isContainer { return false }
        if changes.contains(.frame) && declaresGroup { return false }
        let frame = reading.frame
        var hiddenAncestor: String?
        var ancestor = parents[position]
        while ancestor >= 0 {
            let above = environments[ancestor]
            if above.isHiddenFromFocus { hiddenAncestor = above.focusDebugName }
            // A group declarer whose frame is the union of its children's (the protocol's
            // default) moves with any child, focusable or not, which the sorted lists cannot
            // follow: rebuild. A FocusNode's frame is stored, never derived.
            if changes.contains(.frame) && !(above is FocusNode)
                && (above.focusGroupIdentifier != nil || above.focusGroupKind != .none)
            {
                return false
            }
            ancestor = parents[ancestor]
        }
        let hidden = reading.isHidden ? environment.focusDebugName : hiddenAncestor
        if let at = guides.firstIndex(where: { $0.environmentIndex == position }) {
            guard case .guide(let isEnabled) = reading.role else { return false }
            guides[at].frame = frame
            guides[at].isEnabled = isEnabled && hidden == nil
        }
        if let at = sections.firstIndex(where: { $0.environmentIndex == position }) {
            sections[at].isEnabled = hidden == nil
        }
        // A guide's or section's frame may be the union of its children's: read them all again.
        for at in guides.indices { guides[at].frame = guides[at].environment.focusFrame }
        for at in sections.indices { sections[at].frame = sections[at].environment.focusFrame }
        guard let index = itemIndex[ObjectIdentifier(environment)] else { return true }
        let wasFocusable = items[index].isFocusable
        let focusability = Self.focusability(
            of: reading, hiddenAncestor: hiddenAncestor, fullKeyboardAccess: fullKeyboardAccess)
        let frameChanged = items[index].frame != frame
        items[index].frame = frame
        items[index].focusability = focusability
        items[index].isFocusable = focusability == .focusable
        if !wasFocusable && !items[index].isFocusable { return true }
        if wasFocusable == items[index].isFocusable && !frameChanged { return true }
        // The chain of groups whose blocks may move: a group whose frame comes from its members
        // moves with them, which the lists cannot follow without re-sorting: rebuild then.
        // So does a group whose declarer's frame is the union of its children's (the default).
        var check = items[index].group
        while check != 0 {
            if groups[check].singleItem < 0 {
                guard let declarer = groups[check].declarer, groups[check].declarers == 1,
                    !groups[check].frame.isEmpty, declarer.focusFrame == groups[check].frame
                else { return false }
            }
            check = groups[check].parent ?? 0
        }
        if items[index].isFocusable && !wasFocusable {
            var group = items[index].group
            if group == 0 {
                group = openGroup(
                    "", singleItem: index, declarer: nil, in: 0, frame: frame, direction: items[index].direction,
                    treeOrder: items[index].treeOrder, traversalOrder: items[index].traversalOrder,
                    origin: "single item")
                var children = groups[0].children
                groups[0].children = []
                children.removeLast()
                let orders = groups
                insertSorted(group, into: &children) { orders[$0].treeOrder }
                groups[0].children = children
                items[index].group = group
            }
            if groups[group].singleItem == index {
                groups[group].singleMember = index
            } else {
                insertSorted(index, into: &groups[group].memberList) { $0 }
            }
            adjustSubtreeMembers(from: group, by: 1)
        } else if !items[index].isFocusable && wasFocusable {
            let group = items[index].group
            if groups[group].singleItem == index {
                groups[group].singleMember = -1
            } else if let at = groups[group].memberList.firstIndex(of: index) {
                groups[group].memberList.remove(at: at)
            }
            adjustSubtreeMembers(from: group, by: -1)
        }
        let group = items[index].group
        if groups[group].singleItem == index {
            groups[group].frame = frame
            reposition(group, in: 0)
        } else if !groups[group].blocks.isEmpty {
            reposition(group, in: group)
        }
        geometryEpoch &+= 1
        return true
    }

    private mutating func adjustSubtreeMembers(from group: Int, by delta: Int) {
        var current: Int? = group
        while let index = current {
            groups[index].subtreeMembers += delta
            current = groups[index].parent
        }
    }

    private func insertSorted(_ value: Int, into array: inout [Int], by key: (Int) -> Int) {
        let target = key(value)
        var low = 0
        var high = array.count
        while low < high {
            let middle = (low + high) / 2
            if key(array[middle]) < target { low = middle + 1 } else { high = middle }
        }
        array.insert(value, at: low)
    }

    // MARK: Queries

    /// Whether an item is the environment or inside it.
    func isDescendant(_ item: Int, ofEnvironment environment: Int) -> Bool {
        let position = items[item].environment
        return position >= environment && position < subtreeEnds[environment]
    }

}

/// The focusable members of one group: its list, or its single item.
struct GroupMembers: RandomAccessCollection {
    let single: Int
    let list: [Int]

    var startIndex: Int { 0 }
    var endIndex: Int { single >= 0 ? 1 : list.count }
    subscript(position: Int) -> Int { single >= 0 ? single : list[position] }
}

/// The reading-order rule: top edge first, then the leading edge (left in left-to-right, right in
/// right-to-left), then tree order.
enum ReadingOrder {
    static let tolerance = 0.5

    /// What a block of the tab loop sorts by.
    struct Key {
        var frame: Rect
        var treeOrder: Int
        /// The app's order, which comes before reading order (``TraversalOrder``).
        var traversalOrder: Double?
    }

    /// Sorts blocks by the app's order, then reading order. Nonisolated, so the comparison closure
    /// carries no executor check (a closure formed on the main actor checks at every call).
    nonisolated static func sort(_ keyed: inout [(block: Int, key: Key)], direction: LayoutDirection) {
        keyed.sort { precedes($0.key, $1.key, direction: direction) }
    }

    /// Whether a block comes before another: by the app's order when it decides, else in reading order.
    nonisolated static func precedes(_ a: Key, _ b: Key, direction: LayoutDirection) -> Bool {
        if let decided = TraversalOrder.precedes(a.traversalOrder, b.traversalOrder) { return decided }
        return precedes(a.frame, a.treeOrder, b.frame, b.treeOrder, direction: direction)
    }

    nonisolated static func precedes(_ a: Rect, _ aOrder: Int, _ b: Rect, _ bOrder: Int, direction: LayoutDirection)
        -> Bool
    {
        if abs(a.minY - b.minY) > tolerance { return a.minY < b.minY }
        switch direction {
        case .leftToRight:
            if abs(a.minX - b.minX) > tolerance { return a.minX < b.minX }
        case .rightToLeft:
            if abs(a.maxX - b.maxX) > tolerance { return a.maxX > b.maxX }
        }
        return aOrder < bOrder
    }
}

/// The app's order (``FocusEnvironment/focusTraversalOrder``), as Flutter's `OrderedTraversalPolicy`
/// applies `NumericFocusOrder`: what has an order comes before what has none, the smaller first.
enum TraversalOrder {
    /// Whether `a` comes first, or `nil` when the orders do not decide (equal, or neither given).
    nonisolated static func precedes(_ a: Double?, _ b: Double?) -> Bool? {
        switch (a, b) {
        case (let a?, let b?): return a == b ? nil : a < b
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return nil
        }
    }

    /// The smaller of two orders, where one given beats none.
    nonisolated static func smaller(_ a: Double?, _ b: Double?) -> Double? {
        guard let a else { return b }
        guard let b else { return a }
        return Swift.min(a, b)
    }

    /// An order as the focus debugger writes it: `2`, `1.5`.
    nonisolated static func describe(_ order: Double) -> String {
        // Not `rounded()`: the core does not link libm.
        if order.magnitude < 9.2e18, Double(Int(order)) == order { return String(Int(order)) }
        return String(order)
    }
}
