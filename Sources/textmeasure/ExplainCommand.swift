import TextMeasure

/// `textmeasure explain`: the layout negotiation of a text, told in plain words.
enum ExplainCommand {
    static let help = """
        usage: textmeasure explain --width W [options] [TEXT | -]
               textmeasure explain --case FILE|- [--width W]

        The layout negotiation in plain words: what size the text asked for, and why.

        For TEXT at the proposed width W, tells: the width the text would take
        unwrapped (idealWidth) against the proposal; the width it takes (fill, or
        --hug); each line and why it ended there (a soft break opportunity and the
        next word, or piece of a word up to a hyphenation point, that did not fit; a
        hyphenation point, whose hyphen counts; a mandatory break; an emergency break
        inside a word too long for the line; the end of the text), and for styled text (--case) the styles on each line
        and why a line is taller than the base style's; the height and how --min-height/--max-height clamped
        it; and what intrinsicContentSize reports. A width that is not usable (0,
        negative, nan, inf) is explained too: it gets no size.

        options (measure's):
          --width W            the proposed width in px (required)
        \(MeasureOptions.help)

        TEXT from standard input must be UTF-8: invalid UTF-8 is an error, never replaced.
        Exit status: 0 success (an unusable width included); 1 bad input (text, font,
        a value out of range); 2 usage error.
        """

    static func run(_ arguments: inout Arguments) throws(CLIError) {
        let measurement = try Measurement.parse(&arguments)
        try StandardOutput.writeLine(Explanation(measurement).paragraphs().joined(separator: "\n"))
    }
}

/// The sentences `explain` prints, one paragraph per step of the negotiation.
private struct Explanation {
    let measurement: Measurement
    /// The text's break opportunities as line fitting had them (the paragraph options'
    /// included: word-break, hyphenation points), as UTF-16 offsets, in order.
    let opportunities: [Int]
    /// Those of `opportunities` where a line that ends shows a hyphen: soft hyphens and
    /// `hyphens: auto`'s hyphenation points.
    let hyphenationPoints: Set<Int>
    var measurer: TextMeasurer { measurement.measurer }
    var proposed: Double { measurement.proposedWidth }

    init(_ measurement: Measurement) {
        self.measurement = measurement
        let segments = measurement.measurer.prepared.segments
        opportunities = segments.map { Int($0.end) }
        hyphenationPoints = Set(segments.lazy.filter { $0.endsWithSoftHyphen && !$0.isMandatoryBreak }.map { Int($0.end) })
    }

    func paragraphs() -> [String] {
        guard let fit = measurement.fit else {
            return [proposal(textWidth: nil), idealWidth(), noSize(), intrinsicSize()]
        }
        return [proposal(textWidth: fit.layout.width), idealWidth(), widthTaken(fit)]
            + lines(fit.layout)
            + [height(fit), "Size: sizeThatFits(width: \(proposed.readable)) = \(fit.size.width.readable) × \(fit.size.height.readable).",
               intrinsicSize()]
    }

    private func proposal(textWidth: Double?) -> String {
        guard let textWidth else {
            return "Proposed width: \(proposed.readable) px, not a usable width (it must be finite and greater than 0): "
                + "there is nothing to wrap against."
        }
        let inset = measurer.container.textContainerInset
        let padding = measurer.container.lineFragmentPadding
        var chrome: [String] = []
        if inset.left != 0 || inset.right != 0 { chrome.append("insets of \(inset.left.readable) left and \(inset.right.readable) right") }
        if padding != 0 { chrome.append("a line fragment padding of \(padding.readable) px at each end") }
        guard !chrome.isEmpty else { return "Proposed width: \(proposed.readable) px, all of it for the text." }
        return "Proposed width: \(proposed.readable) px; after \(chrome.joined(separator: " and ")), "
            + "\(textWidth.readable) px are left for the text."
    }

