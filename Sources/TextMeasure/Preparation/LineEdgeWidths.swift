import CHarfBuzz

/// What a line's width gains or loses when it ends (or the next one starts) at a
/// grapheme boundary inside a word, in width units.
///
/// Within a word, clusters are measured in context: `r` before `e` carries the
/// kerning of the pair, and in `ff` the ligature's whole advance sits on the first
/// `f`. A browser that breaks such a word where it overflows (`overflow-wrap:
/// break-word`) shapes each piece on its own where HarfBuzz flags the boundary
/// unsafe to break: `mor` then ends with an unkerned `r`, `Buf` with a plain `f`, and
/// the next line starts with the second `f` at its own width.
struct EdgeAdjustment: Equatable {
    /// Added to a line that ends after the grapheme.
    var end: Int32
    /// Added to the line that starts after it.
    var start: Int32
}

enum LineEdgeWidths {
    /// The adjustments at every unsafe grapheme boundary that is not a line-break
    /// opportunity, keyed by the index of the grapheme before the boundary.
    ///
    /// A single glyph before the boundary (kerned with the next) is measured at its
    /// nominal advance, which is what shaping it alone gives; other pieces, the two
    /// halves of a ligature or a cluster of several glyphs, are shaped again.
    static func adjustments(text: UnsafeBufferPointer<UInt16>, graphemeEnds: [Int32], breaks: [BreakOpportunity],
                            runs: [FontRun], edges: [UInt8], glyphs: [UInt32], advances: [Int32],
                            fonts: [Font], scales: [Double], shaper: borrowing Shaper) -> [Int32: EdgeAdjustment] {
        var adjustments: [Int32: EdgeAdjustment] = [:]
        var scratch: [Int32] = []
        var run = 0
        var nextBreak = 0
        for (index, end) in graphemeEnds.enumerated().dropLast() {
            let boundary = Int(end)
            while nextBreak < breaks.count, breaks[nextBreak].utf16Offset < boundary { nextBreak += 1 }
            if nextBreak < breaks.count, breaks[nextBreak].utf16Offset == boundary { continue }
            let insideCluster = edges[boundary] & ClusterEdge.starts == 0
            guard insideCluster || edges[boundary] & ClusterEdge.unsafeToBreak != 0 else { continue }
            while run < runs.count, runs[run].end <= boundary { run += 1 }
            // A boundary between two runs is already shaped apart.
            guard run < runs.count, runs[run].start < boundary else { continue }
            let current = runs[run]
            if insideCluster, current.isRightToLeft { continue }   // see splitLigatures
            // The HarfBuzz cluster the boundary ends (or cuts through), and where it ends.
            var clusterStart = boundary - 1
            while clusterStart > current.start, edges[clusterStart] & ClusterEdge.starts == 0 { clusterStart -= 1 }
            var clusterEnd = boundary
            while clusterEnd < current.end, edges[clusterEnd] & ClusterEdge.starts == 0 { clusterEnd += 1 }

            let font = fonts[current.fontIndex]
            let inContextBefore = sum(advances, clusterStart..<boundary)
            let inContextAfter = sum(advances, boundary..<clusterEnd)
            let singleGlyph = !insideCluster && edges[clusterStart] & ClusterEdge.multipleGlyphs == 0
            if singleGlyph, font.bitmapAdvances == nil {
                let nominal = Int(hb_font_get_glyph_h_advance(font.hbFont, glyphs[clusterStart]))
                let end = Int32((Double(nominal - inContextBefore) * scales[current.fontIndex]).rounded())
                if end != 0 { adjustments[Int32(index)] = EdgeAdjustment(end: end, start: 0) }
                continue
            }
            if scratch.isEmpty { scratch = [Int32](repeating: 0, count: text.count) }
            let alone = scratch.withUnsafeMutableBufferPointer { scratch in
                var piece = current
                piece.start = clusterStart
                piece.end = boundary
                shaper.shape(piece, of: text, with: font, into: scratch)
                let before = sum(UnsafeBufferPointer(scratch), clusterStart..<boundary)
                var after = inContextAfter
                if insideCluster {
                    piece.start = boundary
                    piece.end = clusterEnd
                    shaper.shape(piece, of: text, with: font, into: scratch)
                    after = sum(UnsafeBufferPointer(scratch), boundary..<clusterEnd)
                }
                for offset in clusterStart..<clusterEnd { scratch[offset] = 0 }
                return (before, after)
            }
            let scale = scales[current.fontIndex]
            let adjustment = EdgeAdjustment(end: Int32((Double(alone.0 - inContextBefore) * scale).rounded()),
                                            start: Int32((Double(alone.1 - inContextAfter) * scale).rounded()))
            if adjustment != EdgeAdjustment(end: 0, start: 0) { adjustments[Int32(index)] = adjustment }
        }
        return adjustments
    }

    /// Shares the advance of every left-to-right glyph cluster that spans several
    /// graphemes (a ligature such as `ff`, an Indic conjunct) evenly among them, as
    /// Chromium positions characters inside a ligature, so that a word broken inside
    /// one breaks where Chromium does. Chromium never breaks inside a right-to-left
    /// ligature (lam-alef), so those keep their advance on the first grapheme, which
    /// carries the rest along. `advances` are by UTF-16 offset, in font units.
    static func splitLigatures(_ advances: UnsafeMutableBufferPointer<Int32>, edges: UnsafeBufferPointer<UInt8>,
                               graphemeEnds: [Int32], runs: [FontRun]) {
        var graphemeStarts: [Int] = []
        var clusterStart = 0
        var run = 0
        for end in graphemeEnds {
            let boundary = Int(end)
            while run < runs.count, runs[run].end <= boundary { run += 1 }
            if boundary < advances.count, edges[boundary] & ClusterEdge.starts == 0,
               run < runs.count, !runs[run].isRightToLeft {
                if graphemeStarts.isEmpty { graphemeStarts.append(clusterStart) }
                graphemeStarts.append(boundary)
                continue
            }
            if graphemeStarts.count > 1 {
                let total = Int(advances[graphemeStarts[0]])
                let count = graphemeStarts.count
                for (i, start) in graphemeStarts.enumerated() {
                    advances[start] = Int32(total * (i + 1) / count - total * i / count)
                }
            }
            graphemeStarts.removeAll(keepingCapacity: true)
            clusterStart = boundary
        }
    }

    private static func sum<C: RandomAccessCollection<Int32>>(_ advances: C, _ range: Range<Int>) -> Int where C.Index == Int {
        var total = 0
        for offset in range { total += Int(advances[offset]) }
        return total
    }
}
