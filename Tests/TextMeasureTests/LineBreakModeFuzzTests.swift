import Testing
import TextMeasure
@testable import TextMeasureLineFitting

/// Random texts of mixed clusters at random widths, in every mode and with small
/// line limits: the invariants that hold for any input.
@Suite struct LineBreakModeFuzzTests {
    /// SplitMix64: a fixed seed gives the same texts on every machine.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces = ["a", "word", "W", "fi", " ", " ", "  ", "\t", "\n", "漢", "字。", "「引用」", "👩‍👩‍👧", "🇯🇵",
                         "e\u{301}", "!", " !", "-", "https://example.com/a/long/path", "مرحبا", "ไทย", "한국어", "\u{00A0}"]

    @Test func invariantsHoldForRandomTexts() throws {
        var random = Generator(state: 42)
        for _ in 0..<150 {
            let text = (0..<Int.random(in: 0...40, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let prepared = try PreparedText(text)
            let boundaries = characterBoundaries(text)
            let width = [0, 1, 9.5, 20, 45.25, 80, 150, 300][Int.random(in: 0..<8, using: &random)]
            let words = try prepared.layout(width: width)
            for mode in LineBreakMode.allCases {
                for limit in [0, 1, 2, 4] {
                    let layout = try prepared.layout(width: width, lineBreakMode: mode, maximumNumberOfLines: limit)
                    let context = "\(mode) \(width) \(limit) \(text.unicodeScalars.map { String($0.value, radix: 16) })"
                    #expect(layout.linesTileVisibleRange, "\(context)")
                    // The fuzz targets' invariants, fullness included (a fitter that ended lines early fails).
                    #expect(throws: Never.self, "\(context)") {
                        try LayoutInvariants.check(layout, of: prepared, width: width, emptyLines: .textView,
                                                   lineBreakMode: mode, maximumNumberOfLines: limit)
                    }
                    #expect(limit == 0 || layout.lines.count <= limit, "\(context)")
                    for line in layout.lines {
                        #expect(boundaries.contains(line.utf16Range.upperBound), "\(context)")
                        if let elided = line.elidedUTF16Range {
                            #expect(boundaries.contains(elided.lowerBound) && boundaries.contains(elided.upperBound), "\(context)")
                            #expect(line.width <= width || line.displayText.trimmingTrailingHangingWhitespace() == "\u{2026}",
                                    "\(context)")
                        }
                    }
                    if mode == .byCharWrapping, limit == 0 {
                        #expect(layout.lines.count <= words.lines.count, "\(context)")
                    }
                    if mode.truncation == nil {
                        #expect(layout.lines.allSatisfy { $0.elidedRange == nil }, "\(context)")
                    }
                }
            }
        }
    }
}
