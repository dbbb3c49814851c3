import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// An edit prepares only the paragraphs it touches (`PreparedText.replacingCharacters`),
/// and gives exactly what preparing the edited text afresh gives: every array of the
/// preparation and the layouts at several widths, after chains of random inserts,
/// deletions and replacements in multi-paragraph drafts of every script.
@Suite struct TextEditingTests {
    /// What separates the paragraphs of a draft: every mandatory break, CR LF included.
    static let paragraphEnds = ["\n", "\n", "\r\n", "\r", "\u{2029}", "\u{2028}", "\u{0B}"]
    /// What an edit inserts: text, line breaks (which split a paragraph or, after a CR,
    /// join one into a CR LF), marks and joiners that attach to what precedes them,
    /// and paragraphs that start with neutral characters (which take the script before them).
    static let insertions = ["a", "x", " ", "\n", "\r", "\r\n", "\u{301}", "\u{200D}", "\t", "漢", "ก", "한",
                             "م", "👍🏽", "1", "12 ", "(", "-", "\n12 ", "\n\u{301}", "Wolf office", "ไทย ภาษา",
                             // right to left, numbers in it, and what turns a paragraph's direction
                             "שלום", "עולם 42", "مرحبا ١٢٣ بالعالم", "لا 3.5%", "\u{200F}", "\u{202B}x\u{202C}",
                             // soft hyphens, in a word and alone, and words hyphens: auto breaks
                             "\u{AD}", "co\u{AD}op\u{AD}eration", "hyphenation", "Silbentrennung "]
    /// Scripts written left to right only: drafts of these splice their edits (until
    /// an edit brings in a right-to-left letter).
    static let leftToRightScripts = ["latin", "cjk", "korean", "thai", "devanagari", "emoji"]

    static func draft(_ random: inout RandomTexts.Generator, scripts: [String]? = nil) -> String {
        var draft = ""
        for _ in 0..<Int.random(in: 2...7, using: &random) {
            // Some paragraphs start with digits or punctuation, which inherit a script.
            if Bool.random(using: &random) { draft += ["12 ", "(", "“", "- ", "👍 "].randomElement(using: &random)! }
            draft += RandomTexts.text(&random, length: Int.random(in: 1...14, using: &random), scripts: scripts)
            if Int.random(in: 0..<3, using: &random) == 0 {
                draft += ["in\u{AD}ter\u{AD}na\u{AD}tional ", "\u{AD}", "שָׁלוֹם עולם 12 ",
                          "مرحبا 2024 بالعالم ", "hyphenation "].randomElement(using: &random)!
            }
            draft += paragraphEnds.randomElement(using: &random)!
        }
        return draft
    }

    /// A random UTF-16 offset of `text` on a scalar boundary.
    static func offset(_ random: inout RandomTexts.Generator, in text: String) -> Int {
        let utf16 = text.utf16
        var offset = Int.random(in: 0...utf16.count, using: &random)
        while offset > 0, utf16.index(utf16.startIndex, offsetBy: offset).samePosition(in: text.unicodeScalars) == nil {
            offset -= 1
        }
        return offset
    }

