/// The box text is laid out in, with TextKit's names and meanings.
///
/// `textContainerInset` (UITextView's) is the margin between the view's edges and
/// the text container; `lineFragmentPadding` (NSTextContainer's) is further inset
/// at both ends of every line. The width available to the text is therefore
/// `width - inset.left - inset.right - 2 * lineFragmentPadding`.
public struct TextContainer: Sendable, Hashable {
    /// Margin around the text container. Default zero.
    public var textContainerInset: EdgeInsets
    /// Inset at the start and end of each line. Default 0 (UITextView's container uses 5).
    public var lineFragmentPadding: Double
    /// Whether empty text and a final newline get a line of their own.
    public var emptyLines: EmptyLineConvention
    /// How a line too long for the container wraps, clips or truncates. Default
    /// `.byWordWrapping`. See `LineBreakMode` for how it combines with a line limit.
    public var lineBreakMode: LineBreakMode
    /// The most lines laid out (and measured: a composer capped at 5 lines stops
    /// growing at 5); 0, the default, for no limit. Not negative.
    public var maximumNumberOfLines: Int

    public init(textContainerInset: EdgeInsets = .zero, lineFragmentPadding: Double = 0,
                emptyLines: EmptyLineConvention = .textView, lineBreakMode: LineBreakMode = .byWordWrapping,
                maximumNumberOfLines: Int = 0) {
        self.textContainerInset = textContainerInset
        self.lineFragmentPadding = lineFragmentPadding
        self.emptyLines = emptyLines
        self.lineBreakMode = lineBreakMode
        self.maximumNumberOfLines = maximumNumberOfLines
    }

    /// UITextView's defaults: an inset of 8 above and below, and 5 px of line fragment padding.
    public static let textView = TextContainer(textContainerInset: EdgeInsets(top: 8, left: 0, bottom: 8, right: 0),
                                               lineFragmentPadding: 5)

    /// Horizontal space the container takes besides the text.
    var horizontalChrome: Double { textContainerInset.left + textContainerInset.right + 2 * lineFragmentPadding }
    /// Vertical space the container takes besides the text.
    var verticalChrome: Double { textContainerInset.top + textContainerInset.bottom }

    /// Insets and line fragment padding the library accepts, in pixels: bounded so that
    /// a size (text plus insets) is always a finite number.
    public static let insetRange: ClosedRange<Double> = Limits.inset

    func validate() throws(TextMeasureError) {
        // One check at a time, not a loop over an array of them: every measurer made runs this.
        func check(_ name: String, _ value: Double) throws(TextMeasureError) {
            guard value.isFinite, Self.insetRange.contains(value) else { throw .invalidInset(name: name, value: value) }
        }
        try check("inset.top", textContainerInset.top)
        try check("inset.left", textContainerInset.left)
        try check("inset.bottom", textContainerInset.bottom)
        try check("inset.right", textContainerInset.right)
        try check("lineFragmentPadding", lineFragmentPadding)
        _ = try fittingOptions
    }

    /// What line fitting takes from the container, validated (a negative line limit throws).
    package var fittingOptions: FittingOptions {
        get throws(TextMeasureError) {
            try FittingOptions(emptyLines: emptyLines, lineBreakMode: lineBreakMode,
                               maximumNumberOfLines: maximumNumberOfLines)
        }
    }
}
