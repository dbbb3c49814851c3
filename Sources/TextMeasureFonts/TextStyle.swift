/// How text is drawn: the width-independent inputs to preparation.
///
/// ```swift
/// var style = TextStyle(fontSize: 15)
/// style.lineHeight = .fixed(20)
/// ```
public struct TextStyle: Sendable, Hashable {
    /// Font sizes the library accepts, in pixels (points at scale 1).
    public static let fontSizeRange: ClosedRange<Double> = Limits.fontSize

    /// The font size in pixels. Default 17, the iOS body size.
    public var fontSize: Double
    /// The height of each line. Default `.normal`.
    public var lineHeight: LineHeight
    /// Which line-break opportunities to use. Default `.browser`.
    public var lineBreakRules: LineBreakRules
    /// HarfBuzz feature settings applied to every run, such as `"-liga"` or `"+tnum"`.
    /// Default none: the font's defaults (kerning and standard ligatures on).
    public var fontFeatures: [String]
    /// Space added after every grapheme cluster, in px (CSS `letter-spacing`, TextKit's
    /// `.kern`), within `spacingRange`. Default 0. As in Chromium, a cluster shaped as
    /// several glyph clusters (an Indic conjunct with a half form) takes it after each,
    /// and in runs of cursive scripts (Arabic) only spaces take it. Non-zero spacing also
    /// turns off ligatures and contextual alternates (`liga`, `clig`, `dlig`, `hlig`,
    /// `calt`), as Chromium does, so that letters stay apart.
    public var letterSpacing: Double
    /// Space added to every space and no-break space, in px (CSS `word-spacing`),
    /// within `spacingRange`. Default 0.
    public var wordSpacing: Double
    /// Letter and word spacings the library accepts, in px.
    public static let spacingRange: ClosedRange<Double> = Limits.spacing
    /// The width of a tab, in spaces of the primary font, within `tabSizeRange`.
    /// Default 8, as in CSS.
    public var tabSize: Int
    /// How lines are chosen among the breaks that fit (CSS `text-wrap`): greedy by default.
    public var textWrap: TextWrap = .wrap
    /// CSS `word-break`: `keepAll` for Korean kept whole between spaces, `breakAll` to break inside words.
    public var wordBreak: WordBreak = .normal
    /// CSS `line-break`: the strictness of CJK breaks (ICU's `lb=` keywords), or `anywhere`.
    public var lineBreak: LineBreak = .auto
    /// CSS `overflow-wrap`: whether a word too long for a line breaks (the default) or overflows.
    public var overflowWrap: OverflowWrap = .breakWord
    /// CSS `white-space`: `preWrap` (the default) keeps spaces and newlines; `normal` collapses them.
    public var whiteSpace: WhiteSpace = .preWrap
    /// CSS `hyphens`: `manual` (the default) breaks at soft hyphens, `auto` also at the
    /// hyphenation points of `language`, `none` at neither.
    public var hyphens: Hyphens = .manual
    /// CSS `font-optical-sizing`: with `.auto` (the default) a variable font's `opsz`
    /// axis, unless the font names it, is the font size in px (`FontSet.instances(for:)`).
    public var opticalSizing: OpticalSizing = .auto
    /// CSS `text-spacing-trim`: `normal` (the default) halves fullwidth punctuation next to
    /// other punctuation, and a closing bracket at the end of a line it would overflow,
    /// in fonts with `halt`, as Chromium does; `spaceFirst` and `trimStart` an opening
    /// bracket starting a line too; `spaceAll` never trims.
    public var textSpacingTrim: TextSpacingTrim = .normal
    /// The text's language, a BCP 47 tag (`"en-US"`, `"de"`): the patterns `hyphens: auto` uses.
    public var language: String? = nil
    /// Tab sizes the library accepts.
    public static let tabSizeRange: ClosedRange<Int> = Limits.tabSize
    /// The largest fixed line height (px) or line height multiple the library accepts.
    public static let maximumLineHeight = Limits.maximumLineHeight
    /// The direction of each paragraph. Default `.natural`: its first strong character's.
    public var baseWritingDirection: WritingDirection
    /// Where lines sit in the content box. Default `.natural`: the paragraph's start side.
    public var alignment: TextAlignment

    public init(fontSize: Double = 17, lineHeight: LineHeight = .normal,
                lineBreakRules: LineBreakRules = .browser, fontFeatures: [String] = [], tabSize: Int = 8,
                letterSpacing: Double = 0, wordSpacing: Double = 0,
                baseWritingDirection: WritingDirection = .natural, alignment: TextAlignment = .natural) {
        self.fontSize = fontSize
        self.lineHeight = lineHeight
        self.lineBreakRules = lineBreakRules
        self.fontFeatures = fontFeatures
        self.tabSize = tabSize
        self.letterSpacing = letterSpacing
        self.wordSpacing = wordSpacing
        self.baseWritingDirection = baseWritingDirection
        self.alignment = alignment
    }

    /// Whether letter or word spacing is set: such text is prepared as styled text.
    package var hasSpacing: Bool { letterSpacing != 0 || wordSpacing != 0 }

    package func validate() throws(TextMeasureError) {
        guard fontSize.isFinite, Self.fontSizeRange.contains(fontSize) else { throw .invalidFontSize(fontSize) }
        guard Self.tabSizeRange.contains(tabSize) else { throw .invalidTabSize(tabSize) }
        // A setting HarfBuzz cannot parse would otherwise be dropped when shaping.
        guard letterSpacing.isFinite, Self.spacingRange.contains(letterSpacing) else {
            throw .invalidSpacing(name: "letter spacing", value: letterSpacing)
        }
        guard wordSpacing.isFinite, Self.spacingRange.contains(wordSpacing) else {
            throw .invalidSpacing(name: "word spacing", value: wordSpacing)
        }
        for feature in fontFeatures where !Self.parses(feature) { throw .invalidFontFeature(feature) }
        if let language { _ = try Hyphenator.forLanguage(language) }
        switch lineHeight {
        case .normal: break
        case .fixed(let value), .multiple(let value):
            guard value.isFinite, value > 0, value <= Self.maximumLineHeight else { throw .invalidLineHeight(value) }
        }
    }
}

extension TextStyle {
    /// The options segmentation breaks lines by.
    package var lineBreakOptions: LineBreakOptions {
        LineBreakOptions(lineBreak: lineBreak, wordBreak: wordBreak, whiteSpace: whiteSpace, hyphens: hyphens,
                         language: language)
    }
}
