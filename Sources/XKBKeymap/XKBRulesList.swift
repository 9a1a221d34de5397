internal import LinuxSystem

/// The names an xkb rules file accepts, as its `.lst` file lists them (`! model`, `! layout`,
/// `! variant`, `! option`), plus the layouts, variants and options of its `.extras.xml`.
///
/// xkbcommon refuses an unknown layout or variant but silently ignores an unknown model or
/// option; this list lets ``XKBKeyboardLayout`` refuse those too, and suggest the nearest name.
struct XKBRulesList {
    /// The `.lst` file the names came from, for messages.
    var path: String
    /// Models in file order.
    var models: [String] = []
    /// Layouts in file order.
    var layouts: [String] = []
    /// Variants in file order, each with its layout.
    var variants: [(name: String, layout: String)] = []
    /// Options (`group:name`) in file order; group headings such as `grp` are not options.
    var options: [String] = []
    /// The rules' `.extras.xml` (layouts, variants and options that `.lst` leaves out, accepted
    /// for any layout). It is read only when a name is not in the `.lst`: it is large, and reading
    /// it on every start cost keytrace 0.3 s.
    var extrasPath: String?

    /// Reads `<rules>.lst` next to a rules file, and remembers `<rules>.extras.xml`; `nil` when
    /// there is no `.lst` (the names are then not checked).
    ///
    /// - Parameter rulesFile: The path of the rules file, such as `/usr/share/X11/xkb/rules/evdev`.
    init?(rulesFile: String) {
        guard let text = readTextFile(rulesFile + ".lst", limit: 4 << 20) else { return nil }
        self.init(lst: text, path: rulesFile + ".lst")
        extrasPath = rulesFile + ".extras.xml"
    }

    /// The layouts, variants and options of the extras file (empty without one).
    func extras() -> (layoutsAndVariants: Set<String>, options: Set<String>) {
        guard let extrasPath, let xml = readTextFile(extrasPath, limit: 4 << 20) else { return ([], []) }
        return Self.parseExtras(xml: xml)
    }

    /// Reads the text of a `.lst` file.
    ///
    /// - Parameters:
    ///   - lst: The text.
    ///   - path: Its path, for messages.
    init(lst: String, path: String) {
        self.path = path
        var section = ""
        for line in lst.split(separator: "\n") {
            if line.hasPrefix("!") {
                section = line.dropFirst().trimmingSpaces
                continue
            }
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            let name = String(first)
            switch section {
            case "model": models.append(name)
            case "layout": layouts.append(name)
            case "variant":
                if fields.count > 1, fields[1].hasSuffix(":") { variants.append((name, String(fields[1].dropLast()))) }
            case "option": if name.contains(":") { options.append(name) }
            default: break
            }
        }
    }

