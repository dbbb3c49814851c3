import CHarfBuzz

/// The working memory of one preparation, in one temporary allocation (on the stack
/// when the text is short): per UTF-16 code unit and per line-break opportunity of a
/// *window* of the text, per font; and, apart, per break opportunity of the whole text,
/// whether it is safe (`Stretch.isSafeBreak`), and the segments, which are written
/// straight into the prepared text's own array.
///
/// A text up to `longestUnwindowedText` code units is one window. A longer one is
/// prepared a window at a time (`SegmentBuilder`), each starting at a safe break and
/// at most `windowUnits` long: the longest text without a safe break, or
/// `longestUnwindowedText`, whichever is longer. So the scratch of a long text is
/// bounded by its longest stretch without a safe break, not by its length (an 8 MB
/// paragraph took 27 bytes per code unit and 70 per break here). The per-window arrays
/// are indexed by text offset and break index all the same (`WindowArray`, moved with
/// `window(from:segment:)`). Whether they can move is the type's `Origin`: a text of
/// one window is prepared with `WholeText`, whose origins are 0 at compile time, so
/// that a chat-sized text pays nothing for the windows of long ones.
///
/// Clusters are written at the offset where their stretch (or cached segment)
/// starts, so a segment answered by the cache and the stretch shaped before it
/// never overlap (a stretch has no more clusters than code units); `blocks` records
/// where each piece went so that `SegmentBuilder` can gather them in text order.
///
/// The one owner of that memory: it exists only inside `with`, and each array is a
/// `ScratchArray` (or `WindowArray`) that knows its length.
package struct PreparationBuffers<Origin: WindowOrigin> {
    /// Per code unit: cluster end offsets and widths (width units), at sparse positions.
    private(set) var clusterEnds: WindowArray<Int32, Origin>
    private(set) var clusterWidths: WindowArray<Int32, Origin>
    /// Per code unit: what a line ending after the cluster at that sparse position,
    /// or starting after it, gains or loses (`LineEdgeWidths`).
    private(set) var clusterEdges: WindowArray<EdgeAdjustment, Origin>
    /// Per code unit: the advance of the cluster starting there, in font units.
    private(set) var advances: WindowArray<Int32, Origin>
    /// Per code unit: the font of the cluster at that sparse position.
    private(set) var fontForCluster: WindowArray<UInt8, Origin>
    /// Per code unit: whether the cluster at that sparse position hangs at a line's end.
    private(set) var clusterHangs: WindowArray<Bool, Origin>
    /// Per code unit: `ClusterEdge` bits for the glyph cluster starting there (starts,
    /// several glyphs, HarfBuzz's "unsafe to break before"), and its glyph.
    private(set) var edges: WindowArray<UInt8, Origin>
    private(set) var firstGlyphs: WindowArray<UInt32, Origin>
    /// Per break opportunity of the whole text: the segment ending there (the prepared
    /// text's array), and whether shaping may stop and restart there.
    let segments: ScratchArray<Segment>
    let safeBreaks: ScratchArray<Bool>
    /// Per break opportunity: its offset and the script the text after it inherits.
    private(set) var breakEnds: WindowArray<Int32, Origin>
    private(set) var scriptAfter: WindowArray<hb_script_t, Origin>
    /// Per segment looked up in the cache: its key's hash and script, and whether the
    /// cache admits it (it is stored once shaped).
    private(set) var keyHashes: WindowArray<UInt64, Origin>
    private(set) var keyScripts: WindowArray<UInt32, Origin>
    private(set) var admitted: WindowArray<Bool, Origin>
    /// Per break opportunity at most: (sparse position, cluster count) of each piece.
    let blocks: ScratchArray<(position: Int32, count: Int32)>
    /// Per font: width units per advance unit at the style's size.
    let scales: ScratchArray<Double>
    /// The style part of the shape cache's keys (`styleKeyCount` code units).
    let styleKey: ScratchArray<UInt16>
    /// How many code units a window holds: the text's count when it is one window.
    let windowUnits: Int

    /// Calls `body` with buffers for `text`, whose break opportunities are `breaks`,
    /// drawn with `fonts` (`fontCount` of them), with a style key of `k` code units;
    /// its segments go to `segments`, one per break. With a `MovingWindow`, a text
    /// longer than `unwindowed` code units is prepared in windows; a `WholeText` is one.
    static func with<R>(text: UnsafeBufferPointer<UInt16>, breaks: UnsafeBufferPointer<BreakOpportunity>,
                        fonts: FontSet, fontCount f: Int, styleKeyCount k: Int,
                        segments: UnsafeMutableBufferPointer<Segment>, unwindowed: Int,
                        _ body: (PreparationBuffers) throws(TextMeasureError) -> R) throws(TextMeasureError) -> R {
        let n = text.count, b = breaks.count
        // At least one byte (a break) is asked for, so the allocations always have an address.
        return try withUnsafeTemporaryAllocation(of: Bool.self, capacity: max(b, 1)) { safe throws(TextMeasureError) -> R in
            let safe = ScratchArray(safe.baseAddress!, count: b)
            Stretch.markSafeBreaks(breaks, in: text, fonts: fonts, into: safe + 0)
            let u = Origin.moves && n > unwindowed ? max(unwindowed, longestUnsafeStretch(breaks, safe, n)) : n
            let w = min(b, u)   // a window's segments: each at least one code unit
            return try withUnsafeTemporaryAllocation(byteCount: Layout(u: u, w: w, f: f, k: k).size, alignment: 8) {
                memory throws(TextMeasureError) -> R in
                try body(PreparationBuffers(memory.baseAddress!, u: u, w: w, f: f, k: k, safe: safe,
                                            segments: ScratchArray(segments.baseAddress!, count: b)))
            }
        }
    }

    /// The most code units between two consecutive safe breaks (or the text's ends).
    private static func longestUnsafeStretch(_ breaks: UnsafeBufferPointer<BreakOpportunity>, _ safe: ScratchArray<Bool>,
                                             _ n: Int) -> Int {
        var longest = 0, last = 0
        for (index, opportunity) in breaks.enumerated() where safe[index] {
            longest = max(longest, opportunity.utf16Offset - last)
            last = opportunity.utf16Offset
        }
        return max(longest, n - last)
    }

    /// These buffers for the window that starts at offset `start`, with segment `index`:
    /// the per-window arrays now index from there.
    func window(from start: Int, segment index: Int) -> PreparationBuffers {
        var moved = self
        moved.clusterEnds = clusterEnds.rebased(to: start)
        moved.clusterWidths = clusterWidths.rebased(to: start)
        moved.clusterEdges = clusterEdges.rebased(to: start)
        moved.advances = advances.rebased(to: start)
        moved.fontForCluster = fontForCluster.rebased(to: start)
        moved.clusterHangs = clusterHangs.rebased(to: start)
        moved.edges = edges.rebased(to: start)
        moved.firstGlyphs = firstGlyphs.rebased(to: start)
        moved.breakEnds = breakEnds.rebased(to: index)
        moved.scriptAfter = scriptAfter.rebased(to: index)
        moved.keyHashes = keyHashes.rebased(to: index)
        moved.keyScripts = keyScripts.rebased(to: index)
        moved.admitted = admitted.rebased(to: index)
        return moved
    }

    /// Where each array starts: largest alignment first, so that each starts aligned.
    private struct Layout {
        private var space = ScratchLayout()
        var size: Int { space.byteCount }
        var scales = 0, hashes = 0, blocks = 0, clusterEdges = 0, ends = 0, widths = 0, advances = 0
        var glyphs = 0, breakEnds = 0, scripts = 0, keyScripts = 0, styleKey = 0, fonts = 0, hangs = 0, edges = 0
        var admitted = 0

        init(u: Int, w: Int, f: Int, k: Int) {
            scales = space.reserve(Double.self, f)
            hashes = space.reserve(UInt64.self, w)
            blocks = space.reserve((position: Int32, count: Int32).self, w)
            clusterEdges = space.reserve(EdgeAdjustment.self, u)
            ends = space.reserve(Int32.self, u)
            widths = space.reserve(Int32.self, u)
            advances = space.reserve(Int32.self, u)
            glyphs = space.reserve(UInt32.self, u)
            breakEnds = space.reserve(Int32.self, w)
            scripts = space.reserve(hb_script_t.self, w)
            keyScripts = space.reserve(UInt32.self, w)
            styleKey = space.reserve(UInt16.self, k)
            fonts = space.reserve(UInt8.self, u)
            hangs = space.reserve(Bool.self, u)
            edges = space.reserve(UInt8.self, u + 1)
            admitted = space.reserve(Bool.self, w)
        }
    }

    private init(_ memory: UnsafeMutableRawPointer, u: Int, w: Int, f: Int, k: Int, safe: ScratchArray<Bool>,
                 segments: ScratchArray<Segment>) {
        let at = Layout(u: u, w: w, f: f, k: k)
        windowUnits = u
        self.segments = segments
        safeBreaks = safe
        scales = ScratchArray(memory + at.scales, count: f)
        keyHashes = WindowArray(memory + at.hashes, count: w)
        keyScripts = WindowArray(memory + at.keyScripts, count: w)
        admitted = WindowArray(memory + at.admitted, count: w)
        blocks = ScratchArray(memory + at.blocks, count: w)
        clusterEdges = WindowArray(memory + at.clusterEdges, count: u)
        clusterEnds = WindowArray(memory + at.ends, count: u)
        clusterWidths = WindowArray(memory + at.widths, count: u)
        advances = WindowArray(memory + at.advances, count: u)
        firstGlyphs = WindowArray(memory + at.glyphs, count: u)
        breakEnds = WindowArray(memory + at.breakEnds, count: w)
        scriptAfter = WindowArray(memory + at.scripts, count: w)
        styleKey = ScratchArray(memory + at.styleKey, count: k)
        fontForCluster = WindowArray(memory + at.fonts, count: u)
        clusterHangs = WindowArray(memory + at.hangs, count: u)
        edges = WindowArray(memory + at.edges, count: u + 1)
    }
}

