/// A prepared text laid out at one width: its lines and their geometry.
///
/// Coordinates are in pixels, relative to the top-left of the text (inside any
/// container inset and line fragment padding).
public struct TextLayout: Sendable {
    /// One laid-out line.
    public struct Line: Sendable, Hashable {
        /// The line's text, as a range of the prepared string. A line ended by a
        /// newline includes the newline; a truncated line includes what "…" replaces.
        public var range: Range<String.Index>
        /// The same range in UTF-16 code units (NSRange's and JavaScript's offsets).
        public var utf16Range: Range<Int>
        /// The line's text: the prepared string's characters in `range`.
        public var text: Substring
        /// For a truncated line, the part of `range` that "…" replaces; the ellipsis
        /// is drawn at its start. Empty when the ellipsis only marks that text after
        /// the line is hidden. `nil` for a line shown whole.
        public var elidedRange: Range<String.Index>?
        /// The same range in UTF-16 code units.
        public var elidedUTF16Range: Range<Int>?
        /// Width of the line as drawn: its content (trailing spaces hang and do not
        /// count), and the ellipsis if it has one.
        public var width: Double
        /// Distance from the top of the text to the line's top.
        public var y: Double
        /// The line's height.
        public var height: Double
        /// Distance from the top of the text to the line's baseline.
        public var baseline: Double
        /// Why the line ended here.
        public var lineEnd: LineEnd
        /// The hyphen drawn at the line's end when it breaks at a soft hyphen (U+00AD):
        /// U+2010, or U+002D when the primary font has no U+2010. Its width is in `width`.
        /// `nil` for a line that ends anywhere else.
        public var hyphen: Unicode.Scalar? = nil
        /// Whether `TextStyle.textWrap` (`balance`, `pretty`) chose where this line
        /// breaks, rather than greedy fitting.
        public var isRewrapped = false

        /// The text as the line shows it: `text` with the elided part replaced by "…",
        /// and the hyphen at a soft hyphen's break.
        ///
        /// ```swift
        /// line.displayText   // "Meet me at the…" for a tail-truncated line
        /// ```
        public var displayText: String {
            var shown: String
            if let elided = elidedRange {
                shown = String(text[..<elided.lowerBound])
                shown.unicodeScalars.append(LineBreakMode.ellipsis)
                shown += text[elided.upperBound...]
            } else {
                shown = String(text)
            }
            if let hyphen { shown.unicodeScalars.append(hyphen) }
            return shown
        }
    }

    /// The lines, in order.
    public let lines: [Line]
    /// The width the text was laid out in (the available width, after padding).
    public let width: Double
    /// Height of all lines together.
    public let height: Double
    /// Width of the widest line. With `.byClipping` it may exceed `width`: the
    /// renderer clips those lines.
    public let usedWidth: Double
    /// The text the lines cover: from the start of the text to the end of the last
    /// line. A line limit hides the text after it; inside it, truncated lines
    /// replace their `elidedRange` with "…".
    public let visibleRange: Range<String.Index>
    /// The same range in UTF-16 code units.
    public let visibleUTF16Range: Range<Int>
    /// Whether any of the text is not shown: hidden after the last line by the line
    /// limit, or elided by a truncating line-break mode.
    public let isTruncated: Bool
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
    ///   - lineBreakMode: how lines too long for `width` wrap, clip or truncate.
    ///   - maximumNumberOfLines: the most lines to lay out; 0 for no limit.
    /// - Throws: `TextMeasureError.invalidWidth` for a NaN, infinite or negative
    ///   width, `.invalidOption` for a negative line limit.
    public func layout(width: Double, emptyLines: EmptyLineConvention = .textView,
                       lineBreakMode: LineBreakMode = .byWordWrapping,
                       maximumNumberOfLines: Int = 0) throws(TextMeasureError) -> TextLayout {
        try layout(width: width, options: FittingOptions(emptyLines: emptyLines, lineBreakMode: lineBreakMode,
                                                         maximumNumberOfLines: maximumNumberOfLines))
    }

    /// `layout(width:emptyLines:lineBreakMode:maximumNumberOfLines:)` with the options as one value.
    package func layout(width: Double, options: FittingOptions) throws(TextMeasureError) -> TextLayout {
        let fragments = try lineFragments(width: width, options: options)
        let text = self.text
        return Self.withUTF8(text) { bytes in
            var lines: [TextLayout.Line] = []
            lines.reserveCapacity(fragments.count)
            let layoutPerPixel = Double(Units.layoutPerPixel)
            // Line ends ascend: one forward walk over the UTF-8 finds them all.
            var cursor = UTF16Cursor(bytes)
            let utf8 = text.utf8
            var index = text.startIndex
            var offset = 0
            var y = 0
            var widest = 0
            for fragment in fragments {
                let start = index
                // What "…" replaces lies inside the line: the offsets asked for still ascend.
                var elided: Range<String.Index>?
                if let range = fragment.elided {
                    let lower = utf8.index(utf8.startIndex, offsetBy: cursor.utf8Offset(reaching: range.lowerBound))
                    elided = lower..<utf8.index(utf8.startIndex, offsetBy: cursor.utf8Offset(reaching: range.upperBound))
                }
                index = utf8.index(utf8.startIndex, offsetBy: cursor.utf8Offset(reaching: fragment.end))
                offset = fragment.end
                let box = lineBox(fonts: fragment.fonts)
                lines.append(TextLayout.Line(range: start..<index, utf16Range: fragment.start..<fragment.end,
                                             text: text[start..<index], elidedRange: elided, elidedUTF16Range: fragment.elided,
                                             width: Double(fragment.width) / Double(Units.widthPerPixel), y: Double(y) / layoutPerPixel,
                                             height: Double(box.height) / layoutPerPixel,
                                             baseline: Double(y + box.above) / layoutPerPixel,
                                             lineEnd: fragment.lineEnd, hyphen: fragment.hyphenated ? hyphen.scalar : nil,
                                             isRewrapped: fragment.rewrapped))
                y += box.height
                widest = max(widest, fragment.width)
            }
            return TextLayout(lines: lines, width: width, height: Double(y) / layoutPerPixel,
                              usedWidth: Double(widest) / Double(Units.widthPerPixel),
                              visibleRange: text.startIndex..<index, visibleUTF16Range: 0..<offset,
                              isTruncated: isTruncated(by: fragments))
        }
    }

