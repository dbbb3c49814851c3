import TextMeasure

/// A broken invariant, with what was found.
public struct InvariantViolation: Error, CustomStringConvertible {
    public var description: String
}

/// What every layout must satisfy, whatever the text, fonts and options: checked
/// after each fuzz input (a violation stops the fuzzer, so libFuzzer saves the input)
/// and over the checked-in corpus by `swift test` (`FuzzCorpusTests`).
public enum LayoutInvariants {
    /// Checks `layout`, laid out from `prepared` at `width` with these options.
    ///
    /// `checksFullness`: also check that each line wrapped at a soft or emergency break
    /// was full, by measuring it with what came next on its own. Off for fonts whose
    /// shaping across a break is arbitrary (a mutated font's kerning), where a text
    /// shaped on its own says nothing about it shaped in context.
    public static func check(_ layout: TextLayout, of prepared: PreparedText, width: Double,
                             emptyLines: EmptyLineConvention, lineBreakMode: LineBreakMode = .byWordWrapping,
                             maximumNumberOfLines: Int = 0, checksFullness: Bool = true) throws(InvariantViolation) {
        let text = prepared.text
        let utf16 = text.utf16
        var offset = 0
        var y = 0.0
        var mandatoryBreaks = 0
        var narrowest: [Int]?
        var breaks: [Int]?
        // Word wrapping under the browser rules lets a line be one layout unit (1/64 px) over, as Blink does.
        let room = width + (prepared.style.lineBreakRules == .browser && lineBreakMode == .byWordWrapping ? 1.0 / 64 : 0)
        for (index, line) in layout.lines.enumerated() {
            let isLast = index == layout.lines.count - 1
            try require(line.utf16Range.lowerBound == offset, "line \(index) starts where the previous ended")
            try require(line.utf16Range.upperBound > offset || isLast && line.lineEnd == .endOfText,
                    "only a last line may be empty")
            try require(utf16.distance(from: utf16.startIndex, to: line.range.lowerBound) == line.utf16Range.lowerBound
                    && utf16.distance(from: line.range.lowerBound, to: line.range.upperBound) == line.utf16Range.count,
                    "String.Index range matches the UTF-16 range")
            try require(line.width.isFinite && line.height.isFinite && line.height >= 0, "finite sizes, no negative height")
            try require(line.y == y && line.baseline.isFinite, "lines stack from the top")

            let characters = Array(text[line.range])
            if let elided = line.elidedUTF16Range {
                try require(line.utf16Range.lowerBound <= elided.lowerBound && elided.upperBound <= line.utf16Range.upperBound,
                        "line \(index) elides inside itself")
                // A truncated line fits, "…" included, unless "…" alone is wider than the line.
                let shown = line.displayText.filter { $0 != " " && $0 != "\t" && !$0.isNewline }
                try require(line.width <= width || shown == "\u{2026}", "truncated line \(index) is \(line.width) px at \(width) px")
            } else if line.width > room, lineBreakMode != .byClipping, lineBreakMode != .byCharWrapping {
                // Wrapping between words, only one cluster with a width may overflow (zero- and
                // negative-width ones go along with it). At width 0 each such cluster starts a
                // line of its own, so no line of that layout may start inside this one. (Not
                // checked for clipping, nor for character wrapping, where whitespace never
                // starts a line and so stays, visible, before a cluster that follows it.)
                if narrowest == nil { narrowest = try clusterStarts(of: prepared) }
                let inside = (line.utf16Range.lowerBound + 1)..<line.utf16Range.upperBound
                try require(narrowest?.contains { inside.contains($0) } == false,
                        "line \(index) is \(line.width) px wide at \(width) px and could be broken")
            }
            // Greedy fullness: a line wrapped at a soft or emergency break holds all that fits,
            // so with what came next (the next word; with character wrapping, or inside a broken
            // word, the next cluster), prepared and measured on its own, it would not have fitted.
            // Measured on its own the text loses any kerning and joining across its two ends: an
            // em of slack for that, far less than a word a fitter ending lines early leaves out.
            if checksFullness, !isLast, line.elidedRange == nil,
               line.lineEnd == .softBreak || line.lineEnd == .emergencyBreak {
                let end = line.utf16Range.upperBound
                var nextEnd = end + (text[line.range.upperBound...].first?.utf16.count ?? 0)
                if line.lineEnd == .softBreak, lineBreakMode != .byCharWrapping {
                    if breaks == nil { breaks = try breakOpportunities(of: prepared) }
                    nextEnd = breaks?.first { $0 > end } ?? prepared.utf16Count
                }
                let withNext = try widthAlone(line.utf16Range.lowerBound..<nextEnd, of: prepared)
                try require(withNext > room - prepared.style.fontSize,
                            "line \(index) ended at \(end) though up to \(nextEnd) it is \(withNext) px at \(width) px")
            }
            // A newline ends its line, and no line ends at a newline without being a mandatory break.
            try require(characters.dropLast().allSatisfy { !$0.isNewline }, "a newline inside line \(index)")
            let endsInNewline = characters.last?.isNewline == true
            try require(endsInNewline == (line.lineEnd == .mandatoryBreak), "line \(index) ends in a newline iff mandatory")
            if line.lineEnd == .mandatoryBreak { mandatoryBreaks += 1 }
            offset = line.utf16Range.upperBound
            y += line.height
        }
        try require(offset == layout.visibleUTF16Range.upperBound, "the lines cover the visible text")
        try require(offset == prepared.utf16Count || maximumNumberOfLines > 0 && layout.lines.count == maximumNumberOfLines,
                "only a line limit hides text")
        if maximumNumberOfLines > 0 { try require(layout.lines.count <= maximumNumberOfLines, "at most the line limit") }
        try require(layout.isTruncated == (offset < prepared.utf16Count || layout.lines.contains { $0.elidedRange != nil }),
                "isTruncated says whether text is hidden")
        // Counted, not filtered: a filtered "\r" and "\n" would join into one "\r\n".
        let visible = text[layout.visibleRange]
        let newlines = visible.reduce(0) { $0 + ($1.isNewline ? 1 : 0) }
        try require(mandatoryBreaks == newlines, "one mandatory break per visible newline")
        try require(layout.height == y && layout.usedWidth.isFinite, "the height is the lines' sum")
        if emptyLines == .textView {
            try require(!layout.lines.isEmpty, "a text view always has a line for the caret")
        } else {
            try require(!layout.lines.isEmpty || text.isEmpty, "only empty text has no lines")
        }
    }

