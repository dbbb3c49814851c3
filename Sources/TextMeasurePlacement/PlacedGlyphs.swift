/// A glyph placed on its line: what a renderer draws.
public struct PlacedGlyph: Sendable, Hashable {
    /// Index, in the prepared text's `FontSet`, of the font that draws the glyph.
    public var fontIndex: Int
    /// The glyph's ID in that font (a glyph, not a Unicode scalar).
    public var glyphID: UInt32
    /// The glyph origin's distance from the line's left edge, in px.
    public var x: Double
    /// The glyph origin's offset from the baseline, in px, positive up (marks).
    public var y: Double
    /// How far the pen moves after this glyph, in px.
    public var advance: Double
    /// UTF-16 offset of the cluster the glyph belongs to.
    public var utf16Offset: Int
}

extension PreparedText {
    /// The glyphs that draw each of `lines`, placed where measuring put them, each
    /// line starting at x = 0 (its left edge; no alignment): `glyphs(in:)` over a
    /// placement of these lines, with bidi reordering (UAX #9 L1, L2).
    ///
    /// `lines` are UTF-16 ranges in text order, usually a layout's lines; a glyph
    /// belongs to the line holding its cluster. `elided[i]`, when given, is the part
    /// of line i that a truncated line shows as "…" (`TextLayout.Line.elidedUTF16Range`):
    /// its glyphs are left out and the ellipsis stands in their place.
    ///
    /// ```swift
    /// let layout = try prepared.layout(width: 200)
    /// for (line, placed) in zip(layout.lines, prepared.glyphs(in: layout.lines.map(\.utf16Range))) {
    ///     for glyph in placed { draw(glyph.glyphID, x: glyph.x, y: line.baseline - glyph.y) }
    /// }
    /// ```
    public func glyphs(in lines: [Range<Int>], eliding elided: [Range<Int>?] = []) -> [[PlacedGlyph]] {
        let inputs = lines.enumerated().map { index, range in
            TextPlacement.LineInput(utf16Range: range, elidedUTF16Range: index < elided.count ? elided[index] : nil,
                                    lineEnd: .softBreak)
        }
        return glyphs(in: placement(of: inputs, width: nil))
    }

    /// The glyphs of each line of `layout`, aligned as the style says, truncated lines
    /// showing their "…": `glyphs(in:)` over `placement(of: layout)`.
    public func glyphs(in layout: TextLayout) -> [[PlacedGlyph]] {
        glyphs(in: placement(of: layout))
    }
}
