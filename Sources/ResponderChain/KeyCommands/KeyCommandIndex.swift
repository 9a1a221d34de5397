/// The key commands of the active chain, indexed by physical chord.
///
/// Built from the chain start (the first responder, or the window) up to the window, then the
/// dispatcher's global commands, each resolved on the active layout. For every chord the
/// candidates are kept nearest first, so dispatch is one dictionary lookup. Rebuilt only when the
/// tree, a command list, the direction or the layout changes, or focus moves to a chain with other
/// declarers; moving between items that declare no commands reuses it.
///
/// Its fields are written only while it is built and read on every key, so they skip the dynamic
/// exclusivity check (each access is a single load or store, never overlapping another).
@MainActor
final class KeyCommandIndex {
    struct Candidate {
        /// The command.
        var command: KeyCommand
        /// The responder that declares it, or `nil` for a global command.
        var declarer: Responder?
        /// 0 for the chain start, 1 for its next responder, …; `Int.max` for global commands.
        var depth: Int
        /// Whether the command moved to this chord through automatic localization.
        var localized: Bool
        /// Whether the command's input was mirrored for a right-to-left window.
        var mirrored: Bool
    }

    @exclusivity(unchecked) private(set) var candidates: [KeyChordID: [Candidate]] = [:]
    /// The same lists in a flat table indexed by chord id, for keys below `KEY_MAX`: a lookup is
    /// one array read instead of a hash (dispatch does one per key-down).
    @exclusivity(unchecked) private var table: [Int32] = []
    @exclusivity(unchecked) private var lists: [[Candidate]] = []
    private static let tableSize = 0x300 << 4
    /// Commands that resolve to no chord at all on the layout, for reports.
    @exclusivity(unchecked) private(set) var unreachable: [Candidate] = []
    /// The chain start, when it is a text input.
    @exclusivity(unchecked) private(set) var textInput: (any TextInputResponder)?

    /// The responders on the chain that declare key commands, nearest first: a chain start with
    /// the same declarers (focus moved between items that declare none) reuses the index.
    @exclusivity(unchecked) private var declarers: [ObjectIdentifier] = []
    @exclusivity(unchecked) var commandGeneration: UInt64 = .max
    @exclusivity(unchecked) var windowGeneration: UInt64 = .max
    @exclusivity(unchecked) var layoutGeneration: UInt64 = .max
    @exclusivity(unchecked) var globalGeneration: UInt64 = .max
    @exclusivity(unchecked) var chainStart: Responder?

    init() {}

    init(chainStart: Responder, window: Window, global: [KeyCommand], layout map: LayoutReverseMap) {
        var depth = 0
        var responder: Responder? = chainStart
        while let current = responder {
            if !current.keyCommands.isEmpty { declarers.append(ObjectIdentifier(current)) }
            for command in current.keyCommands {
                add(command, declarer: current, depth: depth, map: map, direction: window.layoutDirection)
            }
            depth += 1
            responder = current.nextResponder
        }
        for command in global {
            add(command, declarer: nil, depth: .max, map: map, direction: window.layoutDirection)
        }
        self.chainStart = chainStart
        textInput = chainStart.asTextInputResponder
        if !candidates.isEmpty {
            table = Array(repeating: -1, count: Self.tableSize)
            lists.reserveCapacity(candidates.count)
            for (chord, list) in candidates where Int(chord.rawValue) < Self.tableSize {
                table[Int(chord.rawValue)] = Int32(lists.count)
                lists.append(list)
            }
        }
    }

    private func add(
        _ command: KeyCommand, declarer: Responder?, depth: Int, map: LayoutReverseMap, direction: LayoutDirection
    ) {
        let resolution = command.resolution(on: map, direction: direction)
        let candidate = Candidate(
            command: command, declarer: declarer, depth: depth,
            localized: resolution.placement == .localized, mirrored: resolution.mirrored)
        if resolution.chords.isEmpty {
            unreachable.append(candidate)
            return
        }
        for chord in resolution.chords {
            candidates[chord.id, default: []].append(candidate)
        }
    }

    /// Whether the chain from `start` up has exactly this index's declarers, in order: then the
    /// index serves that chain too (depths counted from another start are only compared among
    /// themselves). Walks the chain, allocates nothing.
    func hasSameDeclarers(from start: Responder) -> Bool {
        var position = 0
        var responder: Responder? = start
        while let current = responder {
            if !current.keyCommands.isEmpty {
                guard position < declarers.count, declarers[position] == ObjectIdentifier(current) else { return false }
                position += 1
            }
            responder = current.nextResponder
        }
        return position == declarers.count
    }

    /// Serves another chain start with the same declarers.
    func retarget(to start: Responder) {
        chainStart = start
        textInput = start.asTextInputResponder
    }

    /// The candidates for a key, nearest first.
    func lookup(_ key: Key) -> [Candidate] {
        let chord = KeyChordID(code: key.keyCode, modifiers: key.modifierFlags)
        let slot = Int(chord.rawValue)
        guard slot < Self.tableSize else { return candidates[chord] ?? [] }
        guard !table.isEmpty else { return [] }
        let list = table[slot]
        return list < 0 ? [] : lists[Int(list)]
    }

    /// Every candidate grouped by chord, for reports.
    var allChords: [(KeyChord, [Candidate])] {
        candidates.map { (KeyChord($0.key.code, $0.key.modifiers), $0.value) }
    }
}
