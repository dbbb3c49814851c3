import CHarfBuzz

/// Builds the segments and clusters of an `AttributedText` (or of plain text with
/// letter or word spacing), as CSS inline layout does for `<span>`s:
///
/// - line-break opportunities come from the whole paragraph, so a style boundary
///   neither adds one nor removes one;
/// - each cluster takes the style of the run its first code unit is in, and its font
///   from that run's font set (fallback stays within the run's set);
/// - shaping is split at style boundaries (no kerning or ligature across two styles);
/// - letter spacing follows every cluster but zero-width controls and line breaks
///   (Blink's `ShapeResultSpacing`, which also adds it at a line's end); word spacing
///   follows every space and no-break space but a space that starts the text;
/// - a placeholder's U+FFFC is as wide as its box.
///
/// Fonts are tracked per *slot*: a font at a size within one run's inline box (or a
/// placeholder's box). A line's font mask then names the inline boxes on it, and
/// `LineBox.enclosing` reaches from the highest to the lowest, slot 0 (the base
/// style's primary font) being the block's strut.
///
/// A segment inside one run with safe breaks on both sides goes through the shape
/// cache, under its run's style (`StyledSegmentCache`); the rest of the text is shaped
/// whole. The plain single-style path (`SegmentBuilder`) is untouched.
struct StyledSegmentBuilder {
    /// A font at a size inside one kind of inline box.
    struct Slot: Sendable {
        var font: Font
        var size: Double
        var box: LineBox
    }

    let attributed: AttributedText
    let shapeCache: ShapeCache?
    private(set) var slots: [Slot]
    /// Each slot's key (few: a linear search costs less than hashing them); an edit
    /// seeds the next preparation with them (`seed(slots:keys:)`).
    private(set) var slotKeys: [SlotKey]
    /// What the build gives `PreparedText`.
    private(set) var built = BuiltSegments()
    /// The base style's ellipsis: its font index is its slot (the base fonts' slots come first).
    let ellipsis: Ellipsis
    /// The runs shaped, in text order (split at bidi levels; `fontIndex` is the slot),
    /// and the style of each (an index into `styles`): what drawing shapes the same way.
    private(set) var shapedRuns: [FontRun] = []
    private(set) var shapedRunStyles: [Int] = []

    struct SlotKey: Hashable, Sendable {
        var font: ObjectIdentifier?
        var size: UInt64
        /// The run whose inline box the slot is in (-1: the base style), for the run's
        /// primary font and line height; a placeholder's slot is its run's alone.
        var run: Int

        /// The run of a slot whose run an edit removed: no cluster asks for it again.
        static let removedRun = -2
    }

    /// The style of each run (base with the run's overrides), index `runs.count` being
    /// the base style.
    let styles: [StyledRunStyle]
    /// Each run's range, apart: reading it from `attributed.runs` copies the run's attributes.
    private let runRanges: [Range<Int>]

    /// For each style, the slot of each of its fonts (-1: none yet): style `s`'s from
    /// `facts[s].slotOfFontStart`, in one array (one allocation, no nested array per cluster).
    private var slotOfFont: [Int16]
    /// What the walk reads of each style per cluster or segment, in one array (each an
    /// array of its own, they were made and freed per text).
    private let facts: [StyleFacts]
    private let hasPlaceholders: Bool

    private struct StyleFacts {
        var slotOfFontStart: Int
        var letterSpacing, wordSpacing: Double
        var placeholder: InlinePlaceholder?
        /// Whether its segments may be cached at all: no placeholder, fonts that spaces separate.
        var isCacheable: Bool
    }
    /// What each segment's end reads of the base style (a copy of the style retains its
    /// strings and arrays).
    private let browserRules: Bool
    private let breakAll: Bool
    private let hyphens: Hyphens

    /// `normalBoxes`: under `.normal` line height, the base fonts' boxes as plain text
    /// has them (`PreparedText.lineBoxes`, memoized per style).
    ///
    /// Slots 0..<n are the base style's fonts in their set's order, so that for text in
    /// the base style a slot is its font's index in `fonts` (placement and the ellipsis
    /// read it so), slot 0 being the primary font, the block's strut on every line.
    ///
    /// Each stored property is computed apart and stored once, none changed once all
    /// are: changed after, the builder was made in place and then copied out (a retain
    /// and a release of each of its arrays).
    init(_ attributed: AttributedText, ellipsis: Ellipsis, normalBoxes: [LineBox], cache: ShapeCache?) {
        let styles = StyledRunStyle.styles(of: attributed, normalBoxes: normalBoxes)
        var facts: [StyleFacts] = [], total = 0
        facts.reserveCapacity(styles.count)
        for style in styles {
            facts.append(StyleFacts(slotOfFontStart: total, letterSpacing: style.style.letterSpacing,
                                    wordSpacing: style.style.wordSpacing, placeholder: style.placeholder,
                                    isCacheable: style.placeholder == nil && style.fonts.spacesSeparateShaping))
            total += style.fonts.fonts.count
        }
        let base = styles[styles.count - 1]
        var slotOfFont = [Int16](repeating: -1, count: total)
        for index in base.slots.indices { slotOfFont[facts[styles.count - 1].slotOfFontStart + index] = Int16(index) }
        self.attributed = attributed
        shapeCache = cache
        self.ellipsis = ellipsis
        self.styles = styles
        runRanges = attributed.runs.map(\.utf16Range)
        self.facts = facts
        self.slotOfFont = slotOfFont
        hasPlaceholders = styles.contains { $0.placeholder != nil }
        browserRules = attributed.style.lineBreakRules == .browser
        breakAll = attributed.style.wordBreak == .breakAll
        hyphens = attributed.style.hyphens
        slots = base.slots
        slotKeys = base.slotKeys
    }