extension PreparationBuffers where Origin == WholeText {
    /// The longest text prepared as one window, in UTF-16 code units: its scratch
    /// (about 1.7 MB) is what a longer text's window needs at least.
    package static var longestUnwindowedText: Int { 1 << 16 }
}

extension ClusterBuffers {
    /// The `count` clusters of a preparation's buffers from `position`. The cluster
    /// arrays move together (one origin), so the window's origin is subtracted once.
    init<Origin>(_ buffers: PreparationBuffers<Origin>, at position: Int, count: Int, offset: Int32) {
        let at = position &- buffers.clusterEnds.origin.value
        self.init(ends: CallerBuffer(buffers.clusterEnds.scratch + at, count: count),
                  widths: CallerBuffer(buffers.clusterWidths.scratch + at, count: count),
                  edges: CallerBuffer(buffers.clusterEdges.scratch + at, count: count),
                  fonts: CallerBuffer(buffers.fontForCluster.scratch + at, count: count),
                  hangs: CallerBuffer(buffers.clusterHangs.scratch + at, count: count), offset: offset)
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

    /// `count` elements of typed memory.
    init(_ memory: UnsafeMutablePointer<Element>, count: Int) {
        base = memory
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

/// A `ScratchArray` of a window of a long text (`PreparationBuffers`): indexed from
/// `origin`, the text offset or break index its first element has (0 until the window
/// moves), so that the pass indexes by text offset or break index whatever window it is
/// in. The origin is subtracted without an overflow check: offsets are far from the
/// ends of `Int`. Apart from `ScratchArray`, so that arrays that never move pay nothing.
struct WindowArray<Element, Origin: WindowOrigin> {
    /// The elements, indexed from 0.
    let scratch: ScratchArray<Element>
    /// The index of the first element.
    let origin: Origin

    /// Binds `count` elements of `memory`, the first at index 0.
    init(_ memory: UnsafeMutableRawPointer, count: Int) {
        scratch = ScratchArray(memory, count: count)
        origin = Origin(0)
    }

    private init(_ scratch: ScratchArray<Element>, origin: Origin) {
        self.scratch = scratch
        self.origin = origin
    }

    /// The same elements, the first now at index `origin`.
    func rebased(to origin: Int) -> WindowArray {
        WindowArray(scratch, origin: Origin(origin))
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get { scratch[index &- origin.value] }
        nonmutating set { scratch[index &- origin.value] = newValue }
    }

    /// The elements from index `offset` on, for a callee that takes a pointer.
    @inline(__always)
    static func + (window: WindowArray, offset: Int) -> UnsafeMutablePointer<Element> {
        window.scratch + (offset &- window.origin.value)
    }

    /// `count` elements from index `offset`, checked (debug) to lie inside the window.
    @inline(__always)
    func buffer(from offset: Int, count: Int) -> UnsafeMutableBufferPointer<Element> {
        scratch.buffer(from: offset &- origin.value, count: count)
    }
}

/// The origin of a window's arrays (`WindowArray`): a text offset or a break index.
package protocol WindowOrigin {
    /// Whether the window moves: false when the text is one window.
    static var moves: Bool { get }
    /// The origin `value` (only ever 0 when the window does not move).
    init(_ value: Int)
    var value: Int { get }
}

/// The origin of a text prepared as one window: 0, known at compile time, so that
/// indexing subtracts nothing (chat cold, en +0.9% instructions with a stored origin).
package struct WholeText: WindowOrigin {
    package static var moves: Bool { false }
    package init(_ value: Int) { assert(value == 0, "a text of one window never moves it") }
    package var value: Int { 0 }
}

/// The origin of a window of a long text, moved window by window.
package struct MovingWindow: WindowOrigin {
    package static var moves: Bool { true }
    package let value: Int
    package init(_ value: Int) { self.value = value }
}
