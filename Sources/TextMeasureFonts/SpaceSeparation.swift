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
    /// Above these bits, a letter's font tag: for a letter that is a grapheme cluster by
    /// itself, of a script HarfBuzz shapes without reading the text around a run
    /// (`shapesWithoutContext`), 1 + the index of the font the set draws it with (0 past
    /// the 31st font, and for other code points). Where two letters of different tags
    /// meet, a run ends, and each side is shaped alone whatever the other holds: the
    /// break is as safe as one between context-free letters, whatever the fonts' lookups
    /// (Hangul syllables Droid Sans Fallback draws, between NanumSquare's).
    @inlinable package static var fontTagShift: UInt8 { 3 }

    /// Whether letters of contexts `before` and `after` have font tags, and different ones.
    @inlinable @inline(__always)
    package static func areApartAtFontChange(_ before: UInt8, _ after: UInt8) -> Bool {
        (before ^ after) >> fontTagShift != 0 && min(before, after) >> fontTagShift != 0
    }

    /// Whether HarfBuzz shapes `script` with its default shaper or its Hangul one, which
    /// change a glyph with no lookup only to mirror it, hide a default-ignorable or
    /// compose a cluster, and read nothing of the text around a run (the shapers of
    /// joining scripts read it, and others change glyphs with no lookup: Arabic's
    /// fallback forms, Thai's PUA marks, Indic dotted circles).
    @inlinable   // the shaper asks it per run
    package static func shapesWithoutContext(_ script: hb_script_t) -> Bool {
        switch script {
        case HB_SCRIPT_HAN, HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA, HB_SCRIPT_BOPOMOFO, HB_SCRIPT_HANGUL: true
        default: false
        }
    }

    /// The script of the BMP letter `scalar`: the blocks of ideographs and of Hangul
    /// syllables, most letters, without asking HarfBuzz each (their letters are all Han
    /// and all Hangul; asked, they cost the set's tables 3% more instructions).
    private static func letterScript(_ scalar: Int, _ unicode: OpaquePointer?) -> hb_script_t {
        switch scalar {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF: HB_SCRIPT_HAN
        case 0xAC00...0xD7A3: HB_SCRIPT_HANGUL
        default: hb_unicode_script(unicode, UInt32(scalar))
        }
    }

    /// The tables for a font set whose fonts draw the BMP as `bmpFonts` says: the
    /// contexts, and the nominal glyphs (see `FontSet.nominalGlyphs`; empty when no
    /// code point has one).
    static func tables(fonts: [Font], bmpFonts: [UInt8]) -> (contexts: [UInt8], nominalGlyphs: [UInt32]) {
        var bits = [UInt8](repeating: 0, count: 0x10000)
        bits.withUnsafeMutableBufferPointer { bits in
            if let base = bits.baseAddress { ctx_cluster_contexts(base) }
        }
        var table = [UInt8](repeating: 0, count: 0x10000)
        // Letters and other graphic code points, by the font drawing them: their glyphs
        // are then looked up a font at a time, many per HarfBuzz call.
        var candidates = [[UInt32]](repeating: [], count: fonts.count)
        let alone = UInt8(CTX_ALONE_GRAPHIC | CTX_ALONE_LETTER)
        let unicode = hb_unicode_funcs_get_default()
        for scalar in 0..<0x10000 {
            if bits[scalar] & UInt8(CTX_JOINS_NEXT) != 0 { table[scalar] |= joinsNext }
            if bits[scalar] & UInt8(CTX_JOINS_PREVIOUS) != 0 { table[scalar] |= joinsPrevious }
            if bits[scalar] & alone != 0 { candidates[Int(bmpFonts[scalar])].append(UInt32(scalar)) }
            if bits[scalar] & UInt8(CTX_ALONE_LETTER) != 0, bmpFonts[scalar] < 31,
               shapesWithoutContext(letterScript(scalar, unicode)) {
                table[scalar] |= (bmpFonts[scalar] + 1) << fontTagShift
            }
        }
        var nominal = [UInt32](repeating: 0, count: 0x10000)
        var anyNominal = false
        for (index, scalars) in candidates.enumerated() where !scalars.isEmpty {
            let reach = GlyphReach(fonts[index])
            let glyphs = reach.unreachedGlyphs(scalars)
            let advances = NominalGlyph.advances(of: glyphs, in: fonts[index])
            for (i, glyph) in glyphs.enumerated() where glyph != 0 {
                let scalar = Int(scalars[i])
                if bits[scalar] & UInt8(CTX_ALONE_GRAPHIC) != 0, let packed = NominalGlyph.packed(glyph, advance: advances[i]) {
                    nominal[scalar] = packed
                    anyNominal = true
                }
                guard bits[scalar] & UInt8(CTX_ALONE_LETTER) != 0, reach.isContextFree(glyph) else { continue }
                let script = hb_unicode_script(unicode, UInt32(scalar))
                if script != HB_SCRIPT_COMMON, script != HB_SCRIPT_INHERITED, script != HB_SCRIPT_UNKNOWN {
                    table[scalar] |= contextFree
                }
            }
        }
        return (table, anyNominal ? nominal : [])
    }
}

