internal import CFontRendering
internal import Synchronization

/// The one FreeType library of the process, behind a lock: FreeType lets faces be used from any thread,
/// each from one at a time, but making and freeing faces changes the library's lists and must be
/// serialized. Never freed: Cairo may free a face after its renderer is gone (see ``FontFace``).
enum FreeType {
    private static let library = Mutex<FT_Library?>(nil)

    /// Loads the face at a location; nil when FreeType cannot read it.
    ///
    /// Uses `FT_Init_FreeType` (once) and `FT_New_Face`.
    static func newFace(_ location: FaceLocation) -> FT_Face? {
        library.withLock { library -> FT_Face? in
            if library == nil {
                var created: FT_Library?
                guard FT_Init_FreeType(&created) == 0 else { return nil }
                library = created
            }
            var face: FT_Face?
            guard FT_New_Face(library, location.file, FT_Long(location.index), &face) == 0 else { return nil }
            return face
        }
    }

    /// Drops a reference to a face; the last frees it.
    ///
    /// Uses `FT_Done_Face`.
    static func doneFace(_ face: FT_Face) {
        library.withLock { _ in _ = FT_Done_Face(face) }
    }
}

/// One face at the renderer's size, with everything that draws it: the FreeType face, HarfBuzz's font
/// over it (shaping) and Cairo's font face and scaled font (rasterizing, with the renderer's options).
///
/// Cairo keeps a destroyed scaled font for reuse for a while, and its font face with it, so the
/// FreeType face is freed by Cairo's destroy notification on the font face, as Cairo's documentation
/// asks, not in `deinit`.
final class FontFace {
    /// The glyphs of one grapheme shaped by this face.
    struct Shaped {
        /// Each glyph, at its position relative to the pen's start on the baseline (y down), in pixels.
        var glyphs: [cairo_glyph_t]
        /// The pen's advance over all of them, in pixels.
        var advance: Double
        /// Whether a glyph is the face's `.notdef`: a character of the grapheme the face lacks.
        var missing: Bool
    }

    let location: FaceLocation
    private let face: FT_Face
    private let harfBuzzFont: OpaquePointer
    private let cairoFace: OpaquePointer
    /// Cairo's font at the renderer's size and options; what `cairo_set_scaled_font` takes.
    let scaledFont: OpaquePointer
    /// Pixels per unit of HarfBuzz's positions (26.6 fixed point at the face's size).
    private let unitScale: Double

    /// The key of the destroy notification that frees the FreeType face. Cairo uses only the address.
    // nonisolated(unsafe): the memory is never read or written, by us or by Cairo.
    nonisolated(unsafe) private static let releaseKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(
        capacity: 1)

    /// Loads the face and makes its HarfBuzz and Cairo fonts; nil when FreeType cannot load it.
    ///
    /// Uses `FT_New_Face`, `FT_Set_Char_Size` (or `FT_Select_Size` for a face of bitmaps),
    /// `hb_ft_font_create_referenced`, `cairo_ft_font_face_create_for_ft_face` and `cairo_scaled_font_create`.
    init?(_ location: FaceLocation, pixelSize: Double, options: OpaquePointer) {
        guard let face = FreeType.newFace(location) else { return nil }
        Self.setSize(face, pixelSize)
        let cairoFace = cairo_ft_font_face_create_for_ft_face(face, 0)!
        // The face is ours to free until Cairo's destroy notification is set, then Cairo's.
        let release: cairo_destroy_func_t = {
            $0.map { FreeType.doneFace($0.assumingMemoryBound(to: FT_FaceRec.self)) }
        }
        guard cairo_font_face_status(cairoFace) == CAIRO_STATUS_SUCCESS,
            cairo_font_face_set_user_data(cairoFace, Self.releaseKey, UnsafeMutableRawPointer(face), release)
                == CAIRO_STATUS_SUCCESS
        else {
            cairo_font_face_destroy(cairoFace)
            FreeType.doneFace(face)
            return nil
        }
        if location.embolden { cairo_ft_font_face_set_synthesize(cairoFace, CAIRO_FT_SYNTHESIZE_BOLD.rawValue) }
        var fontMatrix = cairo_matrix_t()
        cairo_matrix_init_scale(&fontMatrix, pixelSize, pixelSize)
        var deviceMatrix = cairo_matrix_t()
        cairo_matrix_init_identity(&deviceMatrix)
        let scaledFont = cairo_scaled_font_create(cairoFace, &fontMatrix, &deviceMatrix, options)!
        guard cairo_scaled_font_status(scaledFont) == CAIRO_STATUS_SUCCESS else {
            cairo_scaled_font_destroy(scaledFont)
            cairo_font_face_destroy(cairoFace)
            return nil
        }
        let harfBuzzFont = hb_ft_font_create_referenced(face)!
        var xScale: Int32 = 0
        var yScale: Int32 = 0
        hb_font_get_scale(harfBuzzFont, &xScale, &yScale)
        self.location = location
        self.face = face
        self.cairoFace = cairoFace
        self.scaledFont = scaledFont
        self.harfBuzzFont = harfBuzzFont
        unitScale = xScale > 0 ? pixelSize / Double(xScale) : 1.0 / 64
    }

    deinit {
        hb_font_destroy(harfBuzzFont)
        cairo_scaled_font_destroy(scaledFont)
        cairo_font_face_destroy(cairoFace)
    }

