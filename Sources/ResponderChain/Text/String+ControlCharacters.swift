extension String {
    /// The text with every control character written as a visible escape, so that text from
    /// outside (a scene's ids and names, a recording's bad line, a file name, a device's name, an
    /// environment variable) cannot drive the terminal it is printed on: change its title, clear
    /// it or forge coloured text.
    ///
    /// Escaped are C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F,
    /// which some terminals take as 8-bit CSI and OSC). Tab, line feed and carriage return are
    /// written `\t`, `\n` and `\r`; the others as Swift writes them in a string literal,
    /// `\u{1B}`. Everything else, backslashes included, is left as it is. Text without control
    /// characters comes back unchanged and is not copied.
    ///
    /// Every text output of keytrace, DispatchTrace and the error descriptions of the scene,
    /// recording and keymap readers go through this one function (JSON output escapes with
    /// JSON's own `\u001b`).
    ///
    /// ```swift
    /// "title\u{1B}]0;pwned\u{07}".escapingControlCharacters()  // title\u{1B}]0;pwned\u{7}
    /// ```
    ///
    /// - Parameter keepingNewlines: Whether line feeds stay line feeds, for multi-line text whose
    ///   lines were made on purpose (a report); single-line values escape them (`\n`), so that a
    ///   value cannot forge a line of its own.
    /// - Returns: The text, safe to write to a terminal.
    public func escapingControlCharacters(keepingNewlines: Bool = false) -> String {
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7f || $0 == 0xc2 }) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 16)
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0a where keepingNewlines: result.unicodeScalars.append(scalar)
            case 0x0a: result += "\\n"
            case 0x09: result += "\\t"
            case 0x0d: result += "\\r"
            case 0x00..<0x20, 0x7f, 0x80..<0xa0:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
