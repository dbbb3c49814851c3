/// The shape cache as styled preparation (`StyledSegmentBuilder`) uses it: a segment
/// inside one style run, with safe breaks on both sides, is looked up and stored as
/// plain text's segments are, under a key of its own style.
///
/// The key is the run's font set, size and tab size (as `StyleKey` starts), a 0xFFFF
/// no feature string holds (so styled and plain keys never match), the letter and word
/// spacing (added to its clusters' widths before they are summed, so the widths stored
/// are the spaced ones), the base font and size that tabs are measured in, and the
/// features it is shaped with (ligatures off under letter spacing), each
/// followed by a 0.
/// Clusters are stored with their font's index in the run's set, not their slot: a
/// slot depends on the text's other runs.
final class StyledSegmentCache {
    let cache: ShapeCache
    /// Each style's key (`StyledRunStyle.cacheKey`): its hash and where its units are in
    /// `keyUnits`. Copied in once, so that a lookup reads no class and no array (each
    /// was retained and released around every lookup).
    private let keys: UnsafeMutableBufferPointer<(hash: UInt64, start: Int, count: Int)>
    private let keyUnits: UnsafeMutableBufferPointer<UInt16>
    /// Clusters read or written, each segment's at its start's UTF-16 offset (a
    /// segment has at most as many clusters as code units): ends, widths, edge
    /// adjustments, font indices in the run's set, whether each hangs. All five in one
    /// allocation (`storage`), with the keys.
    let ends: UnsafeMutableBufferPointer<Int32>
    let widths: UnsafeMutableBufferPointer<Int32>
    let edges: UnsafeMutableBufferPointer<EdgeAdjustment>
    let fonts: UnsafeMutableBufferPointer<UInt8>
    let hangs: UnsafeMutableBufferPointer<Bool>
    private let storage: UnsafeMutableRawPointer

    /// The key script of a segment whose first code point has a script of its own.
    static let ownScript = UInt32.max

    init(_ cache: ShapeCache, styles: [StyledRunStyle], utf16Count count: Int) {
        self.cache = cache
        let unitCount = styles.reduce(0) { $0 + $1.cacheKey.count }
        // Each buffer's bytes rounded up to 16, so that each starts aligned.
        func size<Element>(_: Element.Type, _ count: Int = count) -> Int {
            (MemoryLayout<Element>.stride * count + 15) & ~15
        }
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: size((hash: UInt64, start: Int, count: Int).self, styles.count) + size(EdgeAdjustment.self)
                + 2 * size(Int32.self) + size(UInt8.self) + size(Bool.self) + size(UInt16.self, unitCount),
            alignment: 16)
        var next = raw
        func take<Element>(_ type: Element.Type, _ count: Int = count) -> UnsafeMutableBufferPointer<Element> {
            defer { next += size(type, count) }
            return UnsafeMutableBufferPointer(start: next.bindMemory(to: type, capacity: count), count: count)
        }
        storage = raw
        keys = take((hash: UInt64, start: Int, count: Int).self, styles.count)
        edges = take(EdgeAdjustment.self)
        ends = take(Int32.self)
        widths = take(Int32.self)
        fonts = take(UInt8.self)
        hangs = take(Bool.self)
        keyUnits = take(UInt16.self, unitCount)
        var start = 0
        for (index, style) in styles.enumerated() {
            keys[index] = (style.cacheKeyHash, start, style.cacheKey.count)
            for (offset, unit) in style.cacheKey.enumerated() { keyUnits[start + offset] = unit }
            start += style.cacheKey.count
        }
    }

    deinit {
        storage.deallocate()
    }

    /// Looks up the segment `range` of `text` in style `style` with key script `script`;
    /// a hit's clusters are written at `range.lowerBound`.
    func lookUp(_ text: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, script: UInt32,
                style: Int) -> ShapeCache.Lookup {
        withKey(text, range, script: script, style: style) { key in
            cache.lookup(key, into: clusters(at: range.lowerBound, count: range.count))
        }
    }

    /// Stores the segment `range` (see `lookUp`), its clusters written at `range.lowerBound`.
    func insert(_ segment: ShapedSegment, _ text: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, script: UInt32,
                style: Int) {
        withKey(text, range, script: script, style: style) { key in
            cache.insert(key, segment, from: clusters(at: range.lowerBound, count: Int(segment.graphemeCount)))
        }
    }

    private func clusters(at position: Int, count: Int) -> ClusterBuffers {
        ClusterBuffers(ends: CallerBuffer(ends.baseAddress! + position, count: count),
                       widths: CallerBuffer(widths.baseAddress! + position, count: count),
                       edges: CallerBuffer(edges.baseAddress! + position, count: count),
                       fonts: CallerBuffer(fonts.baseAddress! + position, count: count),
                       hangs: CallerBuffer(hangs.baseAddress! + position, count: count),
                       offset: Int32(position))
    }

    private func withKey<Result>(_ text: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, script: UInt32,
                                 style index: Int, _ body: (ShapedSegmentKey) -> Result) -> Result {
        let key = keys[index]
        return body(ShapedSegmentKey(style: UnsafeBufferPointer(rebasing: keyUnits[key.start..<key.start + key.count]),
                                     styleHash: key.hash, script: script, text: UnsafeBufferPointer(rebasing: text[range])))
    }

    /// The key of `style` in `fonts`, in text of base style and fonts `base`, written
    /// directly (no style copied, no feature list built).
    static func key(style: TextStyle, fonts: FontSet, base: (style: TextStyle, fonts: FontSet)) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(29 + style.fontFeatures.reduce(0) { $0 + $1.utf16.count + 1 })
        func append(_ values: UInt64...) {
            for value in values {
                for part in 0..<4 { units.append(UInt16(truncatingIfNeeded: value >> UInt64(16 * part))) }
            }
        }
        func append(_ feature: String) {
            units.append(contentsOf: feature.utf16)
            units.append(0)
        }
        append(fonts.identity, style.fontSize.bitPattern, UInt64(bitPattern: Int64(style.tabSize)))
        units.append(0xFFFF)
        append(style.letterSpacing.bitPattern, style.wordSpacing.bitPattern, base.fonts.identity,
               base.style.fontSize.bitPattern)
        if style.letterSpacing != 0 { StyledSegmentBuilder.ligaturesOff.forEach(append) }
        style.fontFeatures.forEach(append)
        return units
    }
}
