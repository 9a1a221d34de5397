internal import CFontRendering

/// Where a face is: its file, its index in the file (a collection holds several), and whether
/// fontconfig asks for synthetic bold (a bold request served by a face that has no bold).
struct FaceLocation: Hashable {
    let file: String
    let index: Int
    let embolden: Bool
}

/// fontconfig's answers for one family, weight and size: the face that matches best, and the faces to
/// take a character from when that face lacks it, best first (`fc-match -s`).
///
/// Uses the process's current configuration, which fontconfig loads once. Owns its pattern and its
/// sorted font set, destroyed in `deinit`.
final class FontconfigQuery {
    /// The pattern asked for, with the configuration's substitutions and the defaults applied.
    private let pattern: OpaquePointer
    /// The faces in order of preference, made the first time a character needs a fallback.
    private var sorted: UnsafeMutablePointer<FcFontSet>?

    /// Makes the pattern.
    ///
    /// Uses `FcConfigSubstitute` and `FcDefaultSubstitute`.
    init(family: String, bold: Bool, pixelSize: Double) {
        pattern = FcPatternCreate()
        family.withCString { name in
            _ = FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer(name).assumingMemoryBound(to: FcChar8.self))
        }
        FcPatternAddInteger(pattern, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR)
        FcPatternAddDouble(pattern, FC_PIXEL_SIZE, pixelSize)
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
    }

    deinit {
        if let sorted { FcFontSetDestroy(sorted) }
        FcPatternDestroy(pattern)
    }

    /// The face that matches best, and the family names it has (a face can have several, one per
    /// language); nil when fontconfig knows no font at all.
    ///
    /// Uses `FcFontMatch`.
    func match() -> (location: FaceLocation, families: [String])? {
        var result = FcResultMatch
        guard let matched = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        guard let location = Self.location(of: matched) else { return nil }
        var families: [String] = []
        var name: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(matched, FC_FAMILY, Int32(families.count), &name) == FcResultMatch, let name {
            families.append(String(cString: name))
        }
        return (location, families)
    }

    /// The faces that have every one of `scalars`, best first, then those that have at least the first;
    /// at most `limit` of them.
    ///
    /// Uses `FcFontSort` (once), `FcCharSetHasChar` and `FcFontRenderPrepare`.
    func faces(having scalars: [Unicode.Scalar], limit: Int) -> [FaceLocation] {
        guard let first = scalars.first, let set = sortedSet() else { return [] }
        var all: [FaceLocation] = []
        var some: [FaceLocation] = []
        for index in 0..<Int(set.pointee.nfont) {
            guard all.count < limit, let font = set.pointee.fonts[index] else { break }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset else { continue }
            let hasAll = scalars.allSatisfy { FcCharSetHasChar(charset, $0.value) != 0 }
            guard hasAll || (some.count < limit && FcCharSetHasChar(charset, first.value) != 0) else { continue }
            guard let prepared = FcFontRenderPrepare(nil, pattern, font) else { continue }
            defer { FcPatternDestroy(prepared) }
            guard let location = Self.location(of: prepared) else { continue }
            if hasAll { all.append(location) } else { some.append(location) }
        }
        return Array((all + some).prefix(limit))
    }

    /// Whether two family names are the same to fontconfig: equal but for case and blanks (fontconfig
    /// compares family names that way).
    static func sameFamily(_ a: String, _ b: String) -> Bool {
        func folded(_ name: String) -> String { name.lowercased().filter { $0 != " " } }
        return folded(a) == folded(b)
    }

    private func sortedSet() -> UnsafeMutablePointer<FcFontSet>? {
        if sorted == nil {
            var result = FcResultMatch
            sorted = FcFontSort(nil, pattern, FcBool(FcTrue), nil, &result)
        }
        return sorted
    }

    /// A matched or prepared pattern's file, index and embolden.
    private static func location(of pattern: OpaquePointer) -> FaceLocation? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(pattern, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        var embolden = FcBool(FcFalse)
        if FcPatternGetBool(pattern, FC_EMBOLDEN, 0, &embolden) != FcResultMatch { embolden = FcBool(FcFalse) }
        return FaceLocation(file: String(cString: file), index: Int(index), embolden: embolden != 0)
    }
}
