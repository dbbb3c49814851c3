import Synchronization

/// Text that has been segmented, itemized and shaped once, ready to be laid out
/// at any width by arithmetic alone.
///
/// Everything that does not depend on the width happens here: ICU finds the
/// line-break opportunities and grapheme clusters, each cluster gets its font,
/// HarfBuzz shapes each font run, and the advances are summed into segments.
/// Laying out the result at a width (`layout(width:)`, `TextMeasurer`) reads
/// only these numbers: no ICU, no HarfBuzz, no font lookups, no allocation but the
/// lines (`RelayoutMeasuresNothingTests` counts the calls). Words seen before come
/// from a `ShapeCache` instead of HarfBuzz, with the same result.
///
/// ```swift
/// let prepared = try PreparedText("Hello, wrapping world", style: TextStyle(fontSize: 17))
/// let narrow = try prepared.layout(width: 80)    // re-layout costs only arithmetic
/// let wide = try prepared.layout(width: 300)
/// ```
///
/// Memory: 40 bytes per segment (roughly one per word) plus 10 bytes per grapheme
/// cluster, besides the text itself.
public struct PreparedText: Sendable {
    /// The longest text accepted, in UTF-16 code units (offsets are kept in 32 bits).
    public static let maximumUTF16Count = Limits.maximumUTF16Count

    /// The text as given.
    @inlinable public var text: String { storage.text }
    /// The fonts it is drawn with.
    @inlinable public var fonts: FontSet { storage.fonts }
    /// The style it was prepared with.
    @inlinable public var style: TextStyle { storage.style }
    /// Length of the text in UTF-16 code units.
    @inlinable public var utf16Count: Int { storage.utf16Count }

    @inlinable package var segments: [Segment] { storage.segments }
    /// UTF-16 end offset of every grapheme cluster, in text order. A cluster is
    /// also cut at a line-break opportunity, so segment ends are always among these.
    @inlinable package var graphemeEnds: [Int32] { storage.graphemeEnds }
    /// Width of every grapheme cluster in width units: the places an over-long word may
    /// be broken at and what each piece adds.
    @inlinable package var graphemeWidths: [Int32] { storage.graphemeWidths }
    /// How a line ending after a grapheme (keyed by its index), or the next one
    /// starting there, changes width when the word is broken there (see `LineEdgeWidths`).
    @inlinable package var edgeAdjustments: EdgeAdjustments { storage.edgeAdjustments }
    /// Where tabs advance to (`TabStops`); trailing whitespace with a tab is laid out
    /// against them when more follows on the line.
    @inlinable package var tabStops: TabStops { storage.tabStops }
    /// The font that draws every grapheme cluster (an index into `fonts`), for the
    /// height of a line that holds only part of a segment.
    @inlinable package var graphemeFonts: [UInt8] { storage.graphemeFonts }
    /// For every grapheme cluster, whether it hangs at the end of a line: a space,
    /// a tab or a line break. Character wrapping and truncation break around these.
    @inlinable package var graphemeHangs: [Bool] { storage.graphemeHangs }
    /// The bidi levels and paragraph directions (empty for left-to-right text).
    @inlinable package var bidi: BidiLevels { storage.bidi }
    /// Right-to-left ligatures, whose width placement shares among their graphemes.
    @inlinable package var ligatures: LigatureSpans { storage.ligatures }
    /// "…" as truncation draws it.
    package var ellipsis: Ellipsis { storage.ellipsis }
    /// The hyphen a line ending at a soft hyphen shows.
    @inlinable package var hyphen: Hyphen { storage.hyphen }
    /// The primary font's space, in width units (`SpaceWidth`).
    @inlinable package var spaceWidth: Int { storage.spaceWidth }
    /// For `.normal` line height, the line box of each font in `fonts`; for a fixed
    /// or multiplied height, one box used for every line.
    @inlinable package var lineBoxes: [LineBox] { storage.lineBoxes }
    /// The styled text this was prepared from; `nil` for plain text with no spacing.
    public var attributed: AttributedText? { styledSource?.attributed }
    /// The styled text's source, for an edit and for drawing (`nil` for plain text).
    private var styledSource: StyledSource? { storage.styledSource }
    /// Whether some code point of the text is drawn by no font of the set (and draws
    /// something), as the walk copying it to UTF-16 found: when not, no cluster needs
    /// .notdef (`missingGlyphClusterCount`). An edit keeps it conservative (true when
    /// either the text before it or the part prepared again had one).
    package var mayMissGlyphs: Bool { storage.mayMissGlyphs }
    /// The glyphs drawing shapes once, on first use (empty until then). The store
    /// itself is made on first use too: most prepared texts are measured and never
    /// drawn, and one made with each cost an allocation and a release per text.
    package var glyphStore: GlyphStore {
        storage.glyphStore.load() ?? storage.glyphStore.storeIfNil(GlyphStore())
    }
    /// For text whose bidi levels are all one (which preparation keeps as that level
    /// alone, `BidiLevels.uniformLevel`), every code unit's level as an array for
    /// placement, made on the first placement and kept for the later ones. Lent from
    /// temporary memory instead, they cost each placement its scratch and the line
    /// placer's closures their inlining (+7% a placement); `AtomicLazyReference`'s
    /// generic `load` cost more than the lock.
    package var uniformLevels: [UInt8] {
        storage.placementLevels.withLock { levels in
            if levels.isEmpty { levels = bidi.levels }
            return levels
        }
    }

