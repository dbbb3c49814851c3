import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// Styled runs (issue 12): each rule on its own.
@Suite struct RichTextTests {
    static let boxVariable = packageRoot + "/Tests/Fixtures/fonts/BoxVariable.ttf"

    func oneLineWidth(_ attributed: AttributedText) throws -> Double {
        try PreparedText(attributed).layout(width: 100_000).lines[0].width
    }

    /// BoxVariable's box is 500 units at wght 100 and 1000 at wght 900: a bold run is
    /// wider, by exactly the difference of its letters. (wght 100 is named: with no wght
    /// the font is at 400, as Chromium draws it.)
    @Test func aBoldWordIsWiderThanTheRegularOne() throws {
        let regular = try FontSet([Font(contentsOfFile: Self.boxVariable, variations: ["wght": 100])])
        let bold = try FontSet([Font(contentsOfFile: Self.boxVariable, variations: ["wght": 900])])
        var text = AttributedText("aaaa aaaa", style: TextStyle(fontSize: 10), fonts: regular)
        let plain = try oneLineWidth(text)
        try text.setAttributes(TextAttributes(fonts: bold), utf16Range: 5..<9)
        #expect(try oneLineWidth(text) == plain + 20)   // four letters, 5 px wider each
    }

    @Test func letterSpacingAddsOneSpacingPerCluster() throws {
        let text = "Tea 👨‍👩‍👧 e\u{301}"   // 7 clusters: T e a ␠ family ␠ é
        let plain = try PreparedText(text).layout(width: 100_000).lines[0].width
        var style = TextStyle()
        style.letterSpacing = 1.5
        let spaced = try PreparedText(text, style: style).layout(width: 100_000).lines[0].width
        #expect(abs(spaced - plain - 7 * 1.5) < 0.001)
        var styled = AttributedText(text)
        try styled.setAttributes(TextAttributes(letterSpacing: 2), utf16Range: 0..<3)
        #expect(abs(try oneLineWidth(styled) - plain - 3 * 2) < 0.001)
    }

    /// Chromium leaves letter spacing out of cursive runs, and its script runs pair
    /// brackets: the ")" closing a "(" opened in Arabic is Arabic too, though a Latin
    /// word comes before it. Spaced: the ten Latin letters and the two spaces, not the
    /// brackets (one spacing more, 13, was what the ")" taking Latin gave).
    @Test func aBracketClosedAfterLatinInArabicTakesTheArabicRun() throws {
        let text = "دولار (officially) دولار"
        func width(_ spacing: Double) throws -> Double {
            var style = TextStyle()
            style.letterSpacing = spacing
            return try PreparedText(text, style: style).layout(width: 100_000).lines[0].width
        }
        #expect(abs(try width(3) - width(1) - 12 * 2) < 0.001)
        // In left-to-right text around it, the brackets are Latin and spaced.
        let latin = "see (officially) now"
        var one = TextStyle(), three = TextStyle()
        one.letterSpacing = 1
        three.letterSpacing = 3
        let spaced = try PreparedText(latin, style: three).layout(width: 100_000).lines[0].width
            - PreparedText(latin, style: one).layout(width: 100_000).lines[0].width
        #expect(abs(spaced - 20 * 2) < 0.001)
    }

    @Test func wordSpacingIsAddedToSpacesOnly() throws {
        let plain = try PreparedText("a b c").layout(width: 100_000).lines[0].width
        let spaced = try PreparedText("a b c", style: TextStyle(wordSpacing: 4)).layout(width: 100_000).lines[0].width
        #expect(abs(spaced - plain - 8) < 0.001)
    }

    @Test func aStyleBoundaryInsideAWordAddsNoBreak() throws {
        var text = AttributedText("unbreakable words")
        try text.setAttributes(TextAttributes(fontSize: 25), utf16Range: 2..<5)
        #expect(try PreparedText(text).segments.map(\.end) == [12, 17])
        // Nor removes one: "a-b" breaks after the hyphen, styled on either side or not.
        var hyphen = AttributedText("well-known")
        try hyphen.setAttributes(TextAttributes(fontSize: 25), utf16Range: 4..<5)
        #expect(try PreparedText(hyphen).segments.map(\.end) == PreparedText("well-known").segments.map(\.end))
    }

    /// A paragraph is shaped apart from the one before it, in styled text as in plain:
    /// BoxNewline makes a letter after its newline glyph 900 units wide when the two are
    /// shaped in one buffer, and 500 when the paragraph starts a buffer of its own.
    @Test func aParagraphIsShapedApartFromTheOneBefore() throws {
        let fonts = try FontSet([Font(contentsOfFile: packageRoot + "/Tests/Fixtures/fonts/BoxNewline.ttf")])
        let style = TextStyle(fontSize: 10)
        let plain = try PreparedText("ab\nab", fonts: fonts, style: style).layout(width: 1000)
        var text = AttributedText("ab\nab", style: style, fonts: fonts)
        try text.setAttributes(TextAttributes(letterSpacing: 0), utf16Range: 0..<1)
        let styled = try PreparedText(text).layout(width: 1000)
        #expect(plain.lines.map(\.width) == [10, 10])
        #expect(styled.lines.map(\.width) == [10, 10])
    }

