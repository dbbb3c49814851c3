import CHarfBuzz
import Testing
import TextMeasure
@testable import TextMeasureShaping
@testable import TextMeasurePreparation

/// Clusters with a nominal glyph (`FontSet.nominalGlyphs`) are written without
/// HarfBuzz; what preparation gets must be what HarfBuzz gives.
@Suite struct NominalGlyphTests {
    typealias Generator = LineBreakModeFuzzTests.Generator

    /// The BMP code points `fonts` has a nominal glyph for, by the font drawing them.
    static func nominalScalars(_ fonts: FontSet) -> [Int: [UInt32]] {
        var byFont: [Int: [UInt32]] = [:]
        for (scalar, entry) in fonts.nominalGlyphs.enumerated() where entry != 0 {
            byFont[Int(fonts.bmpFonts[scalar]), default: []].append(UInt32(scalar))
        }
        return byFont
    }

    /// Every nominal glyph of the embedded set against HarfBuzz alone (the font files,
    /// `HarfBuzzReference`): each code point shaped inside text of its font, between
    /// other nominal code points and ones the font's lookups and kerning pairs do
    /// reach, gets that glyph and advance, no offset, and is safe to break at.
    @Test func everyNominalGlyphIsWhatHarfBuzzGivesInContext() throws {
        let fonts = FontSet.default
        var random = Generator(state: 16)
        var checked = 0
        for (fontIndex, scalars) in Self.nominalScalars(fonts).sorted(by: { $0.key < $1.key }) {
            guard fonts.fonts[fontIndex].bitmapAdvances == nil else { continue }   // drawn by strike, not hmtx
            let font = HarfBuzzReference.faces[fontIndex].font
            // The font's other code points that start a cluster: punctuation in its
            // vertical forms, kerned letters, Latin, jamo that join the next letter.
            let others = (UInt32(0x21)..<0x10000).filter { (scalar: UInt32) -> Bool in
                guard let character = Unicode.Scalar(scalar), fonts.nominalGlyphs[Int(scalar)] == 0,
                      Int(fonts.bmpFonts[Int(scalar)]) == fontIndex else { return false }
                let joins = fonts.clusterContexts[Int(scalar)] & ClusterContext.joinsPrevious != 0
                return !joins && fonts.fonts[fontIndex].covers(character)
            }
            for chunk in stride(from: 0, to: scalars.count, by: 48) {
                var text: [UInt32] = []
                for scalar in scalars[chunk..<min(chunk + 48, scalars.count)] {
                    text.append(scalar)
                    if !others.isEmpty, Bool.random(using: &random) { text.append(others.randomElement(using: &random)!) }
                }
                let (infos, positions) = Self.shape(text, font: font)
                for (info, position) in zip(infos, positions) {
                    let index = Int(info.cluster), entry = fonts.nominalGlyphs[Int(text[index])]
                    // A cluster holding a nominal code point and a jamo before it is not nominal.
                    guard entry != 0, index == 0 || fonts.clusterContexts[Int(text[index - 1])] & ClusterContext.joinsNext == 0
                    else { continue }
                    #expect(info.codepoint == NominalGlyph.glyph(entry), "U+\(String(text[index], radix: 16))")
                    #expect(position.x_advance == NominalGlyph.advance(entry), "U+\(String(text[index], radix: 16))")
                    #expect(position.x_offset == 0 && position.y_offset == 0 && position.y_advance == 0)
                    #expect(info.mask & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue == 0)
                    checked += 1
                }
            }
        }
        // Droid Sans Fallback's ideographs and kana, NanumSquare's syllables, and more.
        #expect(checked > 30_000)
        #expect(fonts.nominalGlyphs[Int(("中" as Unicode.Scalar).value)] != 0)
        #expect(fonts.nominalGlyphs[Int(("か" as Unicode.Scalar).value)] != 0)
        #expect(fonts.nominalGlyphs[Int(("한" as Unicode.Scalar).value)] != 0)
        // Kerned, mirrored, joined: shaped by HarfBuzz.
        for other in ["A", "ก", "(", "\u{1100}", "\u{301}", "\u{200B}"] {
            #expect(fonts.nominalGlyphs[Int(other.utf16.first!)] == 0, "\(other)")
        }
    }

