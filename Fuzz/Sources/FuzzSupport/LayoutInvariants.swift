import TextMeasure

/// What every layout must satisfy, whatever the text, fonts and options: checked
/// after each fuzz input. A violation stops the process, so libFuzzer saves the input.
public enum LayoutInvariants {
    /// Checks `layout`, laid out from `prepared` at `width` with these options.
    public static func check(_ layout: TextLayout, of prepared: PreparedText, width: Double,
                             emptyLines: EmptyLineConvention, lineBreakMode: LineBreakMode = .byWordWrapping,
                             maximumNumberOfLines: Int = 0) {
        let text = prepared.text
        let utf16 = text.utf16
        var offset = 0
        var y = 0.0
        var mandatoryBreaks = 0
        var narrowest: [Int]?
        // Word wrapping under the browser rules lets a line be one layout unit (1/64 px) over, as Blink does.
        let room = width + (prepared.style.lineBreakRules == .browser && lineBreakMode == .byWordWrapping ? 1.0 / 64 : 0)
        for (index, line) in layout.lines.enumerated() {
            let isLast = index == layout.lines.count - 1
            require(line.utf16Range.lowerBound == offset, "line \(index) starts where the previous ended")
            require(line.utf16Range.upperBound > offset || isLast && line.lineEnd == .endOfText,
                    "only a last line may be empty")
            require(utf16.distance(from: utf16.startIndex, to: line.range.lowerBound) == line.utf16Range.lowerBound
                    && utf16.distance(from: line.range.lowerBound, to: line.range.upperBound) == line.utf16Range.count,
                    "String.Index range matches the UTF-16 range")
            require(line.width.isFinite && line.height.isFinite && line.height >= 0, "finite sizes, no negative height")
            require(line.y == y && line.baseline.isFinite, "lines stack from the top")

            let characters = Array(text[line.range])
            if let elided = line.elidedUTF16Range {
                require(line.utf16Range.lowerBound <= elided.lowerBound && elided.upperBound <= line.utf16Range.upperBound,
                        "line \(index) elides inside itself")
                // A truncated line fits, "…" included, unless "…" alone is wider than the line.
                let shown = line.displayText.filter { $0 != " " && $0 != "\t" && !$0.isNewline }
                require(line.width <= width || shown == "\u{2026}", "truncated line \(index) is \(line.width) px at \(width) px")
            } else if line.width > room, lineBreakMode != .byClipping, lineBreakMode != .byCharWrapping {
                // Wrapping between words, only one cluster with a width may overflow (zero- and
                // negative-width ones go along with it). At width 0 each such cluster starts a
                // line of its own, so no line of that layout may start inside this one. (Not
                // checked for clipping, nor for character wrapping, where whitespace never
                // starts a line and so stays, visible, before a cluster that follows it.)
                if narrowest == nil { narrowest = clusterStarts(of: prepared) }
                let inside = (line.utf16Range.lowerBound + 1)..<line.utf16Range.upperBound
                require(narrowest?.contains { inside.contains($0) } == false,
                        "line \(index) is \(line.width) px wide at \(width) px and could be broken")
            }
            // A newline ends its line, and no line ends at a newline without being a mandatory break.
            require(characters.dropLast().allSatisfy { !$0.isNewline }, "a newline inside line \(index)")
            let endsInNewline = characters.last?.isNewline == true
            require(endsInNewline == (line.lineEnd == .mandatoryBreak), "line \(index) ends in a newline iff mandatory")
            if line.lineEnd == .mandatoryBreak { mandatoryBreaks += 1 }
            offset = line.utf16Range.upperBound
            y += line.height
        }
        require(offset == layout.visibleUTF16Range.upperBound, "the lines cover the visible text")
        require(offset == prepared.utf16Count || maximumNumberOfLines > 0 && layout.lines.count == maximumNumberOfLines,
                "only a line limit hides text")
        if maximumNumberOfLines > 0 { require(layout.lines.count <= maximumNumberOfLines, "at most the line limit") }
        require(layout.isTruncated == (offset < prepared.utf16Count || layout.lines.contains { $0.elidedRange != nil }),
                "isTruncated says whether text is hidden")
        // Counted, not filtered: a filtered "\r" and "\n" would join into one "\r\n".
        let visible = text[layout.visibleRange]
        let newlines = visible.reduce(0) { $0 + ($1.isNewline ? 1 : 0) }
        require(mandatoryBreaks == newlines, "one mandatory break per visible newline")
        require(layout.height == y && layout.usedWidth.isFinite, "the height is the lines' sum")
        if emptyLines == .textView {
            require(!layout.lines.isEmpty, "a text view always has a line for the caret")
        } else {
            require(!layout.lines.isEmpty || text.isEmpty, "only empty text has no lines")
        }
    }

    /// Where the lines with a width start when `prepared` is laid out at width 0.
    static func clusterStarts(of prepared: PreparedText) -> [Int] {
        guard let layout = try? prepared.layout(width: 0) else { return [] }
        return layout.lines.filter { $0.width > 0 }.map(\.utf16Range.lowerBound)
    }

    /// Checks `sizeThatFits` against the layout at the same proposed width.
    public static func checkSize(_ measurer: TextMeasurer, proposedWidth: Double) {
        guard let size = measurer.sizeThatFits(ProposedSize(width: proposedWidth)) else {
            require(!(proposedWidth.isFinite && proposedWidth > 0), "a usable width \(proposedWidth) gets a size")
            return
        }
        require(proposedWidth.isFinite && proposedWidth > 0, "no size without a usable width")
        require(size.height.isFinite && size.height >= 0, "finite height \(size.height)")
        require(size.width.isFinite && size.width <= proposedWidth, "width within the proposal")
        let intrinsic = measurer.intrinsicContentSize(currentWidth: proposedWidth)
        require(intrinsic.width == noIntrinsicMetric, "never an intrinsic width")
        if proposedWidth > 1 { require(intrinsic.height == size.height, "intrinsic height = sizeThatFits height") }
        guard let layout = try? measurer.layout(width: proposedWidth) else {
            require(false, "layout fails at a width sizeThatFits accepted")
            return
        }
        let natural = layout.height + measurer.container.textContainerInset.top + measurer.container.textContainerInset.bottom
        let lower = measurer.minimumHeight.isFinite ? max(0, measurer.minimumHeight) : 0
        let upper = measurer.maximumHeight.isNaN ? .infinity : max(lower, measurer.maximumHeight)
        if natural > lower, natural + 1 < upper {
            require(size.height >= natural - 1e-6 && size.height < natural + 1, "height \(size.height) rounds \(natural) up")
        }
        require(size.height >= lower - 1e-9 && size.height <= max(upper, lower), "height within the limits")
    }

    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("invariant violated: \(message())") }
    }
}
