internal import CCairoGraphics
internal import ResponderChain

/// A Pango layout kept between frames, with what drawing it needs: its logical size and its lines'
/// places, read once.
final class TextLayout {
    /// The `PangoLayout`.
    let layout: GObjectReference
    /// Its logical size in points.
    let width: Double
    let height: Double
    /// Its lines: the byte where each starts and where it ends down the layout, in Pango units.
    let lines: [(start: Int, bottom: Int32)]
    /// The last fit worked out for a rectangle's height (a label is drawn in the same one each frame).
    var lastFit: (maxHeight: Int32, fit: TextFit)?

    init(_ layout: OpaquePointer) {
        self.layout = GObjectReference(layout)
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_size(layout, &width, &height)
        self.width = Double(width) / Double(TextEngine.pangoScale)
        self.height = Double(height) / Double(TextEngine.pangoScale)
        var lines: [(start: Int, bottom: Int32)] = []
        if let iterator = pango_layout_get_iter(layout) {
            repeat {
                var top: Int32 = 0
                var bottom: Int32 = 0
                pango_layout_iter_get_line_yrange(iterator, &top, &bottom)
                lines.append((Int(pango_layout_iter_get_index(iterator)), bottom))
            } while pango_layout_iter_next_line(iterator) != 0
            pango_layout_iter_free(iterator)
        }
        self.lines = lines
    }

    var pointer: OpaquePointer { layout.pointer }
}

/// What is drawn for a text in a rectangle: a layout, and the height to clip it at when lines are
/// dropped without an ellipsis (``TextStyle/Truncation/none``).
struct TextFit {
    let layout: TextLayout
    let clipHeight: Double?
    /// Whether lines or paragraphs were left out (Pango's ellipsis says the rest).
    var dropsLines: Bool { clipHeight != nil || isCut }
    /// Whether the text was cut after the last paragraph shown.
    var isCut = false

    /// The height the text takes, in points.
    var height: Double { min(layout.height, clipHeight ?? layout.height) }
}

/// Pango's side of the renderer: one `PangoContext` per scale and reading direction, and the layouts
/// kept in a bounded cache keyed by everything that shapes them, so that a label drawn again (and
/// measured) is not shaped again.
final class TextEngine {
    /// Pango units per point.
    static let pangoScale = Int32(CCairoGraphicsPangoScale)

    /// Everything a layout depends on. Colour and vertical placement are applied when drawing.
    struct LayoutKey: Hashable {
        var text: String
        var font: Font
        /// `CCairoGraphicsPangoAlign*`, resolved to left or right for the reading direction.
        var alignment: UInt32
        /// `CCairoGraphicsPangoEllipsize*`.
        var ellipsize: UInt32
        /// Pango units; -1 for no wrapping.
        var width: Int32
        /// Pango units when positive; negative: at most that many lines a paragraph.
        var height: Int32
        var direction: LayoutDirection
        var scale: Double
    }

    private struct ContextKey: Hashable {
        let scale: Double
        let direction: LayoutDirection
    }

    /// The renderer's own font map (fontconfig's fonts and fallbacks): Pango's default one is the
    /// thread's, and a renderer handed to another thread would then share it with whatever that first
    /// thread draws next. Made (or taken from ``CairoRenderer/prepareFonts()``) at the first text.
    private var fontMap: GObjectReference?
    private var contexts: [ContextKey: GObjectReference] = [:]
    private(set) var layouts: LRUCache<LayoutKey, TextLayout>
    /// How many layouts were made (shaped), for tests and benchmarks.
    private(set) var layoutsMade = 0

    /// The font map ``CairoRenderer/prepareFonts()`` is making, claimed at init on the thread that
    /// asked for it, until the first text takes it.
    private var prepared: PreparedFontMap?
    /// Whether the font map is (or will be) the one ``CairoRenderer/prepareFonts()`` made (tests).
    private(set) var usesPreparedFontMap: Bool

    init(layoutLimit: Int) {
        layouts = LRUCache(costLimit: layoutLimit)
        prepared = PreparedFontMap.claim()
        usesPreparedFontMap = prepared != nil
    }

    /// A renderer that never shaped a text still waits for the font map it claimed, and lets it go.
    deinit {
        _ = prepared?.take()
    }

    /// The font map: the one ``CairoRenderer/prepareFonts()`` made when this renderer claimed it
    /// (waiting for its thread), else a new one from `pango_cairo_font_map_new`.
    private func currentFontMap() -> OpaquePointer {
        if let fontMap { return fontMap.pointer }
        let taken = prepared?.take()
        prepared = nil
        usesPreparedFontMap = taken != nil
        guard let made = taken ?? pango_cairo_font_map_new().map(GObjectReference.init) else {
            fatalError("pango_cairo_font_map_new failed: out of memory")
        }
        fontMap = made
        return made.pointer
    }

    /// Forgets every layout and context.
    func removeAll() {
        layouts.removeAll()
        contexts = [:]
    }

    // MARK: Layouts for drawing and measuring

