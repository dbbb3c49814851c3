/// One measurement described as data: a line of `textmeasure batch`, a case in a
/// golden file, a case of the browser check.
///
/// ```json
/// {"id": "greeting", "text": "Hello, world", "width": 120, "size": 17, "lineHeight": null}
/// {"id": "preview", "text": "A long message …", "width": 280, "maxLines": 2, "lineBreakMode": "truncate-tail"}
/// ```
public struct MeasurementCase: Codable, Sendable, Hashable {
    /// The caller's identifier, echoed in the result (a string or an integer).
    public var id: CaseID?
    public var text: String
    /// Font files, primary first; `nil` or empty for the embedded default set.
    public var fonts: [String]?
    /// Font size in px; default 17.
    public var size: Double?
    /// The proposed (container) width in px.
    public var width: Double
    /// A fixed line height in px; `nil` for `.normal`.
    public var lineHeight: Double?
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

    public init(id: CaseID? = nil, text: String, fonts: [String]? = nil, size: Double? = nil, width: Double,
                lineHeight: Double? = nil, rules: LineBreakRules? = nil, insets: [Double]? = nil, padding: Double? = nil,
                maxLines: Int? = nil, lineBreakMode: LineBreakMode? = nil, emptyLines: EmptyLineConvention? = nil) {
        self.id = id
        self.text = text
        self.fonts = fonts
        self.size = size
        self.width = width
        self.lineHeight = lineHeight
        self.rules = rules
        self.insets = insets
        self.padding = padding
        self.maxLines = maxLines
        self.lineBreakMode = lineBreakMode
        self.emptyLines = emptyLines
    }

    /// The style this case asks for.
    public func style() -> TextStyle {
        var style = TextStyle(fontSize: size ?? 17, lineHeight: lineHeight.map(LineHeight.fixed) ?? .normal,
                              lineBreakRules: rules ?? .browser)
        style.textWrap = textWrap ?? .wrap
        style.wordBreak = wordBreak ?? .normal
        style.lineBreak = lineBreak ?? .auto
        style.overflowWrap = overflowWrap ?? .breakWord
        style.whiteSpace = whiteSpace ?? .preWrap
        style.hyphens = hyphens ?? .manual
        style.language = lang
        return style
    }

    /// The text container this case asks for.
    public func container() throws(TextMeasureError) -> TextContainer {
        var container = TextContainer()
        if let insets {
            guard insets.count == 4 else { throw .invalidOption(name: "insets (need 4 numbers)", value: Double(insets.count)) }
            container.textContainerInset = EdgeInsets(top: insets[0], left: insets[1], bottom: insets[2], right: insets[3])
        }
        if let padding { container.lineFragmentPadding = padding }
        if let maxLines { container.maximumNumberOfLines = maxLines }
        if let lineBreakMode { container.lineBreakMode = lineBreakMode }
        if let emptyLines { container.emptyLines = emptyLines }
        return container
    }
}

/// A case identifier as JSON gives it: a string or an integer.
public enum CaseID: Codable, Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int)

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
        }
    }

    public var description: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
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

    public init(id: CaseID?, lines: Int, height: Double, width: Double, usedWidth: Double, lineStarts: [Int],
                truncated: Bool? = nil) {
        self.id = id
        self.lines = lines
        self.height = height
        self.width = width
        self.usedWidth = usedWidth
        self.lineStarts = lineStarts
        self.truncated = truncated
    }
}

extension MeasurementCase {
    /// The measurer for this case, its fonts loaded through `fonts` (so each file is read once).
    public func measurer(fonts: FontCache) throws -> TextMeasurer {
        try TextMeasurer(text: text, fonts: fonts.fontSet(paths: self.fonts ?? []), style: style(), container: container())
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
                                    ? measurer.prepared.isTruncated(by: lines) : nil)
    }
}
