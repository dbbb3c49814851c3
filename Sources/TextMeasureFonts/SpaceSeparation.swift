import CHarfBuzz

extension Font {
    /// Whether the space glyph takes part in any GSUB or GPOS lookup of the font (as
    /// input, context or output). When it does not, no kerning, ligature or
    /// contextual rule reaches across a space, and the words on either side shape
    /// the same separately as together: Chromium checks the same before it shapes
    /// and caches word by word.
    var usesSpaceInLookups: Bool {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(hbFont, 0x20, &glyph) != 0 else { return false }
        let face = hb_font_get_face(hbFont)
        let glyphs = hb_set_create()
        defer { hb_set_destroy(glyphs) }
        for table in ["GSUB", "GPOS"] {
            let tag = hb_tag_from_string(table, 4)
            for lookup in 0..<hb_ot_layout_table_get_lookup_count(face, tag) {
                hb_set_clear(glyphs)
                hb_ot_layout_lookup_collect_glyphs(face, tag, lookup, glyphs, glyphs, glyphs, glyphs)
                if hb_set_has(glyphs, glyph) != 0 { return true }
            }
        }
        return false
    }
}
