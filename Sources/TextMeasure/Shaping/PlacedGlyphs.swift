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
    /// belongs to the line holding its cluster. `elided[i]`, when given, is the part
    /// of line i that a truncated line shows as "…" (`TextLayout.Line.elidedUTF16Range`):
    /// its glyphs are left out and the ellipsis, shaped on its own in the font
    /// truncation measured it with, stands in their place.
    ///
    /// Each line is laid out left to right in visual order: a run's glyphs come in
    /// HarfBuzz's visual order, and the runs of a line are reordered by their
    /// scripts' directions (UAX #9 rule L2 over run levels, the base direction being
    /// that of the text's first script), so an Arabic sentence reads right to left
    /// and an English one with an Arabic phrase keeps the phrase's words in order.
    /// This is not the full bidi algorithm: digits and neutrals take the direction
    /// of the run they fall in. Line-break characters and other zero-width controls
    /// draw nothing; a tab draws nothing and advances the pen to the next tab stop.
    ///
    /// ```swift
    /// let layout = try prepared.layout(width: 200)
    /// for (line, placed) in zip(layout.lines, prepared.glyphs(in: layout)) {
    ///     for glyph in placed { draw(glyph.glyphID, x: glyph.x, y: line.baseline - glyph.y) }
    /// }
    /// ```
    public func glyphs(in lines: [Range<Int>], eliding elided: [Range<Int>?] = []) -> [[PlacedGlyph]] {
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
            let runs = FontItemizer(fontSet: fonts)
                .runs(in: text, graphemes: graphemeEnds, breaks: breaks, fontForGrapheme: &fontForGrapheme)
            for (runIndex, run) in runs.enumerated() {
                // Runs of only neutral characters have no script and no direction of their own.
                let isRightToLeft: Bool? = run.script == HB_SCRIPT_INVALID ? nil
                    : hb_script_get_horizontal_direction(run.script) == HB_DIRECTION_RTL
                if baseIsRightToLeft == nil { baseIsRightToLeft = isRightToLeft }
                let placing = GlyphPlacing(font: fonts.fonts[run.fontIndex], fontIndex: run.fontIndex, size: style.fontSize)
                shaper.withGlyphs(of: run, in: text, font: fonts.fonts[run.fontIndex]) { infos, positions in
                    var lastTab = -1
                    for i in infos.indices {
                        let cluster = Int(infos[i].cluster)
                        guard let line = Self.line(containing: cluster, in: lines) else { continue }
                        var part = RunPiece.Part.whole
                        if line < elided.count, let cut = elided[line] {
                            if cut.contains(cluster) { continue }
                            part = cluster < cut.lowerBound ? .beforeEllipsis : .afterEllipsis
                        }
                        let piece = RunPiece.index(run: runIndex, part: part, isRightToLeft: isRightToLeft, in: &pieces[line])
                        if pieces[line][piece].isNeutral {
                            let script = hb_unicode_script(unicode, Scalars.decode(text, at: cluster).scalar)
                            let neutral = script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
                            pieces[line][piece].isNeutral = neutral
                        }
                        if text[cluster] == 0x09 {
                            // Drawn as nothing; it moves the pen once, to the next tab stop.
                            if cluster != lastTab {
                                pieces[line][piece].tabs.append((before: pieces[line][piece].glyphs.count,
                                                                 at: pieces[line][piece].width))
                            }
                            lastTab = cluster
                            continue
                        }
                        if Scalars.isZeroWidthControl(Scalars.decode(text, at: cluster).scalar) { continue }
                        pieces[line][piece].append(placing.glyph(infos[i], positions[i], utf16Offset: cluster))
                    }
                }
            }
        }
        for (line, cut) in elided.prefix(lines.count).enumerated() {
            guard let cut else { continue }
            pieces[line].append(ellipsisPiece(at: cut.lowerBound, shaper: shaper))
        }
        return pieces.map { linePieces in
            // Logical order: what comes before the ellipsis, the ellipsis, what comes after; runs in text order.
            let logical = linePieces.sorted { ($0.part.rawValue, $0.run) < ($1.part.rawValue, $1.run) }
            return Self.place(Self.visualOrder(logical, baseIsRightToLeft: baseIsRightToLeft ?? false), tabStops: tabStops)
        }
    }

    /// The glyphs of each line of `layout`, truncated lines showing their "…":
    /// `glyphs(in:eliding:)` with the layout's lines and elided ranges.
    public func glyphs(in layout: TextLayout) -> [[PlacedGlyph]] {
        glyphs(in: layout.lines.map(\.utf16Range), eliding: layout.lines.map(\.elidedUTF16Range))
    }

    /// The hyphen a line broken at a hyphenation point ends with (`TextLayout.Line.hyphen`),
    /// shaped on its own as it was measured, `x` from the hyphen's own start: a renderer
    /// draws it after the line's glyphs.
    public func hyphenGlyphs() -> [PlacedGlyph] {
        var glyphs: [PlacedGlyph] = []
        let font = fonts.fonts[hyphen.fontIndex]
        let placing = GlyphPlacing(font: font, fontIndex: hyphen.fontIndex, size: style.fontSize)
        var pen = 0.0
        [UInt16(hyphen.scalar.value)].withUnsafeBufferPointer { text in
            let run = FontRun(start: 0, end: 1, fontIndex: hyphen.fontIndex, script: HB_SCRIPT_COMMON)
            Shaper(features: style.fontFeatures).withGlyphs(of: run, in: text, font: font) { infos, positions in
                for i in infos.indices {
                    var glyph = placing.glyph(infos[i], positions[i], utf16Offset: 0)
                    glyph.x += pen
                    pen += glyph.advance
                    glyphs.append(glyph)
                }
            }
        }
        return glyphs
    }

    /// "…" as truncation measured it: shaped on its own in `ellipsis.fontIndex`.
    private func ellipsisPiece(at offset: Int, shaper: borrowing Shaper) -> RunPiece {
        var piece = RunPiece(run: 0, part: .ellipsis, isRightToLeft: nil)
        let font = fonts.fonts[ellipsis.fontIndex]
        let placing = GlyphPlacing(font: font, fontIndex: ellipsis.fontIndex, size: style.fontSize)
        [UInt16(LineBreakMode.ellipsis.value)].withUnsafeBufferPointer { text in
            let run = FontRun(start: 0, end: 1, fontIndex: ellipsis.fontIndex, script: HB_SCRIPT_COMMON)
            shaper.withGlyphs(of: run, in: text, font: font) { infos, positions in
                for i in infos.indices { piece.append(placing.glyph(infos[i], positions[i], utf16Offset: offset)) }
            }
        }
        return piece
    }

    /// Turns HarfBuzz's glyphs of one font into placed glyphs, in px.
    private struct GlyphPlacing {
        let fontIndex: Int
        let advanceScale: Double
        let offsetScale: Double
        let bitmapAdvances: [Int32]?

        init(font: Font, fontIndex: Int, size: Double) {
            self.fontIndex = fontIndex
            advanceScale = size / Double(font.advanceUnitsPerEm)
            offsetScale = size / Double(font.metrics.unitsPerEm)
            bitmapAdvances = font.bitmapAdvances
        }

        /// The glyph with `x` holding only its offset from the pen.
        func glyph(_ info: hb_glyph_info_t, _ position: hb_glyph_position_t, utf16Offset: Int) -> PlacedGlyph {
            let id = info.codepoint
            // As Shaper.shape measures: colour-bitmap fonts advance by their strike.
            let units = bitmapAdvances.map { Int(id) < $0.count ? $0[Int(id)] : 0 } ?? position.x_advance
            return PlacedGlyph(fontIndex: fontIndex, glyphID: id, x: Double(position.x_offset) * offsetScale,
                               y: Double(position.y_offset) * offsetScale, advance: Double(units) * advanceScale,
                               utf16Offset: utf16Offset)
        }
    }

    /// The glyphs of one run on one line (or of the part of it on one side of an
    /// ellipsis), in HarfBuzz's (visual) order, each `x` measured from the piece's
    /// left edge.
    private struct RunPiece {
        /// Where the piece sits against a truncated line's ellipsis, in logical order.
        enum Part: Int {
            case whole = 0, beforeEllipsis = 1, ellipsis = 2, afterEllipsis = 3
        }

        var run: Int
        var part: Part
        /// The run's direction; `nil` for a run with no script of its own.
        var isRightToLeft: Bool?
        /// Whether the piece holds only spaces, punctuation and other characters of no
        /// script: it takes its direction from its neighbours (UAX #9 N1, N2).
        var isNeutral = true
        var glyphs: [PlacedGlyph] = []
        /// How far the pen has moved across the piece (glyph advances; tabs are added
        /// when the piece is placed, as they reach to stops measured from the line's start).
        var width = 0.0
        /// For each tab, the index of the glyph it comes before and where the pen was.
        var tabs: [(before: Int, at: Double)] = []

        init(run: Int, part: Part, isRightToLeft: Bool?) {
            self.run = run
            self.part = part
            self.isRightToLeft = isRightToLeft
        }

        /// Adds a glyph whose `x` holds only its offset from the pen.
        mutating func append(_ glyph: PlacedGlyph) {
            var glyph = glyph
            glyph.x += width
            glyphs.append(glyph)
            width += glyph.advance
        }

        /// The index in `pieces` of the piece for `run` and `part`, added if new.
        /// A line has a few pieces, and the one wanted is nearly always the last.
        static func index(run: Int, part: Part, isRightToLeft: Bool?, in pieces: inout [RunPiece]) -> Int {
            if let found = pieces.lastIndex(where: { $0.run == run && $0.part == part }) { return found }
            pieces.append(RunPiece(run: run, part: part, isRightToLeft: isRightToLeft))
            return pieces.count - 1
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

    /// The pieces' glyphs placed one piece after another from x = 0, each tab moving
    /// the pen on to the next of `tabStops`, as line fitting measured it.
    private static func place(_ pieces: [RunPiece], tabStops: TabStops) -> [PlacedGlyph] {
        var placed: [PlacedGlyph] = []
        var pen = 0.0
        let unitsPerPixel = Double(Segment.unitsPerPixel)
        for piece in pieces {
            var shift = 0.0   // what the piece's tabs so far have added
            var tab = 0
            func advanceTabs(before index: Int) {
                while tab < piece.tabs.count, piece.tabs[tab].before <= index {
                    let x = Int(((pen + piece.tabs[tab].at + shift) * unitsPerPixel).rounded())
                    shift += Double(tabStops.advance(at: x)) / unitsPerPixel
                    tab += 1
                }
            }
            for (index, var glyph) in piece.glyphs.enumerated() {
                advanceTabs(before: index)
                glyph.x += pen + shift
                placed.append(glyph)
            }
            advanceTabs(before: piece.glyphs.count)
            pen += piece.width + shift
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
}
