import Testing
import TextMeasure

/// What a layout engineer expects of greedy line fitting, for any text at any
/// width, checked over seeded random texts (`RandomTexts`) through the public API.
///
/// The oracle for "would it have fitted" is the text in question prepared and
/// measured on its own: an independent path through the library (a new
/// segmentation and shaping of that substring), not the fitter's own sums over
/// the whole text's prepared widths. A fitter that ends lines too early (one word
/// per line), too late (an off-by-one in the fit test) or in the wrong place fails.
@Suite struct LayoutPropertyTests {
    /// Blink's `AvailableWidthToFit`: a word-wrapped line may overflow by one layout unit.
    static let layoutUnit = 1.0 / 64

    /// One random text and what the checks share about it.
    struct Subject {
        let prepared: PreparedText
        let text: String
        let breaks: [BreakOpportunity]
        let characterStarts: Set<Int>

        init(_ text: String, style: TextStyle = TextStyle()) throws {
            prepared = try PreparedText(text, style: style)
            self.text = text
            breaks = try prepared.style.lineBreakRules.breakOpportunities(in: text)
            characterStarts = characterBoundaries(text)
        }

        /// `text[range]` (UTF-16) prepared on its own and measured on one line (its
        /// trailing whitespace hangs), in pixels.
        func aloneWidth(_ range: Range<Int>) throws -> Double {
            try PreparedText(String(text.utf16Slice(range)), fonts: prepared.fonts, style: prepared.style).unwrappedWidth
        }

        /// The same width by a second witness: the glyphs the placement stage puts on a
        /// line holding `text[range]` in context (shaped with the text around it), from
        /// the left of the leftmost to the right of the rightmost that is not trailing
        /// whitespace. Shaped alone, a piece can lose context that the library and
        /// Chromium keep (the script a quote inherits, a mark after a space); in context,
        /// it keeps kerning across its ends that a line drops. A line counts as not full
        /// only when both witnesses say the next piece would have fitted.
        func placedWidth(_ range: Range<Int>) -> Double {
            let piece = text.utf16Slice(range)
            let contentEnd = range.lowerBound + piece.trimmingTrailingHangingWhitespace().utf16.count
            let visible = (prepared.glyphs(in: [range]).first ?? []).filter { $0.utf16Offset < contentEnd }
            guard let left = visible.map(\.x).min(), let right = visible.map({ $0.x + $0.advance }).max() else { return 0 }
            return right - min(0, left)
        }

        /// The narrower of the two witnesses' widths of `text[range]` on one line.
        func fittedWidth(_ range: Range<Int>) throws -> Double {
            max(try aloneWidth(range), placedWidth(range))
        }

        /// Whether a line starting at `offset` starts with a mark or variation selector
        /// that follows a space (`isBreakAfterSpaceBeforeMark`): HarfBuzz shapes it into
        /// the space's cluster, whose advance the library shares between the two, so the
        /// line is measured wider than drawn
        /// (`aLineStartingWithAMarkAfterASpaceMeasuresWhatItDraws`, a known issue) and
        /// neither the fit nor the fullness check applies to it.
        func startsWithOrphanMark(_ offset: Int) -> Bool { isBreakAfterSpaceBeforeMark(offset) }

        /// The first break opportunity after `offset`.
        func nextBreak(after offset: Int) -> BreakOpportunity? {
            breaks.first { $0.utf16Offset > offset }
        }

        /// The end of the `Character` that starts at `offset`.
        func characterEnd(from offset: Int) -> Int {
            guard offset < text.utf16.count else { return offset }
            return (offset + 1...text.utf16.count).first { characterStarts.contains($0) } ?? text.utf16.count
        }