    private func idealWidth() -> String {
        let ideal = measurer.idealWidth
        var sentence = "Ideal width: \(ideal.readable) px, the width the text would take unwrapped (idealWidth)"
        guard proposed.isFinite, proposed > 0 else { return sentence + "." }
        let ratio = ideal / proposed
        sentence += ", \(ratio.readable)× the proposal"
        if ideal <= proposed { return sentence + ": no line needs to wrap." }
        return sentence + ". It is a diagnostic, never a request: a view that reported it as its intrinsic width "
            + "would ask for \(ideal.readable) px and never wrap."
    }

    private func widthTaken(_ fit: Measurement.Fit) -> String {
        switch measurer.widthSizing {
        case .fill:
            return "Width taken: \(fit.size.width.readable) px, the proposed width: a text view fills the width it is offered "
                + "(--hug would take the widest line, as a label does)."
        case .hug:
            return "Width taken: \(fit.size.width.readable) px (--hug): the widest line, \(fit.layout.usedWidth.readable) px, "
                + "plus insets and padding, rounded up to whole px and never wider than the proposal."
        }
    }

    private func noSize() -> String {
        "Size: none. sizeThatFits(width: \(proposed.readable)) is nil rather than a guess: against no width a "
            + "measurement would be wrong either way (one line's height, or the \(measurer.idealWidth.readable) px of "
            + "the unwrapped text). Measure again once layout proposes a width."
    }

    private func intrinsicSize() -> String {
        let size = measurer.intrinsicContentSize(currentWidth: proposed)
        let prefix = "Intrinsic size: intrinsicContentSize(currentWidth: \(proposed.readable)) = "
        guard size.height != noIntrinsicMetric else {
            return prefix + "(noIntrinsicMetric, noIntrinsicMetric): while the current width is not known (≤ 1 px, as "
                + "before the first layout pass) there is no height either, never a one-line guess."
        }
        return prefix + "(noIntrinsicMetric, \(size.height.readable)): no width of its own, so the layout's width wins, "
            + "and the height at the current width. Before the width is known (≤ 1 px) both are noIntrinsicMetric."
    }

    // MARK: Lines

    private func lines(_ layout: TextLayout) -> [String] {
        let count = layout.lines.count
        let rows = layout.lines.enumerated().map { index, line in
            (number: String(index + 1), text: "\"" + TerminalText.visible(line.displayText) + "\"",
             width: line.width.readable + " px", why: notes(on: line, isLast: index == count - 1, in: layout))
        }
        let columns = (text: rows.map { TerminalText.columns($0.text) }.max() ?? 0,
                       width: rows.map(\.width.count).max() ?? 0)
        return ["Lines: \(count) at \(layout.width.readable) px\(limits)."] + rows.map { row in
            "  " + String(repeating: " ", count: String(count).count - row.number.count) + row.number + "  "
                + TerminalText.padded(row.text, toColumns: columns.text) + "  "
                + String(repeating: " ", count: columns.width - row.width.count) + row.width + "  " + row.why
        }
    }

    /// The line-break mode and line limit, when they are not the defaults.
    private var limits: String {
        let container = measurer.container
        var limits: [String] = []
        if container.lineBreakMode != .byWordWrapping { limits.append("--line-break-mode \(container.lineBreakMode.rawValue)") }
        if container.maximumNumberOfLines > 0 { limits.append("--max-lines \(container.maximumNumberOfLines)") }
        return limits.isEmpty ? "" : " (" + limits.joined(separator: ", ") + ")"
    }

