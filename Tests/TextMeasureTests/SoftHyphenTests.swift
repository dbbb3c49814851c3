import Testing
@testable import TextMeasure

/// Soft hyphens (U+00AD) as Chromium 156 lays them out: invisible and without width
/// in mid-line, a break opportunity, and at a break a hyphen drawn and counted.
/// (The browser fixture's `shy` group checks the same against Chromium itself.)
@Suite struct SoftHyphenTests {
    static let word = "co\u{AD}operate"

    func layout(_ text: String, width: Double, fonts: FontSet = .default) throws -> TextLayout {
        try PreparedText(text, fonts: fonts).layout(width: width, emptyLines: .label)
    }

    /// The hyphen's width in px, rounded up to 1/64 px as Blink counts it.
    var hyphenWidth: Double {
        get throws { Double(try PreparedText("x").hyphen.width) / Double(Units.widthPerPixel) }
    }

    @Test func invisibleWithNoWidthInMidLine() throws {
        let line = try #require(try layout(Self.word, width: 500).lines.first)
        // No width of its own: exactly the word without it (HarfBuzz's own sum, to its rounding).
        #expect(line.width == (try #require(try layout("cooperate", width: 500).lines.first)).width)
        #expect(abs(line.width - (try shapedWidth("cooperate"))) <= 1.0 / 64)
        #expect(line.hyphen == nil)
        #expect(line.displayText == Self.word)
    }

    @Test func aLineEndingAtASoftHyphenShowsAndCountsAHyphen() throws {
        let width = try shapedWidth("operate") + 1   // more than "co‐", less than "cooperate"
        #expect(width > (try shapedWidth("co")) + (try hyphenWidth))
        let lines = try layout(Self.word, width: width).lines
        #expect(lines.map(\.displayText) == ["co\u{AD}\u{2010}", "operate"])
        #expect(lines[0].hyphen == "\u{2010}")   // Noto Sans has U+2010 HYPHEN
        #expect(abs(lines[0].width - (try shapedWidth("co")) - (try hyphenWidth)) < 1.0 / 64)
        #expect(lines[1].hyphen == nil)
        #expect(try hyphenWidth > 3)
    }

    @Test func theBreakIsTakenOnlyWhenTheHyphenFitsToo() throws {
        // "go co" fits, "go co‐" does not: the line breaks after "go " instead.
        let text = "go " + Self.word
        let prefix = try shapedWidth("go co")
        let without = try layout(text, width: prefix + 0.5).lines.map(\.displayText)
        #expect(without.first == "go ")
        let with = try layout(text, width: prefix + (try hyphenWidth) + 0.5).lines.map(\.displayText)
        #expect(with.first == "go co\u{AD}\u{2010}")
    }

    @Test func aWordTooLongEvenAloneBreaksBeforeTheLetterTheSoftHyphenHoldsOnTo() throws {
        // "pre" fits but "pre‐" does not, nor "preh": Chromium gives "pr" | "e‐" | ...
        let width = try shapedWidth("pre") + 0.5
        #expect(try hyphenWidth > 1)
        let lines = try layout("pre\u{AD}hen", width: width).lines.map(\.displayText)
        #expect(lines.first == "pr")
        #expect(lines.dropFirst().first == "e\u{AD}\u{2010}")
    }

    @Test func aSoftHyphenEndingTheTextOrAParagraphShowsItsHyphen() throws {
        let end = try #require(try layout("one\u{AD}", width: 500).lines.last)
        #expect(end.hyphen != nil)
        #expect(abs(end.width - (try shapedWidth("one")) - (try hyphenWidth)) < 1.0 / 64)
        let paragraph = try layout("one\u{AD}\ntwo", width: 500).lines
        #expect(paragraph.map { $0.hyphen != nil } == [true, false])
    }

    @Test func truncationDropsTheHyphenWithTheTextItHides() throws {
        let text = "co\u{AD}operate co\u{AD}operate co\u{AD}operate"
        let width = try shapedWidth("co") + hyphenWidth + 1
        let measurer = try TextMeasurer(text: text, container: TextContainer(lineBreakMode: .byTruncatingTail,
                                                                             maximumNumberOfLines: 1))
        let line = try #require(try measurer.layout(width: width).lines.first)
        #expect(line.hyphen == nil)
        #expect(line.displayText.hasSuffix("…"))
        let wrapped = try layout(text, width: width).lines
        #expect(wrapped.first?.hyphen != nil)
    }

    @Test func sizingCountsTheHyphenAsLayoutDoes() throws {
        let prepared = try PreparedText(Self.word)
        let width = try shapedWidth("operate") + 1
        let layout = try prepared.layout(width: width, emptyLines: .label)
        let stack = try prepared.lineStack(width: width, options: FittingOptions(emptyLines: .label, lineBreakMode: .byWordWrapping,
                                                                                 maximumNumberOfLines: 0))
        #expect(Double(stack.widest) / Double(Units.widthPerPixel) == layout.usedWidth)
        #expect(layout.lines.count == 2)
    }
}
