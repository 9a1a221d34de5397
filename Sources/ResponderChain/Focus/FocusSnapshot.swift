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

/// The focus system's picture of the tree at one layout generation: items, groups, guides,
/// sections and the tab loop.
@MainActor
struct FocusSnapshot {
    struct Item {
        let item: any FocusItem
        let frame: Rect
        var group: Int
        let treeOrder: Int
        let focusability: Focusability
        /// The index into `environments` of the item itself.
        let environment: Int
        let isFocusable: Bool
    }

    struct Group {
        /// The identifier: the declared one, or a generated one for automatic and single-item groups.
        let identifier: String
        /// The environment that declares the group (`nil` for the root and single-item groups).
        let declarer: (any FocusEnvironment)?
        let parent: Int?
        var children: [Int] = []
        /// Items whose nearest group is this one, in tree order.
        var members: [Int] = []
        var frame: Rect
        let direction: LayoutDirection
        let treeOrder: Int
        /// How the group came to be, for the debugger.
        let origin: String
    }

    struct Target {
        let environment: any FocusEnvironment
        let frame: Rect
        let group: Int
        let isEnabled: Bool
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
    var itemIndex: [ObjectIdentifier: Int] = [:]
    var environmentIndex: [ObjectIdentifier: Int] = [:]
    /// The groups that are tab stops, in tab order.
    var tabStops: [Int] = []
    var stopOfGroup: [Int: Int] = [:]
    var generation: UInt64 = .max

    init() {}

    init(root: any FocusEnvironment, rootDirection: LayoutDirection, fullKeyboardAccess: Bool) {
        groups.append(
            Group(
                identifier: "", declarer: nil, parent: nil, frame: root.focusFrame,
                direction: root.layoutDirection ?? rootDirection, treeOrder: 0, origin: "root"))
        var order = 0
        visit(
            root, group: 0, hiddenAncestor: nil, direction: rootDirection, parent: -1,
            fullKeyboardAccess: fullKeyboardAccess, order: &order)
        appendStops(of: 0, to: &tabStops, withMembers: groupsWithMembers())
        for (position, group) in tabStops.enumerated() { stopOfGroup[group] = position }
    }

    private mutating func visit(
        _ environment: any FocusEnvironment, group inherited: Int, hiddenAncestor: String?,
        direction inheritedDirection: LayoutDirection,
        parent: Int, fullKeyboardAccess: Bool, order: inout Int
    ) {
        order += 1
        let treeOrder = order
        let environmentPosition = environments.count
        environments.append(environment)
        parents.append(parent)
        environmentIndex[ObjectIdentifier(environment)] = environmentPosition
        let direction = environment.layoutDirection ?? inheritedDirection
        let frame = environment.focusFrame
        var group = inherited

        if let identifier = environment.focusGroupIdentifier {
            group = openGroup(
                identifier, declarer: environment, in: inherited, frame: frame, direction: direction,
                treeOrder: treeOrder, origin: "focusGroupIdentifier on \(environment.focusDebugName)")
        } else if environment.focusGroupKind != .none {
            let kind = environment.focusGroupKind == .textInput ? "text input" : "container"
            group = openGroup(
                "\(environment.focusDebugName) (automatic)", declarer: environment, in: inherited, frame: frame,
                direction: direction, treeOrder: treeOrder, origin: "automatic: \(kind) \(environment.focusDebugName)")
        }

        let hidden =
            hiddenAncestor == nil && environment.isHiddenFromFocus ? environment.focusDebugName : hiddenAncestor
        switch environment.focusRole {
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
            if let item = environment as? any FocusItem {
                let focusability: Focusability
                if environment.isHiddenFromFocus {
                    focusability = .hidden
                } else if let hiddenAncestor {
                    focusability = .ancestorHidden(hiddenAncestor)
                } else if !item.canBecomeFocused {
                    focusability = .notFocusable
                } else if frame.isEmpty {
                    focusability = .zeroSize
                } else if !item.focusInteractions.contains(.edit) && !fullKeyboardAccess {
                    focusability = .activateOnlyWithoutFullKeyboardAccess
                } else {
                    focusability = .focusable
                }
                var itemGroup = group
                if focusability == .focusable && group == 0 {
                    // An item in no focus group is a group of its own, as in UIKit.
                    let name = environment.focusDebugName
                    itemGroup = openGroup(
                        name + " (single item)", declarer: nil, in: 0, frame: frame, direction: direction,
                        treeOrder: treeOrder, origin: "single item")
                }
                let index = items.count
                items.append(
                    Item(
                        item: item, frame: frame, group: itemGroup, treeOrder: treeOrder, focusability: focusability,
                        environment: environmentPosition, isFocusable: focusability == .focusable))
                itemIndex[ObjectIdentifier(environment)] = index
                if focusability == .focusable { groups[itemGroup].members.append(index) }
            }
        }

        for child in environment.childFocusEnvironments {
            visit(
                child, group: group, hiddenAncestor: hidden, direction: direction, parent: environmentPosition,
                fullKeyboardAccess: fullKeyboardAccess, order: &order)
        }
    }