    /// Twice the size on one word of the second line: only that line is taller, by
    /// what Noto Sans's normal box grows (ascent and descent rounded per size).
    @Test func aBiggerSpanMakesExactlyItsLineTaller() throws {
        let base = try PreparedText("first line\nsecond 😀 line\nthird").layout(width: 1000)
        var text = AttributedText("first line\nsecond 😀 line\nthird")
        try text.setAttributes(TextAttributes(fontSize: 34), utf16Range: 18..<20)
        let styled = try PreparedText(text).layout(width: 1000)
        #expect(styled.lines.count == 3)
        #expect(styled.lines[0].height == base.lines[0].height)
        #expect(styled.lines[2].height == base.lines[2].height)
        let emoji = try PreparedText("😀", style: TextStyle(fontSize: 34)).layout(width: 1000).lines[0]
        let plain = base.lines[1]
        // The line reaches from the highest box to the lowest: the 34 px emoji's above
        // its baseline, and the lower of the two boxes below.
        let below = max(plain.height - plain.baseline, emoji.height - emoji.baseline)
        #expect(styled.lines[1].height == emoji.baseline + below)
        #expect(styled.lines[1].height > plain.height)
    }

    static func bubble(_ message: String) throws -> AttributedText {
        var text = AttributedText(message + " \u{FFFC}", style: TextStyle(fontSize: 15))
        let end = text.text.utf16.count
        try text.setAttributes(TextAttributes(placeholder: InlinePlaceholder(width: 40, height: 12, baseline: 10)),
                               utf16Range: end - 1..<end)
        return text
    }

    @Test func aTimestampPlaceholderStaysOnTheLastLineWhenItFitsAndWrapsWhenNot() throws {
        let text = try Self.bubble("See you")
        let prepared = try PreparedText(text)
        let oneLine = try prepared.layout(width: 1000)
        let message = try PreparedText("See you", style: TextStyle(fontSize: 15)).layout(width: 1000).lines[0].width
        #expect(oneLine.lines.count == 1)
        let space = Double(prepared.graphemeWidths[7]) / Double(Units.widthPerPixel)
        #expect(space > 3)
        #expect(abs(oneLine.lines[0].width - (message + space + 40)) < 0.01)
        // Just too narrow for the placeholder: it wraps onto a line of its own.
        let wrapped = try prepared.layout(width: message + space + 39)
        #expect(wrapped.lines.count == 2)
        #expect(wrapped.lines[1].utf16Range == 8..<9)
        #expect(wrapped.lines[1].height == 12 + max(0, wrapped.lines[0].height - 12))
    }

    @Test func invalidRunsAreErrorsNamingTheRun() throws {
        var text = AttributedText("ab😀c")
        #expect(throws: TextMeasureError.invalidRun(index: 0, reason: "offset 3 splits a surrogate pair")) {
            try text.setAttributes(TextAttributes(fontSize: 20), utf16Range: 0..<3)
        }
        #expect(throws: TextMeasureError.invalidRun(index: 0, reason: "range 0..<9 is outside the text (0..<5 UTF-16 units)")) {
            try text.setAttributes(TextAttributes(fontSize: 20), utf16Range: 0..<9)
        }
        try text.setAttributes(TextAttributes(fontSize: 20), utf16Range: 1..<2)
        #expect(throws: TextMeasureError.invalidRun(index: 0, reason: "range 0..<2 overlaps 1..<2")) {
            try text.setAttributes(TextAttributes(fontSize: 20), utf16Range: 0..<2)
        }
        #expect(throws: TextMeasureError.invalidRun(index: 0, reason: "a placeholder must cover exactly one U+FFFC")) {
            try text.setAttributes(TextAttributes(placeholder: InlinePlaceholder(width: 1, height: 1, baseline: 1)),
                                   utf16Range: 0..<1)
        }
        #expect(throws: TextMeasureError.invalidRun(index: 1, reason: "invalid font size -1.0: must be finite and within 0.01...10000.0")) {
            try text.setAttributes(TextAttributes(fontSize: -1), utf16Range: 4..<5)
        }
        #expect(throws: TextMeasureError.invalidSpacing(name: "letter spacing", value: .infinity)) {
            try PreparedText("a", style: TextStyle(letterSpacing: .infinity))
        }
    }

    /// A composer whose draft holds a bold mention: two-sided at the window's width
    /// (it fits there, not one pixel narrower) and taller than one line.
    @Test func aComposerWithAMentionIsMeasuredTwoSided() throws {
        let bold = try FontSet([Font(contentsOfFile: Self.boxVariable, variations: ["wght": 900])] + FontSet.default.fonts)
        var draft = AttributedText("Thanks @ana for the review of the layout change, merging it now",
                                   style: TextStyle(fontSize: 15))
        try draft.setAttributes(TextAttributes(fonts: bold), range: draft.text.firstRange(of: "@ana")!)
        let prepared = try PreparedText(draft)
        let layout = try prepared.layout(width: 200)
        #expect(layout.lines.count > 1)
        for line in layout.lines { #expect(line.width <= 200) }
        let widest = layout.lines.map(\.width).max()!
        #expect(try prepared.layout(width: widest).lines.count == layout.lines.count)
        #expect(try prepared.layout(width: widest - 1 / 64).lines.count > layout.lines.count
                || prepared.layout(width: widest - 1 / 64).lines.map(\.utf16Range) != layout.lines.map(\.utf16Range))
    }
}