    /// Whether `lines`, this text's fitted lines, elide any of it or leave some unshown.
    package func isTruncated(by lines: [LineFragment]) -> Bool {
        (lines.last?.end ?? 0) < utf16Count || lines.contains { $0.elided != nil }
    }

    /// The line fragments at `width`: the arithmetic core of layout, shared by
    /// `layout(width:)` and `TextMeasurer`'s sizing.
    package func lineFragments(width: Double, options: FittingOptions) throws(TextMeasureError) -> [LineFragment] {
        let fitter = try lineFitter(width: width, options: options)
        // Balance and pretty choose among word breaks; with other modes or a line limit, greedy.
        var fragments = style.textWrap == .wrap || options.lineBreakMode != .byWordWrapping
            || options.maximumNumberOfLines != 0
            ? fitter.fit(self)
            : ScoreLineFitter(greedy: fitter, textWrap: style.textWrap, boxWidth: widthUnits(width),
                              fontSize: style.fontSize).fit(self)
        guard let truncation = options.lineBreakMode.truncation else { return fragments }

        let fixed = widthUnits(width)
        let truncator = LineTruncator(prepared: self, width: fixed, position: truncation)
        if options.maximumNumberOfLines == 0 {
            for i in fragments.indices where fragments[i].width > fixed {
                fragments[i] = truncator.truncate(fragments[i], hidesFollowingText: false)
            }
        } else if fragments.count == fitter.lineLimit, let last = fragments.last, last.end < utf16Count {
            // The text goes on past the last line: it shows the rest of its paragraph, truncated.
            fragments[fragments.count - 1] = truncator.truncate(last, hidesFollowingText: true)
        }
        return fragments
    }

    /// The stacked height and widest line at `width`, as `lineFragments` would give
    /// them, without keeping the lines (unless truncation has to see them).
    package func lineStack(width: Double, options: FittingOptions) throws(TextMeasureError) -> LineStack {
        var stack = LineStack()
        if options.lineBreakMode.truncation == nil, style.textWrap == .wrap {
            try lineFitter(width: width, options: options).fit(self, into: &stack)
        } else {
            for fragment in try lineFragments(width: width, options: options) { stack.add(fragment, of: self) }
        }
        return stack
    }

    /// The fitter for a layout at `width`, before any truncation: where every width
    /// given to layout or sizing is checked.
    private func lineFitter(width: Double, options: FittingOptions) throws(TextMeasureError) -> GreedyLineFitter {
        guard width.isFinite, width >= 0 else { throw .invalidWidth(width) }
        let lineBreakMode = options.lineBreakMode, maximumNumberOfLines = options.maximumNumberOfLines
        let fixed = widthUnits(width)
        // Clipping, and truncation without a line limit, keep each paragraph on one line.
        let wraps = lineBreakMode != .byClipping && (lineBreakMode.truncation == nil || maximumNumberOfLines > 0)
        // Word wrapping under the browser rules fits as Blink does, one layout unit over.
        let tolerance = lineBreakMode == .byWordWrapping && style.lineBreakRules == .browser
            ? BrowserTailoring.fitTolerance * Units.widthPerLayoutUnit : 0
        return GreedyLineFitter(width: wraps ? fixed + tolerance : GreedyLineFitter.unbounded,
                                wrapping: lineBreakMode == .byCharWrapping ? .characters : .words,
                                addsEmptyLastLine: options.emptyLines == .textView,
                                lineLimit: maximumNumberOfLines == 0 ? Int.max : maximumNumberOfLines,
                                breaksLongWords: style.overflowWrap != .normal)
    }

    /// A box `width` px wide in width units (`Units.widthPerPixel`), floored to
    /// a layout unit (1/64 px) as a browser's are: a line fits when it is no wider.
    /// `width` is finite and not negative (`lineFitter` checked it): converting to an
    /// integer floors it, with no call to libm's `floor` on every layout.
    func widthUnits(_ width: Double) -> Int {
        let unitsPerLayoutUnit = Units.widthPerLayoutUnit
        return Int(min(width * Double(Units.layoutPerPixel), Double(GreedyLineFitter.unbounded / unitsPerLayoutUnit)))
            * unitsPerLayoutUnit
    }

    /// The width of the text on one line per paragraph (no soft wrapping), in
    /// pixels: what an unconstrained view would ask for. Fitted like any layout
    /// (tab stops, hanging whitespace, line edges), at a width no line reaches.
    public var unwrappedWidth: Double {
        var lines = LineStack()
        GreedyLineFitter(width: GreedyLineFitter.unbounded, wrapping: .words, addsEmptyLastLine: false,
                         lineLimit: Int.max).fit(self, into: &lines)
        return Double(lines.widest) / Double(Units.widthPerPixel)
    }
}
