internal import CCairoGraphics
public import ResponderChain

extension CairoGraphicsContext {
    /// Draws text laid out by Pango: shaped by HarfBuzz (Arabic joined, marks placed), each paragraph in
    /// its own direction (an Arabic or Hebrew label runs right to left whatever the screen's direction),
    /// characters the font lacks from fontconfig's fallbacks (Chinese, colour emoji), broken at word
    /// boundaries, at most `TextStyle.lineLimit` lines and as many as fit the rectangle,
    /// the last cut with an ellipsis where the style says.
    ///
    /// `TextStyle.Alignment.leading` is the left in a left-to-right
    /// ``layoutDirection`` and the right in a right-to-left one, whatever the text's own direction (for
    /// the first paragraph; a later paragraph of the other direction aligns by its own). The block of
    /// lines sits down the rectangle as `TextStyle.verticalAlignment` says. Text that
    /// does not fit and is not truncated is clipped to the rectangle.
    ///
    /// Layouts are kept (up to ``CairoRenderer/Limits/textLayouts``), keyed by the text, the font, the
    /// alignment, the width, the line limit, the truncation, the direction and the scale: drawing the
    /// same label again shapes nothing. The colour is not part of the key.
    ///
    /// Uses `pango_cairo_show_layout`.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - rect: Where, in points.
    ///   - style: How.
    public func draw(_ text: String, in rect: Rect, style: TextStyle) {
        guard canDraw, !text.isEmpty, Self.isFinite(rect), rect.width > 0, rect.height > 0 else { return }
        // Glyphs' ink may pass their lines' boxes (accents, overhangs): a font size around the rectangle.
        let ink = abs(style.font.size)
        guard !isClippedOut(rect.insetBy(dx: -ink, dy: -ink)) else { return }
        let placed = place(text, in: rect, style: style)
        if let shadow {
            castShadow(shadow, covering: rect) { cairo in show(placed, rect: rect, on: cairo) }
        }
        let color = style.color
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
        show(placed, rect: rect, on: cairo)
    }

    /// The size text takes, from the same kept layout as drawing it `width` points wide.
    ///
    /// Uses `pango_layout_get_size`.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - style: How it is set.
    ///   - width: The width to break lines at; `nil` for one line per paragraph.
    /// - Returns: Its size in points: the widest line, and the lines' height (at most
    ///   `TextStyle.lineLimit` lines).
    public func measure(_ text: String, style: TextStyle, width: Double?) -> Size {
        checkUsable()
        return renderer.text.measure(
            text, style: style, width: Self.wraps(style) ? width : nil, direction: layoutDirection, scale: scale)
    }

    /// Text laid out and placed in a rectangle.
    struct PlacedText {
        let fit: TextFit
        let x: Double
        let y: Double
        /// Whether it must be clipped to the rectangle (it does not fit, and is not truncated).
        let clips: Bool
    }

    /// Lays the text out for the rectangle (a kept layout when there is one) and places it.
    func place(_ text: String, in rect: Rect, style: TextStyle) -> PlacedText {
        let wraps = Self.wraps(style)
        let fit = renderer.text.fit(
            text, style: style, width: wraps ? rect.width : nil, maxHeight: rect.height, direction: layoutDirection,
            scale: scale)
        let layout = fit.layout
        var x = rect.minX
        if !wraps {
            // One line, never wrapped: placed here, since Pango aligns only within a width.
            let alignment = TextEngine.alignment(style.alignment, layoutDirection)
            let fraction =
                alignment == UInt32(CCairoGraphicsPangoAlignLeft)
                ? 0 : alignment == UInt32(CCairoGraphicsPangoAlignCenter) ? 0.5 : 1
            x += (rect.width - layout.width) * fraction
        }
        let height = fit.height
        let down: Double
        switch style.verticalAlignment {
        case .top: down = 0
        case .center: down = 0.5
        case .bottom: down = 1
        }
        let y = rect.minY + (rect.height - height) * down
        let clips = fit.clipHeight != nil || layout.width > rect.width + 0.01 || height > rect.height + 0.01
        return PlacedText(fit: fit, x: x, y: y, clips: clips)
    }

    /// Whether lines are broken at the rectangle's width: always, except for one line that is not
    /// truncated (clipped instead).
    static func wraps(_ style: TextStyle) -> Bool {
        !(style.lineLimit == 1 && style.truncation == .none)
    }

    /// Draws placed text with the source set on `cairo`.
    private func show(_ placed: PlacedText, rect: Rect, on cairo: OpaquePointer) {
        if placed.clips {
            cairo_save(cairo)
            let bottom = placed.fit.clipHeight.map { min(rect.maxY, placed.y + $0) } ?? rect.maxY
            cairo_rectangle(cairo, rect.x, rect.y, rect.width, max(0, bottom - rect.y))
            cairo_clip(cairo)
        }
        cairo_move_to(cairo, placed.x, placed.y)
        pango_cairo_show_layout(cairo, placed.fit.layout.pointer)
        if placed.clips { cairo_restore(cairo) }
    }
}
