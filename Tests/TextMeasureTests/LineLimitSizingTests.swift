import Testing
import TextMeasure
@testable import TextMeasureLineFitting
@testable import TextMeasureSizing

/// `maximumNumberOfLines` and `lineBreakMode` through the sizing API and the case model.
@Suite struct LineLimitSizingTests {
    /// Prose long enough for more than 50 lines at the widths below.
    static let prose = String(repeating: Samples.latin.asOneParagraph() + " ", count: 8)
    static let cjkProse = String(repeating: Samples.cjk.asOneParagraph(), count: 12)

    /// The first `count` lines of `text` wrapped at `width`: a text that wraps to exactly that many.
    static func text(_ text: String, lines count: Int, width: Double, mode: LineBreakMode) throws -> String {
        let lines = try PreparedText(text).layout(width: width, lineBreakMode: mode).lines
        let end = try #require(lines.count > count ? lines[count - 1].range.upperBound : nil)
        return String(text[..<end])
    }

    @Test(arguments: [LineBreakMode.byWordWrapping, .byCharWrapping, .byTruncatingTail, .byTruncatingMiddle],
          [prose, cjkProse])
    func aComposerCappedAtFiveLinesStopsGrowing(mode: LineBreakMode, prose: String) throws {
        let width = 240.0
        // Without a limit a truncating mode keeps each paragraph on one line; with
        // one, the lines before the last wrap between words.
        var unlimited = TextContainer.textView
        unlimited.lineBreakMode = mode.truncation == nil ? mode : .byWordWrapping
        let textWidth = width - unlimited.horizontalChrome
        var limited = unlimited
        limited.lineBreakMode = mode
        limited.maximumNumberOfLines = 5

        func height(_ text: String, _ container: TextContainer) throws -> Double {
            let measurer = try TextMeasurer(text: text, container: container)
            let size = try #require(measurer.sizeThatFits(ProposedSize(width: width)))
            #expect(measurer.intrinsicContentSize(currentWidth: width).height == size.height)
            #expect(try measurer.layout(width: width).height + container.verticalChrome <= size.height)
            return size.height
        }
        // Texts that wrap to 4, 5 and 50 lines in this mode without a limit.
        var texts: [Int: String] = [:]
        for count in [4, 5, 50] {
            let text = try Self.text(prose, lines: count, width: textWidth, mode: unlimited.lineBreakMode)
            #expect(try TextMeasurer(text: text, container: unlimited).layout(width: width).lines.count == count)
            texts[count] = text
        }
        let four = try height(#require(texts[4]), limited)
        let five = try height(#require(texts[5]), limited)
        let fifty = try height(#require(texts[50]), limited)
        #expect(five == fifty)
        #expect(five > four)
        #expect(try height(#require(texts[50]), unlimited) > fifty)

        let layout = try TextMeasurer(text: #require(texts[50]), container: limited).layout(width: width)
        #expect(layout.lines.count == 5)
        #expect(layout.isTruncated)
    }

    @Test func measurerLayoutAppliesTheContainersModeAndLimit() throws {
        let container = TextContainer(lineBreakMode: .byTruncatingTail, maximumNumberOfLines: 2)
        let measurer = try TextMeasurer(text: Samples.latin, container: container)
        let layout = try measurer.layout(width: 200)
        #expect(layout.lines.count == 2)
        #expect(layout.lines.last?.displayText.contains("\u{2026}") == true)
        let size = try #require(measurer.sizeThatFits(ProposedSize(width: 200)))
        #expect(size.height == (layout.height).rounded(.up))
    }

    @Test func measurementCasesCarryTheLimitAndTheMode() throws {
        let fonts = FontCache()
        var limited = MeasurementCase(text: Samples.latin, width: 200, maxLines: 3, lineBreakMode: .byTruncatingHead)
        let result = try limited.measure(fonts: fonts)
        #expect(result.lines == 3)
        #expect(result.truncated == true)

        limited.maxLines = 100
        limited.lineBreakMode = .byWordWrapping
        let roomy = try limited.measure(fonts: fonts)
        #expect(roomy.truncated == false)
        #expect(roomy.lines > 3)

        // Cases without either field measure as before, and say nothing about truncation.
        let plain = try MeasurementCase(text: Samples.latin, width: 200).measure(fonts: fonts)
        #expect(plain.truncated == nil)
        #expect(plain.lines == roomy.lines && plain.height == roomy.height)
    }
}

extension String {
    /// The text with its newlines as spaces: one paragraph.
    func asOneParagraph() -> String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
