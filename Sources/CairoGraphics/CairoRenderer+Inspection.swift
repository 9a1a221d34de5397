internal import CCairoGraphics
package import ResponderChain

/// What the renderer keeps and has made: for tests and benchmarks.
package struct CacheCounts: Hashable, Sendable {
    /// Text layouts kept, and made (shaped) since the renderer was created.
    package var layouts: Int
    package var layoutsMade: Int
    /// Image entries kept (decoded files, device sizes, failures) and their bytes.
    package var images: Int
    package var imageBytes: Int
    /// Files decoded and device sizes made.
    package var decodes: Int
    package var scalings: Int
    /// SVG documents librsvg parsed, and the disk cache's files read and written.
    package var svgParses: Int
    package var svgCacheReads: Int
    package var svgCacheWrites: Int
    /// Shadow masks kept, and made (blurred).
    package var shadowMasks: Int
    package var shadowMasksMade: Int
    /// The bytes the kept shadow masks take.
    package var shadowMaskBytes: Int
    /// Rounded rectangles' coverage masks kept, and made (drawn), and the bytes they take.
    package var shapeMasks: Int
    package var shapeMasksMade: Int
    package var shapeMaskBytes: Int
}

extension CairoRenderer {
    /// What the caches hold and have made.
    package var cacheCounts: CacheCounts {
        CacheCounts(
            layouts: text.layouts.count, layoutsMade: text.layoutsMade, images: images.count,
            imageBytes: images.bytes, decodes: images.decodes, scalings: images.scalings,
            svgParses: images.svgParses, svgCacheReads: images.disk?.reads ?? 0,
            svgCacheWrites: images.disk?.writes ?? 0, shadowMasks: shadows.count,
            shadowMasksMade: shadows.masksMade, shadowMaskBytes: shadows.bytes, shapeMasks: shapes.count,
            shapeMasksMade: shapes.masksMade, shapeMaskBytes: shapes.bytes)
    }

    /// How many characters of the text no font has a glyph for (drawn as boxes) when laid out in the
    /// style: 0 when fontconfig's fallbacks cover it.
    ///
    /// Uses `pango_layout_get_unknown_glyphs_count`.
    package func unknownGlyphCount(
        _ text: String, style: TextStyle, scale: Double = 1, layoutDirection: LayoutDirection = .leftToRight
    ) -> Int {
        let (layout, _) = self.text.natural(text, style: style, width: nil, direction: layoutDirection, scale: scale)
        return Int(pango_layout_get_unknown_glyphs_count(layout.pointer))
    }

    /// Whether the text drawn in a rectangle of this size is cut: ellipsized, or lines dropped.
    ///
    /// Uses `pango_layout_is_ellipsized`.
    package func isTruncated(
        _ text: String, in size: Size, style: TextStyle, scale: Double = 1,
        layoutDirection: LayoutDirection = .leftToRight
    ) -> Bool {
        let wraps = CairoGraphicsContext.wraps(style)
        let fit = self.text.fit(
            text, style: style, width: wraps ? size.width : nil, maxHeight: size.height, direction: layoutDirection,
            scale: scale)
        if fit.dropsLines || (!wraps && fit.layout.width > size.width) { return true }
        return pango_layout_is_ellipsized(fit.layout.pointer) != 0
    }
}
