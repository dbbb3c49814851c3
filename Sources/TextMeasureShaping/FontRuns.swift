import CHarfBuzz

/// A maximal stretch of text drawn with one font, in one script: the unit HarfBuzz shapes.
package struct FontRun: Equatable {
    package var start: Int          // UTF-16 offset
    package var end: Int
    package var fontIndex: Int
    package var script: hb_script_t
    /// The run's bidi level (odd: shaped right to left); nil when the text needed
    /// no bidi resolution, and the script gives the direction (see `BidiRuns`).
    package var bidiLevel: UInt8?

    package init(start: Int, end: Int, fontIndex: Int, script: hb_script_t, bidiLevel: UInt8? = nil) {
        self.start = start
        self.end = end
        self.fontIndex = fontIndex
        self.script = script
        self.bidiLevel = bidiLevel
    }

    /// Whether the run's script is written right to left.
    package var isRightToLeft: Bool { hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL }
    /// Whether HarfBuzz shapes the run right to left: its bidi level's direction when
    /// it has one, else its script's (as `Shaper.setSegmentProperties` sets it).
    package var isShapedRightToLeft: Bool { bidiLevel.map { $0 & 1 == 1 } ?? isRightToLeft }
}

/// Whole segments prepared together, from one safe break to the next one that is
/// not prepared with them (see `SegmentBuilder`).
package struct Stretch {
    /// UTF-16 offsets of the first segment's start and the last segment's end.
    package var start: Int
    package var end: Int
    /// The end offset of each of the stretch's grapheme clusters, in order.
    package var clusterEnds: UnsafeBufferPointer<Int32>
    /// The line-break opportunities that end the stretch's segments.
    var breaks: UnsafeBufferPointer<BreakOpportunity>
    /// For each of `breaks`, whether text cut there shapes the same in two pieces.
    var safeBreaks: UnsafeBufferPointer<Bool>

    package init(start: Int, end: Int, clusterEnds: UnsafeBufferPointer<Int32>,
                 breaks: UnsafeBufferPointer<BreakOpportunity>, safeBreaks: UnsafeBufferPointer<Bool>) {
        self.start = start
        self.end = end
        self.clusterEnds = clusterEnds
        self.breaks = breaks
        self.safeBreaks = safeBreaks
    }

    /// Whether text cut at `opportunity` shapes the same in two pieces as in one:
    /// at the end of the text; after a mandatory break (runs end there); after a
    /// space, when the set's space takes part in no OpenType lookup
    /// (`spacesSeparateShaping`) and what follows is no mark or joiner that HarfBuzz
    /// would fold into the space's cluster; between two letters that are clusters by
    /// themselves and that no lookup or kerning pair of their fonts reaches
    /// (`FontSet.clusterContexts`): no rule then reaches across the break; or between
    /// two such letters of scripts shaped without context, drawn by different fonts
    /// (`ClusterContext.areApartAtFontChange`): a run ends there.
    /// (Package: the styled shape cache asks it for a segment's two breaks.)
    @inline(__always)
    package static func isSafeBreak(_ opportunity: BreakOpportunity, in text: UnsafeBufferPointer<UInt16>,
                                    spacesSeparateShaping: Bool, contexts: UnsafeBufferPointer<UInt8>) -> Bool {
        let offset = opportunity.utf16Offset
        if offset == text.count || opportunity.isMandatory { return true }
        // A break follows at least one code unit: no overflow to check (a test per break).
        let last = text[offset &- 1]
        if spacesSeparateShaping, last == 0x20 {
            // Nothing below U+0300 (the first combining mark) joins what precedes it.
            return text[offset] < 0x300 || !Scalars.joinsPrevious(Scalars.decode(text, at: offset).scalar)
        }
        // Surrogates have no bits: letters beyond the BMP are never context-free here.
        let before = contexts[Int(last)], after = contexts[Int(text[offset])]
        guard before & after & ClusterContext.contextFree != 0 || ClusterContext.areApartAtFontChange(before, after)
        else { return false }
        // Each letter must be its cluster: nothing joins the one before from its left
        // or the one after from its right.
        if offset >= 2, contexts[Int(text[offset - 2])] & ClusterContext.joinsNext != 0 { return false }
        if offset + 1 < text.count, text[offset + 1] & 0xFC00 == 0xD800 {
            return !Scalars.joinsPrevious(Scalars.decode(text, at: offset + 1).scalar)
        }
        return offset + 1 == text.count || contexts[Int(text[offset + 1])] & ClusterContext.joinsPrevious == 0
    }

    /// `isSafeBreak` for each of `breaks`, written to `safe`: one call from
    /// preparation per text, not one into this module per break.
    package static func markSafeBreaks(_ breaks: UnsafeBufferPointer<BreakOpportunity>,
                                       in text: UnsafeBufferPointer<UInt16>, fonts: FontSet,
                                       into safe: UnsafeMutablePointer<Bool>) {
        let spacesSeparateShaping = fonts.spacesSeparateShaping
        fonts.clusterContexts.withUnsafeBufferPointer { contexts in
            for (index, opportunity) in breaks.enumerated() {
                safe[index] = isSafeBreak(opportunity, in: text, spacesSeparateShaping: spacesSeparateShaping,
                                          contexts: contexts)
            }
        }
    }
}

