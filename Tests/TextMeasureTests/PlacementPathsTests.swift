import Foundation
import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// Placing has a path per kind of line: left-to-right text in text order, a line at
/// its paragraph's level and the one above in one pass, and rule L2 on level runs
/// for the rest. Every line placed another way must come out as L2 places it, to
/// the bit: boxes, visual order and line geometry.
@Suite struct PlacementPathsTests {
    /// Mixed scripts, right to left, left to right, digits and Latin in Arabic and
    /// Hebrew, ligatures, tabs, hanging spaces, soft hyphens and paragraphs.
    static let texts = [
        "مرحبا بالعالم، هذه فقرة عربية طويلة لاختبار",
        "لا إله إلا الله، السلام عليكم ورحمة الله وبركاته   ",
        "اتصل على 45-7781 الآن أو اكتب إلى info@example.com قبل الساعة 10:30",
        "הפגישה עם John Smith נקבעה ל-3 PM ביום שני.",
        "at מרכז העיר (downtown) and back again",
        "The price is ٣٫٥٠ دينار (about $9.99) — cheap!",
        "שלום John עולם\nHello there friend\nمرحبا بكم في البيت",
        "Tabs\tbetween\twords and עברית\tבטאב",
        "In my younger and more vulnerable years my father gave me some advice.",
        "Soft\u{00AD}hyphen\u{00AD}ated words in a nar\u{00AD}row column, over and over again",
        "مرحبا\u{2029}Hello\u{2029}\u{2029}שלום עולם",
        "中文和English混合的文本，还有 العربية 一点点。",
        "🇫🇷 emoji 😅 في النص 👍🏽 here",
    ]

    static let widths: [Double] = [40, 90, 160, 260, 1000]

    /// A placed line's geometry, without how its visual order is kept.
    struct LineGeometry: Equatable {
        let utf16Range: Range<Int>, left: Double, right: Double, y: Double, height: Double, baseline: Double
        let isRightToLeft: Bool, visualClusters: Range<Int>, hyphenLeft: Double?

        init(_ line: TextPlacement.Line) {
            (utf16Range, left, right, y, height, baseline) = (line.utf16Range, line.left, line.right, line.y,
                                                               line.height, line.baseline)
            (isRightToLeft, visualClusters, hyphenLeft) = (line.isRightToLeft, line.visualClusters, line.hyphenLeft)
        }
    }

    /// Fails naming the first line or cluster that differs, not printing them all.
    static func expectSame(_ placement: TextPlacement, _ reference: TextPlacement, _ label: String) {
        func firstDifference<T: Equatable>(_ one: [T], _ other: [T]) -> Int? {
            one.count != other.count ? min(one.count, other.count) : one.indices.first { one[$0] != other[$0] }
        }
        let line = firstDifference(placement.lines.map(LineGeometry.init), reference.lines.map(LineGeometry.init))
        #expect(line == nil, "\(label): line \(line ?? -1)")
        let cluster = firstDifference(placement.clusters, reference.clusters)
        #expect(cluster == nil, "\(label): cluster \(cluster ?? -1)")
        let visual = firstDifference(Array(placement.visualOrder), Array(reference.visualOrder))
        #expect(visual == nil, "\(label): visual position \(visual ?? -1)")
    }

    @Test(arguments: WritingDirection.allCases)
    func linesPlacedInOnePassAreWhereRuleL2PutsThem(direction: WritingDirection) throws {
        for text in Self.texts {
            let prepared = try PreparedText(text, style: TextStyle(baseWritingDirection: direction))
            for width in Self.widths {
                for mode in [LineBreakMode.byWordWrapping, .byTruncatingTail, .byTruncatingMiddle] {
                    let layout = try prepared.layout(width: width, lineBreakMode: mode,
                                                     maximumNumberOfLines: mode == .byWordWrapping ? 0 : 2)
                    for alignment in TextAlignment.allCases {
                        let label = "\(text) \(direction) \(width) \(mode) \(alignment)"
                        Self.expectSame(prepared.placement(of: layout, alignment: alignment),
                                        prepared.placement(of: layout, alignment: alignment, onePass: false), label)
                    }
                }
            }
        }
    }

    /// The fixture stories, paragraph by paragraph, at several widths.
    @Test(arguments: FixtureTexts.names)
    func fixtureParagraphsArePlacedAsRuleL2PlacesThem(name: String) throws {
        for paragraph in try FixtureTexts.paragraphs(name) {
            let prepared = try PreparedText(paragraph)
            for width in [70.0, 150, 330] {
                let layout = try prepared.layout(width: width)
                Self.expectSame(prepared.placement(of: layout), prepared.placement(of: layout, onePass: false),
                                "\(name) \(width)")
            }
        }
    }

    /// Placing keeps no state between calls: placements made on many threads at once
    /// equal those made one after the other.
    @Test func placingOnManyThreadsAtOnceEqualsPlacingSerially() async throws {
        let prepared = try Self.texts.map { try PreparedText($0) }
        let layouts = try prepared.map { text in try Self.widths.map { try text.layout(width: $0) } }
        let serial = zip(prepared, layouts).map { text, layouts in layouts.map { text.placement(of: $0) } }
        let concurrent = await withTaskGroup(of: (Int, [TextPlacement]).self) { group in
            for round in 0..<8 {
                for index in prepared.indices {
                    let text = prepared[index], layouts = layouts[index]
                    group.addTask { (round * prepared.count + index, layouts.map { text.placement(of: $0) }) }
                }
            }
            var results: [(Int, [TextPlacement])] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(concurrent.count == 8 * prepared.count)
        for (key, placements) in concurrent {
            for (placement, reference) in zip(placements, serial[key % prepared.count]) {
                Self.expectSame(placement, reference, "text \(key % prepared.count)")
            }
        }
    }
}
