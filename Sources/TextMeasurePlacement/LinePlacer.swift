/// Where placing writes: scratch for the placement's clusters and visual order, sized
/// once for all the lines, and for one line.
struct PlacementBuffers {
    let clusters: UnsafeMutableBufferPointer<TextPlacement.Cluster>
    /// Written per line for text with right-to-left levels; other text is in visual order.
    let visual: UnsafeMutableBufferPointer<Int>
    let items: UnsafeMutableBufferPointer<PlacementItem>
    let order: UnsafeMutableBufferPointer<Int32>
    let levels: UnsafeMutableBufferPointer<UInt8>
    /// The prepared text's grapheme ends, widths and hanging flags, read without
    /// reloading the arrays or checking bounds per cluster.
    let ends: UnsafeBufferPointer<Int32>
    let widths: UnsafeBufferPointer<Int32>
    let hangs: UnsafeBufferPointer<Bool>
    let width: Double?
    let alignment: TextAlignment
    var clusterCount = 0
    var visualCount = 0

    /// Writes `cluster` after the ones written so far; returns its index.
    @inline(__always)
    mutating func append(_ cluster: TextPlacement.Cluster) -> Int {
        (clusters.baseAddress! + clusterCount).initialize(to: cluster)
        clusterCount += 1
        return clusterCount - 1
    }
}

/// A cluster on a line being reordered.
struct PlacementItem {
    /// Its index in the placement's clusters, its grapheme's index (-1 for the ellipsis).
    var cluster: Int
    var grapheme: Int
    /// Its width in width units, whether it is whitespace that hangs.
    var width: Int
    var hangs: Bool
}