    /// Sets the size: the em in pixels for an outline face, the nearest strike for a face of bitmaps
    /// (Cairo scales its glyphs to the size asked for).
    private static func setSize(_ face: FT_Face, _ pixelSize: Double) {
        if face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 || face.pointee.num_fixed_sizes == 0 {
            _ = FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72)
            return
        }
        let sizes = UnsafeBufferPointer(start: face.pointee.available_sizes, count: Int(face.pointee.num_fixed_sizes))
        let nearest = sizes.indices.min { a, b in
            abs(Double(sizes[a].y_ppem) / 64 - pixelSize) < abs(Double(sizes[b].y_ppem) / 64 - pixelSize)
        }
        if let nearest { _ = FT_Select_Size(face, Int32(nearest)) }
    }

    /// The face's glyph for a character (0, `.notdef`, when it has none).
    ///
    /// Uses `FT_Get_Char_Index`.
    func glyph(_ scalar: Unicode.Scalar) -> UInt {
        UInt(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
    }

    /// Shapes text (one grapheme: a base and its combining marks, an emoji sequence) into glyphs.
    ///
    /// HarfBuzz composes a base and a mark into the face's precomposed glyph when it has one, and
    /// otherwise places the mark on the base (the face's mark positioning, or HarfBuzz's fallback); every
    /// glyph it returns belongs to the grapheme and is drawn. A mark takes no room, so that the base stays
    /// in its cell, and a mark the face leaves beside its base is centred over it: one the face gives an
    /// advance of its own (DejaVu Sans Mono Bold's dot below, which its tables do not class as a mark),
    /// or one its tables do not attach (an acute on a precomposed `ạ`). Default-ignorable characters
    /// (joiners, variation selectors) become invisible glyphs, not `.notdef`.
    ///
    /// - Parameters:
    ///   - text: The grapheme.
    ///   - buffer: A HarfBuzz buffer to reuse; its contents are replaced.
    /// - Returns: The glyphs, their advance, and whether one is `.notdef`.
    ///
    /// Uses `hb_buffer_add_utf8`, `hb_buffer_guess_segment_properties` and `hb_shape`, with clusters by
    /// character (`HB_BUFFER_CLUSTER_LEVEL_CHARACTERS`) to tell the marks' glyphs from the base's.
    func shape(_ text: String, in buffer: OpaquePointer) -> Shaped {
        hb_buffer_clear_contents(buffer)
        hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_CHARACTERS)
        text.withCString { hb_buffer_add_utf8(buffer, $0, -1, 0, -1) }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(harfBuzzFont, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), count > 0,
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return Shaped(glyphs: [], advance: 0, missing: false) }
        // Each glyph's cluster is the UTF-8 offset of the character it came from.
        var marks: Set<UInt32> = []
        var offset: UInt32 = 0
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .nonspacingMark || category == .enclosingMark { marks.insert(offset) }
            offset += UInt32(UTF8.width(scalar))
        }
        var shaped = Shaped(glyphs: [], advance: 0, missing: false)
        shaped.glyphs.reserveCapacity(Int(count))
        var base: (x: Double, advance: Double)?
        for index in 0..<Int(count) {
            let (glyph, position) = (infos[index].codepoint, positions[index])
            var x = shaped.advance + Double(position.x_offset) * unitScale
            if marks.contains(infos[index].cluster), let base {
                // A mark takes no room; one whose ink is not over its base is moved there.
                if let ink = inkInterval(glyph), !(base.x...(base.x + base.advance)).contains(x + ink.center) {
                    x = base.x + base.advance / 2 - ink.center
                }
            } else {
                let advance = Double(position.x_advance) * unitScale
                base = (shaped.advance, advance)
                shaped.advance += advance
            }
            shaped.missing = shaped.missing || glyph == 0
            shaped.glyphs.append(cairo_glyph_t(index: UInt(glyph), x: x, y: -Double(position.y_offset) * unitScale))
        }
        return shaped
    }

    /// Where a glyph's ink is across, from its origin, in pixels: its centre; nil when it has none.
    ///
    /// Uses `hb_font_get_glyph_extents`.
    private func inkInterval(_ glyph: hb_codepoint_t) -> (center: Double, width: Double)? {
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(harfBuzzFont, glyph, &extents) != 0, extents.width != 0 else { return nil }
        return ((Double(extents.x_bearing) + Double(extents.width) / 2) * unitScale, Double(extents.width) * unitScale)
    }

    /// How far below the baseline the top of the face's underline is, and its thickness, in pixels at
    /// `pixelSize`; nil for a face that has no outlines (and so no such metrics).
    ///
    /// FreeType's `underline_position` is the underline's centre (the font's `post` table value, the top,
    /// less half the thickness), so half the thickness goes back: the top, as Pango placed it.
    func underline(pixelSize: Double) -> (position: Double, thickness: Double)? {
        let unitsPerEm = Double(face.pointee.units_per_EM)
        guard unitsPerEm > 0 else { return nil }
        let thickness = Double(face.pointee.underline_thickness)
        return (
            -(Double(face.pointee.underline_position) + thickness / 2) * pixelSize / unitsPerEm,
            thickness * pixelSize / unitsPerEm
        )
    }
}
