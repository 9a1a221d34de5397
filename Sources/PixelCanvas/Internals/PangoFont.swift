internal import CPangoCairo

/// The one owner of Pango's objects: a font map of its own (fontconfig finds the faces), a context
/// with fixed font options, the regular and bold descriptions, and the layouts that draw single
/// cells. Every Pango and Cairo call of the module is in `Internals/`.
///
/// Not thread-safe, like the renderer that owns it: Pango objects are confined to one thread.
final class PangoFont {
    /// The cell's width and height in pixels.
    let cellWidth: Int
    let cellHeight: Int
    /// The baseline's distance from a cell's top, in pixels.
    let baseline: Double
    /// Where an underline goes below the baseline, and how thick it is, in pixels.
    let underlinePosition: Double
    let underlineThickness: Double

    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer
    private let regular: OpaquePointer
    private let bold: OpaquePointer
    /// Laid-out characters, by character and weight: a kiosk redraws the same few dozen over and over,
    /// and a kept layout is not shaped again. Emptied when it grows past ``cacheLimit``.
    private var layouts: [LayoutKey: OpaquePointer] = [:]
    private let cacheLimit = 1024

    private struct LayoutKey: Hashable {
        let character: Character
        let bold: Bool
    }

    /// Finds the family through fontconfig and measures its cell.
    ///
    /// - Parameters:
    ///   - family: The family's name, as `fc-list : family` prints it.
    ///   - pixelSize: The em size in device pixels.
    /// - Throws: `PixelCanvasError.fontNotFound` when fontconfig knows no such family.
    init(family: String, pixelSize: Double) throws(PixelCanvasError) {
        fontMap = pango_cairo_font_map_new()
        guard Self.hasFamily(family, in: fontMap) else {
            g_object_unref(fontMap)
            throw PixelCanvasError(
                code: .fontNotFound,
                message: "fontconfig has no font family named '\(family)': install it (the default, DejaVu Sans Mono, "
                    + "is in the Debian package fonts-dejavu-core), or name one that `fc-list : family` lists")
        }
        context = pango_font_map_create_context(fontMap)
        // Fixed options, so that a frame does not depend on the desktop's settings: grey antialiasing
        // (a buffer can end up on any output, so no subpixel order), slight hinting, whole-pixel advances.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_ON)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        regular = pango_font_description_new()
        pango_font_description_set_family(regular, family)
        pango_font_description_set_absolute_size(regular, pixelSize * Double(PANGO_SCALE))
        bold = pango_font_description_copy(regular)
        pango_font_description_set_weight(bold, PANGO_WEIGHT_BOLD)

        // The cell: the logical extent of "M" in the regular face (with whole-pixel metrics, the advance
        // every character of a monospaced face has, and the line's height).
        let probe = pango_layout_new(context)
        pango_layout_set_font_description(probe, regular)
        pango_layout_set_text(probe, "M", -1)
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(probe, &ink, &logical)
        cellWidth = max(1, Int(logical.width))
        cellHeight = max(1, Int(logical.height))
        baseline = Double(pango_layout_get_baseline(probe)) / Double(PANGO_SCALE)
        g_object_unref(UnsafeMutableRawPointer(probe))
        let metrics = pango_context_get_metrics(context, regular, nil)
        underlinePosition = -Double(pango_font_metrics_get_underline_position(metrics)) / Double(PANGO_SCALE)
        underlineThickness = max(1, Double(pango_font_metrics_get_underline_thickness(metrics)) / Double(PANGO_SCALE))
        pango_font_metrics_unref(metrics)
    }

    deinit {
        for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_font_description_free(regular)
        pango_font_description_free(bold)
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
    }

    /// Whether fontconfig (through Pango's font map) knows the family, ignoring case.
    ///
    /// Uses `pango_font_map_list_families`.
    private static func hasFamily(_ family: String, in fontMap: UnsafeMutablePointer<PangoFontMap>) -> Bool {
        var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
        var count: Int32 = 0
        pango_font_map_list_families(fontMap, &families, &count)
        defer { g_free(families) }
        guard let families else { return false }
        let wanted = family.lowercased()
        for index in 0..<Int(count) {
            guard let name = pango_font_family_get_name(families[index]) else { continue }
            if String(cString: name).lowercased() == wanted { return true }
        }
        return false
    }

    /// A layout holding one character, kept for the next time.
    func layout(for character: Character, bold isBold: Bool) -> OpaquePointer {
        let key = LayoutKey(character: character, bold: isBold)
        if let layout = layouts[key] { return layout }
        if layouts.count >= cacheLimit {
            for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
            layouts.removeAll(keepingCapacity: true)
        }
        let layout = pango_layout_new(context)!
        pango_layout_set_font_description(layout, isBold ? bold : regular)
        pango_layout_set_text(layout, String(character), -1)
        layouts[key] = layout
        return layout
    }
}