    /// The layout of a text set in a style, `width` points wide (`nil`: no wrapping), before any
    /// rectangle's height limits it: the one ``measure`` and ``fit`` share.
    func natural(
        _ text: String, style: TextStyle, width: Double?, direction: LayoutDirection, scale: Double
    ) -> (TextLayout, LayoutKey) {
        var key = LayoutKey(
            text: Self.prepared(text), font: style.font, alignment: Self.alignment(style.alignment, direction),
            ellipsize: Self.ellipsize(style.truncation), width: Self.pangoUnits(width), height: 0,
            direction: direction, scale: scale)
        // Negative: lines a paragraph. Int32.max: no limit (as many as fit, cut later by the rectangle).
        key.height = style.lineLimit > 0 ? -Int32(clamping: style.lineLimit) : Int32.max
        return (layout(for: key), key)
    }

    /// The size a text takes: its natural layout's logical size, at most `lineLimit` lines when its
    /// paragraphs make more.
    func measure(
        _ text: String, style: TextStyle, width: Double?, direction: LayoutDirection, scale: Double
    ) -> Size {
        let (layout, _) = natural(text, style: style, width: width, direction: direction, scale: scale)
        var height = layout.height
        if style.lineLimit > 0, layout.lines.count > style.lineLimit {
            height = Double(layout.lines[style.lineLimit - 1].bottom) / Double(Self.pangoScale)
        }
        return Size(width: layout.width, height: height)
    }

    /// The layout to draw in a rectangle: the natural one when it fits the height and the line limit,
    /// else one with the lines that fit, the last ending in an ellipsis (or, without truncation, the
    /// natural one clipped below them).
    func fit(
        _ text: String, style: TextStyle, width: Double?, maxHeight: Double, direction: LayoutDirection,
        scale: Double
    ) -> TextFit {
        let (natural, key) = self.natural(text, style: style, width: width, direction: direction, scale: scale)
        let limit = Self.pangoUnits(maxHeight)
        if let last = natural.lastFit, last.maxHeight == limit { return last.fit }
        let fit = fitting(natural, key: key, lineLimit: style.lineLimit, maxHeight: limit)
        natural.lastFit = (limit, fit)
        return fit
    }

    private func fitting(_ natural: TextLayout, key: LayoutKey, lineLimit: Int, maxHeight: Int32) -> TextFit {
        let lines = natural.lines
        var shown = 0
        while shown < lines.count, lines[shown].bottom <= maxHeight || shown == 0 {
            shown += 1
            if lineLimit > 0, shown == lineLimit { break }
        }
        guard shown < lines.count else { return TextFit(layout: natural, clipHeight: nil) }
        let bottom = lines[shown - 1].bottom
        guard key.ellipsize != UInt32(CCairoGraphicsPangoEllipsizeNone), key.width >= 0 else {
            return TextFit(layout: natural, clipHeight: Double(bottom) / Double(Self.pangoScale))
        }
        // Pango keeps at least one line of every paragraph whatever the height, so the paragraphs after
        // the last line shown are cut from the text; the height then ellipsizes the last paragraph.
        var cut = key
        cut.text = Self.text(key.text, cutAtLineStarting: lines[shown].start, ellipsis: key.ellipsize)
        cut.height = bottom
        return TextFit(layout: layout(for: cut), clipHeight: nil, isCut: true)
    }

    // MARK: Pango

    /// A layout from the cache, or made and kept.
    func layout(for key: LayoutKey) -> TextLayout {
        if let kept = layouts.value(for: key) { return kept }
        let made = makeLayout(key)
        layouts.insert(made, for: key)
        return made
    }

    /// Uses `pango_layout_new` on the context for the key's scale and direction, with auto-dir on
    /// (a paragraph runs in its own direction).
    private func makeLayout(_ key: LayoutKey) -> TextLayout {
        layoutsMade += 1
        let context = self.context(scale: key.scale, direction: key.direction)
        guard let layout = pango_layout_new(context) else { fatalError("pango_layout_new failed: out of memory") }
        pango_layout_set_auto_dir(layout, 1)
        let description = pango_font_description_new()
        key.font.family.withCString { pango_font_description_set_family(description, $0) }
        pango_font_description_set_absolute_size(description, key.font.size * Double(Self.pangoScale))
        pango_font_description_set_weight(description, UInt32(key.font.weight.value))
        pango_font_description_set_style(
            description,
            UInt32(key.font.isItalic ? CCairoGraphicsPangoStyleItalic : CCairoGraphicsPangoStyleNormal))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        key.text.withCString { pango_layout_set_text(layout, $0, Int32(clamping: key.text.utf8.count)) }
        pango_layout_set_width(layout, key.width)
        pango_layout_set_height(layout, key.height)
        pango_layout_set_wrap(layout, UInt32(CCairoGraphicsPangoWrapWordChar))
        pango_layout_set_ellipsize(layout, key.ellipsize)
        pango_layout_set_alignment(layout, key.alignment)
        // Pango swaps left and right for a paragraph whose direction differs from the context's: swap
        // back for the first paragraph, so that left stays left (leading is the view's, not the text's).
        if key.alignment != UInt32(CCairoGraphicsPangoAlignCenter), let line = pango_layout_get_line_readonly(layout, 0)
        {
            let direction = pango_layout_line_get_resolved_direction(line)
            let rightToLeft = direction == UInt32(CCairoGraphicsPangoDirectionRTL) || direction == 5  // WEAK_RTL
            if rightToLeft != (key.direction == .rightToLeft) {
                let swapped =
                    key.alignment == UInt32(CCairoGraphicsPangoAlignLeft)
                    ? CCairoGraphicsPangoAlignRight : CCairoGraphicsPangoAlignLeft
                pango_layout_set_alignment(layout, UInt32(swapped))
            }
        }
        return TextLayout(layout)
    }

