import Testing
import TextMeasure

/// Every paragraph option on styled text (a run in a bigger size, one with letter
/// spacing), alone and under a line limit: the option still changes where lines end
/// (against the same styled text without it), lines fit, and a limit holds with "…".
@Suite struct ParagraphOptionsStyledTests {
    static let text = "Breaking: local council approves   new bicycle lanes, hyphen\u{AD}ation and internationalization; "
        + "대한민국의 수도는 서울입니다. ちょっと待って、東京々。"

    static let options: [(String, @Sendable (inout TextStyle) -> Void)] = [
        ("balance", { $0.textWrap = .balance }), ("pretty", { $0.textWrap = .pretty }),
        ("break-all", { $0.wordBreak = .breakAll }), ("keep-all", { $0.wordBreak = .keepAll }),
        ("strict", { $0.lineBreak = .strict }), ("loose", { $0.lineBreak = .loose }),
        ("anywhere", { $0.lineBreak = .anywhere }), ("overflow normal", { $0.overflowWrap = .normal }),
        ("overflow anywhere", { $0.overflowWrap = .anywhere }), ("white-space normal", { $0.whiteSpace = .normal }),
        ("hyphens auto", { $0.hyphens = .auto; $0.language = "en-US" }), ("hyphens none", { $0.hyphens = .none }),
    ]

    /// The text with "council" half as big again and "bicycle lanes" letter-spaced.
    static func styled(_ configure: (inout TextStyle) -> Void) throws -> AttributedText {
        var style = TextStyle()
        configure(&style)
        var styled = AttributedText(text, style: style)
        try styled.setAttributes(TextAttributes(fontSize: style.fontSize * 1.5), range: text.firstRange(of: "council")!)
        try styled.setAttributes(TextAttributes(letterSpacing: 2), range: text.firstRange(of: "bicycle lanes")!)
        return styled
    }

    static let widths = stride(from: 45.0, through: 420, by: 15)

    @Test(arguments: 0..<options.count)
    func anOptionChangesStyledLinesAndLinesFit(_ index: Int) throws {
        let (name, configure) = Self.options[index]
        let withOption = try PreparedText(Self.styled(configure))
        let without = try PreparedText(Self.styled { _ in })
        var differing = 0
        for width in Self.widths {
            let lines = try withOption.layout(width: width, emptyLines: .label).lines
            if lines.map(\.utf16Range) != (try without.layout(width: width, emptyLines: .label)).lines.map(\.utf16Range) {
                differing += 1
            }
            // Only overflow-wrap: normal lets a word too long for the line overflow it.
            if name != "overflow normal" {
                #expect(lines.allSatisfy { $0.width <= width + 1.0 / 64 }, "\(name) at \(width)")
            }
        }
        // overflow-wrap: anywhere lays out as break-word, the default; every other option shows.
        if name == "overflow anywhere" {
            #expect(differing == 0)
        } else {
            #expect(differing > 0, "\(name) changes no line of the styled text")
        }
    }

    @Test(arguments: 0..<options.count)
    func aLimitHoldsOnStyledTextWithEachOption(_ index: Int) throws {
        let (name, configure) = Self.options[index]
        let container = TextContainer(emptyLines: .label, lineBreakMode: .byTruncatingTail, maximumNumberOfLines: 2)
        let measurer = try TextMeasurer(attributedText: Self.styled(configure), container: container)
        let layout = try measurer.layout(width: 150)
        #expect(layout.lines.count == 2, "\(name)")
        #expect(layout.isTruncated)
        #expect(layout.lines.last?.displayText.hasSuffix("…") == true)
        #expect(layout.lines.last?.hyphen == nil)
        let unlimited = try PreparedText(Self.styled(configure)).layout(width: 150, emptyLines: .label)
        #expect(unlimited.lines.count > 2)
        let size = try #require(measurer.sizeThatFits(ProposedSize(width: 150)))
        #expect(size.height >= layout.height && size.height < layout.height + 1)
    }
}
