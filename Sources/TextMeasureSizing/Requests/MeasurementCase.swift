/// One measurement described as data: a line of `textmeasure batch`, a case in a
/// golden file, a case of the browser check.
///
/// ```json
/// {"id": "greeting", "text": "Hello, world", "width": 120, "size": 17, "lineHeight": null}
/// {"id": "preview", "text": "A long message …", "width": 280, "maxLines": 2, "lineBreakMode": "truncate-tail"}
/// ```
public struct MeasurementCase: Codable, Sendable, Hashable {
    /// The caller's identifier, echoed in the result as written (a string or a number).
    public var id: CaseID?
    public var text: String
    /// Font files, primary first; `nil` or empty for the embedded default set.
    public var fonts: [FontReference]?
    /// Whether the embedded set follows `fonts` as fallback, as a browser falls back to
    /// the system's fonts; `nil` means yes. False draws what `fonts` lack as .notdef.
    public var embeddedFallback: Bool?
    /// Font size in px; default 17.
    public var size: Double?
    /// The proposed (container) width in px.
    public var width: Double
    /// The line height; `nil` for `.normal`. In JSON a number is px, and a string says
    /// `"normal"`, `"20px"` or `"1.2x"` (a multiple of the normal height).
    public var lineHeight: LineHeight?
    /// `"browser"` (default) or `"uax14"`.
    public var rules: LineBreakRules?
    /// Text container inset as `[top, left, bottom, right]`.
    public var insets: [Double]?
    /// Line fragment padding.
    public var padding: Double?
    /// The most lines (`TextContainer.maximumNumberOfLines`); `nil` or 0 for no limit.
    public var maxLines: Int?
    /// `"word"` (default), `"char"`, `"clip"`, `"truncate-head"`, `"truncate-middle"`
    /// or `"truncate-tail"` (`TextContainer.lineBreakMode`).
    public var lineBreakMode: LineBreakMode?
    /// `"textView"` (default) or `"label"`: whether empty text and a final newline
    /// make a line. A CSS block (the browser check) is `"label"`.
    public var emptyLines: EmptyLineConvention?
    /// `"start"` (default), `"end"`, `"left"`, `"right"` or `"center"` (`TextStyle.alignment`).
    public var align: TextAlignment?
    /// `"auto"` (default), `"ltr"` or `"rtl"` (`TextStyle.baseWritingDirection`).
    public var direction: WritingDirection?
    /// Whether the result lists every grapheme cluster's box (`MeasurementResult.boxes`).
    public var boxes: Bool?
    /// `"wrap"` (default), `"balance"` or `"pretty"` (CSS `text-wrap`, `TextStyle.textWrap`).
    public var textWrap: TextWrap?
    /// `"normal"` (default), `"break-all"` or `"keep-all"` (CSS `word-break`, `TextStyle.wordBreak`).
    public var wordBreak: WordBreak?
    /// `"auto"` (default), `"loose"`, `"normal"`, `"strict"` or `"anywhere"` (CSS `line-break`).
    public var lineBreak: LineBreak?
    /// `"break-word"` (default), `"anywhere"` or `"normal"` (CSS `overflow-wrap`).
    public var overflowWrap: OverflowWrap?
    /// `"pre-wrap"` (default) or `"normal"` (CSS `white-space`, `TextStyle.whiteSpace`).
    public var whiteSpace: WhiteSpace?
    /// `"manual"` (default), `"none"` or `"auto"` (CSS `hyphens`, `TextStyle.hyphens`).
    public var hyphens: Hyphens?
    /// The text's language, BCP 47 (`TextStyle.language`): the patterns `"hyphens": "auto"` uses.
    public var lang: String?
    /// `"auto"` (default) or `"none"` (CSS `font-optical-sizing`, `TextStyle.opticalSizing`).
    public var opticalSizing: OpticalSizing?
    /// `"normal"` (default), `"space-all"`, `"space-first"` or `"trim-start"` (CSS
    /// `text-spacing-trim`, `TextStyle.textSpacingTrim`).
    public var textSpacingTrim: TextSpacingTrim?
    /// Letter and word spacing of the whole text, in px (CSS `letter-spacing`, `word-spacing`).
    public var letterSpacing: Double?
    public var wordSpacing: Double?
    /// Styled runs over UTF-16 offsets, sorted and not overlapping (see `CaseSpan`).
    public var spans: [CaseSpan]?

