import Testing
@testable import TextMeasure

/// CSS `text-spacing-trim: normal` as Chromium 156 lays it out, in BoxCJK.otf
/// (Tests/Fixtures/fonts/make-box-cjk.py: ideographs 1000 units wide, fullwidth
/// punctuation 1000 with `halt` halving it). At 10 px an ideograph is 10 px and a
/// trimmed bracket 5. The browser fixture's `cjk-trim` groups check the same against
/// Chromium itself.
@Suite struct TextSpacingTrimTests {
    static let boxCJK = packageRoot + "/Tests/Fixtures/fonts/BoxCJK.otf"

    func fonts() throws -> FontSet { try FontSet([Font(contentsOfFile: Self.boxCJK)]) }

    func lines(_ text: String, width: Double, trim: TextSpacingTrim = .normal, fonts: FontSet? = nil)
        throws -> [(text: String, width: Double)] {
        var style = TextStyle(fontSize: 10)
        style.textSpacingTrim = trim
        let layout = try PreparedText(text, fonts: fonts ?? self.fonts(), style: style).layout(width: width)
        return layout.lines.map { (String($0.text), $0.width) }
    }

    /// Blink's classes: fixed by Unicode for brackets and middle dots, by the glyph's ink
    /// for the dots, colons and quotes (BoxCJK's 。 has its ink on the left: close; its
    /// ： in the middle: middle; its quotes are fullwidth, ink on the inner side).
    @Test func punctuationClassesAreBlinks() throws {
        let facts = try #require(try Font(contentsOfFile: Self.boxCJK).halfWidthPunctuation)
        let expected: [(Character, PunctuationClass)] = [
            ("「", .open), ("『", .open), ("（", .open), ("【", .open), ("〈", .open), ("《", .open), ("［", .open),
            ("」", .close), ("』", .close), ("）", .close), ("】", .close), ("〉", .close), ("》", .close),
            ("。", .close), ("、", .close), ("，", .close), ("．", .close),
            ("：", .middle), ("；", .middle), ("・", .middle), ("\u{3000}", .middle), ("·", .middle),
            ("“", .open), ("‘", .open), ("”", .close), ("’", .close),
            ("(", .openNarrow), ("[", .openNarrow), (")", .closeNarrow), ("]", .closeNarrow),
            ("好", .other), ("a", .other), ("！", .other), ("？", .other), ("｢", .openNarrow), ("｣", .closeNarrow),
        ]
        for (character, type) in expected {
            let unit = try #require(character.utf16.first)
            #expect(facts.punctuationClass(of: unit) == type, "\(character)")
        }
        #expect(!facts.hasContextualSpacing)
        #expect(facts.trimsAtLineEnd(0x300D) && facts.trimsAtLineEnd(0x201D))   // 」 ”
        #expect(!facts.trimsAtLineEnd(0x3002) && !facts.trimsAtLineEnd(0x300C))   // 。 「
    }

    /// Fonts without `halt` (every embedded font) trim nothing, as in Chromium.
    @Test func fontsWithoutHaltAreNotTrimmed() throws {
        #expect(FontSet.default.fonts.allSatisfy { $0.halfWidthPunctuation == nil })
        #expect(!FontSet.default.trimsPunctuation)
        let text = "「「你好。」」（测试）"
        let normal = try lines(text, width: 1000, fonts: .default)
        let spaceAll = try lines(text, width: 1000, trim: .spaceAll, fonts: .default)
        #expect(normal.map(\.width) == spaceAll.map(\.width))
    }

    /// A trimmed bracket is as wide as HarfBuzz shapes it with `halt` on.
    @Test func halvedWidthsAreHarfBuzzsWithHalt() throws {
        let fonts = try fonts()
        for character in ["「", "」", "（", "）", "。", "，", "“", "”", "『", "』"] {
            var style = TextStyle(fontSize: 10)
            style.textSpacingTrim = .spaceAll
            style.fontFeatures = ["+halt"]
            let shaped = try PreparedText(character, fonts: fonts, style: style).layout(width: 1000).lines[0].width
            let unit = try #require(character.utf16.first)
            let facts = try #require(fonts.primary.halfWidthPunctuation)
            #expect(Double(try #require(facts.halvedAdvance(of: unit))) / 100 == shaped, "\(character)")
            #expect(shaped == 5)
        }
        // In text: an opening bracket after an opening one, a closing one before a closing one.
        #expect(try lines("「「好", width: 1000)[0].width == 25)
        #expect(try lines("好」」", width: 1000)[0].width == 25)
        #expect(try lines("好。」好", width: 1000)[0].width == 35)   // 。 (close) before 」
        #expect(try lines("好」。好", width: 1000)[0].width == 35)   // 」 before 。 (close)
        #expect(try lines("。「好", width: 1000)[0].width == 25)     // 「 after 。
        #expect(try lines("好：「好", width: 1000)[0].width == 35)   // 「 after a middle one
        #expect(try lines("好」：好", width: 1000)[0].width == 35)   // 」 before a middle one
        #expect(try lines("(「好", width: 1000)[0].width == 5 + 5 + 10)   // 「 after a narrow ( (.notdef, 500 units)
        // Not trimmed: an opening bracket after an ideograph, a closing one before one.
        #expect(try lines("你「好」你", width: 1000)[0].width == 50)
        #expect(try lines("「「好」」", width: 1000, trim: .spaceAll)[0].width == 50)
    }

