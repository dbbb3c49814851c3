import CHarfBuzz

extension PreparedText {
    /// The fonts glyphs are drawn in, which `PlacedGlyph.fontIndex` indexes: the font
    /// set's for text of one style; for styled text, each run's fonts at its size
    /// (`StyledSegmentBuilder`'s slots), the base style's first, in their set's order.
    /// For styled text, the first read shapes the text, as the first `glyphs(in:)` does.
    public var drawingFonts: [Font] { attributed == nil ? fonts.fonts : storedGlyphs().fonts }

    /// The glyphs that draw each line of `placement`, left to right, at the x its
    /// clusters were placed at (px from the text's left edge) and y from the baseline.
    ///
    /// The first call shapes the text again, split as preparation split it (by font,
    /// script and bidi level, right-to-left runs mirrored by HarfBuzz; styled text by
    /// style too, each run in its own fonts, size and features), which costs about
    /// what preparing did, and keeps the glyphs with the prepared text (about 20 bytes
    /// a glyph): later calls, at any width or alignment, shape nothing. It is for
    /// drawing, never for measuring. A glyph's font is
    /// `drawingFonts[glyph.fontIndex]` at `glyph.size`. Letter spacing is the room
    /// after a cluster's glyphs (before them, right to left); an inline placeholder
    /// draws no glyph: `placeholders(in:)` gives its box. Each HarfBuzz
    /// cluster's glyphs start at its box's left edge (left-to-right runs) or end at
    /// its right edge (right-to-left runs); the ellipsis of a truncated line is drawn
    /// in its box. Line breaks and other zero-width controls draw nothing; a tab
    /// draws nothing and its box is the space it takes.
    ///
    /// ```swift
    /// let layout = try prepared.layout(width: 200)
    /// let placement = prepared.placement(of: layout)
    /// for (line, placed) in zip(placement.lines, prepared.glyphs(in: placement)) {
    ///     for glyph in placed { draw(glyph.glyphID, x: glyph.x, y: line.baseline - glyph.y) }
    /// }
    /// ```
    public func glyphs(in placement: TextPlacement) -> [[PlacedGlyph]] {
        var lines = [[PlacedGlyph]](repeating: [], count: placement.lines.count)
        // For each glyph, its cluster's index in `placement.clusters`.
        var ranks = [[Int]](repeating: [], count: placement.lines.count)
        guard utf16Count > 0 else { return lines }
        // The placed cluster that holds each UTF-16 offset, -1 for none (elided, or on no line).
        var clusterAt = [Int32](repeating: -1, count: utf16Count)
        for (index, cluster) in placement.clusters.enumerated() where !cluster.isEllipsis {
            for offset in cluster.utf16Range { clusterAt[offset] = Int32(index) }
        }
        let stored = storedGlyphs()
        for run in stored.runs {
            let placing = GlyphPlacing(font: stored.fonts[run.fontIndex], fontIndex: run.fontIndex,
                                       size: stored.sizes[run.fontIndex])
            var first = run.glyphs.lowerBound
            while first < run.glyphs.upperBound {
                // One HarfBuzz cluster: its glyphs are consecutive.
                let offset = Int(stored.glyphs[first].cluster)
                var end = first + 1
                while end < run.glyphs.upperBound, stored.glyphs[end].cluster == stored.glyphs[first].cluster { end += 1 }
                defer { first = end }
                let index = Int(clusterAt[offset])
                guard index >= 0 else { continue }
                let cluster = placement.clusters[index]
                let glyphs = stored.glyphs[first..<end].map { placing.glyph($0, utf16Offset: offset) }
                let advance = glyphs.reduce(0) { $0 + $1.advance }
                // Letter spacing follows the glyphs: on their right, or left when right to left.
                var x = run.isRightToLeft ? cluster.right - advance : cluster.left
                for var glyph in glyphs {
                    glyph.x += x
                    x += glyph.advance
                    lines[cluster.line].append(glyph)
                    ranks[cluster.line].append(index)
                }
            }
        }
        for (index, cluster) in placement.clusters.enumerated() where cluster.isEllipsis {
            let glyphs = placed(stored.ellipsis, in: stored, fontIndex: ellipsis.fontIndex, at: cluster.left,
                                utf16Offset: cluster.utf16Range.lowerBound)
            lines[cluster.line].append(contentsOf: glyphs)
            ranks[cluster.line].append(contentsOf: repeatElement(index, count: glyphs.count))
        }
        for (index, line) in placement.lines.enumerated() {
            guard let left = line.hyphenLeft else { continue }
            let glyphs = placed(stored.hyphen, in: stored, fontIndex: hyphen.fontIndex, at: left, utf16Offset: line.utf16Range.upperBound)
            lines[index].append(contentsOf: glyphs)
            // Before the line's clusters or after them, as it is drawn (-1 and Int.max: no cluster's rank).
            ranks[index].append(contentsOf: repeatElement(line.isRightToLeft ? -1 : Int.max, count: glyphs.count))
        }
        // Runs were shaped in text order; a line is read left to right, cluster by
        // cluster in placement's visual order, each cluster's glyphs in HarfBuzz's order.
        var visualRank = [Int](repeating: 0, count: placement.clusters.count)
        for (rank, cluster) in placement.visualOrder.enumerated() { visualRank[cluster] = rank }
        return zip(lines, ranks).map { line, clusters in
            let ranks = clusters.map { $0 == -1 || $0 == Int.max ? $0 : visualRank[$0] }
            return line.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }.map { line[$0] }
        }
    }

    /// The runs the text was shaped in, split as preparation split them (by font,
    /// script and bidi level; for styled text by style too, each run's `fontIndex` an
    /// index into `drawingFonts`), the shapers with their features, and each run's
    /// shaper (nil: the one).
    private func drawingRuns(of text: UnsafeBufferPointer<UInt16>, styled drawing: StyledDrawing?, shaper: Shaper)
        -> (runs: [FontRun], shapers: [Shaper], runShapers: [Int]?) {
        if let drawing {
            return (drawing.runs, drawing.features.map { Shaper(features: $0) }, drawing.runStyles)
        }
        let breaks = segments.map { BreakOpportunity(utf16Offset: Int($0.end), isMandatory: $0.isMandatoryBreak) }
        var fontForGrapheme: [UInt8] = []
        var runs = FontItemizer(fontSet: fonts)
            .runs(in: text, graphemes: graphemeEnds, breaks: breaks, fontForGrapheme: &fontForGrapheme)
        if !bidi.isLeftToRight {
            graphemeEnds.withUnsafeBufferPointer { ends in
                bidi.withLevels { levels in
                    BidiRuns.split(&runs, from: 0, clusterEnds: ends, start: 0, levels: levels.baseAddress!)
                }
            }
        }
        return (runs, [shaper], nil)
    }

    /// `glyphs` (the ellipsis or the hyphen) in font `fontIndex` at the base size, from `left` px.
    private func placed(_ glyphs: [StoredGlyphs.Glyph], in stored: StoredGlyphs, fontIndex: Int, at left: Double,
                        utf16Offset: Int) -> [PlacedGlyph] {
        let placing = GlyphPlacing(font: stored.fonts[fontIndex], fontIndex: fontIndex, size: style.fontSize)
        var x = left
        return glyphs.map {
            var glyph = placing.glyph($0, utf16Offset: utf16Offset)
            glyph.x += x
            x += glyph.advance
            return glyph
        }
    }

    /// Every run's glyphs, shaped the first time the text is drawn and kept (`GlyphStore`):
    /// runs split as preparation split them; glyphs of tabs and zero-width controls,
    /// which draw nothing, left out; "…" and the hyphen shaped alone, as measured.
    private func storedGlyphs() -> StoredGlyphs {
        glyphStore.glyphs {
            var stored = StoredGlyphs()
            let drawing = styledDrawing()
            stored.fonts = drawing?.fonts ?? fonts.fonts
            stored.sizes = drawing?.sizes ?? Array(repeating: style.fontSize, count: fonts.fonts.count)
            let shaper = Shaper(features: style.fontFeatures)
            Array(text.utf16).withUnsafeBufferPointer { text in
                let (runs, shapers, runShapers) = drawingRuns(of: text, styled: drawing, shaper: shaper)
                for (index, run) in runs.enumerated() {
                    let first = stored.glyphs.count
                    shapers[runShapers?[index] ?? 0].withGlyphs(of: run, in: text, font: stored.fonts[run.fontIndex]) {
                        infos, positions in
                        for i in infos.indices {
                            let scalar = Scalars.decode(text, at: Int(infos[i].cluster)).scalar
                            guard scalar != 0x09, !Scalars.isZeroWidthControl(scalar) else { continue }
                            stored.glyphs.append(StoredGlyphs.Glyph(infos[i], positions[i]))
                        }
                    }
                    stored.runs.append(StoredGlyphs.Run(fontIndex: run.fontIndex,
                                                        isRightToLeft: run.bidiLevel.map { $0 & 1 == 1 } ?? false,
                                                        glyphs: first..<stored.glyphs.count))
                }
            }
            stored.ellipsis = shapedAlone(LineBreakMode.ellipsis, font: stored.fonts[ellipsis.fontIndex], shaper: shaper)
            stored.hyphen = shapedAlone(hyphen.scalar, font: stored.fonts[hyphen.fontIndex], shaper: shaper)
            return stored
        }
    }

    /// `scalar` (a BMP one: "…" or a hyphen) shaped on its own in `font`.
    private func shapedAlone(_ scalar: Unicode.Scalar, font: Font, shaper: borrowing Shaper) -> [StoredGlyphs.Glyph] {
        var glyphs: [StoredGlyphs.Glyph] = []
        [UInt16(scalar.value)].withUnsafeBufferPointer { text in
            let run = FontRun(start: 0, end: 1, fontIndex: 0, script: HB_SCRIPT_COMMON)
            shaper.withGlyphs(of: run, in: text, font: font) { infos, positions in
                for i in infos.indices { glyphs.append(StoredGlyphs.Glyph(infos[i], positions[i])) }
            }
        }
        return glyphs
    }

    /// Turns HarfBuzz's glyphs of one font into placed glyphs, in px.
    private struct GlyphPlacing {
        let fontIndex: Int
        let size: Double
        let advanceScale: Double
        let offsetScale: Double
        let bitmapAdvances: [Int32]?

        init(font: Font, fontIndex: Int, size: Double) {
            self.fontIndex = fontIndex
            self.size = size
            advanceScale = size / Double(font.advanceUnitsPerEm)
            offsetScale = size / Double(font.metrics.unitsPerEm)
            bitmapAdvances = font.bitmapAdvances
        }

        /// The glyph with `x` holding only its offset from the pen.
        func glyph(_ stored: StoredGlyphs.Glyph, utf16Offset: Int) -> PlacedGlyph {
            let id = stored.id
            // As Shaper.shape measures: colour-bitmap fonts advance by their strike.
            let units = bitmapAdvances.map { Int(id) < $0.count ? $0[Int(id)] : 0 } ?? stored.advance
            return PlacedGlyph(fontIndex: fontIndex, size: size, glyphID: id, x: Double(stored.xOffset) * offsetScale,
                               y: Double(stored.yOffset) * offsetScale, advance: Double(units) * advanceScale,
                               utf16Offset: utf16Offset)
        }
    }
}