    /// What was built, moved out (`SegmentBuilder.takeBuilt`).
    mutating func takeBuilt() -> BuiltSegments { built.takeAll() }

    /// The base style's slots: its fonts in their set's order, in boxes as plain text's
    /// (`normalBoxes`, under `.normal`) or its fixed height.
    static func baseSlots(style: TextStyle, fonts: FontSet, normalBoxes: [LineBox]) -> (slots: [Slot], keys: [SlotKey]) {
        let fixed: LineBox? = if case .normal = style.lineHeight { nil } else {
            box(of: fonts.primary, style: style, fonts: fonts)
        }
        let slots = fonts.fonts.enumerated().map { index, font in
            Slot(font: font, size: style.fontSize, box: fixed ?? normalBoxes[index])
        }
        return (slots, fonts.fonts.map { SlotKey(font: ObjectIdentifier($0), size: style.fontSize.bitPattern, run: -1) })
    }

    private var baseRun: Int { attributed.runs.count }

    /// Starts from the slots a preparation of the same base style found (an edit's:
    /// its keys' runs already those of `attributed`), so that the clusters prepared
    /// again number their slots as the clusters kept do.
    mutating func seed(slots: [Slot], keys: [SlotKey]) {
        self.slots = slots
        slotKeys = keys
    }

    /// The slot of `font` drawn in run `run` (`baseRun`: outside every run).
    @inline(__always)   // asked per cluster: out of line, a call and a uniqueness check each
    private mutating func slot(_ fontIndex: Int, run: Int) throws(TextMeasureError) -> Int {
        // Most clusters ask again for a slot already found: an array lookup, not a hash.
        let known = slotOfFont[facts[run].slotOfFontStart + fontIndex]
        if known >= 0 { return Int(known) }
        return try firstSlot(fontIndex, run: run)
    }

    /// `slot(_:run:)` the first time it is asked for.
    private mutating func firstSlot(_ fontIndex: Int, run: Int) throws(TextMeasureError) -> Int {
        let slot = try newSlot(fontIndex, run: run)
        slotOfFont[facts[run].slotOfFontStart + fontIndex] = Int16(slot)
        return slot
    }

    /// Whether segment `index` (`range` of `text`, which starts at `origin` of the
    /// attributed text) may go through the shape cache: inside one run of style `style`
    /// (not a placeholder's), short, with a break on each side that is safe in that
    /// style's fonts (`safe`, see `markCacheSafeBreaks`) or is an edge of the run or
    /// paragraph (shaping stops there anyway), and not a space starting the text under
    /// word spacing (which that space does not get). `run` is the first run ending after
    /// the segment's start: runs are not empty, so a style changes exactly where one
    /// starts or ends, found without a search.
    private func isCacheable(_ range: Range<Int>, segment index: Int, style: Int, run: Int,
                             text: UnsafeBufferPointer<UInt16>, origin: Int, safe: ScratchArray<Bool>) -> Bool {
        guard facts[style].isCacheable, range.count <= SegmentBuilder.longestCachedSegment else { return false }
        let lower = origin + range.lowerBound, upper = origin + range.upperBound
        // No run starts or ends inside the segment; whether one ends where it ends.
        let endsStyle: Bool
        if style == baseRun {
            guard run == runRanges.count || runRanges[run].lowerBound >= upper else { return false }
            endsStyle = run < runRanges.count && runRanges[run].lowerBound == upper
        } else {
            guard runRanges[style].upperBound >= upper else { return false }
            endsStyle = runRanges[style].upperBound == upper
        }
        if range.lowerBound == 0 {
            if origin == 0, text[0] == 0x20, facts[style].wordSpacing != 0 { return false }
        } else {
            let startsStyle = run < runRanges.count && runRanges[run].lowerBound == lower
                || run > 0 && runRanges[run - 1].upperBound == lower
            if !startsStyle, !safe[index - 1] { return false }
        }
        return range.upperBound == text.count || endsStyle || safe[index]
    }

    /// Whether each break of `text` (at `origin` of the attributed text) is safe
    /// (`Stretch.isSafeBreak`) in the fonts of the style it lies inside, written to
    /// `safe`: a segment `isCacheable` asks only about a break inside its own style (one
    /// at the style's edge is safe as it is), so each break is asked once, one style's
    /// breaks together, each style's contexts lent once (lent per segment, they were
    /// retained and released around each question). Breaks in a style that is never
    /// cached are left unwritten.
    private func markCacheSafeBreaks(_ breaks: [BreakOpportunity], of text: UnsafeBufferPointer<UInt16>, origin: Int,
                                     into safe: ScratchArray<Bool>) {
        var run = runRanges.partitioningIndex { $0.upperBound > origin }
        var first = 0
        while first < breaks.count {
            let offset = origin + breaks[first].utf16Offset
            while run < runRanges.count, runRanges[run].upperBound <= offset { run += 1 }
            let inRun = run < runRanges.count && runRanges[run].lowerBound < offset
            // The style's stretch ends where its run ends or the next run starts.
            let stretchEnd = run == runRanges.count ? Int.max
                : inRun ? runRanges[run].upperBound : runRanges[run].lowerBound
            var last = first + 1
            while last < breaks.count, origin + breaks[last].utf16Offset < stretchEnd { last += 1 }
            let style = inRun ? run : baseRun
            if facts[style].isCacheable {
                styles[style].fonts.clusterContexts.withUnsafeBufferPointer { contexts in
                    for index in first..<last {
                        safe[index] = Stretch.isSafeBreak(breaks[index], in: text, spacesSeparateShaping: true,
                                                          contexts: contexts)
                    }
                }
            }
            first = last
        }
    }

