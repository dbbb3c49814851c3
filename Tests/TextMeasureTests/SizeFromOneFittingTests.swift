import Testing
import TextMeasure

/// Sizing fits without keeping lines (`LineStack`), layout keeps them all, and a
/// batch result takes its size from the same fitting's lines: all three must agree, in
/// every mode, with any container, for any text.
@Suite struct SizeFromOneFittingTests {
    @Test func sizeThatFitsEqualsTheSizeOfTheLayout() throws {
        var random = LineBreakModeFuzzTests.Generator(state: 7)
        let pieces = LineBreakModeFuzzTests.pieces
        for _ in 0..<120 {
            let text = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let prepared = try PreparedText(text)
            let width = [1, 12.5, 40, 97.75, 180, 320][Int.random(in: 0..<6, using: &random)]
            for mode in LineBreakMode.allCases {
                var container = TextContainer(lineBreakMode: mode, maximumNumberOfLines: Int.random(in: 0...3, using: &random))
                container.textContainerInset = EdgeInsets(top: 3, left: 2.5, bottom: 1, right: 0.5)
                container.lineFragmentPadding = [0, 5][Int.random(in: 0...1, using: &random)]
                container.emptyLines = Bool.random(using: &random) ? .textView : .label
                var measurer = try TextMeasurer(prepared: prepared, container: container)
                measurer.widthSizing = Bool.random(using: &random) ? .fill : .hug
                measurer.minimumHeight = [0, 30][Int.random(in: 0...1, using: &random)]
                measurer.maximumHeight = [.infinity, 50][Int.random(in: 0...1, using: &random)]
                measurer.displayScale = [1, 2, 3][Int.random(in: 0...2, using: &random)]
                let context = "\(mode) \(width) \(container) \(text.unicodeScalars.map { String($0.value, radix: 16) })"

                let size = try #require(measurer.sizeThatFits(ProposedSize(width: width)), "\(context)")
                let layout = try measurer.layout(width: width)
                let result = try MeasurementCase(text: text, width: width, maxLines: 0)
                    .result(of: measurer, width: width)
                #expect(result.height == size.height && result.width == size.width, "\(context)")
                #expect(result.lines == layout.lines.count && result.usedWidth == layout.usedWidth, "\(context)")
                #expect(result.lineStarts == layout.lines.map(\.utf16Range.lowerBound), "\(context)")
                #expect(result.truncated == layout.isTruncated, "\(context)")
            }
        }
    }

    @Test func unwrappedWidthIsTheWidestClippedLine() throws {
        for text in ["", "one two\nthree four five", "a\tb\t\tc\n\nd", "漢字。「引用」 and 한국어 مرحبا", "  lead  \n"] {
            let prepared = try PreparedText(text)
            let clipped = try prepared.layout(width: 10, lineBreakMode: .byClipping)
            #expect(prepared.unwrappedWidth == clipped.usedWidth, "\(text)")
            // And both are the widest paragraph by HarfBuzz alone (which knows no tab stops).
            if !text.contains("\t") {
                let widest = text.split(whereSeparator: \.isNewline).map { HarfBuzzReference.width($0) }.max() ?? 0
                #expect(abs(prepared.unwrappedWidth - widest) <= 1.0 / 64, "\(text): \(prepared.unwrappedWidth) vs \(widest)")
            }
            #expect(text.isEmpty || prepared.unwrappedWidth > 0, "\(text)")
        }
    }

    @Test func aResultRefusesTheWidthsSizeThatFitsRefuses() throws {
        let measurer = try TextMeasurer(text: "hello")
        for width in [0, -1, Double.nan, .infinity] {
            #expect(measurer.sizeThatFits(ProposedSize(width: width)) == nil)
            #expect(throws: TextMeasureError.self) { try MeasurementCase(text: "hello", width: width).result(of: measurer, width: width) }
        }
    }
}
