import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// "Layout does no measuring": once a text is prepared, laying it out at any width,
/// in any line-break mode, makes no call into ICU or HarfBuzz.
@Suite struct RelayoutMeasuresNothingTests {
    /// Several scripts and fonts, a word too long for narrow lines, tabs and paragraphs.
    static let text = """
        Supercalifragilisticexpialidocious words, 中文的句子。 العربية نص، हिन्दी पाठ, ไทยภาษา, 한국어 문장 👨‍👩‍👧 🇫🇷
        second paragraph\twith a tab and “quotes”…
        """

    @Test func preparingCallsICUAndHarfBuzz() throws {
        let before = MeasuringProbe.callsOnThisThread
        _ = try PreparedText(Self.text, cache: nil)
        // At least ICU's line breaks, the clusters, and one hb_shape per font: seven fonts draw this text.
        #expect(MeasuringProbe.callsOnThisThread - before >= 9)
    }

    @Test func layingOutAgainAtAnyWidthCallsNeither() throws {
        let prepared = try PreparedText(Self.text, cache: nil)
        let measurer = try TextMeasurer(prepared: prepared, container: .textView)
        let before = MeasuringProbe.callsOnThisThread
        var lines = 0
        for width in stride(from: 0.0, through: 1_500, by: 3.5) {
            lines += try prepared.layout(width: width).lines.count
            _ = measurer.sizeThatFits(ProposedSize(width: width))
            _ = measurer.intrinsicContentSize(currentWidth: width)
            for mode in LineBreakMode.allCases {
                lines += try prepared.layout(width: width, lineBreakMode: mode, maximumNumberOfLines: 2).lines.count
            }
        }
        _ = measurer.idealWidth
        _ = prepared.unwrappedWidth
        #expect(lines > 4_000)   // the layouts did happen, narrow ones breaking inside words
        #expect(MeasuringProbe.callsOnThisThread == before)
    }

    @Test(arguments: [TextWrap.balance, .pretty])
    func balancingAndPrettyCallNeither(_ textWrap: TextWrap) throws {
        var style = TextStyle()
        style.textWrap = textWrap
        let prepared = try PreparedText("A short \u{AD}title that wraps onto a few lines, soft\u{AD}ly", style: style,
                                        cache: nil)
        let before = MeasuringProbe.callsOnThisThread
        var rewrapped = 0
        for width in stride(from: 20.0, through: 600, by: 3.5) {
            rewrapped += try prepared.layout(width: width).lines.filter(\.isRewrapped).count
        }
        #expect(rewrapped > 0)
        #expect(MeasuringProbe.callsOnThisThread == before)
    }
}