    public init(id: CaseID? = nil, text: String, fonts: [FontReference]? = nil, embeddedFallback: Bool? = nil,
                size: Double? = nil, width: Double, lineHeight: LineHeight? = nil, rules: LineBreakRules? = nil, insets: [Double]? = nil, padding: Double? = nil,
                maxLines: Int? = nil, lineBreakMode: LineBreakMode? = nil, emptyLines: EmptyLineConvention? = nil,
                align: TextAlignment? = nil, direction: WritingDirection? = nil, boxes: Bool? = nil,
                textWrap: TextWrap? = nil, wordBreak: WordBreak? = nil, lineBreak: LineBreak? = nil,
                overflowWrap: OverflowWrap? = nil, whiteSpace: WhiteSpace? = nil, hyphens: Hyphens? = nil,
                lang: String? = nil) {
        self.id = id
        self.text = text
        self.fonts = fonts
        self.embeddedFallback = embeddedFallback
        self.size = size
        self.width = width
        self.lineHeight = lineHeight
        self.rules = rules
        self.insets = insets
        self.padding = padding
        self.maxLines = maxLines
        self.lineBreakMode = lineBreakMode
        self.emptyLines = emptyLines
        self.align = align
        self.direction = direction
        self.boxes = boxes
        self.textWrap = textWrap
        self.wordBreak = wordBreak
        self.lineBreak = lineBreak
        self.overflowWrap = overflowWrap
        self.whiteSpace = whiteSpace
        self.hyphens = hyphens
        self.lang = lang
    }

    /// The style this case asks for.
    public func style() -> TextStyle {
        var style = TextStyle(fontSize: size ?? 17, lineHeight: lineHeight ?? .normal,
                              lineBreakRules: rules ?? .browser, letterSpacing: letterSpacing ?? 0,
                              wordSpacing: wordSpacing ?? 0, baseWritingDirection: direction ?? .natural,
                              alignment: align ?? .natural)
        style.textWrap = textWrap ?? .wrap
        style.wordBreak = wordBreak ?? .normal
        style.lineBreak = lineBreak ?? .auto
        style.overflowWrap = overflowWrap ?? .breakWord
        style.whiteSpace = whiteSpace ?? .preWrap
        style.hyphens = hyphens ?? .manual
        style.language = lang
        style.opticalSizing = opticalSizing ?? .auto
        style.textSpacingTrim = textSpacingTrim ?? .normal
        return style
    }

    /// The text container this case asks for.
    public func container() throws(TextMeasureError) -> TextContainer {
        var container = TextContainer()
        if let insets {
            guard insets.count == 4 else { throw .invalidOption(name: "insets (need 4 numbers, got \(insets.count))", value: Double(insets.count)) }
            container.textContainerInset = EdgeInsets(top: insets[0], left: insets[1], bottom: insets[2], right: insets[3])
        }
        if let padding { container.lineFragmentPadding = padding }
        if let maxLines { container.maximumNumberOfLines = maxLines }
        if let lineBreakMode { container.lineBreakMode = lineBreakMode }
        if let emptyLines { container.emptyLines = emptyLines }
        return container
    }
}

/// A case identifier as JSON gives it: a string or a number.
public enum CaseID: Codable, Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    /// A number other than a plain integer (`1.0`, `1e2`, `-0.0`, `1e400`), kept as written
    /// so that it is echoed as written. `MeasurementCase(json:)` makes these; encoding
    /// writes the text verbatim when the encoder asks for it (`verbatimNumberKey`), else
    /// the number's value.
    case number(String)

    /// The `CodingUserInfoKey` under which an encoder passes a marker string: a
    /// `.number` is then encoded as the marker followed by its text, for the caller to
    /// replace with the bare text (JSONEncoder has no way to write a number's own text).
    package static let verbatimNumberKey = CodingUserInfoKey(rawValue: "TextMeasure.CaseID.verbatimNumber")

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) { self = .integer(value) } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let text):
            if let key = Self.verbatimNumberKey, let marker = encoder.userInfo[key] as? String {
                try container.encode(marker + text)
            } else if let value = Double(text), value.isFinite {
                try container.encode(value)
            } else {
                try container.encode(text)   // beyond a Double: the text rather than ∞
            }
        }
    }

    public var description: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let text): text
        }
    }
}

/// What measuring a `MeasurementCase` yields: the fields of a `textmeasure batch` result.
public struct MeasurementResult: Codable, Sendable, Hashable {
    public var id: CaseID?
    /// Number of lines.
    public var lines: Int
    /// Height from `sizeThatFits`: lines plus vertical insets, rounded up to whole px.
    public var height: Double
    /// Width from `sizeThatFits`: the proposed width.
    public var width: Double
    /// Width of the widest line.
    public var usedWidth: Double
    /// UTF-16 offset at which each line starts.
    public var lineStarts: [Int]
    /// For a case with `maxLines` or `lineBreakMode`, whether any text is hidden or
    /// elided (`TextLayout.isTruncated`); `nil`, and absent from JSON, otherwise.
    public var truncated: Bool?
    /// How many grapheme clusters are drawn as .notdef boxes, no font having their
    /// glyphs (`PreparedText.missingGlyphClusterCount`); `nil`, and absent from JSON, when none.
    public var missingGlyphs: Int?

    /// For a case with `"boxes": true`, one `[start, end, line, left, right]` per
    /// grapheme cluster in text order (line breaks left out): UTF-16 offsets, the line's
    /// index, and px from the left edge of the container's content box (inside the
    /// inset), as Chromium's `Range.getClientRects()` gives them; `nil` otherwise.
    public var boxes: [[Double]]?

