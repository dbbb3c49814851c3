import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// Sizes, widths, line heights, tab sizes, insets and height limits outside what
/// makes sense: a typed error where the value is an input, a documented harmless
/// reading where it is a settable property, and never a trap, NaN or ∞.
@Suite struct RobustnessOptionTests {
    static let text = "In my younger and more vulnerable years my father gave me some advice."

    @Test(arguments: [0, -1, -0.0, .nan, .infinity, -.infinity, 0.009_999, 10_000.000_1, 1e300, .leastNonzeroMagnitude])
    func fontSizeOutsideTheRangeIsRefused(size: Double) {
        let error = #expect(throws: TextMeasureError.self) { try PreparedText(Self.text, style: TextStyle(fontSize: size)) }
        guard case .invalidFontSize = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func fontSizesAtTheLimitsScaleTheLayout() throws {
        let normal = try PreparedText(Self.text, style: TextStyle(fontSize: 17)).unwrappedWidth
        let largest = try PreparedText(Self.text, style: TextStyle(fontSize: TextStyle.fontSizeRange.upperBound))
        let smallest = try PreparedText(Self.text, style: TextStyle(fontSize: TextStyle.fontSizeRange.lowerBound))
        // Widths scale with the size, up to one 1/64 px rounding per grapheme.
        let graphemes = Double(Self.text.count)
        #expect(abs(largest.unwrappedWidth - normal * 10_000 / 17) <= graphemes / 64 * 10_000 / 17)
        #expect(smallest.unwrappedWidth <= graphemes / 64 && smallest.unwrappedWidth >= 0)
        // A 10,000 px font at 390 px: one word per line (an emergency-broken word takes several).
        let layout = try largest.layout(width: 390)
        #expect(layout.lines.count >= Self.text.split(separator: " ").count)
        #expect(layout.height.isFinite && layout.height > 10_000 * Double(layout.lines.count))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, -1, -.leastNonzeroMagnitude])
    func unusableLayoutWidthIsRefused(width: Double) throws {
        let prepared = try PreparedText(Self.text)
        for error in [#expect(throws: TextMeasureError.self) { try prepared.layout(width: width) },
                      #expect(throws: TextMeasureError.self) { try TextMeasurer(prepared: prepared).layout(width: width) }] {
            guard case .invalidWidth(let reported) = error else { Issue.record("\(String(describing: error))"); continue }
            #expect(reported.bitPattern == width.bitPattern)
        }
    }

    @Test(arguments: [nil, 0, -1, Double.nan, .infinity, -.infinity])
    func sizeThatFitsDoesNotGuessWithoutAWidth(width: Double?) throws {
        let measurer = try TextMeasurer(text: Self.text)
        #expect(measurer.sizeThatFits(ProposedSize(width: width)) == nil)
        if let width {
            #expect(measurer.intrinsicContentSize(currentWidth: width) == Size(width: noIntrinsicMetric, height: noIntrinsicMetric))
        }
    }

    @Test func extremeFiniteWidths() throws {
        let measurer = try TextMeasurer(text: Self.text + "\nsecond paragraph")
        let oneLineHeight = try #require(measurer.sizeThatFits(ProposedSize(width: 10_000))).height
        for width in [1e300, .greatestFiniteMagnitude] {
            // Wider than any text: the same answer as a merely wide width, one line per paragraph.
            #expect(measurer.sizeThatFits(ProposedSize(width: width)) == Size(width: width, height: oneLineHeight))
            #expect(try measurer.layout(width: width).lines.map(\.lineEnd) == [.mandatoryBreak, .endOfText])
        }
        // Narrower than any character: one grapheme cluster per line, nothing lost.
        let tiny = try measurer.layout(width: .leastNonzeroMagnitude)
        #expect(tiny.lines.count == (Self.text + "\nsecond paragraph").filter { $0 != " " && $0 != "\n" }.count)
        #expect(tiny.lines.last?.utf16Range.upperBound == (Self.text + "\nsecond paragraph").utf16.count)
    }

    @Test(arguments: [LineHeight.fixed(0), .fixed(-1), .fixed(.nan), .fixed(.infinity), .fixed(1_000_000.5),
                      .multiple(0), .multiple(-2), .multiple(.nan), .multiple(-.infinity), .multiple(2e6)])
    func invalidLineHeightIsRefused(lineHeight: LineHeight) {
        let error = #expect(throws: TextMeasureError.self) { try PreparedText(Self.text, style: TextStyle(lineHeight: lineHeight)) }
        guard case .invalidLineHeight = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func largestLineHeightsStayExactOrSaturate() throws {
        let fixed = try PreparedText("a\nb", style: TextStyle(lineHeight: .fixed(TextStyle.maximumLineHeight)))
        #expect(try fixed.layout(width: 100).height == 2 * TextStyle.maximumLineHeight)

        let normalHeight = try PreparedText("a").layout(width: 100).height
        let multiple = try PreparedText("a\nb", style: TextStyle(lineHeight: .multiple(1000)))
        #expect(try multiple.layout(width: 100).height == 2 * 1000 * normalHeight)

        // 10,000 px text at a million times its normal height: each line saturates at
        // the documented maximum instead of overflowing.
        let absurd = try PreparedText("a\nb", style: TextStyle(fontSize: 10_000, lineHeight: .multiple(TextStyle.maximumLineHeight)))
        let layout = try absurd.layout(width: 100)
        #expect(layout.lines.map(\.height) == [2, 2].map { Double($0 * LineBox.maximumExtent) / 64 })
        #expect(try TextMeasurer(prepared: absurd).sizeThatFits(ProposedSize(width: 100))?.height == layout.height)
    }

    @Test(arguments: [-1, 1001, Int.max, Int.min])
    func tabSizeOutsideTheRangeIsRefused(tabSize: Int) {
        #expect(throws: TextMeasureError.invalidTabSize(tabSize)) { try PreparedText("a\tb", style: TextStyle(tabSize: tabSize)) }
    }

    @Test(arguments: [0, 1, 8, 1000])
    func tabIsTabSizeSpacesWide(tabSize: Int) throws {
        let space = try #require(PreparedText(" ").graphemeWidths.first)
        let tab = try #require(PreparedText("\t", style: TextStyle(tabSize: tabSize)).graphemeWidths.first)
        // The space's own width is rounded to 1/64 px (by up to half a unit); the tab's is rounded once.
        #expect(abs(Int(tab) - tabSize * Int(space)) <= tabSize / 2 + 1)
    }

    @Test func widestTabSaturatesInsteadOfTrapping() throws {
        // 1000 spaces at 10,000 px: 2.6 million px, past what a cluster can measure.
        let prepared = try PreparedText("a\tb", style: TextStyle(fontSize: 10_000, tabSize: 1000))
        #expect(prepared.graphemeWidths.contains(Int32.max))
        let layout = try prepared.layout(width: 100_000)
        #expect(layout.lines.last?.utf16Range.upperBound == 3 && layout.height.isFinite && layout.usedWidth.isFinite)
    }

    @Test(arguments: ["inset.top", "inset.left", "inset.bottom", "inset.right", "lineFragmentPadding"])
    func invalidContainerValueIsRefused(name: String) throws {
        let prepared = try PreparedText(Self.text)
        for value in [Double.nan, .infinity, -1, 1e308, TextContainer.insetRange.upperBound.nextUp] {
            var container = TextContainer()
            switch name {
            case "inset.top": container.textContainerInset.top = value
            case "inset.left": container.textContainerInset.left = value
            case "inset.bottom": container.textContainerInset.bottom = value
            case "inset.right": container.textContainerInset.right = value
            default: container.lineFragmentPadding = value
            }
            let error = #expect(throws: TextMeasureError.self) { try TextMeasurer(prepared: prepared, container: container) }
            guard case .invalidInset(name, let reported) = error else { Issue.record("\(String(describing: error))"); continue }
            #expect(reported.bitPattern == value.bitPattern)
        }
    }

    @Test func largestInsetsGiveFiniteSizes() throws {
        let most = TextContainer.insetRange.upperBound
        let container = TextContainer(textContainerInset: EdgeInsets(top: most, left: most, bottom: most, right: most),
                                      lineFragmentPadding: most)
        let measurer = try TextMeasurer(text: Self.text, container: container)
        let size = try #require(measurer.sizeThatFits(ProposedSize(width: .greatestFiniteMagnitude)))
        #expect(size.height.isFinite && size.height > 2 * most)
        #expect(measurer.idealWidth.isFinite && measurer.idealWidth > 4 * most)
    }

    /// (minimumHeight, maximumHeight) → expected height, `h` standing for the text's own height.
    static let heightLimits: [(Double, Double, @Sendable (Double) -> Double)] = [
        (0, .infinity, { $0 }),
        (.nan, .infinity, { $0 }),             // no minimum
        (-50, .infinity, { $0 }),
        (.infinity, .infinity, { $0 }),        // an infinite minimum is no minimum, not an infinite height
        (-.infinity, .nan, { $0 }),            // NaN: no cap
        (0, -10, { _ in 0 }),                  // a cap below the minimum gives the minimum
        (0, -.infinity, { _ in 0 }),
        (500, .nan, { _ in 500 }),
        (500, 100, { _ in 500 }),
        (0, 30, { min($0, 30) }),
        (.nan, .nan, { $0 }),
    ]

    @Test func heightLimitsAreHarmlessWhateverTheirValues() throws {
        var measurer = try TextMeasurer(text: Self.text)
        let natural = try #require(measurer.sizeThatFits(ProposedSize(width: 120))).height
        #expect(natural > 30)
        for (minimum, maximum, expected) in Self.heightLimits {
            measurer.minimumHeight = minimum
            measurer.maximumHeight = maximum
            let height = try #require(measurer.sizeThatFits(ProposedSize(width: 120))).height
            #expect(height == expected(natural), "minimum \(minimum), maximum \(maximum)")
            #expect(measurer.intrinsicContentSize(currentWidth: 120).height == height)
        }
    }

    @Test(arguments: [Double.nan, 0, -2, .infinity, -.infinity])
    func unusableDisplayScaleCountsAsOne(scale: Double) throws {
        var measurer = try TextMeasurer(text: Self.text)
        let atOne = measurer.sizeThatFits(ProposedSize(width: 120))
        measurer.displayScale = scale
        #expect(measurer.sizeThatFits(ProposedSize(width: 120)) == atOne)
    }

    @Test func hugeDisplayScaleKeepsSizesFinite() throws {
        var measurer = try TextMeasurer(text: Self.text)
        measurer.displayScale = .greatestFiniteMagnitude
        let size = try #require(measurer.sizeThatFits(ProposedSize(width: 120)))
        #expect(size.height.isFinite && size.height > 0)
        #expect(measurer.idealWidth.isFinite)
    }
}
