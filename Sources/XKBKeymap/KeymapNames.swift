internal import LinuxSystem

/// The names xkbcommon compiles a keymap from: rules, model, layout, variant, options (RMLVO).
public struct KeymapNames: Hashable, Sendable, CustomStringConvertible {
    /// The rules file, usually `evdev`.
    public var rules: String?
    /// The keyboard model, such as `pc105`.
    public var model: String?
    /// The layout, such as `us`, `de` or `us,ru`.
    public var layout: String?
    /// The variant of the layout, such as `nodeadkeys`.
    public var variant: String?
    /// Options, such as `ctrl:nocaps,compose:ralt`.
    public var options: String?

    /// Creates keymap names; `nil` fields are filled from the next source (see ``resolved(environment:keyboardFile:)``).
    ///
    /// - Parameters:
    ///   - rules: The rules file.
    ///   - model: The model.
    ///   - layout: The layout.
    ///   - variant: The variant.
    ///   - options: The options.
    public init(
        rules: String? = nil, model: String? = nil, layout: String? = nil, variant: String? = nil,
        options: String? = nil
    ) {
        self.rules = rules
        self.model = model
        self.layout = layout
        self.variant = variant
        self.options = options
    }

    /// Where the names came from, for messages and keytrace's status line.
    public enum Source: String, Hashable, Sendable {
        /// Given explicitly (a flag, the app's configuration).
        case explicit
        /// The `XKB_DEFAULT_*` environment variables.
        case environment
        /// `/etc/default/keyboard` (`XKBLAYOUT`, `XKBVARIANT`, `XKBMODEL`, `XKBOPTIONS`).
        case keyboardFile
        /// The built-in default, `us`.
        case fallback
    }

    /// `layout(variant)`, or `us` when nothing is set.
    public var description: String {
        let base = layout ?? "us"
        guard let variant, !variant.isEmpty else { return base }
        return "\(base)(\(variant))"
    }

    /// Fills the unset fields in the documented order: these names, then `XKB_DEFAULT_RULES`,
    /// `XKB_DEFAULT_MODEL`, `XKB_DEFAULT_LAYOUT`, `XKB_DEFAULT_VARIANT`, `XKB_DEFAULT_OPTIONS`, then
    /// `/etc/default/keyboard`, then layout `us`.
    ///
    /// The layout and its variant always come from the same source, so a variant meant for one
    /// layout is never applied to another; rules, model and options are filled field by field.
    ///
    /// - Parameters:
    ///   - environment: The environment to read `XKB_DEFAULT_*` from.
    ///   - keyboardFile: The path of the Debian keyboard configuration.
    /// - Returns: The completed names and where the layout came from.
    public func resolved(environment: [String: String], keyboardFile: String = "/etc/default/keyboard")
        -> (names: KeymapNames, layoutSource: Source)
    {
        func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
        let fromEnvironment = KeymapNames(
            rules: nonEmpty(environment["XKB_DEFAULT_RULES"]), model: nonEmpty(environment["XKB_DEFAULT_MODEL"]),
            layout: nonEmpty(environment["XKB_DEFAULT_LAYOUT"]), variant: nonEmpty(environment["XKB_DEFAULT_VARIANT"]),
            options: nonEmpty(environment["XKB_DEFAULT_OPTIONS"]))
        let file = Self.readKeyboardFile(keyboardFile)
        let fromFile = KeymapNames(
            model: nonEmpty(file["XKBMODEL"]), layout: nonEmpty(file["XKBLAYOUT"]),
            variant: nonEmpty(file["XKBVARIANT"]),
            options: nonEmpty(file["XKBOPTIONS"]))
        let sources: [(KeymapNames, Source)] = [
            (self, .explicit), (fromEnvironment, .environment), (fromFile, .keyboardFile),
        ]
        var result = KeymapNames()
        var layoutSource = Source.fallback
        if let (names, source) = sources.first(where: { nonEmpty($0.0.layout) != nil }) {
            result.layout = names.layout
            result.variant = nonEmpty(names.variant)
            layoutSource = source
        } else {
            result.layout = "us"
        }
        result.rules = sources.lazy.compactMap { nonEmpty($0.0.rules) }.first
        result.model = sources.lazy.compactMap { nonEmpty($0.0.model) }.first
        result.options = sources.lazy.compactMap { nonEmpty($0.0.options) }.first
        return (result, layoutSource)
    }

    /// Reads `KEY="value"` lines of a shell-style configuration file; a missing file reads as empty.
    static func readKeyboardFile(_ path: String) -> [String: String] {
        guard let text = readTextFile(path) else { return [:] }
        var values: [String: String] = [:]
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            var value = line[line.index(after: equals)...].drop { $0 == " " }
            while let last = value.last, last == " " || last == "\t" || last == "\r" { value = value.dropLast() }
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = value.dropFirst().dropLast()
            }
            values[key] = String(value)
        }
        return values
    }
}
