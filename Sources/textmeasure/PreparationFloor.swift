import CHarfBuzz
import CTextICU
import TextMeasure

/// The floor under preparation, for benchmarks: the two library calls that preparing
/// a text cannot avoid, run bare over the same texts. ICU's line-break iteration over
/// each whole text, and one `hb_shape` per font/script run, with nothing read back.
///
/// Everything else (itemization, buffers, the runs) is set up by `init` and not part
/// of the passes, so `textmeasure bench` can put preparation's cost beside this one.
/// It lives in the CLI, not the library, and reaches preparation's internals through
/// `package` access.
final class PreparationFloor {
    private struct Text {
        var utf16: [UInt16]
        var runs: [FontRun]
        var fonts: [Font]
        var features: [hb_feature_t]
    }

    private let texts: [Text]
    private let buffer: OpaquePointer
    private var offsets: [Int32]
    private var mandatory: [UInt8]

    /// The number of texts.
    var count: Int { texts.count }

    /// Segments and itemizes every text (not part of the passes).
    init(_ texts: [(text: String, fonts: FontSet, style: TextStyle)]) throws(TextMeasureError) {
        var prepared: [Text] = []
        for (text, fonts, style) in texts {
            let utf16 = Array(text.utf16)
            let runs = try utf16.withUnsafeBufferPointer { buffer throws(TextMeasureError) in
                try SegmentBuilder.runs(of: buffer, fonts: fonts, style: style)
            }
            prepared.append(Text(utf16: utf16, runs: runs, fonts: fonts.fonts,
                                 features: Shaper.parse(features: style.fontFeatures)))
        }
        self.texts = prepared
        let longest = prepared.map(\.utf16.count).max() ?? 0
        offsets = [Int32](repeating: 0, count: longest)
        mandatory = [UInt8](repeating: 0, count: longest)
        buffer = hb_buffer_create()
    }

    deinit { hb_buffer_destroy(buffer) }

    /// The number of UTF-16 code units of text `index`.
    func utf16Count(of index: Int) -> Int { texts[index].utf16.count }

    /// ICU's line breaking over text `index`, boundary by boundary. Returns the number
    /// of opportunities found (so that the work cannot be optimized away).
    func breakLines(of index: Int) -> Int {
        let text = texts[index]
        guard !text.utf16.isEmpty else { return 0 }
        var error: Int32 = 0
        return Int(ctx_boundaries(Int32(CTX_BREAK_LINE), text.utf16, Int32(text.utf16.count), &offsets, &mandatory, &error))
    }

    /// One `hb_shape` per run of text `index`, with the whole text as context, as
    /// preparation shapes. Returns the number of glyphs produced.
    func shapeRuns(of index: Int) -> Int {
        var glyphs = 0
        let text = texts[index]
        text.utf16.withUnsafeBufferPointer { utf16 in
            for run in text.runs {
                // Cut where preparing cuts (`ShapingPieces`): a run of a million marks
                // shaped whole would take most of an hour.
                let cuts = ShapingPieces.cuts(in: utf16, from: run.start, to: run.end)
                for (start, end) in zip([run.start] + cuts, cuts + [run.end]) {
                    hb_buffer_clear_contents(buffer)
                    hb_buffer_add_utf16(buffer, utf16.baseAddress, Int32(utf16.count), UInt32(start), Int32(end - start))
                    Shaper.setSegmentProperties(of: buffer, script: run.script)
                    text.features.withUnsafeBufferPointer {
                        hb_shape(text.fonts[run.fontIndex].hbFont, buffer, $0.baseAddress, UInt32($0.count))
                    }
                    glyphs += Int(hb_buffer_get_length(buffer))
                }
            }
        }
        return glyphs
    }
}
