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
                             "م", "👍🏽", "1", "12 ", "(", "-", "\n12 ", "\n\u{301}", "Wolf office", "ไทย ภาษา"]

    static func draft(_ random: inout RandomTexts.Generator) -> String {
        var draft = ""
        for _ in 0..<Int.random(in: 2...7, using: &random) {
            // Some paragraphs start with digits or punctuation, which inherit a script.
            if Bool.random(using: &random) { draft += ["12 ", "(", "“", "- ", "👍 "].randomElement(using: &random)! }
            draft += RandomTexts.text(&random, length: Int.random(in: 1...14, using: &random))
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
        for width in [0, 37.5, 120, 300, 100_000] {
            for mode in [LineBreakMode.byWordWrapping, .byCharWrapping] {
                #expect(try edited.layout(width: width, lineBreakMode: mode).lines
                        == fresh.layout(width: width, lineBreakMode: mode).lines, "\(context) at \(width) \(mode)")
            }
        }
    }

    @Test(arguments: 0..<12)
    func randomEditsGiveWhatPreparingAfreshGives(seed: Int) throws {
        var random = RandomTexts.Generator(state: UInt64(seed) &* 0x9E37_79B9 &+ 11)
        let style = seed % 3 == 0 ? TextStyle(fontSize: 13, lineHeight: .fixed(19), tabSize: 3) : TextStyle(fontSize: 17)
        let cache = ShapeCache(capacity: 10_000)
        var prepared = try PreparedText(Self.draft(&random), style: style, cache: cache)
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
