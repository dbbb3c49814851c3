import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// Editing styled text (`PreparedText.replacingCharacters` on `PreparedText(_: AttributedText)`,
/// `AttributedText.replaceCharacters`): runs move, grow, shrink and go as
/// NSAttributedString's do, and the edit prepares only the paragraphs it touches,
/// with exactly what preparing the edited styled text afresh gives.
@Suite struct StyledEditingTests {
    static let bold = Result {
        try FontSet([Font(contentsOfFile: RichTextTests.boxVariable, variations: ["wght": 900])] + FontSet.default.fonts)
    }

    static func ranges(_ text: AttributedText) -> [Range<Int>] { text.runs.map(\.utf16Range) }
    static func sizes(_ text: AttributedText) -> [Double?] { text.runs.map(\.attributes.fontSize) }

    @Test func typedTextTakesTheAttributesOfTheRunItIsTypedInto() throws {
        var text = AttributedText("big and small")
        try text.setAttributes(TextAttributes(fontSize: 30), utf16Range: 0..<3)     // big
        try text.setAttributes(TextAttributes(fontSize: 20), utf16Range: 8..<13)    // small

        var after = text   // the caret after "big": the run before the caret grows
        try after.replaceCharacters(inUTF16: 3..<3, with: "ger")
        #expect(after.text == "bigger and small")
        #expect(Self.ranges(after) == [0..<6, 11..<16] && Self.sizes(after) == [30, 20])

        var before = text   // the caret before "small", after a space in the base style
        try before.replaceCharacters(inUTF16: 8..<8, with: "very ")
        #expect(Self.ranges(before) == [0..<3, 13..<18])

        var start = text   // at offset 0: the first character's run
        try start.replaceCharacters(inUTF16: 0..<0, with: "a ")
        #expect(Self.ranges(start) == [0..<5, 10..<15])

        var replaced = text   // over a selection: the first replaced character's attributes
        try replaced.replaceCharacters(inUTF16: 2..<9, with: "G")
        #expect(replaced.text == "biGmall" && Self.ranges(replaced) == [0..<3, 3..<7] && Self.sizes(replaced) == [30, 20])

        var shrunk = text   // a deletion inside a run shrinks it; the runs after move
        try shrunk.replaceCharacters(inUTF16: 1..<2, with: "")
        #expect(Self.ranges(shrunk) == [0..<2, 7..<12])
    }

