/// The key commands of the active chain, indexed by physical chord.
///
/// Built from the chain start (the first responder, or the window) up to the window, then the
/// dispatcher's global commands, each resolved on the active layout. For every chord the
/// candidates are kept nearest first, so dispatch is one dictionary lookup. Rebuilt only when the
/// tree, a command list, the direction or the layout changes, or focus moves to a chain with other
/// declarers; moving between items that declare no commands reuses it.
///
@MainActor
final class KeyCommandIndex {
    struct Candidate {
        /// The command.
        var command: KeyCommand
        /// The responder that declares it, or `nil` for a global command. A responder appears
        /// once in a chain, so the declarer alone says where the command sits: no depth is kept,
        /// because a retargeted index serves chain starts at other depths.
        var declarer: Responder?
        /// Whether the command moved to this chord through automatic localization.
        var localized: Bool
        /// Whether the command's input was mirrored for a right-to-left window.
        var mirrored: Bool
    }

    /// Lists for chords beyond the flat table (key codes above `KEY_MAX`: rare).
    private var overflow: [KeyChordID: [Candidate]] = [:]
    /// The lists in a flat table indexed by chord id, for keys below `KEY_MAX`: a lookup is one
    /// array read instead of a hash (dispatch does one per key-down).
    private var table: [Int32] = []
    private var lists: [[Candidate]] = []
    private static let tableSize = 0x300 << 4
    /// Commands that resolve to no chord at all on the layout, for reports.
    private(set) var unreachable: [Candidate] = []
    /// The chain start, when it is a text input.
    private(set) var textInput: (any TextInputResponder)?
    /// Whether ``textInput`` is set: asked on every key-down, without copying the existential.
    private(set) var hasTextInput = false

    /// The responders on the chain that declare key commands, nearest first: a chain start with
    /// the same declarers (focus moved between items that declare none) reuses the index.
    private var declarers: [ObjectIdentifier] = []
    var commandGeneration: UInt64 = .max
    var windowGeneration: UInt64 = .max
    var layoutGeneration: UInt64 = .max
    var globalGeneration: UInt64 = .max
    var chainStart: Responder?

    init() {}

    /// Builds the index: every command's chords (from `resolutions`, which remembers them per
    /// layout and direction), then each chord's list built once at its final size instead of
    /// grown through a dictionary.
    init(
        chainStart: Responder, window: Window, global: [KeyCommand], layout map: LayoutReverseMap,
        resolutions: inout KeyCommandResolutionCache
    ) {
        let direction = window.layoutDirection
        resolutions.prepare(for: map, direction: direction)
        // (chord, candidate) pairs in discovery order, nearest first: grouping them by chord
        // keeps that order in every list without a sort.
        var entries: [(chord: UInt32, candidate: Int32)] = []
        var found: [Candidate] = []
        func add(_ command: KeyCommand, declarer: Responder?) {
            let resolution = resolutions.resolution(of: command, on: map, direction: direction)
            let candidate = Candidate(
                command: command, declarer: declarer, localized: resolution.placement == .localized,
                mirrored: resolution.mirrored)
            if resolution.chords.isEmpty {
                unreachable.append(candidate)
                return
            }
            let order = Int32(truncatingIfNeeded: found.count)
            found.append(candidate)
            for chord in resolution.chords { entries.append((chord.id.rawValue, order)) }
        }
        var responder: Responder? = chainStart
        while let current = responder {
            let commands = current.declaredKeyCommands
            if !commands.isEmpty {
                declarers.append(ObjectIdentifier(current))
                for command in commands { add(command, declarer: current) }
            }
            responder = current.nextResponder
        }
        for command in global { add(command, declarer: nil) }
        self.chainStart = chainStart
        textInput = chainStart.asTextInputResponder
        hasTextInput = textInput != nil
        guard !entries.isEmpty else { return }
        // One list per chord, each sized once: count, reserve, fill.
        var table = [Int32](repeating: -1, count: Self.tableSize)
        var counts: [Int] = []
        for entry in entries where Int(entry.chord) < Self.tableSize {
            let slot = Int(entry.chord)
            if table[slot] < 0 {
                table[slot] = Int32(truncatingIfNeeded: counts.count)
                counts.append(0)
            }
            counts[Int(table[slot])] += 1
        }
        var lists: [[Candidate]] = []
        lists.reserveCapacity(counts.count)
        for count in counts {
            var list: [Candidate] = []
            list.reserveCapacity(count)
            lists.append(list)
        }
        for entry in entries {
            let candidate = found[Int(entry.candidate)]
            if Int(entry.chord) < Self.tableSize {
                lists[Int(table[Int(entry.chord)])].append(candidate)
            } else {
                overflow[KeyChordID(rawValue: entry.chord), default: []].append(candidate)
            }
        }
        self.table = table
        self.lists = lists
    }

    /// Whether the chain from `start` up has exactly this index's declarers, in order: then the
    /// index serves that chain too: nothing in it depends on where the chain starts but
    /// ``chainStart`` and ``textInput``, which ``retarget(to:)`` sets. Walks the chain, allocates
    /// nothing.
    func hasSameDeclarers(from start: Responder) -> Bool {
        let declarers = self.declarers  // one access to the field (each is checked), not one per level
        var position = 0
        var responder: Responder? = start
        while let current = responder {
            if !current.declaredKeyCommands.isEmpty {
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
        hasTextInput = textInput != nil
    }

    /// The candidates for a key, nearest first.
    func lookup(_ key: Key) -> [Candidate] {
        let chord = KeyChordID(code: key.logicalKeyCode, modifiers: key.modifierFlags)
        let slot = Int(chord.rawValue)
        guard slot < Self.tableSize else { return overflow[chord] ?? [] }
        guard !table.isEmpty else { return [] }
        let list = table[slot]
        return list < 0 ? [] : lists[Int(list)]
    }
}

/// Each key command's resolution on the dispatcher's layout and the window's direction, kept
/// across index rebuilds: resolving a character command (lower-casing, the reverse map's string
/// lookup, the chord list) is most of what building an index costs, and the same command
/// objects come back every time. Entries keep their command storage alive, so an address is never
/// reused while it is a key; the cache starts over when the layout or the direction changes, or
/// when it outgrows `limit` (an app that makes new command values on every build).
struct KeyCommandResolutionCache {
    private var table = IdentityTable()
    private var entries: [(storage: AnyObject, resolution: KeyCommandResolution)] = []
    private var layoutName: String?
    private var direction: LayoutDirection = .leftToRight
    static let limit = 16_384

    /// Starts over when the layout or the direction is not the one the entries were made for, or
    /// when the cache has grown past `limit`.
    mutating func prepare(for map: LayoutReverseMap, direction: LayoutDirection) {
        if map.layoutName != layoutName || direction != self.direction || entries.count >= Self.limit {
            reset()
            layoutName = map.layoutName
            self.direction = direction
        }
    }

    /// A command's resolution (after `prepare(for:direction:)` with the same map and direction).
    @MainActor
    mutating func resolution(of command: KeyCommand, on map: LayoutReverseMap, direction: LayoutDirection)
        -> KeyCommandResolution
    {
        let storage = command.storageObject
        if let index = table[ObjectIdentifier(storage)] { return entries[index].resolution }
        let resolution = command.resolution(on: map, direction: direction)
        table[ObjectIdentifier(storage)] = entries.count
        entries.append((storage, resolution))
        return resolution
    }

    /// Forgets every resolution (the layout changed).
    mutating func reset() {
        table = IdentityTable()
        entries.removeAll()
        layoutName = nil
    }
}
