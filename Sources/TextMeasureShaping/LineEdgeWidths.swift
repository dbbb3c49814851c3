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
@usableFromInline   // in ClusterBuffers, which preparation makes inline
package struct EdgeAdjustment: Equatable, Sendable {
    /// Added to a line that ends after the grapheme.
    package var end: Int32
    /// Added to the line that starts after it.
    package var start: Int32

    package init(end: Int32, start: Int32) {
        self.end = end
        self.start = start
    }
}

/// The nonzero `EdgeAdjustment`s of a text, by the index of the grapheme they follow.
///
/// There are few (only where a word's clusters kern or ligate across a boundary), so
/// they are kept as a sorted list searched by halves: building a dictionary instead
/// cost a hash per entry, and a share of preparing an English text that showed.
@usableFromInline   // read through PreparedText's inlined accessors
package struct EdgeAdjustments: Sendable, Equatable {
    @usableFromInline struct Entry: Sendable, Equatable {
        @usableFromInline var grapheme: Int32
        @usableFromInline var adjustment: EdgeAdjustment

        @usableFromInline init(grapheme: Int32, adjustment: EdgeAdjustment) {
            self.grapheme = grapheme
            self.adjustment = adjustment
        }
    }

    @usableFromInline var entries: [Entry] = []

    package init() {}

    /// Adds the adjustment after `grapheme`, which must follow the graphemes of
    /// every adjustment added before. Inlinable: preparation appends one per kerned
    /// boundary, from another module.
    @inlinable
    package mutating func append(_ adjustment: EdgeAdjustment, after grapheme: Int32) {
        entries.append(Entry(grapheme: grapheme, adjustment: adjustment))
    }

    /// These adjustments with those after the graphemes `replaced` taken out and
    /// `inserted`'s, for `insertedCount` graphemes, put in their place: what an edit
    /// of the text does to them (`PreparedText.replacingCharacters`).
    package func replacing(graphemes replaced: Range<Int32>, with inserted: EdgeAdjustments,
                           insertedCount: Int32) -> EdgeAdjustments {
        var result = self
        result.entries = entries.replacing(graphemes: replaced, with: inserted.entries, insertedCount: insertedCount,
                                           keyedBy: \.grapheme)
        return result
    }

    /// These adjustments and `other`'s, in grapheme order; where both have one after the
    /// same grapheme, their sum.
    package func merging(_ other: EdgeAdjustments) -> EdgeAdjustments {
        guard !entries.isEmpty else { return other }
        var result = EdgeAdjustments()
        var i = 0, j = 0
        while i < entries.count || j < other.entries.count {
            if j == other.entries.count || i < entries.count && entries[i].grapheme < other.entries[j].grapheme {
                result.entries.append(entries[i]); i += 1
            } else if i == entries.count || other.entries[j].grapheme < entries[i].grapheme {
                result.entries.append(other.entries[j]); j += 1
            } else {
                var entry = entries[i]
                entry.adjustment.end += other.entries[j].adjustment.end
                entry.adjustment.start += other.entries[j].adjustment.start
                result.entries.append(entry); i += 1; j += 1
            }
        }
        return result
    }

    /// The adjustment after `grapheme`, or nil when breaking there changes nothing.
    package subscript(grapheme: Int32) -> EdgeAdjustment? {
        let index = entries.partitioningIndex { $0.grapheme >= grapheme }
        return index < entries.count && entries[index].grapheme == grapheme ? entries[index].adjustment : nil
    }
}

