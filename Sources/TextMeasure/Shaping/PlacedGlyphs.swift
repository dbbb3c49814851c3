import CHarfBuzz

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
    /// belongs to the line holding its cluster. Each line is laid out left to right
    /// in visual order: a run's glyphs come in HarfBuzz's visual order, and the runs
    /// of a line are reordered by their scripts' directions (UAX #9 rule L2 over
    /// run levels, the base direction being that of the text's first script), so an
    /// Arabic sentence reads right to left and an English one with an Arabic phrase
    /// keeps the phrase's words in order. This is not the full bidi algorithm:
    /// digits and neutrals take the direction of the run they fall in. Line-break
    /// characters and other zero-width controls draw nothing; a tab draws nothing
    /// and advances by its measured width.
    ///
    /// ```swift
    /// let layout = try prepared.layout(width: 200)
    /// let glyphs = prepared.glyphs(in: layout.lines.map(\.utf16Range))
    /// for (line, placed) in zip(layout.lines, glyphs) {
    ///     for glyph in placed { draw(glyph.glyphID, x: glyph.x, y: line.baseline - glyph.y) }
    /// }
    /// ```
    public func glyphs(in lines: [Range<Int>]) -> [[PlacedGlyph]] {
        guard !lines.isEmpty, utf16Count > 0 else { return [[PlacedGlyph]](repeating: [], count: lines.count) }
        var pieces = [[RunPiece]](repeating: [], count: lines.count)
        var baseIsRightToLeft: Bool?
        let utf16 = Array(text.utf16)
        // The break opportunities preparation used are the segment ends.
        let breaks = segments.map { BreakOpportunity(utf16Offset: Int($0.end), isMandatory: $0.isMandatoryBreak) }
        var fontForGrapheme: [UInt8] = []
        let shaper = Shaper(features: style.fontFeatures)
        let unicode = hb_unicode_funcs_get_default()
        utf16.withUnsafeBufferPointer { text in
            let runs = FontItemizer(fonts: fonts.fonts)
                .runs(in: text, graphemes: graphemeEnds, breaks: breaks, fontForGrapheme: &fontForGrapheme)
            for (runIndex, run) in runs.enumerated() {
                // Runs of only neutral characters have no script and no direction of their own.
                let isRightToLeft: Bool? = run.script == HB_SCRIPT_INVALID ? nil
                    : hb_script_get_horizontal_direction(run.script) == HB_DIRECTION_RTL
                if baseIsRightToLeft == nil { baseIsRightToLeft = isRightToLeft }
                let font = fonts.fonts[run.fontIndex]
                let advanceScale = style.fontSize / Double(font.advanceUnitsPerEm)
                let offsetScale = style.fontSize / Double(font.metrics.unitsPerEm)
                let bitmapAdvances = font.bitmapAdvances
                shaper.withGlyphs(of: run, in: text, font: font) { infos, positions in
                    var lastTab = -1
                    for i in infos.indices {
                        let cluster = Int(infos[i].cluster)
                        guard let line = Self.line(containing: cluster, in: lines) else { continue }
                        if pieces[line].last?.run != runIndex {
                            pieces[line].append(RunPiece(run: runIndex, isRightToLeft: isRightToLeft))
                        }
                        if pieces[line][pieces[line].count - 1].isNeutral {
                            let script = hb_unicode_script(unicode, Scalars.decode(text, at: cluster).scalar)
                            let neutral = script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
                            pieces[line][pieces[line].count - 1].isNeutral = neutral
                        }
                        if text[cluster] == 0x09 {
                            // Drawn as nothing; it moves the pen once, by its measured width.
                            if cluster != lastTab {
                                pieces[line][pieces[line].count - 1].width += Double(graphemeWidth(at: cluster)) / 64
                            }
                            lastTab = cluster
                            continue
                        }
                        if Scalars.isZeroWidthControl(Scalars.decode(text, at: cluster).scalar) { continue }
                        let glyph = infos[i].codepoint
                        // As Shaper.shape measures: colour-bitmap fonts advance by their strike.
                        let units = bitmapAdvances.map { Int(glyph) < $0.count ? $0[Int(glyph)] : 0 } ?? positions[i].x_advance
                        pieces[line][pieces[line].count - 1].append(
                            PlacedGlyph(fontIndex: run.fontIndex, glyphID: glyph, x: Double(positions[i].x_offset) * offsetScale,
                                        y: Double(positions[i].y_offset) * offsetScale,
                                        advance: Double(units) * advanceScale, utf16Offset: cluster))
                    }
                }
            }
        }
        return pieces.map { Self.place(Self.visualOrder($0, baseIsRightToLeft: baseIsRightToLeft ?? false)) }
    }

    /// The glyphs of one run on one line, in HarfBuzz's (visual) order, each `x`
    /// measured from the piece's left edge.
    private struct RunPiece {
        var run: Int
        /// The run's direction; `nil` for a run with no script of its own.
        var isRightToLeft: Bool?
        /// Whether the piece holds only spaces, punctuation and other characters of no
        /// script: it takes its direction from its neighbours (UAX #9 N1, N2).
        var isNeutral = true
        var glyphs: [PlacedGlyph] = []
        /// How far the pen has moved across the piece (glyph advances and tabs).
        var width = 0.0

        /// Adds a glyph whose `x` holds only its offset from the pen.
        mutating func append(_ glyph: PlacedGlyph) {
            var glyph = glyph
            glyph.x += width
            glyphs.append(glyph)
            width += glyph.advance
        }
    }

    /// A line's run pieces in visual order. Each piece gets a bidi level: 1 if right
    /// to left; 0 if left to right, 2 inside right-to-left text; a neutral piece the
    /// direction of the strong pieces on both sides when they agree, else the base
    /// direction (UAX #9 N1, N2, with the line's ends counting as the base). Then
    /// rule L2: every maximal sequence at or above each level, from the highest down
    /// to 1, is reversed.
    private static func visualOrder(_ pieces: [RunPiece], baseIsRightToLeft: Bool) -> [RunPiece] {
        let directions = pieces.map { $0.isNeutral ? nil : $0.isRightToLeft }
        var levels: [Int] = []
        for index in pieces.indices {
            var direction = directions[index]
            if direction == nil {
                let before = directions[..<index].last { $0 != nil } ?? baseIsRightToLeft
                let after = directions[(index + 1)...].first { $0 != nil } ?? baseIsRightToLeft
                direction = before == after ? before : baseIsRightToLeft
            }
            levels.append(direction == true ? 1 : (baseIsRightToLeft ? 2 : 0))
        }
        var order = Array(pieces.indices)
        for level in stride(from: levels.max() ?? 0, through: 1, by: -1) {
            var start = 0
            while start < order.count {
                guard levels[order[start]] >= level else { start += 1; continue }
                var end = start
                while end < order.count, levels[order[end]] >= level { end += 1 }
                order[start..<end].reverse()
                start = end
            }
        }
        return order.map { pieces[$0] }
    }

    /// The pieces' glyphs placed one piece after another from x = 0.
    private static func place(_ pieces: [RunPiece]) -> [PlacedGlyph] {
        var placed: [PlacedGlyph] = []
        var pen = 0.0
        for piece in pieces {
            for var glyph in piece.glyphs {
                glyph.x += pen
                placed.append(glyph)
            }
            pen += piece.width
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