    @Test func deletingARunOrAPlaceholderRemovesIt() throws {
        var text = AttributedText("big and small \u{FFFC}")
        try text.setAttributes(TextAttributes(fontSize: 30), utf16Range: 0..<3)
        try text.setAttributes(TextAttributes(placeholder: InlinePlaceholder(width: 40, height: 12, baseline: 10)),
                               utf16Range: 14..<15)
        var deleted = text
        try deleted.replaceCharacters(inUTF16: 0..<4, with: "")
        #expect(deleted.text == "and small \u{FFFC}" && Self.ranges(deleted) == [10..<11])
        #expect(deleted.runs.first?.attributes.placeholder != nil)

        var noPlaceholder = text
        try noPlaceholder.replaceCharacters(inUTF16: 13..<15, with: "")
        #expect(Self.ranges(noPlaceholder) == [0..<3])

        // Typed after a placeholder, text takes the base style, not the box.
        var typedAfter = text
        try typedAfter.replaceCharacters(inUTF16: 15..<15, with: "ok")
        #expect(Self.ranges(typedAfter) == [0..<3, 14..<15])
        // Typed over it, the same: the placeholder goes with its U+FFFC.
        var typedOver = text
        try typedOver.replaceCharacters(inUTF16: 14..<15, with: "ok")
        #expect(Self.ranges(typedOver) == [0..<3])
        #expect(throws: TextMeasureError.invalidEditRange(utf16Offsets: 3..<17)) {
            try typedOver.replaceCharacters(inUTF16: 3..<17, with: "")
        }
    }

    @Test func anAttributedReplacementKeepsItsRunsAndCutsTheRunAroundIt() throws {
        var mention = AttributedText("@ana")
        try mention.setAttributes(TextAttributes(fontSize: 20), utf16Range: 0..<4)
        var text = AttributedText("Hi there")
        try text.setAttributes(TextAttributes(fontSize: 30), utf16Range: 3..<8)
        try text.replaceCharacters(inUTF16: 5..<5, with: mention)
        #expect(text.text == "Hi th@anaere")
        #expect(Self.ranges(text) == [3..<5, 5..<9, 9..<12] && Self.sizes(text) == [30, 20, 30])

        // On prepared text: the same runs, and what preparing them afresh gives; plain
        // text becomes styled.
        let plain = try PreparedText("Hi , see you")
        let edited = try plain.replacingCharacters(inUTF16: 3..<3, with: mention)
        #expect(edited.attributed.map(Self.ranges) == [3..<7])
        var expected = AttributedText("Hi , see you")
        try expected.replaceCharacters(inUTF16: 3..<3, with: mention)
        try Self.expectSame(edited, PreparedText(expected), "mention")
        let cut = try PreparedText(text).replacingCharacters(inUTF16: 4..<4, with: mention)
        var cutExpected = text
        try cutExpected.replaceCharacters(inUTF16: 4..<4, with: mention)
        try Self.expectSame(cut, PreparedText(cutExpected), "cut")
    }

    static func expectSame(_ edited: PreparedText, _ fresh: PreparedText, _ context: String) throws {
        try TextEditingTests.expectSame(edited, fresh, context)
        #expect(edited.attributed.map(ranges) == fresh.attributed.map(ranges), "\(context)")
        #expect(edited.attributed.map(sizes) == fresh.attributed.map(sizes), "\(context)")
        #expect(edited.styled?.slotKeys == fresh.styled?.slotKeys, "\(context)")
    }

    /// What runs of a random styled draft set: sizes, spacing, a bold variable font,
    /// features, and placeholders on U+FFFC.
    static func attributes(_ random: inout RandomTexts.Generator) throws -> TextAttributes {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: TextAttributes(fontSize: 26)
        case 1: TextAttributes(letterSpacing: 1.5)
        case 2: TextAttributes(fonts: try bold.get())
        case 3: TextAttributes(fontSize: 12, wordSpacing: 3)
        case 4: TextAttributes(fontFeatures: ["-kern", "-liga"])
        default: TextAttributes(fonts: try bold.get(), fontSize: 20, letterSpacing: -0.5)
        }
    }

    static let placeholder = InlinePlaceholder(width: 24, height: 30, baseline: 22)

    /// `text` with random runs over it, placeholders on most of its U+FFFC.
    static func styled(_ text: String, style: TextStyle, _ random: inout RandomTexts.Generator) throws -> AttributedText {
        var attributed = AttributedText(text, style: style)
        let units = Array(text.utf16)
        var offset = 0
        while offset < units.count {
            if units[offset] == 0xFFFC, Int.random(in: 0..<4, using: &random) != 0 {
                try attributed.setAttributes(TextAttributes(placeholder: placeholder), utf16Range: offset..<offset + 1)
                offset += 1
                continue
            }
            var end = min(units.count, offset + Int.random(in: 1...12, using: &random))
            if let fffc = units[offset..<end].firstIndex(of: 0xFFFC) { end = fffc }
            while end < units.count, UTF16.isTrailSurrogate(units[end]) { end += 1 }
            if end > offset, attributed.runs.count < 8, Int.random(in: 0..<3, using: &random) == 0 {
                try attributed.setAttributes(attributes(&random), utf16Range: offset..<end)
            }
            offset = max(end, offset + 1)
            while offset < units.count, UTF16.isTrailSurrogate(units[offset]) { offset += 1 }
        }
        return attributed
    }

    @Test(arguments: 0..<16)
    func randomStyledEditsGiveWhatPreparingAfreshGives(seed: Int) throws {
        var random = RandomTexts.Generator(state: UInt64(seed) &* 0x2545_F491 &+ 7)
        let style = TextEditingTests.style(seed)
        // Half the drafts left to right, half with Hebrew and Arabic; U+FFFC in some paragraphs.
        let scripts = seed % 4 < 2 ? TextEditingTests.leftToRightScripts : nil
        var draft = TextEditingTests.draft(&random, scripts: scripts)
        for _ in 0..<3 {
            let at = TextEditingTests.offset(&random, in: draft)
            let index = draft.utf16.index(draft.utf16.startIndex, offsetBy: at)
            draft.insert(contentsOf: " \u{FFFC}", at: index)
        }
        var attributed = try Self.styled(draft, style: style, &random)
        var prepared = try PreparedText(attributed)
        for step in 0..<16 {
            let lower = TextEditingTests.offset(&random, in: prepared.text)
            var upper = lower
            if Int.random(in: 0..<3, using: &random) != 0 {
                upper = min(TextEditingTests.offset(&random, in: prepared.text), lower + Int.random(in: 1...30, using: &random))
                upper = max(upper, lower)
                while upper < prepared.utf16Count,
                      prepared.text.utf16.index(prepared.text.utf16.startIndex, offsetBy: upper)
                          .samePosition(in: prepared.text.unicodeScalars) == nil { upper += 1 }
            }
            let before = prepared.text
            let context = "seed \(seed) step \(step): \(lower)..<\(upper) of \(before.debugDescription)"
            if Int.random(in: 0..<4, using: &random) == 0 {
                // A styled replacement: a run of its own, or a placeholder.
                let inserted = Bool.random(using: &random) ? "@mention" : "\u{FFFC}"
                var replacement = AttributedText(inserted)
                try replacement.setAttributes(inserted == "\u{FFFC}" ? TextAttributes(placeholder: Self.placeholder)
                                                                     : Self.attributes(&random),
                                              utf16Range: 0..<inserted.utf16.count)
                try attributed.replaceCharacters(inUTF16: lower..<upper, with: replacement)
                prepared = try prepared.replacingCharacters(inUTF16: lower..<upper, with: replacement)
                try Self.expectSame(prepared, PreparedText(attributed), "\(context) → \(inserted.debugDescription) styled")
            } else {
                let replacement = Int.random(in: 0..<4, using: &random) == 0
                    ? "" : (TextEditingTests.insertions + ["\u{FFFC}"]).randomElement(using: &random)!
                try attributed.replaceCharacters(inUTF16: lower..<upper, with: replacement)
                // With the shape cache and without: both give what preparing afresh with it gives.
                let cache: ShapeCache? = (seed + step) % 2 == 0 ? .shared : nil
                prepared = try prepared.replacingCharacters(inUTF16: lower..<upper, with: replacement, cache: cache)
                try Self.expectSame(prepared, PreparedText(attributed), "\(context) → \(replacement.debugDescription)")
            }
        }
    }

    @Test func aStyledEditPreparesOnlyTheParagraphItTouches() throws {
        let paragraph = "ภาษาไทยเป็นภาษาที่มี bold ระดับเสียงของคำแน่นอน spaced ประเทศไทยมีประชากร\n"
        var attributed = AttributedText(String(repeating: paragraph, count: 20), style: TextStyle(fontSize: 17))
        let length = paragraph.utf16.count
        for index in 0..<20 {
            try attributed.setAttributes(TextAttributes(fonts: Self.bold.get()), utf16Range: index * length + 21..<index * length + 25)
            try attributed.setAttributes(TextAttributes(letterSpacing: 2), utf16Range: index * length + 48..<index * length + 54)
        }
        let prepared = try PreparedText(attributed)
        let before = MeasuringProbe.callsOnThisThread
        _ = try PreparedText(attributed)
        let whole = MeasuringProbe.callsOnThisThread - before
        let inRun = 10 * length + 23   // inside the 11th paragraph's bold run
        let start = MeasuringProbe.callsOnThisThread
        let edited = try prepared.replacingCharacters(inUTF16: inRun..<inRun, with: "er")
        let edit = MeasuringProbe.callsOnThisThread - start
        #expect(whole > 0)   // a release build counts nothing: the test means something only in debug
        #expect(edit * 10 <= whole, "an edit made \(edit) calls, the whole draft \(whole)")
        try attributed.replaceCharacters(inUTF16: inRun..<inRun, with: "er")
        #expect(edited.attributed?.runs[20].utf16Range == 10 * length + 21..<10 * length + 27)
        try Self.expectSame(edited, PreparedText(attributed), "bold run")
    }
}
