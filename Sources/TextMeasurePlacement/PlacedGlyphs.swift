/// A glyph placed on its line: what a renderer draws.
public struct PlacedGlyph: Sendable, Hashable {
    /// Index, in the prepared text's `drawingFonts` (its `FontSet`'s fonts for text of
    /// one style), of the font that draws the glyph.
    public var fontIndex: Int
    /// The size it is drawn at, in px: the style's, or its styled run's.
    public var size: Double
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

/// An inline placeholder's box on its line (`InlinePlaceholder`): where a renderer
/// draws the image, avatar or chip it stands for.
public struct PlacedPlaceholder: Sendable, Hashable {
    /// UTF-16 offset of its U+FFFC.
    public var utf16Offset: Int
    /// The index of its line.
    public var line: Int
    /// Its left edge, px from the text's left edge, and its width.
    public var x: Double
    public var width: Double
    /// How far its top is above the line's baseline (`InlinePlaceholder.baseline`), and its height, px.
    public var ascent: Double
    public var height: Double
}

extension PreparedText {
    /// The boxes of the inline placeholders on the lines of `placement`, in text order:
    /// each in its cluster's box, from its left edge (its right edge when right to
    /// left, letter spacing after it), sitting on the line's baseline as measured.
    ///
    /// ```swift
    /// var bubble = AttributedText("On my way \u{FFFC}")
    /// try bubble.setAttributes(TextAttributes(placeholder: InlinePlaceholder(width: 40, height: 12, baseline: 10)),
    ///                          utf16Range: 10..<11)
    /// let prepared = try PreparedText(bubble)
    /// let placement = prepared.placement(of: try prepared.layout(width: 300))
    /// let boxes = prepared.placeholders(in: placement)   // one box, 40 px wide
    /// ```
    public func placeholders(in placement: TextPlacement) -> [PlacedPlaceholder] {
        guard let runs = attributed?.runs.filter({ $0.attributes.placeholder != nil }), !runs.isEmpty else { return [] }
        var boxes: [PlacedPlaceholder] = []
        var next = 0
        // Clusters are in text order, as the runs are.
        for cluster in placement.clusters where !cluster.isEllipsis {
            let start = cluster.utf16Range.lowerBound
            while next < runs.count, runs[next].utf16Range.lowerBound < start { next += 1 }
            guard next < runs.count, runs[next].utf16Range.lowerBound == start,
                  let box = runs[next].attributes.placeholder else { continue }
            boxes.append(PlacedPlaceholder(utf16Offset: start, line: cluster.line,
                                           x: cluster.isRightToLeft ? cluster.right - box.width : cluster.left,
                                           width: box.width, ascent: box.baseline, height: box.height))
        }
        return boxes
    }
}
