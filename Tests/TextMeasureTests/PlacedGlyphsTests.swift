import Testing
import TextMeasure

/// `PreparedText.glyphs(in:)` against HarfBuzz's own command-line shaper and
/// against the widths measuring gave the lines.
@Suite struct PlacedGlyphsTests {
    static let fonts = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/Fonts/"

    struct Reference {
        var glyph: UInt32
        var cluster: Int
        var dx: Int, dy: Int, advance: Int
    }

    /// `hb-shape` (libharfbuzz-bin, installed by scripts/setup) on `text`: glyph ids,
    /// clusters (code point indices) and positions in font units.
    static func hbShape(_ font: String, _ text: String) -> [Reference]? {
        guard let output = shellOutput("hb-shape --no-glyph-names '\(fonts + font)' '\(text)'") else { return nil }
        // [91=0+529|2997=0@-268,0+0|...]
        let body = output.trimming("[]\n")
        return body.split(separator: "|").compactMap { item -> Reference? in
            let glyphAndRest = item.split(separator: "=", maxSplits: 1)
            let clusterAndRest = glyphAndRest[1].split(separator: "+")
            let clusterAndOffset = clusterAndRest[0].split(separator: "@")
            let offset = clusterAndOffset.count > 1 ? clusterAndOffset[1].split(separator: ",").compactMap { Int($0) } : [0, 0]
            guard let glyph = UInt32(glyphAndRest[0]), let cluster = Int(clusterAndOffset[0]),
                  let advance = Int(clusterAndRest[1]), offset.count == 2 else { return nil }
            return Reference(glyph: glyph, cluster: cluster, dx: offset[0], dy: offset[1], advance: advance)
        }
    }

    /// BMP texts, so hb-shape's code point clusters are UTF-16 offsets. The first
    /// fits the primary font (Noto Sans: stacked marks, the ffi ligature, kerning);
    /// the Arabic one falls back to Noto Sans Arabic and comes out right to left.
    @Test(arguments: [("x\u{302}\u{301} q\u{303} office AVATAR", "NotoSans-Regular.ttf", 0),
                      ("مرحبا بالعالم", "NotoSansArabic-Regular.ttf", 1)])
    func glyphIDsAndPositionsAreHarfBuzzs(text: String, font: String, fontIndex: Int) throws {
        let size = 17.0
        let prepared = try PreparedText(text, style: TextStyle(fontSize: size))
        let placed = try #require(prepared.glyphs(in: [0..<prepared.utf16Count]).first)
        let reference = try #require(Self.hbShape(font, text))
        let scale = size / Double(FontSet.default.fonts[fontIndex].metrics.unitsPerEm)

        #expect(placed.map(\.glyphID) == reference.map(\.glyph))
        #expect(placed.map(\.utf16Offset) == reference.map(\.cluster))
        // Spaces take the first font that covers them, the primary, as in browsers.
        let utf16 = Array(text.utf16)
        #expect(placed.allSatisfy { $0.fontIndex == (utf16[$0.utf16Offset] == 0x20 ? 0 : fontIndex) })
        var pen = 0
        // Clusters are placed at their measured widths, each rounded to 1/65536 px.
        let rounding = Double(placed.count) / Double(Units.widthPerPixel)
        for (glyph, expected) in zip(placed, reference) {
            #expect(abs(glyph.x - Double(pen + expected.dx) * scale) < rounding)
            #expect(abs(glyph.y - Double(expected.dy) * scale) < 1e-9)
            #expect(abs(glyph.advance - Double(expected.advance) * scale) < 1e-9)
            pen += expected.advance
        }
        #expect(placed.contains { $0.y != 0 } == reference.contains { $0.dy != 0 })
    }

    /// Runs are reordered by direction, as the bidi algorithm would on these: an
    /// Arabic phrase in English text reads right to left with its words in order, and
    /// the spaces around it stay between the words they separate.
    @Test func mixedDirectionLinesAreInVisualOrder() throws {
        // H e l l o ␣ | م ر ح ب ا (6–10) ␣ (11) ب ا ل ع ا ل م (12–18) | ␣ w o r l d (19–24)
        let text = "Hello مرحبا بالعالم world"
        let placed = try #require(PreparedText(text).glyphs(in: [0..<25]).first)
        let arabicWord = { (range: ClosedRange<Int>) in
            placed.map(\.utf16Offset).filter { range.contains($0) }
        }
        let order = placed.map(\.utf16Offset)
        // Logical order left of and right of the phrase; inside it, the second word first.
        #expect(Array(order.prefix(6)) == [0, 1, 2, 3, 4, 5])
        #expect(Array(order.suffix(6)) == [19, 20, 21, 22, 23, 24])
        let phrase = Array(order.dropFirst(6).dropLast(6))
        #expect(phrase == arabicWord(12...18) + [11] + arabicWord(6...10))
        #expect(arabicWord(6...10) == arabicWord(6...10).sorted(by: >), "a right-to-left word's glyphs run right to left")
        // Pens advance left to right without overlaps or gaps.
        for (a, b) in zip(placed, placed.dropFirst()) where b.y == 0 && a.y == 0 {
            #expect(b.x >= a.x)
        }
    }

