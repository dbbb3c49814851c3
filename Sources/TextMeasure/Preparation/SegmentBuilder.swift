import CHarfBuzz

/// Builds a `PreparedText`'s segments: segmentation → font runs → shaping → widths.
struct SegmentBuilder {
    let fonts: FontSet
    let style: TextStyle
    private(set) var segments: [Segment] = []
    private(set) var graphemeEnds: [Int32] = []
    private(set) var graphemeWidths: [Int32] = []
    private(set) var graphemeFonts: [UInt8] = []
    private(set) var graphemeHangs: [Bool] = []
    private(set) var ellipsis = Ellipsis(width: 0, fontIndex: 0)
    private(set) var edgeAdjustments: [Int32: EdgeAdjustment] = [:]
    private(set) var tabStops = TabStops.none

    init(fonts: FontSet, style: TextStyle) {
        self.fonts = fonts
        self.style = style
    }

    mutating func build(_ text: UnsafeBufferPointer<UInt16>) throws(TextMeasureError) {
        let shaper = Shaper(features: style.fontFeatures)
        ellipsis = measureEllipsis(with: shaper)
        guard !text.isEmpty else { return }
        // 1. Segmentation.
        let breaks = try Boundaries.lineBreaks(in: text, rules: style.lineBreakRules)
        let clusters = Self.merge(try Boundaries.graphemes(in: text), breaks)

        // 2. Font runs.
        let runs = FontItemizer(fonts: fonts.fonts)
            .runs(in: text, graphemes: clusters, breaks: breaks, fontForGrapheme: &graphemeFonts)

        // 3. Shaping: advances per cluster offset, in each font's advance units.
        var advances = [Int32](repeating: 0, count: text.count)
        var edges = [UInt8](repeating: 0, count: text.count + 1)
        var glyphs = [UInt32](repeating: 0, count: text.count)
        advances.withUnsafeMutableBufferPointer { advances in
            edges.withUnsafeMutableBufferPointer { edges in
                glyphs.withUnsafeMutableBufferPointer { glyphs in
                    for run in runs {
                        shaper.shape(run, of: text, with: fonts.fonts[run.fontIndex], into: advances,
                                     edges: edges, firstGlyphs: glyphs)
                    }
                }
                LineEdgeWidths.splitLigatures(advances, edges: UnsafeBufferPointer(edges), graphemeEnds: clusters, runs: runs)
            }
        }
        let scales = fonts.fonts.map(scale)
        edgeAdjustments = LineEdgeWidths.adjustments(
            text: text, graphemeEnds: clusters, breaks: breaks, runs: runs, edges: edges, glyphs: glyphs,
            advances: advances, fonts: fonts.fonts, scales: scales, shaper: shaper)

        // 4. Widths summed into segments.
        let space = spaceWidth()
        let tabWidth = space * Double(max(0, style.tabSize))
        tabStops = TabStops(interval: Int(tabWidth.rounded()), minimum: Int((space / 2).rounded()), graphemes: [])
        segments.reserveCapacity(breaks.count)
        graphemeEnds.reserveCapacity(clusters.count)
        graphemeWidths.reserveCapacity(clusters.count)
        graphemeHangs.reserveCapacity(clusters.count)

        // Widths are telescoped from exact running positions (a browser adds float
        // advances along the line and rounds once): each cluster's width is
        // round(end) - round(start), so any run of clusters sums to within one width
        // unit of its exact width, where rounding each cluster would drift.
        var position = 0.0
        var content = 0, trailing = 0
        var fontMask: UInt64 = 0
        var contentEnd: Int32 = 0
        var nextBreak = 0
        var start = 0
        advances.withUnsafeBufferPointer { advances in
            for (index, boundary) in clusters.enumerated() {
                let end = Int(boundary)
                let fontIndex = Int(graphemeFonts[index])
                let first = text[start]
                let (firstScalar, _) = Scalars.decode(text, at: start)
                var width = 0.0
                if first == 0x09 {
                    width = tabWidth
                    tabStops.graphemes.append(Int32(index))
                } else if !Scalars.isZeroWidthControl(firstScalar) {
                    var units = 0
                    for offset in start..<end { units += Int(advances[offset]) }
                    width = Double(units) * scales[fontIndex]
                }
                graphemeEnds.append(boundary)
                let before = position.rounded()
                position += width
                let rounded = Int(position.rounded() - before)
                graphemeWidths.append(Int32(clamping: rounded))

                let hangs = Scalars.isMandatoryBreak(first) || Self.isHangingWhitespace(text, start, end)
                graphemeHangs.append(hangs)
                if hangs {
                    trailing += rounded
                } else {
                    content += trailing + rounded
                    trailing = 0
                    contentEnd = Int32(index + 1)
                    if width > 0 { fontMask |= 1 << UInt64(fontIndex) }
                }

                if nextBreak < breaks.count, breaks[nextBreak].utf16Offset == end {
                    var segment = Segment(end: boundary, graphemeEnd: Int32(index + 1), contentGraphemeEnd: contentEnd,
                                          width: content, trailingWidth: trailing,
                                          fonts: fontMask, isMandatoryBreak: breaks[nextBreak].isMandatory)
                    segment.endsWithHeldHyphen = style.lineBreakRules == .browser && trailing == 0
                        && BrowserTailoring.hyphenHoldsAtLineStart(text, at: end - 1)
                    segments.append(segment)
                    nextBreak += 1
                    content = 0; trailing = 0; fontMask = 0
                    contentEnd = Int32(index + 1)
                }
                start = end
            }
        }
    }

