/// Answers the layout negotiation for a piece of text, the way a self-sizing,
/// non-scrolling text view should.
///
/// A text view that grows with its content must not ask for a width: its width is
/// whatever the layout proposes, and its height follows from wrapping at that
/// width. `TextMeasurer` gives exactly those answers:
///
/// - `sizeThatFits(_:)`: for a proposed width, the proposed width and the height of
///   the text wrapped to it, clamped to `minimumHeight...maximumHeight`.
/// - `intrinsicContentSize(currentWidth:)`: no intrinsic width (`noIntrinsicMetric`),
///   and the height at the current width, or no height while that width is unknown.
/// - `idealWidth`: the width the text would take unwrapped, a diagnostic, never a request.
///
/// The container's `lineBreakMode` and `maximumNumberOfLines` apply to every
/// answer: a composer limited to 5 lines stops growing at 5.
///
/// ```swift
/// var composer = try TextMeasurer(text: draft, container: .textView)
/// composer.minimumHeight = 36
/// composer.maximumHeight = 120
/// let size = composer.sizeThatFits(ProposedSize(width: 390))   // width 390, height 36...120
/// ```
///
/// The text is prepared once (see `PreparedText`); every size after that is
/// arithmetic, so re-measuring on rotation or resize is cheap.
public struct TextMeasurer: Sendable {
    /// How the width of `sizeThatFits` is chosen.
    public enum WidthSizing: String, Sendable, Hashable {
        /// Take the proposed width, as a text view does. The default.
        case fill
        /// Take the widest line (plus insets and padding), as UILabel does.
        case hug
    }

    /// The prepared text being measured.
    public private(set) var prepared: PreparedText
    /// Insets, padding and the empty-line convention.
    public let container: TextContainer
    /// The smallest height `sizeThatFits` returns. Default 0.
    /// A value that is not finite and positive means no minimum.
    public var minimumHeight: Double = 0
    /// The largest height `sizeThatFits` returns (the cap of a growing composer). Default ∞.
    /// NaN means no cap; a cap below `minimumHeight` gives `minimumHeight`.
    public var maximumHeight: Double = .infinity
    /// Fill the proposed width or hug the text. Default `.fill`.
    public var widthSizing: WidthSizing = .fill
    /// Pixels per point: sizes are rounded up to whole device pixels. Default 1.
    /// A value that is not finite and positive counts as 1.
    public var displayScale: Double = 1
    /// The container's options for line fitting, validated once, by `init`.
    private let fitting: FittingOptions

    /// Prepares `text` for measuring.
    public init(text: String, fonts: FontSet = .default, style: TextStyle = TextStyle(),
                container: TextContainer = TextContainer()) throws(TextMeasureError) {
        try self.init(prepared: PreparedText(text, fonts: fonts, style: style), container: container)
    }

    /// Measures an already prepared text.
    /// Measures styled text (runs with their own fonts, sizes and spacing, and inline
    /// placeholders; see `AttributedText`).
    ///
    /// ```swift
    /// var bubble = AttributedText("See you at 5 \u{FFFC}", style: TextStyle(fontSize: 15))
    /// try bubble.setAttributes(TextAttributes(placeholder: InlinePlaceholder(width: 36, height: 12, baseline: 10)),
    ///                          utf16Range: 13..<14)
    /// let size = try TextMeasurer(attributedText: bubble).sizeThatFits(ProposedSize(width: 240))
    /// ```
    public init(attributedText: AttributedText, container: TextContainer = TextContainer()) throws(TextMeasureError) {
        try self.init(prepared: PreparedText(attributedText), container: container)
    }

    /// (`consuming`: `init(text:)` hands its prepared text over instead of copying it,
    /// which would retain and then release it.)
    public init(prepared: consuming PreparedText, container: TextContainer = TextContainer()) throws(TextMeasureError) {
        try container.validate()
        // Everything that can throw before the first stored property is set: a throw
        // after it made the initializer build the measurer aside and copy it in.
        fitting = try container.fittingOptions
        self.container = container
        self.prepared = prepared
    }

    /// Edits the text as a composer does on each keystroke, preparing again only the
    /// paragraphs the edit touches (`PreparedText.replacingCharacters(in:with:cache:)`).
    ///
    /// ```swift
    /// var composer = try TextMeasurer(text: "Hello\nworld", container: .textView)
    /// try composer.replaceCharacters(in: composer.prepared.text.endIndex..<composer.prepared.text.endIndex, with: "!")
    /// let size = composer.sizeThatFits(ProposedSize(width: 390))
    /// ```
    ///
    /// - Throws: `TextMeasureError.invalidEditRange` for a range outside the text or
    ///   inside a surrogate pair, `.textTooLong` for a result too long; the text is then unchanged.
    public mutating func replaceCharacters(in range: Range<String.Index>, with replacement: String,
                                           cache: ShapeCache? = .shared) throws(TextMeasureError) {
        prepared = try prepared.replacingCharacters(in: range, with: replacement, cache: cache)
    }

