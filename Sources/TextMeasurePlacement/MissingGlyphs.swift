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
        let fonts = self.fonts, ascii = fonts.drawnASCII, bmpFonts = fonts.bmpFonts
        // This runs for every case a batch measures: the code points are decoded from
        // the string's UTF-8 directly (walking `unicodeScalars` cost more than the
        // checks), and ASCII is answered by the set's mask.
        // Usually every ASCII code point is drawn or draws nothing: then only the other
        // bytes need a look, and eight ASCII bytes are passed over at once.
        let everyASCIIIsDrawn = ascii.low == .max && ascii.high == .max
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            var i = 0
            while i < bytes.count {
                if everyASCIIIsDrawn, i + 8 <= bytes.count, let base = bytes.baseAddress,
                   UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
                let lead = UInt32(bytes[i])
                if lead < 0x80 {
                    let bits = lead < 64 ? ascii.low >> UInt64(lead) : ascii.high >> UInt64(lead - 64)
                    if bits & 1 == 0 { return false }
                    i += 1
                    continue
                }
                let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                var value = lead & (0x7F >> UInt32(length))
                // A Swift string's UTF-8 is valid: every continuation byte is there.
                for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
                // A fallback font draws it (most of Chinese, Japanese, Korean...): one load.
                if value < 0x10000, bmpFonts[Int(value)] != 0 { i += length; continue }
                if !fonts.isDrawnOrIgnorable(value) { return false }
                i += length
            }
            return true
        }
        return found ?? text.unicodeScalars.allSatisfy { fonts.isDrawnOrIgnorable($0.value) }
    }

    /// The index of the grapheme cluster holding UTF-16 offset `offset`.
    private func graphemeIndex(containing offset: Int) -> Int {
        graphemeEnds.partitioningIndex { Int($0) > offset }   // the first cluster ending after it
    }
}
