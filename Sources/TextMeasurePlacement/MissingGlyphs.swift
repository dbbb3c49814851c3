extension PreparedText {
    /// How many grapheme clusters are drawn with a .notdef glyph (a box) because no font
    /// of the set has a glyph for them: a font given without the embedded fallback that
    /// lacks a script, or a code point no font covers. Controls and tabs, which draw
    /// nothing, do not count.
    ///
    /// Text every character of which some font draws is answered from what preparation's
    /// walk over the text found (`mayMissGlyphs`), with no pass of its own; otherwise the
    /// text is shaped again and the clusters whose glyphs include glyph 0 are counted, so
    /// the answer is what a renderer would draw.
    public var missingGlyphClusterCount: Int {
        if !mayMissGlyphs { return 0 }
        let placed = glyphs(in: [0..<utf16Count]).first ?? []
        var clusters: Set<Int> = []
        for glyph in placed where glyph.glyphID == 0 {
            clusters.insert(graphemeIndex(containing: glyph.utf16Offset))
        }
        return clusters.count
    }

    /// The index of the grapheme cluster holding UTF-16 offset `offset`.
    private func graphemeIndex(containing offset: Int) -> Int {
        graphemeEnds.partitioningIndex { Int($0) > offset }   // the first cluster ending after it
    }
}
