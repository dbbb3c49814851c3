import CHarfBuzz
import Testing
import TextMeasure
@testable import TextMeasureSegmentation

/// Each browser tailoring on its own, against what Chromium 156 does with the same
/// text (observed with `scripts/browser-check`), and against plain ICU where the
/// tailoring is what makes the difference.
@Suite struct BrowserTailoringTests {
    func breaks(_ text: String, _ rules: LineBreakRules = .browser) throws -> [Int] {
        try rules.breakOpportunities(in: text).map(\.utf16Offset)
    }

    @Test func breaksAfterEverySpaceRunAndNeverInsideOne() throws {
        // ICU keeps "!" with the word before a space (UAX #14 LB13); Blink breaks after the space.
        #expect(try breaks("word !x") == [5, 7])
        #expect(try !breaks("word !x", .uax14).contains(5))
        #expect(try breaks("a  \tb") == [4, 5])
        #expect(BrowserTailoring.afterSpaceRun(0, 0x61, 0x20) == false)
        #expect(BrowserTailoring.afterSpaceRun(0, 0x09, 0x21) == true)
        #expect(BrowserTailoring.afterSpaceRun(0, 0x61, 0x62) == nil)
    }

    @Test func noBreakNextToControlCharacters() {
        #expect(BrowserTailoring.controls(0, 0x01, 0x41) == false)
        #expect(BrowserTailoring.controls(0, 0x41, 0x1F) == false)
        #expect(BrowserTailoring.controls(0, 0x41, 0x42) == nil)
    }

    @Test func hyphenBreaksBeforeADigitOnlyBetweenWordsOrNumbers() throws {
        // Chromium: "2024-|03-|15", "4711-|0815"; "x -1" keeps its minus sign.
        #expect(try breaks("2024-03-15") == [5, 8, 10])
        #expect(try breaks("2024-03-15", .uax14) == [10])
        #expect(try breaks("x -1") == [2, 4])
        #expect(BrowserTailoring.hyphenBeforeDigit(0x41, 0x2D, 0x31) == true)
        #expect(BrowserTailoring.hyphenBeforeDigit(0x20, 0x2D, 0x31) == false)
        #expect(BrowserTailoring.hyphenBeforeDigit(0x41, 0x2D, 0xE9) == nil)   // ICU decides before "é"
    }

    @Test func asciiPairsFollowBlinksTableNotICU() throws {
        // No break after "/" (URLs and paths), "!" or ")" before a letter; a break before "(" after ")".
        #expect(try breaks("a/b/c") == [5])
        #expect(try breaks("a/b/c", .uax14) == [2, 4, 5])
        #expect(try breaks("a!b") == [3])
        #expect(try breaks("a!b", .uax14) == [2, 3])
        #expect(try breaks("x)(y") == [2, 4])
        #expect(try breaks("f(x)") == [4])
        #expect(BrowserTailoring.asciiPairs(0, 0x3F, 0x61) == true)    // ?a
        #expect(BrowserTailoring.asciiPairs(0, 0x3F, 0x22) == false)   // ?"
        #expect(BrowserTailoring.asciiPairs(0, 0x2D, 0x61) == true)    // -a
        #expect(BrowserTailoring.asciiPairs(0, 0x2D, 0x24) == false)   // -$
        #expect(BrowserTailoring.asciiPairs(0, 0x61, 0xE9) == nil)     // not both ASCII
    }

    @Test func japaneseUsesCSSNormalBreaksBeforeSmallKana() throws {
        // line-break: auto is ICU's "normal" in Chromium: small kana and ー may start a line.
        #expect(try breaks("ちょっと") == [1, 2, 3, 4])
        #expect(try breaks("ちょっと", .uax14) == [3, 4])
        #expect(try breaks("メートル") == [1, 2, 3, 4])
    }

    @Test func quotesBetweenEastAsianCharactersDoNotHoldThemTogether() throws {
        // Unicode 15.1 LB19a, in Chromium's ICU: “ may start a line after 。, a line may end after ” before 她.
        let text = "问道。“这是书，”她"
        #expect(try breaks(text).contains(3))
        #expect(try breaks(text).contains(9))
        #expect(try !breaks(text, .uax14).contains(3))
        #expect(try !breaks(text, .uax14).contains(9))
        // Latin on either side: quotes stay attached.
        #expect(try breaks("a“b”c") == [5])
        // Every quotation mark the rule can see: «», the ‹› and CJK-style marks, and U+2E1C.
        for (open, close) in [("«", "»"), ("‹", "›"), ("‘", "’"), ("⸜", "⸝"), ("⸠", "⸡")] {
            #expect(try breaks("问\(open)这\(close)她").contains(1), "\(open)")
            #expect(try breaks("问\(open)这\(close)她").contains(4), "\(close)")
        }
    }

    @Test func everyInitialAndFinalQuotationMarkPassesTheCodeUnitFilter() {
        // eastAsianQuotes skips offsets whose two code units pass no filter: exact only
        // while every Pi and Pf code point passes it (checked over the whole code space,
        // in HarfBuzz's Unicode version, so a new mark would fail here).
        let unicode = hb_unicode_funcs_get_default()
        var marks = 0
        for scalar in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(scalar) {
            let category = hb_unicode_general_category(unicode, scalar)
            guard category == HB_UNICODE_GENERAL_CATEGORY_INITIAL_PUNCTUATION
                    || category == HB_UNICODE_GENERAL_CATEGORY_FINAL_PUNCTUATION else { continue }
            marks += 1
            #expect(scalar <= 0xFFFF && BrowserTailoring.mayBeQuotationMark(UInt16(scalar)),
                     "U+\(String(scalar, radix: 16, uppercase: true))")
        }
        #expect(marks >= 22)
        // And the filter is narrow: no letter of the scripts preparation meets most.
        for unit in [0x41, 0x627, 0x928, 0xE01, 0x4E00, 0xAC00, 0xD83D, 0xDE00] as [UInt16] {
            #expect(!BrowserTailoring.mayBeQuotationMark(unit))
        }
    }
}
