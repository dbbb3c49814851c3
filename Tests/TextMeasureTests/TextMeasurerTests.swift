import Testing
import TextMeasure

@Suite struct TextMeasurerTests {
    static let paragraph = """
        In my younger and more vulnerable years my father gave me some advice that I’ve been \
        turning over in my mind ever since. “Whenever you feel like criticizing anyone,” he told me, \
        “just remember that all the people in this world haven’t had the advantages that you’ve had.”
        """

    /// Noto Sans at 17 px, line-height normal: round(1069 × 17/1000) + round(293 × 17/1000) = 18 + 5.
    static let oneLine = 23.0

    // MARK: The seed: a growing composer must wrap, not ask for the whole screen.

    @Test func composerStaysInsideItsWidthAndGrowsPastOneLine() throws {
        let window = 390.0
        var composer = try TextMeasurer(text: Self.paragraph, container: .textView)
        composer.minimumHeight = 36
        composer.maximumHeight = 10_000
        let size = try #require(composer.sizeThatFits(ProposedSize(width: window, height: .infinity)))
        let oneLineHeight = Self.oneLine + 16   // one line plus UITextView's 8 + 8 inset
        // Both sides: inside the window (a field that runs off fails) and taller than one
        // line (a field that clips to one line fails).
        #expect(size.width <= window + 1)
        #expect(size.height > oneLineHeight + 1)
        // And every line really fits the text container's width.
        let layout = try composer.layout(width: window)
        #expect(layout.lines.allSatisfy { $0.width <= window - 10 })
        #expect(layout.lines.count > 1)
    }

    @Test func noUsableWidthGivesNoAnswerRatherThanOneLine() throws {
        let composer = try TextMeasurer(text: Self.paragraph)
        for width in [nil, 0, -10, .nan, .infinity, .greatestFiniteMagnitude * 2] as [Double?] {
            #expect(composer.sizeThatFits(ProposedSize(width: width)) == nil, "width \(String(describing: width))")
        }
        // Before the first layout pass the width is unknown: no height, not a one-line height.
        for width in [0, 0.5, 1, .nan] {
            let size = composer.intrinsicContentSize(currentWidth: width)
            #expect(size.width == noIntrinsicMetric)
            #expect(size.height == noIntrinsicMetric)
        }
    }

    @Test func intrinsicSizeNeverAsksForAWidth() throws {
        let composer = try TextMeasurer(text: Self.paragraph)
        let size = composer.intrinsicContentSize(currentWidth: 390)
        #expect(size.width == noIntrinsicMetric)
        #expect(size.height == composer.sizeThatFits(ProposedSize(width: 390))?.height)
        #expect(size.height > Self.oneLine)
        // The unwrapped width is what the broken composer asked for: far wider than the window.
        #expect(composer.idealWidth > 390 * 3)
    }

    // MARK: Sizing options

    @Test func fillTakesTheProposedWidthAndHugTakesTheWidestLine() throws {
        var measurer = try TextMeasurer(text: "Short")
        let filled = try #require(measurer.sizeThatFits(ProposedSize(width: 300)))
        #expect(filled.width == 300)
        measurer.widthSizing = .hug
        let hugged = try #require(measurer.sizeThatFits(ProposedSize(width: 300)))
        let textWidth = try measurer.layout(width: 300).lines[0].width
        #expect(hugged.width == textWidth.rounded(.up))
        #expect(hugged.width < 300)
        #expect(hugged.height == filled.height)
    }

    @Test func heightIsClampedBetweenMinimumAndCap() throws {
        var measurer = try TextMeasurer(text: Self.paragraph)
        let natural = try #require(measurer.sizeThatFits(ProposedSize(width: 200))).height
        measurer.maximumHeight = 100
        #expect(measurer.sizeThatFits(ProposedSize(width: 200))?.height == 100)
        #expect(natural > 100)
        measurer.maximumHeight = .infinity
        measurer.minimumHeight = natural + 50
        #expect(measurer.sizeThatFits(ProposedSize(width: 200))?.height == natural + 50)
    }

    @Test func insetsAndPaddingNarrowTheLinesAndAddHeight() throws {
        let plain = try TextMeasurer(text: Self.paragraph)
        let container = TextContainer(textContainerInset: EdgeInsets(top: 8, left: 20, bottom: 12, right: 30),
                                      lineFragmentPadding: 5)
        let inset = try TextMeasurer(text: Self.paragraph, container: container)
        // The inset text wraps exactly as the plain text does at the narrower width...
        let narrowed = try plain.layout(width: 300 - 20 - 30 - 10)
        let laidOut = try inset.layout(width: 300)
        #expect(laidOut.lines.map(\.utf16Range) == narrowed.lines.map(\.utf16Range))
        // ...and its height adds the vertical insets.
        let plainHeight = try #require(plain.sizeThatFits(ProposedSize(width: 240))).height
        #expect(inset.sizeThatFits(ProposedSize(width: 300))?.height == plainHeight + 20)
    }

    @Test func invalidContainerValuesAreRejected() {
        for value in [-1.0, .nan, .infinity] {
            #expect(throws: TextMeasureError.self) {
                try TextMeasurer(text: "x", container: TextContainer(lineFragmentPadding: value))
            }
        }
    }

    @Test func heightsRoundUpToDevicePixels() throws {
        var measurer = try TextMeasurer(text: "x", style: TextStyle(lineHeight: .fixed(20.3)))
        #expect(measurer.sizeThatFits(ProposedSize(width: 100))?.height == 21)
        measurer.displayScale = 2
        #expect(measurer.sizeThatFits(ProposedSize(width: 100))?.height == 20.5)
    }

    // MARK: Line heights

    @Test func lineHeightPolicies() throws {
        let text = "one two three four five six seven eight nine ten"
        func lines(_ style: TextStyle) throws -> TextLayout { try PreparedText(text, style: style).layout(width: 100) }
        let normal = try lines(TextStyle())
        #expect(normal.lines.allSatisfy { $0.height == Self.oneLine })
        #expect(normal.height == Self.oneLine * Double(normal.lines.count))
        let fixed = try lines(TextStyle(lineHeight: .fixed(30)))
        #expect(fixed.lines.count == normal.lines.count)
        #expect(fixed.height == 30 * Double(fixed.lines.count))
        let doubled = try lines(TextStyle(lineHeight: .multiple(2)))
        #expect(doubled.height == normal.height * 2)
        // Baselines sit inside their lines, one line height apart.
        #expect(normal.lines[0].baseline == 18)
        #expect(normal.lines[1].baseline == 18 + Self.oneLine)
    }

    @Test func invalidStylesAreTypedErrors() {
        for style in [TextStyle(fontSize: 0), TextStyle(fontSize: .nan), TextStyle(fontSize: 1e9),
                      TextStyle(lineHeight: .fixed(-3)), TextStyle(lineHeight: .multiple(.infinity))] {
            #expect(throws: TextMeasureError.self) { try PreparedText("x", style: style) }
        }
    }

    @Test func emptyTextIsOneLineTallInATextViewAndZeroInALabel() throws {
        let textView = try TextMeasurer(text: "")
        #expect(textView.sizeThatFits(ProposedSize(width: 100))?.height == Self.oneLine)
        let label = try TextMeasurer(text: "", container: TextContainer(emptyLines: .label))
        #expect(label.sizeThatFits(ProposedSize(width: 100))?.height == 0)
        let trailing = try TextMeasurer(text: "abc\n")
        #expect(trailing.sizeThatFits(ProposedSize(width: 100))?.height == 2 * Self.oneLine)
    }
}