extension PreparedText {
    /// Places a line of text that needs no reordering: clusters in text order from x = 0,
    /// then moved to where alignment puts the line.
    func placeLeftToRight(_ line: TextPlacement.LineInput, index: Int,
                          into out: inout PlacementBuffers) -> TextPlacement.Line {
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        let first = out.clusterCount
        let upper = line.utf16Range.upperBound, endsWithBreak = line.lineEnd == .mandatoryBreak
        var x = 0, trailing = 0
        var grapheme = firstGrapheme(endingAfter: line.utf16Range.lowerBound)
        var start = grapheme == 0 ? 0 : Int(out.ends[grapheme - 1])
        var tab = firstTab(from: grapheme)
        while grapheme < out.ends.count, start < upper {
            let end = Int(out.ends[grapheme])
            let advance = width(of: grapheme, at: x, tab: &tab, widths: out.widths)
            trailing = out.hangs[grapheme] ? trailing + advance : 0
            // A mandatory break ends its line, so the line's last cluster is the break.
            _ = out.append(TextPlacement.Cluster(utf16Range: start..<end, line: index, left: Double(x) * pixelsPerUnit,
                                                 right: Double(x + advance) * pixelsPerUnit, isRightToLeft: false,
                                                 isEllipsis: false, isLineBreak: endsWithBreak && end == upper))
            x += advance
            grapheme += 1
            start = end
        }
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
    /// rule L1 applied, then laid left to right in the order rule L2 gives.
    func placeReordering(_ line: TextPlacement.LineInput, index lineIndex: Int,
                         into out: inout PlacementBuffers) -> TextPlacement.Line {
        let unitsPerPixel = Double(Units.widthPerPixel)
        let paragraphLevel = bidi.paragraphLevel(at: line.utf16Range.lowerBound)
        let upper = line.utf16Range.upperBound, endsWithBreak = line.lineEnd == .mandatoryBreak
        let firstCluster = out.clusterCount
        var count = 0
        var pen = 0   // width units from the line's logical start, for tab stops
        var ellipsisPlaced = false
        var grapheme = firstGrapheme(endingAfter: line.utf16Range.lowerBound)
        var start = grapheme == 0 ? 0 : Int(out.ends[grapheme - 1])
        var tab = firstTab(from: grapheme)
        while grapheme < out.ends.count, start < upper {
            let end = Int(out.ends[grapheme])
            defer { grapheme += 1; start = end }
            if let cut = line.elidedUTF16Range {
                if start >= cut.lowerBound, !ellipsisPlaced {
                    appendEllipsis(at: cut.lowerBound, line: lineIndex, level: count > 0 ? out.levels[count - 1] : paragraphLevel,
                                   into: &out, count: &count, pen: &pen)
                    ellipsisPlaced = true
                }
                if cut.contains(start) { continue }
            }
            let width = width(of: grapheme, at: pen, tab: &tab, widths: out.widths)
            pen += width
            let cluster = out.append(TextPlacement.Cluster(utf16Range: start..<end, line: lineIndex, left: 0, right: 0,
                                                           isRightToLeft: false, isEllipsis: false,
                                                           isLineBreak: endsWithBreak && end == upper))
            out.items[count] = PlacementItem(cluster: cluster, grapheme: grapheme, width: width,
                                             hangs: out.hangs[grapheme])
            out.levels[count] = bidi.isLeftToRight ? 0 : bidi.levels[start]
            count += 1
        }
        if let cut = line.elidedUTF16Range, !ellipsisPlaced {
            appendEllipsis(at: cut.lowerBound, line: lineIndex, level: count > 0 ? out.levels[count - 1] : paragraphLevel,
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
        let hyphenWidth = line.showsHyphen ? hyphen.width : 0
        var total = hyphenWidth
        var lowest = UInt8.max, highest: UInt8 = 0
        for i in 0..<count {
            total += items[i].width
            lowest = min(lowest, levels[i])
            highest = max(highest, levels[i])
        }
        let isRightToLeft = paragraphLevel & 1 == 1
        let lineLeft = Self.lineLeft(total: total, trailing: trailing, lineEnd: line.lineEnd, width: out.width,
                                     alignment: out.alignment, isRightToLeft: isRightToLeft)
        // The hyphen ends the line: on its right, or its left when right to left.
        let left = isRightToLeft ? lineLeft + Double(hyphenWidth) / unitsPerPixel : lineLeft

        // L2. A line at one level is in text order, or reversed when that level is odd.
        let reorders = lowest < highest
        if reorders {
            let order = UnsafeMutableBufferPointer(rebasing: out.order[..<count])
            for i in 0..<count { order[i] = Int32(i) }
            BidiLevels.reorder(order, levels: UnsafeBufferPointer(levels))
        }
        let reversed = !reorders && lowest & 1 == 1
        let firstVisual = bidi.isLeftToRight ? firstCluster : out.visualCount
        // In px from `left`, which may be any finite number (a huge width, centred).
        var x = 0
        for position in 0..<count {
            let logical = reorders ? Int(out.order[position]) : reversed ? count - 1 - position : position
            let item = items[logical]
            out.clusters[item.cluster].left = left + Double(x) / unitsPerPixel
            x += item.width
            out.clusters[item.cluster].right = left + Double(x) / unitsPerPixel
            out.clusters[item.cluster].isRightToLeft = levels[logical] & 1 == 1
            if !bidi.isLeftToRight {
                out.visual[out.visualCount] = item.cluster
                out.visualCount += 1
            }
        }
        let lastVisual = bidi.isLeftToRight ? out.clusterCount : out.visualCount
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
    private func appendEllipsis(at offset: Int, line: Int, level: UInt8, into out: inout PlacementBuffers,
                                count: inout Int, pen: inout Int) {
        let cluster = out.append(TextPlacement.Cluster(utf16Range: offset..<offset, line: line, left: 0, right: 0,
                                                       isRightToLeft: level & 1 == 1, isEllipsis: true,
                                                       isLineBreak: false))
        out.items[count] = PlacementItem(cluster: cluster, grapheme: -1, width: ellipsis.width, hangs: false)
        out.levels[count] = level
        count += 1
        pen += ellipsis.width
    }

    /// Shares each right-to-left ligature's width evenly among its graphemes when
    /// all of them are on the line, as Chromium's client rects do (see `LigatureSpans`).
    private func shareLigatures(_ items: UnsafeMutableBufferPointer<PlacementItem>) {
        guard !ligatures.spans.isEmpty, let first = items.first(where: { $0.grapheme >= 0 })?.grapheme else { return }
        var span = ligatures.firstSpan(from: first)
        var index = 0
        while span < ligatures.spans.count, index < items.count {
            let start = Int(ligatures.spans[span].first), count = Int(ligatures.spans[span].count)
            if items[index].grapheme < start { index += 1; continue }
            let whole = items[index].grapheme == start && index + count <= items.count
                && items[index + count - 1].grapheme == start + count - 1
            if whole {
                let total = items[index..<index + count].reduce(0) { $0 + $1.width }
                for i in 0..<count { items[index + i].width = total * (i + 1) / count - total * i / count }
            }
            span += 1
        }
    }
}
