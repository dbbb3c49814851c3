extension PreparedText {
    /// How many grapheme clusters are drawn with a .notdef glyph (a box) because no font
    /// of the set has a glyph for them: a font given without the embedded fallback that
    /// lacks a script, or a code point no font covers. Controls and tabs, which draw
    /// nothing, do not count.
    ///
    /// Text every character of which some font draws is answered from the fonts'
    /// coverage in one pass; otherwise the text is shaped again and the clusters whose
    /// glyphs include glyph 0 are counted, so the answer is what a renderer would draw.
    public var missingGlyphClusterCount: Int {
        if everyScalarIsDrawn { return 0 }
        let placed = glyphs(in: [0..<utf16Count]).first ?? []
        var clusters: Set<Int> = []
        for glyph in placed where glyph.glyphID == 0 {
            clusters.insert(graphemeIndex(containing: glyph.utf16Offset))
        }
        return clusters.count
    }

    /// Whether some font of the set draws each code point that is drawn at all (a
    /// necessary condition for .notdef: no cluster can need one if this holds).
    private var everyScalarIsDrawn: Bool {
        let fonts = self.fonts.fonts, bmpFonts = self.fonts.bmpFonts
        let primary = fonts[0].coverage
        // Cheapest answers first: this runs for every case a batch measures.
        for scalar in text.unicodeScalars {
            let value = scalar.value
            // The table gives 0 both for the primary font and for no font: the primary's map tells.
            if value < 0x10000, bmpFonts[Int(value)] != 0 { continue }
            if primary.contains(value) { continue }
            if value == 0x09 || Scalars.isCoverageIgnorable(value) { continue }   // controls included
            if !fonts.contains(where: { $0.drawsWithoutNotdef(value) }) { return false }
        }
        return true
    }

    /// The index of the grapheme cluster holding UTF-16 offset `offset`.
    private func graphemeIndex(containing offset: Int) -> Int {
        graphemeEnds.partitioningIndex { Int($0) > offset }   // the first cluster ending after it
    }
}
