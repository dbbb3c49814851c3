import CTextICU
import TextMeasure
@testable import TextMeasureSegmentation

// The library asks ICU for cluster boundaries only between code points that could
// join (`Boundaries.clusters`); the tests compare that with ICU's plain answer.
extension Boundaries {
    /// Every extended-grapheme-cluster boundary after offset 0, the end included.
    static func graphemes(in text: UnsafeBufferPointer<UInt16>) throws(TextMeasureError) -> [Int32] {
        guard !text.isEmpty else { return [] }
        var offsets = [Int32](repeating: 0, count: text.count)
        var error: Int32 = 0
        let count = ctx_boundaries(Int32(CTX_BREAK_CHARACTER), text.baseAddress!, Int32(text.count),
                                   &offsets, nil, &error)
        guard count >= 0 else { throw .segmentationFailed(code: error) }
        offsets.removeSubrange(Int(count)...)
        return offsets
    }
}
