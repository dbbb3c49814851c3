import Testing
import TextMeasure

/// Letter spacing as Chromium 156 spaces scripts whose letters join (found by the
/// sweep against Chromium, scripts/sweep_fonts.py, and checked there): nothing in an
/// Arabic run is spaced but its spaces. Digits and punctuation take the script of the
/// letters before them (the paragraph's first letters, when none comes before), as they
/// do for shaping, whichever font draws them. Indic conjuncts are spaced per glyph cluster.
@Suite struct CursiveLetterSpacingTests {
    /// How much wider `text` is with 2 px of letter spacing than without.
    func added(_ text: String) throws -> Double {
        let plain = try PreparedText(text).layout(width: 100_000).lines[0].width
        var style = TextStyle()
        style.letterSpacing = 2
        return try PreparedText(text, style: style).layout(width: 100_000).lines[0].width - plain
    }

    @Test func onlyTheSpacesOfAnArabicRunAreSpaced() throws {
        // م ر ح ب ا ، ␠ 1 2 ␠ ع ا ل م . : the two spaces.
        #expect(abs(try added("مرحبا، 12 عالم.") - 2 * 2) < 0.001)
        // The same punctuation and digits after Latin letters are spaced: all 12 clusters.
        #expect(abs(try added("hello, 12 x.") - 12 * 2) < 0.001)
    }

    @Test func punctuationBeforeTheFirstArabicLetterTakesItsScript() throws {
        #expect(abs(try added("«مرحبا»")) < 0.001)
        #expect(abs(try added("«hello»") - 7 * 2) < 0.001)
    }

    /// Chromium spaces after each glyph cluster: हिन्दी is two grapheme clusters (हि,
    /// न्दी: a conjunct) but three glyph clusters (हि, the half form न्, दी), क्ष one
    /// ligature, and a letter with its marks one cluster.
    @Test func anIndicConjunctIsSpacedOnceForEachGlyphCluster() throws {
        #expect(abs(try added("हिन्दी") - 3 * 2) < 0.001)
        #expect(abs(try added("क्ष") - 1 * 2) < 0.001)
        #expect(abs(try added("किं") - 1 * 2) < 0.001)
        #expect(abs(try added("e\u{301}") - 1 * 2) < 0.001)
    }

    /// In a left-to-right paragraph "»" after the Arabic words sits in the Latin line's
    /// direction, yet takes the Arabic letters' script: a, ␠, «, ␠ and b are spaced.
    @Test func punctuationAfterArabicWordsInLatinTextIsNotSpaced() throws {
        #expect(abs(try added("a «بب» b") - 5 * 2) < 0.001)
    }
}
