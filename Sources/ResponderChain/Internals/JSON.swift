/// A JSON value with the line and column it starts at, for error messages that point at the input.
/// Package-wide: the trace decoder (DispatchTrace) reads its lines with it.
package struct JSONValue {
    package enum Kind {
        case object([(key: String, value: JSONValue)])
        case array([JSONValue])
        case string(String)
        /// A number: its value and its text as written (integers are read exactly from the text).
        case number(Double, text: String)
        case bool(Bool)
        case null
    }

    package var kind: Kind
    package var line: Int
    package var column: Int

    package var typeName: String {
        switch kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "true or false"
        case .null: return "null"
        }
    }
}

/// A syntax error in JSON text.
package struct JSONSyntaxError: Error {
    package var line: Int
    package var column: Int
    package var message: String
}

/// A small strict JSON parser (RFC 8259) over UTF-8 that keeps positions. No Foundation.
///
/// Strict where lenient parsers guess: invalid UTF-8, numbers with leading zeros and numbers
/// out of `Double`'s range are errors, never replaced or rounded to infinity.
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    package static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.error("unexpected text after the end of the JSON value") }
        return value
    }

    private var column: Int { index - lineStart + 1 }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: column, message: message)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < 200 else { throw error("nested too deeply") }
        guard index < bytes.count else { throw error("unexpected end of input: expected a value") }
        let (startLine, startColumn) = (line, column)
        func make(_ kind: JSONValue.Kind) -> JSONValue { JSONValue(kind: kind, line: startLine, column: startColumn) }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return make(.object(members))
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a field name in double quotes")
                }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("expected ':' after field name \"\(key)\"")
                }
                index += 1
                skipWhitespace()
                if members.contains(where: { $0.key == key }) { throw error("field \"\(key)\" appears twice") }
                members.append((key, try parseValue(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of input: expected ',' or '}'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}' after a field") }
                index += 1
                return make(.object(members))
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return make(.array(elements))
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of input: expected ',' or ']'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']' after an element") }
                index += 1
                return make(.array(elements))
            }
        case UInt8(ascii: "\""):
            return make(.string(try parseString()))
        case UInt8(ascii: "t"):
            try expectWord("true")
            return make(.bool(true))
        case UInt8(ascii: "f"):
            try expectWord("false")
            return make(.bool(false))
        case UInt8(ascii: "n"):
            try expectWord("null")
            return make(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (value, text) = try parseNumber()
            return make(.number(value, text: text))
        case let byte where byte >= 0x80:
            throw error(Self.byteDescription(byte) + ": expected a value")
        default:
            throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))': expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("expected \(word)")
        }
        index += utf8.count
    }

    /// `unexpected byte 0xC3 (not UTF-8 text)` or `unexpected byte 0xC3`, for bytes outside ASCII.
    private static func byteDescription(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "unexpected byte 0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> (Double, String) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("expected digits in a number") }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            index = integerStart
            throw error("a number must not start with 0 (write 7, not 07)")
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected digits after the decimal point") }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard digits() > 0 else { throw error("expected digits in an exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("not a number: \(text)") }
        guard value.isFinite else {
            index = start
            throw error("number \(text) is out of range (at most about 1.8e308)")
        }
        return (value, text)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var chunkStart = index
        func flush(_ end: Int) throws(JSONSyntaxError) {
            let chunk = bytes[chunkStart..<end]
            if let text = String(validating: chunk, as: UTF8.self) {
                scalars.append(contentsOf: text.unicodeScalars)
                return
            }
            index = Self.firstInvalidUTF8(in: chunk)
            throw error(Self.byteDescription(bytes[index]) + " in a string: the file is not valid UTF-8 text")
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in a string (write \\n, \\t)") }
            if byte == UInt8(ascii: "\\") {
                try flush(index)
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate in \\u escape") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    throw error("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
                chunkStart = index
                continue
            }
            index += 1
        }
        throw error("unterminated string")
    }

    /// The index of the first byte of `chunk` that does not start a valid UTF-8 sequence.
    private static func firstInvalidUTF8(in chunk: ArraySlice<UInt8>) -> Int {
        var iterator = chunk.makeIterator()
        var decoder = UTF8()
        var position = chunk.startIndex
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            position += UTF8.width(scalar)
        }
        return position
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected four hex digits after \\u")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
