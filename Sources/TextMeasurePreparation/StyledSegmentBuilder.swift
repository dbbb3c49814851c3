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
/// The plain single-style path (`SegmentBuilder`, with its shape cache) is untouched:
/// styled text is shaped whole, without the cache.
struct StyledSegmentBuilder {
    /// A font at a size inside one kind of inline box.
    struct Slot: Sendable {
        var font: Font
        var size: Double
        var box: LineBox
    }

    let attributed: AttributedText
    private(set) var slots: [Slot] = []
    /// The slot of each key (the base style's fonts, slots 0..<n, have none).
    private(set) var slotKeys: [SlotKey: Int] = [:]
    private(set) var segments: [Segment] = []
    private(set) var graphemeEnds: [Int32] = []
    private(set) var graphemeWidths: [Int32] = []
    private(set) var graphemeFonts: [UInt8] = []
    private(set) var graphemeHangs: [Bool] = []
    private(set) var edgeAdjustments = EdgeAdjustments()
    private(set) var tabStops = TabStops.none
    /// Whether some segment ends at a soft hyphen or hyphenation point.
    private(set) var hasSoftHyphens = false
    private(set) var bidi = BidiLevels()
    private(set) var ligatures = LigatureSpans()
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
    }

    /// The style (base with the run's overrides) and fonts of each run, index `runs.count`
    /// being the base style.
    private let styles: [(style: TextStyle, fonts: FontSet)]

    /// For each style, the slot of each of its fonts (-1: none yet).
    private var slotOfFont: [[Int16]]
    /// Each style's letter and word spacing and placeholder, read per cluster.
    private let spacings: [(letter: Double, word: Double)]
    private let placeholders: [InlinePlaceholder?]

    /// `normalBoxes`: under `.normal` line height, the base fonts' boxes as plain text
    /// has them (`PreparedText.lineBoxes`, memoized per style).
    ///
    /// Slots 0..<n are the base style's fonts in their set's order, so that for text in
    /// the base style a slot is its font's index in `fonts` (placement and the ellipsis
    /// read it so), slot 0 being the primary font, the block's strut on every line.
    init(_ attributed: AttributedText, ellipsis: Ellipsis, normalBoxes: [LineBox]) {
        self.attributed = attributed
        self.ellipsis = ellipsis
        styles = attributed.runs.map { attributed.style(of: $0) } + [attributed.style(of: nil)]
        slotOfFont = styles.map { [Int16](repeating: -1, count: $0.fonts.fonts.count) }
        spacings = styles.map { ($0.style.letterSpacing, $0.style.wordSpacing) }
        placeholders = attributed.runs.map(\.attributes.placeholder) + [nil]
        let (style, fonts) = attributed.style(of: nil)
        let fixed: LineBox? = if case .normal = style.lineHeight { nil } else {
            Self.box(of: fonts.primary, style: style, fonts: fonts)
        }
        slots = fonts.fonts.enumerated().map { index, font in
            Slot(font: font, size: style.fontSize, box: fixed ?? normalBoxes[index])
        }
        slotOfFont[styles.count - 1] = Array(Int16(0)..<Int16(fonts.fonts.count))
    }

    private var baseRun: Int { attributed.runs.count }

    /// Starts from the slots a preparation of the same base style found (an edit's:
    /// its keys' runs already those of `attributed`), so that the clusters prepared
    /// again number their slots as the clusters kept do.
    mutating func seed(slots: [Slot], keys: [SlotKey: Int]) {
        self.slots = slots
        slotKeys = keys
    }

    /// The slot of `font` drawn in run `run` (`baseRun`: outside every run).
    private mutating func slot(_ fontIndex: Int, run: Int) throws(TextMeasureError) -> Int {
        // Most clusters ask again for a slot already found: an array lookup, not a hash.
        let known = slotOfFont[run][fontIndex]
        if known >= 0 { return Int(known) }
        let slot = try newSlot(fontIndex, run: run)
        slotOfFont[run][fontIndex] = Int16(slot)
        return slot
    }

    private mutating func newSlot(_ fontIndex: Int, run: Int) throws(TextMeasureError) -> Int {
        let (style, fonts) = styles[run]
        let font = fonts.fonts[fontIndex]
        let key = SlotKey(font: ObjectIdentifier(font), size: style.fontSize.bitPattern, run: run == baseRun ? -1 : run)
        if let slot = slotKeys[key] { return slot }
        try addSlot(key, Slot(font: font, size: style.fontSize, box: Self.box(of: font, style: style, fonts: fonts)))
        return slots.count - 1
    }

    private mutating func placeholderSlot(_ placeholder: InlinePlaceholder, run: Int) throws(TextMeasureError) -> Int {
        let key = SlotKey(font: nil, size: 0, run: run)
        if let slot = slotKeys[key] { return slot }
        let above = Int((placeholder.baseline * Double(Units.layoutPerPixel)).rounded())
        let height = Int((placeholder.height * Double(Units.layoutPerPixel)).rounded())
        try addSlot(key, Slot(font: attributed.fonts.primary, size: attributed.style.fontSize,
                              box: LineBox(above: above, below: height - above)))
        return slots.count - 1
    }

    private mutating func addSlot(_ key: SlotKey, _ slot: Slot) throws(TextMeasureError) {
        guard slots.count < FontSet.maximumCount else { throw .tooManyRunFonts(count: slots.count + 1) }
        slotKeys[key] = slots.count
        slots.append(slot)
    }

    /// The box `font` gives its line inside an inline box of `style`: under `normal`,
    /// its own ascent and descent joined with the box's primary font's (each inline
    /// box has its primary font's height, fallback fonts may extend it, as in Blink);
    /// a fixed or multiplied height is the primary font's, whatever the fallback, with
    /// the leading above floored to whole pixels, as Blink splits it
    /// (`NGLineHeightMetrics::AddLeading`): boxes of two fonts then share a baseline
    /// without rounding their line a pixel taller.
    private static func box(of font: Font, style: TextStyle, fonts: FontSet) -> LineBox {
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
        let base = attributed.style
        guard !text.isEmpty else { return }

        let breaks = try Boundaries.lineBreaks(in: text, rules: base.lineBreakRules, options: base.lineBreakOptions)
        if let levels { bidi = levels } else { bidi = try BidiLevels.resolve(text, direction: base.baseWritingDirection) }
        let breakEnds = breaks.map { Int32($0.utf16Offset) }
        var ends = [Int32](repeating: 0, count: text.count)
        let count = try breakEnds.withUnsafeBufferPointer { forced throws(TextMeasureError) in
            try ends.withUnsafeMutableBufferPointer { out throws(TextMeasureError) in
                try Boundaries.clusters(in: text, from: 0, to: text.count, forced: forced, into: out.baseAddress!)
            }
        }
        ends.removeLast(text.count - count)

        // Each cluster's run, slot and script; runs of clusters to shape together.
        var clusterRuns = [Int32](repeating: 0, count: count)
        var clusterSlots = [UInt8](repeating: 0, count: count)
        var clusterCursive = [Bool](repeating: false, count: count)
        var fontRuns: [FontRun] = []
        let itemizers = styles.map { FontItemizer(fontSet: $0.fonts) }
        var run = attributed.runs.partitioningIndex { $0.utf16Range.upperBound > origin }
        var lastRealScript = script
        var nextBreak = 0
        var start = 0
        for (index, boundary) in ends.enumerated() {
            let end = Int(boundary)
            while run < attributed.runs.count, attributed.runs[run].utf16Range.upperBound <= origin + start { run += 1 }
            let styleIndex = run < attributed.runs.count && attributed.runs[run].utf16Range.contains(origin + start)
                ? run : baseRun
            clusterRuns[index] = Int32(styleIndex)
            while nextBreak < breaks.count, breaks[nextBreak].utf16Offset < start { nextBreak += 1 }
            let afterMandatory = nextBreak > 0 && breaks[nextBreak - 1].isMandatory && breaks[nextBreak - 1].utf16Offset == start
            if let placeholder = placeholders[styleIndex] {
                clusterSlots[index] = UInt8(try placeholderSlot(placeholder, run: styleIndex))
                start = end
                continue
            }
            let fontIndex = itemizers[styleIndex].fontIndex(for: text, start: start, end: end)
            let slot = try self.slot(fontIndex, run: styleIndex)
            clusterSlots[index] = UInt8(slot)
            var script = ScriptTable.bmp.script(of: Scalars.decode(text, at: start).scalar)
            clusterCursive[index] = spacings[styleIndex].letter != 0 && Self.isCursive(script)
            if script.isNeutral { script = lastRealScript } else { lastRealScript = script }
            // A run's slot belongs to one style run, so runs end at style boundaries too.
            if var last = fontRuns.last, last.end == start, last.fontIndex == slot, !afterMandatory,
               script == HB_SCRIPT_INVALID || last.script == HB_SCRIPT_INVALID || script == last.script {
                if last.script == HB_SCRIPT_INVALID { last.script = script }
                last.end = end
                fontRuns[fontRuns.count - 1] = last
            } else {
                fontRuns.append(FontRun(start: start, end: end, fontIndex: slot, script: script))
            }
            start = end
        }

        // Shape each run in its slot's font with its style's features.
        let shapers = styles.map { Shaper(features: Self.features(of: $0.style)) }
        var advances = [Int32](repeating: 0, count: text.count)
        var edges = [UInt8](repeating: 0, count: text.count + 1)
        var glyphs = [UInt32](repeating: 0, count: text.count)
        var adjustments = [EdgeAdjustment](repeating: EdgeAdjustment(end: 0, start: 0), count: count)
        let scales = slots.map { $0.size * Double(Units.widthPerPixel) / Double($0.font.advanceUnitsPerEm) }
        let fonts = slots.map(\.font)
        let safe = [Bool](repeating: true, count: breaks.count)
        if !bidi.isLeftToRight {
            bidi.levels.withUnsafeBufferPointer { levels in
                ends.withUnsafeBufferPointer { ends in
                    BidiRuns.split(&fontRuns, from: 0, clusterEnds: ends, start: 0, levels: levels.baseAddress!)
                }
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
                safe.withUnsafeBufferPointer { safe in
                    let stretch = Stretch(start: 0, end: text.count, clusterEnds: ends, breaks: breaks, safeBreaks: safe)
                    for (index, fontRun) in fontRuns.enumerated() {
                        shapers[fontRunStyles[index]].shape(fontRun, of: text, with: fonts[fontRun.fontIndex],
                                                            advances: &advances, edges: &edges, firstGlyphs: &glyphs)
                    }
                    // A placeholder is a glyph cluster of its own, never the end of a ligature
                    // (it is not shaped, so nothing else marks where it starts).
                    for (index, run) in clusterRuns.enumerated() where placeholders[Int(run)] != nil {
                        edges[index == 0 ? 0 : Int(ends[index - 1])] |= ClusterEdge.starts
                    }
                    edges.withUnsafeBufferPointer { edges in
                        guard LineEdgeWidths.hasInnerEdges(stretch, edges: edges.baseAddress!) else { return }
                        LineEdgeWidths.splitLigatures(stretch, runs: fontRuns, advances: &advances, edges: edges.baseAddress!)
                        if !bidi.isLeftToRight {
                            ligatures.record(stretch, runs: fontRuns, edges: edges.baseAddress!, firstGrapheme: 0)
                        }
                        // One style's runs at a time, each with its own features; boundaries
                        // outside a style's runs keep the adjustments found before.
                        var found = adjustments
                        for styleIndex in Set(fontRunStyles) {
                            let own = fontRuns.indices.filter { fontRunStyles[$0] == styleIndex }.map { fontRuns[$0] }
                            LineEdgeWidths.measure(stretch, of: text, runs: own, advances: advances,
                                                   edges: edges.baseAddress!, glyphs: glyphs, fonts: fonts,
                                                   scales: scales, shaper: shapers[styleIndex], into: &found)
                            for (index, adjustment) in found.enumerated() where adjustment.end != 0 || adjustment.start != 0 {
                                adjustments[index] = adjustment
                            }
                        }
                    }
                }
            }
        }

        measure(text, origin: origin, ends: ends, breaks: breaks, runs: clusterRuns, slots: clusterSlots,
                cursive: clusterCursive, advances: advances, scales: scales)
        for (index, adjustment) in adjustments.enumerated() where adjustment.end != 0 || adjustment.start != 0 {
            edgeAdjustments.append(adjustment, after: Int32(index))
        }
    }

    /// Scripts whose letters join: Chromium adds no letter spacing to their letters,
    /// which would break the joins (spaces and punctuation among them still get it).
    private static func isCursive(_ script: hb_script_t) -> Bool {
        switch script {
        case HB_SCRIPT_ARABIC, HB_SCRIPT_SYRIAC, HB_SCRIPT_MONGOLIAN, HB_SCRIPT_NKO, HB_SCRIPT_MANDAIC,
             HB_SCRIPT_ADLAM, HB_SCRIPT_HANIFI_ROHINGYA, HB_SCRIPT_SOGDIAN, HB_SCRIPT_PSALTER_PAHLAVI,
             HB_SCRIPT_MANICHAEAN: true
        default: false
        }
    }

    /// The features `style` is shaped with: its own, and common ligatures off under
    /// letter spacing, as Blink turns them off so that spaced letters stay apart.
    static func features(of style: TextStyle) -> [String] {
        style.letterSpacing == 0 ? style.fontFeatures : ["-liga", "-clig"] + style.fontFeatures
    }

    /// Sums cluster widths (advances, spacing, placeholder widths) into segments, as
    /// `SegmentBuilder` does for plain text.
    private mutating func measure(_ text: UnsafeBufferPointer<UInt16>, origin: Int, ends: [Int32], breaks: [BreakOpportunity],
                                  runs clusterRuns: [Int32], slots clusterSlots: [UInt8], cursive clusterCursive: [Bool],
                                  advances: [Int32],
                                  scales: [Double]) {
        let perPixel = Double(Units.widthPerPixel)
        let base = attributed.style
        let spaceWidth = Self.spaceWidth(attributed.fonts.primary, size: base.fontSize)
        let tabWidth = spaceWidth * Double(max(0, base.tabSize))
        var content = 0.0, trailing = 0.0
        var fontMask: UInt64 = 0
        var contentEnd: Int32 = 0
        var segment = 0
        var start = 0, segmentStart = 0
        var tabs: [Int32] = []
        segments.reserveCapacity(breaks.count)
        for (index, boundary) in ends.enumerated() {
            let end = Int(boundary)
            let slot = Int(clusterSlots[index])
            let styleIndex = Int(clusterRuns[index])
            let spacing = spacings[styleIndex]
            let first = text[start]
            let scalar = Scalars.decode(text, at: start).scalar
            let mandatory = Scalars.isMandatoryBreak(first)
            var width = 0.0
            if let placeholder = placeholders[styleIndex] {
                width = placeholder.width * perPixel
            } else if first == 0x09 {
                width = tabWidth
                tabs.append(Int32(index))
            } else if !Scalars.isZeroWidthControl(scalar), !mandatory {
                var units = 0
                for offset in start..<end { units += Int(advances[offset]) }
                width = Double(units) * scales[slot]
            }
            if !Scalars.isZeroWidthControl(scalar), !mandatory, !clusterCursive[index] {
                width += spacing.letter * perPixel
            }
            if first == 0x20 && origin + start > 0 || first == 0xA0 { width += spacing.word * perPixel }
            width = min(max(width, -Double(Int32.max)), Double(Int32.max))
            var hangs = mandatory
            if !hangs {
                hangs = true
                for offset in start..<end where !Scalars.isHangingSpace(text[offset]) { hangs = false; break }
            }
            graphemeEnds.append(boundary)
            graphemeWidths.append(Int32(saturating: width))
            graphemeFonts.append(UInt8(slot))
            graphemeHangs.append(hangs)
            if hangs {
                trailing += width
            } else {
                content += trailing + width
                trailing = 0
                contentEnd = Int32(index + 1)
                if width > 0 { fontMask |= 1 << UInt64(slot) }
            }
            if end == breaks[segment].utf16Offset {
                let trailingWidth = roundedToInt(trailing)
                segments.append(Segment(width: roundedToInt(content), trailingWidth: trailingWidth, fonts: fontMask,
                                        end: boundary, graphemeEnd: Int32(index + 1), contentGraphemeEnd: contentEnd,
                                        isMandatoryBreak: breaks[segment].isMandatory,
                                        endsWithHeldHyphen: base.lineBreakRules == .browser && trailingWidth == 0
                                            && BrowserTailoring.hyphenHoldsAtLineStart(text, at: end - 1),
                                        endsWithSoftHyphen: endsWithSoftHyphen(text, breaks[segment],
                                                                               start: segmentStart)))
                hasSoftHyphens = hasSoftHyphens || segments[segments.count - 1].endsWithSoftHyphen
                segmentStart = end
                segment += 1
                content = 0; trailing = 0; fontMask = 0
                contentEnd = Int32(index + 1)
            }
            start = end
        }
        if !tabs.isEmpty {
            tabStops = TabStops(interval: roundedToInt(tabWidth), minimum: roundedToInt(spaceWidth / 2), graphemes: tabs)
        }
    }

    /// Whether the segment ending at `opportunity` (and starting at `start`) ends at a
    /// hyphenation point or a soft hyphen (one just before a newline too), as
    /// `SegmentBuilder` tells it.
    private func endsWithSoftHyphen(_ text: UnsafeBufferPointer<UInt16>, _ opportunity: BreakOpportunity,
                                    start: Int) -> Bool {
        if opportunity.isHyphenation { return true }
        guard attributed.style.hyphens != .none else { return false }
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
