import CTextICU

/// CSS `word-break`: whether words break between their letters.
///
/// ```swift
/// var style = TextStyle()
/// style.wordBreak = .keepAll   // Korean (or Chinese) broken only at spaces and punctuation
/// ```
public enum WordBreak: String, Sendable, Hashable, Codable, CaseIterable {
    /// The line-break rules' opportunities only (the default).
    case normal
    /// Also inside words, where Blink's `break-all` table by line-break class allows:
    /// between letters and digits, before hyphens and `(`, never splitting a cluster.
    case breakAll = "break-all"
    /// Never between two letters or digits (Hangul and Han included), as Blink's `keep-all`.
    case keepAll = "keep-all"
}

/// CSS `line-break`: how strictly CJK punctuation and small kana hold on to what
/// they follow; ICU's `@lb=` keywords.
public enum LineBreak: String, Sendable, Hashable, Codable, CaseIterable {
    /// Chromium's default, ICU's `lb=normal` (the default).
    case auto
    case loose
    case normal
    case strict
    /// A break opportunity between every two grapheme clusters.
    case anywhere

    /// The ICU iterator the browser rules start from.
    package var iteratorKind: Int {
        switch self {
        case .auto, .normal, .anywhere: CTX_BREAK_LINE_NORMAL
        case .loose: CTX_BREAK_LINE_LOOSE
        case .strict: CTX_BREAK_LINE_STRICT
        }
    }
}

/// CSS `overflow-wrap`: whether a word too long for an empty line breaks between
/// grapheme clusters (`breakWord`, `anywhere`: the default, a text view's wrapping)
/// or overflows the line (`normal`).
public enum OverflowWrap: String, Sendable, Hashable, Codable, CaseIterable {
    case normal
    case breakWord = "break-word"
    /// As `breakWord` for layout (CSS differs only in min-content sizing).
    case anywhere
}

/// CSS `white-space`: whether spaces and newlines are kept as typed.
///
/// ```swift
/// var style = TextStyle()
/// style.whiteSpace = .normal   // HTML's default: "a \n  b" lays out as "a b"
/// ```
public enum WhiteSpace: String, Sendable, Hashable, Codable, CaseIterable {
    /// Spaces and tabs kept, newlines break lines (the default, a text view's).
    case preWrap = "pre-wrap"
    /// Newlines and tabs are spaces, and a run of spaces is one space: those after the
    /// first, and any at the start of the text, take no width. Offsets stay the text's.
    case normal
}

/// CSS `hyphens`: where words may break with a hyphen.
///
/// ```swift
/// var style = TextStyle()
/// style.hyphens = .auto
/// style.language = "en-US"   // the patterns of hyph_en_US.dic
/// ```
public enum Hyphens: String, Sendable, Hashable, Codable, CaseIterable {
    /// Soft hyphens are neither breaks nor drawn.
    case none
    /// At soft hyphens (U+00AD) only: the default.
    case manual
    /// At soft hyphens, and in words without one at the hyphenation points of the
    /// text's language (Liang's patterns, through libhyphen).
    case auto
}

/// The CSS options that change where lines may break, as segmentation takes them
/// (the style holds them; segmentation comes before the style).
@usableFromInline   // softHyphen is inlined into preparation's walk over segments
package struct LineBreakOptions: Sendable, Hashable {
    package var lineBreak: LineBreak = .auto
    package var wordBreak: WordBreak = .normal
    package var whiteSpace: WhiteSpace = .preWrap
    package var hyphens: Hyphens = .manual
    /// The text's BCP 47 language tag, for `hyphens: auto`.
    package var language: String? = nil

    /// U+00AD SOFT HYPHEN: a break opportunity that shows a hyphen only where a line ends at it.
    /// Inlinable, not a stored `static let`: preparation asks it per segment, and a
    /// global from another module is read through a once-token call.
    @inlinable package static var softHyphen: UInt16 { 0x00AD }

    package init(lineBreak: LineBreak = .auto, wordBreak: WordBreak = .normal, whiteSpace: WhiteSpace = .preWrap,
                 hyphens: Hyphens = .manual, language: String? = nil) {
        self.lineBreak = lineBreak
        self.wordBreak = wordBreak
        self.whiteSpace = whiteSpace
        self.hyphens = hyphens
        self.language = language
    }
}

extension Boundaries {
    /// The line-break opportunities of `text` under `rules` and the CSS `line-break`,
    /// `word-break`, `white-space` and `hyphens` of `options`: the rules' own, with
    /// Blink's `keep-all` and `break-all` filters, or every cluster boundary for
    /// `line-break: anywhere`. The last is always the text's end, where the last
    /// segment ends (the segment builders rely on it).
    package static func lineBreaks(in text: UnsafeBufferPointer<UInt16>, rules: LineBreakRules,
                                   options: LineBreakOptions) throws(TextMeasureError) -> [BreakOpportunity] {
        var breaks = try lineBreaks(in: text, rules: rules,
                                    kind: rules == .browser ? options.lineBreak.iteratorKind : CTX_BREAK_LINE)
        if options.lineBreak == .anywhere { return try everyCluster(of: text, keeping: breaks) }
        switch options.wordBreak {
        case .normal: break
        case .keepAll: breaks = breaks.filter { $0.isMandatory || !Self.keepsAll(text, before: $0.utf16Offset) }
        case .breakAll: breaks = breakingAll(text, keeping: breaks)
        }
        if options.whiteSpace == .normal { moveBreaksAfterFirstSpace(&breaks, in: text) }
        switch options.hyphens {
        case .none:
            breaks.removeAll {
                !$0.isMandatory && $0.utf16Offset < text.count && text[$0.utf16Offset - 1] == LineBreakOptions.softHyphen
            }
        case .manual:
            break
        case .auto:
            if let language = options.language, let hyphenator = try Hyphenator.forLanguage(language) {
                breaks = addingHyphenationPoints(to: breaks, in: text, hyphenator: hyphenator)
            }
        }
        return breaks
    }

