/// Right-to-left glyph clusters that span several graphemes (lam-alef and other
/// Arabic ligatures), for placement.
///
/// Measuring keeps such a ligature's advance on its first grapheme (Chromium never
/// breaks inside one, so the rest travels with it), but Chromium's client rects share
/// it evenly among the graphemes, as for left-to-right ligatures
/// (`LineEdgeWidths.splitLigatures`); placement does the same with these spans.
@usableFromInline   // read through PreparedText's inlined accessors
package struct LigatureSpans: Sendable, Equatable {
    package struct Span: Sendable, Equatable {
        /// Index of the ligature's first grapheme, and how many graphemes it covers.
        package var first: Int32
        package var count: Int32
    }

    /// Ascending and not overlapping.
    package private(set) var spans: [Span] = []

    /// Records the right-to-left ligatures of `stretch`, whose first grapheme has
    /// index `firstGrapheme` in the text: graphemes of right-to-left `runs` after
    /// which no glyph cluster starts (`edges` from shaping, by UTF-16 offset from `origin`).
    package mutating func record(_ stretch: Stretch, runs: [FontRun], edges: UnsafePointer<UInt8>, origin: Int = 0,
                                 firstGrapheme: Int32) {
        var run = 0
        var spanStart: Int32?
        for (index, end) in stretch.clusterEnds.enumerated() {
            let boundary = Int(end)
            // Most boundaries start a glyph cluster: the run is looked for only at the others.
            if boundary < stretch.end, edges[boundary &- origin] & ClusterEdge.starts == 0 {
                while run < runs.count, runs[run].end <= boundary { run += 1 }
                if run < runs.count, runs[run].isShapedRightToLeft {
                    if spanStart == nil { spanStart = firstGrapheme + Int32(index) }
                    continue
                }
            }
            if let start = spanStart {
                spans.append(Span(first: start, count: firstGrapheme + Int32(index) - start + 1))
                spanStart = nil
            }
        }
    }

    /// Appends the ligatures of a segment from the shape cache whose first grapheme has
    /// index `firstGrapheme`: `continuing` bit i set when grapheme i and the next are one
    /// glyph cluster (`ShapedSegment.ligatures`), as `record` found them when it was shaped.
    package mutating func append(continuing: UInt64, firstGrapheme: Int32) {
        var bits = continuing
        while bits != 0 {
            let first = bits.trailingZeroBitCount
            let length = (~(bits >> UInt64(first))).trailingZeroBitCount   // graphemes continuing, in a row
            spans.append(Span(first: firstGrapheme + Int32(first), count: Int32(length + 1)))
            bits &= length + first >= 64 ? 0 : ~0 << UInt64(first + length)
        }
    }

    /// These spans with those of the graphemes `replaced` replaced by `inserted`'s
    /// (`insertedCount` graphemes, counted from the first replaced): an edit's.
    package func replacing(graphemes replaced: Range<Int32>, with inserted: LigatureSpans,
                           insertedCount: Int32) -> LigatureSpans {
        var result = self
        result.spans = spans.replacing(graphemes: replaced, with: inserted.spans, insertedCount: insertedCount, keyedBy: \.first)
        return result
    }

    /// The index of the first span that starts at or after grapheme `index`.
    package func firstSpan(from index: Int) -> Int {
        spans.partitioningIndex { Int($0.first) >= index }
    }
}
