import Synchronization

/// A bounded, thread-safe cache of shaped segments: for a segment's text in a font
/// set, size, feature list and script context, its widths, its grapheme clusters and
/// their widths, and the fonts it uses. Preparing a text looks its segments up here
/// first and shapes only the rest, so the words a server sees again and again are
/// shaped once.
///
/// A segment is cached only when its width cannot depend on what surrounds it: it
/// starts at the start of the text, after a space or after a newline, and ends at the
/// end of the text, with a space or with a newline, and the font that draws spaces
/// takes no part in kerning, ligatures or contextual rules (as Chromium's word cache
/// requires). Results are therefore the same, to the bit, with or without the cache.
///
/// Bounded by `capacity` entries, evicted by the CLOCK algorithm (an approximation of
/// least-recently-used). A segment is stored the second time it is looked up, not
/// the first (a "doorkeeper", as in TinyLFU): names, typos and other words seen once
/// neither cost a store nor push out words that come back. The entries are spread
/// over 32 independently locked shards by hash, so threads preparing texts at the
/// same time rarely wait for each other and never for a global lock.
///
/// ```swift
/// let cache = ShapeCache(capacity: 10_000)
/// let prepared = try PreparedText("Hello again", style: TextStyle(fontSize: 15), cache: cache)
/// print(cache.statistics.misses)   // 2: "Hello " and "again" were not there
/// ```
public final class ShapeCache: Sendable {
    /// The cache preparation uses unless told otherwise: 65,536 entries (about
    /// 14 MB when full of typical words).
    public static let shared = ShapeCache(capacity: 65_536)

    /// Hit, miss and eviction counts since the cache was created.
    public struct Statistics: Sendable, Hashable {
        /// Segments found in the cache.
        public var hits: Int
        /// Segments looked up and not found.
        public var misses: Int
        /// Segments stored.
        public var insertions: Int
        /// Segments dropped to make room.
        public var evictions: Int
        /// Segments held now.
        public var count: Int
    }

    /// The most entries the cache holds; 0 turns it off.
    public let capacity: Int

    /// The shards. Their count is written once, here: `shardCount` and `shardBits`
    /// (which bits of a hash pick the shard, and so which the shard's table may use)
    /// follow from it.
    @usableFromInline typealias Shards = InlineArray<32, Mutex<ShapeCacheShard>>
    @inlinable static var shardCount: Int { Shards.count }
    /// A key's shard is the low `shardBits` bits of its hash.
    static var shardBits: Int { shardCount.trailingZeroBitCount }
    // Reachable from preparation's inlined `lookup` and `insert`, which it calls per segment.
    @usableFromInline let shards: Shards

    /// A cache holding at most `capacity` segments; 0 makes a cache that stores nothing.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        let perShard = (self.capacity + Self.shardCount - 1) / Self.shardCount
        shards = InlineArray { _ in Mutex(ShapeCacheShard(capacity: perShard)) }
    }

    /// Whether lookups can ever hit: false for a cache of capacity 0.
    @inlinable package var isEnabled: Bool { capacity > 0 }

    /// Removes every entry (the counters are kept).
    public func removeAll() {
        for index in 0..<Self.shardCount { shards[index].withLock { $0.removeAll() } }
    }

    /// The counters, summed over the shards.
    public var statistics: Statistics {
        var total = Statistics(hits: 0, misses: 0, insertions: 0, evictions: 0, count: 0)
        for index in 0..<Self.shardCount {
            shards[index].withLock { shard in
                total.hits += shard.hits
                total.misses += shard.misses
                total.insertions += shard.insertions
                total.evictions += shard.evictions
                total.count += shard.count
            }
        }
        return total
    }

    /// What a lookup found.
    @usableFromInline
    package enum Lookup {
        /// The segment, its clusters written to the caller's buffers.
        case hit(ShapedSegment)
        /// Not there; `admit` is true when the key was looked up before, so that
        /// the segment should be stored once it has been shaped.
        case miss(admit: Bool)
    }

    /// Looks `key` up; on a hit, writes the segment's clusters to `clusters`, which
    /// must have room for as many clusters as the key's text has code units.
    @inlinable
    package func lookup(_ key: ShapedSegmentKey, into clusters: ClusterBuffers) -> Lookup {
        shards[key.shard].withLock { $0.lookup(key, into: clusters) }
    }

    /// Stores a segment and its clusters.
    @inlinable
    package func insert(_ key: ShapedSegmentKey, _ segment: ShapedSegment, from clusters: ClusterBuffers) {
        guard isEnabled else { return }
        shards[key.shard].withLock { $0.insert(key, segment, clusters) }
    }
}