    /// Why `line` ended where it did, and what else shapes it: an ellipsis, a
    /// width past the box, the text a line limit hides after it.
    private func notes(on line: TextLayout.Line, isLast: Bool, in layout: TextLayout) -> String {
        var notes = [why(line, available: layout.width)]
        if let hyphen = line.hyphen {
            let softHyphen = measurement.text.utf16[measurement.text.utf16.index(before: line.range.upperBound)] == 0xAD
            let style = measurer.prepared.style
            notes.append("at a hyphenation point (a soft hyphen, or hyphens: auto): a hyphen "
                + "(U+\(String(hyphen.value, radix: 16, uppercase: true))) is drawn and counted in the width, "
                + (softHyphen ? "here at a soft hyphen" : "here one of hyphens: auto's" + (style.language.map { " (\($0) patterns)" } ?? "")))
        }
        if let whole = widthWithBracketWhole(line) {
            notes.append("fits only with its closing bracket set half-width (text-spacing-trim): "
                + "\(whole.readable) px with it whole")
        }
        if let elided = line.elidedRange {
            notes.append(elided.isEmpty ? "truncated: \"…\" marks the text hidden after it"
                                        : "truncated: \"…\" stands for \(quoted(measurement.text[elided]))")
        }
        if line.width > layout.width {
            notes.append("wider than the \(layout.width.readable) px box: a renderer clips it")
        }
        if isLast, layout.visibleUTF16Range.upperBound < measurement.text.utf16.count {
            notes.append("the line limit hides the text after it")
        }
        if measurer.prepared.attributed != nil { notes += styles(on: line) }
        return notes.joined(separator: "; ")
    }

    /// The width of `line` with its last closing bracket whole, when fitting set it
    /// half-width to fit (`PunctuationTrim`'s line-end trim); nil otherwise.
    private func widthWithBracketWhole(_ line: TextLayout.Line) -> Double? {
        let prepared = measurer.prepared
        let segments = prepared.segments
        let end = line.utf16Range.upperBound
        let index = segments.partitioningIndex { Int($0.end) >= end }
        guard index < segments.count, Int(segments[index].end) == end, segments[index].trimsAtLineEdge,
              let trim = prepared.edgeAdjustments[segments[index].contentGraphemeEnd - 1]?.end, trim < 0 else { return nil }
        // The clusters at their widths inside a line, and a starting bracket's width back.
        let first = prepared.graphemeEnds.partitioningIndex { Int($0) > line.utf16Range.lowerBound }
        var whole = first > 0 ? Int(prepared.edgeAdjustments[Int32(first - 1)]?.start ?? 0) : 0
        for g in first..<Int(segments[index].contentGraphemeEnd) { whole += Int(prepared.graphemeWidths[g]) }
        let perPixel = Double(Units.widthPerPixel)
        guard abs(line.width * perPixel - Double(whole + Int(trim))) < 1 else { return nil }
        return Double(whole) / perPixel
    }

    /// For styled text: the styles on `line`, and why it is taller than a line of the
    /// base style alone when it is (a run's inline box reaches past the strut's).
    private func styles(on line: TextLayout.Line) -> [String] {
        let runs = measurer.prepared.runs(on: line)
        let named = runs.map { run -> String in
            guard let index = run.runIndex else { return "base \(run.style.fontSize.readable) px" }
            if let box = run.placeholder {
                return "run \(index): placeholder \(box.width.readable)×\(box.height.readable) px"
            }
            var parts = ["\(run.style.fontSize.readable) px"]
            if run.fonts.fonts.first !== measurer.prepared.fonts.primary { parts.append(run.fonts.primary.name) }
            if run.style.letterSpacing != 0 { parts.append("letter spacing \(run.style.letterSpacing.readable)") }
            if run.style.wordSpacing != 0 { parts.append("word spacing \(run.style.wordSpacing.readable)") }
            return "run \(index): " + parts.joined(separator: ", ")
        }
        var notes = ["styles: " + named.joined(separator: " · ")]
        let base = measurer.prepared
        if let strut = try? PreparedText("x", fonts: base.fonts, style: base.style).layout(width: 1_000).lines[0].height,
           line.height > strut {
            let boxes = runs.compactMap { $0.runIndex.map { "run \($0)" } }
            notes.append("taller than a line of the base style (\(line.height.readable) px, not \(strut.readable)): "
                         + "the inline boxes of \(boxes.isEmpty ? "its fallback fonts" : boxes.joined(separator: ", ")) "
                         + "reach past the strut")
        }
        return notes
    }

