/// Text with styled runs: a base `TextStyle` and font set, and runs over ranges of
/// the text that override them (TextKit's `NSAttributedString`, CSS `<span>`s).
///
/// Runs are kept sorted and may not overlap; text outside every run takes the base
/// style. A run's range is in UTF-16 code units (`utf16Range`), which is what JSON
/// and most editors count; `setAttributes(_:range:)` takes a `String.Index` range.
///
/// ```swift
/// var message = AttributedText("Hi @ana, see code() \u{FFFC}", style: TextStyle(fontSize: 15))
/// let mention = message.text.firstRange(of: "@ana")!
/// try message.setAttributes(TextAttributes(letterSpacing: 0.5), range: mention)
/// try message.setAttributes(TextAttributes(fontSize: 13), utf16Range: 13..<19)
/// try message.setAttributes(TextAttributes(placeholder: InlinePlaceholder(width: 40, height: 12, baseline: 10)),
///                           utf16Range: 20..<21)
/// ```
public struct AttributedText: Sendable {
    /// One styled run: the attributes over a range of UTF-16 code units.
    public struct Run: Sendable {
        public var utf16Range: Range<Int>
        public var attributes: TextAttributes
    }

    /// The text as given (or as `replaceCharacters` left it).
    public internal(set) var text: String
    /// The style of text outside every run, and what runs override.
    public var style: TextStyle
    /// The font set of text outside every run.
    public var fonts: FontSet
    /// The runs, sorted by start, not overlapping.
    public internal(set) var runs: [Run] = []

    public init(_ text: String, style: TextStyle = TextStyle(), fonts: FontSet = .default) {
        self.text = text
        self.style = style
        self.fonts = fonts
    }

    /// Applies `attributes` to `utf16Range`, which must lie in the text, not split a
    /// surrogate pair, and not overlap a run already set.
    ///
    /// - Throws: `TextMeasureError.invalidRun` naming the run's place and what is wrong.
    public mutating func setAttributes(_ attributes: TextAttributes, utf16Range: Range<Int>) throws(TextMeasureError) {
        let index = runs.partitioningIndex { $0.utf16Range.lowerBound >= utf16Range.lowerBound }
        let count = text.utf16.count
        guard utf16Range.lowerBound >= 0, utf16Range.upperBound <= count else {
            throw .invalidRun(index: index, reason: "range \(utf16Range) is outside the text (0..<\(count) UTF-16 units)")
        }
        guard !utf16Range.isEmpty else { throw .invalidRun(index: index, reason: "range \(utf16Range) is empty") }
        let found = Self.offsets(utf16Range, in: text)
        if let offset = found.splitOffset {
            throw .invalidRun(index: index, reason: "offset \(offset) splits a surrogate pair")
        }
        if index > 0, runs[index - 1].utf16Range.upperBound > utf16Range.lowerBound {
            throw .invalidRun(index: index, reason: "range \(utf16Range) overlaps \(runs[index - 1].utf16Range)")
        }
        if index < runs.count, runs[index].utf16Range.lowerBound < utf16Range.upperBound {
            throw .invalidRun(index: index, reason: "range \(utf16Range) overlaps \(runs[index].utf16Range)")
        }
        if attributes.placeholder != nil {
            guard utf16Range.count == 1, found.startsWithObject else {
                throw .invalidRun(index: index, reason: "a placeholder must cover exactly one U+FFFC")
            }
        }
        do {
            try attributes.validate()
        } catch {
            throw .invalidRun(index: index, reason: error.description)
        }
        // Room for a few runs at the first (grown one at a time, the array was made three
        // times for three runs), and appended when last, as runs are mostly set in order.
        if runs.isEmpty { runs.reserveCapacity(4) }
        let run = Run(utf16Range: utf16Range, attributes: attributes)
        if index == runs.count { runs.append(run) } else { runs.insert(run, at: index) }
    }

    /// For `range`, inside `text`: its first offset that splits a surrogate pair, and
    /// whether it starts with U+FFFC. One forward walk of the UTF-8 to both offsets (the
    /// UTF-16 view stepped to each a code unit at a time, through its generic path).
    private static func offsets(_ range: Range<Int>, in text: String) -> (splitOffset: Int?, startsWithObject: Bool) {
        func find(_ bytes: UnsafeBufferPointer<UInt8>) -> (splitOffset: Int?, startsWithObject: Bool) {
            var cursor = UTF16Cursor(bytes)
            let lower = cursor.utf8Offset(reaching: range.lowerBound)
            // Past the offset asked for: it fell inside a surrogate pair.
            let splitsLower = cursor.utf16Offset != range.lowerBound
            let startsWithObject = lower + 2 < bytes.count
                && bytes[lower] == 0xEF && bytes[lower + 1] == 0xBF && bytes[lower + 2] == 0xBC   // U+FFFC
            _ = cursor.utf8Offset(reaching: range.upperBound)
            let split = splitsLower ? range.lowerBound : cursor.utf16Offset != range.upperBound ? range.upperBound : nil
            return (split, startsWithObject)
        }
        if let found = text.utf8.withContiguousStorageIfAvailable(find) { return found }
        var copy = text
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable(find)!
    }

