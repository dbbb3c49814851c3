import CTextICU
import Testing
@testable import TextMeasure

/// Right-to-left text of strong letters and neutrals only is resolved without ICU's
/// ubidi (`ctx_bidi_resolve`'s shortcut): the levels must be what ubidi gives for the
/// same classes, and text the shortcut must not take must still reach ubidi.
@Suite struct BidiPlainRightToLeftTests {
    /// One character of each class the shortcut takes, with its class: R, AL, WS, ON,
    /// S, NSM, ES, ET, CS.
    static let plain: [(unit: UInt16, bidiClass: Int)] = [
        (0x05D0, CTX_BIDI_R), (0x0627, CTX_BIDI_AL), (0x0020, CTX_BIDI_WS), (0x0021, CTX_BIDI_ON),
        (0x0009, CTX_BIDI_S), (0x064B, CTX_BIDI_NSM), (0x002B, CTX_BIDI_ES), (0x0023, CTX_BIDI_ET),
        (0x002C, CTX_BIDI_CS),
    ]

    /// ubidi's levels for `classes` as one paragraph (the conformance tests' entry point,
    /// which never takes the shortcut).
    static func icuLevels(_ classes: [Int], direction: Int) throws -> [UInt8] {
        var levels = [UInt8](repeating: 0, count: classes.count)
        var paragraphLevel: UInt8 = 0
        var error: Int32 = 0
        let status = ctx_bidi_resolve_classes(classes.map { UInt8($0) }, Int32(classes.count), Int32(direction),
                                              &levels, &paragraphLevel, &error)
        try #require(status == 0, "ICU error \(error)")
        return levels
    }

    static func resolved(_ units: [UInt16], _ direction: WritingDirection) throws -> BidiLevels {
        try units.withUnsafeBufferPointer { try BidiLevels.resolve($0, direction: direction) }
    }

    @Test(arguments: [WritingDirection.natural, .rightToLeft])
    func sameLevelsAsICU(direction: WritingDirection) throws {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let icuDirection = direction == .natural ? CTX_BIDI_AUTO : CTX_BIDI_RTL
        for _ in 0..<2_000 {
            let picks = (0..<(1 + next(12))).map { _ in Self.plain[next(Self.plain.count)] }
            let bidi = try Self.resolved(picks.map(\.unit), direction)
            let expected = try Self.icuLevels(picks.map(\.bidiClass), direction: icuDirection)
            if expected.allSatisfy({ $0 == 0 }) {
                // Neutrals alone in an auto paragraph: left to right, no levels kept.
                #expect(bidi.isLeftToRight || bidi.levels == expected)
            } else {
                #expect(bidi.levels == expected, "\(picks.map(\.bidiClass))")
                #expect(bidi.paragraphEnds == [Int32(picks.count)])
                #expect(bidi.paragraphLevels == [1])
            }
        }
    }

    /// `ctx_bidi_needed` passes over U+3040-U+D7FF without a look: ubidi puts every
    /// code point there at level 0 in a left-to-right paragraph, and one Hebrew letter
    /// after Chinese still needs resolving.
    @Test func kanaToHangulNeedsNoResolution() throws {
        var levels: [UInt8] = [9], ends: [Int32] = [0], paragraphLevels: [UInt8] = [0]
        var error: Int32 = 0
        for unit in UInt16(0x3040)..<0xD800 {
            let count = ctx_bidi_resolve([unit], 1, Int32(CTX_BIDI_LTR), &levels, &ends, &paragraphLevels, 1, &error)
            try #require(count == 1 && levels == [0], "U+\(String(unit, radix: 16))")
        }
        #expect(ctx_bidi_needed(Array("中文かなカナ한국어".utf16), 9) == 0)
        #expect(ctx_bidi_needed(Array("中文\u{5D0}".utf16), 3) == 1)
    }