/// Font itemization: which font draws each grapheme cluster, and the runs that follow.
///
/// Each cluster takes the first font in the set that draws all of its code points
/// without .notdef (`Font.drawsWithoutNotdef`: the cmap, or what HarfBuzz draws
/// through decomposition and space fallback);
/// failing that, the first that covers all but joiners and variation selectors;
/// failing that, the first that covers its first code point; failing that, the
/// primary font (which draws .notdef). A variation selector counts as covered only
/// by a font with a glyph for the sequence (cmap format 14), as in Blink, so `☺️`
/// goes to a colour emoji font even when an earlier font has a plain `☺`.
/// Fonts are tried in list order for every
/// cluster, spaces and punctuation included, as browsers do.
package struct FontItemizer {
    package let fontSet: FontSet
    /// `fontSet.fonts`, read once: the getter retains the array at each read.
    package let fonts: [Font]

    package init(fontSet: FontSet) {
        self.fontSet = fontSet
        fonts = fontSet.fonts
    }

    /// The font index for the cluster `text[start..<end]`.
    package func fontIndex(for text: UnsafeBufferPointer<UInt16>, start: Int, end: Int) -> Int {
        if end - start == 1, text[start] & 0xF800 != 0xD800 {
            // One BMP code point (most text): the first font that covers it, else the primary.
            return Int(fontSet.bmpFonts[Int(text[start])])
        }
        var firstCovering: Int?
        var lenientMatch: Int?
        for (index, font) in fonts.enumerated() {
            var coversAll = true, coversNonIgnorable = true
            var previous: UInt32?
            // Whether this font draws the first code point: what `firstCovering` asks.
            var drawsFirst = false
            var i = start
            while i < end {
                let (scalar, length) = Scalars.decode(text, at: i)
                let drawn = if let previous, Scalars.isVariationSelector(scalar) {
                    font.drawsVariation(of: previous, selector: scalar)
                } else {
                    font.drawsWithoutNotdef(scalar)
                }
                if i == start { drawsFirst = drawn }
                if !drawn {
                    coversAll = false
                    if !Scalars.isCoverageIgnorable(scalar) { coversNonIgnorable = false; break }
                }
                previous = scalar
                i += length
            }
            if coversAll { return index }
            if coversNonIgnorable, lenientMatch == nil { lenientMatch = index }
            if firstCovering == nil, drawsFirst { firstCovering = index }
        }
        return lenientMatch ?? firstCovering ?? 0
    }

    /// Gives each cluster of `stretch` its font (`fontForCluster[i]` for the i-th
    /// cluster), appends the stretch's runs to `runs`, and writes for each of its
    /// segments the script the text after it inherits (`scriptAfter[i]`).
    ///
    /// A cluster's script is its first code point's; Common and Inherited take the
    /// script before them (`script` at the start of the stretch), so a space belongs
    /// to the word it follows. Runs end where the font or the script changes, and
    /// after a mandatory break: paragraphs are shaped apart, as browsers shape them.
    ///
    /// A run that grows past `maximumRunLength` code units is cut, so that HarfBuzz's
    /// buffer stays small however long the paragraph: at the next safe break, or at
    /// the next line-break opportunity once that many units have passed since the
    /// last safe break, or anywhere between clusters after 16 times as many. Counting
    /// from safe breaks keeps the cuts where they would be if the whole text were
    /// one stretch, so results do not depend on what the shape cache held.
    package func itemize(_ stretch: Stretch, of text: UnsafeBufferPointer<UInt16>, inheriting script: hb_script_t,
                 fontForCluster: UnsafeMutablePointer<UInt8>, scriptAfter: UnsafeMutablePointer<hb_script_t>?,
                 runs: inout [FontRun], maximumRunLength: Int = 4096) {
        fontSet.bmpFonts.withUnsafeBufferPointer { bmpFonts in
            ScriptTable.bmp.withScripts { scripts in
                itemize(stretch, of: text, inheriting: script, bmpFonts: bmpFonts, scripts: scripts,
                        fontForCluster: fontForCluster, scriptAfter: scriptAfter, runs: &runs,
                        maximumRunLength: maximumRunLength)
            }
        }
    }

    /// The runs of the whole of `text`, whose clusters end at `graphemes` and whose
    /// line-break opportunities are `breaks`: what preparation shapes with no cache,
    /// for drawing what was measured. Fills `fontForGrapheme`.
    package func runs(in text: UnsafeBufferPointer<UInt16>, graphemes: [Int32], breaks: [BreakOpportunity],
              fontForGrapheme: inout [UInt8]) -> [FontRun] {
        var runs: [FontRun] = []
        let safe = breaks.withUnsafeBufferPointer { breaks in
            [Bool](unsafeUninitializedCapacity: breaks.count) { safe, count in
                if let base = safe.baseAddress { Stretch.markSafeBreaks(breaks, in: text, fonts: fontSet, into: base) }
                count = breaks.count
            }
        }
        var scripts = [hb_script_t](repeating: HB_SCRIPT_INVALID, count: breaks.count)
        fontForGrapheme = [UInt8](repeating: 0, count: graphemes.count)
        graphemes.withUnsafeBufferPointer { graphemes in
            breaks.withUnsafeBufferPointer { breaks in
                safe.withUnsafeBufferPointer { safe in
                    let stretch = Stretch(start: 0, end: text.count, clusterEnds: graphemes, breaks: breaks,
                                          safeBreaks: safe)
                    fontForGrapheme.withUnsafeMutableBufferPointer { fonts in
                        scripts.withUnsafeMutableBufferPointer { scripts in
                            guard let fonts = fonts.baseAddress else { return }
                            itemize(stretch, of: text, inheriting: HB_SCRIPT_INVALID, fontForCluster: fonts,
                                    scriptAfter: scripts.baseAddress, runs: &runs)
                        }
                    }
                }
            }
        }
        return runs
    }

    /// `fontIndex(for:start:end:)` with itemizing's shortcut (`sharedFallbackFont`), for
    /// styled text, which itemizes cluster by cluster: without it, each Indic, Thai or
    /// Arabic letter with its marks walked the fonts.
    package func fontIndex(forCluster text: UnsafeBufferPointer<UInt16>, start: Int, end: Int) -> Int {
        let shared = fontSet.bmpFonts.withUnsafeBufferPointer { bmpFonts in
            Self.sharedFallbackFont(text, start: start, end: end, bmpFonts: bmpFonts)
        }
        return shared ?? fontIndex(for: text, start: start, end: end)
    }

    /// The font of the cluster `text[start..<end]` when its code points are all in the
    /// BMP, none a variation selector, and the table gives each the same fallback font
    /// (not the primary, for which 0 may also mean no font): that font draws them all
    /// and no earlier one draws the first, so `fontIndex` would choose it too. Thai,
    /// Indic and Arabic letters with their marks take this, without the per-font walk.
    @inline(__always)
    private static func sharedFallbackFont(_ text: UnsafeBufferPointer<UInt16>, start: Int, end: Int,
                                           bmpFonts: UnsafeBufferPointer<UInt8>) -> Int? {
        let font = bmpFonts[Int(text[start])]
        guard font != 0 else { return nil }
        for offset in start..<end {
            let unit = text[offset]
            if unit & 0xF800 == 0xD800 || unit & 0xFFF0 == 0xFE00 || bmpFonts[Int(unit)] != font { return nil }
        }
        return Int(font)
    }

    private func itemize(_ stretch: Stretch, of text: UnsafeBufferPointer<UInt16>, inheriting script: hb_script_t,
                         bmpFonts: UnsafeBufferPointer<UInt8>, scripts: ScriptTable.Scripts,
                         fontForCluster: UnsafeMutablePointer<UInt8>, scriptAfter: UnsafeMutablePointer<hb_script_t>?,
                         runs: inout [FontRun], maximumRunLength: Int) {
        var run = FontRun(start: stretch.start, end: stretch.start, fontIndex: -1, script: HB_SCRIPT_INVALID)
        var lastRealScript = script
        var lastSafeBreak = stretch.start
        var segment = 0
        var segmentEnd = stretch.breaks.first?.utf16Offset ?? -1
        var start = stretch.start
        for (index, boundary) in stretch.clusterEnds.enumerated() {
            let end = Int(boundary)
            let unit = text[start]
            let font: Int
            var script: hb_script_t
            if end == start + 1, unit & 0xF800 != 0xD800 {
                // One BMP code point (most clusters): two table lookups.
                font = Int(bmpFonts[Int(unit)])
                script = scripts[unit]
            } else if let shared = Self.sharedFallbackFont(text, start: start, end: end, bmpFonts: bmpFonts) {
                font = shared
                script = scripts[unit]
            } else {
                font = fontIndex(for: text, start: start, end: end)
                script = scripts[Scalars.decode(text, at: start).scalar]
            }
            fontForCluster[index] = UInt8(font)
            if script.isNeutral {
                script = lastRealScript
            } else {
                lastRealScript = script
            }
            // Where this cluster starts: after the previous segment, or inside one.
            let atBreak = segment > 0 && stretch.breaks[segment - 1].utf16Offset == start
            let atSafeBreak = atBreak && stretch.safeBreaks[segment - 1]
            if run.fontIndex >= 0 {
                let sameScript = script == HB_SCRIPT_INVALID || run.script == HB_SCRIPT_INVALID || script == run.script
                let sinceSafe = start - max(run.start, lastSafeBreak)
                let cut = (atBreak && stretch.breaks[segment - 1].isMandatory)
                    || (atSafeBreak && start - run.start >= maximumRunLength)
                    || (atBreak && sinceSafe >= maximumRunLength)
                    || sinceSafe >= maximumRunLength * 16
                if run.fontIndex == font, sameScript, !cut {
                    if run.script == HB_SCRIPT_INVALID { run.script = script }
                    run.end = end
                } else {
                    runs.append(run)
                    run = FontRun(start: start, end: end, fontIndex: font, script: script)
                }
            } else {
                run = FontRun(start: start, end: end, fontIndex: font, script: script)
            }
            if atSafeBreak { lastSafeBreak = start }
            if end == segmentEnd {
                scriptAfter?[segment] = lastRealScript
                segment += 1
                if segment < stretch.breaks.count { segmentEnd = stretch.breaks[segment].utf16Offset }
            }
            start = end
        }
        if run.fontIndex >= 0 { runs.append(run) }
    }
}
