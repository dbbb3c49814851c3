/// Where placing writes: the placement's clusters and visual order, in their final
/// arrays, scratch for reordering one line, and the prepared text's arrays it reads.
struct PlacementBuffers {
    let clusters: UnsafeMutableBufferPointer<TextPlacement.Cluster>
    /// Written per line for text with right-to-left levels; other text is in visual order.
    let visual: UnsafeMutableBufferPointer<Int>
    let items: UnsafeMutableBufferPointer<PlacementItem>
    /// A line's items' levels, then its level runs' (where each starts, its level), and
    /// the runs' visual order.
    let levels: UnsafeMutableBufferPointer<UInt8>
    let runStarts: UnsafeMutableBufferPointer<Int32>
    let order: UnsafeMutableBufferPointer<Int32>
    /// The prepared text's grapheme ends, widths, hanging flags, tabs, bidi levels
    /// (empty for left-to-right text) and ligature spans, read without reloading the
    /// arrays or checking bounds per cluster.
    let ends: UnsafeBufferPointer<Int32>
    let widths: UnsafeBufferPointer<Int32>
    let hangs: UnsafeBufferPointer<Bool>
    let tabs: UnsafeBufferPointer<Int32>
    let bidiLevels: UnsafeBufferPointer<UInt8>
    let ligatureSpans: UnsafeBufferPointer<LigatureSpans.Span>
    let width: Double?
    let alignment: TextAlignment
    var clusterCount = 0
    var visualCount = 0
}