    private mutating func openGroup(
        _ identifier: String, declarer: (any FocusEnvironment)?, in parent: Int, frame: Rect,
        direction: LayoutDirection, treeOrder: Int, origin: String
    ) -> Int {
        // Two environments declaring the same identifier form one group.
        if declarer != nil,
            let existing = groups.firstIndex(where: { $0.identifier == identifier && $0.declarer != nil })
        {
            groups[existing].frame = groups[existing].frame.union(frame)
            return existing
        }
        let index = groups.count
        groups.append(
            Group(
                identifier: identifier, declarer: declarer, parent: parent, frame: frame, direction: direction,
                treeOrder: treeOrder, origin: origin))
        groups[parent].children.append(index)
        return index
    }

    /// Whether a group or one of its descendants has a focusable member.
    /// Whether each group or one of its descendants has a focusable member (children always come
    /// after their parent in `groups`, so one backwards pass settles it).
    private func groupsWithMembers() -> [Bool] {
        var result = groups.map { !$0.members.isEmpty }
        for index in result.indices.reversed() where result[index] {
            if let parent = groups[index].parent { result[parent] = true }
        }
        return result
    }

    /// The tab stops inside a group, in reading order: the group's own members form one stop, each
    /// child group sorts as one block at its frame, and blocks expand in place.
    private func appendStops(of group: Int, to stops: inout [Int], withMembers: [Bool]) {
        struct Block {
            let frame: Rect
            let treeOrder: Int
            let group: Int
            let isOwn: Bool
        }
        var blocks: [Block] = []
        let members = groups[group].members
        if !members.isEmpty && group != 0 {
            let frame =
                members.count == 1 ? items[members[0]].frame : members.reduce(Rect.zero) { $0.union(items[$1].frame) }
            blocks.append(Block(frame: frame, treeOrder: items[members[0]].treeOrder, group: group, isOwn: true))
        }
        for child in groups[group].children where withMembers[child] {
            let frame = groups[child].frame.isEmpty ? memberFrame(of: child) : groups[child].frame
            blocks.append(Block(frame: frame, treeOrder: groups[child].treeOrder, group: child, isOwn: false))
        }
        let direction = groups[group].direction
        blocks.sort { ReadingOrder.precedes($0.frame, $0.treeOrder, $1.frame, $1.treeOrder, direction: direction) }
        for block in blocks {
            if block.isOwn {
                stops.append(block.group)
            } else {
                appendStops(of: block.group, to: &stops, withMembers: withMembers)
            }
        }
    }

    private func memberFrame(of group: Int) -> Rect {
        groups[group].members.reduce(Rect.zero) { $0.union(items[$1].frame) }
            .union(groups[group].children.reduce(Rect.zero) { $0.union(memberFrame(of: $1)) })
    }

    /// Whether an item is the environment or inside it.
    func isDescendant(_ item: Int, ofEnvironment environment: Int) -> Bool {
        var current = items[item].environment
        while current >= 0 {
            if current == environment { return true }
            current = parents[current]
        }
        return false
    }

    /// The environment indices above an item, nearest first.
    func ancestors(of item: Int) -> [Int] {
        var result: [Int] = []
        var current = parents[items[item].environment]
        while current >= 0 {
            result.append(current)
            current = parents[current]
        }
        return result
    }
}

/// The reading-order rule: top edge first, then the leading edge (left in left-to-right, right in
/// right-to-left), then tree order.
enum ReadingOrder {
    static let tolerance = 0.5

    static func precedes(_ a: Rect, _ aOrder: Int, _ b: Rect, _ bOrder: Int, direction: LayoutDirection) -> Bool {
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
