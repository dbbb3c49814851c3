import Testing
import TextMeasure

/// Widths checked against an outside reference: HarfBuzz's own `hb-shape` tool
/// (Debian's libharfbuzz-bin) shaping the same text with the same font file.
@Suite struct ShapingReferenceTests {
    /// The shaped advance of `text` in font units, as `hb-shape` reports it at size = upem.
    static func hbShapeAdvance(_ text: String, font: String, upem: Int) throws -> Int {
        let output = try #require(shellOutput(
            "hb-shape --font-size=\(upem) --no-glyph-names --no-clusters --output-format=text '\(font)' '\(text)'"),
            "hb-shape missing: run scripts/setup")
        // Glyphs look like `[12=0+600|...]`: the advance follows `+`.
        var total = 0
        for glyph in output.split(separator: "|") {
            guard let plus = glyph.firstIndex(of: "+") else { continue }
            let digits = glyph[glyph.index(after: plus)...].prefix { $0.isNumber || $0 == "-" }
            total += Int(digits) ?? 0
        }
        return total
    }

    static func libraryWidth(_ text: String, fonts: FontSet, size: Double) throws -> Double {
        let prepared = try PreparedText(text, fonts: fonts, style: TextStyle(fontSize: size))
        return try #require(prepared.layout(width: 1_000_000).lines.first).width
    }

    @Test(arguments: ["AVATAR", "office", "Typography", "WAVE", "fi ffl", "Tokyo-Yokohama", "naïve café"])
    func latinWordsMatchHBShape(_ word: String) throws {
        let path = packageRoot + "/Fonts/NotoSans-Regular.ttf"
        let fonts = try FontSet([Font(contentsOfFile: path)])
        for size in [13.0, 17.0, 24.5] {
            let expected = Double(try Self.hbShapeAdvance(word, font: path, upem: 1000)) * size / 1000
            let measured = try Self.libraryWidth(word, fonts: fonts, size: size)
            // Each segment (word) is kept in 1/64 px: within half a unit per segment of the exact width.
            let segments = try LineBreakRules.uax14.breakOpportunities(in: word).count
            #expect(abs(measured - expected) <= Double(segments) * 0.5 / 64,
                    "\(word) at \(size): \(measured) vs hb-shape \(expected)")
        }
    }

    @Test func kerningIsApplied() throws {
        let fonts = try FontSet([Font(contentsOfFile: packageRoot + "/Fonts/NotoSans-Regular.ttf")])
        let kerned = try Self.libraryWidth("AV", fonts: fonts, size: 100)
        let separate = try Self.libraryWidth("A", fonts: fonts, size: 100) + Self.libraryWidth("V", fonts: fonts, size: 100)
        #expect(kerned < separate - 1)
    }

    @Test(arguments: [("NotoSansArabic-Regular.ttf", "مرحبا بالعالم"), ("NotoSansDevanagari-Regular.ttf", "क्षत्रिय नमस्ते"),
                      ("NotoSansThai-Regular.ttf", "สวัสดีครับ"), ("NotoSansHebrew-Regular.ttf", "שָׁלוֹם עולם")])
    func complexScriptsMatchHBShape(_ file: String, _ text: String) throws {
        let path = packageRoot + "/Fonts/" + file
        let font = try Font(contentsOfFile: path)
        let expected = Double(try Self.hbShapeAdvance(text, font: path, upem: font.metrics.unitsPerEm)) * 17
            / Double(font.metrics.unitsPerEm)
        // The text's spaces are drawn by the primary font in a real set; here the script font is alone.
        let measured = try Self.libraryWidth(text, fonts: FontSet([font]), size: 17)
        #expect(abs(measured - expected) <= 1.0 / 64, "\(file): \(measured) vs hb-shape \(expected)")
    }

    @Test func colourEmojiAdvanceIsTheBitmapStrikeScaled() throws {
        // Noto Color Emoji has one 109 ppem CBDT strike whose glyphs advance 136 px;
        // hmtx says 2550/2048 em (135.72 px at 109). Browsers draw the strike scaled.
        let fonts = FontSet.default
        #expect(try Self.libraryWidth("😀", fonts: fonts, size: 109) == 136)
        let at17 = try Self.libraryWidth("😀", fonts: fonts, size: 17)
        #expect(abs(at17 - 136.0 * 17 / 109) <= 0.5 / 64)
    }
}