    private mutating func newSlot(_ fontIndex: Int, run: Int) throws(TextMeasureError) -> Int {
        let style = styles[run]
        let font = style.fonts.fonts[fontIndex], size = style.style.fontSize
        let key = SlotKey(font: ObjectIdentifier(font), size: size.bitPattern, run: run == baseRun ? -1 : run)
        if let slot = slotKeys.firstIndex(of: key) { return slot }
        try addSlot(key, Slot(font: font, size: size, box: style.boxes[fontIndex]))
        return slots.count - 1
    }

    private mutating func placeholderSlot(_ placeholder: InlinePlaceholder, run: Int) throws(TextMeasureError) -> Int {
        let key = SlotKey(font: nil, size: 0, run: run)
        if let slot = slotKeys.firstIndex(of: key) { return slot }
        let above = Int((placeholder.baseline * Double(Units.layoutPerPixel)).rounded())
        let height = Int((placeholder.height * Double(Units.layoutPerPixel)).rounded())
        try addSlot(key, Slot(font: attributed.fonts.primary, size: attributed.style.fontSize,
                              box: LineBox(above: above, below: height - above)))
        return slots.count - 1
    }

    private mutating func addSlot(_ key: SlotKey, _ slot: Slot) throws(TextMeasureError) {
        guard slots.count < FontSet.maximumCount else { throw .tooManyRunFonts(count: slots.count + 1) }
        slotKeys.append(key)
        slots.append(slot)
    }

    /// The box `font` gives its line inside an inline box of `style`: under `normal`,
    /// its own ascent and descent joined with the box's primary font's (each inline
    /// box has its primary font's height, fallback fonts may extend it, as in Blink);
    /// a fixed or multiplied height is the primary font's, whatever the fallback, with
    /// the leading above floored to whole pixels, as Blink splits it
    /// (`NGLineHeightMetrics::AddLeading`): boxes of two fonts then share a baseline
    /// without rounding their line a pixel taller.
    static func box(of font: Font, style: TextStyle, fonts: FontSet) -> LineBox {
        let primary = fonts.primary.metrics
        switch style.lineHeight {
        case .normal:
            let own = LineBox.normal(font.metrics, size: style.fontSize)
            let strut = LineBox.normal(primary, size: style.fontSize)
            return LineBox(above: max(own.above, strut.above), below: max(own.below, strut.below))
        case .fixed(let pixels):
            return fixed(primary, size: style.fontSize, height: Int((pixels * Double(Units.layoutPerPixel)).rounded()))
        case .multiple(let multiple):
            let normal = LineBox.normal(primary, size: style.fontSize).height
            return fixed(primary, size: style.fontSize, height: Int((Double(normal) * multiple).rounded()))
        }
    }

    private static func fixed(_ metrics: FontMetrics, size: Double, height: Int) -> LineBox {
        let rounded = metrics.roundedPixels(at: size)
        let perPixel = Units.layoutPerPixel
        let leading = height - (rounded.ascent + rounded.descent) * perPixel
        let above = rounded.ascent * perPixel + Int((Double(leading) / Double(2 * perPixel)).rounded(.down)) * perPixel
        return LineBox(above: above, below: height - above)
    }

    /// Builds the clusters and segments of `text`, which starts at UTF-16 offset
    /// `origin` of the attributed text (an edit prepares one paragraph) after clusters
    /// whose last script of their own is `script`, with bidi `levels` resolved for it.
    mutating func build(_ text: UnsafeBufferPointer<UInt16>, origin: Int = 0,
                        inheriting script: hb_script_t = HB_SCRIPT_INVALID,
                        levels: BidiLevels? = nil) throws(TextMeasureError) {
        guard !text.isEmpty else { return }
        let breaks = try lineBreaks(text, origin: origin)
        if let levels {
            built.bidi = levels
        } else {
            built.bidi = try BidiLevels.resolve(text, direction: attributed.style.baseWritingDirection)
        }
        try StyledPreparationBuffers.with(utf16Count: text.count, breakCount: breaks.count) { buffers throws(TextMeasureError) in
            try build(text, origin: origin, inheriting: script, breaks: breaks, buffers: buffers)
        }
    }

