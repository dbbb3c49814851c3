/// Where placing writes: scratch for the placement's clusters and visual order, sized
/// once for all the lines, and for one line.
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
    /// The prepared text's grapheme ends, widths and hanging flags, read without
    /// reloading the arrays or checking bounds per cluster.
    let ends: UnsafeBufferPointer<Int32>
    let widths: UnsafeBufferPointer<Int32>
    let hangs: UnsafeBufferPointer<Bool>
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

extension PreparedText {
    /// Places a line of text that needs no reordering: clusters in text order from x = 0,
    /// then moved to where alignment puts the line.
    func placeLeftToRight(_ line: TextPlacement.LineInput, index: Int,
                          into out: inout PlacementBuffers) -> TextPlacement.Line {
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        let first = out.clusterCount
        let upper = line.utf16Range.upperBound, endsWithBreak = line.lineEnd == .mandatoryBreak
        // Held in locals: written through `out`, they were reloaded per cluster.
        let ends = out.ends, widths = out.widths, hangs = out.hangs, clusters = out.clusters
        var next = first
        var x = 0, trailing = 0
        var grapheme = firstGrapheme(endingAfter: line.utf16Range.lowerBound)
        var start = grapheme == 0 ? 0 : Int(ends[grapheme - 1])
        var tab = firstTab(from: grapheme)
        while grapheme < ends.count, start < upper {
            let end = Int(ends[grapheme])
            let advance = width(of: grapheme, at: x, tab: &tab, widths: widths)
            trailing = hangs[grapheme] ? trailing + advance : 0
            // A mandatory break ends its line, so the line's last cluster is the break.
            clusters[next] = TextPlacement.Cluster(start: start, end: end, line: index, left: Double(x) * pixelsPerUnit,
                                                   right: Double(x + advance) * pixelsPerUnit, isRightToLeft: false,
                                                   isEllipsis: false, isLineBreak: endsWithBreak && end == upper)
            next += 1
            x += advance
            grapheme += 1
            start = end
        }
        out.clusterCount = next
        let hyphenWidth = line.showsHyphen ? hyphen.width : 0
        let left = Self.lineLeft(total: x + hyphenWidth, trailing: trailing, lineEnd: line.lineEnd, width: out.width,
                                 alignment: out.alignment, isRightToLeft: false)
        if left != 0 {
            for cluster in first..<out.clusterCount {
                out.clusters[cluster].left += left
                out.clusters[cluster].right += left
            }
        }
        return TextPlacement.Line(utf16Range: line.utf16Range, left: left, right: left + Double(x) * pixelsPerUnit,
                                  y: line.y, height: line.height, baseline: line.baseline, isRightToLeft: false,
                                  visualClusters: first..<out.clusterCount,
                                  hyphenLeft: line.showsHyphen ? left + Double(x) * pixelsPerUnit : nil)
    }

