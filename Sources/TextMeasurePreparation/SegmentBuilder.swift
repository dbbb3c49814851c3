import CHarfBuzz

/// Builds a `PreparedText`'s segments and grapheme clusters: line breaking, then for
/// each segment the shape cache's answer or, for the rest, clusters → font runs →
/// shaping → widths.
///
/// **Safe breaks.** A break opportunity is *safe* when the text before it and the
/// text after it shape the same apart as together: at the ends of the text, after a
/// mandatory break (runs end there), after a space when the font drawing spaces
/// uses the space in no OpenType lookup and what follows is no mark or joiner that
/// HarfBuzz would fold into the space's cluster, between two letters no lookup
/// or kerning pair of their fonts reaches (Chinese, Japanese, Korean), and between two
/// letters of different fonts whose shapers read no context (see `Stretch.isSafeBreak`).
/// A segment with safe breaks on both sides has the same clusters and widths wherever
/// it occurs (given the script it inherits), so it is what the shape cache stores.
///
/// **Stretches.** Segments the cache does not answer are prepared together, a run
/// of consecutive ones at a time: a stretch starts and ends at safe breaks, so
/// shaping it alone gives what shaping the whole text would. With the cache empty
/// or off the whole text is one stretch.
package struct SegmentBuilder {
    let fonts: FontSet
    let style: TextStyle
    let cache: ShapeCache?
    /// What the build gives `PreparedText`.
    private(set) var built = BuiltSegments()
    /// The longest text prepared in one window (`PreparationBuffers`); longer ones go
    /// window by window, with the same results.
    var longestUnwindowedText = PreparationBuffers.longestUnwindowedText

    /// How many UTF-16 units of letters cached one by one, in a row, end a stretch
    /// being shaped (see `SegmentPass.run`): fewer cost more as a stretch of their own
    /// than shaped with the one before.
    static let shortestLetterHitRun = 16
    /// Segments longer than this (in UTF-16 units) are not cached: rare, and large.
    static let longestCachedSegment = 128
    /// The key script of a segment whose first code point has a script of its own,
    /// so that what precedes it does not matter.
    private static let ownScript = UInt32.max
    /// Set in the key script of a segment shaped right to left (its bidi level is odd):
    /// direction changes shaping (mirrored brackets, the order of glyphs), so the two
    /// directions are cached apart. No script tag has this bit (tags are ASCII).
    private static let rightToLeftKeyBit: UInt32 = 1 << 31

    init(fonts: FontSet, style: TextStyle, cache: ShapeCache?) {
        self.fonts = fonts
        self.style = style
        self.cache = cache
    }

    /// What the build gave, moved out of the builder: a copy would retain each of its
    /// arrays and the builder's end release them again, two atomic operations apiece.
    mutating func takeBuilt() -> BuiltSegments { built.takeAll() }

    /// Prepares `text`, whose neutral clusters at the start take `script` (the last
    /// script before it when it is a paragraph of a longer text: `PreparedText.replacingCharacters`,
    /// which resolves its `levels` too). Without `levels`, they are resolved, unless
    /// `needsLevels` is false: the caller knows the text to need none (`PreparedText.init`).
    mutating func build(_ text: UnsafeBufferPointer<UInt16>, inheriting script: hb_script_t = HB_SCRIPT_INVALID,
                        levels: BidiLevels? = nil, needsLevels: Bool = true) throws(TextMeasureError) {
        guard !text.isEmpty else { return }
        // A local, kept in `built` at the end: read through `built` inside the closures
        // below, which write to `built`, it was copied (a retain of each of its arrays).
        let bidi = if let levels { levels } else if needsLevels {
            try BidiLevels.resolve(text, direction: style.baseWritingDirection)
        } else {
            BidiLevels()
        }
        let cache = cache?.isEnabled == true && fonts.spacesSeparateShaping ? cache : nil
        let styleKey = cache == nil ? 0 : StyleKey.count(style)
        let isLeftToRight = bidi.isLeftToRight, uniformLevel = bidi.uniformLevel
        // Written in place by the pass (`PreparationBuffers.segments`), not copied out of scratch.
        var segments: [Segment] = []
        var gathered = Gathered()
        var mayEndWithSoftHyphen = false
        try bidi.withLevels { levels throws(TextMeasureError) in
          try Boundaries.withLineBreaks(in: text, rules: style.lineBreakRules, options: style.lineBreakOptions) {
            breaks throws(TextMeasureError) in
            segments = Self.unwrittenSegments(breaks.count)
            try segments.withUnsafeMutableBufferPointer { segments throws(TextMeasureError) in
                let levels = isLeftToRight ? nil : levels.baseAddress
                // The same pass, specialized for a text of one window (all of chat) apart.
                mayEndWithSoftHyphen = text.count <= longestUnwindowedText
                    ? try prepare(WholeText.self, text, breaks: breaks, levels: levels, uniformLevel: uniformLevel,
                                  inheriting: script, cache: cache, styleKeyCount: styleKey, segments: segments,
                                  gathering: &gathered)
                    : try prepare(MovingWindow.self, text, breaks: breaks, levels: levels, uniformLevel: uniformLevel,
                                  inheriting: script, cache: cache, styleKeyCount: styleKey, segments: segments,
                                  gathering: &gathered)
            }
          }
        }
        // Swapped in, not assigned: no retain of each array and release of the local.
        swap(&built.segments, &segments)
        swap(&built.graphemeEnds, &gathered.ends)
        swap(&built.graphemeWidths, &gathered.widths)
        swap(&built.graphemeFonts, &gathered.fonts)
        swap(&built.graphemeHangs, &gathered.hangs)
        swap(&built.edgeAdjustments, &gathered.adjustments)
        built.hasSoftHyphens = mayEndWithSoftHyphen && built.segments.contains(where: \.endsWithSoftHyphen)
        built.bidi = bidi
    }

    /// Runs the pass over `text` with buffers whose windows have origins of type
    /// `Origin`, and returns whether some segment may end with a soft hyphen.
    private mutating func prepare<Origin: WindowOrigin>(_: Origin.Type, _ text: UnsafeBufferPointer<UInt16>,
                                                        breaks: UnsafeBufferPointer<BreakOpportunity>,
                                                        levels: UnsafePointer<UInt8>?, uniformLevel: UInt8?,
                                                        inheriting script: hb_script_t,
                                                        cache: ShapeCache?, styleKeyCount styleKey: Int,
                                                        segments: UnsafeMutableBufferPointer<Segment>,
                                                        gathering gathered: inout Gathered) throws(TextMeasureError) -> Bool {
        try PreparationBuffers<Origin>.with(text: text, breaks: breaks, fonts: fonts, fontCount: fonts.fonts.count,
                                            styleKeyCount: styleKey, segments: segments,
                                            unwindowed: longestUnwindowedText) { buffers throws(TextMeasureError) in
            var pass = SegmentPass(text: text, breaks: breaks, buffers: buffers, fonts: fonts, style: style,
                                   cache: cache, styleKeyCount: styleKey)
            pass.levels = levels
            pass.uniformLevel = uniformLevel
            try pass.run(inheriting: script, gathering: &gathered)
            built.tabStops = pass.tabStops(graphemeEnds: gathered.ends)
            built.ligatures = pass.ligatures
            return pass.mayEndWithSoftHyphen
        }
    }

    /// `count` segments for the pass to write. Not `Array(repeating:count:)`: that
    /// allocates through a generic entry point of the standard library, which looks the
    /// array's type up at run time (about 420 instructions a text, chat en +0.3%).
    private static func unwrittenSegments(_ count: Int) -> [Segment] {
        var segments: [Segment] = []
        segments.reserveCapacity(count)
        for _ in 0..<count { segments.append(unwritten) }
        return segments
    }

    /// What fills the segments' array until the pass writes each.
    private static let unwritten = Segment(width: 0, trailingWidth: 0, fonts: 0, end: 0, graphemeEnd: 0,
                                           contentGraphemeEnd: 0, isMandatoryBreak: false, endsWithHeldHyphen: false,
                                           endsWithSoftHyphen: false)

    /// The clusters gathered out of the scratch so far, in text order (see `SegmentPass.gather`).
    struct Gathered {
        var ends: [Int32] = []
        var widths: [Int32] = []
        var fonts: [UInt8] = []
        var hangs: [Bool] = []
        var adjustments = EdgeAdjustments()
    }

    /// The font runs preparing `text` without a cache shapes (for the CLI's `PreparationFloor`).
    package static func runs(of text: UnsafeBufferPointer<UInt16>, fonts: FontSet,
                     style: TextStyle) throws(TextMeasureError) -> [FontRun] {
        guard !text.isEmpty else { return [] }
        let breaks = try Boundaries.lineBreaks(in: text, rules: style.lineBreakRules, options: style.lineBreakOptions)
        var segments = Self.unwrittenSegments(breaks.count)
        var gathered = Gathered()
        return try breaks.withUnsafeBufferPointer { breaks throws(TextMeasureError) in
          try segments.withUnsafeMutableBufferPointer { segments throws(TextMeasureError) in
            // Not timed (the floor is the shaping of these runs): one pass for texts of any length.
            try PreparationBuffers<MovingWindow>.with(text: text, breaks: breaks, fonts: fonts, fontCount: fonts.fonts.count,
                                                      styleKeyCount: 0, segments: segments,
                                                      unwindowed: PreparationBuffers.longestUnwindowedText) {
                buffers throws(TextMeasureError) in
                var pass = SegmentPass(text: text, breaks: breaks, buffers: buffers, fonts: fonts, style: style,
                                       cache: nil, styleKeyCount: 0)
                pass.allRuns = []   // with no cache, one stretch per window of the text
                try pass.run(inheriting: HB_SCRIPT_INVALID, gathering: &gathered)
                return pass.allRuns ?? []
            }
          }
        }
    }

    /// One preparation's walk over the segments, with its working memory.
    private struct SegmentPass<Origin: WindowOrigin> {
        let text: UnsafeBufferPointer<UInt16>
        let breaks: UnsafeBufferPointer<BreakOpportunity>
        /// Moved to each window of a long text in turn (`run`).
        var buffers: PreparationBuffers<Origin>
        /// What the pass reads of the style: its scalars, not a copy of the whole
        /// (a copy retains its features and language, and a release ends it).
        let fontSize: Double
        let tabSize: Int
        let hyphens: Hyphens
        /// `lineBreakRules == .browser`, and `wordBreak == .breakAll`.
        let browserRules: Bool
        let breakAll: Bool
        /// Whether some segment may end with a soft hyphen (see `run`): false for most
        /// text, whose segments then skip the test.
        var mayEndWithSoftHyphen = false
        /// The cache, when it is on and the fonts allow caching.
        let cache: ShapeCache?
        /// Holds the font set and its list (`fonts.fonts`, read once: the getter
        /// retains the array at each read), which the pass reads through it rather than
        /// keeping copies of its own (each retained per text, and released).
        let itemizer: FontItemizer
        let shaper: Shaper
        /// What besides the text a cached segment depends on (see `StyleKey`).
        let styleKey: UnsafeBufferPointer<UInt16>
        var styleHash: UInt64 = 0
        var tabWidthCache: Double?
        /// Each code unit's bidi level; nil when all are 0 (runs keep no level then).
        var levels: UnsafePointer<UInt8>?
        /// Their one level when all are the same (`BidiLevels.uniformLevel`): runs and
        /// segments then need no look at them.
        var uniformLevel: UInt8?
        /// The right-to-left ligatures found so far (only text with bidi levels has any).
        var ligatures = LigatureSpans()
        var runs: [FontRun] = []
        /// Every stretch's runs, when asked for (`SegmentBuilder.runs(of:fonts:style:)`).
        var allRuns: [FontRun]?
        /// Hits waiting for the stretch before them to end (see `run`).
        var waitingHits: [ShapedSegment] = []
        /// Clusters and pieces gathered so far.
        var clusterCount: Int32 = 0
        var blockCount = 0

        init(text: UnsafeBufferPointer<UInt16>, breaks: UnsafeBufferPointer<BreakOpportunity>, buffers: PreparationBuffers<Origin>,
             fonts: FontSet, style: TextStyle, cache: ShapeCache?, styleKeyCount: Int) {
            self.text = text
            self.breaks = breaks
            self.buffers = buffers
            styleKey = UnsafeBufferPointer(buffers.styleKey.buffer(from: 0, count: styleKeyCount))
            fontSize = style.fontSize
            tabSize = style.tabSize
            hyphens = style.hyphens
            browserRules = style.lineBreakRules == .browser
            breakAll = style.wordBreak == .breakAll
            self.cache = cache
            itemizer = FontItemizer(fontSet: fonts)
            shaper = Shaper(features: style.fontFeatures)
            if cache != nil {
                StyleKey.write(fonts: fonts, style: style, to: buffers.styleKey.buffer(from: 0, count: buffers.styleKey.count))
                styleHash = ShapedSegmentKey.hash(styleKey)
            }
        }

        /// Walks the segments, taking the cache's answers and preparing the rest in
        /// stretches, and gathers their clusters into `gathered`.
        mutating func run(inheriting script: hb_script_t, gathering gathered: inout Gathered) throws(TextMeasureError) {
            for (index, font) in itemizer.fonts.enumerated() {
                buffers.scales[index] = fontSize * Double(Units.widthPerPixel) / Double(font.advanceUnitsPerEm)
            }
            // A long text goes window by window (`PreparationBuffers`): each ends before
            // the first safe break whose stretch would not fit, and what is pending then
            // is prepared and gathered. Stretches are cut there as a hit from the cache
            // cuts them, at a safe break, so the results are the same.
            let firstWindowEnd = buffers.windowUnits
            // Locals, not properties: read once, not at each break.
            let breakEnds = buffers.breakEnds, admitted = buffers.admitted
            // A segment ends with a soft hyphen only at a hyphenation point, right after
            // one, or (before its line break) at a mandatory break: settled here for the
            // whole text, in the walk over the breaks that is made anyway (and that readies
            // the first window's, as `startWindow` does the others').
            var softHyphenSeen = false
            for (index, opportunity) in breaks.enumerated() {
                if !Origin.moves || opportunity.utf16Offset <= firstWindowEnd {
                    breakEnds[index] = Int32(opportunity.utf16Offset)
                    admitted[index] = false
                }
                softHyphenSeen = softHyphenSeen || opportunity.isHyphenation || opportunity.isMandatory
                    || text[opportunity.utf16Offset - 1] == Hyphen.softHyphen
            }
            mayEndWithSoftHyphen = softHyphenSeen
            // The segment the window moves before (none when the text is one window).
            var windowMove = Origin.moves && firstWindowEnd < text.count ? windowMove(from: 0, end: firstWindowEnd)
                : breaks.count

            // Segments the cache answers are taken; the others gather into stretches.
            var knownScript: hb_script_t? = script   // nil while a stretch is pending
            var stretch: (first: Int, script: hb_script_t)?
            // Hits after a letter (`isAfterLetter`) while a stretch is pending wait here:
            // taking one ends the stretch, and shaping a stretch costs a fixed ~0.5 µs
            // more than a letter does, so they are taken only when enough of them come in a
            // row (or the text ends); otherwise the stretch shapes them too.
            var waiting: (first: Int, units: Int) = (0, 0)
            // Unretained: the pass holds the cache throughout. Read from the pass (which
            // `run` mutates), or from a local, the cache was retained and released again
            // at each segment looked up.
            let lookupCache = cache.map { Unmanaged.passUnretained($0) }
            // Read once: the global's accessor is a call, and it was made per segment.
            let scripts = ScriptTable.bmp
            // Window by window: the loop over a window's segments tests nothing more.
            var first = 0
            while true {
                for index in first..<windowMove {
                    // Most segments of scripts without spaces cannot be cached: that is settled
                    // here, before a call that copies the whole pass (it mutates around it).
                    if let lookupCache, isCacheable(index),
                       case .hit(let hit) = lookUp(index, after: knownScript, in: lookupCache, scripts: scripts) {
                        if stretch != nil, isAfterLetter(index) {
                            if waitingHits.isEmpty { waiting = (index, 0) }
                            waitingHits.append(hit)
                            waiting.units += breaks[index].utf16Offset - start(of: index)
                            knownScript = hb_script_t(rawValue: hit.script)
                            if waiting.units < SegmentBuilder.shortestLetterHitRun { continue }
                        }
                        if let pending = stretch {
                            try prepare(stretch: pending.first..<(waitingHits.isEmpty ? index : waiting.first),
                                        inheriting: pending.script)
                            stretch = nil
                        }
                        if !waitingHits.isEmpty { takeWaitingHits(from: waiting.first) }
                        if waiting.units == 0 || waiting.units < SegmentBuilder.shortestLetterHitRun { take(hit, segment: index) }
                        waiting = (0, 0)
                        knownScript = hb_script_t(rawValue: hit.script)
                        continue
                    }
                    // Too few hits waited: the stretch goes on through them.
                    if !waitingHits.isEmpty { waitingHits.removeAll(keepingCapacity: true) }
                    waiting = (0, 0)
                    if stretch == nil, let knownScript { stretch = (index, knownScript) }
                    knownScript = nil
                }
                let move = windowMove
                guard move < breaks.count else { break }
                // What is pending is prepared, and the window moves to segment `move`.
                if let pending = stretch {
                    try prepare(stretch: pending.first..<(waitingHits.isEmpty ? move : waiting.first),
                                inheriting: pending.script)
                    stretch = nil
                    // After hits, the last hit's script; else the stretch's.
                    if waitingHits.isEmpty { knownScript = buffers.scriptAfter[move - 1] }
                    takeWaitingHits(from: waiting.first)
                    waiting = (0, 0)
                }
                gather(into: &gathered)
                buffers = buffers.window(from: breaks[move - 1].utf16Offset, segment: move)
                blockCount = 0
                windowMove = self.windowMove(from: move, end: startWindow(at: move))
                first = move
            }
            if let pending = stretch {
                try prepare(stretch: pending.first..<(waitingHits.isEmpty ? breaks.count : waiting.first),
                            inheriting: pending.script)
                takeWaitingHits(from: waiting.first)
            }
            gather(into: &gathered)
        }

        /// The first segment after a safe break, past the window's first segment `first`,
        /// whose text up to the next safe break does not fit before `end`: the window
        /// moves to it (`breaks.count` when none, the text's end being in the window).
        private func windowMove(from first: Int, end: Int) -> Int {
            var start = first   // the segment after the last safe break passed
            for index in first..<breaks.count where buffers.safeBreaks[index] {
                if breaks[index].utf16Offset > end { return start }
                start = index + 1
            }
            return breaks.count
        }

        /// Readies the per-break arrays of the window that starts with segment `first`
        /// (its breaks' offsets, none admitted yet) and returns the offset the window ends at.
        private func startWindow(at first: Int) -> Int {
            let end = breaks[first - 1].utf16Offset + buffers.windowUnits
            var index = first
            while index < breaks.count, breaks[index].utf16Offset <= end {
                buffers.breakEnds[index] = Int32(breaks[index].utf16Offset)
                buffers.admitted[index] = false
                index += 1
            }
            return end
        }

        /// Appends the clusters of the window's pieces to `gathered`, in text order.
        /// The arrays are reserved once: for the exact count when the text is one
        /// window, else for the most clusters it can have (one per code unit), so that
        /// no growth doubles them.
        private func gather(into gathered: inout Gathered) {
            let blocks = UnsafeBufferPointer(buffers.blocks.buffer(from: 0, count: blockCount))
            let capacity = Origin.moves && buffers.windowUnits < text.count ? text.count : Int(clusterCount)
            var index = Int32(gathered.ends.count)
            Self.gather(buffers.clusterEnds, blocks, into: &gathered.ends, capacity: capacity)
            Self.gather(buffers.clusterWidths, blocks, into: &gathered.widths, capacity: capacity)
            Self.gather(buffers.fontForCluster, blocks, into: &gathered.fonts, capacity: capacity)
            Self.gather(buffers.clusterHangs, blocks, into: &gathered.hangs, capacity: capacity)
            // The nonzero adjustments, keyed by cluster index in text order.
            for block in blocks {
                for i in 0..<Int(block.count) {
                    let adjustment = buffers.clusterEdges[Int(block.position) + i]
                    if adjustment.end != 0 || adjustment.start != 0 { gathered.adjustments.append(adjustment, after: index) }
                    index += 1
                }
            }
        }

        /// The pieces `blocks` of `sparse`, appended one after the other to `dense`.
        ///
        /// Not `Array(unsafeUninitializedCapacity:)`: that allocates through a generic
        /// entry point of the standard library, which looks the array's type up at run
        /// time on every call, as long as the rest of a short text's gathering.
        private static func gather<T>(_ sparse: WindowArray<T, Origin>, _ blocks: UnsafeBufferPointer<(position: Int32, count: Int32)>,
                                      into dense: inout [T], capacity: Int) {
            if dense.isEmpty { dense.reserveCapacity(capacity) }
            for block in blocks {
                dense.append(contentsOf: sparse.buffer(from: Int(block.position), count: Int(block.count)))
            }
        }

        /// Takes the hits that waited, segments `first...`.
        private mutating func takeWaitingHits(from first: Int) {
            for (offset, hit) in waitingHits.enumerated() { take(hit, segment: first + offset) }
            waitingHits.removeAll(keepingCapacity: true)
        }

        /// Whether segment `index` follows a letter, not a space or a line break: a
        /// break `Stretch.isSafeBreak` finds safe between two letters.
        private func isAfterLetter(_ index: Int) -> Bool {
            index > 0 && !breaks[index - 1].isMandatory && text[start(of: index) - 1] != 0x20
        }

        private func start(of segment: Int) -> Int { segment == 0 ? 0 : breaks[segment - 1].utf16Offset }

        /// Whether segment `index` may be cached: safe breaks on both sides, short, and
        /// (with bidi levels) of one level, so that it is shaped in one direction.
        private func isCacheable(_ index: Int) -> Bool {
            (index == 0 || buffers.safeBreaks[index - 1]) && buffers.safeBreaks[index]
                && breaks[index].utf16Offset - start(of: index) <= SegmentBuilder.longestCachedSegment
                && hasOneLevel(index)
        }

        private func hasOneLevel(_ index: Int) -> Bool {
            guard let levels, uniformLevel == nil else { return true }
            let start = start(of: index), level = levels[start]
            for offset in start..<breaks[index].utf16Offset where levels[offset] != level { return false }
            return true
        }

        /// Whether segment `index` (of one level) is shaped right to left.
        private func isRightToLeft(_ index: Int) -> Bool {
            levels.map { $0[start(of: index)] & 1 == 1 } ?? false
        }

        /// The script part of a segment's key: its own, or the one it inherits
        /// (`nil` when that is not known yet).
        @inline(__always)   // likewise
        private func keyScript(_ index: Int, after script: hb_script_t?, scripts: ScriptTable) -> UInt32? {
            let first = scripts.script(of: Scalars.decode(text, at: start(of: index)).scalar)
            if !first.isNeutral {
                return SegmentBuilder.ownScript
            }
            return script?.rawValue
        }

        private func text(of index: Int) -> UnsafeBufferPointer<UInt16> {
            UnsafeBufferPointer(rebasing: text[start(of: index)..<breaks[index].utf16Offset])
        }

        /// Segment `index`, which `isCacheable`, from the cache, its clusters written
        /// where it starts; a miss the cache admits is marked for `store`.
        @inline(__always)   // out of line, a call on the pass itself took a copy of the whole pass
        private func lookUp(_ index: Int, after script: hb_script_t?, in cache: Unmanaged<ShapeCache>,
                            scripts: ScriptTable) -> ShapeCache.Lookup? {
            guard var keyScript = keyScript(index, after: script, scripts: scripts) else { return nil }
            if isRightToLeft(index) { keyScript ^= SegmentBuilder.rightToLeftKeyBit }
            let start = start(of: index)
            let key = ShapedSegmentKey(style: styleKey, styleHash: styleHash, script: keyScript, text: text(of: index))
            let clusters = ClusterBuffers(buffers, at: start, count: text(of: index).count, offset: Int32(start))
            let found = cache._withUnsafeGuaranteedRef { $0.lookup(key, into: clusters) }
            if case .miss(admit: true) = found {
                buffers.admitted[index] = true
                buffers.keyHashes[index] = key.hash
                buffers.keyScripts[index] = keyScript
            }
            return found
        }

        /// Inlined into `run`, which takes most segments of a warm text here.
        @inline(__always)
        private mutating func take(_ hit: ShapedSegment, segment index: Int) {
            appendBlock(at: Int32(start(of: index)), count: hit.graphemeCount)
            buffers.segments[index] = Segment(width: hit.width, trailingWidth: hit.trailingWidth, fonts: hit.fonts,
                                              end: Int32(breaks[index].utf16Offset),
                                              graphemeEnd: clusterCount + hit.graphemeCount,
                                              contentGraphemeEnd: clusterCount + hit.contentGraphemeCount,
                                              isMandatoryBreak: breaks[index].isMandatory,
                                              endsWithHeldHyphen: endsWithHeldHyphen(index, trailingWidth: hit.trailingWidth),
                                              endsWithSoftHyphen: endsWithSoftHyphen(index))
            if hit.ligatures != 0 { ligatures.append(continuing: hit.ligatures, firstGrapheme: clusterCount) }
            clusterCount += hit.graphemeCount
        }

        /// Records that `count` clusters were written at `position`. A piece that starts
        /// where the last one ends (one code unit per cluster: most text taken from the
        /// cache) extends it, so that gathering copies one block, not one per segment.
        @inline(__always)
        private mutating func appendBlock(at position: Int32, count: Int32) {
            if blockCount > 0, buffers.blocks[blockCount - 1].position + buffers.blocks[blockCount - 1].count == position {
                buffers.blocks[blockCount - 1].count += count
                return
            }
            buffers.blocks[blockCount] = (position, count)
            blockCount += 1
        }

        /// Clusters, itemizes, shapes and measures the segments `range`, and caches those it may.
        private mutating func prepare(stretch range: Range<Int>, inheriting script: hb_script_t) throws(TextMeasureError) {
            let start = start(of: range.lowerBound), end = breaks[range.upperBound - 1].utf16Offset
            let count = try Boundaries.clusters(in: text, from: start, to: end,
                                                forced: UnsafeBufferPointer(start: buffers.breakEnds + range.lowerBound,
                                                                            count: range.count),
                                                into: buffers.clusterEnds + start)
            let stretch = Stretch(start: start, end: end,
                                  clusterEnds: UnsafeBufferPointer(start: buffers.clusterEnds + start, count: count),
                                  breaks: UnsafeBufferPointer(rebasing: breaks[range]),
                                  safeBreaks: UnsafeBufferPointer(start: buffers.safeBreaks + range.lowerBound,
                                                                  count: range.count))
            runs.removeAll(keepingCapacity: true)
            itemizer.itemize(stretch, of: text, inheriting: script, fontForCluster: buffers.fontForCluster + start,
                             scriptAfter: buffers.scriptAfter + range.lowerBound, runs: &runs)
            if let levels {
                BidiRuns.split(&runs, from: 0, clusterEnds: stretch.clusterEnds, start: start, levels: levels,
                               uniformLevel: uniformLevel)
            }
            if allRuns != nil { allRuns?.append(contentsOf: runs) }

            // Per code unit from the stretch's start: the callees index by text offset from `start`.
            let advances = buffers.advances + start, edges = buffers.edges + start, glyphs = buffers.firstGlyphs + start
            advances.update(repeating: 0, count: end - start)
            edges.update(repeating: 0, count: end - start + 1)
            shaper.shape(runs, of: text, clusterEnds: stretch.clusterEnds, fonts: itemizer.fontSet, fontList: itemizer.fonts,
                         advances: advances, edges: edges, firstGlyphs: glyphs, origin: start)
            // Whether a glyph cluster spans a grapheme boundary (never without inner edges).
            var spanning = false
            if LineEdgeWidths.hasInnerEdges(stretch, edges: edges, origin: start) {
                spanning = LineEdgeWidths.splitLigatures(stretch, runs: runs, advances: advances, edges: edges, origin: start)
                // Arabic flags most boundaries unsafe to break, but few stretches hold a ligature.
                if spanning, levels != nil {
                    ligatures.record(stretch, runs: runs, edges: edges, origin: start, firstGrapheme: clusterCount)
                }
                LineEdgeWidths.measure(stretch, of: text, runs: runs, advances: advances, edges: edges, glyphs: glyphs,
                                       fonts: itemizer.fonts, scales: buffers.scales.uncheckedBase,
                                       shaper: shaper, into: buffers.clusterEdges + start, origin: start)
            } else {
                (buffers.clusterEdges + start).update(repeating: EdgeAdjustment(end: 0, start: 0), count: count)
            }

            let first = clusterCount
            measure(stretch, segments: range)

            appendBlock(at: Int32(start), count: Int32(count))
            if cache != nil { store(range, firstCluster: first, position: start, spanning: spanning) }
        }

        /// Sums each cluster's advances into its width, and the widths into segments.
        /// Widths are summed in `Double` and rounded to width units per cluster and per
        /// segment; a segment's trailing spaces, tabs and line breaks are kept apart.
        private mutating func measure(_ stretch: Stretch, segments range: Range<Int>) {
            // Locals, not properties: writes through the buffers could alias `self`. The
            // stretch's clusters, and its code units' advances, from its start.
            let scales = buffers.scales, segments = buffers.segments, count = stretch.clusterEnds.count
            let advances = buffers.advances.buffer(from: stretch.start, count: stretch.end - stretch.start)
            let widths = buffers.clusterWidths.buffer(from: stretch.start, count: count)
            let fonts = buffers.fontForCluster.buffer(from: stretch.start, count: count)
            let hangingClusters = buffers.clusterHangs.buffer(from: stretch.start, count: count)
            var clusters = clusterCount
            var content = 0.0, trailing = 0.0
            var fontMask: UInt64 = 0
            var contentEnd = clusters
            var segment = range.lowerBound
            var segmentEnd = breaks[segment].utf16Offset
            var start = stretch.start
            for (index, boundary) in stretch.clusterEnds.enumerated() {
                let end = Int(boundary)
                let fontIndex = Int(fonts[index])
                let first = text[start]
                var width = 0.0
                let hangs: Bool
                if end == start + 1, first & 0xF800 != 0xD800 {
                    // One BMP code point: most clusters.
                    if first == 0x09 {
                        width = tabWidth()
                    } else if !Scalars.isZeroWidthControl(UInt32(first)) {
                        width = Double(advances[start - stretch.start]) * scales[fontIndex]
                    }
                    hangs = Scalars.isHangingSpace(first) || Scalars.isMandatoryBreak(first)
                } else {
                    if first == 0x09 {
                        width = tabWidth()
                    } else if !Scalars.isZeroWidthControl(Scalars.decode(text, at: start).scalar) {
                        var units = 0
                        for offset in start..<end { units += Int(advances[offset - stretch.start]) }
                        width = Double(units) * scales[fontIndex]
                    }
                    hangs = Scalars.isMandatoryBreak(first) || isHangingWhitespace(start, end)
                }
                // Saturate absurd widths (a huge size times a font's huge advances, summed over
                // a long cluster) so that rounding cannot trap and no sum over the text overflows.
                width = min(max(width, -Double(Int32.max)), Double(Int32.max))
                widths[index] = Int32(saturating: width)
                hangingClusters[index] = hangs
                clusters += 1

                if hangs {
                    trailing += width
                } else {
                    content += trailing + width
                    trailing = 0
                    contentEnd = clusters
                    if width > 0 { fontMask |= 1 << UInt64(fontIndex) }
                }

                if end == segmentEnd {
                    let trailingWidth = roundedToInt(trailing)
                    segments[segment] = Segment(width: roundedToInt(content), trailingWidth: trailingWidth,
                                                fonts: fontMask, end: boundary, graphemeEnd: clusters,
                                                contentGraphemeEnd: contentEnd,
                                                isMandatoryBreak: breaks[segment].isMandatory,
                                                endsWithHeldHyphen: endsWithHeldHyphen(segment,
                                                                                       trailingWidth: trailingWidth),
                                                endsWithSoftHyphen: endsWithSoftHyphen(segment))
                    segment += 1
                    if segment < range.upperBound { segmentEnd = breaks[segment].utf16Offset }
                    content = 0; trailing = 0; fontMask = 0
                    contentEnd = clusters
                }
                start = end
            }
            clusterCount = clusters
        }

        /// Whether segment `index` ends with a hyphen that, starting a line, holds on
        /// to what follows (`BrowserTailoring.hyphenHoldsAtLineStart`): browser rules only.
        /// Inlined, like `endsWithSoftHyphen`: out of line, each call took a copy of the whole pass.
        /// The hyphen itself is looked for here: most segments end with none, and the
        /// call into Segmentation is then not made.
        @inline(__always)
        private func endsWithHeldHyphen(_ index: Int, trailingWidth: Int) -> Bool {
            let last = text[breaks[index].utf16Offset - 1]
            return browserRules && trailingWidth == 0 && (last == 0x2D || last == 0x2010)
                && BrowserTailoring.hyphenHoldsAtLineStart(text, at: breaks[index].utf16Offset - 1, breakAll: breakAll)
        }

        /// Whether segment `index` ends at a soft hyphen, the break a hyphen shows at,
        /// or with a soft hyphen just before its newline (Chromium draws that hyphen too).
        @inline(__always)
        private func endsWithSoftHyphen(_ index: Int) -> Bool {
            guard mayEndWithSoftHyphen else { return false }
            if breaks[index].isHyphenation { return true }
            guard hyphens != .none else { return false }
            var last = breaks[index].utf16Offset - 1
            if breaks[index].isMandatory {
                let start = start(of: index)
                while last > start, Scalars.isMandatoryBreak(text[last]) { last -= 1 }
            }
            return text[last] == Hyphen.softHyphen
        }

        /// The tab stops of the text whose clusters end at `graphemeEnds`.
        mutating func tabStops(graphemeEnds: [Int32]) -> TabStops {
            var tabs: [Int32] = []
            var start = 0
            for (index, end) in graphemeEnds.enumerated() {
                if text[start] == 0x09 { tabs.append(Int32(index)) }
                start = Int(end)
            }
            guard !tabs.isEmpty else { return .none }
            let space = spaceWidth()
            return TabStops(interval: roundedToInt(tabWidth()), minimum: roundedToInt(space / 2), graphemes: tabs)
        }

        /// The width of a tab: `tabSize` spaces of the primary font.
        private mutating func tabWidth() -> Double {
            if let tabWidth = tabWidthCache { return tabWidth }
            let width = spaceWidth() * Double(max(0, tabSize))
            tabWidthCache = width
            return width
        }

        /// Caches the segments of a prepared stretch that the cache admitted (looked
        /// up before, with safe breaks on both sides), when HarfBuzz confirms those
        /// breaks inside the stretch and their text settles the script that follows.
        /// `spanning`: whether a glyph cluster of the stretch spans a grapheme boundary.
        private func store(_ range: Range<Int>, firstCluster: Int32, position: Int, spanning: Bool) {
            guard let cache else { return }
            for index in range where buffers.admitted[index] && buffers.scriptAfter[index] != HB_SCRIPT_INVALID {
                let start = start(of: index), end = breaks[index].utf16Offset
                if index > range.lowerBound, buffers.edges[start] & ClusterEdge.unsafeToBreak != 0 { continue }
                if index < range.upperBound - 1, buffers.edges[end] & ClusterEdge.unsafeToBreak != 0 { continue }
                let key = ShapedSegmentKey(style: styleKey, script: buffers.keyScripts[index], text: text(of: index),
                                           hash: buffers.keyHashes[index])
                let firstOfSegment = index == range.lowerBound ? firstCluster : buffers.segments[index - 1].graphemeEnd
                let segment = buffers.segments[index]
                let sparse = position + Int(firstOfSegment - firstCluster)
                // Right-to-left ligatures across graphemes go with the segment (for
                // `LigatureSpans`), as `LigatureSpans.record` found them: a segment with
                // one that runs over its ends, or past 64 graphemes, is not cached.
                var ligatures: UInt64 = 0
                if isRightToLeft(index) {
                    guard let found = ligatureBits(clusterEnds: sparse..<(sparse + Int(segment.graphemeEnd - firstOfSegment)),
                                                   start: start, end: end,
                                                   stretchEnd: breaks[range.upperBound - 1].utf16Offset,
                                                   spanning: spanning) else { continue }
                    ligatures = found
                }
                let shaped = ShapedSegment(graphemeCount: segment.graphemeEnd - firstOfSegment,
                                           contentGraphemeCount: segment.contentGraphemeEnd - firstOfSegment,
                                           width: segment.width, trailingWidth: segment.trailingWidth,
                                           fonts: segment.fonts, script: buffers.scriptAfter[index].rawValue,
                                           ligatures: ligatures)
                cache.insert(key, shaped, from: ClusterBuffers(buffers, at: sparse, count: Int(shaped.graphemeCount),
                                                               offset: Int32(start)))
            }
        }

        /// The right-to-left segment `start..<end`'s ligatures as `ShapedSegment.ligatures`
        /// (bit i: no glyph cluster starts at the end of its grapheme i), from its cluster
        /// ends at `clusterEnds` (sparse positions); nil when a glyph cluster spans its start
        /// or its end (inside the stretch, which ends at `stretchEnd`) or a ligature lies
        /// past its 64th grapheme. Without `spanning` (no glyph cluster of the stretch spans
        /// a grapheme boundary) only its start, maybe the stretch's, is left to test.
        private func ligatureBits(clusterEnds: Range<Int>, start: Int, end: Int, stretchEnd: Int,
                                  spanning: Bool) -> UInt64? {
            if buffers.edges[start] & ClusterEdge.starts == 0 { return nil }
            guard spanning else { return 0 }
            if end < stretchEnd, buffers.edges[end] & ClusterEdge.starts == 0 { return nil }
            var bits: UInt64 = 0
            for (i, position) in clusterEnds.enumerated() {
                let boundary = Int(buffers.clusterEnds[position])
                guard boundary < end, buffers.edges[boundary] & ClusterEdge.starts == 0 else { continue }
                if i >= 64 { return nil }
                bits |= 1 << UInt64(i)
            }
            return bits
        }

        private func isHangingWhitespace(_ start: Int, _ end: Int) -> Bool {
            for offset in start..<end where !Scalars.isHangingSpace(text[offset]) { return false }
            return true
        }

        /// The advance of the primary font's space, in width units: the unit of tab widths.
        private func spaceWidth() -> Double {
            let font = itemizer.fonts[0]   // the primary
            let unitsPerPixel = Double(Units.widthPerPixel)
            var glyph: hb_codepoint_t = 0
            guard hb_font_get_nominal_glyph(font.hbFont, 0x20, &glyph) != 0 else { return fontSize * unitsPerPixel / 4 }
            let advance = Double(hb_font_get_glyph_h_advance(font.hbFont, glyph))
            return advance * fontSize * unitsPerPixel / Double(font.metrics.unitsPerEm)
        }
    }
}

/// The style part of a shape cache key, as UTF-16 code units: the font set's
/// identity, the font size, the tab size, then each feature string and a 0.
package enum StyleKey {
    static func count(_ style: TextStyle) -> Int {
        12 + style.fontFeatures.reduce(0) { $0 + $1.utf16.count + 1 }
    }

    static func write(fonts: FontSet, style: TextStyle, to key: UnsafeMutableBufferPointer<UInt16>) {
        var position = 0
        func append(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 16) {
                key[position] = UInt16(truncatingIfNeeded: value >> UInt64(shift))
                position += 1
            }
        }
        append(fonts.identity)
        append(style.fontSize.bitPattern)
        append(UInt64(bitPattern: Int64(style.tabSize)))
        for feature in style.fontFeatures {
            for unit in feature.utf16 {
                key[position] = unit
                position += 1
            }
            key[position] = 0
            position += 1
        }
    }
}
