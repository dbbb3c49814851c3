import CHarfBuzz

/// CSS `text-spacing-trim`: whether fullwidth CJK punctuation next to other punctuation,
/// or ending a line it would otherwise overflow, is set half-width.
public enum TextSpacingTrim: String, Sendable, Hashable, Codable, CaseIterable {
    /// As Chromium's default: an opening bracket after another opening one, a middle dot
    /// or a closing one is halved, and a closing bracket before another closing one or a
    /// middle dot; a closing bracket ending a line is halved when the line would not fit
    /// with it whole. Only in fonts with the OpenType `halt` feature, which gives the
    /// halved widths.
    case normal
    /// No punctuation is trimmed.
    case spaceAll = "space-all"
    /// As `normal`, and an opening bracket that starts a wrapped line (not the first
    /// line of a paragraph) is halved too.
    case spaceFirst = "space-first"
    /// As `spaceFirst`, and an opening bracket that starts a paragraph is halved too.
    case trimStart = "trim-start"
}

/// How Chromium (Blink's `HanKerning`) classes a character for punctuation trimming:
/// its class in CSS Text 4's text-spacing classes, some of which depend on the font.
package enum PunctuationClass: UInt8, Sendable {
    case other, open, close, middle
    /// Opening and closing punctuation that is not fullwidth (ASCII brackets): never
    /// trimmed itself, but a neighbour of a fullwidth one is trimmed next to it.
    case openNarrow, closeNarrow
}

