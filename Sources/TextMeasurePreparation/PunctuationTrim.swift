/// CSS `text-spacing-trim: normal` as Chromium 156 lays it out (Blink's `HanKerning`), in
/// fonts with the OpenType `halt` feature (`Font.halfWidthPunctuation`):
///
/// - an opening bracket after an opening one, a middle dot (・, ：, the ideographic
///   space) or a closing one (」, and 。 where the font puts its ink on the left) is set
///   half-width, and a closing one before a closing one or a middle dot: the widths of
///   their clusters and segments shrink here, after shaping (and after the shape cache,
///   which keeps untrimmed words, since trimming depends on the neighbours);
/// - a line never starts with a trimmed opening bracket: Chromium shapes a line's start
///   again without the previous line's character, so the bracket after a break gets
///   its full width back (an edge adjustment's `start`);
/// - a closing bracket or quote right before a break (no space or newline between) is
///   set half-width when the line would not fit with it whole (an edge adjustment's
///   `end`, which fitting applies only then). Dots are not: Blink asks the character's
///   own class there, not the font's.
///
/// A line's start is not trimmed (`normal` is not `trim-start`): checked against
/// Chromium with BoxCJK.otf (Tests/Fixtures/fonts).
enum PunctuationTrim {
    /// Trims the punctuation of `text` in what a builder made of it: `fonts[i]` draws the
    /// graphemes of font (or slot) index i, whose advances `scales[i]` turns into width units.
    static func apply(_ text: String, fonts: [Font], scales: [Double], to built: inout BuiltSegments) {
        apply(text, fonts: fonts, scales: scales, graphemeEnds: built.graphemeEnds, graphemeFonts: built.graphemeFonts,
              segments: &built.segments, graphemeWidths: &built.graphemeWidths, edgeAdjustments: &built.edgeAdjustments)
    }

    static func apply(_ text: String, fonts: [Font], scales: [Double], graphemeEnds: [Int32], graphemeFonts: [UInt8],
                      segments: inout [Segment], graphemeWidths: inout [Int32],
                      edgeAdjustments: inout EdgeAdjustments) {
        let count = graphemeEnds.count
        guard count > 1 else { return }
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
        // What halving grapheme g takes off, in width units (0: it has no halved form).
        func saving(_ g: Int, _ facts: HalfWidthPunctuation) -> Int32 {
            guard let advances = facts.advances(of: units[g]) else { return 0 }
            return Int32(saturating: Double(advances.whole - advances.halved) * scales[Int(graphemeFonts[g])])
        }
        var trimmed = [Bool](repeating: false, count: count)
        func trim(_ g: Int, _ facts: HalfWidthPunctuation, segment: Int) -> Int32 {
            guard !trimmed[g] else { return 0 }
            let delta = saving(g, facts)
            guard delta > 0 else { return 0 }
            trimmed[g] = true
            graphemeWidths[g] -= delta
            segments[segment].width -= Int(delta)
            return delta
        }
        var edges: [(grapheme: Int32, adjustment: EdgeAdjustment)] = []
        var segment = 0
        for g in 1..<count {
            while Int(segments[segment].graphemeEnd) <= g { segment += 1 }
            guard units[g] != 0, units[g - 1] != 0 else { continue }
            // A break opportunity lies before g: the segment before ends there.
            let atSegmentStart = segment > 0 && Int(segments[segment - 1].graphemeEnd) == g
            // The character after: an opening bracket halved after punctuation, in its own font.
            if let facts = fonts[Int(graphemeFonts[g])].halfWidthPunctuation,
               facts.punctuationClass(of: units[g]) == .open,
               [.open, .middle, .close, .openNarrow].contains(facts.punctuationClass(of: units[g - 1])) {
                let delta = trim(g, facts, segment: segment)
                // A line starting there shapes it whole again.
                if delta > 0, atSegmentStart {
                    edges.append((Int32(g - 1), EdgeAdjustment(end: 0, start: delta)))
                }
            }
            // The character before: a closing bracket halved before a closing one or a middle dot.
            if let facts = fonts[Int(graphemeFonts[g - 1])].halfWidthPunctuation,
               facts.punctuationClass(of: units[g - 1]) == .close,
               [.close, .middle, .closeNarrow].contains(facts.punctuationClass(of: units[g])) {
                _ = trim(g - 1, facts, segment: atSegmentStart ? segments.partitioningIndex { Int($0.graphemeEnd) > g - 1 }
                                                               : segment)
            }
        }
        // A closing bracket right before a break: halved where the line would not fit otherwise.
        for index in segments.indices {
            let last = Int(segments[index].graphemeEnd) - 1
            guard last >= 0, segments[index].contentGraphemeEnd == segments[index].graphemeEnd, units[last] != 0,
                  !trimmed[last], let facts = fonts[Int(graphemeFonts[last])].halfWidthPunctuation,
                  facts.trimsAtLineEnd(units[last]), facts.punctuationClass(of: units[last]) == .close else { continue }
            let delta = saving(last, facts)
            guard delta > 0 else { continue }
            if let i = edges.lastIndex(where: { $0.grapheme == Int32(last) }) {
                edges[i].adjustment.end = -delta
            } else {
                edges.append((Int32(last), EdgeAdjustment(end: -delta, start: 0)))
            }
        }
        guard !edges.isEmpty else { return }
        edges.sort { $0.grapheme < $1.grapheme }
        var trims = EdgeAdjustments()
        for edge in edges {
            trims.append(edge.adjustment, after: edge.grapheme)
            // The segment the line ends with, and the one the next line starts with.
            let owner = segments.partitioningIndex { Int($0.graphemeEnd) > Int(edge.grapheme) }
            if edge.adjustment.end != 0 { segments[owner].trimsAtLineEdge = true }
            if edge.adjustment.start != 0, owner + 1 < segments.count {
                segments[owner + 1].trimsAtLineEdge = true
            }
        }
        edgeAdjustments = edgeAdjustments.merging(trims)
    }
}
