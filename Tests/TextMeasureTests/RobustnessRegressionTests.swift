import Testing
import TextMeasure

/// Inputs the fuzzers found wrong answers for (`scripts/fuzz`), kept as tests.
@Suite struct RobustnessRegressionTests {
    /// fuzz-text: whitespace split over two segments ("22 " then "\t ") made the first
    /// space visible, so the line reported 63.86 px at a width of 60.
    @Test func whitespaceOverSeveralSegmentsHangsAsAWhole() throws {
        let style = TextStyle(fontSize: 17, tabSize: 4)
        let text = "dicta  b\t+\tc 22 \t d  "
        let prepared = try PreparedText(text, style: style)
        for line in try prepared.layout(width: 60).lines {
            #expect(line.width <= 60 + 1.0 / 64)   // Blink's one layout unit of tolerance
            // As wide as its text without the hanging whitespace (a space is 4.4 px), drawn
            // alone: within a unit of rounding.
            let content = String(text[line.range].reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            #expect(try abs(line.width - PreparedText(content, style: style).unwrappedWidth) <= 1.0 / 64,
                    "\(text[line.range])")
        }
        // The same rule for a text's own width: trailing whitespace, however split, is not counted.
        #expect(try PreparedText("ab \t \t ").unwrappedWidth == PreparedText("ab").unwrappedWidth)
        #expect(try PreparedText("ab \t \t ").layout(width: 100).lines.map(\.width) == [PreparedText("ab").unwrappedWidth])
    }

    /// fuzz-text: ICU reports the rule status of a dictionary range's last boundary for
    /// every boundary inside it, so before a U+2028 every Thai word break was "hard".
    static let newlines = ["LF": "\n", "CR": "\r", "CRLF": "\r\n", "VT": "\u{0B}", "FF": "\u{0C}",
                           "NEL": "\u{85}", "LS": "\u{2028}", "PS": "\u{2029}"]

    @Test(arguments: newlines.keys.sorted())
    func dictionaryWordBreaksBeforeANewlineStaySoft(name: String) throws {
        let newline = try #require(Self.newlines[name])
        for words in ["สวัสดีชาวโลก", "မင်္ဂလာပါကမ္ဘာလောက", "你好世界今天"] {
            let text = words + newline + "x"
            let breaks = try LineBreakRules.uax14.breakOpportunities(in: text)
            let newlineEnd = (words + newline).utf16.count
            #expect(breaks.filter(\.isMandatory).map(\.utf16Offset) == [newlineEnd], "\(words)")
            #expect(breaks.filter { !$0.isMandatory && $0.utf16Offset < newlineEnd }.count > 1, "\(words): dictionary breaks found")
        }
        let lines = try PreparedText("สวัสดีชาวโลก" + newline + "x").layout(width: 500).lines
        #expect(lines.map(\.lineEnd) == [.mandatoryBreak, .endOfText])
    }

    /// fuzz-text: a zero-width control after tabs, taken along with the cluster before
    /// it, made the hanging tabs visible: one 1,274 px line at a width of 80.
    @Test func zeroWidthClusterDoesNotUnhangWhitespaceBeforeIt() throws {
        let style = TextStyle(fontSize: 17, lineBreakRules: .uax14, tabSize: 56)
        let prepared = try PreparedText("na\t\t\t\t\t\u{0}", style: style)
        let lines = try prepared.layout(width: 80).lines
        #expect(lines.allSatisfy { $0.width <= 80 })
        // The first line is "na" and the hanging tabs: as wide as "na" (each cluster is
        // rounded to 1/64 px on its own, so within two units of "na" measured alone).
        let na = try PreparedText("na", style: style).unwrappedWidth
        #expect(abs((lines.first?.width ?? 0) - na) <= 2.0 / 64)
        // Where nothing hangs, the control stays with its neighbour (no line of its own).
        #expect(try PreparedText("123\u{0}456").layout(width: 1).lines.count == 6)
    }
}