/// The caller's memory that a shard reads or writes during one locked call, and
/// keeps no pointer to. `Mutex.withLock` lets only Sendable values into its critical
/// section, and its region checker cannot see that nothing is kept: the pointer is
/// declared Sendable here, unchecked, on that contract (each use is confined to the
/// call that passed it), rather than smuggled through the lock as an integer.
///
/// Inlinable, like `ClusterBuffers` and the keys' initializers: preparation makes
/// several for every segment it looks up.
@usableFromInline
package struct CallerBuffer<Element>: @unchecked Sendable {
    @usableFromInline package let buffer: UnsafeMutableBufferPointer<Element>

    @inlinable
    package init(_ buffer: UnsafeBufferPointer<Element>) {
        self.buffer = UnsafeMutableBufferPointer(mutating: buffer)
    }

    @inlinable
    package init(_ pointer: UnsafeMutablePointer<Element>, count: Int) {
        buffer = UnsafeMutableBufferPointer(start: pointer, count: count)
    }

    package var count: Int { buffer.count }
}

/// Where a segment's clusters are read from or written to: their ends (text
/// offsets, stored less `offset`), widths, line-edge adjustments, fonts and whether
/// each hangs.
@usableFromInline
package struct ClusterBuffers: Sendable {
    @usableFromInline let ends: CallerBuffer<Int32>
    @usableFromInline let widths: CallerBuffer<Int32>
    @usableFromInline let edges: CallerBuffer<EdgeAdjustment>
    @usableFromInline let fonts: CallerBuffer<UInt8>
    @usableFromInline let hangs: CallerBuffer<Bool>
    @usableFromInline let offset: Int32

    @inlinable
    package init(ends: CallerBuffer<Int32>, widths: CallerBuffer<Int32>, edges: CallerBuffer<EdgeAdjustment>,
         fonts: CallerBuffer<UInt8>, hangs: CallerBuffer<Bool>, offset: Int32) {
        self.ends = ends
        self.widths = widths
        self.edges = edges
        self.fonts = fonts
        self.hangs = hangs
        self.offset = offset
    }
}

/// What identifies a shaped segment: the style it was shaped in (font set, size,
/// features, tab size, as `SegmentBuilder` spells them), the script it inherits
/// from the text before it, and its text. A view over caller-owned buffers, valid
/// for the call it is made for.
@usableFromInline
package struct ShapedSegmentKey: Sendable {
    @usableFromInline let style: CallerBuffer<UInt16>
    @usableFromInline let script: UInt32
    @usableFromInline let text: CallerBuffer<UInt16>
    @usableFromInline package let hash: UInt64

    /// `styleHash` is `ShapedSegmentKey.hash(style)`, computed once per preparation.
    /// Inlinable, with the hash: preparation makes one for every segment it looks up.
    @inlinable
    package init(style: UnsafeBufferPointer<UInt16>, styleHash: UInt64, script: UInt32, text: UnsafeBufferPointer<UInt16>) {
        self.init(style: style, script: script, text: text, hash: Self.hash(styleHash, script: script, text: text))
    }

    /// A key whose hash was computed before.
    @inlinable
    package init(style: UnsafeBufferPointer<UInt16>, script: UInt32, text: UnsafeBufferPointer<UInt16>, hash: UInt64) {
        self.style = CallerBuffer(style)
        self.script = script
        self.text = CallerBuffer(text)
        self.hash = hash
    }

    @inlinable
    static func hash(_ styleHash: UInt64, script: UInt32, text: UnsafeBufferPointer<UInt16>) -> UInt64 {
        var hash = Self.fold(styleHash, UInt16(truncatingIfNeeded: script))
        hash = Self.fold(hash, UInt16(truncatingIfNeeded: script >> 16))
        for unit in text { hash = Self.fold(hash, unit) }
        // Finalize (from MurmurHash3's fmix64) so that every bit depends on every unit.
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return hash
    }

    @inlinable var shard: Int { Int(hash & UInt64(ShapeCache.shardCount - 1)) }   // a power of two

    /// FNV-1a over UTF-16 code units.
    package static func hash(_ units: UnsafeBufferPointer<UInt16>) -> UInt64 {
        units.reduce(0xCBF2_9CE4_8422_2325, fold)
    }

    @inlinable @inline(__always)
    static func fold(_ hash: UInt64, _ unit: UInt16) -> UInt64 {
        (hash ^ UInt64(unit)) &* 0x0000_0100_0000_01B3
    }
}

