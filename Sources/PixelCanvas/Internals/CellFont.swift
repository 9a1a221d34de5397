internal import CFontRendering

/// The one owner of the renderer's font objects: fontconfig's queries for the regular and bold faces,
/// the faces loaded (FreeType, HarfBuzz, Cairo; each file and index once), a HarfBuzz buffer, and the
/// cell's metrics. Every fontconfig, FreeType and HarfBuzz call of the module is in `Internals/`.
///
/// Not thread-safe, like the renderer that owns it: a face is used from one thread at a time.
final class CellFont {
    /// The cell's width and height in pixels.
    let cellWidth: Int
    let cellHeight: Int
    /// The baseline's distance from a cell's top, in pixels.
    let baseline: Double
    /// Where an underline goes below the baseline, and how thick it is, in pixels.
    let underlinePosition: Double
    let underlineThickness: Double

    /// A grapheme shaped by the face that draws it.
    struct Cell {
        let face: FontFace
        let shaped: FontFace.Shaped
    }

    private let pixelSize: Double
    /// The font options every scaled font is made with.
    private let options: OpaquePointer
    private let regularQuery: FontconfigQuery
    private let boldQuery: FontconfigQuery
    private let regular: FontFace
    private let bold: FontFace
    /// Every face loaded, by file, index and emboldening: a fallback face is loaded once, however many
    /// characters it serves.
    private var faces: [FaceLocation: FontFace]
    /// Files FreeType could not load, not tried again.
    private var unloadable: Set<FaceLocation> = []
    private let buffer: OpaquePointer
    /// Shaped graphemes, by grapheme and weight: a kiosk redraws the same few dozen over and over, and a
    /// kept one is neither looked up in fontconfig nor shaped again. Emptied when it grows past ``cacheLimit``.
    private var cells: [CellKey: Cell] = [:]
    let cacheLimit = 1024
    /// How many fallback faces are tried for a grapheme the main face lacks.
    private let fallbackLimit = 8

    private struct CellKey: Hashable {
        let character: Character
        let bold: Bool
    }

    /// Generic families fontconfig's configuration maps to a real one, accepted as Pango accepted them.
    private static let genericFamilies = ["monospace", "sans", "sans-serif", "serif", "system-ui"]

    /// Finds the family through fontconfig, loads its regular and bold faces and measures the cell.
    ///
    /// - Parameters:
    ///   - family: The family's name, as `fc-list : family` prints it (case and blanks do not matter).
    ///   - pixelSize: The em size in device pixels.
    /// - Throws: `PixelCanvasError.fontNotFound` when fontconfig knows no such family, or FreeType cannot
    ///   load the face it names.
    init(family: String, pixelSize: Double) throws(PixelCanvasError) {
        self.pixelSize = pixelSize
        regularQuery = FontconfigQuery(family: family, bold: false, pixelSize: pixelSize)
        boldQuery = FontconfigQuery(family: family, bold: true, pixelSize: pixelSize)
        // Fixed options, so that a frame does not depend on the desktop's settings: grey antialiasing
        // (a buffer can end up on any output, so no subpixel order), slight hinting, whole-pixel metrics.
        let options = cairo_font_options_create()!
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_ON)
        guard let (location, families) = regularQuery.match(),
            families.contains(where: { FontconfigQuery.sameFamily($0, family) })
                || Self.genericFamilies.contains(where: { FontconfigQuery.sameFamily($0, family) })
        else {
            cairo_font_options_destroy(options)
            throw PixelCanvasError(
                code: .fontNotFound,
                message: "fontconfig has no font family named '\(family)': install it (the default, DejaVu Sans Mono, "
                    + "is in the Debian package fonts-dejavu-core), or name one that `fc-list : family` lists")
        }
        guard let regular = FontFace(location, pixelSize: pixelSize, options: options) else {
            cairo_font_options_destroy(options)
            throw PixelCanvasError(
                code: .fontNotFound,
                message: "FreeType cannot load \(location.file), the face fontconfig found for '\(family)': "
                    + "reinstall its package, or name another family that `fc-list : family` lists")
        }
        var faces = [location: regular]
        var bold = regular
        if let boldLocation = boldQuery.match()?.location, boldLocation != location,
            let face = FontFace(boldLocation, pixelSize: pixelSize, options: options)
        {
            bold = face
            faces[boldLocation] = face
        }
        self.options = options
        self.regular = regular
        self.bold = bold
        self.faces = faces
        buffer = hb_buffer_create()

        // The cell: the advance of "M" in the regular face (with whole-pixel metrics, the advance every
        // character of a monospaced face has), and the face's ascent and descent.
        var extents = cairo_font_extents_t()
        cairo_scaled_font_extents(regular.scaledFont, &extents)
        var glyph = cairo_glyph_t(index: regular.glyph("M"), x: 0, y: 0)
        var text = cairo_text_extents_t()
        cairo_scaled_font_glyph_extents(regular.scaledFont, &glyph, 1, &text)
        cellWidth = max(1, Int(text.x_advance.rounded()))
        cellHeight = max(1, Int((extents.ascent + extents.descent).rounded()))
        baseline = extents.ascent.rounded()
        let underline = regular.underline(pixelSize: pixelSize) ?? (extents.descent / 2, pixelSize / 16)
        underlinePosition = underline.position
        underlineThickness = max(1, underline.thickness)
    }

    deinit {
        hb_buffer_destroy(buffer)
        cairo_font_options_destroy(options)
    }

    /// A grapheme shaped by the face that has it: the regular or bold face when it has every character,
    /// else the first of fontconfig's fallbacks that does, else the main face's `.notdef`. Kept for the
    /// next time.
    func cell(for character: Character, bold isBold: Bool) -> Cell {
        let key = CellKey(character: character, bold: isBold)
        if let cell = cells[key] { return cell }
        if cells.count >= cacheLimit { cells.removeAll(keepingCapacity: true) }
        let text = String(character)
        let main = isBold ? bold : regular
        var cell = Cell(face: main, shaped: main.shape(text, in: buffer))
        if cell.shaped.missing {
            let scalars = Array(character.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint })
            let query = isBold ? boldQuery : regularQuery
            for location in query.faces(having: scalars, limit: fallbackLimit) {
                guard let face = face(at: location) else { continue }
                let shaped = face.shape(text, in: buffer)
                if !shaped.missing {
                    cell = Cell(face: face, shaped: shaped)
                    break
                }
            }
        }
        cells[key] = cell
        return cell
    }

    /// How many fallback faces were loaded (for tests): each file and index once, however many characters
    /// it serves.
    private(set) var fallbackLoads = 0

    /// How many shaped graphemes are kept (for tests): at most ``cacheLimit``.
    var cachedCellCount: Int { cells.count }

    /// The face at a location, loaded the first time.
    private func face(at location: FaceLocation) -> FontFace? {
        if let face = faces[location] { return face }
        guard !unloadable.contains(location) else { return nil }
        fallbackLoads += 1
        guard let face = FontFace(location, pixelSize: pixelSize, options: options) else {
            unloadable.insert(location)
            return nil
        }
        faces[location] = face
        return face
    }
}