    /// Where the lines with a width start when `prepared` is laid out at width 0.
    static func clusterStarts(of prepared: PreparedText) throws(InvariantViolation) -> [Int] {
        do {
            return try prepared.layout(width: 0).lines.filter { $0.width > 0 }.map(\.utf16Range.lowerBound)
        } catch {
            throw InvariantViolation(description: "layout at width 0 failed: \(error)")
        }
    }

    /// The text's line-break opportunities (UTF-16 offsets) under its rules.
    static func breakOpportunities(of prepared: PreparedText) throws(InvariantViolation) -> [Int] {
        do {
            return try prepared.style.lineBreakRules.breakOpportunities(in: prepared.text).map(\.utf16Offset)
        } catch {
            throw InvariantViolation(description: "break opportunities failed: \(error)")
        }
    }

    /// The width of `prepared`'s text in `range` (UTF-16), prepared on its own with the same
    /// fonts and style and laid out on one line: its trailing whitespace hangs.
    static func widthAlone(_ range: Range<Int>, of prepared: PreparedText) throws(InvariantViolation) -> Double {
        let utf16 = prepared.text.utf16
        let start = utf16.index(utf16.startIndex, offsetBy: range.lowerBound)
        let piece = String(prepared.text[start..<utf16.index(start, offsetBy: range.count)])
        do {
            return try PreparedText(piece, fonts: prepared.fonts, style: prepared.style).unwrappedWidth
        } catch {
            throw InvariantViolation(description: "preparing \(piece.debugDescription) alone failed: \(error)")
        }
    }

    /// Checks `sizeThatFits` against the layout at the same proposed width.
    public static func checkSize(_ measurer: TextMeasurer, proposedWidth: Double) throws(InvariantViolation) {
        guard let size = measurer.sizeThatFits(ProposedSize(width: proposedWidth)) else {
            try require(!(proposedWidth.isFinite && proposedWidth > 0), "a usable width \(proposedWidth) gets a size")
            return
        }
        try require(proposedWidth.isFinite && proposedWidth > 0, "no size without a usable width")
        try require(size.height.isFinite && size.height >= 0, "finite height \(size.height)")
        try require(size.width.isFinite && size.width <= proposedWidth, "width within the proposal")
        let intrinsic = measurer.intrinsicContentSize(currentWidth: proposedWidth)
        try require(intrinsic.width == noIntrinsicMetric, "never an intrinsic width")
        if proposedWidth > 1 { try require(intrinsic.height == size.height, "intrinsic height = sizeThatFits height") }
        guard let layout = try? measurer.layout(width: proposedWidth) else {
            try require(false, "layout fails at a width sizeThatFits accepted")
            return
        }
        let natural = layout.height + measurer.container.textContainerInset.top + measurer.container.textContainerInset.bottom
        let lower = measurer.minimumHeight.isFinite ? max(0, measurer.minimumHeight) : 0
        let upper = measurer.maximumHeight.isNaN ? .infinity : max(lower, measurer.maximumHeight)
        if natural > lower, natural + 1 < upper {
            try require(size.height >= natural - 1e-6 && size.height < natural + 1, "height \(size.height) rounds \(natural) up")
        }
        try require(size.height >= lower - 1e-9 && size.height <= max(upper, lower), "height within the limits")
    }

    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(InvariantViolation) {
        if !condition { throw InvariantViolation(description: "invariant violated: \(message())") }
    }
}
