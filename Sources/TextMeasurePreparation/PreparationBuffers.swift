import CHarfBuzz

/// The working memory of one preparation, in one temporary allocation sized to the
/// text (on the stack when the text is short): per UTF-16 code unit, per line-break
/// opportunity and per font.
///
/// Clusters are written at the offset where their stretch (or cached segment)
/// starts, so a segment answered by the cache and the stretch shaped before it
/// never overlap (a stretch has no more clusters than code units); `blocks` records
/// where each piece went so that `SegmentBuilder` can gather them in text order.
///
/// The one owner of that memory: it exists only inside `with`, and each array is a
/// `ScratchArray` that knows its length.
package struct PreparationBuffers {
    /// Per code unit: cluster end offsets and widths (width units), at sparse positions.
    let clusterEnds: ScratchArray<Int32>
    let clusterWidths: ScratchArray<Int32>
    /// Per code unit: what a line ending after the cluster at that sparse position,
    /// or starting after it, gains or loses (`LineEdgeWidths`).
    let clusterEdges: ScratchArray<EdgeAdjustment>
    /// Per code unit: the advance of the cluster starting there, in font units.
    let advances: ScratchArray<Int32>
    /// Per code unit: the font of the cluster at that sparse position.
    let fontForCluster: ScratchArray<UInt8>
    /// Per code unit: whether the cluster at that sparse position hangs at a line's end.
    let clusterHangs: ScratchArray<Bool>
    /// Per code unit: `ClusterEdge` bits for the glyph cluster starting there (starts,
    /// several glyphs, HarfBuzz's "unsafe to break before"), and its glyph.
    let edges: ScratchArray<UInt8>
    let firstGlyphs: ScratchArray<UInt32>
    /// Per break opportunity: the segment ending there, its offset, whether shaping
    /// may stop and restart there, and the script the text after it inherits.
    let segments: ScratchArray<Segment>
    let breakEnds: ScratchArray<Int32>
    let safeBreaks: ScratchArray<Bool>
    let scriptAfter: ScratchArray<hb_script_t>
    /// Per segment looked up in the cache: its key's hash and script, and whether the
    /// cache admits it (it is stored once shaped).
    let keyHashes: ScratchArray<UInt64>
    let keyScripts: ScratchArray<UInt32>
    let admitted: ScratchArray<Bool>
    /// Per break opportunity at most: (sparse position, cluster count) of each piece.
    let blocks: ScratchArray<(position: Int32, count: Int32)>
    /// Per font: width units per advance unit at the style's size.
    let scales: ScratchArray<Double>
    /// The style part of the shape cache's keys (`styleKeyCount` code units).
    let styleKey: ScratchArray<UInt16>

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
        private var space = ScratchLayout()
        var size: Int { space.byteCount }
        var segments = 0, scales = 0, hashes = 0, blocks = 0, clusterEdges = 0, ends = 0, widths = 0, advances = 0
        var glyphs = 0, breakEnds = 0, scripts = 0, keyScripts = 0, styleKey = 0, fonts = 0, hangs = 0, edges = 0
        var safe = 0, admitted = 0

        init(n: Int, b: Int, f: Int, k: Int) {
            segments = space.reserve(Segment.self, b)
            scales = space.reserve(Double.self, f)
            hashes = space.reserve(UInt64.self, b)
            blocks = space.reserve((position: Int32, count: Int32).self, b)
            clusterEdges = space.reserve(EdgeAdjustment.self, n)
            ends = space.reserve(Int32.self, n)
            widths = space.reserve(Int32.self, n)
            advances = space.reserve(Int32.self, n)
            glyphs = space.reserve(UInt32.self, n)
            breakEnds = space.reserve(Int32.self, b)
            scripts = space.reserve(hb_script_t.self, b)
            keyScripts = space.reserve(UInt32.self, b)
            styleKey = space.reserve(UInt16.self, k)
            fonts = space.reserve(UInt8.self, n)
            hangs = space.reserve(Bool.self, n)
            edges = space.reserve(UInt8.self, n + 1)
            safe = space.reserve(Bool.self, b)
            admitted = space.reserve(Bool.self, b)
        }
    }

    private init(_ memory: UnsafeMutableRawPointer, n: Int, b: Int, f: Int, k: Int) {
        let at = Layout(n: n, b: b, f: f, k: k)
        segments = ScratchArray(memory + at.segments, count: b)
        scales = ScratchArray(memory + at.scales, count: f)
        keyHashes = ScratchArray(memory + at.hashes, count: b)
        keyScripts = ScratchArray(memory + at.keyScripts, count: b)
        admitted = ScratchArray(memory + at.admitted, count: b)
        blocks = ScratchArray(memory + at.blocks, count: b)
        clusterEdges = ScratchArray(memory + at.clusterEdges, count: n)
        clusterEnds = ScratchArray(memory + at.ends, count: n)
        clusterWidths = ScratchArray(memory + at.widths, count: n)
        advances = ScratchArray(memory + at.advances, count: n)
        firstGlyphs = ScratchArray(memory + at.glyphs, count: n)
        breakEnds = ScratchArray(memory + at.breakEnds, count: b)
        scriptAfter = ScratchArray(memory + at.scripts, count: b)
        styleKey = ScratchArray(memory + at.styleKey, count: k)
        fontForCluster = ScratchArray(memory + at.fonts, count: n)
        clusterHangs = ScratchArray(memory + at.hangs, count: n)
        edges = ScratchArray(memory + at.edges, count: n + 1)
        safeBreaks = ScratchArray(memory + at.safe, count: b)
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

/// Where the arrays of one scratch allocation start: each reserved after the one
/// before (reserve the largest alignment first, so that each starts aligned).
struct ScratchLayout {
    private var size = 0

    /// The offset of `count` elements of `T`, reserved after what is reserved so far.
    mutating func reserve<T>(_: T.Type, _ count: Int) -> Int {
        let offset = size
        size += MemoryLayout<T>.stride * count
        return offset
    }

    /// The bytes to allocate: at least one, so that the allocation always has an address.
    var byteCount: Int { max(size, 1) }
}

/// One array of a preparation's scratch memory: its start and its length. Indexing and
/// offsetting are bounds-checked in debug builds (the tests); a release build skips
/// the check, as the `unchecked` name of the one way out, a bare pointer, says.
package struct ScratchArray<Element> {
    private let base: UnsafeMutablePointer<Element>
    package let count: Int

    /// Binds `count` elements of `memory`.
    init(_ memory: UnsafeMutableRawPointer, count: Int) {
        base = memory.bindMemory(to: Element.self, capacity: count)
        self.count = count
    }

    @inline(__always)
    package subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count, "scratch index out of bounds")
            return base[index]
        }
        nonmutating set {
            assert(index >= 0 && index < count, "scratch index out of bounds")
            base[index] = newValue
        }
    }

    /// The elements from `offset` on, for a callee that takes a pointer: `offset` is
    /// checked (debug), what the callee does with it is not.
    @inline(__always)
    package static func + (array: ScratchArray, offset: Int) -> UnsafeMutablePointer<Element> {
        assert(offset >= 0 && offset <= array.count, "scratch offset out of bounds")
        return array.base + offset
    }

    /// `count` elements from `offset`, checked (debug) to lie inside the array.
    @inline(__always)
    package func buffer(from offset: Int, count: Int) -> UnsafeMutableBufferPointer<Element> {
        assert(offset >= 0 && count >= 0 && offset + count <= self.count, "scratch range out of bounds")
        return UnsafeMutableBufferPointer(start: base + offset, count: count)
    }

    /// The start of the array, for a callee that takes a bare pointer and its own bounds.
    package var uncheckedBase: UnsafeMutablePointer<Element> { base }
}