    private static func isHangingWhitespace(_ text: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int) -> Bool {
        for offset in start..<end where !Scalars.isHangingSpace(text[offset]) { return false }
        return true
    }

    /// Width units per advance unit of `font` at the style's size.
    private func scale(_ font: Font) -> Double {
        style.fontSize * Double(Segment.unitsPerPixel) / Double(font.advanceUnitsPerEm)
    }

    /// The ellipsis that truncation draws: U+2026 shaped on its own in the first
    /// font of the set that covers it, as TextKit measures its truncation token.
    /// Measured here, once, so that truncating at any width is arithmetic.
    private func measureEllipsis(with shaper: borrowing Shaper) -> Ellipsis {
        let text = [UInt16(LineBreakMode.ellipsis.value)]
        var advance: [Int32] = [0]
        let fontIndex = text.withUnsafeBufferPointer { text in
            let fontIndex = FontItemizer(fonts: fonts.fonts).fontIndex(for: text, start: 0, end: 1)
            let run = FontRun(start: 0, end: 1, fontIndex: fontIndex, script: HB_SCRIPT_COMMON)
            advance.withUnsafeMutableBufferPointer { shaper.shape(run, of: text, with: fonts.fonts[fontIndex], into: $0) }
            return fontIndex
        }
        return Ellipsis(width: Int((Double(advance[0]) * scale(fonts.fonts[fontIndex])).rounded()), fontIndex: fontIndex)
    }

    /// The advance of the primary font's space, in width units: the unit of tab widths.
    private func spaceWidth() -> Double {
        let font = fonts.primary
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font.hbFont, 0x20, &glyph) != 0 else { return style.fontSize * Double(Segment.unitsPerPixel) / 4 }
        let advance = Double(hb_font_get_glyph_h_advance(font.hbFont, glyph))
        return advance * style.fontSize * Double(Segment.unitsPerPixel) / Double(font.metrics.unitsPerEm)
    }

    /// Grapheme boundaries with every break opportunity added, so that segment ends
    /// always fall on a cluster boundary even where ICU's line and grapheme rules differ.
    private static func merge(_ graphemes: [Int32], _ breaks: [BreakOpportunity]) -> [Int32] {
        var merged: [Int32] = []
        merged.reserveCapacity(graphemes.count)
        var b = 0
        for boundary in graphemes {
            while b < breaks.count, breaks[b].utf16Offset < Int(boundary) {
                merged.append(Int32(breaks[b].utf16Offset))
                b += 1
            }
            if b < breaks.count, breaks[b].utf16Offset == Int(boundary) { b += 1 }
            merged.append(boundary)
        }
        return merged
    }
}
