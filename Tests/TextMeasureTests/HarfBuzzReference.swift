import CHarfBuzz
import Testing
import TextMeasure

/// Widths from HarfBuzz alone, as an oracle apart from the library: the font files of
/// the embedded set (`Fonts/`, in `FontSet.embeddedFontNames` order), each `Character`
/// drawn with the first font whose character map has all its scalars (joiners and
/// variation selectors aside), each run of one font shaped with `hb_shape` on its own.
/// No segmentation, no line fitting, no cache. Colour emoji advance by `hmtx` here, by
/// their bitmap strike in the library (0.3% apart); tabs are not modelled.
enum HarfBuzzReference {
    /// A font file's face, HarfBuzz font at scale = units per em, and units per em.
    struct Face: @unchecked Sendable {   // immutable once made; HarfBuzz's objects are thread-safe to read
        let font: OpaquePointer
        let upem: Double

        init(path: String) {
            let blob = hb_blob_create_from_file(path)
            let face = hb_face_create(blob, 0)
            font = hb_font_create(face)
            upem = Double(hb_face_get_upem(face))
            hb_face_destroy(face)
            hb_blob_destroy(blob)
        }

        func hasGlyph(_ scalar: Unicode.Scalar) -> Bool {
            var glyph: hb_codepoint_t = 0
            return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0
        }
    }

    static let faces: [Face] = FontSet.embeddedFontNames.map { Face(path: packageRoot + "/Fonts/" + $0) }

    /// Scalars a font need not have for the cluster to be drawn with it.
    static func isOptional(_ scalar: Unicode.Scalar) -> Bool {
        [0x200C, 0x200D, 0xFE0E, 0xFE0F].contains(scalar.value)
    }

    /// The width of `text` in px at `size` on one line, its trailing spaces, tabs and
    /// newlines hanging (not counted), as a line ending in them is measured.
    static func width(_ text: some StringProtocol, size: Double = 17) -> Double {
        var visible = Substring(text)
        while let last = visible.last, last == " " || last == "\t" || last.isNewline { visible.removeLast() }
        var runs: [(face: Int, text: String)] = []
        for character in visible where !character.isNewline {
            let face = faces.firstIndex { face in
                character.unicodeScalars.allSatisfy { isOptional($0) || face.hasGlyph($0) }
            } ?? 0
            if runs.last?.face == face { runs[runs.count - 1].text.append(character) } else { runs.append((face, String(character))) }
        }
        return runs.reduce(0) { total, run in total + shapedAdvance(run.text, face: faces[run.face]) * size / faces[run.face].upem }
    }

    /// The advance of `text` shaped with `face`, in font units.
    static func shapedAdvance(_ text: String, face: Face) -> Double {
        shapedAdvance(text, font: face.font)
    }

    /// The advance of `text` shaped whole in one `hb_shape` with the HarfBuzz font `font`,
    /// in font units.
    static func shapedAdvance(_ text: String, font: OpaquePointer) -> Double {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let utf16 = Array(text.utf16)
        hb_buffer_add_utf16(buffer, utf16, Int32(utf16.count), 0, Int32(utf16.count))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return 0 }
        return (0..<Int(count)).reduce(0) { $0 + Double(positions[$1].x_advance) }
    }
}

/// The reference agrees with the `hb-shape` tool on a word, and with the library on
/// words of every script (so that tests leaning on it compare like with like).
@Suite struct HarfBuzzReferenceTests {
    @Test func theReferenceIsHBShapes() throws {
        let path = packageRoot + "/Fonts/NotoSans-Regular.ttf"
        let expected = Double(try ShapingReferenceTests.hbShapeAdvance("Typography", font: path, upem: 1000)) * 17 / 1000
        #expect(abs(HarfBuzzReference.width("Typography") - expected) < 1e-9)
    }

    @Test(arguments: ["AVATAR office", "我记得小时候", "소나기 소년은", "สวัสดีครับ", "مرحبا بالعالم", "שלום עולם", "नमस्ते हिन्दी",
                      "a\u{301} ok  "])
    func theReferenceAgreesWithTheLibrary(text: String) throws {
        let library = try PreparedText(text).unwrappedWidth
        #expect(abs(HarfBuzzReference.width(text) - library) <= 1.0 / 64, "\(text)")
    }
}
