/// A uniform grid over item frames, so that an arrow's geometric search looks at the cells in
/// its sweep, nearest first, instead of every item.
///
/// Each item is entered in every cell its frame touches (both edges inclusive); items touching
/// more than `largeCellLimit` cells are kept in a list searched in full. The search walks lines of
/// cells (columns for left and right, rows for up and down) away from the origin and stops once
/// no item in a later line can be nearer along the axis than the best found.
struct ArrowGrid {
    static let largeCellLimit = 16

    private let originX: Double
    private let originY: Double
    private let cellWidth: Double
    private let cellHeight: Double
    private let columns: Int
    private let rows: Int
    /// `cellStart[c] ..< cellStart[c + 1]` is cell `c`'s range in `entries` (cells row by row).
    private var cellStart: [Int32] = []
    private var entries: [Int32] = []
    /// Items too large for the cells.
    private(set) var large: [Int] = []

    /// Builds the grid over some items.
    ///
    /// - Parameters:
    ///   - members: The items (indices into `frames`' domain).
    ///   - frame: Each item's frame.
    init(members: [Int], frame: (Int) -> Rect) {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        var totalWidth = 0.0
        var totalHeight = 0.0
        for member in members {
            let rect = frame(member)
            minX = min(minX, rect.minX)
            minY = min(minY, rect.minY)
            maxX = max(maxX, rect.maxX)
            maxY = max(maxY, rect.maxY)
            totalWidth += rect.width
            totalHeight += rect.height
        }
        let count = Double(max(members.count, 1))
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
            // No members, or frames no grid can hold: everything is searched in full.
            originX = 0
            originY = 0
            cellWidth = 1
            cellHeight = 1
            columns = 1
            rows = 1
            cellStart = [0, 0]
            large = members
            return
        }
        // Cells about the size of an average item, at most about four cells per item.
        var width = max(totalWidth / count, (maxX - minX) / 4096, 1e-6)
        var height = max(totalHeight / count, (maxY - minY) / 4096, 1e-6)
        let budget = 4 * count + 16
        var cellCount = ((maxX - minX) / width + 1) * ((maxY - minY) / height + 1)
        while cellCount > budget {
            width *= 2
            height *= 2
            cellCount = ((maxX - minX) / width + 1) * ((maxY - minY) / height + 1)
        }
        originX = minX
        originY = minY
        cellWidth = width
        cellHeight = height
        columns = Int((maxX - minX) / width) + 1
        rows = Int((maxY - minY) / height) + 1

        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var small: [Int] = []
        small.reserveCapacity(members.count)
        for member in members {
            let rect = frame(member)
            let (c0, c1, r0, r1) = span(of: rect)
            if (c1 - c0 + 1) * (r1 - r0 + 1) > Self.largeCellLimit {
                large.append(member)
                continue
            }
            small.append(member)
            for row in r0...r1 {
                for column in c0...c1 { counts[row * columns + column + 1] += 1 }
            }
        }
        for cell in 0..<(columns * rows) { counts[cell + 1] += counts[cell] }
        var cursor = counts
        entries = [Int32](repeating: 0, count: Int(counts[columns * rows]))
        for member in small {
            let (c0, c1, r0, r1) = span(of: frame(member))
            for row in r0...r1 {
                for column in c0...c1 {
                    let cell = row * columns + column
                    entries[Int(cursor[cell])] = Int32(truncatingIfNeeded: member)
                    cursor[cell] += 1
                }
            }
        }
        cellStart = counts
    }

    private func column(_ x: Double) -> Int {
        // Truncation is floor for values at or above zero (and the core links without libm).
        let value = (x - originX) / cellWidth
        if !(value >= 0) { return 0 }  // also NaN
        return value >= Double(columns - 1) ? columns - 1 : Int(value)
    }

    private func row(_ y: Double) -> Int {
        let value = (y - originY) / cellHeight
        if !(value >= 0) { return 0 }
        return value >= Double(rows - 1) ? rows - 1 : Int(value)
    }

    private func span(of rect: Rect) -> (Int, Int, Int, Int) {
        (column(rect.minX), column(rect.maxX), row(rect.minY), row(rect.maxY))
    }

    /// Calls `visit` with every item in the cells of the sweep from `origin` towards `heading`,
    /// line by line away from the origin, until `nearest()` (the best distance along the axis
    /// found so far) is below what any item in the next line could have. Items may be visited
    /// more than once.
    func search(
        from origin: Rect, heading: FocusHeading, nearest: () -> Double?, visit: (Int) -> Void
    ) {
        let epsilon = Geometry.epsilon
        let horizontal = heading == .left || heading == .right
        let crossLow = horizontal ? row(origin.minY + epsilon) : column(origin.minX + epsilon)
        let crossHigh = horizontal ? row(origin.maxY - epsilon) : column(origin.maxX - epsilon)
        let (low, high) = (min(crossLow, crossHigh), max(crossLow, crossHigh))
        var line: Int
        let step: Int
        let end: Int
        switch heading {
        case .right:
            line = column(origin.maxX - epsilon)
            step = 1
            end = columns
        case .left:
            line = column(origin.minX + epsilon)
            step = -1
            end = -1
        case .down:
            line = row(origin.maxY - epsilon)
            step = 1
            end = rows
        case .up:
            line = row(origin.minY + epsilon)
            step = -1
            end = -1
        default:
            return
        }
        while line != end {
            for cross in low...high {
                let cell = horizontal ? cross * columns + line : line * columns + cross
                var entry = Int(cellStart[cell])
                let stop = Int(cellStart[cell + 1])
                while entry < stop {
                    visit(Int(entries[entry]))
                    entry += 1
                }
            }
            // Items not seen yet start beyond this line: their distance along the axis is at least
            // the distance to the line's far edge.
            if let best = nearest() {
                let bound: Double
                switch heading {
                case .right: bound = originX + Double(line + 1) * cellWidth - origin.maxX
                case .left: bound = origin.minX - (originX + Double(line) * cellWidth)
                case .down: bound = originY + Double(line + 1) * cellHeight - origin.maxY
                default: bound = origin.minY - (originY + Double(line) * cellHeight)
                }
                if bound > best + 1e-9 * (abs(best) + 1) { return }
            }
            line += step
        }
    }
}