/// A segment's width-independent facts, as the cache stores them.
@usableFromInline
package struct ShapedSegment: Sendable {
    @usableFromInline package var graphemeCount: Int32
    /// Clusters before the trailing whitespace.
    @usableFromInline package var contentGraphemeCount: Int32
    @usableFromInline package var width: Int
    @usableFromInline package var trailingWidth: Int
    @usableFromInline package var fonts: UInt64
    /// The script the text after the segment inherits (`hb_script_t`).
    @usableFromInline package var script: UInt32
    /// Right-to-left ligatures (`LigatureSpans`): bit i set when grapheme i and the one
    /// after it are one glyph cluster. Only segments of at most 64 graphemes have any.
    @usableFromInline package var ligatures: UInt64

    @inlinable   // preparation makes one per segment it stores, from another module
    package init(graphemeCount: Int32, contentGraphemeCount: Int32, width: Int, trailingWidth: Int, fonts: UInt64,
                 script: UInt32, ligatures: UInt64 = 0) {
        self.graphemeCount = graphemeCount
        self.contentGraphemeCount = contentGraphemeCount
        self.width = width
        self.trailingWidth = trailingWidth
        self.fonts = fonts
        self.script = script
        self.ligatures = ligatures
    }
}

/// One cache entry in one allocation: a `Header` (the segment's numbers and the key's
/// hash, script and lengths), then the clusters (ends, widths and edge adjustments
/// (end, start) as Int32 × 4n, fonts and hangs as UInt8 × 2n), then the key's style
/// and text (UInt16). Every offset follows from `Header`'s layout and the counts.
package enum ShapedSegmentRecord {
    private struct Header {
        var width: Int64
        var trailingWidth: Int64
        var fonts: UInt64
        var hash: UInt64
        /// `ShapedSegment.ligatures`.
        var ligatures: UInt64
        var graphemeCount: Int32
        var contentGraphemeCount: Int32
        /// The script the text after the segment inherits.
        var script: UInt32
        var keyScript: UInt32
        var styleCount: Int32
        var textCount: Int32
        /// CLOCK's bit: set by each hit, cleared as the hand passes.
        var referenced: Bool
    }

    /// Where the clusters start: after the header, aligned for them.
    private static let headerSize = MemoryLayout<Header>.stride
    /// Bytes per cluster: four Int32 (end, width, edge adjustments) and two UInt8.
    private static let clusterBytes = 4 * MemoryLayout<Int32>.stride + 2 * MemoryLayout<UInt8>.stride

    private static func header(_ record: UnsafeRawPointer) -> UnsafePointer<Header> {
        record.assumingMemoryBound(to: Header.self)
    }

    package static func make(_ key: ShapedSegmentKey, _ segment: ShapedSegment,
                             _ clusters: ClusterBuffers) -> UnsafeMutableRawPointer {
        let count = Int(segment.graphemeCount)
        let style = key.style.buffer, text = key.text.buffer
        let record = UnsafeMutableRawPointer.allocate(byteCount: headerSize + clusterBytes * count
                                                        + 2 * (style.count + text.count),
                                                      alignment: MemoryLayout<Header>.alignment)
        record.initializeMemory(as: Header.self, to: Header(
            width: Int64(segment.width), trailingWidth: Int64(segment.trailingWidth), fonts: segment.fonts,
            hash: key.hash, ligatures: segment.ligatures, graphemeCount: segment.graphemeCount, contentGraphemeCount: segment.contentGraphemeCount,
            script: segment.script, keyScript: key.script, styleCount: Int32(style.count), textCount: Int32(text.count),
            referenced: false))
        let stored = (record + headerSize).bindMemory(to: Int32.self, capacity: 4 * count)
        let storedBytes = (record + headerSize + 4 * MemoryLayout<Int32>.stride * count).bindMemory(to: UInt8.self, capacity: 2 * count)
        let ends = clusters.ends.buffer, widths = clusters.widths.buffer, edges = clusters.edges.buffer
        let fonts = clusters.fonts.buffer, hangs = clusters.hangs.buffer
        for i in 0..<count {
            stored[i] = ends[i] - clusters.offset
            stored[count + i] = widths[i]
            stored[2 * count + i] = edges[i].end
            stored[3 * count + i] = edges[i].start
            storedBytes[i] = fonts[i]
            storedBytes[count + i] = hangs[i] ? 1 : 0
        }
        let units = (record + headerSize + clusterBytes * count).bindMemory(to: UInt16.self,
                                                                           capacity: style.count + text.count)
        for i in 0..<style.count { units[i] = style[i] }
        for i in 0..<text.count { units[style.count + i] = text[i] }
        return record
    }

    package static func hash(of record: UnsafeRawPointer) -> UInt64 { header(record).pointee.hash }

    /// CLOCK's bit: set by each hit, cleared as the hand passes.
    package static func isReferenced(_ record: UnsafeRawPointer) -> Bool { header(record).pointee.referenced }

    package static func setReferenced(_ record: UnsafeMutableRawPointer, _ referenced: Bool) {
        record.assumingMemoryBound(to: Header.self).pointee.referenced = referenced
    }

    package static func matches(_ record: UnsafeRawPointer, _ key: ShapedSegmentKey) -> Bool {
        let style = key.style.buffer, text = key.text.buffer
        let header = header(record).pointee
        guard header.hash == key.hash, header.keyScript == key.script,
              Int(header.styleCount) == style.count, Int(header.textCount) == text.count else { return false }
        let units = (record + headerSize + clusterBytes * Int(header.graphemeCount)).assumingMemoryBound(to: UInt16.self)
        guard let styleUnits = style.baseAddress, let textUnits = text.baseAddress else { return style.isEmpty && text.isEmpty }
        return equal(units, styleUnits, count: style.count) && equal(units + style.count, textUnits, count: text.count)
    }

    /// Whether `count` units at `a` and at `b` are the same: four at a time, then one by
    /// one (a style is 12 units and more: unit by unit it was a quarter of a lookup).
    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>, count: Int) -> Bool {
        var i = 0
        while i &+ 4 <= count {
            if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) {
                return false
            }
            i &+= 4
        }
        while i < count {
            if a[i] != b[i] { return false }
            i &+= 1
        }
        return true
    }

    package static func read(_ record: UnsafeRawPointer, into clusters: ClusterBuffers) -> ShapedSegment {
        let header = header(record).pointee
        let segment = ShapedSegment(graphemeCount: header.graphemeCount, contentGraphemeCount: header.contentGraphemeCount,
                                    width: Int(header.width), trailingWidth: Int(header.trailingWidth),
                                    fonts: header.fonts, script: header.script, ligatures: header.ligatures)
        let count = Int(segment.graphemeCount)
        let stored = (record + headerSize).assumingMemoryBound(to: Int32.self)
        let storedBytes = (record + headerSize + 4 * MemoryLayout<Int32>.stride * count).assumingMemoryBound(to: UInt8.self)
        let ends = clusters.ends.buffer, widths = clusters.widths.buffer, edges = clusters.edges.buffer
        let fonts = clusters.fonts.buffer, hangs = clusters.hangs.buffer
        for i in 0..<count {
            ends[i] = stored[i] + clusters.offset
            widths[i] = stored[count + i]
            edges[i] = EdgeAdjustment(end: stored[2 * count + i], start: stored[3 * count + i])
            fonts[i] = storedBytes[i]
            hangs[i] = storedBytes[count + i] != 0
        }
        return segment
    }
}