        /// Whether a line may start at `offset` though Swift's `Character` does not end
        /// there: UAX #14 breaks after a space before a combining mark or joiner (LB10
        /// and LB18 treat the mark as a letter), while UAX #29 keeps them one cluster
        /// (GB9). Chromium breaks there too.
        func isBreakAfterSpaceBeforeMark(_ offset: Int) -> Bool {
            guard breaks.contains(where: { $0.utf16Offset == offset }), offset > 0, offset < text.utf16.count else {
                return false
            }
            let before = text.utf16Slice((offset - 1)..<offset).unicodeScalars.first
            return before.map { $0.properties.generalCategory == .spaceSeparator } ?? false
        }

        /// Whether `offset` cuts between two Arabic letters. Shaped on its own, each side
        /// would take its final or initial form; the library measures a word broken there
        /// with its joined forms, as Chromium does (its recorded answers, in
        /// `BrowserFidelityTests`, are the reference there), so the oracle of a text
        /// measured on its own does not apply across such a cut.
        func cutsAJoinedWord(_ offset: Int) -> Bool {
            guard offset > 0, offset < text.utf16.count else { return false }
            func isArabic(_ range: Range<Int>) -> Bool {
                text.utf16Slice(range).unicodeScalars.first.map { scalar in Self.arabicRanges.contains { $0.contains(scalar.value) } } ?? false
            }
            let before = text.utf16Slice((offset - 1)..<offset), after = text.utf16Slice(offset..<(offset + 1))
            // Or a Latin ligature (ff, fi, fl in Noto Sans), whose advance the library shares
            // between its letters as Chromium does; shaped on its own each side is its own glyph.
            return isArabic((offset - 1)..<offset) && isArabic(offset..<(offset + 1))
                || before == "f" && ["f", "i", "l"].contains(after)
        }

        static let arabicRanges: [ClosedRange<UInt32>] = [0x0620...0x064A, 0x066E...0x06D3, 0x06FA...0x06FF,
                                                     0x0750...0x077F, 0x08A0...0x08C9]
    }

    /// Lam-alef: two `Character`s drawn as one ligature, which the library (and
    /// Chromium) never breaks, so it may overflow a line alone like one cluster.
    static func isLamAlef(_ text: Substring) -> Bool {
        let characters = Array(text)
        return characters.count == 2 && characters[0].unicodeScalars.first == "\u{644}"
            && characters[1].unicodeScalars.first.map { [0x622, 0x623, 0x625, 0x627].contains($0.value) } == true
    }

    /// Whether `line` may be wider than its box: its content is one cluster.
    static func mayOverflow(_ line: TextLayout.Line) -> Bool {
        let content = content(line)
        return content.count <= 1 || isLamAlef(content)
    }

    /// A line's text without the whitespace that hangs at its end.
    static func content(_ line: TextLayout.Line) -> Substring { line.text.trimmingTrailingHangingWhitespace() }

    /// A width in pixels floored to the 1/64 px layout unit, as a browser's box is.
    static func floored(_ width: Double) -> Double { (width * 64).rounded(.down) / 64 }

    /// The random texts, each with the widths it is laid out at: about 2 s in a debug build.
    static func subjects(seed: UInt64, count: Int) throws -> [(Subject, [Double])] {
        var random = RandomTexts.Generator(state: seed)
        return try (0..<count).map { _ in
            // Sizes, both rule sets (ICU's alone fits with no tolerance) and tab sizes vary too.
            let style = TextStyle(fontSize: [17, 13, 22.5].randomElement(using: &random)!,
                                  lineBreakRules: Int.random(in: 0..<4, using: &random) == 0 ? .uax14 : .browser,
                                  tabSize: [8, 8, 3].randomElement(using: &random)!)
            let subject = try Subject(RandomTexts.text(&random, length: Int.random(in: 1...24, using: &random)), style: style)
            let widths = try (0..<5).map { _ in try RandomTexts.width(&random, for: subject.prepared) }
            return (subject, widths)
        }
    }

    static let cases = try! subjects(seed: 11, count: 50)

