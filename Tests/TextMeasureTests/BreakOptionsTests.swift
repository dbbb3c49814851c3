import Testing
@testable import TextMeasure

/// CSS `word-break`, `line-break` and `overflow-wrap` (`TextStyle`), each against the
/// default on the same text, so that an option that changes nothing fails too. The
/// browser fixture's groups check them against Chromium.
@Suite struct BreakOptionsTests {
    func breaks(_ text: String, _ configure: (inout TextStyle) -> Void) throws -> [Int] {
        var style = TextStyle()
        configure(&style)
        return try PreparedText(text, style: style).segments.map { Int($0.end) }
    }

    @Test func keepAllBreaksKoreanOnlyAtSpacesAndPunctuation() throws {
        let text = "대한민국의 수도는 서울입니다."
        let normal = try breaks(text) { _ in }
        let keepAll = try breaks(text) { $0.wordBreak = .keepAll }
        #expect(keepAll == [6, 10, 16])
        #expect(normal.count > keepAll.count)
        // Chinese too: between ideographs only where punctuation allows.
        #expect(try breaks("今天天气很好，我们", { $0.wordBreak = .keepAll }) == [7, 9])
    }

    /// Korean laid out with keep-all: at every width each line ends after a space (or the
    /// text), never between two syllables of a word, which the default does somewhere.
    @Test func keepAllLaysKoreanOutWordByWord() throws {
        let text = "오늘 날씨가 정말 좋네요. 우리 같이 공원에 산책하러 갈까요? 대한민국의 수도는 서울특별시입니다."
        var keepAll = TextStyle()
        keepAll.wordBreak = .keepAll
        let kept = try PreparedText(text, style: keepAll), normal = try PreparedText(text)
        let units = Array(text.utf16)
        var splitsAWord = false
        // From the widest word up: narrower, overflow-wrap breaks that word anyway.
        let widest = try text.split(separator: " ").map { try PreparedText(String($0)).unwrappedWidth }.max() ?? 0
        for width in stride(from: widest.rounded(.up), through: 400, by: 10) {
            let lines = try kept.layout(width: width, emptyLines: .label).lines
            #expect(lines.count > 1 || width > 300)
            for line in lines.dropLast() {
                #expect(units[line.utf16Range.upperBound - 1] == 0x20, "keep-all at \(width): \(line.text)")
            }
            splitsAWord = try splitsAWord || normal.layout(width: width, emptyLines: .label).lines.dropLast()
                .contains { units[$0.utf16Range.upperBound - 1] != 0x20 }
        }
        #expect(splitsAWord)
    }

    @Test func breakAllBreaksBetweenLetters() throws {
        #expect(try breaks("word ok", { $0.wordBreak = .breakAll }) == [1, 2, 3, 5, 6, 7])
        #expect(try breaks("word ok", { _ in }) == [5, 7])
    }

    /// Blink's break-all table by line-break class, row by row against `normal` on the same text.
    @Test func breakAllFollowsBlinksTableByLineBreakClass() throws {
        func both(_ text: String) throws -> (normal: [Int], breakAll: [Int]) {
            (try breaks(text) { _ in }, try breaks(text) { $0.wordBreak = .breakAll })
        }
        // Letters and digits break before letters, digits, hyphens and "(", never after "(".
        #expect(try both("a1-b(c") == ([3, 6], [1, 2, 3, 4, 6]))
        // A hyphen before a digit breaks even as a minus sign; "+" counts as a letter.
        #expect(try both("x -1") == ([2, 4], [2, 3, 4]))
        #expect(try both("C++") == ([3], [1, 2, 3]))
        // Thai: between letters, not before a vowel sign above (ที่), but before a spacing one (ค|ำ).
        #expect(try both("ที่คำ").breakAll == [3, 4, 5])
        // Nothing is added after ideographs, Hangul or CJK punctuation: they break as they did.
        for text in ["대한민국의 수도는", "中文，好的。", "東京は（今日）"] {
            let (normal, breakAll) = try both(text)
            #expect(normal == breakAll, "\(text)")
        }
        // Nor before a space or a tab.
        #expect(try both("ab\tcd ef").breakAll == [1, 3, 4, 6, 7, 8])
    }