/// Styled cases in JSON: `"letterSpacing"`, `"wordSpacing"`, `"spans"`, read strictly.
@Suite struct RichTextCaseTests {
    func read(_ json: String) throws(CaseReadError) -> MeasurementCase {
        try MeasurementCase(json: Array(json.utf8))
    }

    func message(_ json: String) -> String? {
        do { _ = try read(json); return nil } catch { return "\(error.id.map(String.init(describing:)) ?? "-"): \(error.message)" }
    }

    @Test func aStyledCaseMeasuresAsTheSwiftAPIDoes() throws {
        let json = #"{"id": "m", "text": "Hi @ana see \uFFFC", "width": 300, "letterSpacing": 0.5, "#
            + #""spans": [{"start": 3, "end": 7, "size": 22, "wordSpacing": 2}, "#
            + #"{"start": 12, "end": 13, "placeholder": {"width": 30, "height": 40, "baseline": 30}}]}"#
        let styled = try read(json)
        #expect(styled.spans?.count == 2)
        var text = AttributedText("Hi @ana see \u{FFFC}", style: TextStyle(letterSpacing: 0.5))
        try text.setAttributes(TextAttributes(fontSize: 22, wordSpacing: 2), utf16Range: 3..<7)
        try text.setAttributes(TextAttributes(placeholder: InlinePlaceholder(width: 30, height: 40, baseline: 30)),
                               utf16Range: 12..<13)
        let direct = try TextMeasurer(attributedText: text).sizeThatFits(ProposedSize(width: 300))
        let result = try styled.measure(fonts: FontCache())
        #expect(result.height == direct?.height)
        #expect(result.height >= 40)   // the placeholder's box is on the line
    }

    @Test func badSpansAreErrorsNamingTheCaseAndTheKey() {
        let start = #"{"id": 7, "text": "ab😀c\uFFFC", "width": 100, "spans": "#
        #expect(message(start + #"[{"start": 0, "end": 3}]}"#)
                == #"7: "spans[0].end" splits a surrogate pair at UTF-16 offset 3"#)
        #expect(message(start + #"[{"start": 0, "end": 9}]}"#)
                == #"7: "spans[0].end" must be a whole number from 0 to 6, got 9"#)
        #expect(message(start + #"[{"start": 0, "end": 2}, {"start": 1, "end": 2}]}"#)
                == #"7: "spans[1].start" overlaps or precedes spans[0] (0..<2): spans are sorted and do not overlap"#)
        #expect(message(start + #"[{"start": 0, "end": 1, "colour": 1}]}"#)?.hasPrefix(#"7: unknown key "spans[0].colour""#) == true)
        #expect(message(start + #"[{"start": 0, "end": 1, "placeholder": {"width": 1, "height": 1, "baseline": 1}}]}"#)
                == #"7: "spans[0].placeholder" must be on exactly one U+FFFC, but the span covers 0..<1"#)
        #expect(message(start + #"[{"start": 5, "end": 6, "placeholder": {"width": 1, "height": 1}}]}"#)
                == #"7: missing "spans[0].placeholder.baseline""#)
    }
}

@Suite struct LineRunTests {
    @Test func eachLineNamesTheStylesItHolds() throws {
        var text = AttributedText("plain BIG plain again")
        try text.setAttributes(TextAttributes(fontSize: 30), utf16Range: 6..<9)
        let prepared = try PreparedText(text)
        let one = try prepared.layout(width: 1000).lines[0]
        #expect(prepared.runs(on: one).map(\.utf16Range) == [0..<6, 6..<9, 9..<21])
        #expect(prepared.runs(on: one).map(\.runIndex) == [nil, 0, nil])
        #expect(prepared.runs(on: one).map(\.style.fontSize) == [17, 30, 17])
        // Narrow: the run is clipped to the lines it is on.
        let lines = try prepared.layout(width: 10).lines
        let big = lines.flatMap { prepared.runs(on: $0) }.filter { $0.runIndex == 0 }.map(\.utf16Range)
        #expect(big.first?.lowerBound == 6 && big.last?.upperBound == 9 && big.count > 1)
        #expect(try PreparedText("plain").runs(on: PreparedText("plain").layout(width: 100).lines[0]).count == 1)
    }
}
