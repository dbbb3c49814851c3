/// The working memory of one styled preparation (`StyledSegmentBuilder.build`), as
/// `PreparationBuffers` is plain text's: one temporary allocation sized to the text (on
/// the stack when the text is short). Allocated array by array, these were a tenth of
/// the instructions styled text spent beyond plain text's. Only the arrays read where
/// nothing may have written are zeroed (a third of the bytes; zeroing all of it was
/// 3% of a styled preparation): the line-edge adjustments, kept only where nonzero;
/// the advances and edges, written by shaping only where it shapes (not over cached
/// segments or placeholders); the font indices and cursive flags, which a placeholder's
/// cluster never sets. `safeBreaks` are all true (the whole text is one stretch). The
/// rest is written whole before it is read: segments and cluster widths, hangs, styles
/// and slots, one per segment or cluster; break ends; glyphs, where shaping wrote
/// advances; each style's adjustments, which `LineEdgeWidths.measure` clears; the
/// breaks safe for the cache, where a cached style can ask.
///
/// The one owner of that memory: it exists only inside `with`, and each array is a
/// `ScratchArray` that knows its length.
struct StyledPreparationBuffers {
    /// Per cluster (at most one per code unit): its style (run index), its font's index
    /// in its style's set, whether it is a letter of a cursive script (which letter spacing
    /// skips), its line-edge adjustments, and those one style's runs give (`LineEdgeWidths`).
    let clusterRuns: ScratchArray<Int32>
    /// Per cluster: its slot (copied out into the prepared text's fonts once).
    let clusterSlots: ScratchArray<UInt8>
    let clusterFonts: ScratchArray<UInt8>
    let clusterCursive: ScratchArray<Bool>
    let adjustments: ScratchArray<EdgeAdjustment>
    let styleAdjustments: ScratchArray<EdgeAdjustment>
    /// Per cluster: its width and whether it hangs, as measured (copied out into the
    /// prepared text's arrays once).
    let widths: ScratchArray<Int32>
    let hangs: ScratchArray<Bool>
    /// Per code unit: what `Shaper` writes (advances, `ClusterEdge` bits with one more
    /// for the text's end, first glyphs).
    let advances: ScratchArray<Int32>
    let edges: ScratchArray<UInt8>
    let glyphs: ScratchArray<UInt32>
    /// Per break opportunity: the segment ending there (copied out once), its offset (a
    /// forced cluster end), whether shaping may stop there, and whether the shape cache
    /// may (`StyledSegmentBuilder.markCacheSafeBreaks`).
    let segments: ScratchArray<Segment>
    let breakEnds: ScratchArray<Int32>
    let safeBreaks: ScratchArray<Bool>
    let cacheSafeBreaks: ScratchArray<Bool>

    /// Calls `body` with buffers for a text of `n` code units and `b` break opportunities.
    static func with<R>(utf16Count n: Int, breakCount b: Int,
                        _ body: (StyledPreparationBuffers) throws(TextMeasureError) -> R) throws(TextMeasureError) -> R {
        let layout = Layout(n: n, b: b)
        return try withUnsafeTemporaryAllocation(byteCount: layout.size, alignment: 8) { memory throws(TextMeasureError) -> R in
            // At least one byte is asked for, so the allocation always has an address.
            let base = memory.baseAddress!
            (base + layout.zeroedWords.lowerBound).initializeMemory(as: UInt8.self, repeating: 0,
                                                                    count: layout.zeroedWords.count)
            (base + layout.zeroedBytes.lowerBound).initializeMemory(as: UInt8.self, repeating: 0,
                                                                    count: layout.zeroedBytes.count)
            let buffers = StyledPreparationBuffers(base, layout, n: n, b: b)
            (buffers.safeBreaks + 0).update(repeating: true, count: b)
            return try body(buffers)
        }
    }

    /// Where each array starts: largest alignment first, so that each starts aligned,
    /// and those to zero side by side (`zeroedWords`, `zeroedBytes`: byte ranges).
    private struct Layout {
        private var space = ScratchLayout()
        var size: Int { space.byteCount }
        var segments = 0, adjustments = 0, styleAdjustments = 0, runs = 0, advances = 0, glyphs = 0, breakEnds = 0
        var fonts = 0, cursive = 0, edges = 0, safe = 0, cacheSafe = 0, widths = 0, hangs = 0, slots = 0
        var zeroedWords = 0..<0, zeroedBytes = 0..<0

        init(n: Int, b: Int) {
            segments = space.reserve(Segment.self, b)
            adjustments = space.reserve(EdgeAdjustment.self, n)
            advances = space.reserve(Int32.self, n)
            styleAdjustments = space.reserve(EdgeAdjustment.self, n)
            zeroedWords = adjustments..<styleAdjustments
            runs = space.reserve(Int32.self, n)
            glyphs = space.reserve(UInt32.self, n)
            widths = space.reserve(Int32.self, n)
            breakEnds = space.reserve(Int32.self, b)
            fonts = space.reserve(UInt8.self, n)
            cursive = space.reserve(Bool.self, n)
            edges = space.reserve(UInt8.self, n + 1)
            slots = space.reserve(UInt8.self, n)
            zeroedBytes = fonts..<slots
            hangs = space.reserve(Bool.self, n)
            safe = space.reserve(Bool.self, b)
            cacheSafe = space.reserve(Bool.self, b)
        }
    }

    private init(_ memory: UnsafeMutableRawPointer, _ at: Layout, n: Int, b: Int) {
        segments = ScratchArray(memory + at.segments, count: b)
        adjustments = ScratchArray(memory + at.adjustments, count: n)
        styleAdjustments = ScratchArray(memory + at.styleAdjustments, count: n)
        clusterRuns = ScratchArray(memory + at.runs, count: n)
        advances = ScratchArray(memory + at.advances, count: n)
        glyphs = ScratchArray(memory + at.glyphs, count: n)
        breakEnds = ScratchArray(memory + at.breakEnds, count: b)
        clusterFonts = ScratchArray(memory + at.fonts, count: n)
        clusterCursive = ScratchArray(memory + at.cursive, count: n)
        clusterSlots = ScratchArray(memory + at.slots, count: n)
        widths = ScratchArray(memory + at.widths, count: n)
        hangs = ScratchArray(memory + at.hangs, count: n)
        edges = ScratchArray(memory + at.edges, count: n + 1)
        safeBreaks = ScratchArray(memory + at.safe, count: b)
        cacheSafeBreaks = ScratchArray(memory + at.cacheSafe, count: b)
    }
}
