import CHarfBuzz

extension Font {
    /// Whether HarfBuzz draws `scalar` with a glyph of this font rather than .notdef.
    ///
    /// More than the character map: HarfBuzz's normalizer draws a character the font
    /// lacks from its canonical decomposition when the font has the parts (a Hangul
    /// syllable from its jamo, `é` from `e` and U+0301), draws a missing space
    /// character (no-break, en, thin, ideographic...) with the font's U+0020 at the
    /// space's width, and U+2011 with U+2010. Browsers fall back to the next font
    /// only for .notdef glyphs, so this, not the cmap, decides a cluster's font.
    package func drawsWithoutNotdef(_ scalar: UInt32) -> Bool {
        if coverage.contains(scalar) { return true }
        if Font.hasSpaceFallback(scalar) { return coverage.contains(0x20) }
        if scalar == 0x2011 { return coverage.contains(0x2010) }
        return drawsDecomposed(scalar)
    }

    /// Whether the font has a glyph for `base` followed by the variation selector
    /// `selector` (its cmap format 14 subtable lists the sequence).
    package func drawsVariation(of base: UInt32, selector: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_variation_glyph(hbFont, base, selector, &glyph) != 0
    }

    /// HarfBuzz's `decompose()`: the last part must be in the font, the first part
    /// in the font or itself drawn decomposed.
    private func drawsDecomposed(_ scalar: UInt32) -> Bool {
        // CJK unified ideographs, the bulk of fallback lookups, and the emoji and symbols
        // from U+1F000 (the next bulk, one lookup per font in the set) never decompose.
        if (0x3400...0x9FFF).contains(scalar) || (0x1F000...0x2F7FF).contains(scalar) { return false }
        var first: hb_codepoint_t = 0, second: hb_codepoint_t = 0
        guard hb_unicode_decompose(hb_unicode_funcs_get_default(), scalar, &first, &second) != 0 else { return false }
        if second != 0, !coverage.contains(second) { return false }
        return coverage.contains(first) || drawsDecomposed(first)
    }

    /// The space characters HarfBuzz can draw with U+0020 (`space_fallback_type`).
    fileprivate static func hasSpaceFallback(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x00A0, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

extension FontSet {
    /// BMP code points, Hangul syllables aside, that a font may draw without mapping
    /// them (`Font.drawsWithoutNotdef`): those with a canonical decomposition, the
    /// spaces HarfBuzz draws with U+0020, and U+2011.
    private static let drawnBeyondCharacterMaps: [UInt16] = {
        let unicode = hb_unicode_funcs_get_default()
        var points: [UInt16] = [0x2011]
        for scalar in UInt32(0xA0)..<0x10000 where !(0xAC00...0xD7A3).contains(scalar) && !(0xD800...0xDFFF).contains(scalar) {
            var first: hb_codepoint_t = 0, second: hb_codepoint_t = 0
            if hb_unicode_decompose(unicode, scalar, &first, &second) != 0 || Font.hasSpaceFallback(scalar) {
                points.append(UInt16(scalar))
            }
        }
        return points
    }()

    /// Corrects `table`, the first font of `fonts` whose character map has each BMP
    /// code point (0 when none has it), to the first that draws it without .notdef,
    /// as `FontItemizer` chooses fonts.
    static func includeDrawnBeyondCharacterMaps(_ table: UnsafeMutableBufferPointer<UInt8>, fonts: [Font]) {
        func correct(_ point: Int, candidates: some Sequence<Int>) {
            let mapped = Int(table[point])
            let limit = mapped > 0 || fonts[0].coverage.contains(UInt32(point)) ? mapped : fonts.count
            for index in candidates where index < limit && fonts[index].drawsWithoutNotdef(UInt32(point)) {
                table[point] = UInt8(index)
                return
            }
        }
        for point in drawnBeyondCharacterMaps { correct(Int(point), candidates: fonts.indices) }
        // Hangul syllables decompose into conjoining jamo: only fonts with jamo can draw them so.
        let jamoFonts = fonts.indices.filter { index in (0x1100...0x11FF).contains { fonts[index].coverage.contains($0) } }
        guard !jamoFonts.isEmpty else { return }
        for point in 0xAC00...0xD7A3 { correct(point, candidates: jamoFonts) }
    }
}
