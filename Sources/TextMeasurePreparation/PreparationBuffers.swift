import CHarfBuzz

/// The working memory of one preparation, in one temporary allocation sized to the
/// text (on the stack when the text is short): per UTF-16 code unit, per line-break
/// opportunity and per font.
///
/// Clusters are written at the offset where their stretch (or cached segment)
/// starts, so a segment answered by the cache and the stretch shaped before it
/// never overlap (a stretch has no more clusters than code units); `blocks` records
/// where each piece went so that `SegmentBuilder` can gather them in text order.
package struct PreparationBuffers {
    /// Per code unit: cluster end offsets and widths (width units), at sparse positions.
    let clusterEnds: UnsafeMutablePointer<Int32>
    let clusterWidths: UnsafeMutablePointer<Int32>
    /// Per code unit: what a line ending after the cluster at that sparse position,
    /// or starting after it, gains or loses (`LineEdgeWidths`).
    let clusterEdges: UnsafeMutablePointer<EdgeAdjustment>
    /// Per code unit: the advance of the cluster starting there, in font units.
    let advances: UnsafeMutablePointer<Int32>
    /// Per code unit: the font of the cluster at that sparse position.
    let fontForCluster: UnsafeMutablePointer<UInt8>
    /// Per code unit: whether the cluster at that sparse position hangs at a line's end.
    let clusterHangs: UnsafeMutablePointer<Bool>
    /// Per code unit: `ClusterEdge` bits for the glyph cluster starting there (starts,
    /// several glyphs, HarfBuzz's "unsafe to break before"), and its glyph.
    let edges: UnsafeMutablePointer<UInt8>
    let firstGlyphs: UnsafeMutablePointer<UInt32>
    /// Per break opportunity: the segment ending there, its offset, whether shaping
    /// may stop and restart there, and the script the text after it inherits.
    let segments: UnsafeMutablePointer<Segment>
    let breakEnds: UnsafeMutablePointer<Int32>
    let safeBreaks: UnsafeMutablePointer<Bool>
    let scriptAfter: UnsafeMutablePointer<hb_script_t>
    /// Per segment looked up in the cache: its key's hash and script, and whether the
    /// cache admits it (it is stored once shaped).
    let keyHashes: UnsafeMutablePointer<UInt64>
    let keyScripts: UnsafeMutablePointer<UInt32>
    let admitted: UnsafeMutablePointer<Bool>
    /// Per break opportunity at most: (sparse position, cluster count) of each piece.
    let blocks: UnsafeMutablePointer<(position: Int32, count: Int32)>
    /// Per font: width units per advance unit at the style's size.
    let scales: UnsafeMutablePointer<Double>
    /// The style part of the shape cache's keys (`styleKeyCount` code units).
    let styleKey: UnsafeMutablePointer<UInt16>

    /// Calls `body` with buffers for a text of `n` code units and `b` break
    /// opportunities, drawn with `f` fonts, and a style key of `k` code units.
    static func with<R>(utf16Count n: Int, breakCount b: Int, fontCount f: Int, styleKeyCount k: Int,
                        _ body: (PreparationBuffers) throws(TextMeasureError) -> R) throws(TextMeasureError) -> R {
        try withUnsafeTemporaryAllocation(byteCount: Layout(n: n, b: b, f: f, k: k).size, alignment: 8) {
            memory throws(TextMeasureError) -> R in
            // At least one byte is asked for, so the allocation always has an address.
            try body(PreparationBuffers(memory.baseAddress!, n: n, b: b, f: f, k: k))
        }
    }

    /// Where each array starts: largest alignment first, so that each starts aligned.
    private struct Layout {
        var size = 0
        var segments = 0, scales = 0, hashes = 0, blocks = 0, clusterEdges = 0, ends = 0, widths = 0, advances = 0
        var glyphs = 0, breakEnds = 0, scripts = 0, keyScripts = 0, styleKey = 0, fonts = 0, hangs = 0, edges = 0
        var safe = 0, admitted = 0

        init(n: Int, b: Int, f: Int, k: Int) {
            segments = reserve(Segment.self, b)
            scales = reserve(Double.self, f)
            hashes = reserve(UInt64.self, b)
            blocks = reserve((position: Int32, count: Int32).self, b)
            clusterEdges = reserve(EdgeAdjustment.self, n)
            ends = reserve(Int32.self, n)
            widths = reserve(Int32.self, n)
            advances = reserve(Int32.self, n)
            glyphs = reserve(UInt32.self, n)
            breakEnds = reserve(Int32.self, b)
            scripts = reserve(hb_script_t.self, b)
            keyScripts = reserve(UInt32.self, b)
            styleKey = reserve(UInt16.self, k)
            fonts = reserve(UInt8.self, n)
            hangs = reserve(Bool.self, n)
            edges = reserve(UInt8.self, n + 1)
            safe = reserve(Bool.self, b)
            admitted = reserve(Bool.self, b)
            size = max(size, 1)
        }

        private mutating func reserve<T>(_: T.Type, _ count: Int) -> Int {
            let offset = size
            size += MemoryLayout<T>.stride * count
            return offset
        }
    }

    private init(_ memory: UnsafeMutableRawPointer, n: Int, b: Int, f: Int, k: Int) {
        let at = Layout(n: n, b: b, f: f, k: k)
        segments = (memory + at.segments).bindMemory(to: Segment.self, capacity: b)
        scales = (memory + at.scales).bindMemory(to: Double.self, capacity: f)
        keyHashes = (memory + at.hashes).bindMemory(to: UInt64.self, capacity: b)
        keyScripts = (memory + at.keyScripts).bindMemory(to: UInt32.self, capacity: b)
        admitted = (memory + at.admitted).bindMemory(to: Bool.self, capacity: b)
        blocks = (memory + at.blocks).bindMemory(to: (position: Int32, count: Int32).self, capacity: b)
        clusterEdges = (memory + at.clusterEdges).bindMemory(to: EdgeAdjustment.self, capacity: n)
        clusterEnds = (memory + at.ends).bindMemory(to: Int32.self, capacity: n)
        clusterWidths = (memory + at.widths).bindMemory(to: Int32.self, capacity: n)
        advances = (memory + at.advances).bindMemory(to: Int32.self, capacity: n)
        firstGlyphs = (memory + at.glyphs).bindMemory(to: UInt32.self, capacity: n)
        breakEnds = (memory + at.breakEnds).bindMemory(to: Int32.self, capacity: b)
        scriptAfter = (memory + at.scripts).bindMemory(to: hb_script_t.self, capacity: b)
        styleKey = (memory + at.styleKey).bindMemory(to: UInt16.self, capacity: k)
        fontForCluster = (memory + at.fonts).bindMemory(to: UInt8.self, capacity: n)
        clusterHangs = (memory + at.hangs).bindMemory(to: Bool.self, capacity: n)
        edges = (memory + at.edges).bindMemory(to: UInt8.self, capacity: n + 1)
        safeBreaks = (memory + at.safe).bindMemory(to: Bool.self, capacity: b)
    }
}

extension ClusterBuffers {
    /// The `count` clusters of a preparation's buffers from `position`.
    init(_ buffers: PreparationBuffers, at position: Int, count: Int, offset: Int32) {
        self.init(ends: CallerBuffer(buffers.clusterEnds + position, count: count),
                  widths: CallerBuffer(buffers.clusterWidths + position, count: count),
                  edges: CallerBuffer(buffers.clusterEdges + position, count: count),
                  fonts: CallerBuffer(buffers.fontForCluster + position, count: count),
                  hangs: CallerBuffer(buffers.clusterHangs + position, count: count), offset: offset)
    }
}
