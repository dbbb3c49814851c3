/// Where placing writes: the placement's clusters and visual order, in their final
/// arrays, scratch for reordering one line, and the prepared text's arrays it reads.
struct PlacementBuffers {
    let clusters: UnsafeMutableBufferPointer<TextPlacement.Cluster>
    /// Written per line for text with right-to-left levels; other text is in visual order.
    let visual: UnsafeMutableBufferPointer<Int>
    /// While a line is reordered through rule L2, its scratch (`withReorderingScratch`):
    /// its items' widths (its clusters in text order, the ellipsis standing for elided
    /// text), their text, their levels, then its level runs' (where each starts, its
    /// level), and the runs' visual order.
    var widths = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    var texts = UnsafeMutableBufferPointer<ItemText>(start: nil, count: 0)
    var levels = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    var runStarts = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    var order = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    /// The prepared text's grapheme ends, widths, hanging flags, tabs, bidi levels
    /// (empty for left-to-right text) and ligature spans, read without reloading the
    /// arrays or checking bounds per cluster.
    let ends: UnsafeBufferPointer<Int32>
    let graphemeWidths: UnsafeBufferPointer<Int32>
    let hangs: UnsafeBufferPointer<Bool>
    let tabs: UnsafeBufferPointer<Int32>
    let bidiLevels: UnsafeBufferPointer<UInt8>
    let ligatureSpans: UnsafeBufferPointer<LigatureSpans.Span>
    let width: Double?
    let alignment: TextAlignment
    /// False to place every line through rule L2 (`placement(of:alignment:onePass:)`).
    let onePass: Bool
    var clusterCount = 0
    var visualCount = 0
    /// Whether a line was placed in an order stored (`TextPlacement.Order.stored`), or reversed.
    var storesOrder = false, reversesLines = false
}

extension PlacementBuffers {
    /// Lends `body` these buffers with the scratch for reordering a line of up to
    /// `capacity` items. Made per line that needs it (few do), in temporaries under
    /// 1 kB each for a line of up to 128 clusters, which stay on the stack: larger
    /// ones are on the heap on Linux.
    mutating func withReorderingScratch<Result>(capacity: Int, _ body: (inout PlacementBuffers) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { widths in
            withUnsafeTemporaryAllocation(of: ItemText.self, capacity: capacity) { texts in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { levels in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * capacity) { runs in
                        (self.widths, self.texts, self.levels) = (widths, texts, levels)
                        (runStarts, order) = (.init(rebasing: runs[..<capacity]), .init(rebasing: runs[capacity...]))
                        defer {
                            // Not kept past the temporaries' lifetime.
                            (self.widths, self.texts, self.levels) = (.init(start: nil, count: 0),
                                                                     .init(start: nil, count: 0),
                                                                     .init(start: nil, count: 0))
                            (runStarts, order) = (.init(start: nil, count: 0), .init(start: nil, count: 0))
                        }
                        return body(&self)
                    }
                }
            }
        }
    }
}

/// An item's UTF-16 offsets, both `start` for the ellipsis.
struct ItemText {
    var start: Int32, end: Int32
}

/// The items of a line being reordered: its graphemes in text order, where a
/// truncated line's ellipsis stands for its elided ones.
struct LineItems {
    /// The first grapheme, and where the graphemes resume after the ellipsis.
    let first: Int, resumed: Int
    /// The ellipsis's item, `Int.max` for none; the offset it replaces text from.
    let ellipsis: Int, ellipsisOffset: Int32

    /// Item `index`'s grapheme (not the ellipsis's).
    @inline(__always)
    func grapheme(_ index: Int) -> Int { index < ellipsis ? first + index : resumed + index - ellipsis - 1 }
}

/// The tabs among a line's graphemes, asked in order: `isTab` costs a comparison
/// per grapheme that is not one.
struct TabCursor {
    private let tabs: UnsafeBufferPointer<Int32>
    private var index: Int
    /// The grapheme of the next tab, `Int.max` past the last.
    private var next: Int

    init(_ tabs: UnsafeBufferPointer<Int32>, from grapheme: Int) {
        self.tabs = tabs
        index = tabs.isEmpty ? 0 : tabs.partitioningIndex { Int($0) >= grapheme }
        next = index < tabs.count ? Int(tabs[index]) : Int.max
    }

