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
    public func accessibilityPosition(of item: any FocusItem) -> (position: Int, count: Int)? {
        let snapshot = currentSnapshot()
        guard let index = snapshot.itemIndex[ObjectIdentifier(item)], snapshot.items[index].isFocusable,
            item.isAccessibilityElement
        else { return nil }
        /// The nearest declared group at or above a group (0, the root, when none).
        func declared(_ start: Int) -> Int {
            var group = start
            while group != 0 {
                if snapshot.groups[group].declarer?.focusGroupIdentifier != nil { return group }
                group = snapshot.groups[group].parent ?? 0
            }
            return 0
        }
        let group = declared(snapshot.items[index].inheritedGroup)
        var members = snapshot.items.indices.filter { member in
            snapshot.items[member].isFocusable && declared(snapshot.items[member].inheritedGroup) == group
                && snapshot.items[member].item.isAccessibilityElement
        }
        let direction = snapshot.groups[group].direction
        members.sort { a, b in
            ReadingOrder.precedes(
                snapshot.items[a].frame, snapshot.items[a].treeOrder, snapshot.items[b].frame,
                snapshot.items[b].treeOrder, direction: direction)
        }
        guard let position = members.firstIndex(of: index) else { return nil }
        return (position + 1, members.count)
    }
}