    /// Everything, behind one reference: a prepared text is immutable, and each of its
    /// arrays held in the struct itself cost every copy (a measurer's, sizing's call into
    /// fitting) an atomic retain and release, and made the struct too large to pass in
    /// registers. The accessors above are inlined so that fitting, in another module,
    /// reads the fields in place (no call, no retain).
    @usableFromInline let storage: Storage

    @usableFromInline final class Storage: Sendable {
        @usableFromInline let text: String
        @usableFromInline let fonts: FontSet
        @usableFromInline let style: TextStyle
        @usableFromInline let utf16Count: Int
        @usableFromInline let segments: [Segment]
        @usableFromInline let graphemeEnds: [Int32]
        @usableFromInline let graphemeWidths: [Int32]
        @usableFromInline let edgeAdjustments: EdgeAdjustments
        @usableFromInline let tabStops: TabStops
        @usableFromInline let graphemeFonts: [UInt8]
        @usableFromInline let graphemeHangs: [Bool]
        @usableFromInline let bidi: BidiLevels
        @usableFromInline let ligatures: LigatureSpans
        let ellipsis: Ellipsis
        @usableFromInline let hyphen: Hyphen
        @usableFromInline let spaceWidth: Int
        @usableFromInline let lineBoxes: [LineBox]
        let styledSource: StyledSource?
        let mayMissGlyphs: Bool
        let glyphStore = AtomicLazyReference<GlyphStore>()
        let placementLevels = Mutex<[UInt8]>([])

        init(text: String, fonts: FontSet, style: TextStyle, utf16Count: Int, segments: [Segment],
             graphemeEnds: [Int32], graphemeWidths: [Int32], edgeAdjustments: EdgeAdjustments, tabStops: TabStops,
             graphemeFonts: [UInt8], graphemeHangs: [Bool], bidi: BidiLevels, ligatures: LigatureSpans,
             ellipsis: Ellipsis, hyphen: Hyphen, spaceWidth: Int, lineBoxes: [LineBox], styledSource: StyledSource?,
             mayMissGlyphs: Bool) {
            self.text = text
            self.fonts = fonts
            self.style = style
            self.utf16Count = utf16Count
            self.segments = segments
            self.graphemeEnds = graphemeEnds
            self.graphemeWidths = graphemeWidths
            self.edgeAdjustments = edgeAdjustments
            self.tabStops = tabStops
            self.graphemeFonts = graphemeFonts
            self.graphemeHangs = graphemeHangs
            self.bidi = bidi
            self.ligatures = ligatures
            self.ellipsis = ellipsis
            self.hyphen = hyphen
            self.spaceWidth = spaceWidth
            self.lineBoxes = lineBoxes
            self.styledSource = styledSource
            self.mayMissGlyphs = mayMissGlyphs
        }
    }

