import Testing
import TextMeasure
@testable import TextMeasureShaping
@testable import TextMeasurePreparation

/// A base with thousands of combining marks: HarfBuzz 6.0 shapes it in time quadratic
/// in the marks (CVE-2023-25193), so it is handed over in pieces (`ShapingPieces`).
/// What is checked is what HarfBuzz is given, not a wall-clock time.
@Suite struct MarkRunShapingTests {
    static let limit = ShapingPieces.maximumJoiningUnits

    /// The pieces `text` would be handed to HarfBuzz in, as one run.
    func pieces(_ text: String) -> [Range<Int>] {
        let utf16 = Array(text.utf16)
        return utf16.withUnsafeBufferPointer { buffer in
            let cuts = ShapingPieces.cuts(in: buffer, from: 0, to: buffer.count)
            return zip([0] + cuts, cuts + [buffer.count]).map { $0..<$1 }
        }
    }

    /// Latin acute, Thai mai ek, Arabic fathah, and a supplementary mark (musical stem, 2 units).
    static let bases: [(base: String, mark: String)] = [
        ("a", "\u{301}"), ("\u{E01}", "\u{E48}"), ("\u{628}", "\u{64E}"), ("a", "\u{1D165}"),
    ]

    @Test(arguments: bases.indices)
    func longMarkRunIsHandedOverInBoundedPieces(index: Int) {
        let (base, mark) = Self.bases[index]
        let text = base + String(repeating: mark, count: 100_000)
        let pieces = pieces(text)
        let count = text.utf16.count
        // Every unit handed over once, in order, and no piece longer than the base and the limit.
        #expect(pieces.first?.lowerBound == 0 && pieces.last?.upperBound == count)
        #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(pieces.map(\.count).max()! <= Self.limit + base.utf16.count)
        #expect(pieces.count >= (count - 1) / Self.limit)
        // Cuts fall between code points, never inside a surrogate pair.
        let utf16 = Array(text.utf16)
        #expect(pieces.dropFirst().allSatisfy { utf16[$0.lowerBound] & 0xFC00 != 0xDC00 })
    }

    /// Ordinary text is never cut: long paragraphs, stacked Vietnamese and Tibetan
    /// marks, and "Zalgo" text with 100 marks on a letter.
    @Test func ordinaryTextIsOneRun() {
        #expect(pieces(String(repeating: "In my younger and more vulnerable years ", count: 500)).count == 1)
        #expect(pieces(String(repeating: "Tiếng Việt có dấu ", count: 500)).count == 1)
        #expect(pieces(String(repeating: "བསྒྲུབས་", count: 500)).count == 1)
        #expect(pieces(String(repeating: "Z" + String(repeating: "\u{36B}\u{300}", count: 50), count: 40)).count == 1)
        #expect(pieces("e" + String(repeating: "\u{301}", count: Self.limit)).count == 1)
        #expect(pieces("e" + String(repeating: "\u{301}", count: Self.limit + 1)).count == 2)
    }

    /// Preparation shapes in those pieces: the HarfBuzz calls it makes grow with the marks.
    @Test func preparingShapesLongMarkRunsInPieces() throws {
        let text = "a" + String(repeating: "\u{301}", count: 100_000)
        let before = MeasuringProbe.callsOnThisThread
        _ = try PreparedText(text, cache: nil)
        #expect(MeasuringProbe.callsOnThisThread - before >= UInt64(100_000 / Self.limit))
    }

    /// Shaping in pieces measures what shaping whole does: marks a font draws take no
    /// advance, marks it lacks are a .notdef box each, and no dotted circle is added
    /// for a piece that starts with marks. The cluster stays one grapheme, kept whole
    /// on a line however narrow.
    @Test(arguments: bases.indices)
    func piecesMeasureAsTheWholeCluster(index: Int) throws {
        let (base, mark) = Self.bases[index]
        let font = try #require(FontSet.default.fonts.first { $0.covers(base.unicodeScalars.first!) })
        let style = TextStyle(fontSize: 10)
        for count in [Self.limit + 1, 1_000] {
            let text = base + String(repeating: mark, count: count)
            let prepared = try PreparedText(text, fonts: FontSet([font]), style: style, cache: nil)
            #expect(pieces(text).count > 1)
            let whole = HarfBuzzReference.shapedAdvance(text, font: font.hbFont) * style.fontSize / Double(font.metrics.unitsPerEm)
            #expect(abs(prepared.unwrappedWidth - whole) <= 2.0 / 65536, "\(count) marks")
            #expect(try prepared.layout(width: 1).lines.count == 1, "\(count) marks")
        }
    }

    /// Drawing gets one glyph per mark from the pieces, each in the base's cluster.
    @Test func drawnGlyphsOfAPiecedClusterBelongToItsBase() throws {
        let text = "xa" + String(repeating: "\u{301}", count: 1_000) + "y"
        let prepared = try PreparedText(text, cache: nil)
        let glyphs = prepared.glyphs(in: try prepared.layout(width: 10_000)).flatMap { $0 }
        #expect(glyphs.count >= 1_002)
        #expect(Set(glyphs.map(\.utf16Offset)) == [0, 1, 1_002])
    }
}
