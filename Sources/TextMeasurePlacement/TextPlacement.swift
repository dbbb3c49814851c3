/// Lines as drawn: every grapheme cluster's box in visual order, with the lines
/// aligned in their width, as Chromium places them.
///
/// Placement is arithmetic over the prepared cluster widths and bidi levels: no
/// ICU, no HarfBuzz (`PlacementMeasuresNothingTests` counts the calls). Per line it
/// applies UAX #9 rules L1 (trailing whitespace takes the paragraph's level) and L2
/// (reversing runs at each level), then the alignment: CSS `text-align` with
/// `white-space: pre-wrap`, where trailing spaces hang past the line's end (on the
/// left of a right-to-left line) and, on a paragraph's last line, only as far as
/// they overflow.
///
/// Coordinates are px from the top-left of the text: inside any container inset
/// and line fragment padding, as `TextLayout`'s.
///
/// ```swift
/// let prepared = try PreparedText("שלום John עולם")
/// let placement = prepared.placement(of: try prepared.layout(width: 300))
/// placement.clusters.map(\.left)   // right-aligned: the paragraph is right to left
/// ```
public struct TextPlacement: Sendable {
    /// A line's position and its clusters in visual order.
    public struct Line: Sendable, Hashable {
        /// The line's text, in UTF-16 code units.
        public var utf16Range: Range<Int>
        /// The left edge of the line's leftmost cluster (hanging spaces included), px.
        public var left: Double
        /// The right edge of its rightmost cluster, px.
        public var right: Double
        /// Distance from the top of the text to the line's top, its height and its baseline.
        public var y: Double
        public var height: Double
        public var baseline: Double
        /// Whether the line's paragraph is right to left.
        public var isRightToLeft: Bool
        /// The line's clusters, left to right: a range of `TextPlacement.visualOrder`.
        public var visualClusters: Range<Int>
        /// Where the hyphen of a line broken at a soft hyphen or hyphenation point starts,
        /// px (after the clusters, or before them on a right-to-left line); nil when the
        /// line shows none.
        public var hyphenLeft: Double? = nil
    }

    /// A grapheme cluster's box on its line (or the "…" of a truncated line).
    public struct Cluster: Sendable, Hashable {
        /// The cluster's text; empty for the ellipsis, at the offset it replaces text from.
        public var utf16Range: Range<Int>
        /// The index of its line.
        public var line: Int
        /// Its left and right edges, px from the text's left edge.
        public var left: Double
        public var right: Double
        /// Whether it is drawn right to left (an odd bidi level).
        public var isRightToLeft: Bool
        /// Whether it is the ellipsis of a truncated line.
        public var isEllipsis: Bool
        /// Whether it ends a line with a line break (LF, CR LF, U+2029 and the like).
        public var isLineBreak: Bool
    }

    /// What placing needs of a line: a layout's line, or one from elsewhere (a renderer's).
    public struct LineInput: Sendable, Hashable {
        public var utf16Range: Range<Int>
        /// For a truncated line, the part shown as "…" (`TextLayout.Line.elidedUTF16Range`).
        public var elidedUTF16Range: Range<Int>?
        /// Why the line ended: a paragraph's last line hangs trailing spaces only as far as they overflow.
        public var lineEnd: LineEnd
        public var y: Double
        public var height: Double
        public var baseline: Double
        /// Whether the line ends at a soft hyphen or hyphenation point and shows a hyphen
        /// (`TextLayout.Line.hyphen`): placed after the line's clusters, counted in its width.
        public var showsHyphen: Bool

        public init(utf16Range: Range<Int>, elidedUTF16Range: Range<Int>? = nil, lineEnd: LineEnd,
                    y: Double = 0, height: Double = 0, baseline: Double = 0, showsHyphen: Bool = false) {
            self.showsHyphen = showsHyphen
            self.utf16Range = utf16Range
            self.elidedUTF16Range = elidedUTF16Range
            self.lineEnd = lineEnd
            self.y = y
            self.height = height
            self.baseline = baseline
        }

        public init(_ line: TextLayout.Line) {
            self.init(utf16Range: line.utf16Range, elidedUTF16Range: line.elidedUTF16Range, lineEnd: line.lineEnd,
                      y: line.y, height: line.height, baseline: line.baseline, showsHyphen: line.hyphen != nil)
        }
    }

