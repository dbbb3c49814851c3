import Testing
import TextMeasure
@testable import TextMeasureShaping
@testable import TextMeasurePreparation

/// Styled text goes through the shape cache per run (`StyledSegmentCache`): what
/// preparing it gives is the same, to the bit, with the cache and without it.
@Suite struct StyledShapeCacheTests {
    /// What preparing styled text produced: the plain facts and each slot's box.
    struct Prepared: Equatable {
        var plain: ShapeCacheTests.Prepared
        var lineBoxes: [LineBox]

        init(_ prepared: PreparedText) {
            plain = ShapeCacheTests.Prepared(prepared)
            lineBoxes = prepared.lineBoxes
        }
    }

    /// `text` with three runs over its thirds (ends moved off the middle of a surrogate
    /// pair), each from `attributes`, the rest of the text in the base style.
    static func thirds(_ text: String, _ attributes: [TextAttributes]) throws -> AttributedText {
        let units = Array(text.utf16)
        func cut(_ offset: Int) -> Int {
            offset > 0 && offset < units.count && UTF16.isTrailSurrogate(units[offset]) ? offset + 1 : offset
        }
        let bounds = [0, cut(units.count / 3), cut(2 * units.count / 3), units.count]
        var attributed = AttributedText(text, style: TextStyle(fontSize: 15))
        for (index, attributes) in attributes.enumerated() where bounds[index] < bounds[index + 1] {
            try attributed.setAttributes(attributes, utf16Range: bounds[index]..<bounds[index + 1])
        }
        return attributed
    }

    /// A size, a letter spacing (which also turns common ligatures off) and a feature;
    /// then word spacing, a font set of its own (a variable font first, the default
    /// fonts behind it) and a size; then one run in the middle third only.
    static func runMixes() throws -> [[TextAttributes]] {
        let box = try Font(contentsOfFile: RichTextTests.boxVariable, variations: ["wght": 900])
        let boxFirst = try FontSet([box] + FontSet.default.fonts)
        return [
            [TextAttributes(fontSize: 19), TextAttributes(letterSpacing: 0.5), TextAttributes(fontFeatures: ["-kern"])],
            [TextAttributes(wordSpacing: 3), TextAttributes(fonts: boxFirst), TextAttributes(fontSize: 11)],
            [TextAttributes(), TextAttributes(fontSize: 22, letterSpacing: -0.25)],
        ]
    }

    @Test func preparingStyledTextWithTheCacheGivesWhatPreparingWithoutItGives() throws {
        let cache = ShapeCache(capacity: 100_000)
        for text in try ShapeCacheTests.texts + FixtureTexts.names.map(FixtureTexts.text) {
            for runs in try Self.runMixes() {
                let attributed = try Self.thirds(text, runs)
                let reference = Prepared(try PreparedText(attributed, cache: nil))
                // First sight, second (stored), third (served from the cache).
                for pass in 1...3 {
                    #expect(Prepared(try PreparedText(attributed, cache: cache)) == reference,
                            "pass \(pass): \(text.prefix(40))")
                }
            }
        }
        #expect(cache.statistics.hits > 1_000)
    }

    /// Every script of the fixture texts, each text's runs learnt from the others:
    /// segments the cache serves meet neighbours (and runs) they were not stored beside.
    @Test func styledSegmentsMeetingInNewContextsAreStillExact() throws {
        let cache = ShapeCache(capacity: 100_000)
        let runs = try Self.runMixes()[0]
        let texts = try FixtureTexts.names.map { try FixtureTexts.paragraphs($0).prefix(3).joined(separator: " ") }
        for text in texts { for _ in 1...2 { _ = try PreparedText(Self.thirds(text, runs), cache: cache) } }
        let hitsBefore = cache.statistics.hits
        for (a, b) in zip(texts, texts.dropFirst()) {
            for mixture in [a + " " + b, b + "\n" + a] {
                let attributed = try Self.thirds(mixture, runs)
                #expect(Prepared(try PreparedText(attributed, cache: cache)) == Prepared(try PreparedText(attributed, cache: nil)),
                        "\(mixture.prefix(40))")
            }
        }
        #expect(cache.statistics.hits > hitsBefore)
    }

    /// A segment with a run inside it (a bold syllable), or a run's edge, is shaped whole,
    /// never served as one style: the case the browser corpus holds, at a fixed line
    /// height (where the bold font's box makes its lines taller), and a larger size.
    @Test func aSegmentARunCutsIsNotServedInOneStyle() throws {
        let text = "unbelievably long compound words like Donaudampfschifffahrt unbelievably long"
        let bold = try FontSet([Font(contentsOfFile: RichTextTests.boxVariable, variations: ["wght": 900])]
                               + FontSet.default.fonts)
        for (attributes, lineHeight) in [(TextAttributes(fonts: bold), LineHeight.fixed(21)),
                                         (TextAttributes(fontSize: 22), .normal)] {
            let cache = ShapeCache(capacity: 1_000)
            var style = TextStyle(fontSize: 15)
            style.lineHeight = lineHeight
            var attributed = AttributedText(text, style: style)
            try attributed.setAttributes(attributes, utf16Range: 2..<8)
            try attributed.setAttributes(attributes, utf16Range: 38..<43)
            let reference = Prepared(try PreparedText(attributed, cache: nil))
            for pass in 1...3 { #expect(Prepared(try PreparedText(attributed, cache: cache)) == reference, "pass \(pass)") }
            #expect(cache.statistics.hits > 0)
        }
    }

    /// The key holds what a run changes: its size, letter and word spacing and features
    /// each give other widths, and the cache serves each its own.
    @Test func theKeyHoldsEachRunsSizeSpacingAndFeatures() throws {
        let cache = ShapeCache(capacity: 1_000)
        let text = "AVATAR office Typography AVATAR office Typography"
        let variants = [TextAttributes(fontSize: 17), TextAttributes(fontSize: 18), TextAttributes(letterSpacing: 1),
                        TextAttributes(letterSpacing: 2), TextAttributes(wordSpacing: 2),
                        TextAttributes(fontFeatures: ["-kern"])]
        var widths: [[Int]] = []
        for attributes in variants {
            var attributed = AttributedText(text, style: TextStyle(fontSize: 17))
            try attributed.setAttributes(attributes, utf16Range: 0..<text.utf16.count)
            let reference = Prepared(try PreparedText(attributed, cache: nil))
            for _ in 1...3 { #expect(Prepared(try PreparedText(attributed, cache: cache)) == reference) }
            widths.append(reference.plain.segments.flatMap { [$0.width, $0.trailingWidth] })
        }
        #expect(Set(widths).count == variants.count)
        #expect(cache.statistics.hits >= variants.count)
    }

    /// Right-to-left text keeps ligatures across graphemes with its segments, which the
    /// styled path does not store: it is shaped whole, and never looked up.
    @Test func rightToLeftStyledTextIsNotLookedUp() throws {
        let cache = ShapeCache(capacity: 1_000)
        let attributed = try Self.thirds("مرحبا بالعالم مرحبا بالعالم", Self.runMixes()[0])
        for _ in 1...3 { _ = try PreparedText(attributed, cache: cache) }
        #expect(cache.statistics.hits + cache.statistics.misses == 0)
        let english = try Self.thirds("hello world hello world", Self.runMixes()[0])
        _ = try PreparedText(english, cache: cache)
        #expect(cache.statistics.misses > 0)
    }
}
