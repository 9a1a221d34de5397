import FuzzSupport
import ResponderChain

// The one shortcut grammar: key sequences (keytrace --keys), single chords (KeyChord(parsing:))
// and key-command shortcuts (scenes). A chord that parses prints as text that parses to the same
// chord.
fuzz { data, count in
    let text = String(decoding: bytes(data, count), as: UTF8.self)
    _ = try? KeyChord.parseSequence(text)
    _ = try? KeyCommand.parseShortcut(text)
    if let chord = try? KeyChord(parsing: text) {
        guard let again = try? KeyChord(parsing: chord.description), again == chord else {
            fatalError(
                "the chord parsed from \(text.debugDescription) prints as \(chord.description.debugDescription), which does not parse back"
            )
        }
    }
    return 0
}