    static func expectSame(_ edited: PreparedText, _ fresh: PreparedText, _ context: String) throws {
        #expect(edited.text == fresh.text, "\(context)")
        #expect(edited.utf16Count == fresh.utf16Count, "\(context)")
        #expect(edited.segments == fresh.segments, "\(context)")
        #expect(edited.graphemeEnds == fresh.graphemeEnds, "\(context)")
        #expect(edited.graphemeWidths == fresh.graphemeWidths, "\(context)")
        #expect(edited.graphemeFonts == fresh.graphemeFonts, "\(context)")
        #expect(edited.graphemeHangs == fresh.graphemeHangs, "\(context)")
        #expect(edited.edgeAdjustments == fresh.edgeAdjustments, "\(context)")
        #expect(edited.tabStops == fresh.tabStops, "\(context)")
        #expect(edited.bidi == fresh.bidi, "\(context)")
        #expect(edited.ligatures == fresh.ligatures, "\(context)")
        #expect(edited.ellipsis == fresh.ellipsis, "\(context)")
        #expect(edited.hyphen == fresh.hyphen, "\(context)")
        #expect(edited.spaceWidth == fresh.spaceWidth, "\(context)")
        #expect(edited.lineBoxes == fresh.lineBoxes, "\(context)")
        #expect(edited.style == fresh.style, "\(context)")
        for width in [0, 37.5, 120, 300, 100_000] {
            for mode in [LineBreakMode.byWordWrapping, .byCharWrapping] {
                #expect(try edited.layout(width: width, lineBreakMode: mode).lines
                        == fresh.layout(width: width, lineBreakMode: mode).lines, "\(context) at \(width) \(mode)")
            }
        }
    }

    /// The styles the random edits run in: the defaults, and each paragraph option
    /// and direction away from its default.
    static func style(_ seed: Int) -> TextStyle {
        var style = TextStyle(fontSize: 17)
        switch seed % 8 {
        case 1: style = TextStyle(fontSize: 13, lineHeight: .fixed(19), tabSize: 3)
        case 2: style.whiteSpace = .normal
        case 3: style.hyphens = .auto; style.language = "en-US"
        case 4: style.baseWritingDirection = .rightToLeft
        case 5: style.baseWritingDirection = .leftToRight; style.hyphens = .auto; style.language = "de"
        case 6: style.wordBreak = .keepAll; style.lineBreak = .strict; style.overflowWrap = .normal
        case 7: style.hyphens = .none; style.textWrap = .pretty; style.lineBreak = .anywhere
        default: break
        }
        return style
    }

    @Test(arguments: 0..<24)
    func randomEditsGiveWhatPreparingAfreshGives(seed: Int) throws {
        var random = RandomTexts.Generator(state: UInt64(seed) &* 0x9E37_79B9 &+ 11)
        let style = Self.style(seed)
        let cache = ShapeCache(capacity: 10_000)
        // Half the drafts are left to right (edits splice), half mix in Hebrew and Arabic.
        let scripts = seed % 16 < 8 ? Self.leftToRightScripts : nil
        var prepared = try PreparedText(Self.draft(&random, scripts: scripts), style: style, cache: cache)
        for step in 0..<25 {
            let lower = Self.offset(&random, in: prepared.text)
            var upper = lower
            if Int.random(in: 0..<3, using: &random) != 0 {   // a deletion or replacement
                upper = Self.offset(&random, in: prepared.text)
                if upper < lower { upper = lower + (upper % 3) }
                upper = min(upper, lower + Int.random(in: 1...40, using: &random), prepared.utf16Count)
                while upper < prepared.utf16Count,
                      prepared.text.utf16.index(prepared.text.utf16.startIndex, offsetBy: upper)
                          .samePosition(in: prepared.text.unicodeScalars) == nil { upper += 1 }
            }
            let replacement = Int.random(in: 0..<4, using: &random) == 0 ? "" : Self.insertions.randomElement(using: &random)!
            let before = prepared.text
            // Alternately the shared cache, none and a cache of its own: the cache changes nothing.
            let editCache: ShapeCache? = [cache, nil, .shared][step % 3]
            prepared = try prepared.replacingCharacters(inUTF16: lower..<upper, with: replacement, cache: editCache)
            let fresh = try PreparedText(prepared.text, style: style, cache: nil)
            try Self.expectSame(prepared, fresh,
                                "seed \(seed) step \(step): \(lower)..<\(upper) of \(before.debugDescription) → \(replacement.debugDescription)")
        }
    }

    @Test func anEditPreparesOnlyTheParagraphItTouches() throws {
        // Thai: no segment is cached, so every paragraph prepared is measured again.
        let paragraph = "ภาษาไทยเป็นภาษาที่มีระดับเสียงของคำแน่นอน ประเทศไทยมีประชากร\n"
        let draft = String(repeating: paragraph, count: 20)
        let prepared = try PreparedText(draft, cache: nil)
        let before = MeasuringProbe.callsOnThisThread
        _ = try PreparedText(draft, cache: nil)
        let whole = MeasuringProbe.callsOnThisThread - before
        let middle = draft.utf16.count / 2 + 3
        let start = MeasuringProbe.callsOnThisThread
        let edited = try prepared.replacingCharacters(inUTF16: middle..<middle, with: "ก", cache: nil)
        let edit = MeasuringProbe.callsOnThisThread - start
        #expect(whole > 0)   // a release build counts nothing: the test means something only in debug
        #expect(edit * 10 <= whole, "an edit made \(edit) calls, the whole draft \(whole)")
        try Self.expectSame(edited, PreparedText(edited.text, cache: nil), "middle")
    }

    @Test func editsByStringIndexMatchThoseByUTF16Offset() throws {
        let prepared = try PreparedText("Dear Ann,\nThe meeting is at noon.\nBest, Bo")
        let noon = try #require(prepared.text.firstRange(of: "noon"))
        let byIndex = try prepared.replacingCharacters(in: noon, with: "one")
        let byOffset = try prepared.replacingCharacters(inUTF16: 28..<32, with: "one")
        #expect(byIndex.text == "Dear Ann,\nThe meeting is at one.\nBest, Bo")
        try Self.expectSame(byIndex, byOffset, "noon")
    }

    @Test func rangesOutsideTheTextOrInsideASurrogatePairAreErrors() throws {
        let prepared = try PreparedText("a😀b")
        #expect(throws: TextMeasureError.invalidEditRange(utf16Offsets: 2..<3)) {
            try prepared.replacingCharacters(inUTF16: 2..<3, with: "x")
        }
        #expect(throws: TextMeasureError.invalidEditRange(utf16Offsets: 3..<5)) {
            try prepared.replacingCharacters(inUTF16: 3..<5, with: "x")
        }
        #expect(try prepared.replacingCharacters(inUTF16: 1..<3, with: "").text == "ab")
        let insideEmoji = prepared.text.utf16.index(prepared.text.utf16.startIndex, offsetBy: 2)
        #expect(throws: TextMeasureError.invalidEditRange(utf16Offsets: -1 ..< -1)) {
            try prepared.replacingCharacters(in: insideEmoji..<prepared.text.endIndex, with: "x")
        }
    }
}

