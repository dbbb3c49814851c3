import CHarfBuzz
import CTextICU

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

/// Per BMP code point, what deciding whether a line-break opportunity between two
/// letters is safe for the shape cache needs (`FontSet.clusterContexts`).
@usableFromInline   // its bits are read per break by Shaping (a `static let` there is a lazy global)
package enum ClusterContext {
    /// A letter that is a grapheme cluster by itself and whose glyph, in the font the
    /// set draws it with, no OpenType lookup and no kerning pair of that font can
    /// reach: shaped the same whatever is next to it.
    @inlinable package static var contextFree: UInt8 { 1 }
    /// Joins the code point after it into its cluster (Prepend, a leading jamo).
    @inlinable package static var joinsNext: UInt8 { 2 }
    /// Joins the code point before it (a mark, a joiner, a vowel or trailing jamo).
    @inlinable package static var joinsPrevious: UInt8 { 4 }

    /// The table for a font set whose fonts draw the BMP as `bmpFonts` says.
    static func table(fonts: [Font], bmpFonts: [UInt8]) -> [UInt8] {
        var reached = [GlyphReach?](repeating: nil, count: fonts.count)
        let unicode = hb_unicode_funcs_get_default()
        var table = [UInt8](repeating: 0, count: 0x10000)
        for scalar in UInt32(0)..<0x10000 {
            let bits = ctx_cluster_context(scalar)
            var entry: UInt8 = 0
            if bits & Int32(CTX_JOINS_NEXT) != 0 { entry |= joinsNext }
            if bits & Int32(CTX_JOINS_PREVIOUS) != 0 { entry |= joinsPrevious }
            if bits & Int32(CTX_ALONE_LETTER) != 0 {
                let script = hb_unicode_script(unicode, scalar)
                let index = Int(bmpFonts[Int(scalar)])
                if script != HB_SCRIPT_COMMON, script != HB_SCRIPT_INHERITED, script != HB_SCRIPT_UNKNOWN {
                    if reached[index] == nil { reached[index] = GlyphReach(fonts[index]) }
                    if reached[index]!.isContextFree(scalar) { entry |= contextFree }
                }
            }
            table[Int(scalar)] = entry
        }
        return table
    }
}

/// The glyphs of a font that shaping can change or move because of the glyphs next
/// to them: those any GSUB or GPOS lookup names (as input, context or output, in any
/// feature: the style's features are not known here) and those of legacy `kern`
/// pairs. A glyph outside them, classed as a base glyph or not at all, can be
/// skipped by no lookup either: no rule reaches across it. Fonts with AAT tables, a
/// `kern` table HarfBuzz reads in another way, or lookups that skip base glyphs
/// (`IgnoreBaseGlyphs`) have no context-free glyphs; nor, for speed, fonts that
/// position nothing.
private final class GlyphReach {
    let font: OpaquePointer
    let face: OpaquePointer
    let glyphs: OpaquePointer
    var isOpaque = false

    init(_ font: Font) {
        self.font = font.hbFont
        face = hb_font_get_face(font.hbFont)
        glyphs = hb_set_create()
        for table in ["morx", "mort", "kerx"] where Self.tableLength(face, table) > 0 { isOpaque = true }
        for table in ["GSUB", "GPOS"] {
            let tag = hb_tag_from_string(table, 4)
            if Self.skipsBaseGlyphs(face, table) { isOpaque = true }
            for lookup in 0..<hb_ot_layout_table_get_lookup_count(face, tag) {
                hb_ot_layout_lookup_collect_glyphs(face, tag, lookup, glyphs, glyphs, glyphs, glyphs)
            }
        }
        if !Self.collectKerningPairs(face, into: glyphs) { isOpaque = true }
        // A font that positions nothing (no GPOS lookup, no kern table: Droid Sans
        // Fallback, whose one lookup is for vertical text) shapes a letter for less
        // than a cache lookup costs (about 45 ns against 70): caching its letters one by
        // one made Chinese 29% slower cold and 18% warm. Only the cost is at stake.
        if hb_ot_layout_table_get_lookup_count(face, hb_tag_from_string("GPOS", 4)) == 0,
           Self.tableLength(face, "kern") == 0 {
            isOpaque = true
        }
    }

    deinit { hb_set_destroy(glyphs) }

    func isContextFree(_ scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        guard !isOpaque, hb_font_get_nominal_glyph(font, scalar, &glyph) != 0, hb_set_has(glyphs, glyph) == 0 else {
            return false
        }
        let glyphClass = hb_ot_layout_get_glyph_class(face, glyph)
        return glyphClass == HB_OT_LAYOUT_GLYPH_CLASS_UNCLASSIFIED || glyphClass == HB_OT_LAYOUT_GLYPH_CLASS_BASE_GLYPH
    }

    private static func withTable<R>(_ face: OpaquePointer?, _ name: String,
                                     _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let blob = hb_face_reference_table(face, hb_tag_from_string(name, 4))
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        let data = hb_blob_get_data(blob, &length)
        return body(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : Int(length)))
    }

    private static func tableLength(_ face: OpaquePointer?, _ name: String) -> Int { withTable(face, name) { $0.count } }

    private static func uint16(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    /// Whether some lookup of GSUB or GPOS has the IgnoreBaseGlyphs flag (or the table
    /// cannot be read far enough to tell).
    private static func skipsBaseGlyphs(_ face: OpaquePointer?, _ name: String) -> Bool {
        withTable(face, name) { table in
            guard !table.isEmpty else { return false }
            guard let listOffset = uint16(table, 8), let count = uint16(table, listOffset) else { return true }
            for index in 0..<count {
                guard let lookup = uint16(table, listOffset + 2 + 2 * index),
                      let flags = uint16(table, listOffset + lookup + 2) else { return true }
                if flags & 0x0002 != 0 { return true }
            }
            return false
        }
    }

    /// Adds the glyphs of the `kern` table's pairs; false when it is not the OpenType
    /// version 0 with format 0 subtables only.
    private static func collectKerningPairs(_ face: OpaquePointer?, into glyphs: OpaquePointer?) -> Bool {
        withTable(face, "kern") { table in
            guard !table.isEmpty else { return true }
            guard uint16(table, 0) == 0, let count = uint16(table, 2) else { return false }
            var offset = 4
            for _ in 0..<count {
                guard let length = uint16(table, offset + 2), let coverage = uint16(table, offset + 4),
                      coverage >> 8 == 0, let pairs = uint16(table, offset + 6) else { return false }
                for pair in 0..<pairs {
                    guard let left = uint16(table, offset + 14 + 6 * pair),
                          let right = uint16(table, offset + 16 + 6 * pair) else { return false }
                    hb_set_add(glyphs, hb_codepoint_t(left))
                    hb_set_add(glyphs, hb_codepoint_t(right))
                }
                offset += length
            }
            return true
        }
    }
}