    /// A closing bracket ending a line is halved when the line would not fit with it
    /// whole, as Chromium measures it when it decides what fits: "好好」" fits 25 px, and
    /// not one pixel less. A full stop is not (Blink asks the character's own class), nor
    /// a bracket before a space or a newline.
    @Test func aLineFitsOnlyBecauseItsClosingBracketIsTrimmed() throws {
        #expect(try lines("好好」好", width: 25).map(\.text) == ["好好」", "好"])
        #expect(try lines("好好」好", width: 25)[0].width == 25)
        #expect(try lines("好好」好", width: 24).map(\.text) == ["好", "好」", "好"])
        #expect(try lines("好好」好", width: 25, trim: .spaceAll).map(\.text) == ["好", "好」", "好"])
        // Whole where it fits whole.
        #expect(try lines("好好」好", width: 30)[0].width == 30)
        #expect(try lines("好好”好", width: 25).map(\.text) == ["好好”", "好"])
        #expect(try lines("好好。好", width: 29).map(\.text) == ["好", "好。", "好"])
        #expect(try lines("好好」 好", width: 29).map(\.text) == ["好", "好」 ", "好"])
        #expect(try lines("好好」\n好", width: 29).map(\.text) == ["好", "好」\n", "好"])
        // Two closing brackets: the first trimmed before the second, the last at the line's end.
        #expect(try lines("好好」」好", width: 30).map(\.text) == ["好好」」", "好"])
        #expect(try lines("好好」」好", width: 29).map(\.text) == ["好", "好」」", "好"])
    }

    /// A line's start is not trimmed (`normal` is not `trim-start`): an opening bracket
    /// halved after a closing one gets its width back where a line starts with it.
    @Test func aLineStartingWithABracketHasItWhole() throws {
        #expect(try lines("好」「好", width: 35).map(\.width) == [35])
        let broken = try lines("好」「好", width: 34)
        #expect(broken.map(\.text) == ["好」", "「好"])
        #expect(broken.map(\.width) == [20, 20])
        // 」 halved at the end; "「好" (no break inside) broken where it overflows.
        #expect(try lines("好」「好", width: 19).map(\.text) == ["好」", "「", "好"])
    }

    /// `space-first` halves an opening bracket that starts a wrapped line, `trim-start` one
    /// that starts a paragraph too (after a newline as at the text's start), as Chromium
    /// 156 does; `normal` neither.
    @Test func spaceFirstAndTrimStartHalveALineStartingBracket() throws {
        for (trim, widths) in [(TextSpacingTrim.normal, [20.0, 20]), (.spaceFirst, [20, 15]), (.trimStart, [20, 15])] {
            #expect(try lines("好好「好", width: 20, trim: trim).map(\.width) == widths, "\(trim)")
            // After a closing bracket the opening one is halved already: kept so, or whole again.
            #expect(try lines("好」「好", width: 20, trim: trim).map(\.width) == [20, trim == .normal ? 20 : 15])
            #expect(try lines("好 「好", width: 20, trim: trim)[1].width == (trim == .normal ? 20 : 15))
        }
        // A paragraph's start: halved under trim-start only.
        #expect(try lines("「好」「好", width: 1000, trim: .spaceFirst)[0].width == 45)
        #expect(try lines("「好」「好", width: 1000, trim: .trimStart)[0].width == 40)
        #expect(try lines("好\n「好", width: 1000, trim: .spaceFirst).map(\.width) == [10, 20])
        #expect(try lines("好\n「好", width: 1000, trim: .trimStart).map(\.width) == [10, 15])
        // A line that fits only with its starting bracket halved.
        #expect(try lines("好好「好", width: 15, trim: .spaceFirst).map(\.text) == ["好", "好", "「好"])
        #expect(try lines("好好「好", width: 15, trim: .normal).map(\.text) == ["好", "好", "「", "好"])
    }

    /// An edit gives what preparing the edited text afresh gives, trimming included.
    @Test func anEditTrimsAsPreparingAfresh() throws {
        var style = TextStyle(fontSize: 10)
        style.textSpacingTrim = .normal
        let draft = try PreparedText("好」好\n好好", fonts: fonts(), style: style)
        let edited = try draft.replacingCharacters(inUTF16: 2..<3, with: "「好")
        let afresh = try PreparedText("好」「好\n好好", fonts: fonts(), style: style)
        for width in [19.0, 25, 34, 35, 100] {
            let a = try edited.layout(width: width).lines, b = try afresh.layout(width: width).lines
            #expect(a.map(\.text) == b.map(\.text) && a.map(\.width) == b.map(\.width), "\(width)")
        }
        #expect(try edited.layout(width: 100).lines[0].width == 35)
    }

    /// `"textSpacingTrim"` in a JSON case: "normal", "space-all", "space-first" or "trim-start",
    /// anything else an error naming the key.
    @Test func theCaseKeyReadsCSSNames() throws {
        let spaceAll = try MeasurementCase(json: Array(#"{"text": "a", "width": 10, "textSpacingTrim": "space-all"}"#.utf8))
        #expect(spaceAll.style().textSpacingTrim == .spaceAll)
        #expect(try MeasurementCase(json: Array(#"{"text": "a", "width": 10}"#.utf8)).style().textSpacingTrim == .normal)
        let trimStart = try MeasurementCase(json: Array(#"{"text": "a", "width": 10, "textSpacingTrim": "trim-start"}"#.utf8))
        #expect(trimStart.style().textSpacingTrim == .trimStart)
        #expect { try MeasurementCase(json: Array(#"{"text": "a", "width": 10, "textSpacingTrim": "allow-end"}"#.utf8)) }
            throws: { ($0 as? CaseReadError)?.message.contains("textSpacingTrim") == true }
    }
}
