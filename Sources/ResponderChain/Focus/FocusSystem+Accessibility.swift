extension FocusSystem {
    /// Where an item stands among the accessibility elements of its focus group, for a narrator's
    /// "3 of 6".
    ///
    /// The group is the nearest *declared* one (`focusGroupIdentifier`), or the whole tree when
    /// there is none: a text field is a group of its own to the focus system (Tab stops at it), but
    /// one of the form's items to a listener. Its members are the items in it, and in automatic
    /// groups inside it, that can be focused now and are accessibility elements, in reading order
    /// (right to left where the group reads so).
    ///
    /// - Parameter item: The item.
    /// - Returns: Its position from 1, and how many there are; `nil` when it cannot be focused now or
    ///   is not an accessibility element.
    ///
    /// The first call after a layout change sorts the item's group (one pass over the tree, then
    /// the group's members); later calls on the same layout look the item up. A custom
    /// ``FocusEnvironment`` whose `isAccessibilityElement` changes by itself calls
    /// ``invalidateLayout(of:changes:)`` with `.focusability` (``FocusNode`` does so when it is
    /// set).
    public func accessibilityPosition(of item: any FocusItem) -> (position: Int, count: Int)? {
        let snapshot = currentSnapshot()
        guard let index = snapshot.itemIndex[ObjectIdentifier(item)], snapshot.items[index].isFocusable,
            item.isAccessibilityElement
        else { return nil }
        if accessibilityOrder.generation != snapshot.generation || accessibilityOrder.epoch != snapshot.geometryEpoch {
            accessibilityOrder = AccessibilityOrder(snapshot)
        }
        let group = accessibilityOrder.declared[snapshot.items[index].inheritedGroup]
        return accessibilityOrder.position(of: index, in: group, snapshot: snapshot)
    }
}

/// The accessibility elements of each declared focus group in reading order, for one snapshot:
/// ``FocusSystem/accessibilityPosition(of:)``'s cache.
///
/// The first lookup in a group after a layout change counts the members that come before the item
/// (one pass, no sort: a list that changes as one types pays O(n) per move, not O(n log n)); a
/// second lookup on the same layout sorts the group once, and every later one is a table lookup.
struct AccessibilityOrder {
    var generation: UInt64 = .max
    var epoch: UInt64 = 0
    /// Each group's nearest declared group at or above it (0, the root, when none).
    var declared: [Int] = []
    /// Each declared group's members (focusable accessibility elements) in tree order, found on
    /// first use.
    private var members: [Int: [Int]] = [:]
    /// Each sorted group's positions (item index → position from 1).
    private var positions: [Int: [Int: Int]] = [:]

    init() {}

    /// Finds every group's declared group.
    @MainActor init(_ snapshot: FocusSnapshot) {
        generation = snapshot.generation
        epoch = snapshot.geometryEpoch
        declared = Array(repeating: 0, count: snapshot.groups.count)
        // A group's parent comes before it: its declared group is known by then.
        for group in snapshot.groups.indices where group != 0 {
            if snapshot.groups[group].declarer?.focusGroupIdentifier != nil {
                declared[group] = group
            } else {
                declared[group] = snapshot.groups[group].parent.map { declared[$0] } ?? 0
            }
        }
    }

    /// An item's position among its declared group's members.
    @MainActor mutating func position(of index: Int, in group: Int, snapshot: FocusSnapshot) -> (
        position: Int, count: Int
    )? {
        if let table = positions[group] {
            guard let position = table[index] else { return nil }
            return (position, table.count)
        }
        let direction = snapshot.groups[group].direction
        func precedes(_ a: Int, _ b: Int) -> Bool {
            ReadingOrder.precedes(
                snapshot.items[a].frame, snapshot.items[a].treeOrder, snapshot.items[b].frame,
                snapshot.items[b].treeOrder, direction: direction)
        }
        guard var found = members[group] else {
            // First use on this layout: find the members, and count those before the item.
            var found: [Int] = []
            var before = 0
            var isMember = false
            for (member, item) in snapshot.items.enumerated()
            where item.isFocusable && declared[item.inheritedGroup] == group && item.item.isAccessibilityElement {
                found.append(member)
                if member == index {
                    isMember = true
                } else if precedes(member, index) {
                    before += 1
                }
            }
            members[group] = found
            return isMember ? (before + 1, found.count) : nil
        }
        // Asked again on the same layout: sort once, then look up.
        found.sort(by: precedes)
        let table = Dictionary(uniqueKeysWithValues: found.enumerated().map { ($1, $0 + 1) })
        positions[group] = table
        guard let position = table[index] else { return nil }
        return (position, table.count)
    }
}
