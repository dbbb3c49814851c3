/// CSS `text-spacing-trim: normal` as Chromium 156 lays it out (Blink's `HanKerning`), in
/// fonts with the OpenType `halt` feature (`Font.halfWidthPunctuation`):
///
/// - an opening bracket after an opening one, a middle dot (・, ：, the ideographic
///   space) or a closing one (」, and 。 where the font puts its ink on the left) is set
///   half-width, and a closing one before a closing one or a middle dot: the widths of
///   their clusters and segments shrink here, after shaping (and after the shape cache,
///   which keeps untrimmed words, since trimming depends on the neighbours);
/// - under `normal` a line never starts with a trimmed opening bracket: Chromium shapes
///   a line's start again without the previous line's character, so the bracket after a
///   break gets its full width back (an edge adjustment's `start`); under `space-first`
///   and `trim-start` an opening bracket starting a wrapped line is halved (the same
///   adjustment, negative), and under `trim-start` one starting a paragraph too;
/// - a closing bracket or quote right before a break (no space or newline between) is
///   set half-width when the line would not fit with it whole (an edge adjustment's
///   `end`, at the bracket, which fitting applies only then); with a space or a newline
///   after it, only when it starts the line (whether the word must be broken: Blink
///   finds no break opportunity before it and shapes the overflowing line's end so).
///   Dots are not: Blink asks the character's own class there, not the font's.
///
/// Checked against Chromium with BoxCJK.otf (Tests/Fixtures/fonts).
enum PunctuationTrim {
    /// The fonts a builder's clusters index (a set's fonts, or styled text's slots), and
    /// what turns each one's advances into width units.
    struct Drawing {
        var fonts: [Font]
        var scales: [Double]

        init(fonts: [Font], size: Double) {
            self.fonts = fonts
            scales = fonts.map { size * Double(Units.widthPerPixel) / Double($0.advanceUnitsPerEm) }
        }

        init(slots: [StyledSegmentBuilder.Slot]) {
            fonts = slots.map(\.font)
            scales = slots.map { $0.size * Double(Units.widthPerPixel) / Double($0.font.advanceUnitsPerEm) }
        }
    }

    /// Trims the punctuation of `text` in what a builder made of it, as `mode` (not
    /// `spaceAll`) says: `fonts[i]` draws the graphemes of font (or slot) index i, whose
    /// advances `scales[i]` turns into width units.
    static func apply(_ text: String, _ mode: TextSpacingTrim, fonts: [Font], scales: [Double],
                      to built: inout BuiltSegments) {
        apply(text, mode, fonts: fonts, scales: scales, graphemeEnds: built.graphemeEnds,
              graphemeFonts: built.graphemeFonts, segments: &built.segments, graphemeWidths: &built.graphemeWidths,
              edgeAdjustments: &built.edgeAdjustments)
    }

