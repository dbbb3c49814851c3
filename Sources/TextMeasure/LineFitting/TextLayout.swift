/// A prepared text laid out at one width: its lines and their geometry.
///
/// Coordinates are in pixels, relative to the top-left of the text (inside any
/// container inset and line fragment padding).
public struct TextLayout: Sendable {
    /// One laid-out line.
    public struct Line: Sendable, Hashable {
        /// The line's text, as a range of the prepared string. A line ended by a
        /// newline includes the newline.
        public var range: Range<String.Index>
        /// The same range in UTF-16 code units (NSRange's and JavaScript's offsets).
        public var utf16Range: Range<Int>
        /// Width of the line's content; trailing spaces hang and do not count.
        public var width: Double
        /// Distance from the top of the text to the line's top.
        public var y: Double
        /// The line's height.
        public var height: Double
        /// Distance from the top of the text to the line's baseline.
        public var baseline: Double
        /// Why the line ended here.
        public var lineEnd: LineEnd
    }

    /// The lines, in order.
    public let lines: [Line]
    /// The width the text was laid out in (the available width, after padding).
    public let width: Double
    /// Height of all lines together.
    public let height: Double
    /// Width of the widest line.
    public let usedWidth: Double
}

extension PreparedText {
    /// Lays the text out in lines no wider than `width` pixels.
    ///
    /// This is arithmetic over the prepared widths: it does no shaping and no
    /// segmentation, and allocates only the line array.
    ///
    /// - Parameters:
    ///   - width: the width available to the text, finite and not negative.
    ///   - emptyLines: whether empty text and a final newline get a line.
    /// - Throws: `TextMeasureError.invalidWidth` for a NaN, infinite or negative width.
    public func layout(width: Double, emptyLines: EmptyLineConvention = .textView) throws(TextMeasureError) -> TextLayout {
        let fragments = try lineFragments(width: width, emptyLines: emptyLines)
        var lines: [TextLayout.Line] = []
        lines.reserveCapacity(fragments.count)
        let utf16 = text.utf16
        var index = utf16.startIndex
        var offset = 0
        var y = 0
        var widest = 0
        for fragment in fragments {
            let start = index
            index = utf16.index(index, offsetBy: fragment.end - offset)
            offset = fragment.end
            let box = lineBox(fonts: fragment.fonts)
            lines.append(TextLayout.Line(range: start..<index, utf16Range: fragment.start..<fragment.end,
                                         width: Double(fragment.width) / Double(Segment.unitsPerPixel), y: Double(y) / 64,
                                         height: Double(box.height) / 64, baseline: Double(y + box.above) / 64,
                                         lineEnd: fragment.lineEnd))
            y += box.height
            widest = max(widest, fragment.width)
        }
        return TextLayout(lines: lines, width: width, height: Double(y) / 64, usedWidth: Double(widest) / Double(Segment.unitsPerPixel))
    }

    /// The line fragments at `width`: the arithmetic core of layout, shared by
    /// `layout(width:)` and `TextMeasurer`'s sizing.
    func lineFragments(width: Double, emptyLines: EmptyLineConvention) throws(TextMeasureError) -> [LineFragment] {
        guard width.isFinite, width >= 0 else { throw .invalidWidth(width) }
        // The box's width in 1/64 px (a browser's layout unit), floored: a line fits
        // when it is no wider, give or take the browser rules' tolerance.
        var box = Int(min(width * 64, Double(Int.max / 4 / Segment.unitsPerPixel)).rounded(.down))
        if style.lineBreakRules == .browser { box += BrowserTailoring.fitTolerance }
        return GreedyLineFitter(prepared: self, width: box * (Segment.unitsPerPixel / 64),
                                addsEmptyLastLine: emptyLines == .textView).fit()
    }

    /// The height of `fragments` stacked, in 1/64 px.
    func height(of fragments: [LineFragment]) -> Int {
        fragments.reduce(0) { $0 + lineBox(fonts: $1.fonts).height }
    }

    /// The width of the text on one line per paragraph (no soft wrapping), in
    /// pixels: what an unconstrained view would ask for.
    public var unwrappedWidth: Double {
        var widest = 0, line = 0, trailing = 0
        for segment in segments {
            line += trailing + segment.width
            trailing = segment.trailingWidth
            if segment.isMandatoryBreak {
                widest = max(widest, line)
                line = 0; trailing = 0
            }
        }
        return Double(max(widest, line)) / Double(Segment.unitsPerPixel)
    }
}
