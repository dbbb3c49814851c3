import Testing
import TextMeasure
@testable import TextMeasureFonts

/// Fonts as cases name them (issue 15): a variable font's axes, the embedded set as
/// fallback, glyphs no font has counted, and feature settings HarfBuzz cannot read.
@Suite struct FontChoiceTests {
    static let boxVariable = packageRoot + "/Tests/Fixtures/fonts/BoxVariable.ttf"
    static let notoSans = packageRoot + "/Fonts/NotoSans-Regular.ttf"

    func width(_ text: String, _ font: Font, size: Double = 10) throws -> Double {
        try PreparedText(text, fonts: FontSet([font]), style: TextStyle(fontSize: size)).layout(width: 10_000).lines[0].width
    }

    /// BoxVariable's box is 500 units wide at wght 100 (the default) and 1000 at 900,
    /// its ascender 800 and 1000 units: HarfBuzz's advances and the line box both
    /// follow the instance. (The default instance is named: with no wght the font is at
    /// 400, as Chromium draws it, see VariableFontDefaultsTests.)
    @Test func variationsChangeAdvancesAndMetricsAsHarfBuzzDraws() throws {
        let regular = try Font(contentsOfFile: Self.boxVariable, variations: ["wght": 100])
        let bold = try Font(contentsOfFile: Self.boxVariable, variations: ["wght": 900])
        let middle = try Font(contentsOfFile: Self.boxVariable, variations: ["wght": 500])
        #expect(try width("aaaa", regular) == 20)
        #expect(try width("aaaa", bold) == 40)
        #expect(try width("aaaa", middle) == 30)
        #expect(regular.metrics.ascent == 800 && bold.metrics.ascent == 1000)
        #expect(bold.variations == ["wght": 900])
        let height = { (font: Font) in
            try PreparedText("a", fonts: FontSet([font]), style: TextStyle(fontSize: 10)).layout(width: 100).height
        }
        #expect(try height(regular) == 10 && height(bold) == 12)   // (800 + 200) and (1000 + 200) units at 10 px
    }

    @Test func aVariationTheFontCannotTakeIsAnError() {
        // Errors about a file's contents name the file (FontError.inFile).
        #expect(throws: FontError.inFile(path: Self.boxVariable,
                                          error: .invalidVariation(tag: "wdth", reason: "the font has no such axis: it has wght"))) {
            try Font(contentsOfFile: Self.boxVariable, variations: ["wdth": 100])
        }
        #expect { try Font(contentsOfFile: Self.boxVariable, variations: ["wght": 1000]) } throws: { error in
            guard case FontError.inFile(Self.boxVariable, .invalidVariation("wght", let reason)) = error else { return false }
            return reason.contains("100.0...900.0")
        }
        #expect { try Font(contentsOfFile: Self.notoSans, variations: ["wght": 700]) } throws: { error in
            guard case FontError.inFile(Self.notoSans, .invalidVariation("wght", let reason)) = error else { return false }
            return reason.contains("not a variable font")
        }
    }

    /// The shape cache is keyed by font set: instances of one file must not share sets.
    @Test func theFontCacheKeepsInstancesApart() throws {
        let cache = FontCache()
        let regular = try cache.fontSet([FontReference(path: Self.boxVariable)], embeddedFallback: false)
        let bold = try cache.fontSet([FontReference(path: Self.boxVariable, variations: ["wght": 900])], embeddedFallback: false)
        #expect(regular.identity != bold.identity)
        #expect(try cache.fontSet([FontReference(path: Self.boxVariable, variations: ["wght": 900])], embeddedFallback: false)
            .identity == bold.identity)
        for set in [regular, bold] {
            let prepared = try PreparedText("aaaa aaaa aaaa", fonts: set, style: TextStyle(fontSize: 10))
            let uncached = try PreparedText("aaaa aaaa aaaa", fonts: set, style: TextStyle(fontSize: 10), cache: nil)
            #expect(try prepared.layout(width: 1000).lines[0].width == uncached.layout(width: 1000).lines[0].width)
        }
        #expect(try PreparedText("aaaa", fonts: bold, style: TextStyle(fontSize: 10)).layout(width: 1000).lines[0].width == 40)
    }

    /// A server measuring with many instances stays bounded: the least recently used go.
    @Test func instancesAndSetsAreBounded() throws {
        let cache = FontCache()
        for weight in 100..<(100 + FontReferenceStore.faceLimit + 40) {
            let reference = FontReference(path: Self.boxVariable, variations: ["wght": Double(weight)])
            _ = try cache.fontSet([reference], embeddedFallback: weight.isMultiple(of: 2))
        }
        #expect(cache.references.counts.faces == FontReferenceStore.faceLimit)
        #expect(cache.references.counts.sets == FontReferenceStore.setLimit)
        // The most recent is still served from the store.
        let last = FontReference(path: Self.boxVariable, variations: ["wght": Double(100 + FontReferenceStore.faceLimit + 39)])
        #expect(try cache.font(last) === cache.font(last))
    }

    @Test func theEmbeddedSetFollowsAGivenFontUnlessTurnedOff() throws {
        let cache = FontCache()
        let withFallback = try cache.fontSet([FontReference(path: Self.notoSans)], embeddedFallback: true)
        let alone = try cache.fontSet([FontReference(path: Self.notoSans)], embeddedFallback: false)
        #expect(withFallback.fonts.count == 1 + FontSet.default.fonts.count)
        #expect(alone.fonts.count == 1)
        let text = "Hi 你好 🙂"
        #expect(try PreparedText(text, fonts: withFallback).missingGlyphClusterCount == 0)
        #expect(try PreparedText(text, fonts: alone).missingGlyphClusterCount == 3)
    }

    @Test func missingGlyphsCountClustersNotControlsOrCodeUnits() throws {
        let alone = try FontSet([Font(contentsOfFile: Self.notoSans)])
        #expect(try PreparedText("plain\ttext\nwith\u{2028}controls\u{200D}", fonts: alone).missingGlyphClusterCount == 0)
        #expect(try PreparedText("👩‍👩‍👧 🇯🇵", fonts: alone).missingGlyphClusterCount == 2)   // two clusters, many code units
        #expect(try PreparedText("\u{378}", fonts: .default).missingGlyphClusterCount == 1)  // unassigned: no font has it
        #expect(try PreparedText("", fonts: .default).missingGlyphClusterCount == 0)
    }

    @Test("a feature setting HarfBuzz cannot parse is an error", arguments: ["nonsense!!", "", "liga\u{0}junk", "+"])
    func unparsableFeature(_ feature: String) {
        #expect(throws: TextMeasureError.invalidFontFeature(feature)) {
            try PreparedText("text", style: TextStyle(fontFeatures: ["-kern", feature]))
        }
    }

    @Test("valid feature settings are accepted", arguments: ["-liga", "+tnum", "ss01=1", "kern[3:5]=0", "aalt=2"])
    func validFeature(_ feature: String) throws {
        _ = try PreparedText("text 123", style: TextStyle(fontFeatures: [feature]))
    }
}
