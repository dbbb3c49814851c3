import TextMeasure

/// Text laid out in a view, as a picture to draw: the view's frame, the text area
/// inside its insets and padding, and the lines.
///
/// ```swift
/// let measurer = try TextMeasurer(text: draft, container: .textView)
/// let panel = try TextPanel(measurer: measurer, width: 390)
/// try PanelRenderer.render([panel], scale: 2).writePNG(to: "composer.png")
/// ```
public struct TextPanel: Sendable {
    /// One line, in the text area's coordinates (px, y down from the text's top).
    public struct Line: Sendable, Hashable {
        /// The line's text as UTF-16 offsets.
        public var utf16Range: Range<Int>
        public var y: Double
        public var height: Double
        public var baseline: Double
        /// Width of the line as drawn, without hanging trailing spaces.
        public var width: Double
        /// For a truncated line, the part of `utf16Range` drawn as "…".
        public var elidedUTF16Range: Range<Int>?
        /// Why the line ended (a paragraph's last line hangs its trailing spaces differently).
        public var lineEnd: LineEnd
        /// Whether the line ends at a hyphenation point and shows a hyphen (counted in `width`).
        public var showsHyphen = false

        public init(utf16Range: Range<Int>, y: Double, height: Double, baseline: Double, width: Double,
                    elidedUTF16Range: Range<Int>? = nil, lineEnd: LineEnd = .softBreak, showsHyphen: Bool = false) {
            self.showsHyphen = showsHyphen
            self.utf16Range = utf16Range
            self.y = y
            self.height = height
            self.baseline = baseline
            self.width = width
            self.elidedUTF16Range = elidedUTF16Range
            self.lineEnd = lineEnd
        }
    }

    /// The text, shaped, with its fonts and style.
    public var prepared: PreparedText
    public var lines: [Line]
    /// The view's size: the box drawn around the text.
    public var frame: Size
    /// Where the text area starts inside the frame: inset plus line fragment padding.
    public var textLeft: Double
    public var textTop: Double
    /// The width lines wrap at.
    public var textWidth: Double

    public init(prepared: PreparedText, lines: [Line], frame: Size, textLeft: Double, textTop: Double,
                textWidth: Double) {
        self.prepared = prepared
        self.lines = lines
        self.frame = frame
        self.textLeft = textLeft
        self.textTop = textTop
        self.textWidth = textWidth
    }

    /// `measurer`'s text in a view proposed `width` px: the frame `sizeThatFits`
    /// answers and the lines `layout(width:)` gives.
    public init(measurer: TextMeasurer, width: Double) throws(TextMeasureError) {
        guard let frame = measurer.sizeThatFits(ProposedSize(width: width)) else { throw .invalidWidth(width) }
        let layout = try measurer.layout(width: width)
        let container = measurer.container
        self.init(prepared: measurer.prepared,
                  lines: layout.lines.map {
                      Line(utf16Range: $0.utf16Range, y: $0.y, height: $0.height, baseline: $0.baseline, width: $0.width,
                           elidedUTF16Range: $0.elidedUTF16Range, lineEnd: $0.lineEnd, showsHyphen: $0.hyphen != nil)
                  },
                  frame: frame,
                  textLeft: container.textContainerInset.left + container.lineFragmentPadding,
                  textTop: container.textContainerInset.top,
                  textWidth: layout.width)
    }

    /// The height the picture needs: the frame, or the lines when they overflow it
    /// (a height capped by `maximumHeight`).
    var contentHeight: Double {
        max(frame.height, textTop + (lines.last.map { $0.y + $0.height } ?? 0))
    }
}
