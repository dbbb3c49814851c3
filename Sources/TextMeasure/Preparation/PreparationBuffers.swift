import CHarfBuzz

/// The working memory of one preparation, in one allocation sized to the text:
/// per UTF-16 code unit, per line-break opportunity and per font.
///
/// Clusters are written at the offset where their stretch (or cached segment)
/// starts, so a segment answered by the cache and the stretch shaped before it
/// never overlap (a stretch has no more clusters than code units); `blocks` records
/// where each piece went so that `SegmentBuilder` can gather them in text order.
struct PreparationBuffers: ~Copyable {
    /// Per code unit: cluster end offsets and widths (1/64 px), at sparse positions.
    let clusterEnds: UnsafeMutablePointer<Int32>
    let clusterWidths: UnsafeMutablePointer<Int32>
    /// Per code unit: the advance of the cluster starting there, in font units.
    let advances: UnsafeMutablePointer<Int32>
    /// Per code unit: the font of the cluster at that sparse position.
    let fontForCluster: UnsafeMutablePointer<UInt8>
    /// Per code unit: HarfBuzz's "unsafe to break before the cluster starting here".
    let unsafeToBreak: UnsafeMutablePointer<Bool>
    /// Per break opportunity: the segment ending there, its offset, whether shaping
    /// may stop and restart there, and the script the text after it inherits.
    let segments: UnsafeMutablePointer<Segment>
    let breakEnds: UnsafeMutablePointer<Int32>
    let safeBreaks: UnsafeMutablePointer<Bool>
    let scriptAfter: UnsafeMutablePointer<hb_script_t>
    /// Per break opportunity at most: (sparse position, cluster count) of each piece.
    let blocks: UnsafeMutablePointer<(position: Int32, count: Int32)>
    /// Per font: 1/64 px per advance unit at the style's size.
    let scales: UnsafeMutablePointer<Double>

    private let memory: UnsafeMutableRawPointer

    init(utf16Count n: Int, breakCount b: Int, fontCount f: Int) {
        // Largest alignment first, so each array starts aligned after the one before.
        var size = 0
        func reserve<T>(_: T.Type, _ count: Int) -> Int {
            let offset = size
            size += MemoryLayout<T>.stride * count
            return offset
        }
        let segmentsAt = reserve(Segment.self, b), scalesAt = reserve(Double.self, f)
        let blocksAt = reserve((position: Int32, count: Int32).self, b)
        let endsAt = reserve(Int32.self, n), widthsAt = reserve(Int32.self, n), advancesAt = reserve(Int32.self, n)
        let breakEndsAt = reserve(Int32.self, b), scriptsAt = reserve(hb_script_t.self, b)
        let fontsAt = reserve(UInt8.self, n), unsafeAt = reserve(Bool.self, n), safeAt = reserve(Bool.self, b)
        memory = .allocate(byteCount: max(size, 1), alignment: 8)
        segments = (memory + segmentsAt).bindMemory(to: Segment.self, capacity: b)
        scales = (memory + scalesAt).bindMemory(to: Double.self, capacity: f)
        blocks = (memory + blocksAt).bindMemory(to: (position: Int32, count: Int32).self, capacity: b)
        clusterEnds = (memory + endsAt).bindMemory(to: Int32.self, capacity: n)
        clusterWidths = (memory + widthsAt).bindMemory(to: Int32.self, capacity: n)
        advances = (memory + advancesAt).bindMemory(to: Int32.self, capacity: n)
        breakEnds = (memory + breakEndsAt).bindMemory(to: Int32.self, capacity: b)
        scriptAfter = (memory + scriptsAt).bindMemory(to: hb_script_t.self, capacity: b)
        fontForCluster = (memory + fontsAt).bindMemory(to: UInt8.self, capacity: n)
        unsafeToBreak = (memory + unsafeAt).bindMemory(to: Bool.self, capacity: n)
        safeBreaks = (memory + safeAt).bindMemory(to: Bool.self, capacity: b)
    }

    deinit { memory.deallocate() }
}
