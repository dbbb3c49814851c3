/// Greedy first-fit line breaking over a prepared text's segments: each line takes
/// as many segments as fit, in 1/64 px integer arithmetic.
///
/// Trailing spaces hang: they never make a line wrap and never count toward its
/// width. A segment wider than an empty line is broken between grapheme clusters.
/// This is pure arithmetic over `PreparedText`'s cached widths: fitting at a new
/// width measures nothing.
struct GreedyLineFitter {
    let prepared: PreparedText
    /// The width available to the text, in 1/64 px.
    let width: Int
    /// Text-view convention: empty text, and text ending in a newline, get an empty last line.
    let addsEmptyLastLine: Bool

    func fit() -> [LineFragment] {
        var lines: [LineFragment] = []
        lines.reserveCapacity(4)   // one allocation for most texts, rather than one per doubling
        let segments = prepared.segments
        var lineStart = 0
        var committed = 0      // width of the line so far, trailing whitespace included
        var visible = 0        // width of the line so far, trailing whitespace hanging
        var fonts: UInt64 = 0

        func endLine(at end: Int, _ reason: LineEnd) {
            lines.append(LineFragment(start: lineStart, end: end, width: visible, fonts: fonts, lineEnd: reason))
            lineStart = end
            committed = 0; visible = 0; fonts = 0
        }

        var segmentStart = 0
        var firstGrapheme = 0
        for segment in segments {
            var pieceStart = segmentStart
            var grapheme = firstGrapheme
            var remaining = segment.width
            while true {
                // Whitespace alone adds nothing visible: it stays on the line and hangs.
                if committed + remaining <= width || Int(segment.contentGraphemeEnd) == firstGrapheme {
                    visible = committed + remaining
                    committed = visible + segment.trailingWidth
                    break
                }
                if pieceStart > lineStart {
                    // The line has content: break before this segment, and try it again on an empty line.
                    endLine(at: pieceStart, .softBreak)
                    continue
                }
                // Too wide for an empty line: take the clusters that fit, at least one.
                var taken = 0
                var g = grapheme
                let contentEnd = Int(segment.contentGraphemeEnd)
                while g < contentEnd {
                    let w = Int(prepared.graphemeWidths[g])
                    if g > grapheme, taken + w > width { break }
                    taken += w
                    g += 1
                }
                if g >= contentEnd {
                    // Everything left fits only as one cluster wider than the line: take it.
                    visible = taken
                    committed = taken + segment.trailingWidth
                    break
                }
                visible = taken
                fonts |= segment.fonts
                pieceStart = Int(prepared.graphemeEnds[g - 1])
                endLine(at: pieceStart, .emergencyBreak)
                grapheme = g
                remaining = max(0, remaining - taken)
            }
            fonts |= segment.fonts
            segmentStart = Int(segment.end)
            firstGrapheme = Int(segment.graphemeEnd)
            if segment.isMandatoryBreak { endLine(at: segmentStart, .mandatoryBreak) }
        }
        if lineStart < prepared.utf16Count {
            endLine(at: prepared.utf16Count, .endOfText)
        } else if addsEmptyLastLine, lines.isEmpty || lines[lines.count - 1].lineEnd == .mandatoryBreak {
            endLine(at: prepared.utf16Count, .endOfText)
        }
        return lines
    }
}