    /// Why `line` ended where it did.
    private func why(_ line: TextLayout.Line, available: Double) -> String {
        let text = measurement.text
        switch line.lineEnd {
        case .softBreak:
            // What did not fit: the next grapheme cluster with char wrapping, else the next word,
            // or the next piece of it up to a hyphenation point, with the hyphen a line ending there shows.
            let piece: Substring, name: String
            var hyphen = ""
            if measurer.container.lineBreakMode == .byCharWrapping {
                guard line.range.upperBound < text.endIndex else { return "soft break" }
                piece = text[line.range.upperBound..<text.index(after: line.range.upperBound)]
                name = "the next character"
            } else {
                let end = line.utf16Range.upperBound
                let after = firstOpportunity { $0 > end }
                guard after < opportunities.count else { return "soft break" }
                piece = text[line.range.upperBound..<index(line.range.upperBound, movedBy: opportunities[after] - end)]
                if hyphenationPoints.contains(opportunities[after]) {
                    hyphen = String(measurer.prepared.hyphen.scalar)
                    name = "the next piece of a word, up to a hyphenation point"
                } else {
                    name = hyphenationPoints.contains(end) ? "the rest of the word" : "the next word"
                }
            }
            // A soft hyphen ending the piece shows the hyphen itself; a hyphenation point has none to show.
            let shown = hyphen.isEmpty ? quoted(piece) : quoted(piece.last == "\u{AD}" ? piece.dropLast() : piece, adding: hyphen)
            let extended = text[line.range.lowerBound..<piece.endIndex]
            let together = width(of: hyphen.isEmpty || extended.last == "\u{AD}" ? extended : Substring(extended + hyphen))
            let withHyphen = hyphen.isEmpty ? "" : " with its hyphen"
            // Shaped apart from its context the line may differ from the prepared one by a hair: no
            // numbers then, rather than a comparison that reads wrong.
            guard together > available else { return "soft break: \(name), \(shown)\(withHyphen), did not fit" }
            return "soft break: \(name), \(shown)\(withHyphen), would make it \(together.readable) px, "
                + "more than \(available.readable)"
        case .mandatoryBreak:
            return "mandatory break: \(terminatorName(text[line.range]))"
        case .emergencyBreak:
            let end = line.utf16Range.upperBound
            let before = firstOpportunity { $0 >= end } - 1, after = firstOpportunity { $0 > end }
            let start = before >= 0 ? opportunities[before] : 0
            let next = after < opportunities.count ? opportunities[after] : end
            let word = text[index(line.range.upperBound, movedBy: start - end)..<index(line.range.upperBound, movedBy: next - end)]
            return "emergency break: the word \(quoted(word)), \(width(of: word).readable) px, has no break opportunity "
                + "that fits \(available.readable) px, so it is split between grapheme clusters"
        case .endOfText:
            if line.range.isEmpty {
                return measurement.text.isEmpty
                    ? "end of text: empty text still has a line for the caret (--label: none)"
                    : "end of text: the empty line a final newline starts (--label: none)"
            }
            return "end of text"
        }
    }

    /// The index of the first opportunity for which `isAfter` holds (it holds for
    /// all after that one), or `opportunities.count`.
    private func firstOpportunity(where isAfter: (Int) -> Bool) -> Int {
        opportunities.partitioningIndex(where: isAfter)
    }

    private func index(_ index: String.Index, movedBy utf16Distance: Int) -> String.Index {
        measurement.text.utf16.index(index, offsetBy: utf16Distance)
    }

    /// The unwrapped width of a piece of the text, shaped on its own with the same
    /// fonts and style; its trailing spaces hang, as at the end of a line.
    private func width(of piece: Substring) -> Double {
        let prepared = measurer.prepared
        return (try? PreparedText(String(piece), fonts: prepared.fonts, style: prepared.style))?.unwrappedWidth ?? .nan
    }