/// A font's facts for punctuation trimming, read once when it is loaded: nil (in
/// `Font.halfWidthPunctuation`) for a font without the `halt` feature, which Chromium
/// never trims in.
///
/// Blink decides the class of the dots (、。，．), of the colon and semicolon and of
/// the curly quotes by where their glyphs' ink lies in the em (Japanese and Simplified
/// Chinese fonts put a full stop's ink on the left, Traditional Chinese fonts in the
/// middle); the other classes are fixed by Unicode properties (`fixedClass`). A class
/// that trims has its width with `halt` on, the glyph HarfBuzz gives the character alone.
package struct HalfWidthPunctuation: Sendable {
    /// The font also has `chws`, which trims pairs itself inside a run (Chromium then
    /// leaves the run's inside to it). Pairs are trimmed here either way.
    package let hasContextualSpacing: Bool
    let dot: PunctuationClass
    let colon: PunctuationClass
    let semicolon: PunctuationClass
    let quotesAreFullwidth: Bool
    /// The advance alone and with `halt`, in font units, of each character the font draws
    /// whose class can trim, sorted by code unit.
    private let halved: [(unit: UInt16, whole: Int32, advance: Int32)]

    /// The character's class, with the font's answers for dots, colons and quotes.
    package func punctuationClass(of unit: UInt16) -> PunctuationClass {
        switch Self.fixedClass(of: unit) {
        case .fixed(let value): return value
        case .dot: return dot
        case .colon: return colon
        case .semicolon: return semicolon
        case .openQuote: return quotesAreFullwidth ? .open : .openNarrow
        case .closeQuote: return quotesAreFullwidth ? .close : .closeNarrow
        }
    }

    /// The advance of `unit`'s glyph set half-width (with `halt`), in font units; nil when
    /// the font has none for it.
    package func halvedAdvance(of unit: UInt16) -> Int32? { advances(of: unit)?.halved }

    /// `unit`'s advance alone, whole and with `halt`, in font units; nil when the font has
    /// no glyph for it or it is not punctuation that trims.
    package func advances(of unit: UInt16) -> (whole: Int32, halved: Int32)? {
        var low = 0, high = halved.count
        while low < high {
            let middle = (low + high) / 2
            if halved[middle].unit < unit { low = middle + 1 } else { high = middle }
        }
        return low < halved.count && halved[low].unit == unit ? (halved[low].whole, halved[low].advance) : nil
    }

    /// Whether a line ending right after `unit` may set it half-width (Blink asks the
    /// character's own class, before the font's: closing brackets and closing quotes,
    /// not the dots).
    package func trimsAtLineEnd(_ unit: UInt16) -> Bool {
        switch Self.fixedClass(of: unit) {
        case .fixed(let value): return value == .close
        case .closeQuote: return quotesAreFullwidth
        default: return false
        }
    }

    enum FixedClass: Equatable {
        case fixed(PunctuationClass)
        case dot, colon, semicolon, openQuote, closeQuote
    }

    /// Blink's table (`Character::GetHanKerningCharType`): the fixed code points, then
    /// general category Ps and Pe, fullwidth where in the CJK Symbols and Punctuation
    /// block or East Asian Width F.
    static func fixedClass(of unit: UInt16) -> FixedClass {
        switch unit {
        case 0x2018, 0x201C: return .openQuote
        case 0x2019, 0x201D: return .closeQuote
        case 0x3000, 0x00B7, 0x2027, 0x30FB: return .fixed(.middle)
        case 0x3001, 0x3002, 0xFF0C, 0xFF0E: return .dot
        case 0xFF1A: return .colon
        case 0xFF1B: return .semicolon
        default: break
        }
        // Every Ps and Pe is punctuation below U+FF65; the letters and ideographs that
        // make up most CJK text are answered without a property lookup.
        guard unit < 0x3000 ? unit >= 0x28 && unit < 0x2E80 : unit < 0x3040 || unit >= 0xFE10 && unit < 0xFF66,
              let scalar = Unicode.Scalar(unit) else { return .fixed(.other) }
        let fullwidth = (0x3000...0x303F).contains(unit) || (0xFF01...0xFF60).contains(unit)
        switch scalar.properties.generalCategory {
        case .openPunctuation: return .fixed(fullwidth ? .open : .openNarrow)
        case .closePunctuation: return .fixed(fullwidth ? .close : .closeNarrow)
        default: return .fixed(.other)
        }
    }

    /// Every code unit whose class can trim (open, close or middle in some font).
    private static let candidates: [UInt16] = {
        var units: [UInt16] = [0x2018, 0x2019, 0x201C, 0x201D, 0x00B7, 0x2027, 0x30FB, 0x3001, 0x3002, 0xFF0C, 0xFF0E,
                               0xFF1A, 0xFF1B]
        for unit in Array(0x3000...0x303F) + Array(0xFF01...0xFF60) {
            if case .fixed(let value) = fixedClass(of: UInt16(unit)), value == .open || value == .close {
                units.append(UInt16(unit))
            }
        }
        return units.sorted()
    }()

    /// The facts of `font` (an immutable HarfBuzz font at units-per-em scale), or nil
    /// when it has no `halt` or cannot take part (Blink's `HanKerning::FontData`).
    /// A font that draws none of the commonest CJK brackets and dots is not asked: finding its features
    /// loads its layout tables, which cost the default set's Latin and Arabic fonts some
    /// 200,000 instructions a process when they are never shaped (and Chromium only trims
    /// a character in the font that draws it).
    init?(_ font: OpaquePointer, coverage: CoverageSet) {
        // 、。「」（）
        guard [0x3001, 0x3002, 0x300C, 0x300D, 0xFF08, 0xFF09].contains(where: { coverage.contains($0) }) else { return nil }
        let face = hb_font_get_face(font)
        guard Self.hasFeature("halt", face: face) else { return nil }
        hasContextualSpacing = Self.hasFeature("chws", face: face)
        // The dots, colon, semicolon and quotes shaped together as Han, as Blink shapes
        // them to find their glyphs (a font may substitute them by locale or context).
        let probe: [UInt16] = [0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0x201C, 0x2018, 0x201D, 0x2019]
        guard let glyphs = Self.shape(probe, font: font, features: []), glyphs.count == probe.count,
              glyphs.enumerated().allSatisfy({ $0.element.cluster == UInt32($0.offset) }) else { return nil }
        let types = glyphs.map { Self.inkClass($0, font: font) }
        // The dots count only when all four agree in advance and class.
        let dotsAgree = glyphs[0..<4].allSatisfy { $0.glyph == 0 || $0.advance == glyphs[0].advance }
            && types[0..<4].allSatisfy { $0 == types[0] }
        dot = dotsAgree ? types[0] : .other
        colon = types[4]
        semicolon = types[5]
        let opens = glyphs[6].advance == glyphs[7].advance && types[6] == .open && types[7] == .open
        let closes = glyphs[8].advance == glyphs[9].advance && types[8] == .close && types[9] == .close
        quotesAreFullwidth = opens && closes
        var halved: [(unit: UInt16, whole: Int32, advance: Int32)] = []
        for unit in Self.candidates {
            var glyph: hb_codepoint_t = 0
            guard hb_font_get_nominal_glyph(font, hb_codepoint_t(unit), &glyph) != 0,
                  let whole = Self.shape([unit], font: font, features: []), whole.count == 1,
                  let shaped = Self.shape([unit], font: font, features: ["halt"]), shaped.count == 1 else { continue }
            halved.append((unit, whole[0].advance, shaped[0].advance))
        }
        self.halved = halved
    }

    private struct ShapedGlyph {
        var glyph: UInt32
        var cluster: UInt32
        var advance: Int32
        var offset: Int32
    }

    private static func hasFeature(_ tag: String, face: OpaquePointer?) -> Bool {
        let wanted = hb_tag_from_string(tag, 4)
        for table in ["GSUB", "GPOS"] {
            let tableTag = hb_tag_from_string(table, 4)
            var tags = [hb_tag_t](repeating: 0, count: 256)
            var start: UInt32 = 0
            while true {
                var count = UInt32(tags.count)
                let total = hb_ot_layout_table_get_feature_tags(face, tableTag, start, &count, &tags)
                if tags[0..<Int(count)].contains(wanted) { return true }
                start += count
                if count == 0 || start >= total { break }
            }
        }
        return false
    }

    /// `units` shaped left to right as Han with `features` on; nil when HarfBuzz fails.
    private static func shape(_ units: [UInt16], font: OpaquePointer, features: [String]) -> [ShapedGlyph]? {
        guard let buffer = hb_buffer_create() else { return nil }
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf16(buffer, units, Int32(units.count), 0, Int32(units.count))
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, HB_SCRIPT_HAN)
        let settings = features.map { hb_feature_t(tag: hb_tag_from_string($0, 4), value: 1, start: 0, end: UInt32.max) }
        settings.withUnsafeBufferPointer { hb_shape(font, buffer, $0.baseAddress, UInt32($0.count)) }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return nil }
        return (0..<Int(count)).map {
            ShapedGlyph(glyph: infos[$0].codepoint, cluster: infos[$0].cluster, advance: positions[$0].x_advance,
                        offset: positions[$0].x_offset)
        }
    }

    /// The class a glyph's ink gives it (Blink's `CharTypeFromBounds`): close when the ink
    /// ends in the first half of its advance, open when it starts in the second, middle
    /// when it fits in half the advance from its first quarter on.
    private static func inkClass(_ glyph: ShapedGlyph, font: OpaquePointer) -> PunctuationClass {
        guard glyph.glyph != 0 else { return .other }
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font, glyph.glyph, &extents) != 0 else { return .other }
        let half = Double(glyph.advance) / 2
        let left = Double(extents.x_bearing + glyph.offset), width = Double(extents.width)
        if left + width <= half { return .close }
        if left >= half { return .open }
        if width <= half, left >= half / 2 { return .middle }
        return .other
    }
}

extension AttributedText {
    /// Whether preparing this text may trim punctuation: `textSpacingTrim` is not
    /// `spaceAll` and a font of the base set or of a run's has `halt`.
    package var trimsPunctuation: Bool {
        style.textSpacingTrim != .spaceAll
            && (fonts.trimsPunctuation || runs.contains { $0.attributes.fonts?.trimsPunctuation == true })
    }
}
