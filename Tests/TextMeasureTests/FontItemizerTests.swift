import Testing
import TextMeasure
@testable import TextMeasurePreparation

@Suite struct FontItemizerTests {
    func fontNames(_ text: String, fonts: FontSet = .default) throws -> [String] {
        let utf16 = Array(text.utf16)
        return try utf16.withUnsafeBufferPointer { buffer in
            let graphemes = try Boundaries.graphemes(in: buffer)
            var perCluster: [UInt8] = []
            _ = FontItemizer(fontSet: fonts).runs(in: buffer, graphemes: graphemes, breaks: [],
                                                  fontForGrapheme: &perCluster)
            return perCluster.map { fonts.fonts[Int($0)].name }
        }
    }

    @Test func fallbackFontsDrawWhatThePrimaryCannot() throws {
        #expect(try fontNames("a世한ب😀") == ["NotoSans-Regular.ttf", "DroidSansFallbackFull.ttf", "NanumSquareR.ttf",
                                            "NotoSansArabic-Regular.ttf", "NotoColorEmoji.ttf"])
        #expect(try fontNames("ש") == ["NotoSansHebrew-Regular.ttf"])
        #expect(try fontNames("क") == ["NotoSansDevanagari-Regular.ttf"])
        #expect(try fontNames("ก") == ["NotoSansThai-Regular.ttf"])
    }

    @Test func emojiSequencesStayInOneFont() throws {
        #expect(try fontNames("👩‍👩‍👧‍👦🇯🇵1️⃣") == Array(repeating: "NotoColorEmoji.ttf", count: 3))
    }

    @Test func spacesAndPunctuationTakeTheFirstFontThatCoversThem() throws {
        #expect(try fontNames("世 。") == ["DroidSansFallbackFull.ttf", "NotoSans-Regular.ttf", "DroidSansFallbackFull.ttf"])
    }

    @Test func linesUsingFallbackFontsGrowToHoldThem() throws {
        let latin = try PreparedText("abc").layout(width: 1000).lines[0]
        let arabic = try PreparedText("مرحبا").layout(width: 1000).lines[0]
        #expect(arabic.height > latin.height)
        #expect(arabic.height == Double(LineBox.normal(FontSet.default.fonts[1].metrics, size: 17).height) / 64)
    }
}
