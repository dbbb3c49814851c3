import Testing
@testable import TextMeasure

/// `text-wrap: balance` and `pretty` against Chromium 156's lines (from the browser
/// fixture's `balance` and `pretty` groups, Noto Sans 17 px), each also against greedy,
/// so that a fitter falling back to greedy fails too.
@Suite struct TextWrapTests {
    func lines(_ text: String, width: Double, _ textWrap: TextWrap) throws -> [String] {
        try layout(text, width: width, textWrap).lines.map { String($0.text) }
    }

    func layout(_ text: String, width: Double, _ textWrap: TextWrap) throws -> TextLayout {
        var style = TextStyle(fontSize: 17)
        style.textWrap = textWrap
        return try PreparedText(text, style: style).layout(width: width, emptyLines: .label)
    }

    @Test func balanceEvensOutATitle() throws {
        let fox = "The quick brown fox jumps over the lazy dog"
        #expect(try lines(fox, width: 228, .balance) == ["The quick brown fox ", "jumps over the lazy dog"])
        #expect(try lines(fox, width: 228, .wrap) != ["The quick brown fox ", "jumps over the lazy dog"])
        let german = "Die schnelle Entwicklung der Elektromobilität verändert unsere Städte"
        #expect(try lines(german, width: 231, .balance)
                == ["Die schnelle Entwicklung ", "der Elektromobilität ", "verändert unsere Städte"])
        let chinese = "今天天气很好，我们一起去公园散步，然后在湖边喝茶聊天吧。"
        #expect(try lines(chinese, width: 216, .balance) == ["今天天气很好，我们一", "起去公园散步，然后", "在湖边喝茶聊天吧。"])
        #expect(try layout(chinese, width: 216, .balance).lines.allSatisfy(\.isRewrapped))
    }

    @Test func balanceKeepsGreedyPastSixLines() throws {
        let text = "A short paragraph that wraps onto a few lines, so that its last line is not left with a single lonely word at the end."
        let balanced = try layout(text, width: 91, .balance)
        #expect(balanced.lines.count == 12)
        #expect(balanced.lines.map { String($0.text) } == (try lines(text, width: 91, .wrap)))
        #expect(balanced.lines.allSatisfy { !$0.isRewrapped })
        // Six lines are still balanced.
        let six = "Ein kurzer Absatz, der über einige Zeilen umbricht, damit seine letzte Zeile nicht nur ein einziges Wort enthält."
        var style = TextStyle(fontSize: 22)
        #expect(try PreparedText(six, style: style).layout(width: 231, emptyLines: .label).lines.count == 6)
        style.textWrap = .balance
        let balancedSix = try PreparedText(six, style: style).layout(width: 231, emptyLines: .label).lines
        #expect(balancedSix.map { String($0.text) } == ["Ein kurzer Absatz, ", "der über einige ", "Zeilen umbricht, ",
                                                        "damit seine letzte ", "Zeile nicht nur ein ",
                                                        "einziges Wort enthält."])
    }

    @Test func balanceTakesOnlyTheFirstParagraph() throws {
        let text = "First paragraph of a title\nand a second one below it that also wraps"
        let layout = try layout(text, width: 118, .balance)
        #expect(layout.lines.map { String($0.text) }
                == ["First ", "paragraph ", "of a title\n", "and a second ", "one below it ", "that also ", "wraps"])
        #expect(layout.lines.map(\.isRewrapped) == [true, true, true, false, false, false, false])
    }

    @Test func prettyRechoosesTheLastLinesWhenTheLastIsOneShortWord() throws {
        let headline = "Breaking: local council approves new bicycle lanes across the city centre"
        #expect(try lines(headline, width: 186, .pretty)
                == ["Breaking: local council ", "approves new bicycle ", "lanes across the ", "city centre"])
        #expect(try lines(headline, width: 186, .wrap).last == "centre")
        let chinese = "今天天气很好，我们一起去公园散步，然后在湖边喝茶聊天吧。"
        #expect(try lines(chinese, width: 159, .pretty) == ["今天天气很好，我们", "一起去公园散步，", "然后在湖边喝茶聊", "天吧。"])
        #expect(try lines(chinese, width: 159, .wrap) != ["今天天气很好，我们", "一起去公园散步，", "然后在湖边喝茶聊", "天吧。"])
    }

    @Test func prettyLeavesALongEnoughLastLineAlone() throws {
        let text = "Die schnelle Entwicklung der Elektromobilität verändert unsere Städte"
        let layout = try layout(text, width: 389.5, .pretty)
        #expect(layout.lines.map { String($0.text) } == (try lines(text, width: 389.5, .wrap)))
        #expect(layout.lines.allSatisfy { !$0.isRewrapped })
    }

    @Test func sizingAgreesWithLayout() throws {
        var style = TextStyle(fontSize: 17)
        style.textWrap = .balance
        let measurer = try TextMeasurer(text: "The quick brown fox jumps over the lazy dog", style: style,
                                        container: TextContainer(emptyLines: .label))
        let size = try #require(measurer.sizeThatFits(ProposedSize(width: 228)))
        #expect(size.height == (try measurer.layout(width: 228)).height)
    }
}

/// Every paragraph option with a line limit and truncation: the limit holds, the lines
/// are greedy's under it (Chromium's score breaking stops at a line clamp too), and a
/// truncated line shows "…", never a hyphen.
@Suite struct ParagraphOptionsWithLineLimitsTests {
    static let text = "Breaking: local council approves new bicycle lanes across the city centre, and hyphen\u{AD}ation too."

    static let styles: [(String, @Sendable (inout TextStyle) -> Void)] = [
        ("balance", { $0.textWrap = .balance }), ("pretty", { $0.textWrap = .pretty }),
        ("keep-all", { $0.wordBreak = .keepAll }), ("break-all", { $0.wordBreak = .breakAll }),
        ("strict", { $0.lineBreak = .strict }), ("loose", { $0.lineBreak = .loose }),
        ("overflow anywhere", { $0.overflowWrap = .anywhere }),
        ("anywhere", { $0.lineBreak = .anywhere }), ("overflow normal", { $0.overflowWrap = .normal }),
        ("white-space normal", { $0.whiteSpace = .normal }),
        ("hyphens auto", { $0.hyphens = .auto; $0.language = "en-US" }), ("hyphens none", { $0.hyphens = .none }),
    ]

    @Test(arguments: 0..<styles.count)
    func aLimitHoldsAndTheLastLineIsTruncated(_ index: Int) throws {
        var style = TextStyle()
        Self.styles[index].1(&style)
        let container = TextContainer(emptyLines: .label, lineBreakMode: .byTruncatingTail, maximumNumberOfLines: 2)
        let layout = try TextMeasurer(text: Self.text, style: style, container: container).layout(width: 150)
        #expect(layout.lines.count == 2, "\(Self.styles[index].0)")
        #expect(layout.isTruncated)
        #expect(layout.lines.last?.displayText.hasSuffix("…") == true)
        #expect(layout.lines.last?.hyphen == nil)
        #expect(layout.lines.allSatisfy { !$0.isRewrapped })
        let unlimited = try PreparedText(Self.text, style: style).layout(width: 150, emptyLines: .label)
        #expect(unlimited.lines.count > 2)
    }
}