    /// The lines, in order.
    public let lines: [Line]
    /// Every cluster of the lines, in logical (text) order; elided text has none.
    public let clusters: [Cluster]
    /// Indices into `clusters`, each line's left to right, line after line.
    public let visualOrder: [Int]
}

extension PreparedText {
    /// Places the lines of `layout`, aligned with `alignment` (the style's when nil)
    /// in the width it was laid out at.
    public func placement(of layout: TextLayout, alignment: TextAlignment? = nil) -> TextPlacement {
        place(layout.lines.lazy.map(TextPlacement.LineInput.init), width: layout.width, alignment: alignment ?? style.alignment)
    }

    /// Places `lines` (in text order, not overlapping), aligned with `alignment` (the
    /// style's when nil) in `width` px; with `width` nil, each line's leftmost cluster
    /// is at x = 0.
    public func placement(of lines: [TextPlacement.LineInput], width: Double?,
                          alignment: TextAlignment? = nil) -> TextPlacement {
        place(lines, width: width, alignment: alignment ?? style.alignment)
    }

    /// Generic over the lines so that a layout's are placed without an array of inputs.
    private func place<Lines: Collection>(_ lines: Lines, width: Double?,
                                          alignment: TextAlignment) -> TextPlacement
    where Lines.Element == TextPlacement.LineInput {
        let unitsPerPixel = Double(Units.widthPerPixel)
        var placedLines: [TextPlacement.Line] = []
        var clusters: [TextPlacement.Cluster] = []
        var visualOrder: [Int] = []
        placedLines.reserveCapacity(lines.count)
        // Room for every cluster when the lines cover the text, as a layout's usually do.
        clusters.reserveCapacity(graphemeEnds.count)
        visualOrder.reserveCapacity(graphemeEnds.count)
        // Scratch for one line, logical order.
        var items: [PlacementItem] = []
        for (lineIndex, line) in lines.enumerated() {
            if bidi.isLeftToRight, line.elidedUTF16Range == nil {
                placeLeftToRight(line, index: lineIndex, width: width, alignment: alignment, clusters: &clusters,
                                 visualOrder: &visualOrder, lines: &placedLines)
                continue
            }
            items.removeAll(keepingCapacity: true)
            let paragraphLevel = bidi.paragraphLevel(at: line.utf16Range.lowerBound)
            var pen = 0   // width units from the line's logical start, for tab stops
            var ellipsisPlaced = false
            var grapheme = firstGrapheme(endingAfter: line.utf16Range.lowerBound)
            var start = grapheme == 0 ? 0 : Int(graphemeEnds[grapheme - 1])
            while grapheme < graphemeEnds.count, start < line.utf16Range.upperBound {
                let end = Int(graphemeEnds[grapheme])
                defer { grapheme += 1; start = end }
                if let cut = line.elidedUTF16Range {
                    if start >= cut.lowerBound, !ellipsisPlaced {
                        appendEllipsis(at: cut.lowerBound, line: lineIndex, level: items.last?.level ?? paragraphLevel,
                                       clusters: &clusters, items: &items, pen: &pen)
                        ellipsisPlaced = true
                    }
                    if cut.contains(start) { continue }
                }
                let width = tabStops.isTab(grapheme) ? tabStops.advance(at: pen) : Int(graphemeWidths[grapheme])
                pen += width
                let level = bidi.isLeftToRight ? 0 : bidi.levels[start]
                // A mandatory break ends its line, so the line's last cluster is the break.
                let isBreak = line.lineEnd == .mandatoryBreak && end == line.utf16Range.upperBound
                clusters.append(TextPlacement.Cluster(utf16Range: start..<end, line: lineIndex, left: 0, right: 0,
                                                      isRightToLeft: false, isEllipsis: false, isLineBreak: isBreak))
                items.append(PlacementItem(cluster: clusters.count - 1, grapheme: grapheme, width: width, level: level,
                                           hangs: graphemeHangs[grapheme]))
            }
            if let cut = line.elidedUTF16Range, !ellipsisPlaced {
                appendEllipsis(at: cut.lowerBound, line: lineIndex, level: items.last?.level ?? paragraphLevel,
                               clusters: &clusters, items: &items, pen: &pen)
            }
            shareLigatures(&items)

            // L1: whitespace at the end of the line takes the paragraph's level.
            var trailing = 0
            var index = items.count - 1
            while index >= 0, items[index].hangs {
                items[index].level = paragraphLevel
                trailing += items[index].width
                index -= 1
            }
            let hyphenWidth = line.showsHyphen ? hyphen.width : 0
            let total = items.reduce(0) { $0 + $1.width } + hyphenWidth
            let isRightToLeft = paragraphLevel & 1 == 1
            let lineLeft = Self.lineLeft(total: total, trailing: trailing, lineEnd: line.lineEnd, width: width,
                                         alignment: alignment, isRightToLeft: isRightToLeft)
            // The hyphen ends the line: on its right, or its left when right to left.
            let left = isRightToLeft ? lineLeft + Double(hyphenWidth) / unitsPerPixel : lineLeft

            // Left-to-right text is in visual order already; other text is reordered (L2).
            let order = bidi.isLeftToRight ? nil : BidiLevels.visualOrder(items.map(\.level))
            let firstVisual = visualOrder.count
            // In px from `left`, which may be any finite number (a huge width, centred).
            var x = 0
            for position in items.indices {
                let item = items[order?[position] ?? position]
                clusters[item.cluster].left = left + Double(x) / unitsPerPixel
                x += item.width
                clusters[item.cluster].right = left + Double(x) / unitsPerPixel
                clusters[item.cluster].isRightToLeft = item.level & 1 == 1
                visualOrder.append(item.cluster)
            }
            placedLines.append(TextPlacement.Line(utf16Range: line.utf16Range, left: left, right: left + Double(x) / unitsPerPixel,
                                                  y: line.y, height: line.height, baseline: line.baseline,
                                                  isRightToLeft: isRightToLeft,
                                                  visualClusters: firstVisual..<visualOrder.count,
                                                  hyphenLeft: !line.showsHyphen ? nil
                                                      : isRightToLeft ? lineLeft : left + Double(x) / unitsPerPixel))
        }
        return TextPlacement(lines: placedLines, clusters: clusters, visualOrder: visualOrder)
    }