extension TextEditingTests {
    /// "“" takes the script before it, here across the paragraph end: after Latin it is
    /// shaped with "A" and kerned, after Arabic it is a run of its own. An edit of the
    /// paragraph before must prepare this one again.
    @Test func aParagraphStartingWithNeutralsFollowsTheScriptTheEditLeavesBeforeIt() throws {
        let latin = try PreparedText("Wolf\n“AVATAR", cache: nil)
        let edited = try latin.replacingCharacters(inUTF16: 0..<4, with: "مرحبا", cache: nil)
        let fresh = try PreparedText("مرحبا\n“AVATAR", cache: nil)
        #expect(latin.segments.last?.width != fresh.segments.last?.width)   // the script matters here
        try Self.expectSame(edited, fresh, "“AVATAR")
    }
}

extension TextEditingTests {
    @Test func aMeasurerEditedAnswersAsOneMadeForTheNewText() throws {
        var composer = try TextMeasurer(text: "Dear Ann,\nThe meeting is at noon.\nBest, Bo", container: .textView)
        let noon = try #require(composer.prepared.text.firstRange(of: "noon"))
        try composer.replaceCharacters(in: noon, with: "noon, or whenever the train from the coast gets in")
        let fresh = try TextMeasurer(text: composer.prepared.text, container: .textView)
        for width in [120.0, 390] {
            #expect(composer.sizeThatFits(ProposedSize(width: width)) == fresh.sizeThatFits(ProposedSize(width: width)))
        }
        let text = composer.prepared.text, longer = text + " and more"
        #expect(throws: TextMeasureError.invalidEditRange(utf16Offsets: -1 ..< -1)) {
            try composer.replaceCharacters(in: text.endIndex..<longer.endIndex, with: "")
        }
        #expect(composer.prepared.text == text)
    }
}

extension TextEditingTests {
    /// Left-to-right drafts with soft hyphens and `hyphens: auto` still splice: an edit
    /// prepares one paragraph, and folds its soft hyphens' widths as preparing does.
    @Test func softHyphensAndHyphenationSpliceOneParagraph() throws {
        var style = TextStyle(fontSize: 17)
        style.hyphens = .auto
        style.language = "en-US"
        let paragraph = "ภาษาไทย in\u{AD}ter\u{AD}na\u{AD}tional hyphenation ประเทศไทยมีประชากร\n"
        let draft = String(repeating: paragraph, count: 20)
        let prepared = try PreparedText(draft, style: style, cache: nil)
        #expect(prepared.segments.contains { $0.endsWithSoftHyphen })
        let before = MeasuringProbe.callsOnThisThread
        _ = try PreparedText(draft, style: style, cache: nil)
        let whole = MeasuringProbe.callsOnThisThread - before
        let middle = draft.utf16.count / 2 + 12
        let start = MeasuringProbe.callsOnThisThread
        let edited = try prepared.replacingCharacters(inUTF16: middle..<middle, with: "co\u{AD}op", cache: nil)
        let edit = MeasuringProbe.callsOnThisThread - start
        #expect(edit * 10 <= whole, "an edit made \(edit) calls, the whole draft \(whole)")
        try Self.expectSame(edited, PreparedText(edited.text, style: style, cache: nil), "soft hyphens")
    }

