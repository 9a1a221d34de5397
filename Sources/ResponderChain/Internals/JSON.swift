/// A JSON value with the line and column it starts at, for error messages that point at the input.
struct JSONValue {
    enum Kind {
        case object([(key: String, value: JSONValue)])
        case array([JSONValue])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    var kind: Kind
    var line: Int
    var column: Int

    var typeName: String {
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
struct JSONSyntaxError: Error {
    var line: Int
    var column: Int
    var message: String
}

/// A small strict JSON parser (RFC 8259) over UTF-8 that keeps positions. No Foundation.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(text)
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
            return make(.number(try parseNumber()))
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

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        guard digits() > 0 else { throw error("expected digits in a number") }
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
        return value
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var chunkStart = index
        func flush(_ end: Int) {
            scalars.append(contentsOf: String(decoding: bytes[chunkStart..<end], as: UTF8.self).unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in a string (write \\n, \\t)") }
            if byte == UInt8(ascii: "\\") {
                flush(index)
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