    /// Places a line of text that needs no reordering: clusters in text order from x = 0,
    /// then moved to where alignment puts the line.
    private func placeLeftToRight(_ line: TextPlacement.LineInput, index: Int, width: Double?, alignment: TextAlignment,
                                  clusters: inout [TextPlacement.Cluster], visualOrder: inout [Int],
                                  lines: inout [TextPlacement.Line]) {
        let pixelsPerUnit = 1 / Double(Units.widthPerPixel)
        let first = clusters.count, firstVisual = visualOrder.count
        var x = 0, trailing = 0
        var grapheme = firstGrapheme(endingAfter: line.utf16Range.lowerBound)
        var start = grapheme == 0 ? 0 : Int(graphemeEnds[grapheme - 1])
        while grapheme < graphemeEnds.count, start < line.utf16Range.upperBound {
            let end = Int(graphemeEnds[grapheme])
            let advance = tabStops.isTab(grapheme) ? tabStops.advance(at: x) : Int(graphemeWidths[grapheme])
            trailing = graphemeHangs[grapheme] ? trailing + advance : 0
            // A mandatory break ends its line, so the line's last cluster is the break.
            let isBreak = line.lineEnd == .mandatoryBreak && end == line.utf16Range.upperBound
            clusters.append(TextPlacement.Cluster(utf16Range: start..<end, line: index, left: Double(x) * pixelsPerUnit,
                                                  right: Double(x + advance) * pixelsPerUnit, isRightToLeft: false,
                                                  isEllipsis: false, isLineBreak: isBreak))
            visualOrder.append(clusters.count - 1)
            x += advance
            grapheme += 1
            start = end
        }
        let hyphenWidth = line.showsHyphen ? hyphen.width : 0
        let left = Self.lineLeft(total: x + hyphenWidth, trailing: trailing, lineEnd: line.lineEnd, width: width,
                                 alignment: alignment, isRightToLeft: false)
        if left != 0 {
            for cluster in first..<clusters.count {
                clusters[cluster].left += left
                clusters[cluster].right += left
            }
        }
        lines.append(TextPlacement.Line(utf16Range: line.utf16Range, left: left, right: left + Double(x) * pixelsPerUnit,
                                        y: line.y, height: line.height, baseline: line.baseline, isRightToLeft: false,
                                        visualClusters: firstVisual..<visualOrder.count,
                                        hyphenLeft: line.showsHyphen ? left + Double(x) * pixelsPerUnit : nil))
    }

