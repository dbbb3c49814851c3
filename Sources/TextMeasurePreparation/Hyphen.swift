import CHarfBuzz

/// The hyphen drawn at the end of a line that breaks at a soft hyphen (U+00AD):
/// measured once per style, as the ellipsis is.
///
/// Blink's choice (`ComputedStyle::HyphenString`): U+2010 HYPHEN when the primary
/// font has a glyph for it, else U+002D HYPHEN-MINUS, shaped on its own with the
/// style's fonts; its width counts rounded up to a layout unit (1/64 px), as
/// `HyphenResult::InlineSize` snaps it. The line must hold the word *and* the
/// hyphen for the break to be taken there.
@usableFromInline   // read through PreparedText's inlined accessors
package struct Hyphen: Equatable, Sendable {
    /// The character drawn: U+2010 or U+002D.
    package var scalar: Unicode.Scalar
    /// Its advance rounded up to 1/64 px, in width units (`Units.widthPerPixel`).
    package var width: Int
    /// The font in the set that draws it, for the height of a line that shows it.
    package var fontIndex: Int

    /// The bit of `fontIndex` in a line's font mask.
    package var fontMask: UInt64 { 1 << UInt64(fontIndex) }

    /// U+00AD SOFT HYPHEN: a break opportunity that shows a hyphen only where a line ends at it.
    package static var softHyphen: UInt16 { LineBreakOptions.softHyphen }

    static func measure(fonts: FontSet, style: TextStyle) -> Hyphen {
        var glyph: hb_codepoint_t = 0
        let scalar: Unicode.Scalar = hb_font_get_nominal_glyph(fonts.primary.hbFont, 0x2010, &glyph) != 0 ? "\u{2010}" : "-"
        let (width, fontIndex) = Ellipsis.shapeAlone(UInt16(scalar.value), fonts: fonts, style: style)
        let unitsPerLayoutUnit = Double(Units.widthPerLayoutUnit)
        let snapped = (width / unitsPerLayoutUnit).rounded(.up) * unitsPerLayoutUnit
        return Hyphen(scalar: scalar, width: max(0, Int(snapped)), fontIndex: fontIndex)
    }
}

extension PreparedText {
    /// What a line ending at `segment`'s soft hyphen adds: the hyphen, and the change of
    /// the word's last letter shaped without what follows (HarfBuzz kerns that letter
    /// with the next one across the invisible soft hyphen; Blink reshapes the line's end).
    package func hyphenWidth(after segment: Segment) -> Int {
        Hyphen.width(after: segment, hyphen: hyphen, graphemeWidths: graphemeWidths, edgeAdjustments: edgeAdjustments)
    }
}

extension Hyphen {
    /// `PreparedText.hyphenWidth(after:)` from its parts, while preparing.
    static func width(after segment: Segment, hyphen: Hyphen, graphemeWidths: [Int32],
                      edgeAdjustments: EdgeAdjustments) -> Int {
        var last = Int(segment.contentGraphemeEnd) - 1
        while last > 0, graphemeWidths[last] == 0 { last -= 1 }
        return hyphen.width + Int(edgeAdjustments[Int32(last)]?.end ?? 0)
    }

    /// Measures every soft hyphen's segment with its hyphen: the hyphen's width moves
    /// from the trailing width into the width (their sum, what a line going on past it
    /// takes, is unchanged), and its font joins the segment's. Greedy fitting then
    /// needs no test of its own for soft hyphens on its fast path.
    static func fold(into segments: inout [Segment], hyphen: Hyphen, graphemeWidths: [Int32],
                     edgeAdjustments: EdgeAdjustments) {
        fold(into: &segments, segments.indices, hyphen: hyphen, graphemeWidths: graphemeWidths,
             edgeAdjustments: edgeAdjustments)
    }

    /// `fold` over the segments `range` alone (those an edit prepared again).
    static func fold(into segments: inout [Segment], _ range: Range<Int>, hyphen: Hyphen, graphemeWidths: [Int32],
                     edgeAdjustments: EdgeAdjustments) {
        for i in range where segments[i].endsWithSoftHyphen {
            let width = Self.width(after: segments[i], hyphen: hyphen, graphemeWidths: graphemeWidths,
                                   edgeAdjustments: edgeAdjustments)
            segments[i].width += width
            segments[i].trailingWidth -= width
            segments[i].fonts |= hyphen.fontMask
        }
    }
}