    /// `text` (code points, as UTF-32) shaped in one `hb_shape` with `font`, script and direction guessed.
    static func shape(_ text: [UInt32], font: OpaquePointer) -> ([hb_glyph_info_t], [hb_glyph_position_t]) {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf32(buffer, text, Int32(text.count), 0, Int32(text.count))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!, positions = hb_buffer_get_glyph_positions(buffer, &count)!
        return (Array(UnsafeBufferPointer(start: infos, count: Int(count))),
                Array(UnsafeBufferPointer(start: positions, count: Int(count))))
    }

    /// What shaping `text` writes, run by run through HarfBuzz or with nominal glyphs.
    struct Shaped: Equatable {
        var advances: [Int32], edges: [UInt8], glyphs: [UInt32]
        /// HarfBuzz calls made (debug builds count them).
        var calls: UInt64 = 0

        static func == (a: Shaped, b: Shaped) -> Bool {
            a.advances == b.advances && a.edges == b.edges && a.glyphs == b.glyphs
        }
    }

    /// `text` itemized as preparation itemizes it (one stretch, bidi runs), then shaped
    /// both ways: each run by HarfBuzz, and the runs with their nominal glyphs written.
    static func shapeBothWays(_ text: String, fonts: FontSet, style: TextStyle) throws -> (runs: Int, harfBuzz: Shaped, nominal: Shaped) {
        let utf16 = Array(text.utf16)
        return try utf16.withUnsafeBufferPointer { buffer in
            let graphemes = try Boundaries.graphemes(in: buffer)
            let breaks = try Boundaries.lineBreaks(in: buffer, rules: style.lineBreakRules, options: style.lineBreakOptions)
            var perCluster: [UInt8] = []
            var runs = FontItemizer(fontSet: fonts).runs(in: buffer, graphemes: graphemes, breaks: breaks,
                                                         fontForGrapheme: &perCluster)
            let bidi = try BidiLevels.resolve(buffer, direction: style.baseWritingDirection)
            graphemes.withUnsafeBufferPointer { ends in
                bidi.levels.withUnsafeBufferPointer { levels in
                    if !bidi.isLeftToRight, let base = levels.baseAddress {
                        BidiRuns.split(&runs, from: 0, clusterEnds: ends, start: 0, levels: base)
                    }
                }
            }
            let shaper = Shaper(features: style.fontFeatures)
            func shaped(_ body: (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt32>) -> Void) -> Shaped {
                var result = Shaped(advances: .init(repeating: 0, count: utf16.count),
                                    edges: .init(repeating: 0, count: utf16.count + 1),
                                    glyphs: .init(repeating: 0, count: utf16.count))
                let before = MeasuringProbe.callsOnThisThread
                result.advances.withUnsafeMutableBufferPointer { advances in
                    result.edges.withUnsafeMutableBufferPointer { edges in
                        result.glyphs.withUnsafeMutableBufferPointer { glyphs in
                            body(advances.baseAddress!, edges.baseAddress!, glyphs.baseAddress!)
                        }
                    }
                }
                result.calls = MeasuringProbe.callsOnThisThread - before
                return result
            }
            let harfBuzz = shaped { advances, edges, glyphs in
                for run in runs {
                    shaper.shape(run, of: buffer, with: fonts.fonts[run.fontIndex], advances: advances, edges: edges,
                                 firstGlyphs: glyphs)
                }
            }
            let nominal = graphemes.withUnsafeBufferPointer { ends in
                shaped { advances, edges, glyphs in
                    shaper.shape(runs, of: buffer, clusterEnds: ends, fonts: fonts, fontList: fonts.fonts,
                                 advances: advances, edges: edges, firstGlyphs: glyphs)
                }
            }
            return (runs.count, harfBuzz, nominal)
        }
    }

    /// Chinese, Japanese and Korean with what sits beside their letters: punctuation
    /// (with vertical forms), Latin and digits, spaces, marks, variation selectors,
    /// jamo, Prepend, emoji, right-to-left text and overrides.
    static let pieces = ["我记得小时候", "漢字", "東京は日本語の文章も", "カタカナ", "ひらがな", "「引用」", "、", "。", "，", "ー", "っ",
                         "소나기", "소년은", "한국어", "같한", "\u{1100}\u{1161}\u{11A8}", "한\u{11A8}", "漢\u{301}", "漢\u{FE00}",
                         "\u{3099}", "\u{600}漢", "A", "AV", "12", " ", "  ", "\n", "\t", "(", ")", "!", "😀", "🇯🇵",
                         "مرحبا", "שלום", "\u{202E}漢字한글\u{202C}", "\u{3000}", "ｱｲｳ", "ㄅㄆ", "\u{200B}", "\u{00AD}"]