/// The arrow grids of one snapshot geometry: one per group that is large enough to need one (and
/// one over every focusable item for directional navigation), built when an arrow first needs it.
struct ArrowIndex {
    /// Groups with fewer members are searched in full.
    static let minimumMembers = 48

    /// Which snapshot geometry the grids describe.
    var epoch: UInt64 = .max
    var generation: UInt64 = .max
    private var grids: [Int: ArrowGrid] = [:]

    /// The grid for a group (`-1`: every focusable item), built on first use.
    mutating func grid(for group: Int, members: () -> [Int], frame: (Int) -> Rect) -> ArrowGrid {
        if let grid = grids[group] { return grid }
        let grid = ArrowGrid(members: members(), frame: frame)
        grids[group] = grid
        return grid
    }

    mutating func reset(generation: UInt64, epoch: UInt64) {
        self.generation = generation
        self.epoch = epoch
        grids.removeAll(keepingCapacity: true)
    }
}

/// A map from object identity to an index: open addressing with linear probing over flat arrays,
/// hashed by multiplying the address. `Dictionary` hashes each key with SipHash (about 130
/// instructions) and a focus snapshot inserts one key per item; this costs a multiply and a
/// probe or two. Keys are only added (a snapshot is rebuilt, never shrunk).
struct IdentityTable {
    /// Key and value side by side (one cache line per probe); key 0 marks an empty slot (no
    /// object lives at address 0).
    private var slots: [(key: UInt, value: Int)]
    private var shift: UInt
    private(set) var count = 0

    /// Creates a table sized for `capacity` keys.
    init(capacity: Int = 0) {
        var size = 16
        var bits: UInt = 4
        while size < capacity * 2 {
            size <<= 1
            bits += 1
        }
        slots = Array(repeating: (0, 0), count: size)
        shift = UInt(UInt.bitWidth) - bits
    }

    @inline(__always)
    private func home(of key: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The index stored for an object, or `nil`. Setting `nil` is not supported (and ignored).
    subscript(object: ObjectIdentifier) -> Int? {
        get { self[key: UInt(bitPattern: object)] }
        set { self[key: UInt(bitPattern: object)] = newValue }
    }

    private subscript(key key: UInt) -> Int? {
        get {
            let mask = slots.count - 1
            var slot = home(of: key)
            while true {
                let found = slots[slot]
                if found.key == key { return found.value }
                if found.key == 0 { return nil }
                slot = (slot + 1) & mask
            }
        }
        set {
            guard let newValue else { return }
            if (count + 1) * 2 > slots.count { grow() }
            let mask = slots.count - 1
            var slot = home(of: key)
            while true {
                let found = slots[slot].key
                if found == key || found == 0 {
                    if found == 0 { count += 1 }
                    slots[slot] = (key, newValue)
                    return
                }
                slot = (slot + 1) & mask
            }
        }
    }

    private mutating func grow() {
        let old = slots
        self = IdentityTable(capacity: slots.count)
        for slot in old where slot.key != 0 { self[key: slot.key] = slot.value }
    }
}
