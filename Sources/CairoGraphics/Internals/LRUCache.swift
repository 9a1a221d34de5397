/// A cache bounded by a total cost that forgets the least recently used entries first: text layouts
/// (a cost of one each), scaled images and shadow masks (their bytes).
///
/// Entries live in one array of slots linked in order of use, so a hit, an insertion and an
/// eviction each cost one dictionary look-up and a few index moves. Values that own C objects release
/// them in their `deinit` when the cache lets them go.
struct LRUCache<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int
        var older: Int
    }

    /// The most the entries may cost together.
    let costLimit: Int
    /// What the entries cost now.
    private(set) var totalCost = 0
    /// How many entries were forgotten to make room.
    private(set) var evictions = 0

    private var index: [Key: Int] = [:]
    private var slots: [Slot?] = []
    private var freeSlots: [Int] = []
    /// The most recently used slot, and the least; -1 when empty.
    private var newest = -1
    private var oldest = -1

    init(costLimit: Int) {
        self.costLimit = max(0, costLimit)
    }

    /// How many entries are kept.
    var count: Int { index.count }

    /// The value for a key, which becomes the most recently used; `nil` when not kept.
    mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToNewest(slot)
        return slots[slot]!.value
    }

    /// Whether a key is kept (without marking it used).
    func contains(_ key: Key) -> Bool { index[key] != nil }

    /// Keeps a value, forgetting the least recently used entries until the total fits. A value that
    /// costs more than the limit alone is not kept.
    ///
    /// - Returns: Whether the value is kept.
    @discardableResult
    mutating func insert(_ value: Value, for key: Key, cost: Int = 1) -> Bool {
        remove(key)
        let cost = max(0, cost)
        guard cost <= costLimit else { return false }
        while totalCost + cost > costLimit, oldest >= 0 {
            removeSlot(oldest)
            evictions += 1
        }
        let slot: Int
        let entry = Slot(key: key, value: value, cost: cost, newer: -1, older: newest)
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = entry
        } else {
            slot = slots.count
            slots.append(entry)
        }
        if newest >= 0 { slots[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        index[key] = slot
        totalCost += cost
        return true
    }

    /// Forgets one entry.
    mutating func remove(_ key: Key) {
        guard let slot = index[key] else { return }
        removeSlot(slot)
    }

    /// Forgets every entry.
    mutating func removeAll() {
        index = [:]
        slots = []
        freeSlots = []
        newest = -1
        oldest = -1
        totalCost = 0
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        slots[slot]!.older = newest
        slots[slot]!.newer = -1
        if newest >= 0 { slots[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let entry = slots[slot]!
        if entry.newer >= 0 { slots[entry.newer]!.older = entry.older } else { newest = entry.older }
        if entry.older >= 0 { slots[entry.older]!.newer = entry.newer } else { oldest = entry.newer }
    }

    private mutating func removeSlot(_ slot: Int) {
        unlink(slot)
        let entry = slots[slot]!
        index[entry.key] = nil
        totalCost -= entry.cost
        slots[slot] = nil
        freeSlots.append(slot)
    }
}
