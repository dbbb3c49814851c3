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
    /// The glyphs that draw each of `lines`, placed where measuring put them.
    ///
    /// This runs font itemization and HarfBuzz shaping again, on the runs
    /// preparation shaped and with the same features, so the advances are the
    /// measured ones (to within the 1/64 px rounding of each cluster). It costs
    /// about what preparing did: it is for drawing, never for measuring.
    ///
    /// `lines` are UTF-16 ranges in text order, usually a layout's lines; a glyph
    /// belongs to the line holding its cluster. Runs are placed in logical order and
    /// each run's glyphs in HarfBuzz's visual order, so a right-to-left run reads
    /// correctly on its own, but a line mixing directions is not reordered
    /// (TextMeasure does no bidi reordering). Line-break characters and other
    /// zero-width controls draw nothing; a tab draws nothing and advances by its
    /// measured width.
    ///
    /// ```swift
    /// let layout = try prepared.layout(width: 200)
    /// let glyphs = prepared.glyphs(in: layout.lines.map(\.utf16Range))
    /// for (line, placed) in zip(layout.lines, glyphs) {
    ///     for glyph in placed { draw(glyph.glyphID, x: glyph.x, y: line.baseline - glyph.y) }
    /// }
    /// ```
    public func glyphs(in lines: [Range<Int>]) -> [[PlacedGlyph]] {
        var placed = [[PlacedGlyph]](repeating: [], count: lines.count)
        guard !lines.isEmpty, utf16Count > 0 else { return placed }
        let utf16 = Array(text.utf16)
        // The break opportunities preparation used are the segment ends.
        let breaks = segments.map { BreakOpportunity(utf16Offset: Int($0.end), isMandatory: $0.isMandatoryBreak) }
        var pens = [Double](repeating: 0, count: lines.count)
        var fontForGrapheme: [UInt8] = []
        let shaper = Shaper(features: style.fontFeatures)
        utf16.withUnsafeBufferPointer { text in
            let runs = FontItemizer(fonts: fonts.fonts)
                .runs(in: text, graphemes: graphemeEnds, breaks: breaks, fontForGrapheme: &fontForGrapheme)
            for run in runs {
                let font = fonts.fonts[run.fontIndex]
                let advanceScale = style.fontSize / Double(font.advanceUnitsPerEm)
                let offsetScale = style.fontSize / Double(font.metrics.unitsPerEm)
                let bitmapAdvances = font.bitmapAdvances
                shaper.withGlyphs(of: run, in: text, font: font) { infos, positions in
                    var lastTab = -1
                    for i in infos.indices {
                        let cluster = Int(infos[i].cluster)
                        guard let line = Self.line(containing: cluster, in: lines) else { continue }
                        let first = text[cluster]
                        if first == 0x09 {
                            if cluster != lastTab { pens[line] += Double(graphemeWidth(at: cluster)) / 64 }
                            lastTab = cluster
                            continue
                        }
                        if Scalars.isZeroWidthControl(Scalars.decode(text, at: cluster).scalar) { continue }
                        let glyph = infos[i].codepoint
                        // As Shaper.shape measures: colour-bitmap fonts advance by their strike.
                        let units = bitmapAdvances.map { Int(glyph) < $0.count ? $0[Int(glyph)] : 0 } ?? positions[i].x_advance
                        let advance = Double(units) * advanceScale
                        placed[line].append(PlacedGlyph(fontIndex: run.fontIndex, glyphID: glyph,
                                                        x: pens[line] + Double(positions[i].x_offset) * offsetScale,
                                                        y: Double(positions[i].y_offset) * offsetScale,
                                                        advance: advance, utf16Offset: cluster))
                        pens[line] += advance
                    }
                }
            }
        }
        return placed
    }

    /// The index of the range in `lines` (sorted, not overlapping) that holds `offset`.
    private static func line(containing offset: Int, in lines: [Range<Int>]) -> Int? {
        var low = 0, high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid].lowerBound <= offset { low = mid + 1 } else { high = mid }
        }
        guard low > 0, lines[low - 1].contains(offset) else { return nil }
        return low - 1
    }

    /// The measured width, in 1/64 px, of the grapheme cluster starting at `offset`.
    private func graphemeWidth(at offset: Int) -> Int {
        var low = 0, high = graphemeEnds.count
        while low < high {
            let mid = (low + high) / 2
            if Int(graphemeEnds[mid]) <= offset { low = mid + 1 } else { high = mid }
        }
        return low < graphemeWidths.count ? Int(graphemeWidths[low]) : 0
    }
}
