import CHarfBuzz

/// The advance of the primary font's space, in width units: what Chromium's
/// `text-wrap: balance` divides the width by to estimate a paragraph's line count
/// before it balances. Measured once per style, with the ellipsis and the hyphen.
enum SpaceWidth {
    static func measure(fonts: FontSet, style: TextStyle) -> Int {
        let font = fonts.primary
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font.hbFont, 0x20, &glyph) != 0 else { return 0 }
        let advance = Double(hb_font_get_glyph_h_advance(font.hbFont, glyph))
        return roundedToInt(advance * style.fontSize * Double(Units.widthPerPixel) / Double(font.metrics.unitsPerEm))
    }
}
