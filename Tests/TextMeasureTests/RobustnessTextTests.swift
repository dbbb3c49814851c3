import CHarfBuzz
import Testing
import TextMeasure

/// Text no one would type but anyone can send: invalid UTF-8 and lone surrogates,
/// controls, bidi formatting characters, noncharacters, a 2 MB word, a 10 MB
/// paragraph. Each gets a correct, documented answer or a typed error.
@Suite struct RobustnessTextTests {
    func width(_ text: String, fonts: FontSet = .default) throws -> Double {
        try PreparedText(text, fonts: fonts).unwrappedWidth
    }

    // MARK: Text from bytes

    /// Invalid UTF-8, each with the offset of its first bad byte.
    static let invalidUTF8: [(name: String, bytes: [UInt8], offset: Int)] = [
        ("lone high surrogate (CESU-8/WTF-8)", Array("ab".utf8) + [0xED, 0xA0, 0x80] + Array("c".utf8), 2),
        ("lone low surrogate", [0xED, 0xB0, 0x80], 0),
        ("surrogate pair encoded separately", Array("x".utf8) + [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80], 1),
        ("overlong NUL (modified UTF-8)", Array("ok".utf8) + [0xC0, 0x80], 2),
        ("overlong slash", [0xE0, 0x80, 0xAF], 0),
        ("past U+10FFFF", Array("é".utf8) + [0xF4, 0x90, 0x80, 0x80], 2),
        ("stray continuation byte", Array("abc".utf8) + [0x80], 3),
        ("sequence cut at the end", Array("€ ".utf8) + [0xE2, 0x82], 4),
        ("byte FF", [0xFF] + Array("a".utf8), 0),
        ("lead byte F8 (old 5-byte form)", Array("a".utf8) + [0xF8, 0x88, 0x80, 0x80, 0x80], 1),
    ]

    @Test(arguments: invalidUTF8.indices)
    func invalidUTF8IsRejectedAtItsFirstBadByte(index: Int) {
        let (name, bytes, offset) = Self.invalidUTF8[index]
        #expect(throws: TextMeasureError.invalidUTF8(byteOffset: offset), "\(name)") { try PreparedText(utf8: bytes) }
    }

    @Test func validUTF8BytesPrepareLikeTheString() throws {
        let text = "Hello, שלום, 你好 👩‍👩‍👧 e\u{301}\n"
        let fromBytes = try PreparedText(utf8: Array(text.utf8))
        #expect(fromBytes.text == text)
        #expect(try fromBytes.layout(width: 80).lines.map(\.utf16Range) == PreparedText(text).layout(width: 80).lines.map(\.utf16Range))
        #expect(try PreparedText(utf8: []).layout(width: 80).lines.count == 1)   // empty text: one line for the caret
    }

    /// The Unicode Standard's own example of U+FFFD substitution of maximal subparts
    /// (chapter 3, Table 3-8), and a lone surrogate, which has no valid prefix longer than one byte.
    @Test func replacementFollowsUnicodeRecommendedPractice() throws {
        let table38: [UInt8] = [0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64]
        let replaced = try PreparedText(utf8: table38, invalidUTF8: .replace)
        #expect(replaced.text == "a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d")
        let surrogate = try PreparedText(utf8: [0x61, 0xED, 0xA0, 0x80, 0x62], invalidUTF8: .replace)
        #expect(surrogate.text == "a\u{FFFD}\u{FFFD}\u{FFFD}b")
        // And the replacement characters are measured, as typed ones would be.
        #expect(replaced.unwrappedWidth == (try width("a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d")))
    }

    // MARK: Controls and formatting characters

    /// C0 and C1 controls other than tab and the newlines: drawn with no width, and
    /// no break opportunity around them (UAX #14 class CM).
    @Test(arguments: [0x00, 0x01, 0x08, 0x1B, 0x1F, 0x7F, 0x80, 0x9F] as [UInt32])
    func controlHasNoWidthAndNoBreak(value: UInt32) throws {
        let control = String(Unicode.Scalar(value)!)
        let text = "123" + control + "456"
        #expect(try width(text) == width("123") + width("456"))
        #expect(try LineBreakRules.uax14.breakOpportunities(in: text).map(\.utf16Offset) == [7])
        // At a width too narrow for the digits, the control stays with a neighbour: 6 lines, not 7.
        let lines = try PreparedText(text).layout(width: 1).lines
        #expect(lines.count == 6 && lines.allSatisfy { $0.lineEnd == .emergencyBreak || $0.lineEnd == .endOfText })
    }

    /// Bidi formatting characters take no width (they are default-ignorable), and
    /// TextMeasure does not reorder: what they would change is drawing, not size.
    @Test(arguments: [0x200E, 0x200F, 0x061C, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] as [UInt32])
    func bidiControlHasNoWidth(value: UInt32) throws {
        let control = String(Unicode.Scalar(value)!)
        // Digits: tabular, no kerning, so the sum is exact.
        #expect(try width("123" + control + "456") == width("123456"))
        #expect(try width(control) == 0)
    }

