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
    /// the instance, as for BoxVariable.ttf, its TrueType twin.
    @Test func aVariableCFF2FontMeasuresItsInstance() throws {
        let regular = try Font(contentsOfFile: Self.boxVariableCFF2)
        let bold = try Font(contentsOfFile: Self.boxVariableCFF2, variations: ["wght": 900])
        #expect(try layout("aaaa", regular).width == 20)
        #expect(try layout("aaaa", bold).width == 40)
        let height = { (font: Font) in
            try PreparedText("a", fonts: FontSet([font]), style: TextStyle(fontSize: 10)).layout(width: 100).height
        }
        #expect(try height(regular) == 10 && height(bold) == 12)   // (800 + 200) and (1000 + 200) units at 10 px
    }
}