    /// A word for a sentence: in quotes, without the spaces after it, cut short when long,
    /// with `suffix` (a hyphen) after it.
    private func quoted(_ word: Substring, adding suffix: String = "") -> String {
        let piece = word.prefix(through: word.lastIndex(where: { !$0.isWhitespace }) ?? word.startIndex)
        let shown = TerminalText.visible(piece.count > 32 ? piece.prefix(31) + "…" : String(piece))
        return "\"" + shown + suffix + "\""
    }

    /// The name of the mandatory break that ends `line`.
    private func terminatorName(_ line: Substring) -> String {
        if line.hasSuffix("\r\n") { return "CR LF" }   // one Character, so checked before the last scalar
        guard let last = line.unicodeScalars.last else { return "a newline" }
        switch last.value {
        case 0x0A: return "LF (line feed)"
        case 0x0B: return "VT (line tabulation)"
        case 0x0C: return "FF (form feed)"
        case 0x0D: return "CR (carriage return)"
        case 0x85: return "NEL (next line)"
        case 0x2028: return "U+2028 LINE SEPARATOR"
        case 0x2029: return "U+2029 PARAGRAPH SEPARATOR"
        default: return "U+\(String(last.value, radix: 16, uppercase: true))"
        }
    }

    // MARK: Height

    private func height(_ fit: Measurement.Fit) -> String {
        let lines = fit.layout.lines
        let inset = measurer.container.textContainerInset
        var sentence = "Height: "
        if lines.isEmpty {
            sentence += "no lines (--label, and no text), 0 px"
        } else {
            sentence += "\(lines.count) line\(lines.count == 1 ? "" : "s")"
            let heights = groupedHeights(lines)
            if heights.count == 1 {
                sentence += " × \(heights[0].height.readable) px"
            } else {
                sentence += " (" + heights.map { "\($0.count) × \($0.height.readable) px" }.joined(separator: ", ")
                    + (measurer.prepared.attributed == nil ? ": a line using a fallback font grows to hold it)"
                                                            : ": a line grows to hold its runs' and fallback fonts' boxes)")
            }
            sentence += " = \(fit.layout.height.readable) px (line height \(lineHeightName))"
        }
        let total = fit.layout.height + inset.top + inset.bottom
        if inset.top != 0 || inset.bottom != 0 {
            sentence += ", plus insets of \(inset.top.readable) top and \(inset.bottom.readable) bottom = \(total.readable) px"
        }
        var unclamped = measurer
        unclamped.minimumHeight = 0
        unclamped.maximumHeight = .infinity
        let natural = unclamped.sizeThatFits(ProposedSize(width: proposed))?.height ?? fit.size.height
        sentence += natural == total ? "." : ", rounded up to whole px: \(natural.readable) px."
        if fit.size.height > natural {
            sentence += " Raised to --min-height: \(fit.size.height.readable) px."
        } else if fit.size.height < natural {
            sentence += " Capped at --max-height: \(fit.size.height.readable) px; the text view scrolls the other "
                + "\((natural - fit.size.height).readable) px."
        } else if measurer.minimumHeight > 0 || measurer.maximumHeight.isFinite {
            sentence += " Within --min-height \(measurer.minimumHeight.readable) and --max-height "
                + "\(measurer.maximumHeight.readable): unchanged."
        }
        return sentence
    }

    private var lineHeightName: String {
        switch measurer.prepared.style.lineHeight {
        case .normal: "normal: the font's ascent, descent and line gap"
        case .fixed(let height): "fixed at \(height.readable) px"
        case .multiple(let multiple): "\(multiple.readable) × normal"
        }
    }

    /// The distinct line heights, in order of first appearance, with how many lines have each.
    private func groupedHeights(_ lines: [TextLayout.Line]) -> [(height: Double, count: Int)] {
        var groups: [(height: Double, count: Int)] = []
        for line in lines {
            if let index = groups.firstIndex(where: { $0.height == line.height }) {
                groups[index].count += 1
            } else {
                groups.append((line.height, 1))
            }
        }
        return groups
    }
}