    @Test func bidiIsolatedHebrewMeasuresLikePlainHebrew() throws {
        let plain = "abc שלום def"
        let isolated = "abc \u{2067}שלום\u{2069} def"
        #expect(try width(isolated) == width(plain))
        #expect(try PreparedText(isolated).layout(width: 40).lines.count == PreparedText(plain).layout(width: 40).lines.count)
    }

    /// A code point no font covers is drawn as the primary font's .notdef box, one per
    /// code point, as browsers draw "tofu": noncharacters, the last code point, an
    /// unassigned one, private use.
    @Test(arguments: [0xFFFF, 0xFFFE, 0x10FFFF, 0x0378, 0xE000, 0x10FFFD] as [UInt32])
    func uncoveredCodePointIsOneNotdef(value: UInt32) throws {
        let scalar = Unicode.Scalar(value)!
        let fonts = FontSet.default
        #expect(fonts.fonts.allSatisfy { !$0.covers(scalar) })
        let primary = fonts.primary
        let notdef = Double(hb_font_get_glyph_h_advance(primary.hbFont, 0)) * 17 / Double(primary.metrics.unitsPerEm)
        #expect(notdef > 0)
        let one = try width(String(scalar))
        #expect(abs(one - notdef) <= 1.0 / 64)
        // Three of them: three clusters of that width (at width 0, a line each).
        let three = try PreparedText(String(repeating: String(scalar), count: 3)).layout(width: 0)
        #expect(three.lines.map(\.width) == [one, one, one])
    }

    // MARK: Size

    /// The width a line may take at `width` under the default (browser) rules: Blink
    /// lets a line overflow by one layout unit, 1/64 px.
    static func room(_ width: Double) -> Double { width + Double(BrowserTailoring.fitTolerance) / 64 }

    /// 2,000,000 letters, no break opportunity: every line but the last is broken
    /// between grapheme clusters, fits, and could not have taken the next letter.
    @Test func twoMegabyteWordBreaksBetweenGraphemes() throws {
        var generator = LineBreakModeFuzzTests.Generator(state: 42)   // SplitMix64: the same word everywhere
        let word = String(String.UnicodeScalarView((0..<2_000_000).map { _ in
            Unicode.Scalar(UInt8(ascii: "a") + UInt8(generator.next() % 26))
        }))
        let prepared = try PreparedText(word)
        let width = 390.0
        let layout = try prepared.layout(width: width)
        #expect(layout.lines.first?.utf16Range.lowerBound == 0 && layout.lines.last?.utf16Range.upperBound == word.utf16.count)
        #expect(layout.lines.last?.lineEnd == .endOfText)
        for (index, (line, next)) in zip(layout.lines, layout.lines.dropFirst()).enumerated() {
            #expect(line.lineEnd == .emergencyBreak && line.utf16Range.upperBound == next.utf16Range.lowerBound)
            #expect(line.width <= Self.room(width))
            // Two-sided, on every 100th line: the line and its next letter, drawn alone, do not fit.
            if index % 100 == 0 {
                let longer = String(line.text) + String(next.text.prefix(1))
                #expect(try PreparedText(longer).unwrappedWidth > Self.room(width), "line \(index)")
            }
        }
    }

    /// A 10 MB paragraph of English prose: one paragraph, soft breaks only (but inside
    /// a word wider than the line), lines that fit and could not have taken the next
    /// word. (Release build: a few seconds, see the README; this debug build: more.)
    @Test func tenMegabyteParagraph() throws {
        // The English fixture on one line, with a word wider than the line once per round.
        let prose = try FixtureTexts.text("en") + " " + String(repeating: "pneumonoultramicroscopic", count: 4)
        let oneLine = prose.split(whereSeparator: \.isNewline).joined(separator: " ")
        var text = ""
        while text.utf8.count < 10_000_000 { text += oneLine + " " }
        let prepared = try PreparedText(text)
        let width = 390.0
        let layout = try prepared.layout(width: width)
        #expect(layout.lines.count > 100_000)
        #expect(layout.lines.last?.utf16Range.upperBound == prepared.utf16Count)
        #expect(layout.lines.allSatisfy { $0.lineEnd != .mandatoryBreak })
        #expect(layout.lines.contains { $0.lineEnd == .emergencyBreak })
        for (index, (line, next)) in zip(layout.lines, layout.lines.dropFirst()).enumerated() {
            #expect(line.width <= Self.room(width), "line \(line.utf16Range)")
            if line.lineEnd == .emergencyBreak {
                // Only a word wider than the line (the long word added above) is cut.
                #expect(!line.text.contains(" "), "line \(line.utf16Range) cut between words")
                continue
            }
            #expect(line.lineEnd == .softBreak, "line \(line.utf16Range)")
            // Two-sided, on every 100th line: the line with the next line's first segment
            // (up to its first break opportunity) does not fit.
            if index % 100 == 0, let end = try LineBreakRules.browser.breakOpportunities(in: String(next.text)).first {
                let first = String(decoding: Array(next.text.utf16.prefix(end.utf16Offset)), as: UTF16.self)
                let longer = String(line.text) + first   // its trailing spaces hang, and do not count
                #expect(try PreparedText(longer).unwrappedWidth > Self.room(width), "line \(index)")
            }
        }
    }
}