    /// Text with a right-to-left level, before or after the edit, splices its bidi
    /// levels: the result is exact, in every direction.
    @Test(arguments: [WritingDirection.natural, .leftToRight, .rightToLeft])
    func rightToLeftEditsAreExact(direction: WritingDirection) throws {
        var style = TextStyle(fontSize: 17)
        style.baseWritingDirection = direction
        let cases: [(String, Range<Int>, String)] = [
            ("Hello\nworld\n", 6..<11, "שלום 42"),                  // becomes right to left
            ("שלום עולם\nHello\n", 0..<9, "Hi"),                    // becomes left to right
            ("مرحبا 123 بالعالم\nلا (5)\n", 18..<20, "لا"),          // ligatures, digits
            ("abc\nמה 3.5%\u{2028}def\n", 12..<12, "x"),            // a line separator in a bidi paragraph
        ]
        for (text, range, replacement) in cases {
            let prepared = try PreparedText(text, style: style, cache: nil)
            let edited = try prepared.replacingCharacters(inUTF16: range, with: replacement, cache: nil)
            try Self.expectSame(edited, PreparedText(edited.text, style: style, cache: nil),
                                "\(direction) \(text.debugDescription) \(range)")
        }
    }

    /// What splicing bidi levels rests on, as found: levels resolved per bidi
    /// paragraph (ending at class B: LF, CR, CR LF, U+2029) are those of the whole
    /// text, in every direction (but for unpaired brackets after a paragraph of another
    /// direction: `aParagraphsBracketsTakeTheirContextAsInTheWholeText`); a line
    /// separator or vertical tab ends an editing paragraph (a mandatory break) and no
    /// bidi paragraph, so auto direction reaches across it, and an edit's paragraphs
    /// end at both.
    @Test(arguments: [WritingDirection.natural, .leftToRight, .rightToLeft])
    func bidiParagraphsResolveAloneAsInTheWholeText(direction: WritingDirection) throws {
        let paragraphs = ["Hello שלום 12\n", "مرحبا 123 abc\r\n", "(1) עולם\u{2029}", "plain\r", "لا x\n"]
        func resolve(_ text: String) throws -> BidiLevels {
            let utf16 = Array(text.utf16)
            return try utf16.withUnsafeBufferPointer { buffer throws(TextMeasureError) in
                try BidiLevels.resolve(buffer, direction: direction)
            }
        }
        let whole = try resolve(paragraphs.joined())
        var levels: [UInt8] = [], paragraphLevels: [UInt8] = []
        for paragraph in paragraphs {
            let alone = try resolve(paragraph)
            levels += alone.isLeftToRight ? Array(repeating: 0, count: paragraph.utf16.count) : alone.levels
            paragraphLevels += alone.isLeftToRight ? [0] : alone.paragraphLevels
        }
        #expect(whole.levels == levels)
        #expect(whole.paragraphLevels == paragraphLevels)

        // Across a line separator: "abc" takes the direction of the Hebrew after it.
        let acrossSeparator = try resolve("\u{5D0}\u{2028}abc")
        let afterSeparator = try resolve("abc")
        if direction == .natural {
            #expect(Array(acrossSeparator.levels.suffix(3)) != [0, 0, 0] || !afterSeparator.isLeftToRight)
        }
    }
}