    static func randomText(_ random: inout Generator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...40, using: &random) {
            let piece = pieces.randomElement(using: &random)!
            text += Bool.random(using: &random) ? piece : String(repeating: piece, count: Int.random(in: 2...12, using: &random))
        }
        return text
    }

    static let styles = [TextStyle(fontSize: 17), TextStyle(fontSize: 17, fontFeatures: ["-kern", "+smcp"]),
                         TextStyle(fontSize: 17, fontFeatures: ["+vert"]),
                         TextStyle(fontSize: 17, baseWritingDirection: .rightToLeft)]

    @Test func runsShapedWithNominalGlyphsGiveWhatHarfBuzzGives() throws {
        var random = Generator(state: 11)
        var saved: UInt64 = 0
        for round in 0..<400 {
            let text = Self.randomText(&random)
            let style = Self.styles[round % Self.styles.count]
            let (_, harfBuzz, nominal) = try Self.shapeBothWays(text, fonts: .default, style: style)
            #expect(nominal == harfBuzz, "\(style.fontFeatures) \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            if style.fontFeatures.contains("+vert") {
                #expect(nominal.calls == harfBuzz.calls)   // vertical forms on: every run to HarfBuzz
            } else {
                #expect(nominal.calls <= harfBuzz.calls)
                saved += harfBuzz.calls - nominal.calls
            }
        }
        #if DEBUG
        #expect(saved > 100)   // runs of nominal glyphs were not handed to HarfBuzz
        #endif
    }

    /// With vertical forms on, Droid Sans Fallback's lookup gives "、" another glyph:
    /// the nominal one would be wrong there, which is why such a style shapes it.
    @Test func verticalFormsAreLeftToHarfBuzz() throws {
        let text = "中、"
        let entry = FontSet.default.nominalGlyphs[Int(text.utf16.last!)]
        #expect(entry != 0)
        let (_, vertical, _) = try Self.shapeBothWays(text, fonts: .default, style: TextStyle(fontSize: 17, fontFeatures: ["+vert"]))
        #expect(vertical.glyphs[1] != NominalGlyph.glyph(entry))
        let (_, plain, _) = try Self.shapeBothWays(text, fonts: .default, style: TextStyle(fontSize: 17))
        #expect(plain.glyphs[1] == NominalGlyph.glyph(entry))
    }

    /// A variable font's nominal advances are its instance's (wght 900: the box is
    /// 1000 units wide, 500 at the default), and fonts of other sets keep theirs.
    @Test func variableFontsAndOtherSetsAreExact() throws {
        let path = packageRoot + "/Tests/Fixtures/fonts/BoxVariable.ttf"
        var random = Generator(state: 7)
        for weight in [100.0, 900] {
            let fonts = try FontSet([try Font(contentsOfFile: path, variations: ["wght": weight])] + FontSet.default.fonts.suffix(3))
            for _ in 0..<100 {
                let text = Self.randomText(&random) + "世界 1.5 世界"
                let (_, harfBuzz, nominal) = try Self.shapeBothWays(text, fonts: fonts, style: TextStyle(fontSize: 17))
                #expect(nominal == harfBuzz, "\(weight) \(text)")
            }
        }
    }

    /// Preparing gives what HarfBuzz alone gives for these texts, cached or not.
    @Test(arguments: ["我记得小时候，故乡的天气又阴晦了。", "或日の暮方の事である。 一人の下人が、羅生門の下で雨やみを待つてゐた。",
                      "소나기 소년은 개울가에서 소녀를 보자 곧 윤 초시네 증손녀딸이라는 걸 알 수 있었다."])
    func preparedWidthsAreHarfBuzzs(text: String) throws {
        let cache = ShapeCache(capacity: 1_000)
        for _ in 1...3 {
            #expect(abs(try PreparedText(text, cache: cache).unwrappedWidth - HarfBuzzReference.width(text)) <= 1.0 / 64)
        }
    }
}
