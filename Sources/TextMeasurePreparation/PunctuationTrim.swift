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
    /// Trims the punctuation of `text` (UTF-16, as prepared) in `built`, prepared in
    /// `fonts` at `fontSize` px.
    static func apply(_ text: String, fonts: FontSet, fontSize: Double, to built: inout BuiltSegments) {
        let count = built.graphemeEnds.count
        guard count > 1 else { return }
        let scales = fonts.fonts.map { fontSize * Double(Units.widthPerPixel) / Double($0.advanceUnitsPerEm) }
        // Each grapheme's code unit when it is one code unit (every character trimming
        // reads is), else 0 (a class of `other`).
        var units = [UInt16](repeating: 0, count: count)
        var offset: Int32 = 0, g = 0, first: UInt16 = 0
        for unit in text.utf16 {
            if offset == (g == 0 ? 0 : built.graphemeEnds[g - 1]) { first = unit }
            offset += 1
            if offset == built.graphemeEnds[g] {
                if offset - (g == 0 ? 0 : built.graphemeEnds[g - 1]) == 1 { units[g] = first }
                g += 1
                if g == count { break }
            }
        }
        var edges: [(grapheme: Int32, adjustment: EdgeAdjustment)] = []
        var segment = 0
        for g in 0..<count {
            while Int(built.segments[segment].graphemeEnd) <= g { segment += 1 }
            // A break opportunity lies before g: the segment before ends there.
            let atSegmentStart = segment > 0 && Int(built.segments[segment - 1].graphemeEnd) == g
            if g > 0, units[g] != 0, units[g - 1] != 0 {
                // The character after: an opening bracket halved after punctuation, in its own font.
                if let facts = fonts.fonts[Int(built.graphemeFonts[g])].halfWidthPunctuation,
                   facts.punctuationClass(of: units[g]) == .open,
                   [.open, .middle, .close, .openNarrow].contains(facts.punctuationClass(of: units[g - 1])) {
                    let delta = trim(g, unit: units[g], facts: facts, scales: scales, segment: segment, built: &built)
                    // A line starting there shapes it whole again.
                    if delta > 0, atSegmentStart {
                        edges.append((Int32(g - 1), EdgeAdjustment(end: 0, start: delta)))
                    }
                }
                // The character before: a closing bracket halved before a closing one or a middle dot.
                if let facts = fonts.fonts[Int(built.graphemeFonts[g - 1])].halfWidthPunctuation,
                   facts.punctuationClass(of: units[g - 1]) == .close,
                   [.close, .middle, .closeNarrow].contains(facts.punctuationClass(of: units[g])) {
                    let owner = atSegmentStart ? built.segments.partitioningIndex { Int($0.graphemeEnd) > g - 1 } : segment
                    _ = trim(g - 1, unit: units[g - 1], facts: facts, scales: scales, segment: owner, built: &built)
                }
            }
        }
        // A closing bracket right before a break: halved where the line would not fit otherwise.
        for index in built.segments.indices {
            let last = Int(built.segments[index].graphemeEnd) - 1
            guard last >= 0, built.segments[index].contentGraphemeEnd == built.segments[index].graphemeEnd,
                  units[last] != 0,
                  let facts = fonts.fonts[Int(built.graphemeFonts[last])].halfWidthPunctuation,
                  facts.trimsAtLineEnd(units[last]), facts.punctuationClass(of: units[last]) == .close,
                  let halved = facts.halvedAdvance(of: units[last]) else { continue }
            let delta = built.graphemeWidths[last] - Int32(saturating: Double(halved) * scales[Int(built.graphemeFonts[last])])
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
            let owner = built.segments.partitioningIndex { Int($0.graphemeEnd) > Int(edge.grapheme) }
            if edge.adjustment.end != 0 { built.segments[owner].trimsAtLineEdge = true }
            if edge.adjustment.start != 0, owner + 1 < built.segments.count {
                built.segments[owner + 1].trimsAtLineEdge = true
            }
        }
        built.edgeAdjustments = built.edgeAdjustments.merging(trims)
    }

    /// Sets grapheme `g` (the character `unit`) half-width, in segment `segment`: the
    /// width it lost, 0 when it was no wider.
    private static func trim(_ g: Int, unit: UInt16, facts: HalfWidthPunctuation, scales: [Double], segment: Int,
                             built: inout BuiltSegments) -> Int32 {
        guard let halved = facts.halvedAdvance(of: unit) else { return 0 }
        let width = Int32(saturating: Double(halved) * scales[Int(built.graphemeFonts[g])])
        let delta = built.graphemeWidths[g] - width
        guard delta > 0 else { return 0 }
        built.graphemeWidths[g] = width
        built.segments[segment].width -= Int(delta)
        return delta
    }
}
