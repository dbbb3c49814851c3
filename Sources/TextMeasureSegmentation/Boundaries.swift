import CTextICU

/// ICU's boundary analysis over a UTF-16 buffer: line-break opportunities and
/// grapheme-cluster boundaries. One C call per analysis; the iterators are cached
/// per thread inside CTextICU.
package enum Boundaries {
    /// Every line-break opportunity after offset 0, the end of the text included.
    /// `kind` is the ICU iterator the browser rules start from (CSS `line-break`).
    package static func lineBreaks(in text: UnsafeBufferPointer<UInt16>, rules: LineBreakRules,
                                   kind browserKind: Int = CTX_BREAK_LINE_NORMAL) throws(TextMeasureError)
        -> [BreakOpportunity] {
        try withBreaks(in: text, rules: rules, kind: browserKind) { offsets, mandatory in
            var breaks: [BreakOpportunity] = []
            breaks.reserveCapacity(offsets.count)
            for i in offsets.indices { breaks.append(BreakOpportunity(utf16Offset: Int(offsets[i]), isMandatory: mandatory[i] != 0)) }
            return breaks
        }
    }

    /// Lends `body` ICU's line-break offsets of `text` and whether each is mandatory,
    /// the browser rules' tailoring applied, in temporary memory (the stack, for a short text).
    static func withBreaks<Result>(
        in text: UnsafeBufferPointer<UInt16>, rules: LineBreakRules, kind browserKind: Int,
        _ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<UInt8>) throws(TextMeasureError) -> Result
    ) throws(TextMeasureError) -> Result {
        return try withUnsafeTemporaryAllocation(byteCount: text.count * 6 + 1, alignment: 4) {
            memory throws(TextMeasureError) -> Result in
            guard let base = text.baseAddress, let memory = memory.baseAddress else {
                return try body(UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0))
            }
            let offsets = memory.bindMemory(to: Int32.self, capacity: text.count)
            let mandatory = (memory + text.count * 4).bindMemory(to: UInt8.self, capacity: text.count)
            var error: Int32 = 0
            // The browser rules start from CSS line-break: normal, Chromium's ICU default.
            let kind = rules == .browser ? browserKind : CTX_BREAK_LINE
            var count = Int(ctx_boundaries(Int32(kind), base, Int32(text.count), offsets, mandatory, &error))
            guard count >= 0 else { throw .segmentationFailed(code: error) }
            if rules == .browser {
                let marks = (memory + text.count * 5).bindMemory(to: UInt8.self, capacity: text.count + 1)
                count = BrowserTailoring.tailor(offsets: offsets, mandatory: mandatory, count: count, in: text, marks: marks)
            }
            return try body(UnsafeBufferPointer(start: offsets, count: count), UnsafeBufferPointer(start: mandatory, count: count))
        }
    }

    /// Every grapheme-cluster boundary of `text` after offset 0, the end included
    /// (for `word-break: break-all` and `line-break: anywhere`).
    package static func graphemes(in text: UnsafeBufferPointer<UInt16>) throws(TextMeasureError) -> [Int32] {
        guard !text.isEmpty else { return [] }
        var offsets = [Int32](repeating: 0, count: text.count)
        var error: Int32 = 0
        let count = ctx_boundaries(Int32(CTX_BREAK_CHARACTER), text.baseAddress!, Int32(text.count),
                                   &offsets, nil, &error)
        guard count >= 0 else { throw .segmentationFailed(code: error) }
        offsets.removeSubrange(Int(count)...)
        return offsets
    }

    /// The grapheme-cluster boundaries of `text[start..<end]` after `start`, `end`
    /// included, merged with `forced` (ascending offsets in that range that must
    /// also end clusters: line-break opportunities), written to `out`, which needs
    /// room for `end - start + forced.count` entries. Returns how many were written.
    ///
    /// `start` must be a line-break opportunity or 0. The boundaries are ICU's, as
    /// for the whole text, but ICU is asked only between code points that could
    /// join (see `ctx_clusters`).
    package static func clusters(in text: UnsafeBufferPointer<UInt16>, from start: Int, to end: Int,
                         forced: UnsafeBufferPointer<Int32>, into out: UnsafeMutablePointer<Int32>) throws(TextMeasureError) -> Int {
        guard let base = text.baseAddress, start < end else { return 0 }
        var error: Int32 = 0
        let count = ctx_clusters(base, Int32(start), Int32(end), forced.baseAddress, Int32(forced.count), out, &error)
        guard count >= 0 else { throw .segmentationFailed(code: error) }
        return Int(count)
    }
}

extension LineBreakRules {
    /// The line-break opportunities of `text` under these rules, as UTF-16 offsets.
    ///
    /// ```swift
    /// try LineBreakRules.uax14.breakOpportunities(in: "a b\nc").map(\.utf16Offset)   // [2, 4, 5]
    /// ```
    public func breakOpportunities(in text: String) throws(TextMeasureError) -> [BreakOpportunity] {
        // ICU takes 32-bit lengths: refuse what PreparedText refuses, before converting.
        guard text.utf16.count <= Limits.maximumUTF16Count else { throw .textTooLong(utf16Count: text.utf16.count) }
        let utf16 = Array(text.utf16)
        return try utf16.withUnsafeBufferPointer { buffer throws(TextMeasureError) in
            try Boundaries.lineBreaks(in: buffer, rules: self)
        }
    }
}
