import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// Fonts, widths and line fitting details where Chromium 156 was observed to differ
/// from a plain model. The expected lines here were read off Chromium when each rule
/// was written (live, with `scripts/browser-check --texts`) and are not in the
/// recording: they pin each rule on a small text. `BrowserRecordedRuleTests` finds
/// the rules at work in the recorded answers (`chromium.jsonl`), which stay the reference.
@Suite struct BrowserFittingTests {
    func lines(_ text: String, width: Double, size: Double = 17, fonts: FontSet = .default) throws -> [String] {
        let prepared = try PreparedText(text, fonts: fonts, style: TextStyle(fontSize: size))
        return try prepared.layout(width: width, emptyLines: .label).lines.map { String(text[$0.range]) }
    }

    static let dejaVuFirst: FontSet? = try? FontSet([Font(contentsOfFile: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")]
                                                    + FontSet.default.fonts.dropFirst())

    @Test func aWordBrokenInsideALatinLigatureBreaksBetweenItsLetters() throws {
        // Noto Sans draws "ff" as one glyph; Chromium shares its advance and reshapes each side.
        #expect(try lines("Buffalo", width: 28) == ["Buf", "fal", "o"])
        #expect(try lines("Buffalo", width: 26) == ["Bu", "ffal", "o"])
        #expect(try lines("Buffalo", width: 18) == ["B", "uf", "fa", "lo"])
        #expect(try lines("Buffalo", width: 12) == ["B", "u", "ff", "a", "l", "o"])
    }

    @Test func neverInsideARightToLeftLigature() throws {
        // Lam-alef stays whole: Chromium gives these lines at 22 px.
        #expect(try lines("المشكلات", width: 66, size: 22) == ["المشك", "لات"])
        #expect(try lines("المشكلات", width: 54, size: 22) == ["المشك", "لات"])
        #expect(try lines("المشكلات", width: 68, size: 22) == ["المشكلا", "ت"])
    }

    @Test func aBrokenWordLosesTheKerningAcrossTheBreak() throws {
        // "mor" in "more" is kerned narrower than "mor" alone (33.2 px), which does not fit 33.
        #expect(try lines("more", width: 33) == ["mo", "re"])
        #expect(try lines("more", width: 34) == ["mor", "e"])
    }

    @Test func aLineMayOverflowByOneLayoutUnit() throws {
        // "advi" is 33.014 px: Chromium fits it in 33 (AvailableWidthToFit adds 1/64 px).
        #expect(try lines("advice", width: 33) == ["advi", "ce"])
        #expect(try lines("advice", width: 32.98) == ["adv", "ice"])
    }

    @Test func aHyphenThatStartsALineHoldsOnToWhatFollows() throws {
        // Mid-line "010-|9999" may break; once "-" starts a line Blink sees no digit
        // before it, and the rest is broken where it overflows (Chromium's lines).
        #expect(try lines("(555) 010-9999.", width: 26, size: 13) == ["(55", "5) ", "010", "-99", "99."])
        #expect(try lines("010-9999.", width: 50, size: 13) == ["010-", "9999."])
        #expect(try lines("धीरे-धीरे चल", width: 24, size: 15) == ["धीरे", "-धी", "रे ", "चल"])
        let text = Array("x-12 -12 x-y".utf16)
        text.withUnsafeBufferPointer { text in
            #expect(BrowserTailoring.hyphenHoldsAtLineStart(text, at: 1))    // "-1"
            #expect(!BrowserTailoring.hyphenHoldsAtLineStart(text, at: 10))  // "-y": Blink's ASCII table breaks
            #expect(!BrowserTailoring.hyphenHoldsAtLineStart(text, at: 0))   // not a hyphen
        }
    }

    @Test func underBreakAllAHyphenStartingALineStillBreaksBeforeADigit() throws {
        // Blink's break-all table reads only the hyphen and what follows it: "-|1" breaks
        // at a line's start as it does mid-line (README: "text before a line's start").
        var style = TextStyle(fontSize: 17)
        style.overflowWrap = .normal   // no break for overflow: only the opportunities show
        let width = try PreparedText("-", style: style).unwrappedWidth + 1
        #expect(try PreparedText("-1", style: style).unwrappedWidth > width)
        func lines(_ text: String, _ wordBreak: WordBreak) throws -> [String] {
            style.wordBreak = wordBreak
            return try PreparedText(text, style: style).layout(width: width).lines.map { String(text[$0.range]) }
        }
        #expect(try lines("-1", .normal) == ["-1"])
        #expect(try lines("-1", .breakAll) == ["-", "1"])
        #expect(try lines("ab -1", .breakAll).suffix(2) == ["-", "1"])
        // Styled text holds it the same way.
        style.wordBreak = .breakAll
        style.letterSpacing = 0.5
        let spaced = try PreparedText(AttributedText("-1", style: style))
        #expect(try spaced.layout(width: width + 0.5).lines.map(\.utf16Range) == [0..<1, 1..<2])
        let text = Array("-1 \u{2010}\u{0927} -\u{0927}".utf16)
        text.withUnsafeBufferPointer { text in
            #expect(BrowserTailoring.hyphenHoldsAtLineStart(text, at: 0))
            #expect(!BrowserTailoring.hyphenHoldsAtLineStart(text, at: 0, breakAll: true))
            // U+2010 (BA) before a letter: held by LB20a, broken by the table.
            #expect(BrowserTailoring.hyphenHoldsAtLineStart(text, at: 3))
            #expect(!BrowserTailoring.hyphenHoldsAtLineStart(text, at: 3, breakAll: true))
            // "-" (HY) before a letter: the table adds nothing, LB20a holds it.
            #expect(BrowserTailoring.hyphenHoldsAtLineStart(text, at: 6, breakAll: true))
        }
    }

    @Test func tabsAdvanceToTabStops() throws {
        #expect(try lines("Tabs\tseparate\tcolumns\there.", width: 141) == ["Tabs\tseparate\t", "columns\there."])
        let stops = TabStops(interval: 100, minimum: 10, graphemes: [])
        #expect(stops.advance(at: 0) == 100)
        #expect(stops.advance(at: 50) == 50)
        #expect(stops.advance(at: 95) == 105)   // less than half a space to the stop: the next one
    }

    @Test func hangulSyllablesAFontLacksAreDrawnFromItsJamo() throws {
        let droid = try #require(FontSet.default.fonts.first { $0.name == "DroidSansFallbackFull.ttf" })
        // Droid Sans Fallback has no 같 (U+AC19) but has its jamo: HarfBuzz (and Chromium) draws it there.
        #expect(!droid.covers("같"))
        #expect(droid.drawsWithoutNotdef(0xAC19))
        #expect(!droid.drawsWithoutNotdef(0xD55C))   // 한: neither the syllable nor all its jamo
        let names = try FontItemizerTests().fontNames("같한")
        #expect(names == ["DroidSansFallbackFull.ttf", "NanumSquareR.ttf"])
    }

    @Test func missingSpacesAreDrawnWithTheFontsSpace() throws {
        let thai = try #require(FontSet.default.fonts.first { $0.name == "NotoSansThai-Regular.ttf" })
        try #require(!thai.covers("\u{2009}") && thai.covers(" "))
        #expect(thai.drawsWithoutNotdef(0x2009))
        #expect(!thai.drawsWithoutNotdef(0x1680))   // Ogham space mark is ink, not a space
    }

    @Test func anEmojiVariationSequenceTakesTheFontThatHasIt() throws {
        let fonts = try #require(Self.dejaVuFirst)
        // DejaVu Sans has a plain ☺; only Noto Color Emoji has ☺ + VS16.
        #expect(try FontItemizerTests().fontNames("☺", fonts: fonts) == ["DejaVuSans.ttf"])
        #expect(try FontItemizerTests().fontNames("☺\u{FE0F}", fonts: fonts) == ["NotoColorEmoji.ttf"])
    }
}
