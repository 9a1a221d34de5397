// InputError's one-line text with its control characters made visible. LinuxSystem depends on no other
// module, so it cannot call the core's `String.escapingControlCharacters()`; this is the single-line case
// of it, in the same notation, and LinuxSystemTests checks the two agree on every control character.

/// `text` on one line, safe to print on a terminal: line feed, tab and carriage return as `\n`, `\t`
/// and `\r`, the other C0 controls, DEL and the C1 controls (U+0080–U+009F) as Swift writes them in a
/// literal (`\u{1B}`); everything else, backslashes included, as it is.
func visibleControlCharacters(_ text: String) -> String {
    func isControl(_ value: UInt32) -> Bool { value < 0x20 || (0x7F..<0xA0).contains(value) }
    guard text.unicodeScalars.contains(where: { isControl($0.value) }) else { return text }
    var visible = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        guard isControl(scalar.value) else {
            visible.append(scalar)
            continue
        }
        let escape =
            switch scalar {
            case "\n": "\\n"
            case "\t": "\\t"
            case "\r": "\\r"
            default: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        visible.append(contentsOf: escape.unicodeScalars)
    }
    return String(visible)
}