    /// The context for a scale and a base direction: glyphs hinted for the device pixels (its matrix
    /// is the scale), grey antialiasing, slight hinting, unhinted metrics and unrounded positions so
    /// that a layout keeps its proportions at every scale.
    ///
    /// Uses `pango_font_map_create_context` on the renderer's font map, and `pango_cairo_update_context`
    /// from a scaled scratch context.
    private func context(scale: Double, direction: LayoutDirection) -> OpaquePointer {
        let key = ContextKey(scale: scale, direction: direction)
        if let kept = contexts[key] { return kept.pointer }
        if contexts.count >= 8 { contexts = [:] }  // layouts keep their own reference to theirs
        guard let context = pango_font_map_create_context(currentFontMap()) else {
            fatalError("pango_font_map_create_context failed: out of memory")
        }
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_base_dir(
            context,
            UInt32(direction == .rightToLeft ? CCairoGraphicsPangoDirectionRTL : CCairoGraphicsPangoDirectionLTR))
        if let scratch = CairoSurface(format: CAIRO_FORMAT_ARGB32, width: 1, height: 1) {
            scratch.draw { cairo in
                cairo_scale(cairo, scale, scale)
                pango_cairo_update_context(cairo, context)
            }
        }
        contexts[key] = GObjectReference(context)
        return context
    }

    // MARK: Values

    /// Pango units for a length in points; -1 (no limit) for `nil` or a value that is not finite.
    static func pangoUnits(_ points: Double?) -> Int32 {
        guard let points, points.isFinite else { return -1 }
        return Int32(clamping: Int64((max(0, points) * Double(pangoScale)).rounded(.down)))
    }

    /// The alignment as Pango takes it: left, centre or right, from leading and trailing in a direction.
    static func alignment(_ alignment: TextStyle.Alignment, _ direction: LayoutDirection) -> UInt32 {
        let leftToRight = direction != .rightToLeft
        switch alignment {
        case .leading: return UInt32(leftToRight ? CCairoGraphicsPangoAlignLeft : CCairoGraphicsPangoAlignRight)
        case .center: return UInt32(CCairoGraphicsPangoAlignCenter)
        case .trailing: return UInt32(leftToRight ? CCairoGraphicsPangoAlignRight : CCairoGraphicsPangoAlignLeft)
        }
    }

    static func ellipsize(_ truncation: TextStyle.Truncation) -> UInt32 {
        switch truncation {
        case .end: return UInt32(CCairoGraphicsPangoEllipsizeEnd)
        case .middle: return UInt32(CCairoGraphicsPangoEllipsizeMiddle)
        case .start: return UInt32(CCairoGraphicsPangoEllipsizeStart)
        case .none: return UInt32(CCairoGraphicsPangoEllipsizeNone)
        }
    }

    /// The text as Pango takes it: a NUL (which would end the C string) becomes U+FFFD.
    static func prepared(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        return String(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) })
    }

    /// The text up to the end of the paragraph holding the byte `start` (where the first line not shown
    /// starts). When that line starts a paragraph, the text ends before it with an ellipsis (for
    /// truncation at the end), since Pango would not know text was cut.
    static func text(_ text: String, cutAtLineStarting start: Int, ellipsis: UInt32) -> String {
        let bytes = Array(text.utf8)
        guard start > 0, start <= bytes.count else { return text }
        var separatorStart: Int?
        if bytes[start - 1] == 0x0A || bytes[start - 1] == 0x0D {
            separatorStart = start - 1
            if bytes[start - 1] == 0x0A, start >= 2, bytes[start - 2] == 0x0D { separatorStart = start - 2 }
        } else if start >= 3, bytes[start - 3] == 0xE2, bytes[start - 2] == 0x80, bytes[start - 1] == 0xA9 {
            separatorStart = start - 3  // U+2029 PARAGRAPH SEPARATOR
        }
        if let separatorStart {
            let kept = String(decoding: bytes[..<separatorStart], as: UTF8.self)
            return ellipsis == UInt32(CCairoGraphicsPangoEllipsizeEnd) ? kept + "…" : kept
        }
        var end = start
        while end < bytes.count {
            if bytes[end] == 0x0A || bytes[end] == 0x0D { break }
            if end + 2 < bytes.count, bytes[end] == 0xE2, bytes[end + 1] == 0x80, bytes[end + 2] == 0xA9 { break }
            end += 1
        }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