    /// Applies `attributes` to `range`, a range of indices of `text`.
    public mutating func setAttributes(_ attributes: TextAttributes, range: Range<String.Index>) throws(TextMeasureError) {
        let units = text.utf16
        let start = units.distance(from: units.startIndex, to: range.lowerBound)
        let end = units.distance(from: units.startIndex, to: range.upperBound)
        try setAttributes(attributes, utf16Range: start..<end)
    }

    /// The style of `run` (`nil`: the base style): the base with the run's overrides,
    /// and its fonts instanced for it (`FontSet.instances(for:)`).
    package func style(of run: Run?) -> (style: TextStyle, fonts: FontSet) {
        guard let attributes = run?.attributes else { return (style, fonts.instances(for: style)) }
        var style = self.style
        if let size = attributes.fontSize { style.fontSize = size }
        if let spacing = attributes.letterSpacing { style.letterSpacing = spacing }
        if let spacing = attributes.wordSpacing { style.wordSpacing = spacing }
        if let features = attributes.fontFeatures { style.fontFeatures = features }
        if let language = attributes.language { style.language = language }
        return (style, (attributes.fonts ?? fonts).instances(for: style))
    }
}

/// What a run of an `AttributedText` overrides; `nil` keeps the base style's value.
///
/// A weight or width comes from the run's fonts: a variable font at an instance
/// (`Font(contentsOfFile:faceIndex:variations:)`, e.g. `["wght": 700]`) or a bold file.
public struct TextAttributes: Sendable {
    /// The fonts of the run, in fallback order: a cluster the run's fonts do not draw
    /// falls back within this set, not the base one.
    public var fonts: FontSet?
    public var fontSize: Double?
    public var letterSpacing: Double?
    public var wordSpacing: Double?
    public var fontFeatures: [String]?
    /// A box drawn in place of the run's one U+FFFC (an image, a chip, a timestamp).
    public var placeholder: InlinePlaceholder?
    /// The run's language, a BCP 47 tag (`"de"`): under `hyphens: auto` its words
    /// hyphenate by that language's patterns, not the base style's `language`.
    public var language: String?

    public init(fonts: FontSet? = nil, fontSize: Double? = nil, letterSpacing: Double? = nil,
                wordSpacing: Double? = nil, fontFeatures: [String]? = nil, placeholder: InlinePlaceholder? = nil,
                language: String? = nil) {
        self.fonts = fonts
        self.fontSize = fontSize
        self.letterSpacing = letterSpacing
        self.wordSpacing = wordSpacing
        self.fontFeatures = fontFeatures
        self.placeholder = placeholder
        self.language = language
    }

    func validate() throws(TextMeasureError) {
        var style = TextStyle()
        if let fontSize { style.fontSize = fontSize }
        if let letterSpacing { style.letterSpacing = letterSpacing }
        if let wordSpacing { style.wordSpacing = wordSpacing }
        if let fontFeatures { style.fontFeatures = fontFeatures }
        if let language { style.language = language }
        try style.validate()
        if fonts?.fonts.isEmpty == true { throw .noFonts }
        try placeholder?.validate()
    }
}

/// An inline box in the text (TextKit's `NSTextAttachment`, CSS `inline-block`): it
/// takes the place of one U+FFFC, breaks as U+FFFC does, is as wide as `width`, and
/// its height counts in the line's height.
public struct InlinePlaceholder: Sendable, Hashable, Codable {
    /// Width and height in px.
    public var width: Double
    public var height: Double
    /// The distance from the box's top down to the baseline it sits on, in px
    /// (`height` puts its bottom on the baseline).
    public var baseline: Double

    public init(width: Double, height: Double, baseline: Double) {
        self.width = width
        self.height = height
        self.baseline = baseline
    }

    func validate() throws(TextMeasureError) {
        for (name, value) in [("width", width), ("height", height), ("baseline", baseline)] {
            guard value.isFinite, abs(value) <= Limits.inset.upperBound else {
                throw .invalidOption(name: "placeholder \(name)", value: value)
            }
        }
        guard width >= 0, height >= 0 else {
            throw .invalidOption(name: "placeholder size", value: min(width, height))
        }
    }
}
