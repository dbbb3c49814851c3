import TextMeasure

/// What fuzz-font checks: load the bytes as a font (face 0, and face 1 as a collection
/// would have), then measure a mixed-script text with the font alone and as the primary
/// font in front of the default set. A font either fails with a FontError or measures
/// text into layouts that satisfy `LayoutInvariants`.
public enum FontFuzzing {
    static let sample = "Hello, wörld! AV To ffi 12.50 שלום مرحبا नमस्ते สวัสดี 你好 안녕 😀👍🏽🇯🇵 e\u{301}\tx\ny\r\nlongunbreakablewordlongunbreakableword"
    static let widths: [Double] = [0, 37.5, 300]

    /// Checks one input: the bytes of a font file.
    public static func check(_ bytes: [UInt8]) throws(InvariantViolation) {
        for faceIndex in 0...1 {
            guard let font = try? Font(bytes: bytes, faceIndex: faceIndex) else { continue }
            try LayoutInvariants.require(font.metrics.unitsPerEm > 0 && font.glyphCount >= 0, "sane font facts")
            let alone = try! FontSet([font])
            let first = try! FontSet([font] + FontSet.default.fonts.prefix(FontSet.maximumCount - 1))
            for fonts in [alone, first] {
                for size in [17.0, 0.01, 10_000] {
                    guard let prepared = try? PreparedText(sample, fonts: fonts, style: TextStyle(fontSize: size)) else {
                        try LayoutInvariants.require(false, "a valid text and style refused")
                        continue
                    }
                    for width in widths {
                        guard let layout = try? prepared.layout(width: width) else {
                            try LayoutInvariants.require(false, "layout refused width \(width)")
                            continue
                        }
                        // A mutated font may kern or join across a break by any amount, so
                        // the measure of a piece on its own says nothing about fullness.
                        try LayoutInvariants.check(layout, of: prepared, width: width, emptyLines: .textView,
                                                   checksFullness: false)
                    }
                }
            }
        }
    }
}