    /// Each glyph goes to the line holding its cluster, and each line's glyphs end
    /// where measuring said the line ends (to the 1/64 px each cluster was rounded to).
    @Test(arguments: [120.0, 200, 333])
    func linesEndWhereMeasuringEndedThem(width: Double) throws {
        let text = "Emoji 🎉 and a\ttab, in a paragraph that wraps over several lines; 世界 too.\nNext one."
        let prepared = try PreparedText(text, style: TextStyle(fontSize: 15))
        let layout = try prepared.layout(width: width)
        let glyphs = prepared.glyphs(in: layout.lines.map(\.utf16Range))
        #expect(glyphs.count == layout.lines.count)
        let utf16 = Array(text.utf16)
        for (line, placed) in zip(layout.lines, glyphs) {
            #expect(placed.allSatisfy { line.utf16Range.contains($0.utf16Offset) })
            let content = placed.filter { utf16[$0.utf16Offset] != 0x20 }
            let end = content.map { $0.x + $0.advance }.max() ?? 0
            #expect(abs(end - line.width) <= Double(content.count) / 64, "line \(line.utf16Range): \(end) vs \(line.width)")
        }
        // Every cluster that draws something has a glyph, and only those: no tab, no newline.
        let drawn = Set(glyphs.joined().map(\.utf16Offset))
        #expect(!drawn.contains(utf16.firstIndex(of: 0x09)!))
        #expect(!drawn.contains(utf16.firstIndex(of: 0x0A)!))
        #expect(drawn.contains(utf16.firstIndex(of: 0x3B)!))   // ';'
    }

    /// A tab draws nothing and moves the pen to the next tab stop, as CSS sets them:
    /// every eight of the primary font's spaces (hb-shape's advance of " ") from the
    /// line's start, and a stop further when the next is less than half a space away.
    @Test func tabAdvancesToTheNextStopOfEightSpaces() throws {
        let space = try #require(Self.hbShape("NotoSans-Regular.ttf", " ")?.first?.advance)
        let stop = Double(8 * space) * 20 / 1000
        let prepared = try PreparedText("a\tb", style: TextStyle(fontSize: 20))
        let placed = try #require(prepared.glyphs(in: [0..<3]).first)
        #expect(placed.map(\.utf16Offset) == [0, 2])
        #expect(abs(placed[1].x - stop) <= 1.0 / 64)
        // Seven spaces leave a tab one space to go: it still ends at the first stop.
        let padded = try PreparedText("       \tb", style: TextStyle(fontSize: 20))
        let b = try #require(padded.glyphs(in: [0..<9]).first?.last)
        #expect(abs(b.x - stop) <= 1.0 / 64)
    }

    /// Colour emoji come from the emoji font and advance by their scaled strike
    /// advance: the width measuring gave the cluster.
    @Test func emojiAdvanceByTheirMeasuredWidth() throws {
        let prepared = try PreparedText("a😀b", style: TextStyle(fontSize: 30))
        let placed = try #require(prepared.glyphs(in: [0..<prepared.utf16Count]).first)
        let emoji = FontSet.embeddedFontNames.firstIndex(of: "NotoColorEmoji.ttf")
        #expect(placed.map(\.fontIndex) == [0, emoji, 0])
        #expect(abs(placed[1].advance * Double(Units.widthPerPixel) - Double(prepared.graphemeWidths[1])) <= 1)
        #expect(abs(placed[2].x - (placed[1].x + placed[1].advance)) < 1.0 / Double(Units.widthPerPixel))
    }

    /// A truncated line draws "…" (hb-shape's glyph for it, at the elided range's
    /// start) instead of the text it elides, and ends where measuring ended it.
    @Test(arguments: [LineBreakMode.byTruncatingTail, .byTruncatingMiddle, .byTruncatingHead])
    func truncatedLinesDrawTheEllipsisInsteadOfTheElidedText(mode: LineBreakMode) throws {
        let text = "Meet me at the café on the corner of Fifth and Main at eight, and bring the tickets."
        let prepared = try PreparedText(text, style: TextStyle(fontSize: 15))
        let layout = try prepared.layout(width: 150, lineBreakMode: mode)
        let line = try #require(layout.lines.first)
        let elided = try #require(line.elidedUTF16Range)
        let placed = try #require(prepared.glyphs(in: layout).first)
        let ellipsis = try #require(Self.hbShape("NotoSans-Regular.ttf", "…")?.first)

        #expect(placed.allSatisfy { !elided.contains($0.utf16Offset) || $0.glyphID == ellipsis.glyph })
        let marks = placed.filter { $0.glyphID == ellipsis.glyph }
        #expect(marks.map(\.utf16Offset) == [elided.lowerBound])
        #expect(abs(marks[0].advance - Double(ellipsis.advance) * 15 / 1000) < 1e-9)
        // Left to right in text order around it, for this left-to-right text.
        #expect(placed.map(\.utf16Offset) == placed.map(\.utf16Offset).sorted())
        let end = placed.filter { text.utf16[text.utf16.index(text.utf16.startIndex, offsetBy: $0.utf16Offset)] != 0x20 }
            .map { $0.x + $0.advance }.max() ?? 0
        #expect(abs(end - line.width) <= Double(placed.count) / 64, "\(end) vs \(line.width)")
        #expect(line.width <= 150)
    }

    @Test func noLinesOrNoTextGiveNoGlyphs() throws {
        #expect(try PreparedText("abc").glyphs(in: []).isEmpty)
        #expect(try PreparedText("").glyphs(in: [0..<0]) == [[]])
        // A range past the text, as an empty last line after a newline has, holds nothing.
        #expect(try PreparedText("a\n").glyphs(in: [0..<2, 2..<2]).map(\.count) == [1, 0])
    }
}

private extension String {
    func trimming(_ set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
