import CHarfBuzz

/// The truncation token, "…", as truncation draws it: measured once at preparation.
package struct Ellipsis: Equatable, Sendable {
    /// U+2026 HORIZONTAL ELLIPSIS (`LineBreakMode.ellipsis`).
    package static let character: Unicode.Scalar = "\u{2026}"

    /// Its advance, in width units (`Units.widthPerPixel`).
    package var width: Int
    /// The font in the set that draws it, for the height of a line that shows it.
    package var fontIndex: Int

    /// The bit of `fontIndex` in a line's font mask.
    package var fontMask: UInt64 { 1 << UInt64(fontIndex) }
}

extension Ellipsis {
    /// The ellipsis that truncation draws: U+2026 shaped on its own in the first
    /// font of `fonts` that covers it, as TextKit measures its truncation token.
    static func measure(fonts: FontSet, style: TextStyle) -> Ellipsis {
        let (width, fontIndex) = shapeAlone(UInt16(Ellipsis.character.value), fonts: fonts, style: style)
        return Ellipsis(width: roundedToInt(width), fontIndex: fontIndex)
    }

    /// A BMP character shaped on its own in the first font of `fonts` that covers it:
    /// its advance in width units (unrounded) and that font. The ellipsis and the
    /// hyphen are measured so.
    static func shapeAlone(_ character: UInt16, fonts: FontSet, style: TextStyle) -> (width: Double, fontIndex: Int) {
        let text = [character]
        var advance: Int32 = 0, edges: UInt8 = 0
        let fontIndex = text.withUnsafeBufferPointer { text in
            let fontIndex = FontItemizer(fontSet: fonts).fontIndex(for: text, start: 0, end: 1)
            let run = FontRun(start: 0, end: 1, fontIndex: fontIndex, script: HB_SCRIPT_COMMON)
            Shaper(features: style.fontFeatures).shape(run, of: text, with: fonts.fonts[fontIndex], advances: &advance,
                                                        edges: &edges)
            return fontIndex
        }
        let scale = style.fontSize * Double(Units.widthPerPixel) / Double(fonts.fonts[fontIndex].advanceUnitsPerEm)
        return (Double(advance) * scale, fontIndex)
    }
}