    /// Where a line's leftmost cluster goes, in px: `total` width units wide, the last
    /// `trailing` of them hanging whitespace; 0 when `width` is nil (no alignment).
    private static func lineLeft(total: Int, trailing: Int, lineEnd: LineEnd, width: Double?, alignment: TextAlignment,
                                 isRightToLeft: Bool) -> Double {
        guard let width else { return 0 }
        // In px, as Doubles: `width` may be any finite width layout accepts.
        let unitsPerPixel = Double(Units.widthPerPixel)
        let total = Double(total) / unitsPerPixel, trailing = Double(trailing) / unitsPerPixel
        // Soft-wrapped lines hang all their trailing spaces; a paragraph's last line
        // only what overflows (CSS Text 4 "conditionally hang", Blink's LineInfo).
        let hang = lineEnd == .softBreak || lineEnd == .emergencyBreak ? trailing : max(0, min(trailing, total - width))
        let offset = lineOffset(alignment: alignment, isRightToLeft: isRightToLeft, space: width - (total - hang))
        // A right-to-left line's hanging spaces are on its left, before `offset`.
        return offset - (isRightToLeft ? hang : 0)
    }

    /// A cluster on a line being placed.
    struct PlacementItem {
        /// Its index in the placement's clusters, its grapheme's index (-1 for the ellipsis).
        var cluster: Int
        var grapheme: Int
        /// Its width in width units, its bidi level, whether it is whitespace that hangs.
        var width: Int
        var level: UInt8
        var hangs: Bool
    }

    /// Appends the "…" of a truncated line, in place of the text from `offset`.
    private func appendEllipsis(at offset: Int, line: Int, level: UInt8, clusters: inout [TextPlacement.Cluster],
                                items: inout [PlacementItem], pen: inout Int) {
        clusters.append(TextPlacement.Cluster(utf16Range: offset..<offset, line: line, left: 0, right: 0,
                                              isRightToLeft: level & 1 == 1, isEllipsis: true, isLineBreak: false))
        items.append(PlacementItem(cluster: clusters.count - 1, grapheme: -1, width: ellipsis.width, level: level,
                                   hangs: false))
        pen += ellipsis.width
    }

    /// Shares each right-to-left ligature's width evenly among its graphemes when
    /// all of them are on the line, as Chromium's client rects do (see `LigatureSpans`).
    private func shareLigatures(_ items: inout [PlacementItem]) {
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

    /// Blink's LineOffsetForTextAlign: where a line of width `available - space`
    /// starts. A line too wide spills out on its paragraph's end side.
    static func lineOffset(alignment: TextAlignment, isRightToLeft: Bool, space: Double) -> Double {
        let toLeft: Bool? = switch alignment {
        case .natural: !isRightToLeft
        case .end: isRightToLeft
        case .left: true
        case .right: false
        case .center: nil
        }
        switch toLeft {
        case true?: return isRightToLeft ? min(space, 0) : 0
        case false?: return isRightToLeft ? space : max(space, 0)
        case nil: return isRightToLeft && space < 0 ? space : max(space / 2, 0)
        }
    }

    /// The index of the first grapheme cluster that ends after `offset`.
    func firstGrapheme(endingAfter offset: Int) -> Int {
        var low = 0, high = graphemeEnds.count
        while low < high {
            let mid = (low + high) / 2
            if Int(graphemeEnds[mid]) <= offset { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension TabStops {
    /// Whether grapheme `index` is a tab.
    @inline(__always)
    func isTab(_ index: Int) -> Bool {
        guard !graphemes.isEmpty else { return false }
        var low = 0, high = graphemes.count
        while low < high {
            let mid = (low + high) / 2
            if Int(graphemes[mid]) < index { low = mid + 1 } else { high = mid }
        }
        return low < graphemes.count && Int(graphemes[low]) == index
    }
}