/// An entry of `FontSet.nominalGlyphs`: a glyph and its advance, 16 bits each.
@usableFromInline   // the shaper reads entries per letter: out of line, each read was a call
package enum NominalGlyph {
    /// The features HarfBuzz applies only to vertical text, unless a style turns them
    /// on: their lookups do not keep a glyph from being nominal.
    package static let verticalFeatures = [hb_tag_from_string("vert", 4), hb_tag_from_string("vrt2", 4)]

    /// The advances of `glyphs` in `font`, as shaping gives them (in `Font.advanceUnitsPerEm`):
    /// the bitmap strike's for colour-bitmap fonts, else HarfBuzz's.
    static func advances(of glyphs: [hb_codepoint_t], in font: Font) -> [Int32] {
        if let bitmapAdvances = font.bitmapAdvances {
            return glyphs.map { Int($0) < bitmapAdvances.count ? bitmapAdvances[Int($0)] : -1 }
        }
        var advances = [Int32](repeating: 0, count: glyphs.count)
        advances.withUnsafeMutableBufferPointer { advances in
            hb_font_get_glyph_h_advances(font.hbFont, UInt32(glyphs.count), glyphs, 4, advances.baseAddress, 4)
        }
        return advances
    }

    /// The entry for `glyph` and `advance`, or nil when either does not fit in 16 bits
    /// (or the glyph is .notdef: 0 means none).
    static func packed(_ glyph: hb_codepoint_t, advance: Int32) -> UInt32? {
        guard glyph != 0, glyph <= 0xFFFF, (0...0xFFFF).contains(advance) else { return nil }
        return glyph | UInt32(advance) << 16
    }

    @inlinable package static func glyph(_ entry: UInt32) -> UInt32 { entry & 0xFFFF }
    @inlinable package static func advance(_ entry: UInt32) -> Int32 { Int32(entry >> 16) }
}

/// The glyphs of a font that shaping can change or move because of the glyphs next
/// to them: those any GSUB or GPOS lookup names (as input, context or output, in any
/// feature: the style's features are not known here) and those of legacy `kern`
/// pairs. A glyph outside them, classed as a base glyph or not at all, can be
/// skipped by no lookup either: no rule reaches across it. Fonts with AAT tables
/// (`trak` included), a `kern` table HarfBuzz reads in another way, or lookups that
/// skip base glyphs (`IgnoreBaseGlyphs`) have no such glyphs.
///
/// Lookups that only the vertical features (`vert`, `vrt2`) reach are kept apart:
/// HarfBuzz applies those only to vertical text, or when a style turns them on (and
/// the shaper then uses no nominal glyph), so their glyphs are still nominal in
/// horizontal text (`unreachedGlyphs`), though not context-free for the cache.
private final class GlyphReach {
    let font: OpaquePointer
    let face: OpaquePointer
    /// The glyphs of lookups some horizontal feature reaches (or no feature), and of `kern` pairs.
    let glyphs: OpaquePointer
    /// The glyphs of lookups only the vertical features reach.
    let verticalGlyphs: OpaquePointer
    var isOpaque = false
    /// Whether the font positions nothing (no GPOS lookup, no `kern` table).
    var positionsNothing = false