extension TextEditingTests {
    /// Right-to-left drafts splice too: an edit prepares its bidi paragraph alone
    /// (levels resolved for it, spliced among the others'), in every direction.
    @Test(arguments: [WritingDirection.natural, .rightToLeft])
    func aRightToLeftEditPreparesOnlyTheParagraphItTouches(direction: WritingDirection) throws {
        var style = TextStyle(fontSize: 17)
        style.baseWritingDirection = direction
        let paragraphs = ["مرحبا بالعالم، هذه رسالة طويلة 2024 عن الطقس\n", "שלום עולם, זו הודעה ארוכה 42 על מזג האוויר\n",
                          "Hello שלום (12) مرحبا world\n"]
        let draft = String(repeating: paragraphs.joined(), count: 7)
        let prepared = try PreparedText(draft, style: style, cache: nil)
        #expect(!prepared.bidi.isLeftToRight)
        let before = MeasuringProbe.callsOnThisThread
        _ = try PreparedText(draft, style: style, cache: nil)
        let whole = MeasuringProbe.callsOnThisThread - before
        for (middle, replacement) in [(draft.utf16.count / 2 + 5, "ع"), (draft.utf16.count / 2 + 9, "x"),
                                      (draft.utf16.count / 3, "")] {
            let range = middle..<(replacement.isEmpty ? middle + 1 : middle)
            let start = MeasuringProbe.callsOnThisThread
            let edited = try prepared.replacingCharacters(inUTF16: range, with: replacement, cache: nil)
            let edit = MeasuringProbe.callsOnThisThread - start
            #expect(whole > 0)   // a release build counts nothing: the test means something only in debug
            #expect(edit * 10 <= whole, "an edit made \(edit) calls, the whole draft \(whole)")
            try Self.expectSame(edited, PreparedText(edited.text, style: style, cache: nil), "\(direction) \(range)")
        }
    }

    /// A line separator ends no bidi paragraph: an edit after one prepares the bidi
    /// paragraph from its start, whose direction the text before the separator sets.
    @Test func aLineSeparatorDoesNotBoundTheBidiParagraph() throws {
        let text = "שלום\u{2028}abc def\nnext"
        let prepared = try PreparedText(text, cache: nil)
        for (range, replacement) in [(8..<8, "x"), (5..<8, "שלום"), (4..<5, ""), (0..<4, "ab")] {
            let edited = try prepared.replacingCharacters(inUTF16: range, with: replacement, cache: nil)
            try Self.expectSame(edited, PreparedText(edited.text, cache: nil), "\(range) → \(replacement)")
        }
    }
}

extension TextEditingTests {
    /// ICU resolves a text without explicit embeddings or isolates with state carried
    /// across paragraph ends: a paragraph's unpaired bracket takes the previous
    /// paragraph's direction for context, so it resolves differently alone. An edit
    /// resolves its paragraph after a stand-in of the previous one's level, and gives
    /// the whole text's levels, with an isolate elsewhere (paragraph by paragraph) or not.
    @Test(arguments: ["", "\u{2067}x\u{2069}\n"])
    func aParagraphsBracketsTakeTheirContextAsInTheWholeText(isolate: String) throws {
        let rightToLeft = "\u{301}34.56$(1,23$1,שלום234.56 .\n"
        let text = isolate + "Hello world\n" + rightToLeft + "tail"
        let prepared = try PreparedText(text, cache: nil)
        let start = (isolate + "Hello world\n").utf16.count
        if isolate.isEmpty {
            let alone = try PreparedText(rightToLeft, cache: nil)
            #expect(Array(prepared.bidi.levels[start..<(start + rightToLeft.utf16.count)]) != alone.bidi.levels)
        }
        for (offset, replacement) in [(start + 20, "שלום"), (start + 3, "x"), (start + 26, ""), (start - 3, "ab")] {
            let range = offset..<(replacement.isEmpty ? offset + 1 : offset)
            let edited = try prepared.replacingCharacters(inUTF16: range, with: replacement, cache: nil)
            try Self.expectSame(edited, PreparedText(edited.text, cache: nil), "\(isolate.debugDescription) \(range)")
        }
        // A left-to-right paragraph after a right-to-left one: its brackets may take the
        // direction before it, though nothing in it is right to left.
        let afterHebrew = try PreparedText(isolate + "שלום\n(abc) def\n", cache: nil)
        let offset = isolate.utf16.count + 7
        let edited = try afterHebrew.replacingCharacters(inUTF16: offset..<offset, with: "x", cache: nil)
        try Self.expectSame(edited, PreparedText(edited.text, cache: nil), "\(isolate.debugDescription) (abc)")
    }
}
