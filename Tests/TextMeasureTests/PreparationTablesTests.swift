import CHarfBuzz
import Testing
import TextMeasure
@testable import TextMeasurePreparation

/// The tables and shortcuts preparation takes instead of asking a library per code
/// point give the libraries' own answers.
@Suite struct PreparationTablesTests {
    @Test func theFontTableNamesTheFirstFontDrawingEachBMPCodePoint() {
        let fonts = FontSet.default
        var mismatches: [UInt32] = []
        for scalar in UInt32(0)..<0x10000 {
            let first = fonts.fonts.firstIndex { $0.drawsWithoutNotdef(scalar) } ?? 0
            if Int(fonts.bmpFonts[Int(scalar)]) != first { mismatches.append(scalar) }
        }
        #expect(mismatches.isEmpty)
        #expect(fonts.bmpFonts[0x4E2D] == 5 && fonts.bmpFonts[0x41] == 0)   // 中: Droid Sans Fallback; A: Noto Sans
        #expect(fonts.bmpFonts[0xAC19] == 5 && fonts.bmpFonts[0xD55C] == 6)  // 같 from Droid's jamo; 한: NanumSquare
    }

    @Test func theScriptTableIsHarfBuzzs() {
        let unicode = hb_unicode_funcs_get_default()
        for scalar in Array(UInt32(0)..<0x10000) + [0x1F600, 0x20000, 0x10FFFF] {
            #expect(ScriptTable.bmp.script(of: scalar) == hb_unicode_script(unicode, scalar))
        }
    }

    @Test func utf8IsDecodedAsTheStandardLibraryDoes() {
        var random = LineBreakModeFuzzTests.Generator(state: 3)
        // Scalars of every UTF-8 length: 1, 2, 3 and 4 bytes.
        let limits: [UInt32] = [0x7F, 0x7FF, 0xFFFF, 0x10FFFF]
        var samples = ["", "ascii", "é", "中文", "😀", "a😀b", "\u{10FFFF}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}"]
        for _ in 0..<500 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...20, using: &random) {
                let limit = limits[Int.random(in: 0..<limits.count, using: &random)]
                if let scalar = Unicode.Scalar(UInt32.random(in: 0...limit, using: &random)) { scalars.append(scalar) }
            }
            samples.append(String(scalars))
        }
        for text in samples {
            let copied = [UInt16](unsafeUninitializedCapacity: text.utf16.count) { buffer, count in
                UTF16Transcoding.copy(text[...], into: buffer)
                count = buffer.count
            }
            #expect(copied == Array(text.utf16))
        }
    }

    @Test func roundingIsToNearestWithTiesAwayFromZero() {
        let values: [Double] = [0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999999999999994, -0.49999999999999994,
                                0.5000000000000001, 1e15 + 0.5, -(1e15 + 0.5), 123.456, -123.456, 4503599627370495.5]
        for value in values { #expect(roundedToInt(value) == Int(value.rounded()), "\(value)") }
        var random = LineBreakModeFuzzTests.Generator(state: 11)
        for _ in 0..<100_000 {
            let value = Double.random(in: -1e9...1e9, using: &random)
            #expect(roundedToInt(value) == Int(value.rounded()))
        }
    }
}