    /// `build(_:origin:inheriting:levels:)` given the text's breaks and its scratch memory.
    private mutating func build(_ text: UnsafeBufferPointer<UInt16>, origin: Int, inheriting script: hb_script_t,
                                breaks: [BreakOpportunity], buffers: StyledPreparationBuffers) throws(TextMeasureError) {
        for (index, opportunity) in breaks.enumerated() { buffers.breakEnds[index] = Int32(opportunity.utf16Offset) }
        // Written in place, not zeroed and cut after (`Array(repeating:count:)` is a
        // generic entry point that looked the element type up per text).
        var failure: TextMeasureError?
        let ends = [Int32](unsafeUninitializedCapacity: text.count) { out, written in
            do throws(TextMeasureError) {
                written = try Boundaries.clusters(in: text, from: 0, to: text.count,
                                                  forced: UnsafeBufferPointer(buffers.breakEnds.buffer(from: 0,
                                                                                                       count: breaks.count)),
                                                  into: out.baseAddress!)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        let count = ends.count

        // Each cluster's run, slot and script; runs of clusters to shape together. A
        // segment the shape cache answers is taken whole, and not shaped.
        let clusterRuns = buffers.clusterRuns, clusterFonts = buffers.clusterFonts
        let clusterCursive = buffers.clusterCursive
        let clusterSlots = buffers.clusterSlots
        var fontRuns: [FontRun] = []
        fontRuns.reserveCapacity(min(count, 64))   // grown one run at a time, it reallocates several times
        // The run being extended, kept apart until it ends (written back into the array,
        // it was copied and checked for a unique reference per cluster).
        var openRun: FontRun?
        // Right-to-left segments keep ligatures across their graphemes (`LigatureSpans`):
        // only text all left to right is cached.
        let cache = shapeCache.flatMap { cache in
            cache.isEnabled && built.bidi.isLeftToRight ? StyledSegmentCache(cache, styles: styles, utf16Count: text.count) : nil
        }
        var cached = CachedSegments()
        let scripts = ScriptTable.bmp
        var run = runRanges.partitioningIndex { $0.upperBound > origin }
        var lastRealScript = script
        // Neutral clusters before the first script of their own, which they take (as in
        // Chromium, "«…" before Arabic letters is Arabic): marked cursive if it is.
        var leadingNeutrals: [Int] = []
        // Brackets are paired in text with right-to-left levels only, which the cache
        // never serves: a cached segment's spacing must not depend on a bracket before
        // it. (Of the cursive scripts only Mongolian is written left to right; its
        // brackets keep the script before them.)
        var bracketScripts = built.bidi.isLeftToRight ? nil : BracketScripts()
        let cacheSafe = buffers.cacheSafeBreaks
        if cache != nil { markCacheSafeBreaks(breaks, of: text, origin: origin, into: cacheSafe) }
        var nextBreak = 0
        var segment = 0
        var start = 0
        var index = 0
        // The BMP font table of the style of the cluster before, read per cluster.
        var tableStyle = -1
        var bmpFonts: [UInt8] = []
        while index < count {
            let end = Int(ends[index])
            while run < runRanges.count, runRanges[run].upperBound <= origin + start { run += 1 }
            let styleIndex = run < runRanges.count && runRanges[run].contains(origin + start) ? run : baseRun
            clusterRuns[index] = Int32(styleIndex)
            while nextBreak < breaks.count, breaks[nextBreak].utf16Offset < start { nextBreak += 1 }
            // A paragraph starts a run of its own, as in plain text (`FontRuns`): shaping
            // never reaches across a line break.
            let afterMandatory = nextBreak < breaks.count && breaks[nextBreak].isMandatory
                && breaks[nextBreak].utf16Offset == start
            let segmentEnd = breaks[segment].utf16Offset
            if let cache, start == (segment == 0 ? 0 : breaks[segment - 1].utf16Offset),
               isCacheable(start..<segmentEnd, segment: segment, style: styleIndex, run: run, text: text,
                           origin: origin, safe: cacheSafe) {
                let first = scripts.script(of: Scalars.decode(text, at: start).scalar)
                let keyScript = first.isNeutral ? lastRealScript.rawValue : StyledSegmentCache.ownScript
                switch cache.lookUp(text, start..<segmentEnd, script: keyScript, style: styleIndex) {
                case .hit(let hit):
                    // The slots of its fonts are made in the order shaping it would make them.
                    for offset in 0..<Int(hit.graphemeCount) {
                        let fontIndex = Int(cache.fonts[start + offset])
                        clusterRuns[index + offset] = Int32(styleIndex)
                        clusterSlots[index + offset] = UInt8(try slot(fontIndex, run: styleIndex))
                    }
                    cached.hits.append(.init(segment: segment, firstCluster: index, style: styleIndex,
                                             keyScript: keyScript, shaped: hit))
                    lastRealScript = hb_script_t(rawValue: hit.script)
                    index += Int(hit.graphemeCount)
                    start = segmentEnd
                    segment += 1
                    continue
                case .miss(admit: true):
                    cached.admitted.append(.init(segment: segment, firstCluster: index, style: styleIndex,
                                                 keyScript: keyScript, shaped: nil))
                case .miss:
                    break
                }
            }
            if end == segmentEnd { segment += 1 }
            if let placeholder = facts[styleIndex].placeholder {
                clusterSlots[index] = UInt8(try placeholderSlot(placeholder, run: styleIndex))
                start = end
                index += 1
                continue
            }
            if styleIndex != tableStyle {
                tableStyle = styleIndex
                bmpFonts = styles[styleIndex].fonts.bmpFonts
            }
            // One BMP code point (most clusters): its first covering font from the set's table.
            let fontIndex = end == start + 1 && text[start] & 0xF800 != 0xD800
                ? Int(bmpFonts[Int(text[start])])
                : FontItemizer(fontSet: styles[styleIndex].fonts).fontIndex(forCluster: text, start: start, end: end)
            let slot = try self.slot(fontIndex, run: styleIndex)
            clusterSlots[index] = UInt8(slot)
            clusterFonts[index] = UInt8(fontIndex)
            let scalar = Scalars.decode(text, at: start).scalar
            var script = scripts.script(of: scalar)
            if !script.isNeutral, lastRealScript == HB_SCRIPT_INVALID, Self.isCursive(script) {
                for neutral in leadingNeutrals { clusterCursive[neutral] = true }
            }
            // Chromium spaces nothing in a run of a cursive script but spaces: the digits
            // and punctuation among Arabic letters take their run's script, with brackets
            // paired as Blink pairs them (the ")" after a Latin word in Arabic is Arabic).
            let runScript = bracketScripts?.resolve(scalar, own: script)
            if script.isNeutral { script = lastRealScript } else { lastRealScript = script }
            let spacingScript = runScript ?? script
            let unspacedIfCursive = facts[styleIndex].letterSpacing != 0 && !Self.isSpacedInCursiveRuns(text[start])
            if unspacedIfCursive, spacingScript == HB_SCRIPT_INVALID { leadingNeutrals.append(index) }
            clusterCursive[index] = unspacedIfCursive && Self.isCursive(spacingScript)
            // A run's slot belongs to one style run, so runs end at style boundaries too.
            if var last = openRun, last.end == start, last.fontIndex == slot, !afterMandatory,
               script == HB_SCRIPT_INVALID || last.script == HB_SCRIPT_INVALID || script == last.script {
                if last.script == HB_SCRIPT_INVALID { last.script = script }
                last.end = end
                openRun = last
            } else {
                if let openRun { fontRuns.append(openRun) }
                openRun = FontRun(start: start, end: end, fontIndex: slot, script: script)
            }
            if end == segmentEnd, cached.admitted.last?.segment == segment - 1 {
                cached.admitted[cached.admitted.count - 1].scriptAfter = lastRealScript.rawValue
            }
            start = end
            index += 1
        }
        if let openRun { fontRuns.append(openRun) }

        if !built.bidi.isLeftToRight {
            built.bidi.withLevels { levels in
                ends.withUnsafeBufferPointer { ends in
                    BidiRuns.split(&fontRuns, from: 0, clusterEnds: ends, start: 0, levels: levels.baseAddress!)
                }
            }
        }
        shapeAndMeasure(text, origin: origin, ends: ends, breaks: breaks, slots: clusterSlots, fontRuns: fontRuns,
                        cached: cached, cache: cache, buffers: buffers)
    }

    /// Shapes each run in its slot's font with its style's features (`fontRuns`, split
    /// at bidi levels), then measures the clusters (`measure`). `buffers` hold each
    /// cluster's style, font index and whether it is cursive, as the walk over the clusters
    /// found them, and nothing yet of shaping.
    private mutating func shapeAndMeasure(
        _ text: UnsafeBufferPointer<UInt16>, origin: Int, ends: [Int32], breaks: [BreakOpportunity],
        slots clusterSlots: ScratchArray<UInt8>, fontRuns: [FontRun], cached: CachedSegments, cache: StyledSegmentCache?,
        buffers: StyledPreparationBuffers
    ) {
        let advances = buffers.advances.uncheckedBase, edges = buffers.edges.uncheckedBase
        let glyphs = buffers.glyphs.uncheckedBase
        let clusterRuns = buffers.clusterRuns, adjustments = buffers.adjustments
        let scales = slots.map { $0.size * Double(Units.widthPerPixel) / Double($0.font.advanceUnitsPerEm) }
        let fonts = slots.map(\.font)
        let safe = UnsafeBufferPointer(buffers.safeBreaks.buffer(from: 0, count: breaks.count))
        // What the cache gave: its clusters' adjustments, and no glyph cluster across
        // their graphemes (nothing was shaped there).
        if let cache {
            for hit in cached.hits {
                let start = hit.firstCluster == 0 ? 0 : Int(ends[hit.firstCluster - 1])
                for offset in 0..<Int(hit.shaped?.graphemeCount ?? 0) {
                    adjustments[hit.firstCluster + offset] = cache.edges[start + offset]
                }
                for offset in start..<breaks[hit.segment].utf16Offset { edges[offset] = ClusterEdge.starts }
            }
        }
        // The style of each run: the style run of its first cluster.
        let fontRunStyles = fontRuns.map { run in
            Int(clusterRuns[ends.partitioningIndex { Int($0) > run.start }])
        }
        shapedRuns = fontRuns
        shapedRunStyles = fontRunStyles
        ends.withUnsafeBufferPointer { ends in
            breaks.withUnsafeBufferPointer { breaks in
                do {
                    let stretch = Stretch(start: 0, end: text.count, clusterEnds: ends, breaks: breaks, safeBreaks: safe)
                    // Each style's consecutive runs together, as plain text shapes its runs: the
                    // clusters whose nominal glyph no lookup of the font reaches (Chinese,
                    // Japanese, Korean, neutrals) are written without `hb_shape`. The style's
                    // set gives the nominal glyphs: a one-unit cluster's slot holds the set's
                    // font for it (`bmpFonts`).
                    var first = 0
                    var group: [FontRun] = []
                    group.reserveCapacity(fontRuns.count)
                    while first < fontRuns.count {
                        let style = fontRunStyles[first]
                        var last = first + 1
                        while last < fontRuns.count, fontRunStyles[last] == style { last += 1 }
                        let cluster = ends.partitioningIndex { Int($0) > fontRuns[first].start }
                        group.removeAll(keepingCapacity: true)
                        group.append(contentsOf: fontRuns[first..<last])
                        styles[style].shaper.shape(group, of: text,
                                                   clusterEnds: UnsafeBufferPointer(rebasing: ends[cluster...]),
                                                   fonts: styles[style].fonts, fontList: fonts,
                                                   advances: advances, edges: edges, firstGlyphs: glyphs)
                        first = last
                    }
                    // A placeholder is a glyph cluster of its own, never the end of a ligature
                    // (it is not shaped, so nothing else marks where it starts).
                    if hasPlaceholders {
                        for index in ends.indices where facts[Int(clusterRuns[index])].placeholder != nil {
                            edges[index == 0 ? 0 : Int(ends[index - 1])] |= ClusterEdge.starts
                        }
                    }
                    guard LineEdgeWidths.hasInnerEdges(stretch, edges: edges) else { return }
                    let spanning = LineEdgeWidths.splitLigatures(stretch, runs: fontRuns, advances: advances,
                                                                 edges: edges)
                    if spanning, !built.bidi.isLeftToRight {
                        built.ligatures.record(stretch, runs: fontRuns, edges: edges, firstGrapheme: 0)
                    }
                    // One style's runs at a time, each with its own features; boundaries
                    // outside a style's runs keep the adjustments found before.
                    let found = buffers.styleAdjustments
                    for styleIndex in styles.indices where fontRunStyles.contains(styleIndex) {
                        group.removeAll(keepingCapacity: true)
                        for (index, run) in fontRuns.enumerated() where fontRunStyles[index] == styleIndex { group.append(run) }
                        LineEdgeWidths.measure(stretch, of: text, runs: group, advances: advances, edges: edges,
                                               glyphs: glyphs, fonts: fonts, scales: scales,
                                               shaper: styles[styleIndex].shaper, into: found.uncheckedBase)
                        for index in ends.indices where found[index].end != 0 || found[index].start != 0 {
                            adjustments[index] = found[index]
                        }
                    }
                }
            }
        }

        measure(text, origin: origin, ends: ends, breaks: breaks, runs: clusterRuns, slots: clusterSlots,
                cursive: buffers.clusterCursive, advances: advances, edges: UnsafePointer(edges), scales: scales,
                cached: cached, buffers: buffers, cache: cache.map { ($0, buffers.clusterFonts, adjustments) })
        for index in ends.indices where adjustments[index].end != 0 || adjustments[index].start != 0 {
            built.edgeAdjustments.append(adjustments[index], after: Int32(index))
        }
    }

    /// The paragraph's line-break opportunities, found over the whole text (a style
    /// boundary neither adds one nor removes one); under `hyphens: auto` a run with a
    /// `language` of its own hyphenates by that language's patterns (Chromium
    /// hyphenates each text item in its own locale), the rest by the base style's.
    /// `text` starts at `origin` of the attributed text, whose runs' ranges are moved into it.
    private func lineBreaks(_ text: UnsafeBufferPointer<UInt16>, origin: Int) throws(TextMeasureError)
        -> [BreakOpportunity] {
        let base = attributed.style
        var options = base.lineBreakOptions
        guard options.hyphens == .auto, attributed.runs.contains(where: { $0.attributes.language != nil }) else {
            return try Boundaries.lineBreaks(in: text, rules: base.lineBreakRules, options: options)
        }
        options.language = nil
        var breaks = try Boundaries.lineBreaks(in: text, rules: base.lineBreakRules, options: options)
        // Stretches of one language (runs of the same language joined, so that a word
        // half in bold is still one word), each hyphenated alone.
        var stretches: [(range: Range<Int>, language: String?)] = []
        func add(_ range: Range<Int>, _ language: String?) {
            guard !range.isEmpty else { return }
            if let last = stretches.last, last.language == language, last.range.upperBound == range.lowerBound {
                stretches[stretches.count - 1].range = last.range.lowerBound..<range.upperBound
            } else {
                stretches.append((range, language))
            }
        }
        var position = 0
        for run in attributed.runs {
            let lower = min(max(run.utf16Range.lowerBound - origin, 0), text.count)
            let upper = min(max(run.utf16Range.upperBound - origin, 0), text.count)
            add(position..<lower, base.language)
            add(lower..<upper, run.attributes.language ?? base.language)
            position = upper
        }
        add(position..<text.count, base.language)
        for stretch in stretches {
            guard let language = stretch.language, let hyphenator = try Hyphenator.forLanguage(language) else { continue }
            breaks = Boundaries.addingHyphenationPoints(to: breaks, in: text, within: stretch.range, hyphenator: hyphenator)
        }
        return breaks
    }

    /// Scripts whose letters join: Chromium adds no letter spacing to their runs, which
    /// would break the joins, but to the spaces among them.
    private static func isCursive(_ script: hb_script_t) -> Bool {
        switch script {
        case HB_SCRIPT_ARABIC, HB_SCRIPT_SYRIAC, HB_SCRIPT_MONGOLIAN, HB_SCRIPT_NKO, HB_SCRIPT_MANDAIC,
             HB_SCRIPT_ADLAM, HB_SCRIPT_HANIFI_ROHINGYA, HB_SCRIPT_SOGDIAN, HB_SCRIPT_PSALTER_PAHLAVI,
             HB_SCRIPT_MANICHAEAN: true
        default: false
        }
    }

    /// What Blink treats as a space (`Character::TreatAsSpace`): spaced in cursive runs too.
    private static func isSpacedInCursiveRuns(_ unit: UInt16) -> Bool {
        unit == 0x20 || unit == 0xA0 || unit == 0x09 || unit == 0x0A
    }

    /// The features `style` is shaped with: its own, and ligatures off under letter
    /// spacing, as Blink turns them off so that spaced letters stay apart.
    static func features(of style: TextStyle) -> [String] {
        style.letterSpacing == 0 ? style.fontFeatures : ligaturesOff + style.fontFeatures
    }

    /// The features letter spacing adds before a style's own: all of
    /// `font-variant-ligatures: none`, contextual alternates too, as Chromium shapes
    /// letter-spaced text (EB Garamond's `calt` would otherwise narrow an "f" before a letter).
    static let ligaturesOff = ["-liga", "-clig", "-dlig", "-hlig", "-calt"]

    /// Sums cluster widths (advances, spacing, placeholder widths) into segments, as
    /// `SegmentBuilder` does for plain text; takes the segments the cache answered and
    /// stores those it admitted (`cache`: its clusters' font indices in their sets and the
    /// line-edge adjustments; `edges`: HarfBuzz's cluster edges).
    private mutating func measure(_ text: UnsafeBufferPointer<UInt16>, origin: Int, ends: [Int32],
                                  breaks: [BreakOpportunity],
                                  runs clusterRuns: ScratchArray<Int32>, slots clusterSlots: ScratchArray<UInt8>,
                                  cursive clusterCursive: ScratchArray<Bool>,
                                  advances: UnsafePointer<Int32>, edges: UnsafePointer<UInt8>, scales: [Double],
                                  cached: CachedSegments, buffers: StyledPreparationBuffers,
                                  cache: (StyledSegmentCache, fonts: ScratchArray<UInt8>, adjustments: ScratchArray<EdgeAdjustment>)?) {
        let perPixel = Double(Units.widthPerPixel)
        let base = attributed.style
        let spaceWidth = Self.spaceWidth(attributed.fonts.primary, size: base.fontSize)
        let tabWidth = spaceWidth * Double(max(0, base.tabSize))
        var content = 0.0, trailing = 0.0
        var fontMask: UInt64 = 0, fontIndexMask: UInt64 = 0
        var contentEnd: Int32 = 0
        var segment = 0
        var start = 0, segmentStart = 0
        var tabs: [Int32] = []
        var hit = 0, admitted = 0
        // Bound once: a tuple of arrays bound per cluster costs a retain of each.
        let segmentCache = cache?.0, clusterFonts = cache?.fonts
        // Each break's segment, written in place and copied out once (appending checked
        // the array for a unique reference and room per segment).
        let segments = buffers.segments
        var hasSoftHyphens = false
        // A cluster's end and slot are known: its width and whether it hangs are written
        // in place, in scratch memory (an array checks for a unique reference at each
        // write), and copied out once.
        let widths = buffers.widths, hangings = buffers.hangs
        var index = 0
        while index < ends.count {
            if hit < cached.hits.count, cached.hits[hit].firstCluster == index, let cache = segmentCache,
               let shaped = cached.hits[hit].shaped {
                let style = cached.hits[hit].style
                for offset in 0..<Int(shaped.graphemeCount) {
                    if text[offset == 0 ? start : Int(ends[index + offset - 1])] == 0x09 { tabs.append(Int32(index + offset)) }
                    widths[index + offset] = cache.widths[start + offset]
                    hangings[index + offset] = cache.hangs[start + offset]
                }
                var slotMask: UInt64 = 0, bits = shaped.fonts
                while bits != 0 {
                    slotMask |= 1 << UInt64(slotOfFont[facts[style].slotOfFontStart + bits.trailingZeroBitCount])
                    bits &= bits - 1
                }
                index += Int(shaped.graphemeCount)
                segments[segment] = self.segment(text, breaks[segment], start: segmentStart, width: shaped.width,
                                                 trailingWidth: shaped.trailingWidth, fonts: slotMask, graphemeEnd: index,
                                                 contentGraphemeEnd: Int32(index) - shaped.graphemeCount
                                                     + shaped.contentGraphemeCount)
                hasSoftHyphens = hasSoftHyphens || segments[segment].endsWithSoftHyphen
                hit += 1
                segment += 1
                start = breaks[segment - 1].utf16Offset
                segmentStart = start
                contentEnd = Int32(index)
                continue
            }
            let boundary = ends[index]
            let end = Int(boundary)
            let slot = Int(clusterSlots[index])
            let styleIndex = Int(clusterRuns[index])
            let spacing = (letter: facts[styleIndex].letterSpacing, word: facts[styleIndex].wordSpacing)
            let first = text[start]
            // One BMP code point (most clusters), as `SegmentBuilder` measures it: no decoding,
            // no loop over the cluster's units.
            let isOneUnit = end == start + 1 && first & 0xF800 != 0xD800
            let scalar = isOneUnit ? UInt32(first) : Scalars.decode(text, at: start).scalar
            let mandatory = Scalars.isMandatoryBreak(first)
            var width = 0.0
            if hasPlaceholders, let placeholder = facts[styleIndex].placeholder {
                width = placeholder.width * perPixel
            } else if first == 0x09 {
                width = tabWidth
                tabs.append(Int32(index))
            } else if !Scalars.isZeroWidthControl(scalar), !mandatory {
                if isOneUnit {
                    width = Double(advances[start]) * scales[slot]
                } else {
                    var units = 0
                    for offset in start..<end { units += Int(advances[offset]) }
                    width = Double(units) * scales[slot]
                }
            }
            if spacing.letter != 0, !Scalars.isZeroWidthControl(scalar), !mandatory, !clusterCursive[index] {
                // After each glyph cluster, as Chromium spaces: a grapheme HarfBuzz shapes
                // as several (an Indic conjunct with a half form, न्द) is spaced once for each.
                var glyphClusters = 1
                for offset in start + 1..<end where edges[offset] & ClusterEdge.starts != 0 { glyphClusters += 1 }
                width += spacing.letter * perPixel * Double(glyphClusters)
            }
            if first == 0x20 && origin + start > 0 || first == 0xA0 { width += spacing.word * perPixel }
            width = min(max(width, -Double(Int32.max)), Double(Int32.max))
            var hangs = mandatory
            if !hangs {
                if isOneUnit {
                    hangs = Scalars.isHangingSpace(first)
                } else {
                    hangs = true
                    for offset in start..<end where !Scalars.isHangingSpace(text[offset]) { hangs = false; break }
                }
            }
            // Clamped above: rounded without the libm call `Int32(saturating:)` makes
            // (the same rounding, to nearest and ties away from zero).
            widths[index] = width.isNaN ? 0 : Int32(roundedToInt(width))
            hangings[index] = hangs
            if hangs {
                trailing += width
            } else {
                content += trailing + width
                trailing = 0
                contentEnd = Int32(index + 1)
                if width > 0 {
                    fontMask |= 1 << UInt64(slot)
                    if let clusterFonts { fontIndexMask |= 1 << UInt64(clusterFonts[index]) }
                }
            }
            index += 1
            if end == breaks[segment].utf16Offset {
                let firstCluster = segment == 0 ? 0 : Int(segments[segment - 1].graphemeEnd)
                let made = self.segment(text, breaks[segment], start: segmentStart, width: roundedToInt(content),
                                        trailingWidth: roundedToInt(trailing), fonts: fontMask, graphemeEnd: index,
                                        contentGraphemeEnd: contentEnd)
                segments[segment] = made
                hasSoftHyphens = hasSoftHyphens || made.endsWithSoftHyphen
                if admitted < cached.admitted.count, cached.admitted[admitted].segment == segment, let cache {
                    store(cached.admitted[admitted], made, text, segmentStart..<end, firstCluster: firstCluster,
                          fontIndexMask: fontIndexMask, clusters: (ends, widths, hangings), edges: edges, cache: cache)
                    admitted += 1
                }
                segmentStart = end
                segment += 1
                content = 0; trailing = 0; fontMask = 0; fontIndexMask = 0
                contentEnd = Int32(index)
            }
            start = end
        }
        if !tabs.isEmpty {
            built.tabStops = TabStops(interval: roundedToInt(tabWidth), minimum: roundedToInt(spaceWidth / 2), graphemes: tabs)
        }
        built.segments = Array(UnsafeBufferPointer(segments.buffer(from: 0, count: breaks.count)))
        built.hasSoftHyphens = hasSoftHyphens
        built.graphemeEnds = ends
        built.graphemeWidths = Array(UnsafeBufferPointer(widths.buffer(from: 0, count: ends.count)))
        built.graphemeFonts = Array(UnsafeBufferPointer(clusterSlots.buffer(from: 0, count: ends.count)))
        built.graphemeHangs = Array(UnsafeBufferPointer(hangings.buffer(from: 0, count: ends.count)))
    }

    /// The segment ending at `opportunity` (and starting at `start`), its clusters
    /// ending at `graphemeEnd`.
    private func segment(_ text: UnsafeBufferPointer<UInt16>, _ opportunity: BreakOpportunity, start: Int,
                         width: Int, trailingWidth: Int, fonts: UInt64, graphemeEnd: Int,
                         contentGraphemeEnd: Int32) -> Segment {
        let end = opportunity.utf16Offset, last = text[end - 1]
        // The hyphen is looked for here, as `SegmentBuilder` does: most segments end with none.
        return Segment(width: width, trailingWidth: trailingWidth, fonts: fonts, end: Int32(end),
                       graphemeEnd: Int32(graphemeEnd), contentGraphemeEnd: contentGraphemeEnd,
                       isMandatoryBreak: opportunity.isMandatory,
                       endsWithHeldHyphen: browserRules && trailingWidth == 0 && (last == 0x2D || last == 0x2010)
                           && BrowserTailoring.hyphenHoldsAtLineStart(text, at: end - 1, breakAll: breakAll),
                       endsWithSoftHyphen: endsWithSoftHyphen(text, opportunity, start: start))
    }

    /// Stores `segment`, of `range`, just measured, whose clusters start at `firstCluster`
    /// (of `clusters`, the clusters' ends, widths and whether each hangs), when HarfBuzz
    /// found its breaks safe too (shaped with what is around it, nothing at its edges
    /// was unsafe to break).
    private func store(_ entry: CachedSegments.Entry, _ segment: Segment, _ text: UnsafeBufferPointer<UInt16>,
                       _ range: Range<Int>,
                       firstCluster: Int, fontIndexMask: UInt64,
                       clusters: (ends: [Int32], widths: ScratchArray<Int32>, hangs: ScratchArray<Bool>),
                       edges: UnsafePointer<UInt8>,
                       cache: (StyledSegmentCache, fonts: ScratchArray<UInt8>, adjustments: ScratchArray<EdgeAdjustment>)) {
        let (shapeCache, fonts, adjustments) = cache
        guard edges[range.lowerBound] & ClusterEdge.unsafeToBreak == 0,
              edges[range.upperBound] & ClusterEdge.unsafeToBreak == 0 else { return }
        let count = Int(segment.graphemeEnd) - firstCluster
        for offset in 0..<count {
            let cluster = firstCluster + offset, position = range.lowerBound + offset
            shapeCache.ends[position] = clusters.ends[cluster]
            shapeCache.widths[position] = clusters.widths[cluster]
            shapeCache.edges[position] = adjustments[cluster]
            shapeCache.fonts[position] = fonts[cluster]
            shapeCache.hangs[position] = clusters.hangs[cluster]
        }
        let shaped = ShapedSegment(graphemeCount: Int32(count),
                                   contentGraphemeCount: segment.contentGraphemeEnd - Int32(firstCluster),
                                   width: segment.width, trailingWidth: segment.trailingWidth, fonts: fontIndexMask,
                                   script: entry.scriptAfter)
        shapeCache.insert(shaped, text, range, script: entry.keyScript, style: entry.style)
    }

    /// Whether the segment ending at `opportunity` (and starting at `start`) ends at a
    /// hyphenation point or a soft hyphen (one just before a newline too), as
    /// `SegmentBuilder` tells it.
    private func endsWithSoftHyphen(_ text: UnsafeBufferPointer<UInt16>, _ opportunity: BreakOpportunity,
                                    start: Int) -> Bool {
        if opportunity.isHyphenation { return true }
        guard hyphens != .none else { return false }
        var last = opportunity.utf16Offset - 1
        if opportunity.isMandatory {
            while last > start, Scalars.isMandatoryBreak(text[last]) { last -= 1 }
        }
        return text[last] == Hyphen.softHyphen
    }

    /// The advance of `font`'s space at `size`, in width units: the unit of tab widths.
    private static func spaceWidth(_ font: Font, size: Double) -> Double {
        let unitsPerPixel = Double(Units.widthPerPixel)
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font.hbFont, 0x20, &glyph) != 0 else { return size * unitsPerPixel / 4 }
        let advance = Double(hb_font_get_glyph_h_advance(font.hbFont, glyph))
        return advance * size * unitsPerPixel / Double(font.metrics.unitsPerEm)
    }
}

/// The segments of one styled preparation the shape cache answered (`hits`) and those
/// it admitted, to be stored once measured (`admitted`), in text order.
struct CachedSegments {
    struct Entry {
        /// The segment's index, its first cluster's and its style's (see `styles`).
        var segment, firstCluster, style: Int
        var keyScript: UInt32
        /// A hit's segment.
        var shaped: ShapedSegment?
        /// The script the text after an admitted segment inherits.
        var scriptAfter: UInt32 = 0
    }

    var hits: [Entry] = []
    var admitted: [Entry] = []
}