    init(_ font: Font) {
        self.font = font.hbFont
        face = hb_font_get_face(font.hbFont)
        glyphs = hb_set_create()
        verticalGlyphs = hb_set_create()
        for table in ["morx", "mort", "kerx", "trak"] where Self.tableLength(face, table) > 0 { isOpaque = true }
        for table in ["GSUB", "GPOS"] {
            let tag = hb_tag_from_string(table, 4)
            if Self.skipsBaseGlyphs(face, table) { isOpaque = true }
            let verticalOnly = Self.verticalOnlyLookups(face, tag)
            defer { hb_set_destroy(verticalOnly) }
            for lookup in 0..<hb_ot_layout_table_get_lookup_count(face, tag) {
                let into = hb_set_has(verticalOnly, lookup) != 0 ? verticalGlyphs : glyphs
                hb_ot_layout_lookup_collect_glyphs(face, tag, lookup, into, into, into, into)
            }
        }
        if !Self.collectKerningPairs(face, into: glyphs) { isOpaque = true }
        positionsNothing = hb_ot_layout_table_get_lookup_count(face, hb_tag_from_string("GPOS", 4)) == 0
            && Self.tableLength(face, "kern") == 0
    }

    deinit {
        hb_set_destroy(glyphs)
        hb_set_destroy(verticalGlyphs)
    }

    /// For each of `scalars`, its nominal glyph when no lookup of a horizontal feature
    /// and no kerning pair names it and it is classed as a base glyph or not at all, else 0.
    func unreachedGlyphs(_ scalars: [UInt32]) -> [hb_codepoint_t] {
        var glyphs = [hb_codepoint_t](repeating: 0, count: scalars.count)
        guard !isOpaque else { return glyphs }
        scalars.withUnsafeBufferPointer { scalars in
            glyphs.withUnsafeMutableBufferPointer { glyphs in
                guard let first = scalars.baseAddress, let out = glyphs.baseAddress else { return }
                var done = 0
                while done < scalars.count {
                    // HarfBuzz stops at a code point with no glyph: it keeps glyph 0, and the rest go on.
                    done += Int(hb_font_get_nominal_glyphs(font, UInt32(scalars.count - done), first + done, 4,
                                                           out + done, 4))
                    if done < scalars.count { out[done] = 0 }
                    done += 1
                }
                for index in glyphs.indices where glyphs[index] != 0 {
                    let glyphClass = hb_ot_layout_get_glyph_class(face, glyphs[index])
                    if hb_set_has(self.glyphs, glyphs[index]) != 0
                        || (glyphClass != HB_OT_LAYOUT_GLYPH_CLASS_UNCLASSIFIED && glyphClass != HB_OT_LAYOUT_GLYPH_CLASS_BASE_GLYPH) {
                        glyphs[index] = 0
                    }
                }
            }
        }
        return glyphs
    }

    /// Whether one of the `unreachedGlyphs` is named by no vertical lookup either, whatever the
    /// style's features. A font that positions nothing (Droid Sans Fallback, whose one
    /// lookup is for vertical text) has no context-free glyphs, for speed: its letters
    /// cost less to prepare than to look up one by one (see `FontSet.nominalGlyphs`).
    func isContextFree(_ glyph: hb_codepoint_t) -> Bool {
        !positionsNothing && hb_set_has(verticalGlyphs, glyph) == 0
    }

    /// The lookups of `table` that the vertical features reach and no other feature does.
    private static func verticalOnlyLookups(_ face: OpaquePointer?, _ table: hb_tag_t) -> OpaquePointer? {
        let vertical = NominalGlyph.verticalFeatures
        var tags: [hb_tag_t] = []
        var offset: UInt32 = 0
        while true {
            var page = [hb_tag_t](repeating: 0, count: 64)
            var count = UInt32(page.count)
            let total = hb_ot_layout_table_get_feature_tags(face, table, offset, &count, &page)
            tags += page.prefix(Int(count))
            offset += count
            if count == 0 || offset >= total { break }
        }
        let horizontal = Array(Set(tags.filter { !vertical.contains($0) })) + [0]   // 0: HB_TAG_NONE ends the list
        let reached = hb_set_create(), only = hb_set_create()
        defer { hb_set_destroy(reached) }
        if horizontal.count > 1 { hb_ot_layout_collect_lookups(face, table, nil, nil, horizontal, reached) }
        hb_ot_layout_collect_lookups(face, table, nil, nil, vertical + [0], only)
        hb_set_subtract(only, reached)
        return only
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
