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
    /// Each style's key and its hash (`ShapedSegmentKey.hash`), made when it is first
    /// looked up in.
    private var keys: [(units: [UInt16], hash: UInt64)?]
    /// Each style and its fonts, and the base style and fonts (tabs are measured in the
    /// base font).
    private let styles: [(style: TextStyle, fonts: FontSet)]
    private let base: (style: TextStyle, fonts: FontSet)
    /// Clusters read or written, each segment's at its start's UTF-16 offset (a
    /// segment has at most as many clusters as code units): ends, widths, edge
    /// adjustments, font indices in the run's set, whether each hangs.
    let ends: UnsafeMutableBufferPointer<Int32>
    let widths: UnsafeMutableBufferPointer<Int32>
    let edges: UnsafeMutableBufferPointer<EdgeAdjustment>
    let fonts: UnsafeMutableBufferPointer<UInt8>
    let hangs: UnsafeMutableBufferPointer<Bool>

    /// The key script of a segment whose first code point has a script of its own.
    static let ownScript = UInt32.max

    init(_ cache: ShapeCache, styles: [(style: TextStyle, fonts: FontSet)],
         base: (style: TextStyle, fonts: FontSet), utf16Count: Int) {
        self.cache = cache
        self.styles = styles
        self.base = base
        keys = Array(repeating: nil, count: styles.count)
        ends = .allocate(capacity: utf16Count)
        widths = .allocate(capacity: utf16Count)
        edges = .allocate(capacity: utf16Count)
        fonts = .allocate(capacity: utf16Count)
        hangs = .allocate(capacity: utf16Count)
    }

    deinit {
        ends.deallocate()
        widths.deallocate()
        edges.deallocate()
        fonts.deallocate()
        hangs.deallocate()
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
        let key = keys[index] ?? makeKey(index)
        return key.units.withUnsafeBufferPointer { units in
            body(ShapedSegmentKey(style: units, styleHash: key.hash, script: script,
                                  text: UnsafeBufferPointer(rebasing: text[range])))
        }
    }

    /// The key of style `index`, written directly (no style copied, no feature list
    /// built): it is made for each style of each text prepared, cold ones included.
    private func makeKey(_ index: Int) -> (units: [UInt16], hash: UInt64) {
        let (style, fonts) = styles[index]
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
        let key = (units, units.withUnsafeBufferPointer { ShapedSegmentKey.hash($0) })
        keys[index] = key
        return key
    }
}
