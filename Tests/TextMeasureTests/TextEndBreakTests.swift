import Testing
@testable import TextMeasure

/// The text's end is always a break: both segment builders end their last segment
/// there. Spaces collapsing at the end under `white-space: normal` and a soft hyphen
/// ending the text under `hyphens: none` once took that break away, and styled
/// preparation trapped (`breaks[segment]` out of range).
@Suite struct TextEndBreakTests {
    static func style(whiteSpace: WhiteSpace = .normal, hyphens: Hyphens = .manual,
                      letterSpacing: Double = 0, wordSpacing: Double = 0) -> TextStyle {
        var style = TextStyle()
        style.whiteSpace = whiteSpace
        style.hyphens = hyphens
        style.letterSpacing = letterSpacing
        style.wordSpacing = wordSpacing
        return style
    }

    /// Asserts that `prepared`'s segments end at its end and that its lines at `width`
    /// follow one another from the text's start to its end.
    static func expectCovered(_ prepared: PreparedText, width: Double, _ context: String) throws {
        #expect(prepared.segments.last.map { Int($0.end) } == prepared.utf16Count, "\(context)")
        let lines = try prepared.layout(width: width).lines
        var position = 0
        for line in lines {
            #expect(line.utf16Range.lowerBound == position, "\(context) at \(width)")
            position = line.utf16Range.upperBound
        }
        #expect(position == prepared.utf16Count, "\(context) at \(width): lines end at \(position)")
    }

    @Test func spacesEndingTheTextUnderNormalHangOnItsLastLine() throws {
        for (text, hyphens) in [("a \n", Hyphens.manual), ("a  ", .manual), ("a\u{AD}", .none), ("ab \t\r\n ", .manual)] {
            let style = Self.style(hyphens: hyphens, letterSpacing: 1)
            let styled = try PreparedText(AttributedText(text, style: style))
            #expect(styled.attributed != nil)   // the styled path, which trapped
            try Self.expectCovered(styled, width: 100, text.debugDescription)
            let lines = try styled.layout(width: 100).lines
            #expect(lines.count == 1, "\(text.debugDescription)")
            // The trailing spaces hang: the line is as wide as its letters alone.
            let letters = String(text.prefix { $0.isLetter })
            if hyphens == .manual {
                #expect(lines.first?.width == (try PreparedText(AttributedText(letters, style: style)).layout(width: 100)
                    .lines.first?.width), "\(text.debugDescription)")
            }
            try Self.expectCovered(PreparedText(text, style: Self.style(hyphens: hyphens)), width: 100,
                                   "plain \(text.debugDescription)")
        }
    }

    @Test(arguments: 0..<24)
    func everyOptionEndsTheLastSegmentAtTheTextsEnd(seed: Int) throws {
        var random = RandomTexts.Generator(state: UInt64(seed) &* 0x9E37_79B9 &+ 11)
        let pieces = ["a", "word", "ab\u{AD}cd", " ", "  ", "\n", "\t", " \n ", "\u{AD}", "مرحبا", "\u{FFFC}"]
        let endings = ["", " ", "  ", "\n", " \n", "\n\n", " \t ", "\u{AD}", "\u{AD} ", "\r\n"]
        for _ in 0..<6 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &random) { text += pieces.randomElement(using: &random)! }
            text += endings.randomElement(using: &random)!
            let style = Self.style(whiteSpace: WhiteSpace.allCases.randomElement(using: &random)!,
                                   hyphens: [.none, .manual].randomElement(using: &random)!,
                                   letterSpacing: [0, 1, -0.5].randomElement(using: &random)!,
                                   wordSpacing: [0, 3].randomElement(using: &random)!)
            let attributed = try StyledEditingTests.styled(text, style: style, &random)
            let context = "seed \(seed): \(text.debugDescription) \(style.whiteSpace) \(style.hyphens) "
                + "letter \(style.letterSpacing) word \(style.wordSpacing), \(attributed.runs.count) runs"
            let prepared = try PreparedText(attributed)
            for width in [1.0, 25, 100, 1000] { try Self.expectCovered(prepared, width: width, context) }
            let plain = try PreparedText(text, style: Self.style(whiteSpace: style.whiteSpace, hyphens: style.hyphens))
            try Self.expectCovered(plain, width: 25, "plain " + context)
        }
    }
}