    /// Places a line of bidi text, or a truncated one: clusters collected in text order,
    /// rule L1 applied, then laid left to right in the order rule L2 gives. L2 reorders
    /// the line's level runs, not its clusters: a run is laid forwards, or backwards
    /// when its level is odd, as reversing at every level from the lowest odd one leaves it.
    func placeReordering(_ line: TextPlacement.LineInput, index lineIndex: Int,
                         into out: inout PlacementBuffers) -> TextPlacement.Line {
        let unitsPerPixel = Double(Units.widthPerPixel)
        let paragraphLevel = bidi.paragraphLevel(at: line.utf16Range.lowerBound)
        let upper = line.utf16Range.upperBound, endsWithBreak = line.lineEnd == .mandatoryBreak
        // Held in locals: written through `out`, they were reloaded per cluster.
        let isLeftToRightText = bidi.isLeftToRight, bidiLevels = bidi.levels, elided = line.elidedUTF16Range
        let ends = out.ends, widths = out.widths, hangs = out.hangs, itemBuffer = out.items, levelBuffer = out.levels
        var count = 0
        var pen = 0   // width units from the line's logical start, for tab stops
        var ellipsisPlaced = false
        var grapheme = firstGrapheme(endingAfter: line.utf16Range.lowerBound)
        var start = grapheme == 0 ? 0 : Int(ends[grapheme - 1])
        var tab = firstTab(from: grapheme)
        while grapheme < ends.count, start < upper {
            let end = Int(ends[grapheme])
            defer { grapheme += 1; start = end }
            if let cut = elided {
                if start >= cut.lowerBound, !ellipsisPlaced {
                    appendEllipsis(at: cut.lowerBound, level: count > 0 ? out.levels[count - 1] : paragraphLevel,
                                   into: &out, count: &count, pen: &pen)
                    ellipsisPlaced = true
                }
                if cut.contains(start) { continue }
            }
            let width = width(of: grapheme, at: pen, tab: &tab, widths: widths)
            pen += width
            itemBuffer[count] = PlacementItem(start: Int32(start), end: Int32(end), grapheme: Int32(grapheme),
                                              hangs: hangs[grapheme], isLineBreak: endsWithBreak && end == upper,
                                              width: width)
            levelBuffer[count] = isLeftToRightText ? 0 : bidiLevels[start]
            count += 1
        }
        if let cut = elided, !ellipsisPlaced {
            appendEllipsis(at: cut.lowerBound, level: count > 0 ? out.levels[count - 1] : paragraphLevel,
                           into: &out, count: &count, pen: &pen)
        }
        let items = UnsafeMutableBufferPointer(rebasing: out.items[..<count])
        let levels = UnsafeMutableBufferPointer(rebasing: out.levels[..<count])
        shareLigatures(items)

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
        for i in 0..<count {
            total += items[i].width
            if i == 0 || levels[i] != levels[i - 1] {
                out.runStarts[runs] = Int32(i)
                runs += 1
            }
        }
        for run in 0..<runs { levels[run] = levels[Int(out.runStarts[run])] }
        let isRightToLeft = paragraphLevel & 1 == 1
        let lineLeft = Self.lineLeft(total: total, trailing: trailing, lineEnd: line.lineEnd, width: out.width,
                                     alignment: out.alignment, isRightToLeft: isRightToLeft)
        // The hyphen ends the line: on its right, or its left when right to left.
        let left = isRightToLeft ? lineLeft + Double(hyphenWidth) / unitsPerPixel : lineLeft

        let order = UnsafeMutableBufferPointer(rebasing: out.order[..<runs])
        for run in 0..<runs { order[run] = Int32(run) }
        BidiLevels.reorder(order, levels: UnsafeBufferPointer(rebasing: levels[..<runs]))
        let firstCluster = out.clusterCount, clusters = out.clusters, visual = out.visual
        let firstVisual = isLeftToRightText ? firstCluster : out.visualCount
        var visualCount = firstVisual
        // In px from `left`, which may be any finite number (a huge width, centred).
        var x = 0
        for run in order {
            let run = Int(run), level = levels[run]
            let runStart = Int(out.runStarts[run]), runEnd = run + 1 < runs ? Int(out.runStarts[run + 1]) : count
            let isOdd = level & 1 == 1
            for position in 0..<runEnd - runStart {
                let logical = isOdd ? runEnd - 1 - position : runStart + position
                let item = items[logical]
                let itemLeft = left + Double(x) / unitsPerPixel
                x += item.width
                clusters[firstCluster + logical] = TextPlacement.Cluster(
                    start: Int(item.start), end: Int(item.end), line: lineIndex, left: itemLeft,
                    right: left + Double(x) / unitsPerPixel, isRightToLeft: isOdd, isEllipsis: item.grapheme < 0,
                    isLineBreak: item.isLineBreak)
                if !isLeftToRightText {
                    visual[visualCount] = firstCluster + logical
                    visualCount += 1
                }
            }
        }
        out.clusterCount += count
        if !isLeftToRightText { out.visualCount = visualCount }
        let lastVisual = isLeftToRightText ? out.clusterCount : out.visualCount
        return TextPlacement.Line(utf16Range: line.utf16Range, left: left, right: left + Double(x) / unitsPerPixel,
                                  y: line.y, height: line.height, baseline: line.baseline, isRightToLeft: isRightToLeft,
                                  visualClusters: firstVisual..<lastVisual,
                                  hyphenLeft: !line.showsHyphen ? nil
                                      : isRightToLeft ? lineLeft : left + Double(x) / unitsPerPixel)
    }

    /// The index of the first tab at or after grapheme `index` (in `tabStops.graphemes`).
    private func firstTab(from index: Int) -> Int {
        tabStops.graphemes.isEmpty ? 0 : tabStops.graphemes.partitioningIndex { Int($0) >= index }
    }

    /// The width of grapheme `index` starting `pen` units into its line: a tab's reaches
    /// the next stop. `tab` follows the graphemes, the first tab not before them.
    @inline(__always)
    private func width(of index: Int, at pen: Int, tab: inout Int, widths: UnsafeBufferPointer<Int32>) -> Int {
        let tabs = tabStops.graphemes
        while tab < tabs.count, Int(tabs[tab]) < index { tab += 1 }
        return tab < tabs.count && Int(tabs[tab]) == index ? tabStops.advance(at: pen) : Int(widths[index])
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
    private func shareLigatures(_ items: UnsafeMutableBufferPointer<PlacementItem>) {
        guard !ligatures.spans.isEmpty, let first = items.first(where: { $0.grapheme >= 0 })?.grapheme else { return }
        var span = ligatures.firstSpan(from: Int(first))
        var index = 0
        while span < ligatures.spans.count, index < items.count {
            let start = Int(ligatures.spans[span].first), count = Int(ligatures.spans[span].count)
            if Int(items[index].grapheme) < start { index += 1; continue }
            let whole = Int(items[index].grapheme) == start && index + count <= items.count
                && Int(items[index + count - 1].grapheme) == start + count - 1
            if whole {
                let total = items[index..<index + count].reduce(0) { $0 + $1.width }
                for i in 0..<count { items[index + i].width = total * (i + 1) / count - total * i / count }
            }
            span += 1
        }
    }
}
