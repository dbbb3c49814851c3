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
        /// How `visualOrder` orders the line's clusters (in the padding after `isRightToLeft`).
        var order: Order = .identity
        /// The line's clusters, left to right: a range of `TextPlacement.visualOrder`.
        public var visualClusters: Range<Int>
        /// Where the hyphen of a line broken at a soft hyphen or hyphenation point starts,
        /// px (after the clusters, or before them on a right-to-left line); nil when the
        /// line shows none.
        public var hyphenLeft: Double? = nil
    }

    /// A line's visual order: its clusters in text order, reversed (a right-to-left
    /// line at one level), or any other permutation, which only `visualOrder` stores.
    enum Order: UInt8, Sendable, Hashable {
        case identity, reversed, stored
    }

    /// A grapheme cluster's box on its line (or the "…" of a truncated line).
    ///
    /// Stored in 32 bytes (offsets and line as `Int32`, as the prepared text keeps
    /// them) rather than 48: placing writes one per cluster.
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

        /// Offsets and line in `Int32`, as the prepared text keeps them (the ellipsis's
        /// offset, which a renderer's elided range may put past `Int32`, is clamped where
        /// it is made).
        init(start: Int32, end: Int32, line: Int32, left: Double, right: Double, isRightToLeft: Bool,
             isEllipsis: Bool, isLineBreak: Bool) {
            self.start = start
            self.end = end
            self.lineIndex = line
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

    /// A layout's lines as placing reads them: each made into a `LineInput` field by
    /// field when read, as a copy of a whole line would retain its text.
    struct LayoutLines: RandomAccessCollection {
        let lines: [TextLayout.Line]
        var startIndex: Int { 0 }
        var endIndex: Int { lines.count }
        subscript(index: Int) -> LineInput { LineInput(lines, at: index) }
    }

    /// The lines, in order.
    public let lines: [Line]
    /// Every cluster of the lines, in logical (text) order; elided text has none.
    public let clusters: [Cluster]
    /// Indices into `clusters`, each line's left to right, line after line.
    public let visualOrder: VisualOrder

    /// `visualOrder`: indices into `clusters`, read as an array's. Lines in text order
    /// or simply reversed (most right-to-left text) are not stored: making that array
    /// costs about a tenth of placing a line of chat. It is stored when any line is
    /// reordered otherwise.
    public struct VisualOrder: RandomAccessCollection, Sendable {
        /// What is kept of the order: one reference at most, released once.
        private enum Storage: Sendable {
            /// Every line in text order.
            case identity
            /// The whole order, when a line is reordered other than by reversing.
            case stored([Int])
            /// The lines, when some are reversed and the others in text order.
            case reversedLines([Line])
        }
        private let storage: Storage
        private let identity: Range<Int>

        init(stored: [Int]?, reversedLines: [Line]?, count: Int) {
            storage = if let stored { .stored(stored) } else if let reversedLines { .reversedLines(reversedLines) }
                      else { .identity }
            identity = 0..<count
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { identity.upperBound }
        public subscript(position: Int) -> Int {
            let reversedLines: [Line]
            switch storage {
            case .stored(let stored): return stored[position]
            case .identity: return identity[position]
            case .reversedLines(let lines): reversedLines = lines
            }
            let position = identity[position]
            // Lines' visual ranges are consecutive: the first ending after `position` holds it.
            let line = reversedLines[reversedLines.partitioningIndex { $0.visualClusters.upperBound > position }]
            return Self.position(position, in: line)
        }

        private static func position(_ position: Int, in line: Line) -> Int {
            let span = line.visualClusters
            return line.order == .reversed ? span.lowerBound + span.upperBound - 1 - position : position
        }

        /// Walks the lines as it goes, so that reading the whole order (drawing every
        /// glyph) costs no search per cluster.
        public struct Iterator: IteratorProtocol {
            private let order: VisualOrder
            private var position = 0
            private var line = 0

            fileprivate init(_ order: VisualOrder) { self.order = order }

            public mutating func next() -> Int? {
                guard position < order.endIndex else { return nil }
                defer { position += 1 }
                switch order.storage {
                case .stored(let stored): return stored[position]
                case .identity: return position
                case .reversedLines(let lines):
                    while lines[line].visualClusters.upperBound <= position { line += 1 }
                    return VisualOrder.position(position, in: lines[line])
                }
            }
        }

        public func makeIterator() -> Iterator { Iterator(self) }
    }
}

extension PreparedText {
    /// Places the lines of `layout`, aligned with `alignment` (the style's when nil)
    /// in the width it was laid out at.
    public func placement(of layout: TextLayout, alignment: TextAlignment? = nil) -> TextPlacement {
        place(TextPlacement.LayoutLines(lines: layout.lines), width: layout.width, alignment: alignment ?? style.alignment,
              onePass: true)
    }

    /// `placement(of:alignment:)`, with `onePass` false placing every line through
    /// rule L2 on its level runs, as no line needs: for tests that the lines placed in
    /// one pass are placed as L2 places them.
    package func placement(of layout: TextLayout, alignment: TextAlignment? = nil, onePass: Bool) -> TextPlacement {
        place(TextPlacement.LayoutLines(lines: layout.lines), width: layout.width, alignment: alignment ?? style.alignment,
              onePass: onePass)
    }

    /// Places `lines` (in text order, not overlapping), aligned with `alignment` (the
    /// style's when nil) in `width` px; with `width` nil, each line's leftmost cluster
    /// is at x = 0.
    public func placement(of lines: [TextPlacement.LineInput], width: Double?,
                          alignment: TextAlignment? = nil) -> TextPlacement {
        place(lines, width: width, alignment: alignment ?? style.alignment, onePass: true)
    }

    /// Generic over the lines so that a layout's are placed without an array of inputs.
    ///
    /// A first pass finds each line's graphemes (a line that starts where the one
    /// before ended, with no search), so that the clusters' array is made at its size
    /// and written in place; a line's reordering scratch is sized for the longest line.
    /// Text with no right-to-left levels skips bidi entirely and stores no visual
    /// order; a line at a single level finds no runs and reorders nothing (it is
    /// reversed when that level is odd).
    private func place<Lines: RandomAccessCollection>(_ lines: Lines, width: Double?, alignment: TextAlignment,
                                                      onePass: Bool) -> TextPlacement
    where Lines.Element == TextPlacement.LineInput, Lines.Index == Int {
        graphemeEnds.withUnsafeBufferPointer { ends in
            // Each line's graphemes: firsts, then ends.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * lines.count) { spans in
                let isLeftToRight = bidi.isLeftToRight
                var total = 0
                // A line that starts where the one before ended, at a grapheme boundary,
                // starts at that line's end: found without a search; so does one at the
                // text's start.
                var previousUpper = 0, nextFirst: Int? = 0
                for (index, line) in zip(0..., lines) {
                    let graphemes = Self.graphemes(in: line.utf16Range, ends: ends,
                                                   first: line.utf16Range.lowerBound == previousUpper ? nextFirst : nil)
                    previousUpper = line.utf16Range.upperBound
                    nextFirst = graphemes.upperBound > 0 && Int(ends[graphemes.upperBound - 1]) == previousUpper
                        ? graphemes.upperBound : nil
                    spans[index] = graphemes.lowerBound
                    spans[lines.count + index] = graphemes.upperBound
                    // A truncated line adds its ellipsis.
                    let count = graphemes.count + (line.elidedUTF16Range == nil ? 0 : 1)
                    total += count
                }
                var placedLines: [TextPlacement.Line] = []
                var visualOrder = TextPlacement.VisualOrder(stored: nil, reversedLines: nil, count: 0)
                var storesOrder = false, reversesLines = false
                placedLines.reserveCapacity(lines.count)
                // Written where they stay. Making the array at its size looks its type up at
                // run time (a generic entry point of the standard library, about 400
                // instructions), which costs less than writing into scratch and copying,
                // and the scratch of a few dozen clusters or more is on the heap (over 1 kB).
                let clusters = [TextPlacement.Cluster](unsafeUninitializedCapacity: total) { written, initialized in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: isLeftToRight ? 0 : total) { visual in
                        let count = withSources { widths, hangs, tabs, bidiLevels, ligatureSpans in
                            var out = PlacementBuffers(clusters: written, visual: visual, ends: ends,
                                                       graphemeWidths: widths, hangs: hangs, tabs: tabs,
                                                       bidiLevels: bidiLevels, ligatureSpans: ligatureSpans,
                                                       width: width, alignment: alignment, onePass: onePass)
                            for (index, line) in zip(0..., lines) {
                                let graphemes = spans[index]..<spans[lines.count + index]
                                if isLeftToRight && line.elidedUTF16Range == nil && onePass {
                                    placedLines.append(placeLeftToRight(line, index: index, graphemes: graphemes,
                                                                        into: &out))
                                } else {
                                    placeReordering(line, index: index, graphemes: graphemes,
                                                    appendingTo: &placedLines, into: &out)
                                }
                            }
                            (storesOrder, reversesLines) = (out.storesOrder, out.reversesLines)
                            return out.clusterCount
                        }
                        initialized = count
                        // Left-to-right text is in visual order: the identity, not stored; nor
                        // is any order made only of lines in text order or reversed.
                        var stored: [Int]?, reversedLines: [TextPlacement.Line]?
                        if !isLeftToRight {
                            if storesOrder {
                                Self.writeVisualOrder(of: placedLines, into: visual)
                                stored = []
                                stored?.reserveCapacity(count)
                                stored?.append(contentsOf: UnsafeBufferPointer(rebasing: visual[..<count]))
                            } else if reversesLines {
                                reversedLines = placedLines
                            }
                        }
                        visualOrder = TextPlacement.VisualOrder(stored: stored, reversedLines: reversedLines,
                                                                count: count)
                    }
                }
                return TextPlacement(lines: placedLines, clusters: clusters, visualOrder: visualOrder)
            }
        }
    }
    /// Writes the visual order of the lines in text order or reversed, which placing
    /// them did not (most text stores none): lines reordered otherwise wrote theirs.
    /// A bidi text's lines have their clusters at the same positions in both orders.
    private static func writeVisualOrder(of lines: [TextPlacement.Line], into visual: UnsafeMutableBufferPointer<Int>) {
        for line in lines where line.order != .stored {
            let span = line.visualClusters, last = span.lowerBound + span.upperBound - 1
            for position in span { visual[position] = line.order == .reversed ? last - position : position }
        }
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

    /// The graphemes a line of `range` places: from the one holding its first code
    /// unit (`first` when known) through the last that starts before its end.
    static func graphemes(in range: Range<Int>, ends: UnsafeBufferPointer<Int32>, first known: Int?) -> Range<Int> {
        let first = known ?? ends.partitioningIndex { Int($0) > range.lowerBound }
        guard first < ends.count, (first == 0 ? 0 : Int(ends[first - 1])) < range.upperBound else {
            return first..<first
        }
        // The last one ends at or after the line's end; each grapheme holding a code
        // unit or more, it is at most the line's length past the first.
        let searched = ends[first..<min(ends.count, first &+ max(range.count, 1))]
        return first..<min(searched.partitioningIndex { Int($0) >= range.upperBound } + 1, ends.count)
    }
}
