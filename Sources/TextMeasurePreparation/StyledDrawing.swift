/// What drawing styled text needs of its preparation: the runs as they were shaped
/// (split at font, script, style and bidi level), each with its slot's font and size
/// and its style's features, so that glyphs are drawn in the fonts measured.
package struct StyledDrawing: Sendable {
    /// The shaped runs in text order; a run's `fontIndex` is its slot.
    package let runs: [FontRun]
    /// For each run, an index into `features`.
    package let runStyles: [Int]
    /// The HarfBuzz features of each style (the runs' and, last, the base style's).
    package let features: [[String]]
    /// Each slot's font and size in px (`StyledSegmentBuilder.Slot`): the base fonts
    /// first, in their set's order.
    package let fonts: [Font]
    package let sizes: [Double]

    init(_ builder: StyledSegmentBuilder) {
        runs = builder.shapedRuns
        runStyles = builder.shapedRunStyles
        features = builder.styles.map(\.features)
        fonts = builder.slots.map(\.font)
        sizes = builder.slots.map(\.size)
    }
}

extension PreparedText {
    /// How styled text is shaped, from its `attributed` text prepared again: drawing needs
    /// it once (`GlyphStore` keeps what is drawn), measuring never, so preparing keeps
    /// nothing for it, and an edited text's is its own. Nil for plain text, or should
    /// preparing again fail (it did not the first time).
    package func styledDrawing() -> StyledDrawing? {
        guard let attributed else { return nil }
        let measures = Self.measures(fonts: attributed.fonts, style: attributed.style)
        // Without the shape cache: a segment it answers is not shaped, and drawing needs every run.
        var builder = StyledSegmentBuilder(attributed, ellipsis: measures.ellipsis, normalBoxes: measures.lineBoxes,
                                           cache: nil)
        let built = withUnsafeTemporaryAllocation(of: UInt16.self, capacity: attributed.text.utf16.count) { utf16 in
            UTF16Transcoding.copy(attributed.text[...], into: utf16)
            if attributed.style.whiteSpace == .normal { WhiteSpaceCollapsing.spaceNewlinesAndTabs(utf16) }
            do { try builder.build(UnsafeBufferPointer(utf16)) } catch { return false }
            return true
        }
        return built ? StyledDrawing(builder) : nil
    }
}