    /// The size that fits a proposal, or `nil` when the proposal has no usable width.
    ///
    /// With a finite width greater than zero: that width (or, with `.hug`, the
    /// widest line plus insets and padding) and the height of the text wrapped
    /// to it, at most `container.maximumNumberOfLines` lines, plus the vertical
    /// insets, clamped to `minimumHeight...maximumHeight`.
    /// The proposed height is not consulted: a growing text view takes the height
    /// its text needs, up to its cap.
    ///
    /// Without a usable width (`nil`, zero, negative, NaN or infinite) there is
    /// nothing to wrap against, and a guess would be wrong: a zero width gives
    /// the height of one line, an infinite one the width of the whole text.
    ///
    /// Nothing else makes it `nil`: fitting can fail only for an invalid width, which
    /// the proposal check rules out, or invalid options, which `init` rejected.
    public func sizeThatFits(_ proposal: ProposedSize) -> Size? {
        // The `try?` drops no error: with the width checked here and the options by init,
        // `lineStack` cannot throw.
        guard let width = proposal.width, width.isFinite, width > 0,
              let lines = try? prepared.lineStack(width: textWidth(forContainerWidth: width),
                                                  options: fitting) else { return nil }
        return size(proposedWidth: width, textHeight: Double(lines.height) / Double(Units.layoutPerPixel),
                    usedWidth: Double(lines.widest) / Double(Units.widthPerPixel))
    }

    /// The lines of `layout(width:)` as line fitting gives them (UTF-16 offsets, no
    /// `String.Index` ranges, which a UTF-8 string has to walk to), with what
    /// `sizeThatFits` answers for a finite `width` greater than zero: one fitting
    /// serves both, as a batch result needs them.
    func fittedLines(width: Double) throws(TextMeasureError) -> (lines: [LineFragment], usedWidth: Double, size: Size) {
        let lines = try prepared.lineFragments(width: checkedTextWidth(forContainerWidth: width), options: fitting)
        var stack = LineStack()
        for line in lines { stack.add(line, of: prepared) }
        let usedWidth = Double(stack.widest) / Double(Units.widthPerPixel)
        return (lines, usedWidth, size(proposedWidth: width, textHeight: Double(stack.height) / Double(Units.layoutPerPixel), usedWidth: usedWidth))
    }

    private func size(proposedWidth width: Double, textHeight: Double, usedWidth: Double) -> Size {
        let height = clamp(textHeight + container.verticalChrome)
        switch widthSizing {
        case .fill:
            return Size(width: width, height: height)
        case .hug:
            return Size(width: min(width, roundUp(usedWidth + container.horizontalChrome)), height: height)
        }
    }

    /// The intrinsic content size of a self-sizing text view whose current width
    /// is `currentWidth`.
    ///
    /// The width is always `noIntrinsicMetric`: the view takes the width layout
    /// gives it and never asks for the width of its unwrapped text. The height is
    /// the height at `currentWidth`, clamped like `sizeThatFits`, or
    /// `noIntrinsicMetric` while the width is not known yet (`currentWidth <= 1`,
    /// as before the first layout pass): measuring against a zero width would
    /// report the height of one line, which is wrong.
    public func intrinsicContentSize(currentWidth: Double) -> Size {
        guard currentWidth.isFinite, currentWidth > 1,
              let size = sizeThatFits(ProposedSize(width: currentWidth)) else {
            return Size(width: noIntrinsicMetric, height: noIntrinsicMetric)
        }
        return Size(width: noIntrinsicMetric, height: size.height)
    }

    /// The width the text would take if it never wrapped, plus insets and padding:
    /// the width the broken composer asked for. A diagnostic; layout should never
    /// be given this as a requirement.
    public var idealWidth: Double { roundUp(prepared.unwrappedWidth + container.horizontalChrome) }

    /// Lays the text out for a view (container) of width `width`: the lines, with
    /// geometry relative to the text's origin inside the inset and padding.
    public func layout(width: Double) throws(TextMeasureError) -> TextLayout {
        try prepared.layout(width: checkedTextWidth(forContainerWidth: width), options: fitting)
    }

    /// The text's width in a container `width` wide, which must be finite and not
    /// negative: checked here, as subtracting the chrome and flooring at 0 would hide
    /// a negative or NaN width.
    private func checkedTextWidth(forContainerWidth width: Double) throws(TextMeasureError) -> Double {
        guard width.isFinite, width >= 0 else { throw .invalidWidth(width) }
        return textWidth(forContainerWidth: width)
    }

    private func textWidth(forContainerWidth width: Double) -> Double {
        max(0, width - container.horizontalChrome)
    }

    private func clamp(_ height: Double) -> Double {
        // Limits are plain properties, so bad values are made harmless here rather than
        // rejected: min/max with a NaN would return NaN or ignore the bound depending on
        // argument order, and an infinite minimum would make every height infinite.
        let lower = minimumHeight.isFinite && minimumHeight > 0 ? minimumHeight : 0
        let upper = maximumHeight.isNaN ? .infinity : max(lower, maximumHeight)
        return min(max(roundUp(height), lower), upper)
    }

    private func roundUp(_ value: Double) -> Double {
        let scale = displayScale.isFinite && displayScale > 0 ? displayScale : 1
        // Tolerate float noise so that an exact 40.0 does not become 40.5 at scale 2.
        let rounded = (value * scale - 1e-9).rounded(.up) / scale
        return rounded.isFinite ? rounded : value   // a scale so large the product overflows
    }
}
