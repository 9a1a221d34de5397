/// Reads JSON values with their field path, turning every mismatch into a ``SceneError``.
struct SceneDecoder {
    let file: String

    func fail(_ value: JSONValue, _ path: String, _ message: String) -> SceneError {
        SceneError(file: file, line: value.line, column: value.column, field: path, message: message)
    }

    /// The object's fields, rejecting fields not in `allowed` (with a suggestion for typos).
    func object(_ value: JSONValue, _ path: String, allowed: [String]) throws(SceneError) -> [String: JSONValue] {
        guard case .object(let members) = value.kind else {
            throw fail(value, path, "expected an object, got \(value.typeName)")
        }
        var fields: [String: JSONValue] = [:]
        for (key, member) in members {
            guard allowed.contains(key) else {
                let suggestion = allowed.min { Self.distance(key, $0) < Self.distance(key, $1) }
                let hint = suggestion.flatMap { Self.distance(key, $0) <= 3 ? " (did you mean \"\($0)\"?)" : nil } ?? ""
                throw fail(
                    member, path.isEmpty ? key : "\(path).\(key)",
                    "unknown field \"\(key)\"\(hint); known fields: "
                        + allowed.joined(separator: ", "))
            }
            fields[key] = member
        }
        return fields
    }

    func string(_ value: JSONValue, _ path: String) throws(SceneError) -> String {
        guard case .string(let text) = value.kind else {
            throw fail(value, path, "expected a string, got \(value.typeName)")
        }
        return text
    }

    func bool(_ value: JSONValue, _ path: String) throws(SceneError) -> Bool {
        guard case .bool(let flag) = value.kind else {
            throw fail(value, path, "expected true or false, got \(value.typeName)")
        }
        return flag
    }

    func number(_ value: JSONValue, _ path: String) throws(SceneError) -> Double {
        guard case .number(let number, _) = value.kind else {
            throw fail(value, path, "expected a number, got \(value.typeName)")
        }
        return number
    }

    func array(_ value: JSONValue, _ path: String) throws(SceneError) -> [JSONValue] {
        guard case .array(let elements) = value.kind else {
            throw fail(value, path, "expected an array, got \(value.typeName)")
        }
        return elements
    }

    func strings(_ value: JSONValue, _ path: String) throws(SceneError) -> [String] {
        var result: [String] = []
        for (index, element) in try array(value, path).enumerated() {
            result.append(try string(element, "\(path)[\(index)]"))
        }
        return result
    }

    func oneOf<T>(_ value: JSONValue, _ path: String, _ choices: [(String, T)]) throws(SceneError) -> T {
        let text = try string(value, path)
        guard let match = choices.first(where: { $0.0 == text }) else {
            throw fail(
                value, path, "\"\(text)\" is not one of " + choices.map { "\"\($0.0)\"" }.joined(separator: ", "))
        }
        return match.1
    }

    func rect(_ value: JSONValue, _ path: String) throws(SceneError) -> Rect {
        let elements = try array(value, path)
        guard elements.count == 4 else {
            throw fail(value, path, "expected 4 numbers [x, y, width, height], got \(elements.count)")
        }
        var numbers: [Double] = []
        for (index, element) in elements.enumerated() { numbers.append(try number(element, "\(path)[\(index)]")) }
        guard numbers[2] >= 0, numbers[3] >= 0 else { throw fail(value, path, "width and height must not be negative") }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// Edit distance, for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return row[b.count]
    }
}