    final class StyledSource: Sendable {
        let attributed: AttributedText
        /// The slots the clusters' fonts index and their keys, for an edit to number
        /// the slots of the clusters it prepares again as preparing afresh would.
        let slots: [StyledSegmentBuilder.Slot]
        let slotKeys: [StyledSegmentBuilder.SlotKey]

        init(_ attributed: AttributedText, slots: [StyledSegmentBuilder.Slot], slotKeys: [StyledSegmentBuilder.SlotKey]) {
            self.attributed = attributed
            self.slots = slots
            self.slotKeys = slotKeys
        }
    }

    /// The styled text's source, for an edit.
    var styled: StyledSource? { styledSource }

    /// Prepares `text` for layout.
    ///
    /// Words seen before are taken from `cache` rather than shaped again (see
    /// `ShapeCache`); the result is the same with any cache or none.
    ///
    /// - Throws: `TextMeasureError` for an invalid style, a text longer than
    ///   `maximumUTF16Count`, an ICU failure, or no fonts (`FontSet.default` built
    ///   without embedded fonts).
    public init(_ text: String, fonts: FontSet = .default, style: TextStyle = TextStyle(),
                cache: ShapeCache? = .shared) throws(TextMeasureError) {
        guard !fonts.fonts.isEmpty else { throw .noFonts }
        try style.validate()
        let fonts = fonts.instances(for: style)
        if style.hasSpacing {
            self = try PreparedText(AttributedText(text, style: style, fonts: fonts), cache: cache)
            return
        }
        let count = text.utf16.count
        guard count <= Self.maximumUTF16Count else { throw .textTooLong(utf16Count: count) }
        var builder = SegmentBuilder(fonts: fonts, style: style, cache: cache)
        // The UTF-16 copy lives only while preparing (on the stack when it is small).
        let findings = try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) {
            utf16 throws(TextMeasureError) in
            let findings = UTF16Transcoding.copy(text[...], into: utf16, drawnBy: fonts)
            if style.whiteSpace == .normal { WhiteSpaceCollapsing.spaceNewlinesAndTabs(utf16) }
            // Text the copy found nothing right to left in keeps no levels, as resolving would find.
            try builder.build(UnsafeBufferPointer(utf16),
                              needsLevels: findings.mayNeedLevels || style.baseWritingDirection == .rightToLeft)
            return findings
        }
        var built = builder.takeBuilt()
        let trimming = style.textSpacingTrim != .spaceAll && fonts.trimsPunctuation
            ? PunctuationTrim.Drawing(fonts: fonts.fonts, size: style.fontSize) : nil
        self.init(text: text, fonts: fonts, style: style, utf16Count: count, built: &built,
                  measures: Self.measures(fonts: fonts, style: style), trimming: trimming,
                  mayMissGlyphs: findings.mayMissGlyphs)
    }

    /// Prepares styled text: runs with their own fonts, sizes, spacing and features,
    /// and inline placeholders (see `AttributedText`, `StyledSegmentBuilder`).
    ///
    /// ```swift
    /// var message = AttributedText("Hello @ana")
    /// try message.setAttributes(TextAttributes(fontSize: 22), utf16Range: 6..<10)
    /// let prepared = try PreparedText(message)
    /// let lines = try prepared.layout(width: 60).lines.count
    /// ```
    ///
    /// A segment inside one run goes through `cache` as plain text's segments do, under
    /// its run's style (shaped and measured the same, to the bit, with or without it);
    /// re-layout is arithmetic as for plain text.
    ///
    /// - Throws: `TextMeasureError` as the plain initializer does, and
    ///   `.tooManyRunFonts` past 64 distinct fonts, sizes and placeholders.
    public init(_ attributed: AttributedText, cache: ShapeCache? = .shared) throws(TextMeasureError) {
        guard !attributed.fonts.fonts.isEmpty else { throw .noFonts }
        try attributed.style.validate()
        // The base fonts as the base style draws them, wherever the builder reads them:
        // the text copied only when they are other fonts (a copy retains each of its parts).
        let fonts = attributed.fonts.instances(for: attributed.style)
        guard fonts.identity == attributed.fonts.identity else {
            var instanced = attributed
            instanced.fonts = fonts
            self = try PreparedText(instanced, cache: cache)
            return
        }
        let style = attributed.style
        let count = attributed.text.utf16.count
        guard count <= Self.maximumUTF16Count else { throw .textTooLong(utf16Count: count) }
        // The base style's ellipsis, hyphen and boxes, measured once per style as for plain text.
        let measures = Self.measures(fonts: fonts, style: style)
        var builder = StyledSegmentBuilder(attributed, ellipsis: measures.ellipsis, normalBoxes: measures.lineBoxes,
                                           cache: cache)
        let findings = try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) {
            utf16 throws(TextMeasureError) in
            let findings = UTF16Transcoding.copy(attributed.text[...], into: utf16, drawnBy: fonts)
            if style.whiteSpace == .normal { WhiteSpaceCollapsing.spaceNewlinesAndTabs(utf16) }
            try builder.build(UnsafeBufferPointer(utf16))
            return findings
        }
        var built = builder.takeBuilt()
        // Each slot's font at its size: the clusters' font indices are slots.
        let trimming = attributed.trimsPunctuation ? PunctuationTrim.Drawing(slots: builder.slots) : nil
        self.init(text: attributed.text, fonts: fonts, style: style, utf16Count: count, built: &built,
                  measures: measures, lineBoxes: builder.slots.map(\.box), trimming: trimming,
                  styledSource: StyledSource(attributed, slots: builder.slots, slotKeys: builder.slotKeys),
                  mayMissGlyphs: findings.mayMissGlyphs)
    }

    /// A prepared text from what a builder built: spaces collapsed under `white-space:
    /// normal`, punctuation trimmed (`trimming`: the fonts it is drawn with, when some
    /// has `halt`) and soft hyphens folded into their segments, then each part moved, not
    /// copied (a copy retained each array, an atomic operation, and the end of `built`
    /// released it again).
    private init(text: String, fonts: FontSet, style: TextStyle, utf16Count count: Int, built: inout BuiltSegments,
                 measures: StyleMeasures, lineBoxes: [LineBox]? = nil, trimming: PunctuationTrim.Drawing? = nil,
                 styledSource: StyledSource? = nil, mayMissGlyphs: Bool) {
        if style.whiteSpace == .normal {
            WhiteSpaceCollapsing.collapse(text, graphemeEnds: built.graphemeEnds, widths: &built.graphemeWidths,
                                          segments: &built.segments)
        }
        if let trimming {
            PunctuationTrim.apply(text, style.textSpacingTrim, fonts: trimming.fonts, scales: trimming.scales, to: &built)
        }
        if built.hasSoftHyphens {
            Hyphen.fold(into: &built.segments, hyphen: measures.hyphen, graphemeWidths: built.graphemeWidths,
                        edgeAdjustments: built.edgeAdjustments)
        }
        self.init(text: text, fonts: fonts, style: style, utf16Count: count,
                  segments: moved(&built.segments, leaving: []),
                  graphemeEnds: moved(&built.graphemeEnds, leaving: []),
                  graphemeWidths: moved(&built.graphemeWidths, leaving: []),
                  edgeAdjustments: moved(&built.edgeAdjustments, leaving: EdgeAdjustments()),
                  tabStops: moved(&built.tabStops, leaving: .none),
                  graphemeFonts: moved(&built.graphemeFonts, leaving: []),
                  graphemeHangs: moved(&built.graphemeHangs, leaving: []),
                  bidi: moved(&built.bidi, leaving: BidiLevels()),
                  ligatures: moved(&built.ligatures, leaving: LigatureSpans()), measures: measures,
                  lineBoxes: lineBoxes, styledSource: styledSource, mayMissGlyphs: mayMissGlyphs)
    }

    /// The style's measures in `fonts` (ellipsis, hyphen, space, line boxes), kept by the font set.
    static func measures(fonts: FontSet, style: TextStyle) -> StyleMeasures {
        fonts.styleMeasures.measures(for: style) {
            StyleMeasures(ellipsis: .measure(fonts: fonts, style: style), hyphen: .measure(fonts: fonts, style: style),
                          spaceWidth: SpaceWidth.measure(fonts: fonts, style: style),
                          lineBoxes: Self.lineBoxes(fonts: fonts, style: style))
        }
    }

    /// A prepared text from its parts: a preparation's, or an edit's (`replacingCharacters`).
    init(text: String, fonts: FontSet, style: TextStyle, utf16Count: Int, segments: [Segment],
         graphemeEnds: [Int32], graphemeWidths: [Int32], edgeAdjustments: EdgeAdjustments, tabStops: TabStops,
         graphemeFonts: [UInt8], graphemeHangs: [Bool], bidi: BidiLevels, ligatures: LigatureSpans,
         measures: StyleMeasures, lineBoxes: [LineBox]? = nil, styledSource: StyledSource? = nil,
         mayMissGlyphs: Bool) {
        // Styled text has a box per slot (`StyledSegmentBuilder`).
        storage = Storage(text: text, fonts: fonts, style: style, utf16Count: utf16Count, segments: segments,
                          graphemeEnds: graphemeEnds, graphemeWidths: graphemeWidths, edgeAdjustments: edgeAdjustments,
                          tabStops: tabStops, graphemeFonts: graphemeFonts, graphemeHangs: graphemeHangs, bidi: bidi,
                          ligatures: ligatures, ellipsis: measures.ellipsis, hyphen: measures.hyphen,
                          spaceWidth: measures.spaceWidth, lineBoxes: lineBoxes ?? measures.lineBoxes,
                          styledSource: styledSource, mayMissGlyphs: mayMissGlyphs)
    }

    /// What a font set measures once per style for the texts prepared with it
    /// (`FontSet.styleMeasures`).
    struct StyleMeasures: Sendable {
        var ellipsis: Ellipsis
        var hyphen: Hyphen
        var spaceWidth: Int
        var lineBoxes: [LineBox]
    }

    private static func lineBoxes(fonts: FontSet, style: TextStyle) -> [LineBox] {
        let primary = fonts.primary.metrics
        switch style.lineHeight {
        case .normal:
            return fonts.fonts.map { LineBox.normal($0.metrics, size: style.fontSize) }
        case .fixed(let pixels):
            return [LineBox.fixed(primary, size: style.fontSize, height: Int((pixels * Double(Units.layoutPerPixel)).rounded()))]
        case .multiple(let multiple):
            let normal = LineBox.normal(primary, size: style.fontSize).height
            return [LineBox.fixed(primary, size: style.fontSize, height: Int((Double(normal) * multiple).rounded()))]
        }
    }

    /// The fonts that draw the visible clusters among `graphemes` (bit i: `fonts[i]`),
    /// as `Segment.fonts` counts them: hanging whitespace and zero-width clusters do not count.
    package func fontMask(graphemes: Range<Int>) -> UInt64 {
        var mask: UInt64 = 0
        for g in graphemes where !graphemeHangs[g] && graphemeWidths[g] > 0 { mask |= 1 << UInt64(graphemeFonts[g]) }
        return mask
    }

    /// The line box of a line whose content uses `fontMask` (the primary font always counts).
    @inlinable   // per line, from fitting and placement
    package func lineBox(fonts fontMask: UInt64) -> LineBox {
        LineBox.enclosing(fonts: fontMask, in: lineBoxes)
    }
}

/// `value`, moved out with `empty` left in its place (no retain, and releasing `empty`
/// later touches no shared count).
@inline(__always)
private func moved<T>(_ value: inout T, leaving empty: T) -> T {
    var taken = empty
    swap(&taken, &value)
    return taken
}