    @Test func lineBreakStrictKeepsSmallKanaWithWhatPrecedes() throws {
        let text = "ちょっと"
        #expect(try breaks(text, { $0.lineBreak = .strict }) == [3, 4])
        #expect(try breaks(text, { $0.lineBreak = .normal }) == [1, 2, 3, 4])
        #expect(try breaks(text, { _ in }) == (try breaks(text, { $0.lineBreak = .normal })))
    }

    @Test func lineBreakAnywhereBreaksBetweenEveryCluster() throws {
        #expect(try breaks("a/b👍🏽c", { $0.lineBreak = .anywhere }) == [1, 2, 3, 7, 8])
        #expect(try breaks("a/b👍🏽c", { _ in }).count < 5)
        // Mandatory breaks stay mandatory.
        var style = TextStyle()
        style.lineBreak = .anywhere
        #expect(try PreparedText("ab\ncd", style: style).segments.map(\.isMandatoryBreak) == [false, false, true, false, false])
    }

    @Test func overflowWrapNormalLetsALongWordOverflow() throws {
        let word = "Supercalifragilisticexpialidocious is long"
        var style = TextStyle()
        style.overflowWrap = .normal
        let overflowing = try PreparedText(word, style: style).layout(width: 100, emptyLines: .label)
        #expect(overflowing.lines.first.map { String($0.text) } == "Supercalifragilisticexpialidocious ")
        #expect(overflowing.usedWidth > 100)
        style.overflowWrap = .breakWord
        let broken = try PreparedText(word, style: style).layout(width: 100, emptyLines: .label)
        #expect(broken.usedWidth <= 100)
        #expect(broken.lines.first?.lineEnd == .emergencyBreak)
        style.overflowWrap = .anywhere
        #expect(try PreparedText(word, style: style).layout(width: 100, emptyLines: .label).lines.map(\.utf16Range)
                == broken.lines.map(\.utf16Range))
    }
}

/// CSS `white-space: normal` against the default `pre-wrap` on the same text.
@Suite struct WhiteSpaceTests {
    func layout(_ text: String, _ whiteSpace: WhiteSpace, width: Double = 1000) throws -> TextLayout {
        var style = TextStyle()
        style.whiteSpace = whiteSpace
        return try PreparedText(text, style: style).layout(width: width, emptyLines: .label)
    }

    @Test func runsOfSpacesNewlinesAndTabsCountAsOneSpace() throws {
        let collapsed = try layout("a   b\n\tc", .normal)
        #expect(collapsed.lines.count == 1)
        #expect(collapsed.usedWidth == (try layout("a b c", .normal)).usedWidth)
        let kept = try layout("a   b\n\tc", .preWrap)
        #expect(kept.lines.count == 2)
        #expect(kept.lines[0].width > (try layout("a b", .preWrap)).usedWidth)
    }

    @Test func spacesStartingTheTextTakeNoWidth() throws {
        #expect(try layout("   word", .normal).usedWidth == (try layout("word", .normal)).usedWidth)
        #expect(try layout("   word", .preWrap).usedWidth > (try layout("word", .preWrap)).usedWidth)
    }

    @Test func aLineBreaksAfterTheFirstSpaceOfARunAndOffsetsStayTheText() throws {
        let text = "Spaces   between"
        let width = max(try layout("Spaces", .normal).usedWidth, try layout("between", .normal).usedWidth) + 5
        let lines = try layout(text, .normal, width: width).lines
        #expect(lines.map(\.utf16Range) == [0..<7, 7..<16])
        #expect(lines.map { String($0.text) } == ["Spaces ", "  between"])
        #expect(abs(lines[1].width - (try layout("between", .normal)).usedWidth) < 1.0 / 64)
    }
}
