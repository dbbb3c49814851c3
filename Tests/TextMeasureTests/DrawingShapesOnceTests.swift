// Foundation only for JSONDecoder (the bidi texts' file).
import Foundation
import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// `glyphs(in:)` shapes a prepared text once, the first time it is drawn, and keeps
/// the glyphs (`GlyphStore`): drawing it again, at any width or alignment, shapes nothing,
/// and gives what shaping afresh gives.
@Suite struct DrawingShapesOnceTests {
    static let mixed = "הפגישה עם John Smith נקבעה ל-3 PM ביום שני. مرحبا بالعالم، هذه فقرة co\u{AD}operate"

    /// Placements of `prepared` at `width` in every alignment, truncated to two lines and not.
    static func placements(of prepared: PreparedText, width: Double) throws -> [TextPlacement] {
        try TextAlignment.allCases.flatMap { alignment in
            [prepared.placement(of: try prepared.layout(width: width), alignment: alignment),
             prepared.placement(of: try prepared.layout(width: width, lineBreakMode: .byTruncatingTail, maximumNumberOfLines: 2),
                                alignment: alignment)]
        }
    }

    @Test func drawingAgainShapesNothing() throws {
        let prepared = try PreparedText(Self.mixed, style: TextStyle(fontSize: 15))
        let before = MeasuringProbe.callsOnThisThread
        _ = prepared.glyphs(in: prepared.placement(of: try prepared.layout(width: 150)))
        // The first drawing shapes (the probe counts in debug builds, where tests run).
        #expect(MeasuringProbe.callsOnThisThread > before)
        let drawn = MeasuringProbe.callsOnThisThread
        var glyphs = 0
        for width in [70.0, 150, 1000] {
            for placement in try Self.placements(of: prepared, width: width) {
                glyphs += prepared.glyphs(in: placement).joined().count
            }
        }
        #expect(MeasuringProbe.callsOnThisThread == drawn)
        #expect(glyphs > 1000)
        // A copy shares what was kept; another preparation of the text keeps its own.
        let copy = prepared
        _ = copy.glyphs(in: copy.placement(of: try copy.layout(width: 90)))
        #expect(MeasuringProbe.callsOnThisThread == drawn)
        let again = try PreparedText(Self.mixed, style: TextStyle(fontSize: 15))
        _ = again.glyphs(in: again.placement(of: try again.layout(width: 90)))
        #expect(MeasuringProbe.callsOnThisThread > drawn)
    }

    /// Every script's fixture text and the bidi texts, in both paragraph directions, at
    /// three widths, every alignment, truncated and not: the glyphs drawn from what the
    /// first drawing kept are the glyphs a fresh preparation shapes for that placement.
    @Test func keptGlyphsAreWhatShapingAfreshGives() throws {
        let bidi = try JSONDecoder().decode([String: [String]].self, from: Data(contentsOf: URL(
            fileURLWithPath: packageRoot + "/Tests/Fixtures/browser/bidi-texts.json")))
        let texts = try FixtureTexts.names.map { try FixtureTexts.paragraphs($0).prefix(2).joined(separator: "\n") }
            + bidi.keys.sorted().flatMap { bidi[$0]! } + [Self.mixed]
        var compared = 0
        for text in texts {
            for direction in [WritingDirection.natural, .rightToLeft] {
                let style = TextStyle(fontSize: 15, baseWritingDirection: direction)
                let kept = try PreparedText(text, style: style)
                _ = kept.glyphs(in: [0..<kept.utf16Count])   // shaped and kept
                for width in [80.0, 190, 400] {
                    let fresh = try Self.placements(of: PreparedText(text, style: style), width: width)
                    for (index, placement) in try Self.placements(of: kept, width: width).enumerated() {
                        // A new preparation of the text has nothing kept: it shapes for this drawing.
                        let shaped = try PreparedText(text, style: style)
                        #expect(kept.glyphs(in: placement) == shaped.glyphs(in: fresh[index]), "\(text.prefix(20)) \(width)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == texts.count * 2 * 3 * 10)
    }
}
