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
    ///
    /// Stored in 32 bytes (offsets and line as `Int32`, as the prepared text keeps
    /// them) rather than 48: placing writes one per cluster, then copies them out.
    public struct Cluster: Sendable, Hashable {
        private var start: Int32, end: Int32
        private var lineIndex: Int32
        /// Whether it is drawn right to left (an odd bidi level).
        public var isRightToLeft: Bool
        /// Whether it is the ellipsis of a truncated line.
        public var isEllipsis: Bool
        /// Whether it ends a line with a line break (LF, CR LF, U+2029 and the like).
        public var isLineBreak: Bool
        /// Its left and right edges, px from the text's left edge.
        public var left: Double
        public var right: Double

        /// The cluster's text; empty for the ellipsis, at the offset it replaces text from.
        public var utf16Range: Range<Int> {
            get { Int(start)..<Int(end) }
            set { (start, end) = (Int32(clamping: newValue.lowerBound), Int32(clamping: newValue.upperBound)) }
        }

        /// The index of its line.
        public var line: Int {
            get { Int(lineIndex) }
            set { lineIndex = Int32(clamping: newValue) }
        }

        /// Offsets beyond `Int32` (only a renderer's elided range can be) are clamped.
        init(start: Int, end: Int, line: Int, left: Double, right: Double, isRightToLeft: Bool, isEllipsis: Bool,
             isLineBreak: Bool) {
            self.start = Int32(clamping: start)
            self.end = Int32(clamping: end)
            self.lineIndex = Int32(clamping: line)
            self.isRightToLeft = isRightToLeft
            self.isEllipsis = isEllipsis
            self.isLineBreak = isLineBreak
            self.left = left
            self.right = right
        }
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
            self.init([line], at: 0)
        }

        /// Line `index` of `lines`, read in place.
        init(_ lines: [TextLayout.Line], at index: Int) {
            self.init(utf16Range: lines[index].utf16Range, elidedUTF16Range: lines[index].elidedUTF16Range,
                      lineEnd: lines[index].lineEnd, y: lines[index].y, height: lines[index].height,
                      baseline: lines[index].baseline, showsHyphen: lines[index].hyphen != nil)
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
        // By index, field by field: a copy of a whole line would retain its text.
        place(layout.lines.indices.lazy.map { TextPlacement.LineInput(layout.lines, at: $0) }, width: layout.width,
              alignment: alignment ?? style.alignment)
    }

    /// Places `lines` (in text order, not overlapping), aligned with `alignment` (the
    /// style's when nil) in `width` px; with `width` nil, each line's leftmost cluster
    /// is at x = 0.
    public func placement(of lines: [TextPlacement.LineInput], width: Double?,
                          alignment: TextAlignment? = nil) -> TextPlacement {
        place(lines, width: width, alignment: alignment ?? style.alignment)
    }

    /// Generic over the lines so that a layout's are placed without an array of inputs.
    ///
    /// Clusters are written through pointers into arrays sized once (appending checked
    /// the array's uniqueness per cluster, most of the cost); a line's scratch lives on
    /// the stack. Text with no right-to-left levels skips bidi entirely, and so does a
    /// line at a single level (reversed when that level is odd).
    private func place<Lines: Collection>(_ lines: Lines, width: Double?,
                                          alignment: TextAlignment) -> TextPlacement
    where Lines.Element == TextPlacement.LineInput {
        // A line holds at most a cluster per code unit it covers, one it starts inside
        // and its ellipsis.
        var bound = 0, lineBound = 0, needsItems = !bidi.isLeftToRight
        for line in lines {
            let units = max(0, min(line.utf16Range.upperBound, utf16Count) - max(line.utf16Range.lowerBound, 0)) + 2
            bound += units
            lineBound = max(lineBound, units)
            needsItems = needsItems || line.elidedUTF16Range != nil
        }
        var placedLines: [TextPlacement.Line] = []
        placedLines.reserveCapacity(lines.count)
        // Written into scratch, then copied into arrays made by `reserveCapacity`: an array
        // made at its size (`Array(repeating:count:)`, `Array(unsafeUninitializedCapacity:)`)
        // looks its type up at run time on every call, which cost more than the copy.
        var clusters: [TextPlacement.Cluster] = [], visualOrder: [Int] = []
        withUnsafeTemporaryAllocation(of: TextPlacement.Cluster.self, capacity: bound) { written in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: bound) { visual in
                withUnsafeTemporaryAllocation(of: PlacementItem.self, capacity: needsItems ? lineBound : 0) { items in
                    // A line's runs' starts and their visual order.
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: needsItems ? 2 * lineBound : 0) { runs in
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: needsItems ? lineBound : 0) { levels in
                            graphemeEnds.withUnsafeBufferPointer { ends in
                                graphemeWidths.withUnsafeBufferPointer { widths in
                                    graphemeHangs.withUnsafeBufferPointer { hangs in
                                        let half = runs.count / 2
                                        var out = PlacementBuffers(clusters: written, visual: visual, items: items,
                                                                   levels: levels,
                                                                   runStarts: .init(rebasing: runs[..<half]),
                                                                   order: .init(rebasing: runs[half...]), ends: ends,
                                                                   widths: widths, hangs: hangs, width: width,
                                                                   alignment: alignment)
                                        for (index, line) in lines.enumerated() {
                                            placedLines.append(bidi.isLeftToRight && line.elidedUTF16Range == nil
                                                               ? placeLeftToRight(line, index: index, into: &out)
                                                               : placeReordering(line, index: index, into: &out))
                                        }
                                        clusters.reserveCapacity(out.clusterCount)
                                        clusters.append(contentsOf: UnsafeBufferPointer(rebasing: written[..<out.clusterCount]))
                                        // Left-to-right text is in visual order: the identity.
                                        if bidi.isLeftToRight {
                                            for index in 0..<out.clusterCount { visual[index] = index }
                                            out.visualCount = out.clusterCount
                                        }
                                        visualOrder.reserveCapacity(out.visualCount)
                                        visualOrder.append(contentsOf: UnsafeBufferPointer(rebasing: visual[..<out.visualCount]))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return TextPlacement(lines: placedLines, clusters: clusters, visualOrder: visualOrder)
    }

    /// Where a line's leftmost cluster goes, in px: `total` width units wide, the last
    /// `trailing` of them hanging whitespace; 0 when `width` is nil (no alignment).
    static func lineLeft(total: Int, trailing: Int, lineEnd: LineEnd, width: Double?, alignment: TextAlignment,
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
