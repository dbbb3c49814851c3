import Testing
import TextMeasure

/// `Boundaries.clusters` asks ICU only where two code points could join a cluster;
/// its answer must be exactly ICU's over the whole text, merged with the line breaks.
@Suite struct ClusterBoundaryTests {
    /// ICU's grapheme boundaries of the whole text, with `forced` added.
    static func reference(_ utf16: [UInt16], forced: [Int32]) throws -> [Int32] {
        let graphemes = try utf16.withUnsafeBufferPointer { try Boundaries.graphemes(in: $0) }
        return Array(Set(graphemes + forced)).sorted()
    }

    /// The fast answer for `utf16[start...]`, with the forced boundaries in that range.
    static func clusters(_ utf16: [UInt16], from start: Int, forced: [Int32]) throws -> [Int32] {
        let forced = forced.filter { $0 > start }
        var out = [Int32](repeating: 0, count: utf16.count - start + forced.count)
        let count = try utf16.withUnsafeBufferPointer { text in
            try forced.withUnsafeBufferPointer { forced in
                try out.withUnsafeMutableBufferPointer { out in
                    try Boundaries.clusters(in: text, from: start, to: text.count, forced: forced, into: out.baseAddress!)
                }
            }
        }
        return Array(out.prefix(count))
    }

    static func lineBreaks(_ utf16: [UInt16]) throws -> [Int32] {
        try utf16.withUnsafeBufferPointer { try Boundaries.lineBreaks(in: $0, rules: .uax14) }.map { Int32($0.utf16Offset) }
    }

    /// Checks the whole text and every suffix that starts at a line break.
    static func check(_ utf16: [UInt16]) throws {
        guard !utf16.isEmpty else { return }
        let forced = try lineBreaks(utf16)
        let expected = try reference(utf16, forced: forced)
        #expect(try clusters(utf16, from: 0, forced: forced) == expected, "\(utf16.map { String($0, radix: 16) })")
        for start in forced.dropLast() {
            #expect(try clusters(utf16, from: Int(start), forced: forced) == expected.filter { $0 > start },
                    "from \(start): \(utf16.map { String($0, radix: 16) })")
        }
    }

    @Test func everyLineOfGraphemeBreakTest() throws {
        for testCase in try UnicodeConformanceTests.cases("GraphemeBreakTest.txt") { try Self.check(testCase.utf16) }
    }

    /// Code points from every grapheme class, and some that only look simple.
    static let pool: [String] = [
        "a", "Z", " ", "1", ".", "\r", "\n", "\r\n", "\u{7}", "\u{85}", "\u{200B}", "\u{AD}",
        "\u{301}", "\u{308}", "\u{20DD}", "\u{200C}", "\u{200D}", "\u{FE0F}", "\u{E0061}",
        "👍", "👨", "👩", "🏽", "❤", "©", "🇫", "🇷", "🇯",
        "\u{1100}", "\u{1161}", "\u{11A8}", "가", "각",
        "क", "\u{94D}", "ष", "\u{93F}", "ก", "\u{E33}", "\u{E31}", "\u{600}", "\u{110BD}",
        "ب", "\u{64E}", "中", "文", "ア", "\u{FF9E}", "\u{102B}", "\u{1F3FB}",
    ]

    @Test func randomTextsFromEveryGraphemeClass() throws {
        var random = LineBreakModeFuzzTests.Generator(state: 7)
        for _ in 0..<3_000 {
            var utf16: [UInt16] = []
            for _ in 0..<Int.random(in: 1...24, using: &random) {
                // Now and then a lone surrogate, which ICU treats as a cluster of its own.
                if Int.random(in: 0..<40, using: &random) == 0 { utf16.append(Bool.random(using: &random) ? 0xD83D : 0xDC4D) }
                utf16 += Array(Self.pool[Int.random(in: 0..<Self.pool.count, using: &random)].utf16)
            }
            try Self.check(utf16)
        }
    }

    /// Whole paragraphs of every script the project's fixture texts hold.
    @Test func theFixtureTexts() throws {
        for name in FixtureTexts.names {
            let utf16 = Array(try FixtureTexts.text(name).utf16.prefix(4_000))
            let forced = try Self.lineBreaks(utf16)
            #expect(forced.count > 10, "\(name): a text with line breaks")
            #expect(try Self.clusters(utf16, from: 0, forced: forced) == Self.reference(utf16, forced: forced), "\(name)")
        }
    }
}