package enum LineEdgeWidths {
    /// Whether some code unit inside `stretch` does not start a glyph cluster, or
    /// starts one that HarfBuzz flags unsafe to break before. When none does, no
    /// grapheme boundary falls inside a ligature or at a kerned pair: `splitLigatures`
    /// and `measure` would change nothing. That is most text without kerning (Chinese,
    /// Japanese), and this one pass over bytes costs less than their walks over clusters.
    /// `edges[0]` is offset `origin`'s (0: the whole text's), here and below.
    package static func hasInnerEdges(_ stretch: Stretch, edges: UnsafePointer<UInt8>, origin: Int = 0) -> Bool {
        var flagged: UInt8 = 0
        for offset in stretch.start + 1..<stretch.end {
            let bits = edges[offset &- origin]
            flagged |= (bits & ClusterEdge.unsafeToBreak) | (~bits & ClusterEdge.starts)
        }
        return flagged != 0
    }

    /// Writes the adjustment at the end of each cluster of `stretch` to
    /// `adjustments[i]` (i: the cluster's index in the stretch): nonzero only at a
    /// boundary HarfBuzz flags unsafe to break that is not a line-break opportunity.
    ///
    /// A single character's own glyph before the boundary (kerned with the next) is
    /// measured at its nominal advance, which is what shaping it alone gives; other
    /// pieces, the two halves of a ligature, a cluster of several glyphs, or a
    /// left-to-right glyph the boundary's context substituted (a contextual alternate:
    /// EB Garamond's short "f" before a letter), are shaped again, as Chromium shapes
    /// a line's end again. A right-to-left glyph keeps its own advance: in Arabic every
    /// joined letter is a substituted form, and shaping each again would cost a shaping
    /// call per letter where the joining form's advance already agrees with Chromium.
    /// `advances`, `edges` and `glyphs` are what shaping the stretch's `runs` gave, by
    /// UTF-16 offset; `scales` turn each font's advance units into width units.
    package static func measure(_ stretch: Stretch, of text: UnsafeBufferPointer<UInt16>, runs: [FontRun],
                        advances: UnsafePointer<Int32>, edges: UnsafePointer<UInt8>, glyphs: UnsafePointer<UInt32>,
                        fonts: [Font], scales: UnsafePointer<Double>, shaper: Shaper,
                        into adjustments: UnsafeMutablePointer<EdgeAdjustment>, origin: Int = 0) {
        adjustments.update(repeating: EdgeAdjustment(end: 0, start: 0), count: stretch.clusterEnds.count)
        var run = 0
        var nextBreak = 0
        // Most boundaries start a glyph cluster HarfBuzz finds safe to break before: that
        // one test comes first, and the break opportunities are walked to the others only.
        let clusterEnds = stretch.clusterEnds
        for index in 0..<max(0, clusterEnds.count - 1) {
            let boundary = Int(clusterEnds[index])
            let insideCluster = edges[boundary &- origin] & ClusterEdge.starts == 0
            guard insideCluster || edges[boundary &- origin] & ClusterEdge.unsafeToBreak != 0 else { continue }
            while nextBreak < stretch.breaks.count, stretch.breaks[nextBreak].utf16Offset < boundary { nextBreak += 1 }
            if nextBreak < stretch.breaks.count, stretch.breaks[nextBreak].utf16Offset == boundary { continue }
            while run < runs.count, runs[run].end <= boundary { run += 1 }
            // A boundary between two runs is already shaped apart.
            guard run < runs.count, runs[run].start < boundary else { continue }
            let current = runs[run]
            if insideCluster, current.isRightToLeft { continue }   // see splitLigatures
            // The HarfBuzz cluster the boundary ends (or cuts through), and where it ends.
            var clusterStart = boundary - 1
            while clusterStart > current.start, edges[clusterStart &- origin] & ClusterEdge.starts == 0 { clusterStart -= 1 }
            var clusterEnd = boundary
            while clusterEnd < current.end, edges[clusterEnd &- origin] & ClusterEdge.starts == 0 { clusterEnd += 1 }

            let scale = scales[current.fontIndex]
            let inContextBefore = sum(advances, clusterStart..<boundary, origin: origin)
            let inContextAfter = sum(advances, boundary..<clusterEnd, origin: origin)
            var before = inContextBefore, after = inContextAfter
            // The font is read from the array where it is used, not held in a local: held,
            // it was retained and released at each kerned boundary.
            if !insideCluster, edges[clusterStart &- origin] & ClusterEdge.multipleGlyphs == 0,
               fonts[current.fontIndex].bitmapAdvances == nil,
               let advance = nominalAdvance(glyphs[clusterStart &- origin], of: text, clusterStart..<boundary,
                                            in: fonts[current.fontIndex], rightToLeft: current.isRightToLeft) {
                before = advance
            } else {
                let font = fonts[current.fontIndex]
                // Scratch for this cluster's offsets only (from `clusterStart`), as shaping
                // writes it: sized to the text, each such cluster of a long text cost a
                // mapping of the text's size. A temporary allocation, not arrays: making
                // an array of a count looked its type up at run time, per stretch.
                let length = clusterEnd - clusterStart
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: length) { scratch in
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { scratchEdges in
                        guard let advances = scratch.baseAddress, let edges = scratchEdges.baseAddress else { return }
                        advances.initialize(repeating: 0, count: length)
                        edges.initialize(repeating: 0, count: length)
                        var piece = current
                        piece.start = clusterStart
                        piece.end = boundary
                        shaper.shape(piece, of: text, with: font, advances: advances, edges: edges, origin: clusterStart)
                        before = sum(advances, clusterStart..<boundary, origin: clusterStart)
                        if insideCluster {
                            piece.start = boundary
                            piece.end = clusterEnd
                            shaper.shape(piece, of: text, with: font, advances: advances, edges: edges, origin: clusterStart)
                            after = sum(advances, boundary..<clusterEnd, origin: clusterStart)
                        }
                    }
                }
            }
            adjustments[index] = EdgeAdjustment(end: Int32(saturating: Double(before - inContextBefore) * scale),
                                                start: Int32(saturating: Double(after - inContextAfter) * scale))
        }
    }

    /// Shares the advance of every left-to-right glyph cluster that spans several
    /// graphemes (a ligature such as `ff`, an Indic conjunct) evenly among them, as
    /// Chromium positions characters inside a ligature, so that a word broken inside
    /// one breaks where Chromium does. Chromium never breaks inside a right-to-left
    /// ligature (lam-alef), so those keep their advance on the first grapheme, which
    /// carries the rest along. `advances` are by UTF-16 offset, in font units.
    /// Returns whether any glyph cluster spans several graphemes, in either direction:
    /// when none does, there are no right-to-left ligatures to record (`LigatureSpans`).
    package static func splitLigatures(_ stretch: Stretch, runs: [FontRun], advances: UnsafeMutablePointer<Int32>,
                               edges: UnsafePointer<UInt8>, origin: Int = 0) -> Bool {
        var graphemeStarts: [Int] = []
        var clusterStart = stretch.start
        var run = 0
        var spanning = false
        for end in stretch.clusterEnds {
            let boundary = Int(end)
            // The run is looked for only at a boundary inside a glyph cluster (few): the
            // runs are walked there, as far as the boundaries walked since need.
            if boundary < stretch.end, edges[boundary &- origin] & ClusterEdge.starts == 0,
               Self.advance(&run, to: boundary, in: runs) {
                spanning = true
                if !runs[run].isRightToLeft {
                    if graphemeStarts.isEmpty { graphemeStarts.append(clusterStart) }
                    graphemeStarts.append(boundary)
                    continue
                }
            }
            if graphemeStarts.count > 1 {
                let total = Int(advances[graphemeStarts[0] &- origin])
                let count = graphemeStarts.count
                for (i, start) in graphemeStarts.enumerated() {
                    advances[start &- origin] = Int32(total * (i + 1) / count - total * i / count)
                }
                // Only here: emptying an empty array still costs a retain and a release.
                graphemeStarts.removeAll(keepingCapacity: true)
            }
            clusterStart = boundary
        }
        return spanning
    }

    /// The advance of the single glyph `glyph` that shaping gave the characters `range`, as
    /// they shaped alone give it, when that is known without shaping: right to left (see
    /// `measure`), or when it is the character map's glyph for `range`, one character.
    /// Nil when they must be shaped again.
    private static func nominalAdvance(_ glyph: UInt32, of text: UnsafeBufferPointer<UInt16>, _ range: Range<Int>,
                                       in font: Font, rightToLeft: Bool) -> Int? {
        if !rightToLeft, range.count == 1, font.nominalAdvances.holds(text[range.lowerBound]) {
            // Latin and punctuation, most kerned pairs: the font's table, no HarfBuzz call.
            return font.nominalAdvances.advance(of: glyph, for: text[range.lowerBound]).map { Int($0) }
        }
        guard rightToLeft || isNominal(glyph, of: text, range, in: font) else { return nil }
        return Int(hb_font_get_glyph_h_advance(font.hbFont, glyph))
    }

    /// Moves `run` on to the first of `runs` that ends after `boundary`; false when none does.
    @inline(__always)
    private static func advance(_ run: inout Int, to boundary: Int, in runs: [FontRun]) -> Bool {
        while run < runs.count, runs[run].end <= boundary { run += 1 }
        return run < runs.count
    }

    /// Whether `glyph` is the character map's glyph for `range`, one character: the glyph
    /// that character shaped alone starts from.
    private static func isNominal(_ glyph: UInt32, of text: UnsafeBufferPointer<UInt16>, _ range: Range<Int>,
                                  in font: Font) -> Bool {
        let scalar: UInt32
        switch range.count {
        case 1: scalar = UInt32(text[range.lowerBound])
        case 2 where UTF16.isLeadSurrogate(text[range.lowerBound]) && UTF16.isTrailSurrogate(text[range.lowerBound + 1]):
            scalar = 0x10000 + (UInt32(text[range.lowerBound] & 0x3FF) << 10 | UInt32(text[range.lowerBound + 1] & 0x3FF))
        default: return false
        }
        var nominal: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font.hbFont, scalar, &nominal) != 0 && nominal == glyph
    }

    private static func sum(_ advances: UnsafePointer<Int32>, _ range: Range<Int>, origin: Int) -> Int {
        var total = 0
        for offset in range { total += Int(advances[offset &- origin]) }
        return total
    }
}