    /// Word wrapping: every line fits (or is one cluster too wide for any line), starts
    /// at a cluster boundary and at a break opportunity (or where an over-long word was
    /// broken), and holds as much as fits: the next word would have overflowed it.
    @Test func wordWrappedLinesFitAndAreFull() throws {
        var violations: [String] = []
        for (subject, widths) in Self.cases {
            for width in widths {
                let layout = try subject.prepared.layout(width: width, emptyLines: .label)
                let room = Self.floored(width) + (subject.prepared.style.lineBreakRules == .browser ? Self.layoutUnit : 0)
                let context = "width \(width) \(subject.prepared.style) \(subject.text.debugDescription)"
                var previousEnd: LineEnd?
                for line in layout.lines {
                    let start = line.utf16Range.lowerBound, end = line.utf16Range.upperBound
                    if !subject.characterStarts.contains(start), !subject.isBreakAfterSpaceBeforeMark(start) {
                        violations.append("line starts inside a Character at \(start): \(context)")
                    }
                    if previousEnd != nil, previousEnd != .emergencyBreak,
                       !subject.breaks.contains(where: { $0.utf16Offset == start }) {
                        violations.append("line starts at \(start), no break opportunity: \(context)")
                    }
                    if line.width > room, !Self.mayOverflow(line), !subject.startsWithOrphanMark(start) {
                        violations.append("\(line.text.debugDescription) is \(line.width) px: \(context)")
                    }
                    switch line.lineEnd {
                    case .softBreak:
                        guard let next = subject.nextBreak(after: end) else {
                            violations.append("soft break at the end of the text: \(context)")
                            break
                        }
                        guard !subject.cutsAJoinedWord(start), !subject.startsWithOrphanMark(start) else { break }
                        let withNext = try subject.fittedWidth(start..<next.utf16Offset)
                        if withNext <= room {
                            violations.append("""
                                line \(line.text.debugDescription) ended, but with the next word it is \(withNext) px \
                                ≤ \(room): \(context)
                                """)
                        }
                    case .emergencyBreak:
                        let nextEnd = subject.characterEnd(from: end)
                        guard !subject.cutsAJoinedWord(start), !subject.cutsAJoinedWord(nextEnd),
                              !subject.startsWithOrphanMark(start) else { break }
                        let withNext = try subject.fittedWidth(start..<nextEnd)
                        if withNext <= room {
                            violations.append("""
                                word broken after \(line.text.debugDescription), but with the next cluster it is \
                                \(withNext) px ≤ \(room): \(context)
                                """)
                        }
                    case .mandatoryBreak:
                        if !subject.breaks.contains(where: { $0.utf16Offset == end && $0.isMandatory }) {
                            violations.append("mandatory break at \(end) is not one: \(context)")
                        }
                    case .endOfText:
                        if end != subject.text.utf16.count { violations.append("end of text at \(end): \(context)") }
                    }
                    previousEnd = line.lineEnd
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.count) violations, first: \(violations.prefix(5))")
    }

    /// Character wrapping: every line fits without Blink's tolerance (or is one
    /// cluster), breaks between Characters, and the next cluster would not have fitted.
    @Test func characterWrappedLinesFitAndAreFull() throws {
        var violations: [String] = []
        for (subject, widths) in Self.cases {
            for width in widths {
                let layout = try subject.prepared.layout(width: width, emptyLines: .label, lineBreakMode: .byCharWrapping)
                let room = Self.floored(width)
                let context = "width \(width) \(subject.prepared.style) \(subject.text.debugDescription)"
                for line in layout.lines {
                    let start = line.utf16Range.lowerBound, end = line.utf16Range.upperBound
                    if !subject.characterStarts.contains(start), !subject.isBreakAfterSpaceBeforeMark(start) {
                        violations.append("line starts inside a Character at \(start): \(context)")
                    }
                    if line.width > room, !Self.mayOverflow(line), !subject.startsWithOrphanMark(start) {
                        violations.append("\(line.text.debugDescription) is \(line.width) px: \(context)")
                    }
                    let nextEnd = subject.characterEnd(from: end)
                    if line.lineEnd == .softBreak, !subject.cutsAJoinedWord(start), !subject.cutsAJoinedWord(nextEnd),
                       !subject.startsWithOrphanMark(start) {
                        let withNext = try subject.fittedWidth(start..<nextEnd)
                        if withNext <= room {
                            violations.append("""
                                line \(line.text.debugDescription) ended, but with the next cluster it is \
                                \(withNext) px ≤ \(room): \(context)
                                """)
                        }
                    }
                    #expect(line.lineEnd != .emergencyBreak, "\(context)")
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.count) violations, first: \(violations.prefix(5))")
    }

    /// Clipping: one line per paragraph, whatever the width, each as wide as the
    /// paragraph measured by one of the two witnesses (within a layout unit).
    @Test func clippedLinesAreWholeParagraphs() throws {
        var violations: [String] = []
        for (subject, widths) in Self.cases {
            let paragraphEnds = subject.breaks.filter(\.isMandatory).map(\.utf16Offset)
            for width in widths.prefix(2) {
                let layout = try subject.prepared.layout(width: width, emptyLines: .label, lineBreakMode: .byClipping)
                let ends = layout.lines.map(\.utf16Range.upperBound)
                let expected = paragraphEnds.last == subject.text.utf16.count || subject.text.isEmpty
                    ? paragraphEnds : paragraphEnds + [subject.text.utf16.count]
                if ends != expected { violations.append("clipped at \(ends), paragraphs end at \(expected)") }
                for line in layout.lines {
                    // Either witness (see `placedWidth`; a paragraph's quotes inherit the script of
                    // the text before it) within a layout unit: a cluster's width is rounded to
                    // 1/65536 px and can round differently next to other text.
                    let alone = try subject.aloneWidth(line.utf16Range), placed = subject.placedWidth(line.utf16Range)
                    if abs(line.width - alone) > Self.layoutUnit, abs(line.width - placed) > Self.layoutUnit {
                        violations.append("clipped line \(line.text.debugDescription) \(line.width) px, alone \(alone), placed \(placed)")
                    }
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.count) violations, first: \(violations.prefix(5))")
    }

    /// A line is a line: laid out alone at the width it was fitted to, its text
    /// makes exactly one line, in both wrapping modes.
    @Test func eachLineLaidOutAloneIsOneLine() throws {
        var violations: [String] = []
        for (subject, widths) in Self.cases {
            for width in widths.prefix(3) {
                for mode in [LineBreakMode.byWordWrapping, .byCharWrapping] {
                    for line in try subject.prepared.layout(width: width, emptyLines: .label, lineBreakMode: mode).lines
                    where !subject.cutsAJoinedWord(line.utf16Range.lowerBound)
                        && !subject.cutsAJoinedWord(line.utf16Range.upperBound) {
                        let alone = try PreparedText(String(line.text), style: subject.prepared.style)
                            .layout(width: width, emptyLines: .label, lineBreakMode: mode)
                        if alone.lines.count != 1 {
                            violations.append("""
                                \(mode) \(line.text.debugDescription) at \(width) px alone makes \
                                \(alone.lines.map(\.text))
                                """)
                        }
                    }
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.count) violations, first: \(violations.prefix(5))")
    }

    /// A wider box never needs more lines, and with a fixed line height
    /// `sizeThatFits` never grows taller with the width; `intrinsicContentSize` never
    /// has a width, and its height is `sizeThatFits`'.
    ///
    /// Lines: greedy fitting ends the k-th line no earlier at a wider width, by induction,
    /// as long as a line starting later never needs more room for the same text: true of
    /// summed widths, of tab stops (the next stop never comes earlier when the tab does)
    /// and of emergency breaks (a word moves to the next line first, then breaks where
    /// it overflows). No exception turned up in a search over about 100,000 random pairs
    /// of widths (mixed texts, and Latin words with tabs, hyphens and ligatures).
    ///
    /// The legitimate exception: with `.normal` line height a line's box grows for the
    /// fallback fonts on it (CSS's inline box model), so at a wider width the same
    /// number of lines, grouped differently, can be taller (`aTallerLayoutAtAWiderWidth`
    /// shows one). Only the height may grow, and only so.
    @Test func widerNeverTakesMoreLinesOrHeight() throws {
        var violations: [String] = []
        var random = RandomTexts.Generator(state: 12)
        for (subject, _) in Self.cases {
            let widths = try ((0..<8).map { _ in try RandomTexts.width(&random, for: subject.prepared) } + [0.5, 1])
                .sorted()
            var style = subject.prepared.style
            style.lineHeight = .fixed(21)
            let fixed = try PreparedText(subject.text, style: style)
            let measurer = try TextMeasurer(prepared: fixed, container: .textView)
            var previous: (width: Double, lines: Int, height: Double)?
            for width in widths {
                let lines = try subject.prepared.layout(width: width).lines.count
                let height = try #require(measurer.sizeThatFits(ProposedSize(width: width + 10))).height
                let intrinsic = measurer.intrinsicContentSize(currentWidth: width + 10)
                #expect(intrinsic.width == noIntrinsicMetric && intrinsic.height == height)
                if let previous, lines > previous.lines || height > previous.height {
                    violations.append("""
                        \(previous.lines) lines, \(previous.height) px at \(previous.width) px but \(lines) lines, \
                        \(height) px at \(width): \(subject.text.debugDescription)
                        """)
                }
                previous = (width, lines, height)
            }
        }
        #expect(violations.isEmpty, "\(violations.count) violations, first: \(violations.prefix(5))")
    }

    /// The exception above exists: two lines, one of them with a taller fallback
    /// font, regrouped at a wider width into two lines that both hold one.
    @Test func aTallerLayoutAtAWiderWidth() throws {
        let prepared = try PreparedText("\t . 010-9999. 、、、、、漢 สวัสดีครับ")
        let narrow = try prepared.layout(width: 235.4218985957049)
        let wide = try prepared.layout(width: 291.97080662145146)
        #expect(narrow.lines.count == wide.lines.count)
        #expect(wide.height > narrow.height)
    }

    /// Measure equals render, where a line break splits a `Character`: UAX #14 breaks
    /// after a space before a combining mark, and the line after it starts with the mark.
    /// HarfBuzz shapes the mark into the space's cluster; glyphs are drawn where placement
    /// puts each cluster's box (from the widths line fitting used), so the drawn line ends
    /// where the measured one does.
    @Test func aLineStartingWithAMarkAfterASpaceMeasuresWhatItDraws() throws {
        let prepared = try PreparedText("xxxxxxxx \u{301}क्षत्रिय?", style: TextStyle(fontSize: 22.5))
        let layout = try prepared.layout(width: 70)
        let line = try #require(layout.lines.last)
        try #require(line.text.unicodeScalars.first == "\u{301}")
        let drawn = prepared.glyphs(in: layout).last?.map { $0.x + $0.advance }.max() ?? 0
        #expect(abs(line.width - drawn) <= Self.layoutUnit, "measured \(line.width), drawn \(drawn)")
    }

    /// Found by the properties above (character wrapping): a zero-width joiner after a
    /// space at the end of a full line was taken onto it, making the space visible.
    @Test(arguments: [("Wolf, 1\u{FE0F}\u{20E3} \u{5E2}\u{5D5}\u{5DC}\u{5DD} \u{200D} x", 110.359375)])
    func aZeroWidthClusterAfterASpaceDoesNotOverflowACharacterWrappedLine(text: String, width: Double) throws {
        let layout = try PreparedText(text).layout(width: width, lineBreakMode: .byCharWrapping)
        for line in layout.lines where !Self.mayOverflow(line) {
            #expect(line.width <= width, "\(line.text.debugDescription) is \(line.width) px")
        }
    }
}