    /// Nor at any code point `ctx_bidi_passes` passes by its range (the Indic scripts,
    /// general punctuation, symbols, CJK punctuation, fullwidth forms, emoji;
    /// preparation's UTF-8 walk asks the same): none is R, AL or AN (level 1 or 2 alone)
    /// or an embedding, override or isolate (a letter after it above level 0). Every
    /// such code point of the BMP and plane 1 is checked, and every 97th beyond. PDF and
    /// PDI, which this could not see, are U+202C and U+2069, which it does not pass.
    @Test func codePointsPassedByRangeNeedNoResolution() throws {
        var levels = [UInt8](repeating: 9, count: 3), ends = [Int32](repeating: 0, count: 3)
        var paragraphLevels = [UInt8](repeating: 0, count: 3)
        var error: Int32 = 0
        var checked = 0
        let scalars = Array(UInt32(0)..<0x20000) + Array(stride(from: UInt32(0x20000), to: 0x110000, by: 97))
        for value in scalars where ctx_bidi_passes(value) != 0 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let units = Array(String(Character(scalar)).utf16) + [0x61]
            let count = ctx_bidi_resolve(units, Int32(units.count), Int32(CTX_BIDI_LTR), &levels, &ends, &paragraphLevels,
                                         3, &error)
            try #require(count >= 1 && levels[0..<units.count].allSatisfy { $0 == 0 }, "U+\(String(value, radix: 16))")
            checked += 1
        }
        #expect(checked > 100_000)
        #expect(ctx_bidi_passes(0x202C) == 0 && ctx_bidi_passes(0x2069) == 0 && ctx_bidi_passes(0x200F) == 0)
        #expect(ctx_bidi_needed(Array("“中文，”「かな」。ｶﾅ！नमस्ते😀".utf16), 21) == 0)
        #expect(ctx_bidi_needed(Array("a\u{200F}".utf16), 2) == 1)
        #expect(ctx_bidi_needed(Array("中文。\u{FE70}".utf16), 4) == 1)
        #expect(ctx_bidi_needed(Array("नमस्ते\u{8A0}".utf16), 7) == 1)
        #expect(ctx_bidi_needed(Array("😀\u{1E900}".utf16), 4) == 1)
        // Prepared text: the walk that decodes it settles that it needs no levels, or resolves them.
        #expect(try PreparedText("“中文”नमस्ते😀").bidi.isLeftToRight)
        #expect(try !PreparedText("😀 \u{1E900}\u{1E901}").bidi.isLeftToRight)
        #expect(try !PreparedText("a", style: TextStyle(baseWritingDirection: .rightToLeft)).bidi.isLeftToRight)
    }

    /// Texts of several paragraphs, each of one level, are resolved without ubidi too
    /// (emoji, joiners, marks and brackets among them): every level, paragraph end and
    /// paragraph level must be what ubidi gives for the whole text, context carried
    /// across paragraph ends included (`ا\n1` puts the 1 at level 2). Texts mixing what
    /// the shortcut takes and what it leaves to ICU check that it leaves the rest.
    @Test(arguments: [WritingDirection.natural, .rightToLeft, .leftToRight])
    func paragraphsOfOneLevelAsICU(direction: WritingDirection) throws {
        // R, AL, WS, ON, brackets, S, NSM, ES, ET, CS, BN (ZWJ), emoji (ON, two units), L,
        // EN, AN, and the separators B (LF, CR LF, PS).
        let pieces: [[UInt16]] = [[0x05D0], [0x0627], [0x0644], [0x20], [0x21], [0x28], [0x29], [0x5B], [0x09], [0x064B],
                                  [0x2B], [0x23], [0x2C], [0x200D], [0xD83D, 0xDE00], [0x61], [0x31], [0x0661],
                                  [0x0A], [0x0D, 0x0A], [0x2029], [0x0A], [0x0627], [0x20]]
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let icuDirection = switch direction {
        case .natural: CTX_BIDI_AUTO
        case .leftToRight: CTX_BIDI_LTR
        case .rightToLeft: CTX_BIDI_RTL
        }
        var shortcuts = 0
        for _ in 0..<4_000 {
            // Mostly pieces of one kind per paragraph, as text is: a few kinds to choose from.
            let kinds = (0..<(1 + next(4))).map { _ in pieces[next(pieces.count)] }
            var units: [UInt16] = []
            for _ in 0..<(1 + next(14)) { units += kinds[next(kinds.count)] + (next(4) == 0 ? [0x0A] : []) }
            let count = units.count
            var levels = [UInt8](repeating: 9, count: count), ends = [Int32](repeating: 0, count: count)
            var paragraphLevels = [UInt8](repeating: 9, count: count)
            var icuLevels = levels, icuEnds = ends, icuParagraphLevels = paragraphLevels
            var error: Int32 = 0
            let paragraphs = ctx_bidi_resolve(units, Int32(count), Int32(icuDirection), &levels, &ends, &paragraphLevels,
                                              Int32(count), &error)
            let icuParagraphs = ctx_bidi_resolve_with_icu(units, Int32(count), Int32(icuDirection), &icuLevels, &icuEnds,
                                                          &icuParagraphLevels, Int32(count), &error)
            try #require(paragraphs == icuParagraphs && levels == icuLevels, "\(units.map { String($0, radix: 16) })")
            let used = Int(paragraphs)
            #expect(ends[..<used] == icuEnds[..<used] && paragraphLevels[..<used] == icuParagraphLevels[..<used])
            if levels.allSatisfy({ $0 == levels[0] }) || used > 1 { shortcuts += 1 }
        }
        #expect(shortcuts > 1_000)
    }

    /// A digit (EN, which becomes AN after Arabic) or a Latin letter in the same right-to-left
    /// paragraph still goes to ubidi: levels other than 1; a newline makes two paragraphs.
    @Test func textWithNumbersLettersOrParagraphsIsResolvedByICU() throws {
        let digits = try Self.resolved(Array("\u{627}\u{644} 12".utf16), .natural)
        #expect(digits.levels == [1, 1, 1, 2, 2])
        let latin = try Self.resolved(Array("\u{5D0} ab".utf16), .natural)
        #expect(latin.levels == [1, 1, 2, 2])
        let paragraphs = try Self.resolved(Array("\u{5D0}\n\u{5D1}".utf16), .natural)
        #expect(paragraphs.paragraphEnds == [2, 3])
        #expect(paragraphs.levels == [1, 1, 1])
    }
}
