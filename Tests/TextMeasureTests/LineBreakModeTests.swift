import Testing
import TextMeasure
@testable import TextMeasureLineFitting

/// Wrapping, character wrapping and clipping, with and without a line limit.
@Suite struct LineBreakModeTests {
    static let cases = Samples.all.flatMap { text in Samples.widths.map { (text, $0) } }

    @Test(arguments: cases)
    func charWrappingUsesNoMoreLinesThanWordWrapping(text: String, width: Double) throws {
        let prepared = try PreparedText(text)
        let words = try prepared.layout(width: width, lineBreakMode: .byWordWrapping)
        let chars = try prepared.layout(width: width, lineBreakMode: .byCharWrapping)
        #expect(chars.lines.count <= words.lines.count)
        #expect(chars.linesTileVisibleRange && chars.visibleUTF16Range.upperBound == prepared.utf16Count)
        #expect(!chars.isTruncated)
    }

    /// Each char-wrapped line fits, and takes every cluster that fits: the first
    /// cluster of the next line would overflow it (both sides, by the engine's
    /// widths, and within two pixels by the line's text shaped on its own).
    @Test(arguments: cases)
    func charWrappingBreaksBeforeTheFirstClusterThatDoesNotFit(text: String, width: Double) throws {
        let prepared = try PreparedText(text)
        let layout = try prepared.layout(width: width, lineBreakMode: .byCharWrapping)
        let boundaries = characterBoundaries(text)
        let clusters = clusterRanges(prepared)
        let fixed = prepared.widthUnits(width)
        for (line, next) in zip(layout.lines, layout.lines.dropFirst()) {
            #expect(boundaries.contains(line.utf16Range.upperBound), "line cut inside a cluster: \(line.text)")
            let content = line.text.trimmingTrailingHangingWhitespace()
            let oneCluster = content.count == 1
            if !oneCluster {
                #expect(line.width <= width)
                #expect(try shapedWidth(content) <= width + 2, "\(content)")
            }
            guard line.lineEnd == .softBreak else { continue }
            // Spaces hang at the end of a line; the next one starts with content.
            #expect(next.text.first.map { $0 != " " && $0 != "\t" } ?? true, "\(next.text)")
            let nextCluster = try #require(clusters.first { $0.lowerBound == line.utf16Range.upperBound })
            let contentEnd = line.utf16Range.lowerBound + content.utf16.count
            #expect(clusterWidth(prepared, line.utf16Range.lowerBound..<contentEnd) <= fixed || oneCluster)
            #expect(clusterWidth(prepared, line.utf16Range.lowerBound..<nextCluster.upperBound) > fixed)
            let withNext = text.utf16Slice(line.utf16Range.lowerBound..<nextCluster.upperBound)
            #expect(try shapedWidth(withNext) > width - 2, "\(withNext)")
        }
    }

    @Test func charWrappingBreaksInsideWordsThatWordWrappingMoves() throws {
        let prepared = try PreparedText("aaaa bbbbbbbbbbbb")
        let width = try shapedWidth("aaaa bbb") + 0.5
        let chars = try prepared.layout(width: width, lineBreakMode: .byCharWrapping)
        let words = try prepared.layout(width: width, lineBreakMode: .byWordWrapping)
        #expect(chars.lines.first.map { String($0.text) } == "aaaa bbb")
        #expect(words.lines.first.map { String($0.text) } == "aaaa ")
    }

    @Test(arguments: Samples.all + ["one\n\ntwo\n", "", "\n", "trailing spaces   \nnext"])
    func clippingMakesOneLinePerParagraph(text: String) throws {
        let prepared = try PreparedText(text)
        for width in [1.0, 50, 390] {
            let layout = try prepared.layout(width: width, lineBreakMode: .byClipping)
            #expect(layout.lines.count == paragraphCount(text))
            #expect(layout.lines.allSatisfy { $0.lineEnd == .mandatoryBreak || $0.lineEnd == .endOfText })
            #expect(!layout.isTruncated)
            // The widest line is the widest paragraph, whatever the box, by HarfBuzz alone
            // (its colour emoji advance 0.3% apart from the library's bitmap strikes).
            let widest = text.split(whereSeparator: \.isNewline).map { try! shapedWidth($0) }.max() ?? 0
            #expect(abs(layout.usedWidth - widest) <= widest * 0.005 + 1.0 / 64, "\(layout.usedWidth) vs \(widest)")
        }
    }

    @Test(arguments: [LineBreakMode.byWordWrapping, .byCharWrapping, .byClipping])
    func aLineLimitKeepsTheFirstLinesAndSaysTheRestIsHidden(mode: LineBreakMode) throws {
        for text in Samples.all {
            let prepared = try PreparedText(text)
            for width in Samples.widths {
                let all = try prepared.layout(width: width, lineBreakMode: mode)
                for limit in [1, 2, all.lines.count - 1, all.lines.count, all.lines.count + 3] where limit > 0 {
                    let limited = try prepared.layout(width: width, lineBreakMode: mode, maximumNumberOfLines: limit)
                    #expect(limited.lines == Array(all.lines.prefix(limit)))
                    #expect(limited.isTruncated == (limit < all.lines.count))
                    #expect(limited.linesTileVisibleRange)
                    #expect(limited.visibleRange == text.startIndex..<(limited.lines.last?.range.upperBound ?? text.startIndex))
                    #expect(limited.height == all.lines.prefix(limit).reduce(0) { $0 + $1.height })
                }
            }
        }
    }

    @Test func aLimitDoesNotCountTheCaretLineAsHiddenText() throws {
        // The empty line after a final newline holds no text: cutting it hides nothing.
        let layout = try PreparedText("one\ntwo\n").layout(width: 300, maximumNumberOfLines: 2)
        #expect(layout.lines.count == 2)
        #expect(!layout.isTruncated)
        #expect(layout.visibleUTF16Range == 0..<8)
    }

    @Test func aNegativeLineLimitIsRejected() throws {
        #expect(throws: TextMeasureError.invalidOption(name: "maximumNumberOfLines", value: -1)) {
            try PreparedText("text").layout(width: 100, maximumNumberOfLines: -1)
        }
        #expect(throws: TextMeasureError.self) {
            try TextMeasurer(text: "text", container: TextContainer(maximumNumberOfLines: -2))
        }
    }

    @Test func modesHaveTheCommandLineNames() {
        #expect(LineBreakMode.allCases.map(\.rawValue)
                == ["word", "char", "clip", "truncate-head", "truncate-middle", "truncate-tail"])
        #expect(LineBreakMode(rawValue: "truncate-tail") == .byTruncatingTail)
    }
}

extension StringProtocol {
    /// The text without the spaces, tabs and newlines at its end, which hang.
    func trimmingTrailingHangingWhitespace() -> SubSequence {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == " " || last == "\t" || last.isNewline {
            end = index(before: end)
        }
        return self[..<end]
    }
}

extension String {
    /// The text between two UTF-16 offsets.
    func utf16Slice(_ range: Range<Int>) -> Substring {
        let start = utf16.index(startIndex, offsetBy: range.lowerBound)
        return self[start..<utf16.index(start, offsetBy: range.count)]
    }
}