    /// Whether a tab is left before grapheme `end`.
    func hasTab(before end: Int) -> Bool { next < end }

    /// Whether grapheme `grapheme` is a tab; graphemes are asked in ascending order,
    /// possibly with gaps (elided text).
    @inline(__always)
    mutating func isTab(_ grapheme: Int) -> Bool {
        guard grapheme >= next else { return false }
        while next < grapheme { advance() }
        guard next == grapheme else { return false }
        advance()
        return true
    }

    private mutating func advance() {
        index += 1
        next = index < tabs.count ? Int(tabs[index]) : Int.max
    }
}

extension PreparedText {
    /// Lends `body` the arrays placing reads: grapheme widths, hanging flags, tabs,
    /// bidi levels and ligature spans.
    func withSources<Result>(
        _ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Bool>, UnsafeBufferPointer<Int32>,
                 UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<LigatureSpans.Span>) -> Result
    ) -> Result {
        graphemeWidths.withUnsafeBufferPointer { widths in
            graphemeHangs.withUnsafeBufferPointer { hangs in
                tabStops.graphemes.withUnsafeBufferPointer { tabs in
                    func withSpans(_ levels: UnsafeBufferPointer<UInt8>) -> Result {
                        ligatures.spans.withUnsafeBufferPointer { spans in body(widths, hangs, tabs, levels, spans) }
                    }
                    // The levels kept, borrowed; levels kept as one level, from an array made once.
                    if bidi.uniformLevel == nil { return bidi.keptLevels.withUnsafeBufferPointer(withSpans) }
                    return uniformLevels.withUnsafeBufferPointer(withSpans)
                }
            }
        }
    }

    /// Places a line of text that needs no reordering: clusters in text order.
    func placeLeftToRight(_ line: TextPlacement.LineInput, index: Int, graphemes: Range<Int>,
                          into out: inout PlacementBuffers) -> TextPlacement.Line {
        let tabs = TabCursor(out.tabs, from: graphemes.lowerBound)
        guard tabs.hasTab(before: graphemes.upperBound) else {
            return placeLeftToRightWithoutTabs(line, index: index, graphemes: graphemes, into: &out)
        }
        return placeLeftToRight(line, index: index, graphemes: graphemes, tabs: tabs, into: &out)
    }

    /// A line with no tab, in one pass over its widths once their sum is known (as a
    /// line at one level is laid): each edge `lineLeft + x` px, the sum moving the
    /// clusters to where alignment puts the line gave.
    private func placeLeftToRightWithoutTabs(_ line: TextPlacement.LineInput, index: Int, graphemes: Range<Int>,
                                             into out: inout PlacementBuffers) -> TextPlacement.Line {
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        let first = out.clusterCount, count = graphemes.count, lineIndex = Int32(clamping: index)
        let ends = out.ends, hangs = out.hangs, start = graphemes.lowerBound
        let widths = UnsafeBufferPointer(rebasing: out.graphemeWidths[graphemes])
        var pen = 0
        for width in widths { pen &+= Int(width) }
        // Whitespace hangs only in a row at the line's end.
        var trailing = 0, hanging = graphemes.upperBound - 1
        while hanging >= start, hangs[hanging] {
            trailing &+= Int(widths[hanging &- start])
            hanging -= 1
        }
        let hyphenWidth = line.showsHyphen ? hyphen.width : 0
        let lineLeft = Self.lineLeft(total: pen + hyphenWidth, trailing: trailing, lineEnd: line.lineEnd,
                                     width: out.width, alignment: out.alignment, isRightToLeft: false)
        let clusters = UnsafeMutableBufferPointer(rebasing: out.clusters[first..<first + count])
        var x = 0, textStart: Int32 = start == 0 ? 0 : ends[start - 1]
        // A cluster's left edge is its predecessor's right one, computed once. Indices
        // within the buffers' bounds: wrapping arithmetic, with no overflow checks.
        var edge = lineLeft + Double(x) * pixelsPerUnit
        for index in 0..<count {
            x &+= Int(widths[index])
            let next = lineLeft + Double(x) * pixelsPerUnit
            let end = ends[start &+ index]
            clusters[index] = TextPlacement.Cluster(start: textStart, end: end, line: lineIndex, left: edge, right: next,
                                                    isRightToLeft: false, isEllipsis: false, isLineBreak: false)
            edge = next
            textStart = end
        }
        // A mandatory break ends its line, so the line's last cluster is the break.
        if line.lineEnd == .mandatoryBreak, count > 0, Int(textStart) == line.utf16Range.upperBound {
            clusters[count - 1].isLineBreak = true
        }
        out.clusterCount = first + count
        let right = lineLeft + Double(pen) * pixelsPerUnit
        return TextPlacement.Line(utf16Range: line.utf16Range, left: lineLeft, right: right, y: line.y,
                                  height: line.height, baseline: line.baseline, isRightToLeft: false,
                                  visualClusters: first..<first + count, hyphenLeft: line.showsHyphen ? right : nil)
    }

    /// A line with tabs: clusters in text order from x = 0 (each tab reaching the next
    /// stop from where the line has got to), then moved to where alignment puts the line.
    private func placeLeftToRight(_ line: TextPlacement.LineInput, index: Int, graphemes: Range<Int>,
                                  tabs: TabCursor, into out: inout PlacementBuffers) -> TextPlacement.Line {
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        let first = out.clusterCount, lineIndex = Int32(clamping: index)
        // Held in locals: written through `out`, they were reloaded per cluster.
        let ends = out.ends, widths = out.graphemeWidths, hangs = out.hangs, clusters = out.clusters
        var tabs = tabs
        var next = first
        var x = 0, trailing = 0
        var start: Int32 = graphemes.lowerBound == 0 ? 0 : ends[graphemes.lowerBound - 1]
        // A cluster's left edge is its predecessor's right one, computed once.
        var left = 0.0
        for grapheme in graphemes {
            let end = ends[grapheme]
            let advance = tabs.isTab(grapheme) ? tabStops.advance(at: x) : Int(widths[grapheme])
            x += advance
            // Whitespace hangs only in a row at the line's end.
            trailing = hangs[grapheme] ? trailing + advance : 0
            let right = Double(x) * pixelsPerUnit
            clusters[next] = TextPlacement.Cluster(start: start, end: end, line: lineIndex, left: left, right: right,
                                                   isRightToLeft: false, isEllipsis: false, isLineBreak: false)
            next += 1
            left = right
            start = end
        }
        // A mandatory break ends its line, so the line's last cluster is the break.
        if line.lineEnd == .mandatoryBreak, next > first, Int(start) == line.utf16Range.upperBound {
            clusters[next - 1].isLineBreak = true
        }
        out.clusterCount = next
        let hyphenWidth = line.showsHyphen ? hyphen.width : 0
        let lineLeft = Self.lineLeft(total: x + hyphenWidth, trailing: trailing, lineEnd: line.lineEnd,
                                     width: out.width, alignment: out.alignment, isRightToLeft: false)
        if lineLeft != 0 {
            for cluster in first..<next {
                clusters[cluster].left += lineLeft
                clusters[cluster].right += lineLeft
            }
        }
        return TextPlacement.Line(utf16Range: line.utf16Range, left: lineLeft,
                                  right: lineLeft + Double(x) * pixelsPerUnit, y: line.y, height: line.height,
                                  baseline: line.baseline, isRightToLeft: false, visualClusters: first..<next,
                                  hyphenLeft: line.showsHyphen ? lineLeft + Double(x) * pixelsPerUnit : nil)
    }

    /// Places a line of bidi text, or a truncated one: the items' widths and levels
    /// collected in text order, rule L1 applied, then the clusters laid left to right in
    /// the order rule L2 gives. L2 reorders the line's level runs, not its clusters: a
    /// run is laid forwards, or backwards when its level is odd, as reversing at every
    /// level from the lowest odd one leaves it.
    ///
    /// The placed line is appended to `lines` here: returned, it was copied through
    /// the stack three times on its way there.
    func placeReordering(_ line: TextPlacement.LineInput, index lineIndex: Int, graphemes: Range<Int>,
                         appendingTo lines: inout [TextPlacement.Line], into out: inout PlacementBuffers) {
        let paragraphLevel = bidi.paragraphLevel(at: line.utf16Range.lowerBound)
        let tabs = TabCursor(out.tabs, from: graphemes.lowerBound)
        if out.onePass, line.elidedUTF16Range == nil, !tabs.hasTab(before: graphemes.upperBound),
           let placed = placeAtParagraphLevels(line, index: lineIndex, graphemes: graphemes, level: paragraphLevel,
                                               into: &out) {
            lines.append(placed)
            return
        }
        // The line's graphemes, and its ellipsis.
        let capacity = graphemes.count + (line.elidedUTF16Range == nil ? 0 : 1)
        lines.append(out.withReorderingScratch(capacity: capacity) { out in
            placeThroughL2(line, index: lineIndex, graphemes: graphemes, paragraphLevel: paragraphLevel, tabs: tabs,
                           into: &out)
        })
    }

    /// `placeReordering` with the scratch lent: rule L1, then L2 on the level runs.
    private func placeThroughL2(_ line: TextPlacement.LineInput, index lineIndex: Int, graphemes: Range<Int>,
                                paragraphLevel: UInt8, tabs: TabCursor,
                                into out: inout PlacementBuffers) -> TextPlacement.Line {
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        var tabs = tabs
        var count = 0
        var pen = 0   // width units from the line's logical start, for tab stops
        let items: LineItems
        if let cut = line.elidedUTF16Range {
            // The graphemes that start before the cut, the ellipsis, those that start after it.
            let cutStart = firstGrapheme(startingAtOrAfter: cut.lowerBound, in: graphemes)
            let cutEnd = firstGrapheme(startingAtOrAfter: cut.upperBound, in: cutStart..<graphemes.upperBound)
            collect(graphemes.lowerBound..<cutStart, into: &out, count: &count, pen: &pen, tabs: &tabs)
            items = LineItems(first: graphemes.lowerBound, resumed: cutEnd, ellipsis: count,
                              ellipsisOffset: Int32(clamping: cut.lowerBound))
            out.widths[count] = ellipsis.width
            out.texts[count] = ItemText(start: items.ellipsisOffset, end: items.ellipsisOffset)
            out.levels[count] = count > 0 ? out.levels[count - 1] : paragraphLevel
            count += 1
            pen += ellipsis.width
            shareLigatures(UnsafeMutableBufferPointer(rebasing: out.widths[..<items.ellipsis]),
                           firstGrapheme: items.first, spans: out.ligatureSpans)
            let resumedAt = count
            collect(cutEnd..<graphemes.upperBound, into: &out, count: &count, pen: &pen, tabs: &tabs)
            shareLigatures(UnsafeMutableBufferPointer(rebasing: out.widths[resumedAt..<count]),
                           firstGrapheme: cutEnd, spans: out.ligatureSpans)
        } else {
            collect(graphemes, into: &out, count: &count, pen: &pen, tabs: &tabs)
            items = LineItems(first: graphemes.lowerBound, resumed: graphemes.upperBound, ellipsis: Int.max,
                              ellipsisOffset: 0)
            shareLigatures(UnsafeMutableBufferPointer(rebasing: out.widths[..<count]), firstGrapheme: items.first,
                           spans: out.ligatureSpans)
        }
        let widths = UnsafeMutableBufferPointer(rebasing: out.widths[..<count])
        let levels = UnsafeMutableBufferPointer(rebasing: out.levels[..<count])

        // L1: whitespace at the end of the line takes the paragraph's level.
        var trailing = 0
        var index = count - 1
        while index >= 0, index != items.ellipsis, out.hangs[items.grapheme(index)] {
            levels[index] = paragraphLevel
            trailing += widths[index]
            index -= 1
        }
        // Sharing a ligature's width keeps their sum: the line is as wide as the pen went.
        let hyphenWidth = line.showsHyphen ? hyphen.width : 0
        let total = pen + hyphenWidth
        // The level runs, their levels written over the items' (a run starts at or
        // before its first item). Most lines have one level: a check of them all
        // (which vectorizes) finds those.
        var runs = 0
        var differs: UInt8 = 0
        for level in levels { differs |= level ^ levels[0] }
        if differs == 0 {
            runs = count > 0 ? 1 : 0
            if count > 0 { out.runStarts[0] = 0 }
        } else {
            var previousLevel = ~levels[0]
            for i in 0..<count where levels[i] != previousLevel {
                previousLevel = levels[i]
                out.runStarts[runs] = Int32(truncatingIfNeeded: i)
                runs += 1
            }
            for run in 0..<runs { levels[run] = levels[Int(out.runStarts[run])] }
        }
        let isRightToLeft = paragraphLevel & 1 == 1
        let lineLeft = Self.lineLeft(total: total, trailing: trailing, lineEnd: line.lineEnd, width: out.width,
                                     alignment: out.alignment, isRightToLeft: isRightToLeft)
        // The hyphen ends the line: on its right, or its left when right to left.
        let left = isRightToLeft ? lineLeft + Double(hyphenWidth) * pixelsPerUnit : lineLeft

        let order = UnsafeMutableBufferPointer(rebasing: out.order[..<runs])
        for run in 0..<runs { order[run] = Int32(truncatingIfNeeded: run) }
        if runs > 1 { BidiLevels.reorder(order, levels: UnsafeBufferPointer(rebasing: levels[..<runs])) }
        let isLeftToRightText = out.bidiLevels.isEmpty
        let firstCluster = out.clusterCount, firstVisual = isLeftToRightText ? firstCluster : out.visualCount
        // The line's clusters in text order, its visual order; its items' text.
        let clusters = UnsafeMutableBufferPointer(rebasing: out.clusters[firstCluster...])
        let visual = isLeftToRightText ? out.visual : UnsafeMutableBufferPointer(rebasing: out.visual[firstVisual...])
        let texts = out.texts
        let line32 = Int32(clamping: lineIndex)
        // In px from `left`, which may be any finite number (a huge width, centred);
        // a cluster's left edge is its predecessor's right one, computed once.
        var x = 0, placed = 0
        var itemLeft = left + Double(x) * pixelsPerUnit
        for run in order {
            let run = Int(run), level = levels[run]
            let runStart = Int(out.runStarts[run]), runEnd = run + 1 < runs ? Int(out.runStarts[run + 1]) : count
            let isOdd = level & 1 == 1
            for position in 0..<runEnd - runStart {
                let logical = isOdd ? runEnd - 1 - position : runStart + position
                x &+= widths[logical]
                let itemRight = left + Double(x) * pixelsPerUnit
                clusters[logical] = TextPlacement.Cluster(
                    start: texts[logical].start, end: texts[logical].end, line: line32, left: itemLeft,
                    right: itemRight, isRightToLeft: isOdd, isEllipsis: logical == items.ellipsis, isLineBreak: false)
                itemLeft = itemRight
                if !isLeftToRightText { visual[placed] = firstCluster + logical }
                placed += 1
            }
        }
        // A mandatory break ends its line: only its last grapheme can be the break.
        var last = count - 1
        if last == items.ellipsis { last -= 1 }
        if line.lineEnd == .mandatoryBreak, last >= 0, Int(texts[last].end) == line.utf16Range.upperBound {
            clusters[last].isLineBreak = true
        }
        if !isLeftToRightText { out.visualCount += count }
        out.clusterCount += count
        out.storesOrder = true
        let lastVisual = isLeftToRightText ? out.clusterCount : out.visualCount
        return Self.placedLine(line, lineLeft: lineLeft, left: left, width: x, isRightToLeft: isRightToLeft,
                               visualClusters: firstVisual..<lastVisual, order: .stored)
    }

    /// A line placed from `left` px (after its hyphen when right to left), `width`
    /// units wide, its hyphen at `lineLeft` when right to left, else after it.
    private static func placedLine(_ line: TextPlacement.LineInput, lineLeft: Double, left: Double, width: Int,
                                   isRightToLeft: Bool, visualClusters: Range<Int>,
                                   order: TextPlacement.Order) -> TextPlacement.Line {
        let right = left + Double(width) / Double(Units.widthPerPixel)
        return TextPlacement.Line(utf16Range: line.utf16Range, left: left, right: right, y: line.y,
                                  height: line.height, baseline: line.baseline, isRightToLeft: isRightToLeft,
                                  order: order, visualClusters: visualClusters,
                                  hyphenLeft: !line.showsHyphen ? nil : isRightToLeft ? lineLeft : right)
    }

    /// Places a line of bidi text at its paragraph's level `level` and the one above,
    /// with no tab, in one pass over its widths once their sum is known: its clusters
    /// in text order, reversed when `level` is odd, each run at the level above (digits
    /// or Latin in a right-to-left paragraph, right-to-left words in a left-to-right
    /// one) laid the other way where the whole run goes, as L2 leaves it. The widths
    /// are the prepared ones, or the line's in scratch with its ligatures' shared.
    /// Nil for any other line.
    private func placeAtParagraphLevels(_ line: TextPlacement.LineInput, index lineIndex: Int, graphemes: Range<Int>,
                                        level: UInt8, into out: inout PlacementBuffers) -> TextPlacement.Line? {
        let spans = out.ligatureSpans, first = graphemes.lowerBound
        if !spans.isEmpty {
            let span = ligatures.firstSpan(from: first)
            if span < spans.count, Int(spans[span].first) + Int(spans[span].count) <= graphemes.upperBound {
                return withUnsafeTemporaryAllocation(of: Int.self, capacity: graphemes.count) { shared in
                    for index in shared.indices { shared[index] = Int(out.graphemeWidths[first &+ index]) }
                    shareLigatures(shared, firstGrapheme: first, spans: spans)
                    return placeAtParagraphLevels(line, index: lineIndex, graphemes: graphemes, level: level,
                                                  widths: UnsafeBufferPointer(shared), into: &out)
                }
            }
        }
        return placeAtParagraphLevels(line, index: lineIndex, graphemes: graphemes, level: level,
                                      widths: UnsafeBufferPointer(rebasing: out.graphemeWidths[graphemes]), into: &out)
    }

    /// `placeAtParagraphLevels` with the line's widths, `widths[i]` its cluster `i`'s.
    private func placeAtParagraphLevels<Width: BinaryInteger>(
        _ line: TextPlacement.LineInput, index lineIndex: Int, graphemes: Range<Int>, level: UInt8,
        widths: UnsafeBufferPointer<Width>, into out: inout PlacementBuffers
    ) -> TextPlacement.Line? {
        let ends = out.ends, levels = out.bidiLevels
        guard let last = graphemes.last, !levels.isEmpty else { return nil }
        let first = graphemes.lowerBound, firstStart = first == 0 ? 0 : Int(ends[first - 1])
        // L1: trailing whitespace takes the paragraph's level.
        var trailing = 0, hanging = last
        while hanging >= first, out.hangs[hanging] {
            trailing += Int(widths[hanging &- first])
            hanging -= 1
        }
        // Most lines have every code unit at `level`: checked at once. Others are read
        // grapheme by grapheme, by their first code unit as reordering reads them.
        let hasRuns = !Self.every(levels, in: firstStart..<Int(ends[last]), is: level)
        if hasRuns, hanging >= first {
            var start = firstStart
            for grapheme in first...hanging {
                guard levels[start] &- level <= 1 else { return nil }
                start = Int(ends[grapheme])
            }
        }
        var pen = 0
        for width in widths { pen &+= Int(width) }
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        let hyphenWidth = line.showsHyphen ? hyphen.width : 0
        let isOdd = level & 1 == 1
        let lineLeft = Self.lineLeft(total: pen + hyphenWidth, trailing: trailing, lineEnd: line.lineEnd,
                                     width: out.width, alignment: out.alignment, isRightToLeft: isOdd)
        let left = isOdd ? lineLeft + Double(hyphenWidth) * pixelsPerUnit : lineLeft
        let count = graphemes.count, firstCluster = out.clusterCount, firstVisual = out.visualCount
        let clusters = UnsafeMutableBufferPointer(rebasing: out.clusters[firstCluster..<firstCluster + count])
        let visual = UnsafeMutableBufferPointer(rebasing: out.visual[firstVisual..<firstVisual + count])
        let line32 = Int32(clamping: lineIndex)
        if hasRuns {
            placeRuns(graphemes, widths: widths, level: level, hanging: hanging, pen: pen, left: left, line: line32,
                      clusters: clusters, visual: visual, firstCluster: firstCluster, out: out)
        } else {
            // Units from the line's left edge, as reordering would lay them: a cluster's
            // logical start edge is its predecessor's end edge, computed once. Inlined
            // with `isOdd` a constant, each direction's loop has no per-cluster choice.
            // The visual order (the text's, or reversed) is written only if another line
            // needs the whole order stored (`writeVisualOrder`).
            @inline(__always)
            func lay(isOdd: Bool) {
                // Units from the left edge to the cluster's logical end edge.
                var x = isOdd ? pen : 0, start = Int32(firstStart)
                var edge = left + Double(x) * pixelsPerUnit
                // Indices within the buffers' bounds: wrapping arithmetic, with no overflow checks.
                for index in 0..<count {
                    x = isOdd ? x &- Int(widths[index]) : x &+ Int(widths[index])
                    let next = left + Double(x) * pixelsPerUnit
                    let end = ends[first &+ index]
                    clusters[index] = TextPlacement.Cluster(start: start, end: end, line: line32,
                                                            left: isOdd ? next : edge, right: isOdd ? edge : next,
                                                            isRightToLeft: isOdd, isEllipsis: false, isLineBreak: false)
                    edge = next
                    start = end
                }
            }
            if isOdd { lay(isOdd: true) } else { lay(isOdd: false) }
        }
        // A mandatory break ends its line, so the line's last cluster is the break.
        if line.lineEnd == .mandatoryBreak, Int(ends[last]) == line.utf16Range.upperBound {
            clusters[count - 1].isLineBreak = true
        }
        out.clusterCount += count
        out.visualCount += count
        if hasRuns { out.storesOrder = true } else if isOdd { out.reversesLines = true }
        return Self.placedLine(line, lineLeft: lineLeft, left: left, width: pen, isRightToLeft: isOdd,
                               visualClusters: firstVisual..<firstVisual + count,
                               order: hasRuns ? .stored : isOdd ? .reversed : .identity)
    }

    /// Whether every byte of `bytes[range]` is `value`: eight at a time, the last eight
    /// read overlapping the ones before (the vectorized loop over bytes spent more on its
    /// three tails than on a line's levels).
    @inline(__always)
    private static func every(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>, is value: UInt8) -> Bool {
        guard let base = bytes.baseAddress, range.count >= 8, range.lowerBound >= 0, range.upperBound <= bytes.count else {
            return !bytes[range].contains { $0 != value }
        }
        let raw = UnsafeRawPointer(base), pattern = UInt64(value) &* 0x0101_0101_0101_0101
        var offset = range.lowerBound
        while offset &+ 8 < range.upperBound {
            guard raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == pattern else { return false }
            offset &+= 8
        }
        return raw.loadUnaligned(fromByteOffset: range.upperBound &- 8, as: UInt64.self) == pattern
    }

    /// Lays the clusters of a line at paragraph level `level` with runs at the level
    /// above, `pen` units wide from `left` px: a cluster at `level` goes where its
    /// text position puts it (from the right when `level` is odd), a run above
    /// goes there as a whole and is laid the other way inside. Graphemes after
    /// `hanging` are trailing whitespace, at `level`.
    private func placeRuns<Width: BinaryInteger>(_ graphemes: Range<Int>, widths: UnsafeBufferPointer<Width>,
                                                 level: UInt8, hanging: Int, pen: Int, left: Double, line: Int32,
                                                 clusters: UnsafeMutableBufferPointer<TextPlacement.Cluster>,
                                                 visual: UnsafeMutableBufferPointer<Int>, firstCluster: Int,
                                                 out: PlacementBuffers) {
        let ends = out.ends, levels = out.bidiLevels
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        let isOdd = level & 1 == 1, first = graphemes.lowerBound, count = graphemes.count
        // Clusters before `hanging + 1` may be in a run above; `prefix` is the units before cluster `index`.
        let runsEnd = hanging + 1 - first
        var index = 0, prefix = 0
        var start = first == 0 ? 0 : ends[first - 1]
        while index < count {
            // The run from `index` to `runEnd`, `runWidth` units: one cluster at `level`, or a run above.
            var runEnd = index, runWidth = 0, next = start
            let isAbove = index < runsEnd && levels[Int(start)] != level
            repeat {
                runWidth &+= Int(widths[runEnd])
                next = ends[first &+ runEnd]
                runEnd += 1
            } while isAbove && runEnd < runsEnd && levels[Int(next)] != level
            // Where the run goes, in units from the line's left edge, and its first visual position.
            let runLeft = isOdd ? pen &- prefix &- runWidth : prefix
            let runVisual = isOdd ? count &- runEnd : index
            // Laid forwards when its level is even: the line's direction, or the other one for a run above.
            let isForwards = isOdd == isAbove
            var inner = 0
            for cluster in index..<runEnd {
                let width = Int(widths[cluster])
                let edge = isForwards ? runLeft &+ inner : runLeft &+ runWidth &- inner &- width
                let end = ends[first &+ cluster]
                clusters[cluster] = TextPlacement.Cluster(
                    start: start, end: end, line: line, left: left + Double(edge) * pixelsPerUnit,
                    right: left + Double(edge &+ width) * pixelsPerUnit, isRightToLeft: isOdd != isAbove,
                    isEllipsis: false, isLineBreak: false)
                let position = cluster &- index
                visual[isForwards ? runVisual &+ position : runVisual &+ (runEnd &- index) &- 1 &- position] =
                    firstCluster &+ cluster
                inner &+= width
                start = end
            }
            prefix &+= runWidth
            index = runEnd
        }
    }

    /// Collects the widths (a tab's reaching the next stop from `pen`) and levels of
    /// the graphemes of `range` as a line's next items.
    @inline(__always)
    private func collect(_ range: Range<Int>, into out: inout PlacementBuffers, count: inout Int, pen: inout Int,
                         tabs: inout TabCursor) {
        // Held in locals: written through `out`, they were reloaded per cluster.
        let ends = out.ends, graphemeWidths = out.graphemeWidths, bidiLevels = out.bidiLevels
        let widths = out.widths, texts = out.texts, levels = out.levels
        var start: Int32 = range.lowerBound == 0 ? 0 : ends[range.lowerBound - 1]
        var next = count, x = pen
        for grapheme in range {
            let width = tabs.isTab(grapheme) ? tabStops.advance(at: x) : Int(graphemeWidths[grapheme])
            x += width
            widths[next] = width
            texts[next] = ItemText(start: start, end: ends[grapheme])
            levels[next] = bidiLevels.isEmpty ? 0 : bidiLevels[Int(start)]
            next += 1
            start = ends[grapheme]
        }
        count = next
        pen = x
    }

    /// The first grapheme of `range` that starts at or after UTF-16 `offset`.
    private func firstGrapheme(startingAtOrAfter offset: Int, in range: Range<Int>) -> Int {
        range.partitioningIndex { ($0 == 0 ? 0 : Int(graphemeEnds[$0 - 1])) >= offset }
    }

    /// Shares each right-to-left ligature's width evenly among its graphemes when
    /// all of them are on the line, as Chromium's client rects do (see `LigatureSpans`):
    /// `widths` are those of consecutive graphemes from `firstGrapheme`.
    private func shareLigatures(_ widths: UnsafeMutableBufferPointer<Int>, firstGrapheme: Int,
                                spans: UnsafeBufferPointer<LigatureSpans.Span>) {
        guard !spans.isEmpty, !widths.isEmpty else { return }
        let endGrapheme = firstGrapheme + widths.count
        var span = ligatures.firstSpan(from: firstGrapheme)
        // Spans do not overlap: the first to pass the end ends the search.
        while span < spans.count, Int(spans[span].first) + Int(spans[span].count) <= endGrapheme {
            let first = Int(spans[span].first) - firstGrapheme, count = Int(spans[span].count)
            let total = widths[first..<first + count].reduce(0, +)
            for i in 0..<count { widths[first + i] = total * (i + 1) / count - total * i / count }
            span += 1
        }
    }
}