/// One shard: an open-addressing table (linear probing) of records by hash, the
/// records in an array the CLOCK hand sweeps when the shard is full, and the
/// doorkeeper of keys seen once. Allocated on first use; always used under its
/// shard's lock.
///
/// The table starts small and doubles as the shard fills, keeping it at most half
/// full, up to twice the capacity. A probe's first read is a slot the processor's
/// caches seldom hold: sized for the capacity from the start, the shared cache's 32
/// tables took 2 MB however few segments they held, and a warm lookup waited on memory
/// for the slot as well as the record (`perf`: its one load was 5% of a warm `bench`).
@usableFromInline
package struct ShapeCacheShard: ~Copyable {
    /// A table slot: the record's hash beside it, so that a probe reads one cache
    /// line before the record itself; no record when empty.
    private struct Slot {
        var hash: UInt64
        var record: UnsafeMutableRawPointer?
    }

    private var slots: UnsafeMutablePointer<Slot>?
    private var slotMask = 0
    /// The table's size when the shard is full: a power of two, at least twice `capacity`.
    private var largestSlotCount = 0
    /// The table's first size: 64 slots of 16 bytes, a kilobyte.
    private static let firstSlotCount = 64
    /// The records, in the order the CLOCK hand visits them.
    private var records: UnsafeMutablePointer<UnsafeMutableRawPointer>?
    private let capacity: Int
    private var hand = 0
    /// The doorkeeper: a key was looked up before when the byte its hash picks holds
    /// the current generation. A new generation forgets every sighting at once; one
    /// begins when half the bytes have been marked (aging) and on `removeAll`.
    private var sightings: UnsafeMutablePointer<UInt8>?
    private var sightingMask = 0
    private var generation: UInt8 = 1
    private var marked = 0
    private(set) var count = 0
    private(set) var hits = 0
    private(set) var misses = 0
    private(set) var insertions = 0
    private(set) var evictions = 0

    init(capacity: Int) { self.capacity = capacity }

    deinit {
        if let records { for index in 0..<count { records[index].deallocate() } }
        slots?.deallocate()
        records?.deallocate()
        sightings?.deallocate()
    }

    @usableFromInline
    mutating func lookup(_ key: ShapedSegmentKey, into clusters: ClusterBuffers) -> ShapeCache.Lookup {
        guard capacity > 0 else { return .miss(admit: false) }
        if slots == nil { allocate() }
        if let record = find(key) {
            ShapedSegmentRecord.setReferenced(record, true)
            hits += 1
            return .hit(ShapedSegmentRecord.read(record, into: clusters))
        }
        misses += 1
        guard let sightings else { return .miss(admit: false) }
        let sighting = Int(truncatingIfNeeded: key.hash >> 40) & sightingMask
        if sightings[sighting] == generation { return .miss(admit: true) }
        sightings[sighting] = generation
        marked += 1
        if marked > sightingMask / 2 { forgetSightings() }
        return .miss(admit: false)
    }

    /// Stores the segment unless its key is already there (another thread shaped the
    /// same segment at the same time).
    @usableFromInline
    mutating func insert(_ key: ShapedSegmentKey, _ segment: ShapedSegment, _ clusters: ClusterBuffers) {
        guard capacity > 0 else { return }
        if slots == nil { allocate() }
        guard find(key) == nil else { return }
        let index: Int
        if count < capacity {
            if 2 * (count + 1) > slotMask + 1, slotMask + 1 < largestSlotCount { grow() }
            index = count
            count += 1
        } else {
            index = evict()
        }
        guard let slots, let records else { return }
        let record = ShapedSegmentRecord.make(key, segment, clusters)
        records[index] = record
        var slot = home(key.hash)
        while slots[slot].record != nil { slot = (slot + 1) & slotMask }
        slots[slot] = Slot(hash: key.hash, record: record)
        insertions += 1
    }

    /// The record holding `key`.
    private func find(_ key: ShapedSegmentKey) -> UnsafeMutableRawPointer? {
        guard let slots else { return nil }
        var slot = home(key.hash)
        while let record = slots[slot].record {
            if slots[slot].hash == key.hash, ShapedSegmentRecord.matches(record, key) { return record }
            slot = (slot + 1) & slotMask
        }
        return nil
    }

    /// Empties the shard, touching only the slots in use (a sweep of the whole table
    /// would also sweep the processor's caches).
    mutating func removeAll() {
        guard let slots, let records else { return }
        for index in 0..<count {
            // Every slot is cleared in the end, so probe past cleared ones.
            var slot = home(ShapedSegmentRecord.hash(of: records[index]))
            while slots[slot].record != records[index] { slot = (slot + 1) & slotMask }
            slots[slot].record = nil
            records[index].deallocate()
        }
        count = 0
        hand = 0
        forgetSightings()
    }

    private mutating func forgetSightings() {
        marked = 0
        generation &+= 1
        if generation == 0, let sightings {
            // Every 255 generations the bytes are cleared for real.
            sightings.update(repeating: 0, count: sightingMask + 1)
            generation = 1
        }
    }

    private mutating func allocate() {
        var size = 4
        while size < capacity * 2 { size <<= 1 }
        largestSlotCount = size
        let first = min(size, Self.firstSlotCount)
        slots = .allocate(capacity: first)
        slots?.initialize(repeating: Slot(hash: 0, record: nil), count: first)
        slotMask = first - 1
        records = .allocate(capacity: capacity)
        // At least 256 sightings, so that a small cache still tells a second sight from a first.
        let sightingCount = max(size, 256)
        sightings = .allocate(capacity: sightingCount)
        sightings?.initialize(repeating: 0, count: sightingCount)
        sightingMask = sightingCount - 1
    }

    /// Doubles the table, placing each record anew from the hash its slot holds.
    private mutating func grow() {
        guard let old = slots else { return }
        let oldCount = slotMask + 1
        let grown = UnsafeMutablePointer<Slot>.allocate(capacity: 2 * oldCount)
        grown.initialize(repeating: Slot(hash: 0, record: nil), count: 2 * oldCount)
        slots = grown
        slotMask = 2 * oldCount - 1
        for index in 0..<oldCount where old[index].record != nil {
            var slot = home(old[index].hash)
            while grown[slot].record != nil { slot = (slot + 1) & slotMask }
            grown[slot] = old[index]
        }
        old.deallocate()   // slots hold no references: nothing to deinitialize
    }

    @inline(__always)
    private func home(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> UInt64(ShapeCache.shardBits)) & slotMask   // the low bits chose the shard
    }

    /// CLOCK: the first record from the hand whose referenced bit is clear (clearing
    /// the bits it passes) is dropped; returns its index for reuse.
    private mutating func evict() -> Int {
        guard let records else { return 0 }
        while ShapedSegmentRecord.isReferenced(records[hand]) {
            ShapedSegmentRecord.setReferenced(records[hand], false)
            hand = (hand + 1) % capacity
        }
        let victim = hand
        hand = (hand + 1) % capacity
        removeFromTable(records[victim])
        records[victim].deallocate()
        evictions += 1
        return victim
    }

    /// Deletes the slot of `record`, shifting later slots of its probe run back so
    /// that no lookup stops early at the hole.
    private mutating func removeFromTable(_ record: UnsafeMutableRawPointer) {
        guard let slots else { return }
        var hole = home(ShapedSegmentRecord.hash(of: record))
        while slots[hole].record != record { hole = (hole + 1) & slotMask }
        var next = hole
        while true {
            next = (next + 1) & slotMask
            guard slots[next].record != nil else { break }
            let wanted = home(slots[next].hash)
            // Leave the slot where it is if its home lies cyclically in (hole, next].
            let staysPut = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
            if !staysPut {
                slots[hole] = slots[next]
                hole = next
            }
        }
        slots[hole].record = nil
    }
}
