import Testing
import TextMeasureTesting

/// The two-sided check on fields measured by TextMeasure: one that wraps, one that
/// clips (one line, inside) and one that runs off (taller, outside).
@Suite struct WrapCheckTests {
    static let container = 390.0

    static func composer(_ text: String) throws -> TextMeasurer {
        try TextMeasurer(text: text, container: .textView)
    }

    @Test func aWrappingFieldPassesBothSides() throws {
        let check = try WrapCheck(measurer: Self.composer(gatsby), containerWidth: Self.container)
        #expect(check.staysInside && check.growsPastOneLine && check.passed)
        #expect(check.fieldMaxX == Self.container)
        #expect(check.description.hasPrefix("wraps:"))
    }

    /// A field that shows one line and clips the rest (a UITextField, or a text view
    /// measured before it had a width) stays inside: the height side must catch it.
    @Test func aFieldThatClipsFailsOnHeight() throws {
        let wrapping = try WrapCheck(measurer: Self.composer(gatsby), containerWidth: Self.container)
        let check = WrapCheck(fieldMaxX: Self.container, fieldHeight: wrapping.oneLineHeight,
                              containerMaxX: Self.container, oneLineHeight: wrapping.oneLineHeight)
        #expect(check.staysInside)
        #expect(!check.growsPastOneLine && !check.passed)
        #expect(check.description.contains("does not grow past one line"))
        #expect(check.description.contains("clips or scrolls"))
        #expect(check.description.contains("which a field that clips does too"))
        #expect(!check.description.contains("runs off"))
    }

    /// The broken composer: it took the width of its unwrapped text (`idealWidth`),
    /// and still grew taller at the newline. The width side must catch it.
    @Test func aFieldThatRunsOffFailsOnWidth() throws {
        let measurer = try Self.composer(gatsby + "\n" + gatsby)
        let idealWidth = measurer.idealWidth
        #expect(idealWidth > Self.container)
        let frame = try #require(measurer.sizeThatFits(ProposedSize(width: idealWidth)))
        let oneLine = try WrapCheck(measurer: measurer, containerWidth: Self.container).oneLineHeight
        let check = WrapCheck(fieldMaxX: frame.width, fieldHeight: frame.height, containerMaxX: Self.container,
                              oneLineHeight: oneLine)
        #expect(check.growsPastOneLine, "two paragraphs, two lines")
        #expect(!check.staysInside && !check.passed)
        #expect(check.description.contains("runs off the edge"))
        #expect(check.description.contains("width of its unwrapped text"))
        #expect(check.description.contains("which a field that runs off does too"))
        #expect(!check.description.contains("does not grow"))
    }

    @Test func aFieldThatDoesNeitherNamesBothSides() throws {
        let measurer = try Self.composer(gatsby)
        let check = try WrapCheck(measurer: measurer, containerWidth: measurer.idealWidth)
        let outside = WrapCheck(fieldMaxX: check.fieldMaxX, fieldHeight: check.fieldHeight,
                                containerMaxX: Self.container, oneLineHeight: check.oneLineHeight)
        #expect(!outside.staysInside && !outside.growsPastOneLine)
        #expect(outside.description.contains("runs off the edge") && outside.description.contains("does not grow"))
    }

    /// The tolerance of 1 on each side, at its edges.
    @Test func theOnePixelToleranceIsInclusiveOnTheEdgeAndStrictOnTheHeight() {
        func check(maxX: Double, height: Double) -> WrapCheck {
            WrapCheck(fieldMaxX: maxX, fieldHeight: height, containerMaxX: 390, oneLineHeight: 36)
        }
        #expect(check(maxX: 391, height: 80).staysInside)
        #expect(!check(maxX: 391.01, height: 80).staysInside)
        #expect(!check(maxX: 300, height: 37).growsPastOneLine)
        #expect(check(maxX: 300, height: 37.01).growsPastOneLine)
    }

    /// One line is measured with everything the field has: a composer whose minimum
    /// height is above one line must grow past that minimum to count as wrapping.
    @Test func oneLineHonoursTheMinimumHeight() throws {
        var composer = try Self.composer("Short")
        composer.minimumHeight = 60
        let check = try WrapCheck(measurer: composer, containerWidth: Self.container)
        #expect(check.oneLineHeight == 60)
        #expect(check.fieldHeight == 60 && !check.passed)
    }
}