    static func apply(_ text: String, _ mode: TextSpacingTrim, fonts: [Font], scales: [Double],
                      graphemeEnds: [Int32], graphemeFonts: [UInt8], segments: inout [Segment],
                      graphemeWidths: inout [Int32], edgeAdjustments: inout EdgeAdjustments) {
        let count = graphemeEnds.count
        guard count > 0 else { return }
        // Each grapheme's code unit when it is one code unit (every character trimming
        // reads is), else 0 (a class of `other`).
        var units = [UInt16](repeating: 0, count: count)
        var offset: Int32 = 0, g = 0, first: UInt16 = 0
        for unit in text.utf16 {
            if offset == (g == 0 ? 0 : graphemeEnds[g - 1]) { first = unit }
            offset += 1
            if offset == graphemeEnds[g] {
                if offset - (g == 0 ? 0 : graphemeEnds[g - 1]) == 1 { units[g] = first }
                g += 1
                if g == count { break }
            }
        }
        func facts(_ g: Int) -> HalfWidthPunctuation? { fonts[Int(graphemeFonts[g])].halfWidthPunctuation }
        // What halving grapheme g takes off, in width units (0: it has no halved form).
        func saving(_ g: Int, _ facts: HalfWidthPunctuation) -> Int32 {
            guard let advances = facts.advances(of: units[g]) else { return 0 }
            return Int32(saturating: Double(advances.whole - advances.halved) * scales[Int(graphemeFonts[g])])
        }
        func segment(of g: Int) -> Int { segments.partitioningIndex { Int($0.graphemeEnd) > g } }
        // What each grapheme was trimmed by.
        var trimmed = [Int32](repeating: 0, count: count)
        func trim(_ g: Int, _ facts: HalfWidthPunctuation) {
            guard trimmed[g] == 0 else { return }
            let delta = saving(g, facts)
            guard delta > 0 else { return }
            trimmed[g] = delta
            graphemeWidths[g] -= delta
            segments[segment(of: g)].width -= Int(delta)
        }
        for g in 1..<max(1, count) where units[g] != 0 && units[g - 1] != 0 {
            // The character after: an opening bracket halved after punctuation, in its own font.
            if let facts = facts(g), facts.punctuationClass(of: units[g]) == .open,
               [.open, .middle, .close, .openNarrow].contains(facts.punctuationClass(of: units[g - 1])) {
                trim(g, facts)
            }
            // The character before: a closing bracket halved before a closing one or a middle dot.
            if let facts = facts(g - 1), facts.punctuationClass(of: units[g - 1]) == .close,
               [.close, .middle, .closeNarrow].contains(facts.punctuationClass(of: units[g])) {
                trim(g - 1, facts)
            }
        }
        var starts: [(grapheme: Int32, adjustment: EdgeAdjustment)] = []
        var ends: [(grapheme: Int32, adjustment: EdgeAdjustment)] = []
        // Opening brackets that start a segment: where a line may start with them.
        for index in 0..<segments.count {
            let g = index == 0 ? 0 : Int(segments[index - 1].graphemeEnd)
            guard g < count, units[g] != 0, let facts = facts(g), facts.punctuationClass(of: units[g]) == .open else {
                continue
            }
            if index == 0 || segments[index - 1].isMandatoryBreak {
                // A paragraph's start: halved under trim-start only.
                if mode == .trimStart { trim(g, facts) }
                continue
            }
            // A line starting here: whole again under normal, halved under the others.
            let start = mode == .normal ? trimmed[g] : trimmed[g] > 0 ? 0 : -saving(g, facts)
            if start != 0 { starts.append((Int32(g - 1), EdgeAdjustment(end: 0, start: start))) }
        }
        // A closing bracket ending a segment's content: halved where the line would not fit
        // otherwise (with a space or a newline after it, only on a line of its own).
        for index in segments.indices {
            let last = Int(segments[index].contentGraphemeEnd) - 1
            guard last >= 0, index == 0 || last >= Int(segments[index - 1].graphemeEnd), units[last] != 0,
                  trimmed[last] == 0, let facts = facts(last),
                  facts.trimsAtLineEnd(units[last]), facts.punctuationClass(of: units[last]) == .close else { continue }
            let delta = saving(last, facts)
            if delta > 0 { ends.append((Int32(last), EdgeAdjustment(end: -delta, start: 0))) }
        }
        guard !starts.isEmpty || !ends.isEmpty else { return }
        // Both in grapheme order: merged, one entry where a grapheme has both.
        var merged: [(grapheme: Int32, adjustment: EdgeAdjustment)] = []
        var i = 0, j = 0
        while i < starts.count || j < ends.count {
            if j == ends.count || i < starts.count && starts[i].grapheme < ends[j].grapheme {
                merged.append(starts[i]); i += 1
            } else if i == starts.count || ends[j].grapheme < starts[i].grapheme {
                merged.append(ends[j]); j += 1
            } else {
                merged.append((starts[i].grapheme, EdgeAdjustment(end: ends[j].adjustment.end,
                                                                  start: starts[i].adjustment.start)))
                i += 1; j += 1
            }
        }
        var trims = EdgeAdjustments()
        for edge in merged {
            trims.append(edge.adjustment, after: edge.grapheme)
            // The segment the line ends with, and the one the next line starts with.
            let owner = segment(of: Int(edge.grapheme))
            if edge.adjustment.end != 0 { segments[owner].trimsAtLineEdge = true }
            if edge.adjustment.start != 0, owner + 1 < segments.count {
                segments[owner + 1].trimsAtLineEdge = true
            }
        }
        edgeAdjustments = edgeAdjustments.merging(trims)
    }
}