    public init(id: CaseID?, lines: Int, height: Double, width: Double, usedWidth: Double, lineStarts: [Int],
                truncated: Bool? = nil, missingGlyphs: Int? = nil, boxes: [[Double]]? = nil) {
        self.id = id
        self.lines = lines
        self.height = height
        self.width = width
        self.usedWidth = usedWidth
        self.lineStarts = lineStarts
        self.truncated = truncated
        self.missingGlyphs = missingGlyphs
        self.boxes = boxes
    }
}

extension MeasurementCase {
    /// The measurer for this case, its fonts loaded through `fonts` (so each file is read once).
    public func measurer(fonts: FontCache) throws -> TextMeasurer {
        let fallback = embeddedFallback ?? true
        let set = try fonts.fontSet(self.fonts ?? [], embeddedFallback: fallback)
        guard let spans, !spans.isEmpty else {
            return try TextMeasurer(text: text, fonts: set, style: style(), container: container())
        }
        var attributed = AttributedText(text, style: style(), fonts: set)
        for span in spans {
            let runFonts = try span.fonts.map { references throws(FontError) in
                try fonts.fontSet(references, embeddedFallback: fallback)
            }
            try attributed.setAttributes(TextAttributes(fonts: runFonts, fontSize: span.size,
                                                        letterSpacing: span.letterSpacing,
                                                        wordSpacing: span.wordSpacing, fontFeatures: span.features,
                                                        placeholder: span.placeholder, language: span.lang),
                                         utf16Range: span.start..<span.end)
        }
        return try TextMeasurer(attributedText: attributed, container: container())
    }

    /// Measures the case, loading its fonts through `fonts`.
    public func measure(fonts: FontCache) throws -> MeasurementResult {
        try result(of: measurer(fonts: fonts), width: width)
    }

    /// The result of measuring this case's `measurer` at `width`: the case's own
    /// width, or another one when the same prepared text is measured again.
    public func result(of measurer: TextMeasurer, width: Double) throws -> MeasurementResult {
        // sizeThatFits answers only these widths.
        guard width.isFinite, width > 0 else { throw TextMeasureError.invalidWidth(width) }
        let (lines, usedWidth, size) = try measurer.fittedLines(width: width)
        return MeasurementResult(id: id, lines: lines.count, height: size.height, width: size.width,
                                 usedWidth: usedWidth, lineStarts: lines.map(\.start),
                                 truncated: maxLines != nil || lineBreakMode != nil
                                    ? measurer.prepared.isTruncated(by: lines) : nil,
                                 missingGlyphs: Self.nonzero(measurer.prepared.missingGlyphClusterCount),
                                 boxes: boxes == true ? try clusterBoxes(of: measurer, width: width) : nil)
    }

    private static func nonzero(_ count: Int) -> Int? {
        count == 0 ? nil : count
    }

    /// `[start, end, line, left, right]` of every cluster but line breaks and the ellipsis.
    private func clusterBoxes(of measurer: TextMeasurer, width: Double) throws(TextMeasureError) -> [[Double]] {
        let placement = measurer.prepared.placement(of: try measurer.layout(width: width))
        let left = measurer.container.lineFragmentPadding
        // 1/10000 px is far below what a box check can see, and keeps the JSON short.
        func px(_ value: Double) -> Double { ((left + value) * 10_000).rounded() / 10_000 }
        return placement.clusters.filter { !$0.isLineBreak && !$0.isEllipsis }.map {
            [Double($0.utf16Range.lowerBound), Double($0.utf16Range.upperBound), Double($0.line), px($0.left), px($0.right)]
        }
    }
}

/// A styled run of a case: UTF-16 offsets `start..<end` and what it overrides.
///
/// ```json
/// {"start": 6, "end": 10, "fonts": [{"path": "Inter.ttf", "variations": {"wght": 700}}], "size": 15}
/// {"start": 21, "end": 22, "placeholder": {"width": 40, "height": 12, "baseline": 10}}
/// ```
public struct CaseSpan: Codable, Sendable, Hashable {
    public var start: Int
    public var end: Int
    /// Font files, primary first, followed by the embedded set unless the case turns
    /// its fallback off; `nil` for the case's fonts.
    public var fonts: [FontReference]?
    public var size: Double?
    public var letterSpacing: Double?
    public var wordSpacing: Double?
    /// HarfBuzz feature settings (`"-liga"`), replacing the case's.
    public var features: [String]?
    /// A box in place of the span's one U+FFFC.
    public var placeholder: InlinePlaceholder?
    /// The span's BCP 47 language tag: the patterns its words hyphenate by under
    /// `"hyphens": "auto"`, instead of the case's `lang`.
    public var lang: String?

    public init(start: Int, end: Int, fonts: [FontReference]? = nil, size: Double? = nil, letterSpacing: Double? = nil,
                wordSpacing: Double? = nil, features: [String]? = nil, placeholder: InlinePlaceholder? = nil,
                lang: String? = nil) {
        self.start = start
        self.end = end
        self.fonts = fonts
        self.size = size
        self.letterSpacing = letterSpacing
        self.wordSpacing = wordSpacing
        self.features = features
        self.placeholder = placeholder
        self.lang = lang
    }
}
