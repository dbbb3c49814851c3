import Testing
import TextMeasure

/// Styled text drawn as it was measured (issue 12): each run's glyphs in its own
/// fonts and size, on the styled cluster boxes placement gives, and placeholders as
/// boxes of their own.
@Suite struct StyledGlyphsTests {
    static let boxVariable = packageRoot + "/Tests/Fixtures/fonts/BoxVariable.ttf"

    /// "ana" bold (BoxVariable, whose letters are boxes, at wght 900, before the default fonts), "code()" at
    /// 12 px, "🎉" at 30 px, letter spacing on the code, and a timestamp placeholder.
    static func chatBubble() throws -> AttributedText {
        var text = AttributedText("hey @ana see code() now 🎉 \u{FFFC}", style: TextStyle(fontSize: 15))
        let bold = try FontSet([Font(contentsOfFile: boxVariable, variations: ["wght": 900])] + FontSet.default.fonts)
        try text.setAttributes(TextAttributes(fonts: bold), utf16Range: 5..<8)
        try text.setAttributes(TextAttributes(fontSize: 12, letterSpacing: 2), utf16Range: 13..<19)
        try text.setAttributes(TextAttributes(fontSize: 30), utf16Range: 24..<26)
        try text.setAttributes(TextAttributes(placeholder: InlinePlaceholder(width: 36, height: 11, baseline: 9)),
                               utf16Range: 27..<28)
        return text
    }

    /// Each cluster's glyphs, by the cluster's start.
    static func glyphsByCluster(_ lines: [[PlacedGlyph]]) -> [Int: [PlacedGlyph]] {
        Dictionary(grouping: lines.joined(), by: \.utf16Offset)
    }

    @Test func eachRunIsDrawnInItsFontsAndSize() throws {
        let attributed = try Self.chatBubble()
        let prepared = try PreparedText(attributed)
        let placement = prepared.placement(of: try prepared.layout(width: 1000))
        let glyphs = Self.glyphsByCluster(prepared.glyphs(in: placement))
        let fonts = prepared.drawingFonts
        let bold = try #require(attributed.runs[0].attributes.fonts?.fonts.first)
        for offset in 5..<8 {
            let glyph = try #require(glyphs[offset]?.first)
            #expect(fonts[glyph.fontIndex] === bold && glyph.size == 15)
        }
        for offset in 13..<19 { #expect(glyphs[offset]?.first?.size == 12) }
        #expect(glyphs[24]?.first?.size == 30)
        // Outside the runs: the base fonts at the base size, none of them the bold one.
        for offset in [0, 1, 2, 4, 9, 20] {
            let glyph = try #require(glyphs[offset]?.first)
            #expect(glyph.size == 15 && fonts[glyph.fontIndex] !== bold)
            #expect(FontSet.default.fonts.contains { $0 === fonts[glyph.fontIndex] })
        }
        // The placeholder draws no glyph: its box is drawn instead.
        #expect(glyphs[27] == nil)
    }

    /// Measure equals render: every cluster's glyphs start at its box's leading edge
    /// and advance by what measuring gave it, letter spacing being the rest of the box.
    @Test(arguments: [
        ("hey @ana see code() now 🎉 \u{FFFC}", WritingDirection.natural),
        ("שלום @ana ראה את code() עכשיו 🎉", .natural),
        ("hey @ana see code() now 🎉", .rightToLeft),
    ])
    func glyphsFillTheirStyledClusterBoxes(text: String, direction: WritingDirection) throws {
        var attributed = AttributedText(text, style: TextStyle(fontSize: 15, baseWritingDirection: direction))
        let utf16 = Array(text.utf16)
        func range(_ part: String) -> Range<Int> {
            let start = text.utf16.distance(from: text.utf16.startIndex, to: text.range(of: part)!.lowerBound)
            return start..<start + part.utf16.count
        }
        try attributed.setAttributes(TextAttributes(fontSize: 22), utf16Range: range("@ana"))
        try attributed.setAttributes(TextAttributes(fontSize: 12, letterSpacing: 2), utf16Range: range("code()"))
        try attributed.setAttributes(TextAttributes(fontSize: 30), utf16Range: range("🎉"))
        let prepared = try PreparedText(attributed)
        for alignment in TextAlignment.allCases {
            let placement = prepared.placement(of: try prepared.layout(width: 170), alignment: alignment)
            let glyphs = Self.glyphsByCluster(prepared.glyphs(in: placement))
            var checked = 0
            for cluster in placement.clusters where !cluster.isEllipsis && utf16[cluster.utf16Range.lowerBound] != 0x20 {
                guard let drawn = glyphs[cluster.utf16Range.lowerBound] else { continue }
                let spacing = range("code()").contains(cluster.utf16Range.lowerBound) ? 2.0 : 0
                let advance = drawn.reduce(0) { $0 + $1.advance }
                let left = drawn.map(\.x).min()!, right = drawn.map { $0.x + $0.advance }.max()!
                // Glyphs at the leading edge (give or take a kerning offset: `x` includes
                // HarfBuzz's), the spacing after them in reading order.
                if cluster.isRightToLeft {
                    #expect(abs(right - cluster.right) < 0.5, "\(cluster)")
                } else {
                    #expect(abs(left - cluster.left) < 0.5, "\(cluster)")
                }
                #expect(abs(advance + spacing - (cluster.right - cluster.left)) < 1.0 / 64, "\(cluster): \(advance)")
                checked += 1
            }
            #expect(checked >= 15)
        }
    }

    /// An edit moves the runs: the edited text is drawn in its own runs (as a fresh
    /// preparation of it is), not in those of the text it was edited from, drawn before.
    @Test func anEditedTextIsDrawnInItsOwnRuns() throws {
        let prepared = try PreparedText(try Self.chatBubble())
        _ = prepared.glyphs(in: [0..<prepared.utf16Count])
        // "hey" becomes "hello there": every run moves 8 code units on.
        let edited = try prepared.replacingCharacters(inUTF16: 0..<3, with: "hello there")
        let placement = edited.placement(of: try edited.layout(width: 1000))
        let glyphs = Self.glyphsByCluster(edited.glyphs(in: placement))
        #expect(glyphs[21]?.first?.size == 12 && glyphs[13]?.first?.size == 15)
        #expect(glyphs[32]?.first?.size == 30 && glyphs[29]?.first?.size == 15)
        #expect(glyphs[35] == nil && edited.placeholders(in: placement).map(\.utf16Offset) == [35])
        let fresh = try PreparedText(try #require(edited.attributed))
        #expect(edited.glyphs(in: placement) == fresh.glyphs(in: fresh.placement(of: try fresh.layout(width: 1000))))
    }

    @Test func aPlaceholderIsABoxOnItsLine() throws {
        let prepared = try PreparedText(try Self.chatBubble())
        for width in [1000.0, 150] {
            let placement = prepared.placement(of: try prepared.layout(width: width))
            let boxes = prepared.placeholders(in: placement)
            let box = try #require(boxes.first)
            #expect(boxes.count == 1 && box.utf16Offset == 27 && box.width == 36 && box.height == 11 && box.ascent == 9)
            let cluster = try #require(placement.clusters.first { $0.utf16Range == 27..<28 })
            #expect(box.line == cluster.line && box.x == cluster.left && abs(cluster.right - cluster.left - 36) < 1e-6)
            #expect(box.line == placement.lines.count - 1)
        }
        // Plain text has none.
        let plain = try PreparedText("no boxes \u{FFFC}")
        #expect(plain.placeholders(in: plain.placement(of: try plain.layout(width: 300))).isEmpty)
    }
}
