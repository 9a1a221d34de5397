/// A set of key codes asked on every key a responder or the focus system sees: sorted raw
/// values, searched in place. `Set<KeyCode>.contains` hashes with SipHash (about 150
/// instructions); a handful of codes compares in a few.
struct KeyCodeSet: Equatable {
    private var codes: [UInt16]

    init(_ keys: Set<KeyCode>) {
        codes = keys.map(\.rawValue).sorted()
    }

    var isEmpty: Bool { codes.isEmpty }

    @inline(__always)
    func contains(_ code: KeyCode) -> Bool {
        let raw = code.rawValue
        guard codes.count > 8 else {
            // A loop, not `contains(where:)`: no closure on the key path.
            for candidate in codes where candidate == raw { return true }
            return false
        }
        var low = 0
        var high = codes.count
        while low < high {
            let middle = (low + high) / 2
            if codes[middle] < raw { low = middle + 1 } else { high = middle }
        }
        return low < codes.count && codes[low] == raw
    }
}
