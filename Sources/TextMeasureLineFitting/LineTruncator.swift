/// Shortens a paragraph to one line with "…" in place of what does not fit, as
/// TextKit's truncating line-break modes do.
///
/// Cuts fall between grapheme clusters, never inside one; spaces and tabs next to
/// the ellipsis are dropped with the elided text. Arithmetic only: the clusters'
/// widths and the ellipsis were measured at preparation.
package struct LineTruncator {
    /// Where the ellipsis goes.
    enum Position {
        case head, middle, tail
    }

    let prepared: PreparedText
    /// The width available to the text, in width units (`Units.widthPerPixel`).
    let width: Int
    let position: Position

    /// The line that shows the paragraph from `line.start` on, on one line no wider
    /// than `width` (unless the ellipsis alone is wider): `line` itself if the
    /// paragraph fits on it, else the paragraph shortened with "…".
    ///
    /// - Parameter hidesFollowingText: text after the paragraph is not shown (the
    ///   line limit): a tail truncation then ends the line with "…" even when the
    ///   paragraph fits.
    func truncate(_ line: LineFragment, hidesFollowingText: Bool) -> LineFragment {
        let paragraph = self.paragraph(from: line.start)
        let showsWhole = line.end == paragraph.end && line.width <= width
        if showsWhole, !(hidesFollowingText && position == .tail) { return line }

        let first = graphemeIndex(at: line.start)
        var contentEnd = paragraph.graphemeEnd
        while contentEnd > first, prepared.graphemeHangs[contentEnd - 1] { contentEnd -= 1 }
        let budget = width - prepared.ellipsis.width

        var head = first..<first, tail = contentEnd..<contentEnd
        var headWidth = 0, tailWidth = 0
        switch position {
        case .tail:
            (head, headWidth) = longestHead(of: first..<contentEnd, budget: budget)
        case .head:
            (tail, tailWidth) = longestTail(of: first..<contentEnd, budget: budget)
        case .middle:
            // Half the room to the beginning, the rest to the end, then whatever the
            // end could not use back to the beginning: neither side can take another cluster.
            (head, headWidth) = longestHead(of: first..<contentEnd, budget: budget / 2)
            (tail, tailWidth) = longestTail(of: head.upperBound..<contentEnd, budget: budget - headWidth)
            (head, headWidth) = longestHead(of: first..<tail.lowerBound, budget: budget - tailWidth)
        }
        var truncated = line
        truncated.end = paragraph.end
        truncated.lineEnd = paragraph.lineEnd
        truncated.hyphenated = false   // the line now runs to its paragraph's end, past the soft hyphen
        truncated.width = headWidth + prepared.ellipsis.width + tailWidth
        truncated.fonts = prepared.fontMask(graphemes: head) | prepared.fontMask(graphemes: tail) | prepared.ellipsis.fontMask
        truncated.elided = offset(ofGrapheme: head.upperBound)..<offset(ofGrapheme: tail.lowerBound)
        return truncated
    }

    /// The longest run of clusters from the start of `graphemes` that fits in
    /// `budget` and does not end in whitespace, and its width.
    private func longestHead(of graphemes: Range<Int>, budget: Int) -> (Range<Int>, Int) {
        var best = (graphemes.lowerBound..<graphemes.lowerBound, 0)
        var sum = 0
        for g in graphemes {
            sum += Int(prepared.graphemeWidths[g])
            if sum > budget { break }
            if !prepared.graphemeHangs[g] { best = (graphemes.lowerBound..<(g + 1), sum) }
        }
        return best
    }

    /// The longest run of clusters up to the end of `graphemes` that fits in
    /// `budget` and does not start with whitespace, and its width.
    private func longestTail(of graphemes: Range<Int>, budget: Int) -> (Range<Int>, Int) {
        var best = (graphemes.upperBound..<graphemes.upperBound, 0)
        var sum = 0
        for g in graphemes.reversed() {
            sum += Int(prepared.graphemeWidths[g])
            if sum > budget { break }
            if !prepared.graphemeHangs[g] { best = (g..<graphemes.upperBound, sum) }
        }
        return best
    }

    /// The end of the paragraph that contains `offset`: its UTF-16 offset (after
    /// the newline, if any), one past its last grapheme, and why it ends there.
    private func paragraph(from offset: Int) -> (end: Int, graphemeEnd: Int, lineEnd: LineEnd) {
        let segments = prepared.segments
        // The first segment that ends after `offset`, then the first mandatory break from there.
        var index = segments.partitioningIndex { Int($0.end) > offset }
        while index < segments.count - 1, !segments[index].isMandatoryBreak { index += 1 }
        guard index < segments.count else { return (offset, graphemeIndex(at: offset), .endOfText) }
        let segment = segments[index]
        return (Int(segment.end), Int(segment.graphemeEnd), segment.isMandatoryBreak ? .mandatoryBreak : .endOfText)
    }

    /// The index of the grapheme that starts at UTF-16 `offset`, a cluster boundary.
    private func graphemeIndex(at offset: Int) -> Int {
        prepared.graphemeEnds.partitioningIndex { Int($0) > offset }
    }

    /// The UTF-16 offset at which grapheme `index` starts.
    private func offset(ofGrapheme index: Int) -> Int {
        index == 0 ? 0 : Int(prepared.graphemeEnds[index - 1])
    }
}