    /// The `<name>`s inside an extras file's `<layoutList>` (layouts and variants) and
    /// `<optionList>` (options), read from the bytes.
    static func parseExtras(xml: String) -> (layoutsAndVariants: Set<String>, options: Set<String>) {
        let bytes = Array(xml.utf8)
        var layouts: Set<String> = []
        var options: Set<String> = []
        var inOptions = false
        var inLayouts = false
        func matches(_ marker: StaticString, at index: Int) -> Bool {
            let count = marker.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return marker.withUTF8Buffer { marker in
                for offset in 0..<count where bytes[index + offset] != marker[offset] { return false }
                return true
            }
        }
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if matches("<layoutList", at: index) {
                inLayouts = true
            } else if matches("</layoutList>", at: index) {
                inLayouts = false
            } else if matches("<optionList", at: index) {
                inOptions = true
            } else if matches("</optionList>", at: index) {
                inOptions = false
            } else if matches("<name>", at: index) {
                let start = index + 6
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "<") { end += 1 }
                let name = String(decoding: bytes[start..<end], as: UTF8.self)
                if inLayouts { layouts.insert(name) }
                if inOptions && name.contains(":") { options.insert(name) }
                index = end
                continue
            }
            index += 1
        }
        return (layouts, options)
    }

    /// Why the model, the options or the number of variants would be silently ignored by
    /// xkbcommon; `nil` when nothing would be.
    ///
    /// - Parameter names: The names to check.
    /// - Returns: The message, with the nearest known name and where the list is.
    func ignoredName(in names: KeymapNames) -> String? {
        if let model = names.model, !model.isEmpty, !models.contains(model) {
            return "unknown keyboard model \"\(model)\"\(Self.suggestion(for: model, in: models)); "
                + "the models are listed under \"! model\" in \(path)"
        }
        for option in Self.list(names.options) where !option.isEmpty {
            guard !options.contains(option) && !extras().options.contains(option) else { continue }
            return "unknown xkb option \"\(option)\"\(Self.suggestion(for: option, in: options)); options are "
                + "group:name, listed under \"! option\" in \(path) (or `localectl list-x11-keymap-options`)"
        }
        let layoutCount = Self.list(names.layout).count
        if let extra = Self.list(names.variant).dropFirst(layoutCount).first(where: { !$0.isEmpty }) {
            return Self.variantWithoutLayout(extra)
        }
        return nil
    }

    /// What the rules do not list, to explain why xkbcommon could not compile a keymap.
    enum Unknown {
        /// A layout; the message names it and the nearest known one.
        case layout(String)
        /// A variant of `layout`; the message names both and the nearest known variant.
        case variant(String, layout: String)
    }

    /// The first layout, or variant of its layout, that the rules do not list; `nil` when all are
    /// listed.
    ///
    /// - Parameter names: The names to check.
    func unknownLayoutOrVariant(in names: KeymapNames) -> Unknown? {
        let layoutNames = Self.list(names.layout)
        for layout in layoutNames where !layouts.contains(layout) && !extras().layoutsAndVariants.contains(layout) {
            return .layout("unknown keyboard layout \"\(layout)\"\(Self.suggestion(for: layout, in: layouts))")
        }
        for (index, variant) in Self.list(names.variant).enumerated() where !variant.isEmpty {
            guard index < layoutNames.count else { return .layout(Self.variantWithoutLayout(variant)) }
            let layout = layoutNames[index]
            let known = variants.filter { $0.layout == layout }.map(\.name)
            guard !known.contains(variant) && !extras().layoutsAndVariants.contains(variant) else { continue }
            let hint = known.isEmpty ? " (it has no variants)" : Self.suggestion(for: variant, in: known)
            return .variant("unknown variant \"\(variant)\" of layout \"\(layout)\"\(hint)", layout: layout)
        }
        return nil
    }

    private static func variantWithoutLayout(_ variant: String) -> String {
        "the variant \"\(variant)\" has no layout: give one layout per variant (layout \"us,de\" with variant \"dvorak,\")"
    }

    /// The parts of a comma-separated list (`us,ru`); empty for `nil`.
    static func list(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmingSpaces) }
    }

    /// ` (did you mean "x"?)` for the nearest known name, or nothing when none is near: one edit
    /// for names of up to 3 characters, two up to 6, else three; ties go to the longer common
    /// prefix, then to the earlier name in the file.
    static func suggestion(for name: String, in candidates: [String]) -> String {
        let allowed = name.count <= 3 ? 1 : name.count <= 6 ? 2 : 3
        let scored = candidates.map { (name: $0, distance: distance(name, $0), prefix: commonPrefix(name, $0)) }
        guard
            let best = scored.filter({ $0.distance <= allowed }).min(by: {
                ($0.distance, -$0.prefix) < ($1.distance, -$1.prefix)
            })
        else { return "" }
        return " (did you mean \"\(best.name)\"?)"
    }

    /// Edit distance, case-insensitive, in which swapping two neighbours is one edit (optimal
    /// string alignment), so that `pc015` is nearer `pc105` than `pc101`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    private static func commonPrefix(_ a: String, _ b: String) -> Int {
        zip(a, b).prefix { $0 == $1 }.count
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
