import Testing
import TextMeasure

/// The line-fitting rules, each on its own.
@Suite struct GreedyLineFitterTests {
    func width(_ text: String) throws -> Double {
        try #require(PreparedText(text).layout(width: 1_000_000).lines.first).width
    }

    func lines(_ text: String, width: Double, emptyLines: EmptyLineConvention = .textView) throws -> [String] {
        try PreparedText(text).layout(width: width, emptyLines: emptyLines).lines.map { String(text[$0.range]) }
    }

    @Test func wrapsAtSpacesGreedily() throws {
        let text = "one two three four five six"
        let wrapped = try lines(text, width: try width("one two three"))
        #expect(wrapped == ["one two three ", "four five six"])
        // One unit narrower and "three" no longer fits after "one two ".
        let narrower = try lines(text, width: try width("one two three") - 1.0 / 64)
        #expect(narrower.first == "one two ")
    }

    @Test func trailingSpacesHangAndDoNotCount() throws {
        let word = try width("word")
        let layout = try PreparedText("word          next").layout(width: word)
        #expect(layout.lines.count == 2)
        #expect(layout.lines[0].width == word)          // the ten spaces do not count...
        #expect(layout.lines[0].utf16Range == 0..<14)   // ...but stay on the first line
        // Spaces between words on one line do count.
        let both = try width("word next")
        #expect(both > word + (try width("next")))
    }

    @Test func leadingSpacesArePreservedAndCount() throws {
        let layout = try PreparedText("   word").layout(width: 1000)
        #expect(layout.lines[0].width > (try width("word")))
    }

    @Test(arguments: ["\n", "\r", "\r\n", "\u{85}", "\u{0B}", "\u{0C}", "\u{2028}", "\u{2029}"])
    func mandatoryBreaksEndTheLine(_ separator: String) throws {
        let text = "a" + separator + "b"
        let layout = try PreparedText(text).layout(width: 1000)
        #expect(layout.lines.map { String(text[$0.range]) } == ["a" + separator, "b"])
        #expect(layout.lines[0].lineEnd == .mandatoryBreak)
        #expect(layout.lines[0].width == (try width("a")))   // the separator has no width
    }

    @Test func longWordBreaksBetweenGraphemesWhenItCannotFit() throws {
        let word = "Donaudampfschifffahrtsgesellschaft"
        let available = try width("Donaudampf")
        let layout = try PreparedText(word).layout(width: available)
        #expect(layout.lines.count > 2)
        #expect(layout.lines.dropLast().allSatisfy { $0.lineEnd == .emergencyBreak })
        // Within the box, give or take the 1/64 px a browser lets a line overflow.
        #expect(layout.lines.allSatisfy { $0.width <= available + Double(BrowserTailoring.fitTolerance) / 64 })
        #expect(layout.lines.map { String(word[$0.range]) }.joined() == word)
        // Greedy: each broken line is full (the next grapheme would not have fit).
        let first = String(word[layout.lines[0].range])
        #expect(try width(String(word.prefix(first.count + 1))) > available)
    }

    @Test func aWordThatFitsOnItsOwnLineMovesThereInsteadOfBreaking() throws {
        let text = "a Donaudampfschiff"
        let layout = try PreparedText(text).layout(width: try width("Donaudampfschiff"))
        #expect(layout.lines.map { String(text[$0.range]) } == ["a ", "Donaudampfschiff"])
        #expect(layout.lines[0].lineEnd == .softBreak)
    }

    @Test(arguments: ["👩‍👩‍👧‍👦", "🇯🇵", "👍🏽", "e\u{301}", "क्षि", "1️⃣"])
    func clustersAreNeverSplit(_ cluster: String) throws {
        let text = String(repeating: cluster, count: 6)
        let layout = try PreparedText(text).layout(width: 1)   // narrower than any cluster
        #expect(layout.lines.count == 6)
        #expect(layout.lines.allSatisfy { text[$0.range] == Substring(cluster) })
    }

    @Test func emptyTextAndTrailingNewlineFollowTheTextViewConvention() throws {
        #expect(try lines("", width: 100) == [""])
        #expect(try lines("abc\n", width: 100) == ["abc\n", ""])
        #expect(try lines("\n\n", width: 100) == ["\n", "\n", ""])
        #expect(try lines("", width: 100, emptyLines: .label) == [])
        #expect(try lines("abc\n", width: 100, emptyLines: .label) == ["abc\n"])
    }

    @Test func zeroWidthStillPlacesEveryClusterOnce() throws {
        let text = "ab cd"
        let layout = try PreparedText(text).layout(width: 0)
        #expect(layout.lines.map { String(text[$0.range]) } == ["a", "b ", "c", "d"])
    }

    @Test func invalidWidthsAreTypedErrors() throws {
        let prepared = try PreparedText("x")
        for width in [Double.nan, -1, .infinity] {
            #expect(throws: TextMeasureError.self) { try prepared.layout(width: width) }
        }
    }
}