    /// Lends `body` the same breaks as `lineBreaks(in:rules:options:)`. When `options`
    /// change nothing of the rules' own (the default), they are in temporary memory, on
    /// the stack for a short text: not an array allocated and freed per text.
    package static func withLineBreaks(
        in text: UnsafeBufferPointer<UInt16>, rules: LineBreakRules, options: LineBreakOptions,
        _ body: (UnsafeBufferPointer<BreakOpportunity>) throws(TextMeasureError) -> Void
    ) throws(TextMeasureError) {
        guard options.lineBreak != .anywhere, options.wordBreak == .normal, options.whiteSpace != .normal,
              options.hyphens == .manual else {
            let breaks = try lineBreaks(in: text, rules: rules, options: options)
            return try breaks.withUnsafeBufferPointer { breaks throws(TextMeasureError) in try body(breaks) }
        }
        let kind = rules == .browser ? options.lineBreak.iteratorKind : CTX_BREAK_LINE
        try withBreaks(in: text, rules: rules, kind: kind) { offsets, mandatory throws(TextMeasureError) in
            try withUnsafeTemporaryAllocation(of: BreakOpportunity.self, capacity: offsets.count) {
                breaks throws(TextMeasureError) in
                for i in offsets.indices {
                    breaks.initializeElement(at: i, to: BreakOpportunity(utf16Offset: Int(offsets[i]),
                                                                         isMandatory: mandatory[i] != 0))
                }
                try body(UnsafeBufferPointer(breaks))
            }
        }
    }

    /// Under `white-space: normal` a run of spaces is one space and the rest collapse
    /// away: the line breaks after that one, and the collapsed ones start the next line
    /// with no width (where Chromium puts their offsets). Spaces ending the text have
    /// no next line: they hang at the end of the last.
    private static func moveBreaksAfterFirstSpace(_ breaks: inout [BreakOpportunity],
                                                  in text: UnsafeBufferPointer<UInt16>) {
        var previous = 0
        for i in breaks.indices {
            let end = breaks[i].utf16Offset
            var first = end
            while first > previous, text[first - 1] == 0x20 { first -= 1 }
            if end - first >= 2, !breaks[i].isMandatory, end < text.count { breaks[i].utf16Offset = first + 1 }
            previous = end
        }
    }

    /// Blink's `ShouldKeepAfterKeepAll`: no break between two letters or digits (the
    /// first skipping back over marks), unless either takes its breaks from a dictionary
    /// (Thai, Lao, Khmer, Myanmar: line-break class SA).
    private static func keepsAll(_ text: UnsafeBufferPointer<UInt16>, before offset: Int) -> Bool {
        guard offset > 0, offset < text.count else { return false }
        var start = offset - 1
        if start > 0, UTF16.isTrailSurrogate(text[start]), UTF16.isLeadSurrogate(text[start - 1]) { start -= 1 }
        var before = Scalars.decode(text, at: start).scalar
        if isMark(before), start > 0 {
            var previous = start - 1
            if previous > 0, UTF16.isTrailSurrogate(text[previous]), UTF16.isLeadSurrogate(text[previous - 1]) { previous -= 1 }
            before = Scalars.decode(text, at: previous).scalar
        }
        let after = Scalars.decode(text, at: offset).scalar
        return isLetterOrNumber(before) && isLetterOrNumber(after)
    }

    /// The rules' breaks plus those of Blink's break-all table (`BrowserTailoring.breaksAll`).
    private static func breakingAll(_ text: UnsafeBufferPointer<UInt16>,
                                    keeping breaks: [BreakOpportunity]) -> [BreakOpportunity] {
        var result: [BreakOpportunity] = []
        result.reserveCapacity(breaks.count * 2)
        var next = 0
        for offset in 1..<max(1, text.count) {
            if next < breaks.count, breaks[next].utf16Offset == offset {
                result.append(breaks[next])
                next += 1
            } else if BrowserTailoring.breaksAll(before: offset, in: text) {
                result.append(BreakOpportunity(utf16Offset: offset, isMandatory: false))
            }
        }
        result.append(contentsOf: breaks[next...])
        return result
    }

    /// Every cluster boundary, with the rules' mandatory breaks (`line-break: anywhere`).
    private static func everyCluster(of text: UnsafeBufferPointer<UInt16>,
                                     keeping breaks: [BreakOpportunity]) throws(TextMeasureError) -> [BreakOpportunity] {
        let mandatory = Set(breaks.lazy.filter(\.isMandatory).map(\.utf16Offset))
        return try graphemes(in: text).map {
            BreakOpportunity(utf16Offset: Int($0), isMandatory: mandatory.contains(Int($0)))
        }
    }

    private static func isMark(_ scalar: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(scalar) else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    private static func isLetterOrNumber(_ scalar: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(scalar), !isDictionaryScript(scalar.value) else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: return true
        default: return false
        }
    }

    /// Scripts whose words ICU finds with a dictionary (line-break class SA).
    private static func isDictionaryScript(_ value: UInt32) -> Bool {
        (0x0E00...0x0EFF).contains(value) || (0x1000...0x109F).contains(value) || (0x1780...0x17FF).contains(value)
            || (0x1950...0x19DF).contains(value) || (0x1A20...0x1AAF).contains(value)
            || (0xAA60...0xAADF).contains(value) || (0xA9E0...0xA9FF).contains(value)
    }
}
