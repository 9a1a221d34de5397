/// The bytes of the commands the client sends: SSIP lines in CRLF, and the text of a `SPEAK`
/// made safe (dot-escaped, no control characters but newlines, bounded).
package enum SSIPRequest {
    /// The longest text sent, in UTF-8 bytes after cleaning; longer text is cut at a character
    /// boundary. About two minutes of speech at the default rate.
    package static let maximumTextBytes = 8192

    /// The text as it is spoken: CRLF and lone CR become newlines, every other control
    /// character (C0, DEL, C1) is removed, and what remains is cut to ``maximumTextBytes``.
    package static func clean(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            var kept: Unicode.Scalar? = scalar
            if scalar == "\r" {
                kept = "\n"
            } else if scalar == "\n" {
                kept = previousWasCR ? nil : "\n"
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                kept = nil
            }
            previousWasCR = scalar == "\r"
            guard let kept else { continue }
            let length = UTF8.width(kept)
            guard bytes + length <= maximumTextBytes else { break }
            bytes += length
            scalars.append(kept)
        }
        return String(scalars)
    }

    /// The data of a `SPEAK` after its `230` reply: the cleaned text's lines in CRLF, a line
    /// beginning with `.` given a second one, and the lone `.` that ends it.
    package static func speakData(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let cleaned = clean(text)
        bytes.reserveCapacity(cleaned.utf8.count + 8)
        for line in cleaned.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".") { bytes.append(UInt8(ascii: ".")) }
            bytes.append(contentsOf: line.utf8)
            bytes.append(contentsOf: [0x0D, 0x0A])
        }
        bytes.append(contentsOf: Array(".\r\n".utf8))
        return bytes
    }

    /// One command line in CRLF.
    package static func line(_ command: String) -> [UInt8] {
        Array(command.utf8) + [0x0D, 0x0A]
    }

    /// `SET SELF CLIENT_NAME "user:client:main"`, with anything but letters, digits, `-`, `_` and
    /// `.` in the names turned into `_` (a colon or a quote would change what the daemon reads).
    package static func clientName(user: String, client: String) -> String {
        "SET SELF CLIENT_NAME \"\(nameComponent(user)):\(nameComponent(client)):main\""
    }

    /// A language SSIP takes (`en`, `pt-BR`, `en_GB`), or `nil` for anything else: at most 35
    /// letters, digits, `-` and `_`.
    package static func validLanguage(_ language: String?) -> String? {
        guard let language, !language.isEmpty, language.utf8.count <= 35 else { return nil }
        let allowed = language.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
        return allowed ? language : nil
    }

    private static func nameComponent(_ text: String) -> String {
        let kept = text.unicodeScalars.prefix(64).map { scalar -> Character in
            let safe =
                scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_.".unicodeScalars.contains(scalar))
            return safe ? Character(scalar) : "_"
        }
        return kept.isEmpty ? "unknown" : String(kept)
    }
}
