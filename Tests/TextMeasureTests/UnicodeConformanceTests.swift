import Testing
import TextMeasure

/// Unicode's own conformance files, from Debian's unicode-data (installed by scripts/setup).
@Suite struct UnicodeConformanceTests {
    struct Case {
        var lineNumber: Int
        var utf16: [UInt16]
        /// UTF-16 offsets after 0 where the file says ÷.
        var breaks: [Int]
    }

    static let directory = "/usr/share/unicode/auxiliary/"

    /// Parses lines like `× 0023 × 0020 ÷ 0023 ÷	#  × [0.3] ...`.
    static func cases(_ file: String) throws -> [Case] {
        let contents = try #require(readTextFile(directory + file), "\(file) missing: run scripts/setup")
        var cases: [Case] = []
        for (index, line) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let tokens = data.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard !tokens.isEmpty else { continue }
            var utf16: [UInt16] = []
            var breaks: [Int] = []
            for token in tokens {
                switch token {
                case "÷": if !utf16.isEmpty { breaks.append(utf16.count) }
                case "×": break
                default:
                    let scalar = try #require(UInt32(token, radix: 16).flatMap(Unicode.Scalar.init))
                    utf16.append(contentsOf: String(scalar).utf16)
                }
            }
            cases.append(Case(lineNumber: index + 1, utf16: utf16, breaks: breaks))
        }
        return cases
    }

    /// Lines of LineBreakTest-15.0.0.txt where ICU 72 itself answers differently
    /// from the file. ICU is the reference for `.uax14`; a new mismatch fails.
    static let knownICU72LineBreakDeviations: Set<Int> = [
        2265, 2267, 2421, 2423, 2425, 2427, 2429, 2431, 2873, 2875, 7477,
        7576, 7577, 7578, 7579, 7580, 7581, 7583, 7584, 7585, 7586, 7587,
    ]

    @Test func lineBreaksEqualICUOnEveryLineOfLineBreakTest() throws {
        let cases = try Self.cases("LineBreakTest.txt")
        #expect(cases.count == 7654)
        var mismatches: Set<Int> = []
        for testCase in cases {
            let text = String(decoding: testCase.utf16, as: UTF16.self)
            let breaks = try LineBreakRules.uax14.breakOpportunities(in: text).map(\.utf16Offset)
            if breaks != testCase.breaks { mismatches.insert(testCase.lineNumber) }
        }
        #expect(mismatches == Self.knownICU72LineBreakDeviations,
                "new: \(mismatches.subtracting(Self.knownICU72LineBreakDeviations).sorted()), gone: \(Self.knownICU72LineBreakDeviations.subtracting(mismatches).sorted())")
        #expect(cases.count - mismatches.count == 7632)
    }

    @Test func graphemeBoundariesMatchEveryLineOfGraphemeBreakTest() throws {
        let cases = try Self.cases("GraphemeBreakTest.txt")
        #expect(cases.count == 602)
        for testCase in cases {
            let boundaries = try testCase.utf16.withUnsafeBufferPointer { try Boundaries.graphemes(in: $0) }
            #expect(boundaries.map(Int.init) == testCase.breaks, "line \(testCase.lineNumber)")
        }
    }
}
