import Testing
import TextMeasure
@testable import TextMeasureFonts

@Suite struct FontTests {
    static let fontsDirectory = packageRoot + "/Fonts/"

    @Test func embeddedSetLoadsEveryFontInFallbackOrder() {
        #expect(FontSet.default.fonts.map(\.name) == [
            "NotoSans-Regular.ttf", "NotoSansArabic-Regular.ttf", "NotoSansHebrew-Regular.ttf",
            "NotoSansDevanagari-Regular.ttf", "NotoSansThai-Regular.ttf", "DroidSansFallbackFull.ttf",
            "NanumSquareR.ttf", "NotoColorEmoji.ttf",
        ])
        #expect(FontSet.embeddedFontNames == FontSet.default.fonts.map(\.name))
    }

    @Test func embeddedFontsEqualTheFilesInFontsFolder() throws {
        for font in FontSet.default.fonts {
            let fromFile = try Font(contentsOfFile: Self.fontsDirectory + font.name)
            #expect(fromFile.metrics == font.metrics)
            #expect(fromFile.glyphCount == font.glyphCount)
        }
    }

    @Test func metricsComeFromTheFontTablesUnrounded() throws {
        // Noto Sans: head.unitsPerEm 1000, hhea 1069 / -293 / 0 (USE_TYPO_METRICS off).
        let noto = FontSet.default.primary.metrics
        #expect(noto == FontMetrics(unitsPerEm: 1000, ascent: 1069, descent: 293, lineGap: 0))
        // Noto Color Emoji is bitmap-only: FreeType reports units_per_EM 0, the head table 2048.
        #expect(FontSet.default.fonts[7].metrics.unitsPerEm == 2048)
    }

    @Test func coverageFollowsTheCharacterMap() {
        let fonts = FontSet.default.fonts
        #expect(fonts[0].covers("A") && !fonts[0].covers("世"))
        #expect(fonts[5].covers("世") && !fonts[5].covers("한"))
        #expect(fonts[6].covers("한"))
        #expect(fonts[7].covers("😀") && !fonts[0].covers("😀"))
    }

    @Test func missingFileIsATypedError() {
        #expect(throws: FontError.fileNotFound(path: "/nonexistent/font.ttf")) {
            try Font(contentsOfFile: "/nonexistent/font.ttf")
        }
    }

    @Test func directoryIsUnreadable() {
        #expect(throws: FontError.unreadable(path: "/tmp", reason: "not a regular file")) {
            try Font(contentsOfFile: "/tmp")
        }
    }

    @Test func emptyTruncatedAndNonFontDataAreRejected() throws {
        #expect(throws: FontError.empty) { try Font(bytes: []) }
        let bytes = try #require(readBytes(Self.fontsDirectory + "NotoSansHebrew-Regular.ttf"))
        for prefix in [12, 100, bytes.count / 2] {
            #expect(throws: FontError.self) { try Font(bytes: Array(bytes.prefix(prefix))) }
        }
        #expect(throws: FontError.self) { try Font(bytes: Array("this is not a font at all".utf8)) }
    }

    @Test func faceIndexOutOfRange() throws {
        let bytes = try #require(readBytes(Self.fontsDirectory + "NotoSansHebrew-Regular.ttf"))
        #expect(throws: FontError.faceIndexOutOfRange(index: 1, faceCount: 1)) { try Font(bytes: bytes, faceIndex: 1) }
    }

    @Test func fontSetLimits() throws {
        #expect(throws: FontError.emptyFontSet) { try FontSet([]) }
        let many = Array(repeating: FontSet.default.primary, count: FontSet.maximumCount + 1)
        #expect(throws: FontError.tooManyFonts(count: many.count)) { try FontSet(many) }
    }
}