/// A cluster on a line being reordered, written out as a `TextPlacement.Cluster`
/// once its visual position is known.
struct PlacementItem {
    /// Its text, its grapheme's index (-1 for the ellipsis).
    var start: Int32, end: Int32
    var grapheme: Int32
    /// Whether it is whitespace that hangs, whether it ends the line with a break.
    var hangs: Bool
    var isLineBreak: Bool
    /// Its width in width units.
    var width: Int
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
    /// Lends `body` the scratch for reordering lines of up to `capacity` clusters:
    /// items, their levels, and the level runs' starts and visual order.
    func withPlacementScratch<Result>(
        capacity: Int,
        _ body: (UnsafeMutableBufferPointer<PlacementItem>, UnsafeMutableBufferPointer<UInt8>,
                 UnsafeMutableBufferPointer<Int32>, UnsafeMutableBufferPointer<Int32>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: PlacementItem.self, capacity: capacity) { items in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { levels in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * capacity) { runs in
                    body(items, levels, .init(rebasing: runs[..<capacity]), .init(rebasing: runs[capacity...]))
                }
            }
        }
    }

    /// Lends `body` the arrays placing reads: grapheme widths, hanging flags, tabs,
    /// bidi levels and ligature spans.
    func withSources<Result>(
        _ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Bool>, UnsafeBufferPointer<Int32>,
                 UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<LigatureSpans.Span>) -> Result
    ) -> Result {
        graphemeWidths.withUnsafeBufferPointer { widths in
            graphemeHangs.withUnsafeBufferPointer { hangs in
                tabStops.graphemes.withUnsafeBufferPointer { tabs in
                    bidi.levels.withUnsafeBufferPointer { levels in
                        ligatures.spans.withUnsafeBufferPointer { spans in body(widths, hangs, tabs, levels, spans) }
                    }
                }
            }
        }
    }

    /// Places a line of text that needs no reordering: clusters in text order from x = 0,
    /// then moved to where alignment puts the line.
    func placeLeftToRight(_ line: TextPlacement.LineInput, index: Int, graphemes: Range<Int>,
                          into out: inout PlacementBuffers) -> TextPlacement.Line {
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        let first = out.clusterCount, lineIndex = Int32(clamping: index)
        // Held in locals: written through `out`, they were reloaded per cluster.
        let ends = out.ends, widths = out.widths, hangs = out.hangs, clusters = out.clusters
        var tabs = TabCursor(out.tabs, from: graphemes.lowerBound)
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

    /// Places a line of bidi text, or a truncated one: clusters collected in text order,
    /// rule L1 applied, then laid left to right in the order rule L2 gives. L2 reorders
    /// the line's level runs, not its clusters: a run is laid forwards, or backwards
    /// when its level is odd, as reversing at every level from the lowest odd one leaves it.
    func placeReordering(_ line: TextPlacement.LineInput, index lineIndex: Int, graphemes: Range<Int>,
                         into out: inout PlacementBuffers) -> TextPlacement.Line {
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        let paragraphLevel = bidi.paragraphLevel(at: line.utf16Range.lowerBound)
        let upper = line.utf16Range.upperBound, endsWithBreak = line.lineEnd == .mandatoryBreak
        // Held in locals: written through `out`, they were reloaded per cluster.
        let bidiLevels = out.bidiLevels, elided = line.elidedUTF16Range
        let ends = out.ends, widths = out.widths, hangs = out.hangs, itemBuffer = out.items, levelBuffer = out.levels
        var count = 0
        var pen = 0   // width units from the line's logical start, for tab stops
        var ellipsisPlaced = false
        var tabs = TabCursor(out.tabs, from: graphemes.lowerBound)
        var start: Int32 = graphemes.lowerBound == 0 ? 0 : ends[graphemes.lowerBound - 1]
        for grapheme in graphemes {
            let end = ends[grapheme]
            defer { start = end }
            if let cut = elided {
                if Int(start) >= cut.lowerBound, !ellipsisPlaced {
                    appendEllipsis(at: cut.lowerBound, level: count > 0 ? out.levels[count - 1] : paragraphLevel,
                                   into: &out, count: &count, pen: &pen)
                    ellipsisPlaced = true
                }
                if cut.contains(Int(start)) { continue }
            }
            let width = tabs.isTab(grapheme) ? tabStops.advance(at: pen) : Int(widths[grapheme])
            pen += width
            itemBuffer[count] = PlacementItem(start: start, end: end, grapheme: Int32(truncatingIfNeeded: grapheme),
                                              hangs: hangs[grapheme], isLineBreak: endsWithBreak && Int(end) == upper,
                                              width: width)
            levelBuffer[count] = bidiLevels.isEmpty ? 0 : bidiLevels[Int(start)]
            count += 1
        }
        if let cut = elided, !ellipsisPlaced {
            appendEllipsis(at: cut.lowerBound, level: count > 0 ? out.levels[count - 1] : paragraphLevel,
                           into: &out, count: &count, pen: &pen)
        }
        let items = UnsafeMutableBufferPointer(rebasing: out.items[..<count])
        let levels = UnsafeMutableBufferPointer(rebasing: out.levels[..<count])
        shareLigatures(items, spans: out.ligatureSpans)

        // L1: whitespace at the end of the line takes the paragraph's level.
        var trailing = 0
        var index = count - 1
        while index >= 0, items[index].hangs {
            levels[index] = paragraphLevel
            trailing += items[index].width
            index -= 1
        }
        // The level runs, their levels written over the items' (a run starts at or
        // before its first item), and the line's width.
        let hyphenWidth = line.showsHyphen ? hyphen.width : 0
        var total = hyphenWidth, runs = 0
        var previousLevel = count > 0 ? ~levels[0] : 0
        for i in 0..<count {
            total += items[i].width
            if levels[i] != previousLevel {
                previousLevel = levels[i]
                out.runStarts[runs] = Int32(truncatingIfNeeded: i)
                runs += 1
            }
        }
        for run in 0..<runs { levels[run] = levels[Int(out.runStarts[run])] }
        let isRightToLeft = paragraphLevel & 1 == 1
        let lineLeft = Self.lineLeft(total: total, trailing: trailing, lineEnd: line.lineEnd, width: out.width,
                                     alignment: out.alignment, isRightToLeft: isRightToLeft)
        // The hyphen ends the line: on its right, or its left when right to left.
        let left = isRightToLeft ? lineLeft + Double(hyphenWidth) * pixelsPerUnit : lineLeft

        let order = UnsafeMutableBufferPointer(rebasing: out.order[..<runs])
        for run in 0..<runs { order[run] = Int32(truncatingIfNeeded: run) }
        BidiLevels.reorder(order, levels: UnsafeBufferPointer(rebasing: levels[..<runs]))
        let isLeftToRightText = bidiLevels.isEmpty
        let firstCluster = out.clusterCount, clusters = out.clusters, visual = out.visual
        let firstVisual = isLeftToRightText ? firstCluster : out.visualCount
        var visualCount = firstVisual
        let line32 = Int32(clamping: lineIndex)
        // In px from `left`, which may be any finite number (a huge width, centred);
        // a cluster's left edge is its predecessor's right one, computed once.
        var x = 0
        var itemLeft = left + Double(x) * pixelsPerUnit
        for run in order {
            let run = Int(run), level = levels[run]
            let runStart = Int(out.runStarts[run]), runEnd = run + 1 < runs ? Int(out.runStarts[run + 1]) : count
            let isOdd = level & 1 == 1
            for position in 0..<runEnd - runStart {
                let logical = isOdd ? runEnd - 1 - position : runStart + position
                let item = items[logical]
                x += item.width
                let itemRight = left + Double(x) * pixelsPerUnit
                clusters[firstCluster + logical] = TextPlacement.Cluster(
                    start: item.start, end: item.end, line: line32, left: itemLeft, right: itemRight,
                    isRightToLeft: isOdd, isEllipsis: item.grapheme < 0, isLineBreak: item.isLineBreak)
                itemLeft = itemRight
                if !isLeftToRightText {
                    visual[visualCount] = firstCluster + logical
                    visualCount += 1
                }
            }
        }
        out.clusterCount += count
        if !isLeftToRightText { out.visualCount = visualCount }
        let lastVisual = isLeftToRightText ? out.clusterCount : out.visualCount
        return TextPlacement.Line(utf16Range: line.utf16Range, left: left, right: left + Double(x) * pixelsPerUnit,
                                  y: line.y, height: line.height, baseline: line.baseline, isRightToLeft: isRightToLeft,
                                  visualClusters: firstVisual..<lastVisual,
                                  hyphenLeft: !line.showsHyphen ? nil
                                      : isRightToLeft ? lineLeft : left + Double(x) * pixelsPerUnit)
    }

    /// Appends the "…" of a truncated line, in place of the text from `offset`.
    private func appendEllipsis(at offset: Int, level: UInt8, into out: inout PlacementBuffers,
                                count: inout Int, pen: inout Int) {
        let offset = Int32(clamping: offset)
        out.items[count] = PlacementItem(start: offset, end: offset, grapheme: -1, hangs: false, isLineBreak: false,
                                         width: ellipsis.width)
        out.levels[count] = level
        count += 1
        pen += ellipsis.width
    }

    /// Shares each right-to-left ligature's width evenly among its graphemes when
    /// all of them are on the line, as Chromium's client rects do (see `LigatureSpans`).
    private func shareLigatures(_ items: UnsafeMutableBufferPointer<PlacementItem>,
                                spans: UnsafeBufferPointer<LigatureSpans.Span>) {
        guard !spans.isEmpty, let first = items.first(where: { $0.grapheme >= 0 })?.grapheme else { return }
        var span = ligatures.firstSpan(from: Int(first))
        var index = 0
        while span < spans.count {
            let start = spans[span].first, count = Int(spans[span].count)
            while index < items.count, items[index].grapheme < start { index += 1 }
            guard index < items.count else { return }
            let whole = items[index].grapheme == start && index + count <= items.count
                && Int(items[index + count - 1].grapheme) == Int(start) + count - 1
            if whole {
                let total = items[index..<index + count].reduce(0) { $0 + $1.width }
                for i in 0..<count { items[index + i].width = total * (i + 1) / count - total * i / count }
            }
            span += 1
        }
    }
}
