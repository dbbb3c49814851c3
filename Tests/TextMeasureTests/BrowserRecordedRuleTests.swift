import Testing
import TextMeasure

/// Each browser fitting rule of `BrowserFittingTests`, found at work in Chromium's
/// recorded answers (`chromium.jsonl`): the recording holds cases where the rule
/// decides a line break, and the library agrees with Chromium on every one of them.
/// (`BrowserFidelityTests` checks all cases; this says which of them carry each rule,
/// so a rule the recording stops exercising is noticed.)
@Suite struct BrowserRecordedRuleTests {
    struct Case {
        var id: String
        var measurement: MeasurementCase
        var text: [UInt16]
        var chromium: [Int]
    }

    static let cases: [Case] = {
        guard let recorded = try? BrowserFidelityTests.recordedCases() else { return [] }
        let known = BrowserFidelityTests.knownDifferences()
        return recorded.filter { !known.contains($0.1.id) }.map {
            Case(id: $0.1.id, measurement: $0.0, text: Array($0.0.text.utf16), chromium: $0.1.chromium.lineStarts)
        }
    }()

    static func isArabicLetter(_ unit: UInt16) -> Bool { (0x0620...0x064A).contains(unit) }

    /// The recorded cases where Chromium starts a line at an offset `rule` accepts
    /// (the text's UTF-16 units and the offset), checked against the library.
    func expectRule(_ name: String, minimum: Int, _ rule: ([UInt16], Int) -> Bool) throws {
        let fonts = FontCache()
        var found = 0
        for recorded in Self.cases where recorded.chromium.dropFirst().contains(where: { rule(recorded.text, $0) }) {
            found += 1
            #expect(try recorded.measurement.measure(fonts: fonts).lineStarts == recorded.chromium, "\(name): \(recorded.id)")
        }
        #expect(found >= minimum, "\(name): the recording has \(found) cases")
    }

    @Test func aWordBrokenInsideALatinLigatureBreaksBetweenItsLetters() throws {
        // "ff", "fi", "fl" are one glyph in Noto Sans; Chromium breaks between the letters.
        try expectRule("ligature", minimum: 10) { text, start in
            text[start - 1] == 0x66 && [0x66, 0x69, 0x6C].contains(text[start])
        }
    }

    @Test func arabicWordsBreakForOverflowButNeverInsideLamAlef() throws {
        try expectRule("Arabic word", minimum: 50) { text, start in
            start < text.count && Self.isArabicLetter(text[start - 1]) && Self.isArabicLetter(text[start])
        }
        // Lam-alef is one ligature: neither Chromium nor the library starts a line inside it.
        let lamAlef: ([UInt16], Int) -> Bool = { text, start in
            start < text.count && text[start - 1] == 0x644 && [0x622, 0x623, 0x625, 0x627].contains(text[start])
        }
        let fonts = FontCache()
        for recorded in Self.cases where recorded.id.hasPrefix("ar-") || recorded.id.hasPrefix("bidi-") {
            #expect(!recorded.chromium.contains { $0 > 0 && lamAlef(recorded.text, $0) }, "\(recorded.id)")
            let ours = try recorded.measurement.measure(fonts: fonts).lineStarts
            #expect(!ours.contains { $0 > 0 && lamAlef(recorded.text, $0) }, "\(recorded.id)")
        }
    }

    @Test func aHyphenThatStartsALineHoldsOnToADigitAfterIt() throws {
        try expectRule("hyphen", minimum: 5) { text, start in
            start + 1 < text.count && text[start] == 0x2D && (0x30...0x39).contains(text[start + 1])
        }
    }

    @Test func tabsAdvanceToTabStops() throws {
        try expectRule("tab", minimum: 20) { text, start in text[start - 1] == 0x09 }
    }

    /// Blink's `AvailableWidthToFit`: recorded cases with a line wider than the box by
    /// at most 1/64 px, where Chromium breaks where the library does.
    @Test func aLineMayOverflowByOneLayoutUnit() throws {
        let fonts = FontCache()
        var found = 0
        for recorded in Self.cases where recorded.measurement.lineHeight == nil {
            let layout = try recorded.measurement.measurer(fonts: fonts).layout(width: recorded.measurement.width)
            let box = recorded.measurement.width
            guard layout.lines.contains(where: { $0.width > box && $0.width <= box + 1.0 / 64 }) else { continue }
            found += 1
            #expect(layout.lines.map(\.utf16Range.lowerBound) == recorded.chromium, "\(recorded.id)")
        }
        #expect(found >= 1, "the recording has \(found) cases")
    }
}
