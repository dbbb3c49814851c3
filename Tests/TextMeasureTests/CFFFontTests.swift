import Testing
import TextMeasure

/// Fonts with PostScript outlines (CFF, CFF2), as the held-out sweep against Chromium
/// (scripts/sweep_fonts.py: Linux Libertine, EB Garamond, Cantarell, Noto CJK) uses them,
/// through the small fonts Tests/Fixtures/fonts/make-box-cff.py makes.
@Suite struct CFFFontTests {
    static let boxCFF = packageRoot + "/Tests/Fixtures/fonts/BoxCFF.otf"
    static let boxVariableCFF2 = packageRoot + "/Tests/Fixtures/fonts/BoxVariableCFF2.otf"

    func layout(_ text: String, _ font: Font, letterSpacing: Double = 0) throws -> (width: Double, glyphs: [UInt32]) {
        var style = TextStyle(fontSize: 10)
        style.letterSpacing = letterSpacing
        let prepared = try PreparedText(text, fonts: FontSet([font]), style: style)
        let line = try prepared.layout(width: 10_000).lines[0]
        return (line.width, prepared.glyphs(in: [0..<prepared.utf16Count])[0].map(\.glyphID))
    }

    /// BoxCFF's hhea, OS/2 typographic and win metrics all differ, and it does not set
    /// USE_TYPO_METRICS: its line box is hhea's (900 + 300 units), as Chromium's on Linux.
    @Test func aCFFFontLoadsWithItsHheaMetrics() throws {
        let font = try Font(contentsOfFile: Self.boxCFF)
        #expect(font.metrics.unitsPerEm == 1000)
        #expect(font.metrics.ascent == 900 && font.metrics.descent == 300 && font.metrics.lineGap == 0)
        let layout = try PreparedText("ab ab", fonts: FontSet([font]), style: TextStyle(fontSize: 10)).layout(width: 10_000)
        #expect(layout.height == 12)
        #expect(layout.lines[0].width == 22.5)   // four 500-unit boxes and a 250-unit space at 10 px
    }

    /// A font whose hhea ascender and descender are both zero takes its OS/2 typographic
    /// values, or its win values when those are zero too, as FreeType's face metrics do
    /// (which Chromium's Skia reads on Linux): BoxCFF's typo 750/250/200 and win 1100/400
    /// units give lines 13 and 15 px tall at 10 px, as in Chromium, not 0.
    @Test func zeroHheaMetricsFallBackAsFreeTypeDoes() throws {
        let original = try #require(readBytes(Self.boxCFF))
        func patched(_ fields: [(table: String, offset: Int)]) throws -> [UInt8] {
            var bytes = original
            for field in fields {
                let start = try #require(Self.tableOffset(field.table, in: bytes))
                bytes[start + field.offset] = 0
                bytes[start + field.offset + 1] = 0
            }
            return bytes
        }
        func lineHeight(_ bytes: [UInt8]) throws -> Double {
            let font = try Font(bytes: bytes)
            return try PreparedText("ab", fonts: FontSet([font]), style: TextStyle(fontSize: 10)).layout(width: 100).height
        }
        #expect(try lineHeight(original) == 12)   // hhea 900 + 300
        let noHhea = try patched([("hhea", 4), ("hhea", 6)])   // ascender, descender
        #expect(try lineHeight(noHhea) == 13)   // typo 7.5 + 2.5 px rounded up, and the 2 px gap
        #expect(try Font(bytes: noHhea).metrics.lineGap == 200)
        // sTypoAscender, sTypoDescender, sTypoLineGap at 68, 70, 72 of OS/2.
        let noTypo = try patched([("hhea", 4), ("hhea", 6), ("OS/2", 68), ("OS/2", 70), ("OS/2", 72)])
        #expect(try lineHeight(noTypo) == 15)   // win 1100 + 400
    }

    /// Where table `tag` starts in an sfnt font's bytes.
    static func tableOffset(_ tag: String, in bytes: [UInt8]) -> Int? {
        let count = Int(bytes[4]) << 8 | Int(bytes[5])
        for table in 0..<count {
            let record = 12 + 16 * table
            if String(decoding: bytes[record..<record + 4], as: UTF8.self) == tag {
                return bytes[record + 8..<record + 12].reduce(0) { $0 << 8 | Int($1) }
            }
        }
        return nil
    }

    /// Letter spacing turns off what `font-variant-ligatures: none` does, contextual
    /// alternates too, as Chromium does: BoxCFF's "f" before a letter is 300 units
    /// (calt) and "fi" one 600-unit glyph (liga) unspaced, 500 and 500 + 250 spaced.
    /// Drawing uses the glyphs measured (f.short is glyph 5, f 3, f_i 6, i 4).
    @Test func letterSpacingTurnsOffContextualAlternatesAsChromiumDoes() throws {
        let font = try Font(contentsOfFile: Self.boxCFF)
        let plain = try layout("ffff fi", font)
        let unspacedWidth: Double = 3 * 3 + 5 + 2.5 + 6
        #expect(plain.width == unspacedWidth)
        #expect(plain.glyphs == [5, 5, 5, 3, 1, 6])
        let spaced = try layout("ffff fi", font, letterSpacing: 1)
        let spacedWidth: Double = 4 * 5 + 2.5 + 5 + 2.5 + 7   // seven clusters, 1 px after each
        #expect(spaced.width == spacedWidth)
        #expect(spaced.glyphs == [3, 3, 3, 3, 1, 3, 4])
    }

    /// A word broken where it overflows ends its line with the glyph shaped alone, as
    /// Chromium shapes a line's end again: "aff" of "affa" is 5 + 3 + 3 units (each "f"
    /// before a letter is short) in the word, but 5 + 3 + 5 on a line of its own.
    @Test func aWordBrokenAfterAContextualAlternateEndsWithTheGlyphShapedAlone() throws {
        let fonts = try FontSet([Font(contentsOfFile: Self.boxCFF)])
        let prepared = try PreparedText("affa", fonts: fonts, style: TextStyle(fontSize: 10))
        #expect(try prepared.layout(width: 12).lines.map(\.text) == ["af", "fa"])
        #expect(try prepared.layout(width: 13).lines.map(\.text) == ["aff", "a"])
        #expect(try prepared.layout(width: 13).lines[0].width == 13)
    }

    /// A variable CFF2 font: HarfBuzz's advances (HVAR) and the metrics (MVAR) follow
    /// the instance, as for BoxVariable.ttf, its TrueType twin. (The default instance,
    /// wght 100, is named: with no wght the font is at 400, as Chromium draws it.)
    @Test func aVariableCFF2FontMeasuresItsInstance() throws {
        let regular = try Font(contentsOfFile: Self.boxVariableCFF2, variations: ["wght": 100])
        let bold = try Font(contentsOfFile: Self.boxVariableCFF2, variations: ["wght": 900])
        #expect(try layout("aaaa", regular).width == 20)
        #expect(try layout("aaaa", bold).width == 40)
        let height = { (font: Font) in
            try PreparedText("a", fonts: FontSet([font]), style: TextStyle(fontSize: 10)).layout(width: 100).height
        }
        #expect(try height(regular) == 10 && height(bold) == 12)   // (800 + 200) and (1000 + 200) units at 10 px
    }
}
